package relay

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/miner"
)

var (
	betaMerged      = metrics.NewRegisteredMeter("gavel/relay/beta/merged", nil)
	betaAlphaOnly   = metrics.NewRegisteredMeter("gavel/relay/beta/alphaonly", nil)
	betaMergeFailed = metrics.NewRegisteredMeter("gavel/relay/beta/failed", nil)
)

// Beta is the beta service as the relay sees it (eth/betapool.Service):
// the slot's state from memory, the merge, and what became of the paid
// bundles. None of its methods the relay calls on a request path reads
// the L2.
type Beta interface {
	// Merge appends slot's paid beta bundles, as last read, to a verified
	// alpha block, and returns the generation of the paid set it used. It
	// returns miner.ErrNoBeta (with the generation) when nothing was
	// appended; any other error means alpha is served as it is.
	Merge(ctx context.Context, slot uint64, alpha *chain.VerifiedPayload) (*miner.BetaBlock, uint64, error)
	// Gas is the gas the slot's L2 auction sells for beta (0: none), as
	// last read; known is false while it was never read.
	Gas(slot uint64) (gas uint64, known bool)
	// Delivered records the outcome of slot's paid bundles once a block was
	// delivered; beta is nil when alpha was delivered alone.
	Delivered(ctx context.Context, slot uint64, beta *miner.BetaBlock) error
	// PaidPooled reports whether any bundle paid for slot on the L2 was sent
	// to this node for the slot: whether a beta part was due.
	PaidPooled(ctx context.Context, slot uint64) (bool, error)
}

// betaBid is a top bid's block with the beta part appended: what getHeader
// offers instead of the alpha while it is the auction's top.
type betaBid struct {
	alpha    *Bid
	block    *miner.BetaBlock
	trace    beacon.BidTrace // the alpha's, with the merged block hash and gas used
	payload  *beacon.ExecutionPayload
	requests *beacon.ExecutionRequests
	signed   *beacon.SignedBuilderBid
	// mergedAt is when the merge made it (unix ms), the received_at of its
	// bid trace record: one time on every instance, so that the record is
	// one row whichever instances write it.
	mergedAt int64
	// record is its relay-signed bid trace, made once (betarecord.go).
	recordOnce sync.Once
	record     store.BlockSubmission
}

// mergeBeta merges the beta part onto the top bid of bid's auction, after
// the merge of that auction running now, if any: the merges of one auction
// run one at a time, and a request made while one runs is served by the
// next, which reads the newest top bid and paid set. It returns once a
// merge that started after the request has ended.
func (r *Relay) mergeBeta(ctx context.Context, bid *Bid) {
	if r.cfg.Beta == nil {
		return
	}
	k := keyOf(&bid.Trace)
	r.merges.run(ctx, k, func() { r.mergeTop(ctx, k) })
}

// mergeTop builds the beta block on auction k's top bid (with a kept
// state) and makes it what getHeader serves for the auction, unless a merge
// of a newer paid set is served already. Failures only cost the beta part.
func (r *Relay) mergeTop(ctx context.Context, k auctionKey) {
	bid := r.bids.best(k)
	if bid == nil {
		return
	}
	v := bid.Verified()
	if v == nil || !v.HasState() {
		return
	}
	defer bid.mergeDone.Store(true)
	slot := bid.Trace.Slot
	block, gen, err := r.cfg.Beta.Merge(ctx, slot, v)
	if errors.Is(err, miner.ErrNoBeta) {
		betaAlphaOnly.Mark(1)
		if block != nil && len(block.Results) == 0 {
			block = nil
		}
		r.bids.putBeta(bid, nil, block, gen) // alpha as it is; why each paid bundle is left out
		return
	}
	if err != nil {
		betaMergeFailed.Mark(1)
		log.Debug("Relay serves alpha without beta", "slot", slot, "block", bid.Trace.BlockHash, "err", err)
		return
	}
	bb, err := r.betaBid(bid, block)
	if err != nil {
		betaMergeFailed.Mark(1)
		log.Error("Relay could not serve a beta block", "slot", slot, "err", err)
		return
	}
	if r.cfg.Shared != nil {
		// Stored before getHeader can serve it: a proposer that signs its
		// header may ask any instance for the payload.
		if err := r.shareBeta(ctx, bb); err != nil {
			betaMergeFailed.Mark(1)
			log.Warn("Relay serves alpha without beta: the merged block could not be shared", "slot", slot, "err", err)
			return
		}
	}
	if !r.bids.putBeta(bid, bb, nil, gen) {
		return // no longer the top bid, or a newer paid set is served
	}
	r.background.Add(1)
	go func() {
		defer r.background.Done()
		r.recordRelayBuilt(bb)
	}()
	betaMerged.Mark(1)
	if fn := r.onMerged.Load(); fn != nil {
		(*fn)(slot, gen, bb.trace.BlockHash)
	}
	log.Info("Relay merged a beta block", "slot", slot, "alpha", bid.Trace.BlockHash, "block", bb.trace.BlockHash,
		"bundles", block.Bundles, "betaGas", block.GasUsed, "generation", gen)
}

// betaBid converts a merged block to what getHeader and getPayload serve,
// and signs its header.
func (r *Relay) betaBid(bid *Bid, block *miner.BetaBlock) (*betaBid, error) {
	payload, err := beacon.ExecutionPayloadFromExecutableData(bid.Payload.Fork, block.Envelope.ExecutionPayload)
	if err != nil {
		return nil, fmt.Errorf("merged payload: %w", err)
	}
	var reqs *beacon.ExecutionRequests
	if bid.Requests != nil {
		if reqs, err = beacon.ExecutionRequestsFromEngine(block.Requests); err != nil {
			return nil, fmt.Errorf("merged requests: %w", err)
		}
	}
	signed, err := beacon.NewSignedBuilderBid(r.cfg.Spec, payload, bid.commitments(), reqs, bid.Trace.Value, r.cfg.SecretKey, r.builderDom)
	if err != nil {
		return nil, fmt.Errorf("signing the merged bid: %w", err)
	}
	trace := bid.Trace
	trace.BlockHash = beacon.Root(block.Block.Hash())
	trace.GasUsed = block.Block.GasUsed()
	trace.BuilderPubkey = r.relayPubkey // the relay built it (betarecord.go)
	return &betaBid{alpha: bid, block: block, trace: trace, payload: payload, requests: reqs, signed: signed, mergedAt: r.cfg.Now().UnixMilli()}, nil
}

// RemergeSlot merges the beta part again on the top bids of slot's
// auctions: the slot's paid set changed.
func (r *Relay) RemergeSlot(ctx context.Context, slot uint64) {
	for _, b := range r.bids.topsOf(slot) {
		r.mergeBeta(ctx, b)
	}
}

// BetaGas is the gas reserved for the beta block in slot, from memory: 0
// and known without beta; known is false while the slot's auction was
// never read from the L2 (nothing can be reserved for it then).
func (r *Relay) BetaGas(slot uint64) (gas uint64, known bool) {
	if r.cfg.Beta == nil {
		return 0, true
	}
	return r.cfg.Beta.Gas(slot)
}

// KeptStates is how many verified alpha states the relay holds per slot:
// one per top bid of an auction (slot, parent, proposer) at most, released
// when another bid takes the top and when the slot is pruned.
func (r *Relay) KeptStates() map[uint64]int {
	r.bids.mu.RLock()
	defer r.bids.mu.RUnlock()
	out := make(map[uint64]int)
	for k, a := range r.bids.auctions {
		if a.top != nil {
			if v := a.top.Verified(); v != nil && v.HasState() {
				out[k.slot]++
			}
		}
	}
	return out
}

// recordBeta hands the delivered slot's beta outcome to Beta: at once when
// the merge's results are known (a local write), in the background when they
// are not (the paid set may have to be read from the L2); Close waits for
// it, so the outcome is written before the store closes.
func (r *Relay) recordBeta(ctx context.Context, slot uint64, block *miner.BetaBlock) {
	if r.cfg.Beta == nil {
		return
	}
	if block == nil {
		r.background.Add(1)
		go func() {
			defer r.background.Done()
			if err := r.cfg.Beta.Delivered(context.Background(), slot, nil); err != nil {
				log.Debug("Relay could not record missed beta bundles", "slot", slot, "err", err)
			}
		}()
		return
	}
	if err := r.cfg.Beta.Delivered(context.WithoutCancel(ctx), slot, block); err != nil {
		log.Warn("Relay could not record the beta bundles it delivered", "slot", slot, "err", err)
	}
}
