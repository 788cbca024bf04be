package relay

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/miner"
)

var (
	betaMerged      = metrics.NewRegisteredMeter("gavel/relay/beta/merged", nil)
	betaAlphaOnly   = metrics.NewRegisteredMeter("gavel/relay/beta/alphaonly", nil)
	betaMergeFailed = metrics.NewRegisteredMeter("gavel/relay/beta/failed", nil)
)

// Beta builds the beta part of the relay's blocks and records what became
// of it (eth/betapool.BetaBlocks).
type Beta interface {
	// Merge appends slot's paid beta bundles to a verified alpha block. It
	// returns miner.ErrNoBeta when nothing was appended; any error means
	// alpha is served as it is.
	Merge(ctx context.Context, slot uint64, alpha *chain.VerifiedPayload) (*miner.BetaBlock, error)
	// Gas is the gas the slot's L2 auction sells for beta (0: none).
	Gas(ctx context.Context, slot uint64) uint64
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
}

// mergeBeta builds the beta block on bid (its auction's top, with a kept
// state) and, if anything was appended, makes it what getHeader serves for
// the auction. Failures only cost the beta part.
func (r *Relay) mergeBeta(ctx context.Context, bid *Bid) {
	if r.cfg.Beta == nil {
		return
	}
	v := bid.Verified()
	if v == nil || !v.HasState() {
		return
	}
	slot := bid.Trace.Slot
	block, err := r.cfg.Beta.Merge(ctx, slot, v)
	if errors.Is(err, miner.ErrNoBeta) {
		betaAlphaOnly.Mark(1)
		if block != nil && len(block.Results) > 0 {
			bid.betaMiss.Store(block) // why each paid bundle is left out
		}
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
	if !r.bids.putBeta(bid, bb) {
		return // no longer the top bid
	}
	betaMerged.Mark(1)
	log.Info("Relay merged a beta block", "slot", slot, "alpha", bid.Trace.BlockHash, "block", bb.trace.BlockHash,
		"bundles", block.Bundles, "betaGas", block.GasUsed)
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
	return &betaBid{alpha: bid, block: block, trace: trace, payload: payload, requests: reqs, signed: signed}, nil
}

// RemergeSlot merges the beta part again on the top bids of slot's
// auctions: the slot's paid set changed.
func (r *Relay) RemergeSlot(ctx context.Context, slot uint64) {
	for _, b := range r.bids.topsOf(slot) {
		r.mergeBeta(ctx, b)
	}
}

// BetaGas is the gas reserved for the beta block in slot (0 without beta).
func (r *Relay) BetaGas(ctx context.Context, slot uint64) uint64 {
	if r.cfg.Beta == nil {
		return 0
	}
	return r.cfg.Beta.Gas(ctx, slot)
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
// are not (the paid set may have to be read from the L2).
func (r *Relay) recordBeta(ctx context.Context, slot uint64, block *miner.BetaBlock) {
	if r.cfg.Beta == nil {
		return
	}
	if block == nil {
		go func() {
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
