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
// getPayload for a slot claims it, publishes the block once and, only once
// the block is accepted, commits the delivery record; requests for the same
// block wait for that and get the same answer (no second publication);
// requests for another block are refused. A failed publication keeps the
// claim (the payload may have been seen) but records nothing: the next
// request for the same block tries to publish again. The store's per-slot
// uniqueness backs the guard across restarts and relay instances.
type deliveryGuard struct {
	st      store.Relay
	running sync.WaitGroup // publications after getPayload v2 answered
	mu      sync.Mutex
	latest  uint64 // highest slot delivered (0: none)
	slots   map[uint64]*delivery
}

// delivery is one slot's claimed delivery.
type delivery struct {
	hash beacon.Root
	done chan struct{} // closed when the attempt ended (recorded, or failed)
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

// deliver claims slot for the bid's block, publishes it and commits record
// durably, once per slot. Concurrent and repeated calls for the same block
// return the first call's outcome; after a failed publication the next call
// tries again; calls for another block of the slot, or for an older slot,
// fail. With async the claim is made (or refused) before it returns, and
// the publication and record run in the background.
func (g *deliveryGuard) deliver(ctx context.Context, slot uint64, hash beacon.Root, async bool, publish func(context.Context) error, record func() *store.DeliveredPayload) error {
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
			return g.attempt(ctx, slot, hash, async, publish, record)
		}
		g.mu.Unlock()
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
			return g.attempt(ctx, slot, hash, async, publish, record)
		}
		g.mu.Unlock()
	}
}

// attempt is one publication and record of slot's claimed block, called
// with g.mu held (it releases it); with async it runs in the background.
func (g *deliveryGuard) attempt(ctx context.Context, slot uint64, hash beacon.Root, async bool, publish func(context.Context) error, record func() *store.DeliveredPayload) error {
	d := &delivery{hash: hash, done: make(chan struct{})}
	g.slots[slot] = d
	if slot > g.latest {
		g.latest = slot
	}
	g.mu.Unlock()
	run := func(ctx context.Context) error {
		if err := publish(ctx); err != nil {
			d.err = fmt.Errorf("%w: %v", ErrPublish, err)
		} else {
			d.err = g.commit(ctx, hash, record())
		}
		close(d.done)
		return d.err
	}
	if async {
		g.running.Add(1)
		go func() {
			defer g.running.Done()
			run(context.WithoutCancel(ctx))
		}()
		return nil
	}
	return run(ctx)
}

// wait waits for the publications still running in the background.
func (g *deliveryGuard) wait() { g.running.Wait() }

// commit writes the delivery record. A record already in the database for
// the slot (another instance, or before a restart) is fine if it names the
// same block and an equivocation otherwise.
func (g *deliveryGuard) commit(ctx context.Context, hash beacon.Root, rec *store.DeliveredPayload) error {
	existing, err := g.st.PutDelivered(ctx, rec)
	if err == nil {
		return nil
	}
	if errors.Is(err, store.ErrSlotDelivered) && existing != nil {
		if existing.BlockHash == hash {
			return nil
		}
		return ErrEquivocation
	}
	return internal("recording the delivered payload", err)
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
