package store

import (
	"context"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/log"
)

// SubmissionBuffer queues block submissions (bid traces) in memory and writes
// them with PutBlockSubmissions in one transaction per flush, so recording a
// submission on the hot path costs an append, not a commit. Bid traces are
// not acknowledged writes: what is queued when the process dies is lost, and
// when more than max traces are waiting the newest are dropped (and counted)
// rather than letting memory grow without bound.
type SubmissionBuffer struct {
	db    Relay
	batch int
	max   int

	mu      sync.Mutex
	pending []BlockSubmission
	dropped uint64

	flushMu sync.Mutex // one flush at a time, in order
	kick    chan struct{}
	quit    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// Default SubmissionBuffer settings.
const (
	DefaultSubmissionBatch    = 500
	DefaultSubmissionMaxQueue = 100_000
)

// NewSubmissionBuffer starts a buffer that flushes to db every interval,
// whenever batch traces are waiting, and on Close. Zero batch or max take
// the defaults.
func NewSubmissionBuffer(db Relay, interval time.Duration, batch, max int) *SubmissionBuffer {
	if batch <= 0 {
		batch = DefaultSubmissionBatch
	}
	if max <= 0 {
		max = DefaultSubmissionMaxQueue
	}
	b := &SubmissionBuffer{db: db, batch: batch, max: max, kick: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go b.loop(interval)
	return b
}

// Add queues s. It never blocks; it reports false when the queue is full
// and s was dropped.
func (b *SubmissionBuffer) Add(s BlockSubmission) bool {
	b.mu.Lock()
	if len(b.pending) >= b.max {
		b.dropped++
		b.mu.Unlock()
		return false
	}
	b.pending = append(b.pending, s)
	full := len(b.pending) >= b.batch
	b.mu.Unlock()
	if full {
		select {
		case b.kick <- struct{}{}:
		default:
		}
	}
	return true
}

// Pending returns how many traces wait to be written and how many were
// dropped so far.
func (b *SubmissionBuffer) Pending() (queued int, dropped uint64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.pending), b.dropped
}

// Flush writes everything queued so far. On a write error the traces are
// put back at the front of the queue (as far as room allows) for the next
// flush.
func (b *SubmissionBuffer) Flush(ctx context.Context) error {
	b.flushMu.Lock()
	defer b.flushMu.Unlock()
	b.mu.Lock()
	todo := b.pending
	b.pending = nil
	b.mu.Unlock()
	if len(todo) == 0 {
		return nil
	}
	err := b.db.PutBlockSubmissions(ctx, todo)
	if err != nil {
		b.mu.Lock()
		room := b.max - len(b.pending)
		if room < len(todo) {
			b.dropped += uint64(len(todo) - room)
			todo = todo[:max(room, 0)]
		}
		b.pending = append(todo, b.pending...)
		b.mu.Unlock()
	}
	return err
}

func (b *SubmissionBuffer) loop(interval time.Duration) {
	defer close(b.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-b.kick:
		case <-b.quit:
			return
		}
		if err := b.Flush(context.Background()); err != nil {
			log.Warn("Cannot write bid traces", "err", err)
		}
	}
}

// Close stops the background flushing and writes what is queued.
func (b *SubmissionBuffer) Close() error {
	var err error
	b.once.Do(func() {
		close(b.quit)
		<-b.done
		err = b.Flush(context.Background())
	})
	return err
}
