package relay

import (
	"context"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/internal/sched"
)

// This file is getHeader's wait for a bid in flight. A consensus client
// sends its payload attributes with forkchoiceUpdated shortly before its
// proposal and asks for the header at the slot's start; on a loaded machine
// the attributes come late and the in-process builder's first bid lands a
// few hundred milliseconds after the ask. Answering 204 then costs the
// proposal its bid, so a getHeader that finds no bid while a build for
// exactly its slot and parent is in flight waits for that bid, at most
// Config.HeaderWait. Without a build in flight (no in-process builder, or
// none building this parent) getHeader answers at once, as before.

// DefaultHeaderWait bounds getHeader's wait for a bid in flight: within
// mev-boost's 950 ms getHeader budget with room for its network round
// trips, and several times what the first build and submission of a slot
// take on a loaded 2-core machine (docs/relay-proposers.md).
const DefaultHeaderWait = 500 * time.Millisecond

// bidWait is one (slot, parent)'s builds in flight: done is closed when a
// bid for it lands or the last build announced ends, whichever is first.
// Every getHeader waiting for the same (slot, parent) waits on this one
// channel.
type bidWait struct {
	done   chan struct{}
	builds int // announced builds not yet ended
	closed bool
}

// bidWaits holds the builds in flight by (slot, parent).
type bidWaits struct {
	mu sync.Mutex
	m  map[attrsKey]*bidWait
}

// expect records one more build in flight for k and returns the function
// that ends it (safe to call more than once).
func (w *bidWaits) expect(k attrsKey) func() {
	w.mu.Lock()
	if w.m == nil {
		w.m = make(map[attrsKey]*bidWait)
	}
	e := w.m[k]
	if e == nil {
		e = &bidWait{done: make(chan struct{})}
		w.m[k] = e
	}
	e.builds++
	w.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			if e.builds--; e.builds == 0 {
				w.endLocked(k, e)
			}
		})
	}
}

// endLocked wakes e's waiters and forgets it.
func (w *bidWaits) endLocked(k attrsKey, e *bidWait) {
	if w.m[k] == e {
		delete(w.m, k)
	}
	if !e.closed {
		e.closed = true
		close(e.done)
	}
}

// landed wakes the waiters of k: a bid for it is in the auctions.
func (w *bidWaits) landed(k attrsKey) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e := w.m[k]; e != nil {
		w.endLocked(k, e)
	}
}

// pending returns the channel closed when k's bid lands or its builds end,
// nil when nothing is in flight for k.
func (w *bidWaits) pending(k attrsKey) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e := w.m[k]; e != nil {
		return e.done
	}
	return nil
}

// inFlight is how many (slot, parent) pairs have a build in flight.
func (w *bidWaits) inFlight() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.m)
}

// prune ends the waits of slots up to head: getHeader no longer serves them.
func (w *bidWaits) prune(head uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for k, e := range w.m {
		if k.slot <= head {
			w.endLocked(k, e)
		}
	}
}

// ExpectBid records that a builder is building slot's block on parent (the
// in-process builder, from the moment the slot's attributes reach it) and
// returns the function that says the build ended: its first submission was
// answered, or it gave up. Until then, or until a bid for slot and parent
// lands from anywhere, the slot's proposer asking for a header that has no
// bid yet waits for one (Config.HeaderWait).
func (r *Relay) ExpectBid(slot uint64, parent common.Hash) (ended func()) {
	if r.cfg.HeaderWait < 0 {
		return func() {}
	}
	return r.waits.expect(attrsKey{slot, parent})
}

// bidLanded wakes the getHeaders waiting for a bid of t's slot and parent.
func (r *Relay) bidLanded(slot uint64, parent common.Hash) {
	r.waits.landed(attrsKey{slot, parent})
}

// awaitBid is getHeader without a bid for k: if a build for k's slot and
// parent is in flight and the ask is the slot's proposer's, it waits for
// the bid until it lands, the build ends, HeaderWait (cut at the getHeader
// cutoff) passes or ctx ends, and returns the auction's top bid then (nil:
// still none). Otherwise it returns at once.
func (r *Relay) awaitBid(ctx context.Context, k auctionKey) *Bid {
	done := r.waits.pending(attrsKey{k.slot, common.Hash(k.parent)})
	if done == nil {
		return nil
	}
	// Only the slot's proposer waits: a request naming anyone else cannot
	// hold a connection open.
	if !r.isDuty(k.slot, k.proposer) {
		return nil
	}
	// The bid may have landed between the first lookup and pending().
	if bid := r.bids.best(k); bid != nil {
		return bid
	}
	bound := r.cfg.HeaderWait
	if c := r.cfg.GetHeaderCutoff; c > 0 {
		bound = min(bound, c-r.cfg.Now().Sub(r.slotStart(k.slot)))
	}
	if bound <= 0 {
		return nil
	}
	start := time.Now()
	r.headerWaits.Add(1)
	r.headerWaiting.Add(1)
	defer r.headerWaiting.Add(-1)
	if fn := r.onWait.Load(); fn != nil {
		(*fn)(k.slot)
	}
	timer := time.NewTimer(bound)
	// The wait uses no CPU: the node's scheduler hands client turns out
	// meanwhile, among them those of the submission waited for (an
	// external builder's, inflated in turns).
	resume := sched.Idle(ctx)
	select {
	case <-done:
	case <-timer.C:
	case <-ctx.Done():
	}
	resume()
	timer.Stop()
	waited := time.Since(start)
	headerWaitTimer.Update(waited)
	bid := r.bids.best(k)
	if bid == nil {
		headerWaitsEmpty.Mark(1)
	}
	log.Info("Relay answered getHeader after waiting for a bid in flight", "slot", k.slot, "waited", waited, "bid", bid != nil)
	return bid
}

// HeaderWaiting is how many getHeader requests are waiting now for the bid
// of a build in flight (ExpectBid).
func (r *Relay) HeaderWaiting() int { return int(r.headerWaiting.Load()) }
