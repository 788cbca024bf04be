package mevapi

import (
	"container/heap"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/metrics"
)

var (
	cpuBusyGauge    = metrics.NewRegisteredGauge("gavel/mev/listener/cpu/busy", nil)
	cpuWaitingGauge = metrics.NewRegisteredGauge("gavel/mev/listener/cpu/waiting", nil)
)

// cpuGate bounds how many goroutines do CPU-heavy work on request bodies
// (inflating gzip, decoding large bodies) at once: GOMAXPROCS-1 of them, at
// least one, so whatever bodies clients send, a core stays free for cheap
// requests (a getHeader, a health check, a small registration) and the
// node's own work. In the trace of the 200-address gzip attack both cores
// inflated for 150 ms while new connections' goroutines waited to run.
//
// Turns go to the waiting request that has had the least work so far
// (bytes inflated or decoded), the earliest among equals: a fresh honest
// submission is not queued behind attackers that already inflated
// megabytes.
type cpuGate struct {
	mu      sync.Mutex
	size    int
	free    int
	seq     uint64
	waiting turnQueue
	peak    int   // most turns taken at once
	work    int64 // bytes inflated or decoded in turns
}

func newCPUGate(size int) *cpuGate {
	return &cpuGate{size: size, free: size}
}

// cpuTurnsFor is the size of the CPU gate: GOMAXPROCS-1, at least one.
func cpuTurnsFor(procs int) int { return max(1, procs-1) }

// waiter is a request waiting for a turn.
type waiter struct {
	done  int64 // work done so far
	seq   uint64
	index int // in the queue, -1 once handed the turn
	ready chan struct{}
}

type turnQueue []*waiter

func (q turnQueue) Len() int { return len(q) }
func (q turnQueue) Less(i, j int) bool {
	return q[i].done < q[j].done || q[i].done == q[j].done && q[i].seq < q[j].seq
}
func (q turnQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}
func (q *turnQueue) Push(x any) {
	w := x.(*waiter)
	w.index = len(*q)
	*q = append(*q, w)
}
func (q *turnQueue) Pop() any {
	old := *q
	w := old[len(old)-1]
	*q = old[:len(old)-1]
	w.index = -1
	return w
}

// acquire waits for a turn until the deadline (none when zero); done is the
// work the caller had so far. It reports whether the turn was taken: a
// request with the most work done can wait behind fresh ones for long, and
// the read timeout bounds that wait too.
func (g *cpuGate) acquire(done int64, deadline time.Time) bool {
	g.mu.Lock()
	if g.free > 0 {
		g.free--
		g.peak = max(g.peak, g.size-g.free)
		cpuBusyGauge.Update(int64(g.size - g.free))
		g.mu.Unlock()
		return true
	}
	w := &waiter{done: done, seq: g.seq, ready: make(chan struct{})}
	g.seq++
	heap.Push(&g.waiting, w)
	cpuWaitingGauge.Update(int64(len(g.waiting)))
	g.mu.Unlock()
	if deadline.IsZero() {
		<-w.ready
		return true
	}
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case <-w.ready:
		return true
	case <-timer.C:
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if w.index < 0 { // handed the turn as the timer fired
		return true
	}
	heap.Remove(&g.waiting, w.index)
	cpuWaitingGauge.Update(int64(len(g.waiting)))
	return false
}

// release ends a turn, handing it to the first waiter if any.
func (g *cpuGate) release() {
	g.mu.Lock()
	if len(g.waiting) > 0 {
		w := heap.Pop(&g.waiting).(*waiter)
		cpuWaitingGauge.Update(int64(len(g.waiting)))
		g.mu.Unlock()
		close(w.ready)
		return
	}
	g.free++
	cpuBusyGauge.Update(int64(g.size - g.free))
	g.mu.Unlock()
}

// GateStats is the use of the listener's CPU gate since it started.
type GateStats struct {
	Size    int   // turns that can be taken at once
	Busy    int   // turns taken now
	Waiting int   // requests waiting for a turn now
	Peak    int   // most turns taken at once
	Work    int64 // bytes inflated or decoded in turns
}

func (g *cpuGate) stats() GateStats {
	g.mu.Lock()
	defer g.mu.Unlock()
	return GateStats{Size: g.size, Busy: g.size - g.free, Waiting: len(g.waiting), Peak: g.peak, Work: g.work}
}

// worked adds n bytes to the work done in turns.
func (g *cpuGate) worked(n int64) {
	g.mu.Lock()
	g.work += n
	g.mu.Unlock()
}

// cpuTurns is one request's use of the gate (requests read their body from
// one goroutine at a time).
type cpuTurns struct {
	g     *cpuGate
	done  int64
	held  bool
	until time.Time // the request's read timeout (zero: none)
}

// errNoTurn is returned when a request's read timeout passes while it waits
// for a turn.
var errNoTurn = fmt.Errorf("%w: no turn to inflate or decode the body within the read timeout", ErrSlowBody)

func (t *cpuTurns) take() error {
	if !t.held {
		if !t.g.acquire(t.done, t.until) {
			slowBodyMeter.Mark(1)
			return errNoTurn
		}
		t.held = true
	}
	return nil
}

func (t *cpuTurns) give() {
	if t.held {
		t.held = false
		t.g.release()
	}
}

// Heavy runs f, CPU-heavy work of size bytes on the request's body (decoding
// a large body), in a turn of the listener's CPU gate; a nil Account runs it
// at once. When no turn comes before the request's read timeout, f does not
// run and the error is ErrBusy (503): the gate stays the bound under a
// sustained flood.
func (a *Account) Heavy(size int64, f func()) error {
	if a == nil || a.cpu == nil {
		f()
		return nil
	}
	if a.cpu.take() != nil {
		if a.resp != nil {
			a.resp.Set("Connection", "close")
		}
		return fmt.Errorf("%w: no turn to decode the body within the read timeout", ErrBusy)
	}
	defer a.cpu.give()
	f()
	a.cpu.done += size
	a.cpu.g.worked(size)
	return nil
}

// Inflating returns the reader of an inflater (gzip) and the source it
// should read from, so that inflating holds a turn of the listener's CPU
// gate and waiting for the network does not: wrap the network body with
// net, build the inflater on it, and read from cpu(inflater). Outside a
// Server both return their argument.
func (a *Account) Inflating() (net func(io.Reader) io.Reader, cpu func(io.Reader) io.Reader) {
	if a == nil || a.cpu == nil {
		id := func(r io.Reader) io.Reader { return r }
		return id, id
	}
	return func(r io.Reader) io.Reader { return netReader{r, a.cpu} },
		func(r io.Reader) io.Reader { return cpuReader{r, a.cpu} }
}

// cpuReader holds a turn while reading (inflating) from its reader.
type cpuReader struct {
	r io.Reader
	t *cpuTurns
}

func (c cpuReader) Read(p []byte) (int, error) {
	if err := c.t.take(); err != nil {
		return 0, err
	}
	n, err := c.r.Read(p)
	c.t.give()
	c.t.done += int64(n)
	c.t.g.worked(int64(n))
	return n, err
}

// netReader gives the turn up while it waits for the network.
type netReader struct {
	r io.Reader
	t *cpuTurns
}

func (n netReader) Read(p []byte) (int, error) {
	held := n.t.held
	n.t.give()
	k, err := n.r.Read(p)
	if held {
		if terr := n.t.take(); terr != nil && err == nil {
			err = terr
		}
	}
	return k, err
}
