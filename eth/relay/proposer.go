package relay

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

// GetHeader returns the best bid for (slot, parent, proposer), signed with
// the relay's key, or nil when there is none (204): no bid, a zero value,
// or a request past the getHeader cutoff of the slot. When the slot's
// proposer asks before the bid of a build in flight for slot and parent has
// landed (ExpectBid), it waits for it, at most Config.HeaderWait or until
// ctx ends; otherwise it answers at once.
func (r *Relay) GetHeader(ctx context.Context, slot uint64, parent beacon.Root, proposer beacon.BLSPubkey) (*beacon.SignedBuilderBid, error) {
	if slot < r.HeadSlot() {
		return nil, ErrSlotTooOld
	}
	if c := r.cfg.GetHeaderCutoff; c > 0 && r.cfg.Now().Sub(r.slotStart(slot)) > c {
		return nil, nil
	}
	k := auctionKey{slot, parent, proposer}
	bid := r.bids.best(k)
	if bid == nil {
		bid = r.awaitBid(ctx, k)
	}
	if bid == nil && r.cfg.Shared != nil && r.isDuty(slot, proposer) {
		// Only for the slot's proposer: a request naming anyone else cannot
		// make the relay query the database.
		var err error
		if bid, err = r.readThroughBest(k); err != nil {
			return nil, err
		}
	}
	if bid == nil || bid.value.IsZero() {
		headersEmpty.Mark(1)
		return nil, nil
	}
	headersServed.Mark(1)
	if bb := bid.beta.Load(); bb != nil {
		return bb.signed, nil
	}
	if bb := r.heldBeta(k, bid); bb != nil {
		return bb.signed, nil
	}
	signed, err := bid.signedBid(r.cfg.Spec, r.cfg.SecretKey, r.builderDom)
	if err != nil {
		return nil, internal("signing the bid", err)
	}
	return signed, nil
}

// heldBeta is the beta rule of optimistic relaying: while the top bid is
// an optimistic bid not merged yet (the merge needs its verified state) in
// a slot whose beta gas was sold, getHeader serves the auction's last
// merged block instead, so that the slot keeps its beta part. nil: serve
// the top bid.
func (r *Relay) heldBeta(k auctionKey, top *Bid) *betaBid {
	if !top.optimistic || top.mergeDone.Load() {
		return nil
	}
	if gas, _ := r.BetaGas(k.slot); gas == 0 {
		return nil
	}
	return r.bids.lastMerged(k)
}

// BestBid returns the verified top bid of an auction, with its post-state,
// or nil: what the beta block appends to.
func (r *Relay) BestBid(slot uint64, parent beacon.Root, proposer beacon.BLSPubkey) *Bid {
	return r.bids.best(auctionKey{slot, parent, proposer})
}

// Delivery is getPayload's answer: the payload the proposer signed the
// header of, with its blobs.
type Delivery struct {
	Payload  *beacon.ExecutionPayload
	Bundle   *beacon.BlobsBundle
	Requests *beacon.ExecutionRequests
}

// GetPayload delivers the payload of a signed blinded block: consensus
// version, proposer index and signature, the stored bid, the header match,
// then the equivocation guard claims the slot, publishes the block once and
// commits the delivery record durably only once the block is accepted
// (synchronously; with async, in the background, for the v2 endpoint).
// Repeated calls for the same block are answered without publishing again.
func (r *Relay) GetPayload(ctx context.Context, blk *beacon.SignedBlindedBeaconBlock, async bool) (d *Delivery, err error) {
	defer func() {
		if err != nil {
			payloadsRejected.Mark(1)
		} else {
			payloadsDelivered.Mark(1)
		}
	}()
	slot := blk.Slot()
	if want := r.cfg.Beacon.ForkAtSlot(slot); blk.Fork != want {
		return nil, fmt.Errorf("%w: %s payload with wrong consensus version. Expected: %s, Got: %s", ErrConsensusVersion, titled(want), want, blk.Fork)
	}
	if duty, ok := r.duty(slot); ok && duty.ValidatorIndex != blk.ProposerIndex() {
		return nil, ErrProposerIndex
	}
	proposer, ok := r.validatorPubkey(blk.ProposerIndex())
	if !ok {
		return nil, ErrUnknownProposerIndex
	}
	if err := blk.VerifySignature(r.cfg.Beacon, proposer); err != nil {
		return nil, ErrPayloadSignature
	}
	blockHash := blk.Header().BlockHash()
	bid, beta := r.bids.byBlockHash(blockHash), (*betaBid)(nil)
	if bid == nil {
		if beta = r.bids.betaByBlockHash(blockHash); beta != nil {
			bid = beta.alpha
		}
	}
	if bid == nil && r.cfg.Shared != nil {
		if bid, beta, err = r.readThroughHash(ctx, blockHash); err != nil {
			return nil, err
		}
	}
	if bid == nil || bid.Trace.Slot != slot || bid.Trace.ProposerPubkey != proposer {
		return nil, ErrUnknownPayload
	}
	if err := r.awaitBody(ctx, bid); err != nil {
		return nil, err
	}
	if err := bid.awaitRecorded(ctx); err != nil {
		return nil, err
	}
	if bid.simulating.Load() {
		// Served on the builder's collateral, as getHeader offered it; a
		// failed simulation lists it as delivered among the demotions.
		optimisticDelivered.Mark(1)
		log.Warn("Relay delivers an optimistic bid whose simulation is still running", "slot", slot, "block", bid.Trace.BlockHash, "builder", bid.Trace.BuilderPubkey)
	}
	payload, requests, trace := bid.Payload, bid.Requests, bid.Trace
	if beta != nil {
		payload, requests, trace = beta.payload, beta.requests, beta.trace
	}
	if c := r.cfg.GetPayloadCutoff; c > 0 {
		if into := r.cfg.Now().Sub(r.slotStart(slot)); into > c {
			return nil, fmt.Errorf("%w - %d ms into slot", ErrTooLate, into.Milliseconds())
		}
	}
	contents, err := blk.Unblind(payload, bid.Bundle)
	if err != nil {
		return nil, ErrHeaderMismatch
	}
	record := func() *store.DeliveredPayload {
		rec := &store.DeliveredPayload{
			BidTraceV2: beacon.BidTraceV2{
				BidTrace: trace, BlockNumber: payload.View().BlockNumber, NumTx: uint64(len(payload.View().Transactions)),
			},
			DeliveredAt: r.cfg.Now().UnixMilli(),
		}
		if beta != nil {
			alpha := bid.Trace.BlockHash
			rec.AlphaBlockHash, rec.BetaGasUsed, rec.BetaBundleCount = &alpha, beta.block.GasUsed, uint64(beta.block.Bundles)
		}
		return rec
	}
	// A failed publish is tried again (the proposer asking again for the
	// same block gets it published again too).
	publish := func(ctx context.Context) error {
		start := time.Now()
		for attempt := 1; ; attempt++ {
			err := r.publisher.Publish(ctx, contents, payload, bid.Bundle, requests)
			if err == nil {
				break
			}
			log.Warn("Relay failed to publish a block", "slot", slot, "block", blockHash, "attempt", attempt, "err", err)
			if attempt >= r.cfg.PublishAttempts || ctx.Err() != nil {
				return err
			}
			t := time.NewTimer(r.cfg.PublishRetryDelay)
			select {
			case <-ctx.Done():
				t.Stop()
				return err
			case <-t.C:
			}
		}
		log.Info("Relay delivered a payload", "slot", slot, "block", blockHash, "value", bid.value, "publish", time.Since(start))
		// The block is out: record which beta bundles it carried.
		if beta != nil {
			r.recordBeta(ctx, slot, beta.block)
		} else {
			r.recordBeta(ctx, slot, bid.betaMiss.Load())
		}
		r.recordBetaSlot(ctx, slot, bid, beta)
		return nil
	}
	d = &Delivery{Payload: payload, Bundle: bid.Bundle, Requests: requests}
	if err := r.deliveries.deliver(ctx, slot, blockHash, blk.Signature(), async, publish, record); err != nil {
		if errors.Is(err, ErrPublish) {
			return nil, ErrPublish
		}
		return nil, err
	}
	return d, nil
}

// titled is a fork's name with a capital initial ("Fulu").
func titled(f params.ConsensusFork) string {
	s := f.String()
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
