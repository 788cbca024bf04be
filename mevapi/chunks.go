package mevapi

import (
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/metrics"
)

var chunkBytesGauge = metrics.NewRegisteredGauge("gavel/mev/listener/body/chunks", nil)

// readChunk is the size of the pieces ReadAll reads bodies into. Each is
// reserved from the body budget before it is taken, so what a request holds
// grows with what it received, 64 KiB at a time.
const readChunk = 64 << 10

// keepChunks is how many free chunks the store keeps for reuse once no
// body is being read (4 MiB): enough for the honest submissions of a slot.
// While bodies are being read every chunk given back is kept (so the free
// ones and those handed out never exceed the most handed out at once,
// which the body budget bounds); once none is out, those beyond keepChunks
// are returned to the OS. Unmapping each chunk as it came back cost a tenth
// of the CPU of a sustained attack of 16 MB registration requests.
const keepChunks = 64

// chunks are the read chunks of every listener in the process.
var chunks = &chunkStore{}

// chunkStore hands out the read chunks. On Unix they live outside the Go
// heap (anonymous mappings, see chunks_unix.go): an attack that makes the
// listener hold its whole body budget in chunks neither triggers garbage
// collections nor makes honest goroutines assist one (the trace of the
// 200-address gzip attack showed mark assists of 90-120 ms in every
// allocating goroutine), and the memory leaves the process as soon as the
// chunks come back, not when the collector and the scavenger get to it.
type chunkStore struct {
	mu   sync.Mutex
	free [][]byte
	out  int // chunks handed out and not yet given back
}

// get returns a chunk of readChunk bytes (its contents are undefined).
func (s *chunkStore) get() []byte {
	s.mu.Lock()
	s.out++
	var c []byte
	if n := len(s.free); n > 0 {
		c, s.free = s.free[n-1], s.free[:n-1]
	}
	chunkBytesGauge.Update(int64(s.out+len(s.free)) * readChunk)
	s.mu.Unlock()
	if c == nil {
		c = allocChunk()
	}
	return c
}

// put gives a chunk back; nothing may use it afterwards.
func (s *chunkStore) put(c []byte) {
	s.mu.Lock()
	s.out--
	s.free = append(s.free, c)
	var surplus [][]byte
	if s.out == 0 && len(s.free) > keepChunks {
		surplus = slices.Clone(s.free[keepChunks:])
		clear(s.free[keepChunks:])
		s.free = s.free[:keepChunks]
	}
	chunkBytesGauge.Update(int64(s.out+len(s.free)) * readChunk)
	s.mu.Unlock()
	for _, c := range surplus {
		freeChunk(c)
	}
}

// ChunkBytes reports the bytes of read chunks the process holds now: those
// handed out to body readers and the free ones kept for reuse. On Unix they
// are outside the Go heap, so runtime memory statistics do not show them.
func ChunkBytes() int64 {
	chunks.mu.Lock()
	defer chunks.mu.Unlock()
	return int64(chunks.out+len(chunks.free)) * readChunk
}
