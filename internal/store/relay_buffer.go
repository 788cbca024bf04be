package store

import (
	"context"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/metrics"
)

var (
	tracesWrittenMeter = metrics.NewRegisteredMeter("gavel/relay/traces/written", nil)
	tracesDroppedMeter = metrics.NewRegisteredMeter("gavel/relay/traces/dropped", nil)
	tracesQueuedGauge  = metrics.NewRegisteredGauge("gavel/relay/traces/queued", nil)
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
	go flushEvery(interval, b.kick, b.quit, b.done, b.Flush, "Cannot write bid traces")
	return b
}

// Add queues s. It never blocks; it reports false when the queue is full
// and s was dropped.
func (b *SubmissionBuffer) Add(s BlockSubmission) bool {
	b.mu.Lock()
	if len(b.pending) >= b.max {
		b.dropped++
		b.mu.Unlock()
		tracesDroppedMeter.Mark(1)
		return false
	}
	b.pending = append(b.pending, s)
	full := len(b.pending) >= b.batch
	tracesQueuedGauge.Update(int64(len(b.pending)))
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
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil {
		room := b.max - len(b.pending)
		if room < len(todo) {
			lost := len(todo) - max(room, 0)
			b.dropped += uint64(lost)
			tracesDroppedMeter.Mark(int64(lost))
			todo = todo[:max(room, 0)]
		}
		b.pending = append(todo, b.pending...)
	} else {
		tracesWrittenMeter.Mark(int64(len(todo)))
	}
	tracesQueuedGauge.Update(int64(len(b.pending)))
	return err
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
