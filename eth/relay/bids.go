package relay

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/miner"
)

// Bid is a verified builder submission held by the relay: what getHeader
// offers and getPayload delivers, and the post-state the beta block builds
// on.
type Bid struct {
	Trace      beacon.BidTrace
	Payload    *beacon.ExecutionPayload
	Bundle     *beacon.BlobsBundle       // Deneb on
	Requests   *beacon.ExecutionRequests // Electra on
	ReceivedAt time.Time
	// Cancellable bids never raise the floor.
	Cancellable bool

	value *uint256.Int
	// verified is the block with its post-state; kept only while the bid is
	// its auction's top bid (memory), dropped when another bid takes over.
	verified atomic.Pointer[chain.VerifiedPayload]
	// beta is the block with the beta part appended, served instead of
	// this one while it is the top bid (nil: serve the bid as it is).
	beta atomic.Pointer[betaBid]
	// betaMiss is the merge's results when nothing could be appended: why
	// each paid bundle was left out, recorded if this bid is delivered.
	betaMiss atomic.Pointer[miner.BetaBlock]
	// betaGen is the paid-set generation of the merge served (beta or
	// betaMiss); guarded by bidStore.mu.
	betaGen uint64

	// optimistic bids were served before their simulation; simulating is
	// set while it has not ended (optimistic.go).
	optimistic bool
	simulating atomic.Bool
	// mergeDone is set once a beta merge ran on the bid's verified state.
	mergeDone atomic.Bool
	// recorded, for an optimistic bid served in this process, is closed
	// once its pending simulation is committed, and with other instances
	// the bid shared (recordErr: or either failed).
	recorded  chan struct{}
	recordErr error
	// awaiting is set on a header-first bid: its header, served before
	// its block arrives (headerfirst.go).
	awaiting *headerOnly

	signOnce sync.Once
	signed   *beacon.SignedBuilderBid
	signErr  error
}

// Verified returns the verified block with its post-state, or nil once the
// bid is no longer its auction's top bid.
func (b *Bid) Verified() *chain.VerifiedPayload { return b.verified.Load() }

// Value is the bid's value in wei.
func (b *Bid) Value() *uint256.Int { return b.value }

// commitments returns the blob commitments of the bid (nil before Deneb).
func (b *Bid) commitments() []beacon.KZGCommitment {
	if b.Bundle == nil {
		return nil
	}
	return b.Bundle.Commitments
}

// signedBid returns the bid as getHeader serves it, signed with the relay's
// key once and then cached.
func (b *Bid) signedBid(spec *beacon.Spec, key *beacon.SecretKey, domain beacon.Domain) (*beacon.SignedBuilderBid, error) {
	b.signOnce.Do(func() {
		if w := b.awaiting; w != nil {
			b.signed, b.signErr = beacon.SignBuilderBid(spec, w.sub.PayloadHeader(), w.sub.Commitments(), w.sub.ExecutionRequests(), b.Trace.Value, key, domain)
			return
		}
		b.signed, b.signErr = beacon.NewSignedBuilderBid(spec, b.Payload, b.commitments(), b.Requests, b.Trace.Value, key, domain)
	})
	return b.signed, b.signErr
}

// auctionKey identifies one auction: a slot's block on a parent for a
// proposer.
type auctionKey struct {
	slot     uint64
	parent   beacon.Root
	proposer beacon.BLSPubkey
}

// auction is the state of one auction, as in the reference relay: each
// builder's latest bid, the floor (the highest non-cancellable value seen)
// with the bid that set it, and the top bid.
type auction struct {
	latest   map[beacon.BLSPubkey]*Bid
	floor    *uint256.Int
	floorBid *Bid
	top      *Bid
	// merged is the last merged block served for the auction: getHeader
	// serves it while an optimistic top bid awaits its simulation in a
	// slot whose beta gas was sold (GetHeader).
	merged *betaBid
}

// bidStore holds the auctions of recent slots and every bid by block hash
// (getPayload looks payloads up by the block hash the proposer signed).
type bidStore struct {
	mu       sync.RWMutex
	auctions map[auctionKey]*auction
	byHash   map[beacon.Root]*Bid
	// betaByHash holds every merged block served, by its hash, until its
	// slot is pruned: a proposer may sign one that was replaced since.
	betaByHash map[beacon.Root]*betaBid
	// demoted is the builders demoted for a slot: their optimistic bids of
	// it are refused.
	demoted map[slotBuilder]struct{}
}

type slotBuilder struct {
	slot    uint64
	builder beacon.BLSPubkey
}

func newBidStore() *bidStore {
	return &bidStore{auctions: make(map[auctionKey]*auction), byHash: make(map[beacon.Root]*Bid), betaByHash: make(map[beacon.Root]*betaBid),
		demoted: make(map[slotBuilder]struct{})}
}

// dropTop releases what a bid held as its auction's top: its kept state
// and its beta block (getPayload still finds the beta block by hash).
func dropTop(b *Bid) {
	b.verified.Store(nil)
	b.beta.Store(nil)
}

// putBeta makes the merge of paid-set generation gen what getHeader serves
// for bid's auction: bb, or alpha as it is when bb is nil (miss then says
// why the paid bundles were left out), if bid is still its top and no
// merge of a newer generation is served: an older paid set never replaces
// a newer.
func (s *bidStore) putBeta(bid *Bid, bb *betaBid, miss *miner.BetaBlock, gen uint64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.auctions[keyOf(&bid.Trace)]
	if a == nil || a.top != bid || gen < bid.betaGen {
		return false
	}
	bid.betaGen = gen
	bid.beta.Store(bb)
	bid.betaMiss.Store(miss)
	if bb != nil {
		s.betaByHash[bb.trace.BlockHash] = bb
		a.merged = bb
	}
	return true
}

// lastMerged returns the last merged block served for auction k (nil if
// none).
func (s *bidStore) lastMerged(k auctionKey) *betaBid {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if a := s.auctions[k]; a != nil {
		return a.merged
	}
	return nil
}

// withdraw takes every bid of builder out of slot's auctions (a demotion):
// getHeader no longer serves them, and getPayload still finds them by hash
// for a proposer who signed one before. The builder's optimistic bids of
// the slot are refused from now on.
func (s *bidStore) withdraw(slot uint64, builder beacon.BLSPubkey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.demoted[slotBuilder{slot, builder}] = struct{}{}
	for k, a := range s.auctions {
		if k.slot == slot {
			a.remove(func(b *Bid) bool { return b.Trace.BuilderPubkey == builder })
		}
	}
}

// drop takes one bid out of its auction (getPayload still finds it by
// hash).
func (s *bidStore) drop(bid *Bid) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.auctions[keyOf(&bid.Trace)]; a != nil {
		a.remove(func(b *Bid) bool { return b == bid })
	}
}

// remove takes the bids gone reports out of the auction: each builder's
// latest, the floor (which falls back to the best bid left, so that a
// removed bid keeps no one out) and the last merged block; the top is
// recomputed.
func (a *auction) remove(gone func(*Bid) bool) {
	for pk, b := range a.latest {
		if gone(b) {
			delete(a.latest, pk)
		}
	}
	if a.floorBid != nil && gone(a.floorBid) {
		a.floor, a.floorBid = nil, nil
		for _, b := range a.latest {
			if !b.Cancellable && (a.floor == nil || b.value.Cmp(a.floor) > 0) {
				a.floor, a.floorBid = b.value, b
			}
		}
	}
	if a.merged != nil && gone(a.merged.alpha) {
		a.merged = nil
	}
	prev := a.top
	a.recomputeTop()
	if prev != nil && prev != a.top {
		dropTop(prev)
	}
}

// addBeta keeps a merged block another instance served, for getPayload.
func (s *bidStore) addBeta(bb *betaBid) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.betaByHash[bb.trace.BlockHash] = bb
}

// betaByBlockHash returns a merged block served by getHeader, by its hash.
func (s *bidStore) betaByBlockHash(h beacon.Root) *betaBid {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.betaByHash[h]
}

// topsOf returns the top bids of slot's auctions.
func (s *bidStore) topsOf(slot uint64) []*Bid {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []*Bid
	for k, a := range s.auctions {
		if k.slot == slot && a.top != nil {
			out = append(out, a.top)
		}
	}
	return out
}

func keyOf(t *beacon.BidTrace) auctionKey {
	return auctionKey{t.Slot, t.ParentHash, t.ProposerPubkey}
}

// floorCheck is the floor step of a submission (before simulation). It
// reports whether the bid is at or below the floor and must be skipped; with
// cancellations a bid strictly below the floor also withdraws the builder's
// previous bid.
func (s *bidStore) floorCheck(t *beacon.BidTrace, value *uint256.Int, cancellable bool) (below bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.auctions[keyOf(t)]
	if a == nil || a.floor == nil {
		return false
	}
	if !cancellable {
		return value.Cmp(a.floor) <= 0
	}
	if value.Cmp(a.floor) >= 0 {
		return false
	}
	if _, ok := a.latest[t.BuilderPubkey]; ok {
		delete(a.latest, t.BuilderPubkey)
		prev := a.top
		a.recomputeTop()
		if prev != nil && prev != a.top {
			dropTop(prev)
		}
	}
	return true
}

// mayBeTop reports whether a bid of t's value could become its auction's
// top bid, so that its state is worth keeping for the beta block: it beats the current top, or its builder holds the top (a lower
// replacement may still be the best left).
func (r *Relay) mayBeTop(t *beacon.BidTrace) bool {
	if r.cfg.Beta == nil {
		return false // nothing would use the state
	}
	r.bids.mu.RLock()
	defer r.bids.mu.RUnlock()
	a := r.bids.auctions[keyOf(t)]
	if a == nil || a.top == nil {
		return true
	}
	return t.Value.Uint256().Cmp(a.top.value) > 0 || a.top.Trace.BuilderPubkey == t.BuilderPubkey
}

// topValue is the current top bid's value of the auction of t (nil if none).
func (s *bidStore) topValue(t *beacon.BidTrace) *uint256.Int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if a := s.auctions[keyOf(t)]; a != nil && a.top != nil {
		return a.top.value
	}
	return nil
}

// put makes b its builder's latest bid and updates floor and top. With
// cancellations, a bid older than the builder's latest is refused
// (ErrNewerPayload). It reports whether b is now the top bid.
func (s *bidStore) put(b *Bid) (isTop bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.demoted[slotBuilder{b.Trace.Slot, b.Trace.BuilderPubkey}]; ok && b.optimistic {
		return false, errDemotedInSlot
	}
	k := keyOf(&b.Trace)
	a := s.auctions[k]
	if a == nil {
		a = &auction{latest: make(map[beacon.BLSPubkey]*Bid)}
		s.auctions[k] = a
	}
	if cur, ok := a.latest[b.Trace.BuilderPubkey]; ok && cur.ReceivedAt.UnixMilli() > b.ReceivedAt.UnixMilli() {
		if b.Cancellable {
			return false, ErrNewerPayload
		}
		// Without cancellations a higher bid always wins; the older
		// request simply arrived late.
	}
	a.latest[b.Trace.BuilderPubkey] = b
	if !b.Cancellable && (a.floor == nil || b.value.Cmp(a.floor) > 0) {
		a.floor, a.floorBid = b.value, b
	}
	s.byHash[b.Trace.BlockHash] = b
	prev := a.top
	a.recomputeTop()
	if prev != nil && prev != a.top {
		dropTop(prev)
	}
	if a.top != b {
		dropTop(b)
	}
	return a.top == b, nil
}

// recomputeTop sets top to the highest of the builders' latest bids and the
// floor bid; ties go to the earlier bid.
func (a *auction) recomputeTop() {
	var top *Bid
	better := func(c *Bid) bool {
		if top == nil {
			return true
		}
		if d := c.value.Cmp(top.value); d != 0 {
			return d > 0
		}
		return c.ReceivedAt.Before(top.ReceivedAt)
	}
	for _, b := range a.latest {
		if better(b) {
			top = b
		}
	}
	if a.floorBid != nil && better(a.floorBid) {
		top = a.floorBid
	}
	a.top = top
}

// best returns the top bid of an auction, or nil.
func (s *bidStore) best(k auctionKey) *Bid {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if a := s.auctions[k]; a != nil {
		return a.top
	}
	return nil
}

// byBlockHash returns a stored bid by its block hash.
func (s *bidStore) byBlockHash(h beacon.Root) *Bid {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.byHash[h]
}

// releasePassed drops the kept states of the top bids of slots up to head:
// no beta block is built for a slot that has passed.
func (s *bidStore) releasePassed(head uint64) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for k, a := range s.auctions {
		if k.slot <= head && a.top != nil {
			a.top.verified.Store(nil)
		}
	}
}

// prune drops auctions and bids of slots before floor.
func (s *bidStore) prune(floor uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.auctions {
		if k.slot < floor {
			delete(s.auctions, k)
		}
	}
	for h, b := range s.byHash {
		if b.Trace.Slot < floor {
			delete(s.byHash, h)
		}
	}
	for h, b := range s.betaByHash {
		if b.trace.Slot < floor {
			delete(s.betaByHash, h)
		}
	}
	for sb := range s.demoted {
		if sb.slot < floor {
			delete(s.demoted, sb)
		}
	}
}
