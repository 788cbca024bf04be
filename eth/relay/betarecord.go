package relay

import (
	"context"
	"time"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/miner"
)

// A beta block is a block the relay built: no builder signed its header, so
// the relay stands behind it. Its bid trace names the relay's pubkey as the
// builder and carries the relay's signature over the BidTrace (the builder
// domain, as a builder signs its submission), with the alpha's block hash
// and builder beside it. It is recorded among the bid traces
// (builder_blocks_received) when it becomes servable, and again, durably,
// when it is delivered: every delivered block can be found there, and its
// signature verifies with the relay pubkey of the relay's URL. The slot's
// beta_slots record says what the merge read and did.

// relayBuiltRecord is the bid trace record of merged block bb, signed with
// the relay's key the first time it is asked for (off the submission path:
// the merge's caller does not wait for a BLS signature).
func (r *Relay) relayBuiltRecord(bb *betaBid) store.BlockSubmission {
	bb.recordOnce.Do(func() {
		sig := r.cfg.SecretKey.SignRoot(bb.trace.SigningRoot(r.builderDom))
		alpha, builder := bb.alpha.Trace.BlockHash, bb.alpha.Trace.BuilderPubkey
		view := bb.payload.View()
		bb.record = store.BlockSubmission{
			BidTraceV2:         beacon.BidTraceV2{BidTrace: bb.trace, BlockNumber: view.BlockNumber, NumTx: uint64(len(view.Transactions))},
			ReceivedAt:         bb.mergedAt,
			SimSuccess:         true,
			Signature:          &sig,
			AlphaBlockHash:     &alpha,
			AlphaBuilderPubkey: &builder,
		}
	})
	return bb.record
}

// recordRelayBuilt hands a merged block that just became servable to the
// bid trace writer.
func (r *Relay) recordRelayBuilt(bb *betaBid) {
	if r.recorder == nil {
		return
	}
	if !r.recorder.Add(r.relayBuiltRecord(bb)) {
		log.Warn("Relay dropped the bid trace of a beta block: writer queue full", "slot", bb.trace.Slot, "block", bb.trace.BlockHash)
	}
}

// recordBetaSlot writes, once slot's block is out, the delivered merged
// block's bid trace (durably: the buffered write at merge time may not have
// landed yet) and the slot's beta_slots record. beta is the merged block
// delivered, nil when alpha was delivered as it was; then the merge's
// results, if a merge ran, still say why each paid bundle was left out.
func (r *Relay) recordBetaSlot(ctx context.Context, slot uint64, alpha *Bid, beta *betaBid) {
	if r.cfg.Beta == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), betaRecordTimeout)
	defer cancel()
	block := alpha.betaMiss.Load()
	if beta != nil {
		block = beta.block
		if err := r.store.PutBlockSubmissions(ctx, []store.BlockSubmission{r.relayBuiltRecord(beta)}); err != nil {
			log.Error("Relay could not record the bid trace of the beta block it delivered", "slot", slot, "block", beta.trace.BlockHash, "err", err)
		}
	}
	if block == nil {
		return // no merge ran: nothing read, nothing to show
	}
	rec := betaSlotRecord(slot, alpha, beta, block)
	rec.RecordedAt = r.cfg.Now().UnixMilli()
	if err := r.store.PutBetaSlot(ctx, rec); err != nil {
		log.Error("Relay could not record its beta slot", "slot", slot, "err", err)
	}
}

// betaRecordTimeout bounds the delivery-time writes of a beta slot.
const betaRecordTimeout = 10 * time.Second

// betaSlotRecord is the public record of slot: the settlement block was
// merged from, the alpha, the merged block (beta, nil when none was
// delivered) and each paid hash's outcome.
func betaSlotRecord(slot uint64, alpha *Bid, beta *betaBid, block *miner.BetaBlock) *store.BetaSlotRecord {
	rec := &store.BetaSlotRecord{
		Slot:               slot,
		AlphaBlockHash:     alpha.Trace.BlockHash,
		AlphaBuilderPubkey: alpha.Trace.BuilderPubkey,
		AlphaValue:         alpha.Trace.Value,
	}
	if beta != nil {
		h := beta.trace.BlockHash
		rec.BlockHash = &h
	}
	for _, e := range block.Entries {
		rec.Entries = append(rec.Entries, store.BetaSlotEntry{Gas: e.Gas, Hashes: e.Hashes})
		rec.L2Block = max(rec.L2Block, e.L2Block)
	}
	for _, res := range block.Results {
		b := store.BetaSlotBundle{Hash: res.Hash, Entry: uint64(res.Entry), State: store.BetaMissed,
			TxHashes: res.Included, Total: uint64(res.Total), Reason: res.Reason}
		if res.Err != "" {
			b.Reason += ": " + res.Err
		}
		if len(res.Included) > 0 {
			b.State = store.BetaIncluded
		}
		rec.Bundles = append(rec.Bundles, b)
	}
	return rec
}
