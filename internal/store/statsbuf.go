package store

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"
)

// StatsBuffer collects per-signer counters in memory and writes them to a
// UserStats store in one transaction per flush, so counting a request costs
// a map update, not a commit. Reads merge the stored row with what is not
// flushed yet. Counters are statistics, not acknowledged writes: at most one
// flush interval is lost if the process dies.
type StatsBuffer struct {
	db  UserStats
	now func() time.Time

	mu      sync.Mutex
	pending map[common.Address]*UserStat
	// flushing is held for writing while a flush moves counters from
	// pending to the store, and for reading by Get, so that Get never sees a
	// counter in neither place (or in both).
	flushing sync.RWMutex

	interval time.Duration
	quit     chan struct{}
	done     chan struct{}
}

// NewStatsBuffer starts a buffer flushing to db every interval (and on Close).
func NewStatsBuffer(db UserStats, interval time.Duration) *StatsBuffer {
	b := &StatsBuffer{db: db, now: time.Now, pending: map[common.Address]*UserStat{}, interval: interval, quit: make(chan struct{}), done: make(chan struct{})}
	go flushEvery(interval, nil, b.quit, b.done, b.Flush, "Cannot write user stats")
	return b
}

// FlushInterval is how often counters are written: a crash loses at most
// this much of them.
func (b *StatsBuffer) FlushInterval() time.Duration { return b.interval }

// Add counts one event of kind for addr. Requests also move LastSeen (and
// FirstSeen for a new signer); the zero address is ignored.
func (b *StatsBuffer) Add(addr common.Address, kind bundle.StatKind) {
	if addr == (common.Address{}) {
		return
	}
	now := b.now().UnixMilli()
	b.mu.Lock()
	defer b.mu.Unlock()
	u := b.pending[addr]
	if u == nil {
		u = &UserStat{Address: addr, SignerStats: bundle.SignerStats{FirstSeen: now, LastSeen: now}}
		b.pending[addr] = u
	}
	switch kind {
	case bundle.StatRequest:
		u.Requests++
		u.LastSeen = now
	case bundle.StatBundle:
		u.Bundles++
	case bundle.StatBetaBundle:
		u.BetaBundles++
	case bundle.StatInclusion:
		u.Inclusions++
	case bundle.StatBetaIncluded:
		u.BetaIncluded++
	case bundle.StatBetaMissed:
		u.BetaMissed++
	}
}

// SignerStats returns the counters of addr, stored plus pending: the
// domain's view of Get.
func (b *StatsBuffer) SignerStats(ctx context.Context, addr common.Address) (*bundle.SignerStats, error) {
	u, err := b.Get(ctx, addr)
	if err != nil {
		return nil, err
	}
	return &u.SignerStats, nil
}

// Get returns the counters of addr, stored plus pending, or ErrNotFound. A
// failing database is an internal fault (errclass.Internal).
func (b *StatsBuffer) Get(ctx context.Context, addr common.Address) (*UserStat, error) {
	b.flushing.RLock()
	defer b.flushing.RUnlock()
	stored, err := b.db.UserStat(ctx, addr)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, errclass.Internal(err)
	}
	b.mu.Lock()
	p := b.pending[addr]
	var pc UserStat
	if p != nil {
		pc = *p
		// The pending buckets are the buffer's own: copy them.
		pc.AllTime, pc.Hours = bundle.Usage{}, nil
		pc.addUsage(p)
	}
	b.mu.Unlock()
	switch {
	case stored == nil && p == nil:
		return nil, err
	case stored == nil:
		pc.windows(b.now().Unix() / 3600)
		return &pc, nil
	case p != nil:
		stored.addUsage(&pc)
		stored.Requests += pc.Requests
		stored.Bundles += pc.Bundles
		stored.BetaBundles += pc.BetaBundles
		stored.Inclusions += pc.Inclusions
		stored.BetaIncluded += pc.BetaIncluded
		stored.BetaMissed += pc.BetaMissed
		stored.FirstSeen = min(stored.FirstSeen, pc.FirstSeen)
		stored.LastSeen = max(stored.LastSeen, pc.LastSeen)
	}
	stored.windows(b.now().Unix() / 3600)
	return stored, nil
}

// Flush writes the pending counters.
func (b *StatsBuffer) Flush(ctx context.Context) error {
	b.flushing.Lock()
	defer b.flushing.Unlock()
	b.mu.Lock()
	if len(b.pending) == 0 {
		b.mu.Unlock()
		return nil
	}
	batch := make([]UserStat, 0, len(b.pending))
	for _, u := range b.pending {
		batch = append(batch, *u)
	}
	b.pending = map[common.Address]*UserStat{}
	b.mu.Unlock()
	if err := b.db.AddUserStats(ctx, batch); err != nil {
		// Put them back so the next flush retries.
		b.mu.Lock()
		for i := range batch {
			u := batch[i]
			if p := b.pending[u.Address]; p != nil {
				p.Requests += u.Requests
				p.Bundles += u.Bundles
				p.BetaBundles += u.BetaBundles
				p.Inclusions += u.Inclusions
				p.BetaIncluded += u.BetaIncluded
				p.BetaMissed += u.BetaMissed
				p.FirstSeen = min(p.FirstSeen, u.FirstSeen)
				p.LastSeen = max(p.LastSeen, u.LastSeen)
				p.addUsage(&u)
			} else {
				b.pending[u.Address] = &u
			}
		}
		b.mu.Unlock()
		return err
	}
	return nil
}

// flushEvery calls flush every interval and whenever kick fires (kick may be
// nil), until quit closes; then it closes done. Failures are logged with msg
// and retried on the next round.
func flushEvery(interval time.Duration, kick <-chan struct{}, quit <-chan struct{}, done chan<- struct{}, flush func(context.Context) error, msg string) {
	defer close(done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-kick:
		case <-quit:
			return
		}
		if err := flush(context.Background()); err != nil {
			log.Warn(msg, "err", err)
		}
	}
}

// Close stops the flusher and writes what is pending. Call it before
// closing the store.
func (b *StatsBuffer) Close() error {
	select {
	case <-b.quit:
		return nil
	default:
	}
	close(b.quit)
	<-b.done
	return b.Flush(context.Background())
}
