package relay

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// deliveryGuard is the equivocation guard: at most one payload per slot,
// ever, and never one for a slot older than the latest delivered. The first
// getPayload for a slot claims it, publishes the block once and commits the
// delivery record (see recordFirst for the order); requests for the same
// block wait for that and then get the same payload without a second
// publication; requests for another block are refused. The store's
// per-slot uniqueness backs the guard across restarts and relay instances;
// with instances sharing the database, so does "never an older slot" (see
// commit).
type deliveryGuard struct {
	st store.Relay
	// putLatest, with a database shared by several instances, records a
	// delivery unless a later slot was recorded (store.Shared).
	putLatest func(context.Context, *store.DeliveredPayload) (*store.DeliveredPayload, error)
	// recordFirst writes the record before publishing: with a database
	// shared by several instances the record is the claim the others see,
	// so it must come first (as the reference relay's Redis check does).
	// Alone, the relay publishes first and records only accepted blocks.
	recordFirst bool
	running     sync.WaitGroup // publications after getPayload v2 answered
	mu          sync.Mutex
	latest      uint64 // highest slot delivered (0: none)
	slots       map[uint64]*delivery
}

// delivery is one slot's claimed delivery.
type delivery struct {
	hash beacon.Root
	// sig is the proposer's signature of the beacon block that claimed the
	// slot (zero when the claim was read back from the store): BLS
	// signatures are deterministic, so another signature over the same
	// execution header is another beacon block of the slot.
	sig  beacon.BLSSignature
	done chan struct{} // closed when the record is committed (or failed)
	err  error
}

func newDeliveryGuard(ctx context.Context, st store.Relay) (*deliveryGuard, error) {
	g := &deliveryGuard{st: st, slots: make(map[uint64]*delivery)}
	slot, ok, err := st.LatestDeliveredSlot(ctx)
	if err != nil {
		return nil, fmt.Errorf("relay: reading the last delivered slot: %w", err)
	}
	if ok {
		g.latest = slot
		d, err := st.Delivered(ctx, slot)
		if err != nil {
			return nil, fmt.Errorf("relay: reading the delivery of slot %d: %w", slot, err)
		}
		done := make(chan struct{})
		close(done)
		g.slots[slot] = &delivery{hash: d.BlockHash, done: done}
	}
	return g, nil
}

// slotDelivered reports whether slot is at or below the latest delivered
// slot: submissions for it are pointless.
func (g *deliveryGuard) slotDelivered(slot uint64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.latest != 0 && slot <= g.latest
}

// deliver claims slot for the bid's block, publishes it once and commits
// record durably (alone: only once the block was accepted; sharing a
// database: before publishing, see recordFirst). Concurrent and repeated
// calls for the same block get the first call's outcome without publishing
// again (one under another beacon block, sig, is counted and logged as the
// proposer's equivocation); after a failed publication or record the next
// call tries again; calls for another block of the slot, or for an older
// slot, fail. With
// async the claim is made (or refused) before it returns, and the rest runs
// in the background.
func (g *deliveryGuard) deliver(ctx context.Context, slot uint64, hash beacon.Root, sig beacon.BLSSignature, async bool, publish func(context.Context) error, record func() *store.DeliveredPayload) error {
	for {
		g.mu.Lock()
		d, ok := g.slots[slot]
		switch {
		case ok && d.hash != hash:
			g.mu.Unlock()
			return ErrEquivocation
		case !ok && g.latest != 0 && slot < g.latest:
			g.mu.Unlock()
			return ErrSlotDelivered
		case !ok:
			return g.attempt(ctx, slot, hash, sig, async, publish, record)
		}
		second := d.sig != (beacon.BLSSignature{}) && d.sig != sig
		g.mu.Unlock()
		if second {
			// The same execution payload under a second beacon block (other
			// graffiti, say): the proposer signed two blocks for one slot.
			// Its payload is public already, so it is served again, as the
			// reference relay keys on the block hash; the second block is
			// not published, so the relay does not carry the equivocation.
			proposerEquivocations.Mark(1)
			log.Warn("Proposer signed a second beacon block for a delivered payload: equivocation, not published",
				"slot", slot, "block", hash, "first", d.sig, "second", sig)
		}
		if async {
			select {
			case <-d.done:
			default:
				return nil // being published
			}
		}
		select {
		case <-d.done:
		case <-ctx.Done():
			return internal("waiting for the delivery record", ctx.Err())
		}
		if !errors.Is(d.err, ErrPublish) && !errors.Is(d.err, ErrInternal) {
			return d.err
		}
		// The last attempt could not publish or record: try again, one at a
		// time (publishing an accepted block again is harmless).
		g.mu.Lock()
		if g.slots[slot] == d {
			return g.attempt(ctx, slot, hash, d.sig, async, publish, record)
		}
		g.mu.Unlock()
	}
}

// attempt is one publication and record of slot's claimed block, called
// with g.mu held (it releases it); with async it runs in the background.
func (g *deliveryGuard) attempt(ctx context.Context, slot uint64, hash beacon.Root, sig beacon.BLSSignature, async bool, publish func(context.Context) error, record func() *store.DeliveredPayload) error {
	d := &delivery{hash: hash, sig: sig, done: make(chan struct{})}
	g.slots[slot] = d
	prevLatest := g.latest
	if slot > g.latest {
		g.latest = slot
	}
	g.mu.Unlock()
	run := func(ctx context.Context) error {
		defer close(d.done)
		published := false
		if !g.recordFirst {
			if err := publish(ctx); err != nil {
				d.err = fmt.Errorf("%w: %v", ErrPublish, err)
				return d.err
			}
			published = true
		}
		var winner beacon.Root
		winner, d.err = g.commit(ctx, hash, record())
		switch {
		case errors.Is(d.err, ErrEquivocation):
			// Another instance delivered winner for this slot: the claim
			// becomes winner's, so requests for that block are served here
			// too.
			done := make(chan struct{})
			close(done)
			g.mu.Lock()
			g.slots[slot] = &delivery{hash: winner, done: done}
			g.mu.Unlock()
			return d.err
		case errors.Is(d.err, ErrInternal) && !published:
			// Nothing was recorded nor published: release the claim so a
			// retry can deliver.
			g.mu.Lock()
			delete(g.slots, slot)
			if g.latest == slot {
				g.latest = prevLatest
			}
			g.mu.Unlock()
			return d.err
		case d.err != nil || published:
			return d.err
		}
		if err := publish(ctx); err != nil {
			d.err = fmt.Errorf("%w: %v", ErrPublish, err)
		}
		return d.err
	}
	// Once the slot is claimed, publishing and recording run to the end
	// whatever becomes of the request: a proposer that hangs up right after
	// its POST must not leave a published block without its record (the
	// record is the equivocation guard after a restart and what the data
	// API and the auction operator read).
	detached, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliveryTimeout)
	if async {
		g.running.Add(1)
		go func() {
			defer g.running.Done()
			defer cancel()
			run(detached)
		}()
		return nil
	}
	defer cancel()
	return run(detached)
}

// deliveryTimeout bounds one publication and record of a claimed slot,
// which no longer ends with the request that claimed it.
const deliveryTimeout = time.Minute

// wait waits for the publications still running in the background.
func (g *deliveryGuard) wait() { g.running.Wait() }

// commit writes the delivery record. A record already in the database for
// the slot (another instance, or before a restart) is fine if it names the
// same block and an equivocation otherwise; winner is the block recorded.
// With a shared database, a later slot delivered by any instance refuses
// the record (ErrSlotDelivered), checked under a database lock.
func (g *deliveryGuard) commit(ctx context.Context, hash beacon.Root, rec *store.DeliveredPayload) (winner beacon.Root, err error) {
	put := g.st.PutDelivered
	if g.putLatest != nil {
		put = g.putLatest
	}
	existing, err := put(ctx, rec)
	if errors.Is(err, store.ErrLaterDelivered) {
		return beacon.Root{}, ErrSlotDelivered
	}
	if err == nil {
		return hash, nil
	}
	if errors.Is(err, store.ErrSlotDelivered) && existing != nil {
		if existing.BlockHash == hash {
			return hash, nil
		}
		return existing.BlockHash, ErrEquivocation
	}
	return beacon.Root{}, internal("recording the delivered payload", err)
}

// prune forgets claims of slots before floor (the latest slot is kept).
func (g *deliveryGuard) prune(floor uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for s := range g.slots {
		if s < floor && s != g.latest {
			delete(g.slots, s)
		}
	}
}
