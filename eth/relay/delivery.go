package relay

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// deliveryGuard is the equivocation guard: at most one payload per slot,
// ever, and never one for a slot older than the latest delivered. The first
// getPayload for a slot claims it and commits the delivery record; requests
// for the same block wait for that commit and then get the same payload;
// requests for another block are refused. The store's per-slot uniqueness
// backs the guard across restarts and relay instances.
type deliveryGuard struct {
	st     store.Relay
	mu     sync.Mutex
	latest uint64 // highest slot delivered (0: none)
	slots  map[uint64]*delivery
}

// delivery is one slot's claimed delivery.
type delivery struct {
	hash beacon.Root
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

// deliver claims slot for the bid's block and commits record durably (once
// per slot). Concurrent and repeated calls for the same block return after
// the commit; calls for another block of the slot, or for an older slot,
// fail.
func (g *deliveryGuard) deliver(ctx context.Context, slot uint64, hash beacon.Root, record func() *store.DeliveredPayload) error {
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
		d = &delivery{hash: hash, done: make(chan struct{})}
		g.slots[slot] = d
		prevLatest := g.latest
		if slot > g.latest {
			g.latest = slot
		}
		g.mu.Unlock()
		var winner beacon.Root
		winner, d.err = g.commit(ctx, hash, record())
		if errors.Is(d.err, ErrEquivocation) {
			// Another instance delivered winner for this slot: the claim
			// becomes winner's, so requests for that block are served here
			// too.
			done := make(chan struct{})
			close(done)
			g.mu.Lock()
			g.slots[slot] = &delivery{hash: winner, done: done}
			g.mu.Unlock()
		}
		if errors.Is(d.err, ErrInternal) {
			// Nothing was recorded: release the claim so a retry can deliver.
			g.mu.Lock()
			delete(g.slots, slot)
			if g.latest == slot {
				g.latest = prevLatest
			}
			g.mu.Unlock()
		}
		close(d.done)
		return d.err
	}
	g.mu.Unlock()
	select {
	case <-d.done:
		return d.err
	case <-ctx.Done():
		return internal("waiting for the delivery record", ctx.Err())
	}
}

// commit writes the delivery record. A record already in the database for
// the slot (another instance, or before a restart) is fine if it names the
// same block and an equivocation otherwise; winner is the block recorded.
func (g *deliveryGuard) commit(ctx context.Context, hash beacon.Root, rec *store.DeliveredPayload) (winner beacon.Root, err error) {
	existing, err := g.st.PutDelivered(ctx, rec)
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
