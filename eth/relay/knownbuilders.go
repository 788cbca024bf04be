package relay

import (
	"context"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// KnownBuilderSlots is how many slots a builder stays known after a bid of
// it passed every check and was stored (see KnownBuilder).
const KnownBuilderSlots = 64

// maxKnownBuilders bounds the builders remembered; when full, those whose
// window has passed are forgotten first, and a new builder is not added
// while every entry is still in its window.
const maxKnownBuilders = 4096

// builderRefreshLag is how many slots before the head of its previous
// refresh a refresh reads the bid traces from again: traces reach the
// database in batches (store.SubmissionBuffer flushes every second), so
// those of the last slots may have come in after the previous read.
const builderRefreshLag = 4

// builderRefreshTimeout bounds one refresh's reads.
const builderRefreshTimeout = 10 * time.Second

// knownBuilders remembers, per builder public key, the slot of its latest
// bid verified and stored by a relay instance, and the statuses the
// operator set (store.BuilderStatus). Builder keys are not registered, so
// a signature alone costs an attacker nothing; a track record does: only a
// builder whose block was simulated and accepted gets in, or one the
// operator vouches for.
//
// The database is the source: every verified bid is a bid trace there
// (relay_submissions, sim_success), written by whichever instance verified
// it; the set is read from it when the relay starts and refreshed in the
// background at each new head slot (only the last slots' traces, and the
// statuses), so it survives restarts and every instance on one database
// shares it. A bid this instance stores counts at once.
type knownBuilders struct {
	mu     sync.Mutex
	window uint64
	last   map[beacon.BLSPubkey]uint64 // builder -> slot of its latest stored bid
	status map[beacon.BLSPubkey]string // builder -> store.BuilderHighPriority or store.BuilderBlocked
	// optimistic is the builders the operator made optimistic (optimistic.go).
	optimistic map[beacon.BLSPubkey]optimisticStatus
	// demotedAt is when this instance demoted a builder or heard of it:
	// a read from before the demotion committed, or from a replica behind,
	// must not undo it; only a re-promotion set later does.
	demotedAt map[beacon.BLSPubkey]time.Time

	kick chan uint64   // head slots to refresh at (the latest wins)
	quit chan struct{} // closed by stop
	done chan struct{} // closed when the refresher returned
	from uint64        // the slot the next refresh reads traces from
}

func newKnownBuilders(window uint64) *knownBuilders {
	return &knownBuilders{window: window, last: map[beacon.BLSPubkey]uint64{}, status: map[beacon.BLSPubkey]string{},
		optimistic: map[beacon.BLSPubkey]optimisticStatus{}, demotedAt: map[beacon.BLSPubkey]time.Time{}}
}

// add records a stored bid of pk for slot.
func (k *knownBuilders) add(pk beacon.BLSPubkey, slot uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if prev, ok := k.last[pk]; ok {
		k.last[pk] = max(prev, slot)
		return
	}
	if len(k.last) >= maxKnownBuilders {
		k.expire(slot)
		if len(k.last) >= maxKnownBuilders {
			return
		}
	}
	k.last[pk] = slot
}

// expire forgets the builders whose window has passed at slot; k.mu is held.
func (k *knownBuilders) expire(slot uint64) {
	for b, s := range k.last {
		if s+k.window < slot {
			delete(k.last, b)
		}
	}
}

// known reports whether pk had a bid stored within the window before slot,
// or the operator marked it high-priority; never for a blocked builder.
func (k *knownBuilders) known(pk beacon.BLSPubkey, slot uint64) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	switch k.status[pk] {
	case store.BuilderHighPriority:
		return true
	case store.BuilderBlocked:
		return false
	}
	s, ok := k.last[pk]
	return ok && slot <= s+k.window
}

// blocked reports whether the operator blocked pk.
func (k *knownBuilders) blocked(pk beacon.BLSPubkey) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.status[pk] == store.BuilderBlocked
}

// builderStatuses is what the known builders are read from.
type builderStatuses interface {
	store.RelayBuilders
	OptimisticBuilders(ctx context.Context, fn func(*store.OptimisticBuilder) error) error
}

// load reads, for head slot head, the builders with a verified bid trace
// from k.from on and the operator's statuses, and moves k.from up for the
// next read.
func (k *knownBuilders) load(ctx context.Context, st builderStatuses, head uint64) error {
	status := map[beacon.BLSPubkey]string{}
	if err := st.BuilderStatuses(ctx, func(b *store.BuilderStatus) error {
		status[b.Pubkey] = b.Status
		return nil
	}); err != nil {
		return err
	}
	optimistic := map[beacon.BLSPubkey]optimisticStatus{}
	if err := st.OptimisticBuilders(ctx, func(b *store.OptimisticBuilder) error {
		optimistic[b.Pubkey] = optimisticStatus{collateral: b.Collateral.Uint256(), demoted: b.Demoted, updatedAt: b.UpdatedAt}
		return nil
	}); err != nil {
		return err
	}
	k.mu.Lock()
	from := k.from
	k.status = status
	k.setOptimistic(optimistic)
	k.expire(head)
	k.mu.Unlock()
	err := st.RecentBuilders(ctx, from, maxKnownBuilders, func(pk beacon.BLSPubkey, slot uint64) error {
		k.add(pk, slot)
		return nil
	})
	if err != nil {
		return err
	}
	k.mu.Lock()
	k.from = max(k.from, head-min(head, builderRefreshLag))
	k.mu.Unlock()
	return nil
}

// start loads the set for the current slot, then refreshes it in the
// background at every head slot refresh is told of, until stop.
func (k *knownBuilders) start(st builderStatuses, current uint64) error {
	k.from = current - min(current, k.window)
	ctx, cancel := context.WithTimeout(context.Background(), builderRefreshTimeout)
	err := k.load(ctx, st, current)
	cancel()
	if err != nil {
		return err
	}
	k.kick, k.quit, k.done = make(chan uint64, 1), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(k.done)
		for {
			select {
			case <-k.quit:
				return
			case head := <-k.kick:
				ctx, cancel := context.WithTimeout(context.Background(), builderRefreshTimeout)
				if err := k.load(ctx, st, head); err != nil {
					log.Warn("Relay could not refresh the known builders from the database", "slot", head, "err", err)
				}
				cancel()
			}
		}
	}()
	return nil
}

// refresh asks the background refresher to read the set again for head
// (it never waits: a refresh already asked for is replaced).
func (k *knownBuilders) refresh(head uint64) {
	if k.kick == nil {
		return
	}
	for {
		select {
		case k.kick <- head:
			return
		default:
		}
		select {
		case <-k.kick: // drop the older head
		default:
		}
	}
}

// stop ends the background refresher.
func (k *knownBuilders) stop() {
	if k.quit != nil {
		close(k.quit)
		<-k.done
		k.quit = nil
	}
}

// KnownBuilder reports whether builder pk may use the share of the body
// budget kept for builders the relay knows: it had a bid verified and
// stored by any relay instance on this database within the last
// KnownBuilderSlots slots before slot, or the operator marked it
// high-priority (store.BuilderHighPriority); never a blocked builder. The
// listener lets the submissions of such builders, once their signature
// verified, draw on a share of the body budget that others cannot fill.
func (r *Relay) KnownBuilder(pk beacon.BLSPubkey, slot uint64) bool {
	return r.knownBuilders.known(pk, slot)
}

// 0. checkBuilderBlocked: the operator has not blocked the builder
// (store.BuilderBlocked).
func (r *Relay) checkBuilderBlocked(t *beacon.BidTrace) error {
	if r.knownBuilders.blocked(t.BuilderPubkey) {
		return withMessage(ErrBuilderBlocked, "builder %s is blocked by the relay's operator", t.BuilderPubkey)
	}
	return nil
}
