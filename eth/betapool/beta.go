package betapool

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/miner"
)

// Missed reasons recorded for paid bundles that are not in a delivered
// block at all.
const (
	ReasonNoBetaPart   = "the delivered block has no beta part (L2 unreachable or no kept alpha state)"
	ReasonNotDelivered = "no block with a beta part was delivered for the slot"
)

// Merge builds slot's beta block on alpha from the slot's paid set as last
// read (State), never reading the L2. It returns the paid set's generation
// with the block: the relay keeps the merge of the newest generation. It
// returns miner.ErrNoBeta when nothing paid could be appended, and
// ErrNotRead when the slot's settlement was never read: either way the
// relay serves alpha as it is.
func (b *Service) Merge(ctx context.Context, slot uint64, alpha *chain.VerifiedPayload) (*miner.BetaBlock, uint64, error) {
	if b.paid == nil {
		return nil, 0, miner.ErrNoBeta
	}
	st := b.paid.State(slot)
	if st.Generation == 0 {
		return nil, 0, fmt.Errorf("merging slot %d: %w", slot, ErrNotRead)
	}
	if len(st.Paid) == 0 {
		return nil, st.Generation, miner.ErrNoBeta
	}
	pooled, _, err := b.pool.ForSlot(ctx, slot)
	if err != nil {
		return nil, 0, fmt.Errorf("reading the beta bundles of slot %d: %w", slot, err)
	}
	block, err := miner.BuildBeta(ctx, b.chain, alpha, st.Paid, pooled)
	return block, st.Generation, err
}

// PaidPooled reports whether any hash paid for slot on the L2 is a bundle
// sent to this node for the slot.
func (b *Service) PaidPooled(ctx context.Context, slot uint64) (bool, error) {
	if b.paid == nil {
		return false, nil
	}
	entries, err := b.paid.Paid(ctx, slot)
	if err != nil {
		return false, err
	}
	pooled, _, err := b.pool.ForSlot(ctx, slot)
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if e.Gas == 0 {
			continue
		}
		for _, h := range e.Hashes {
			if _, ok := pooled[h]; ok {
				return true, nil
			}
		}
	}
	return false, nil
}

// Delivered records, for slot's delivered block, what became of each paid
// bundle: included (k of n, with the reason when partial) or missed with
// the reason. beta is the delivered beta block, nil when alpha was
// delivered as it was.
func (b *Service) Delivered(ctx context.Context, slot uint64, beta *miner.BetaBlock) error {
	var outs []store.BetaOutcome
	if beta != nil {
		var (
			number uint64
			hash   common.Hash
		)
		if beta.BuiltBlock != nil { // else: nothing was appended, only the results are known
			number, hash = beta.Block.NumberU64(), beta.Block.Hash()
		}
		for _, r := range beta.Results {
			if r.Reason == miner.ReasonDuplicate || r.Reason == miner.ReasonNotPooled {
				continue // counted at its first entry; or never sent here
			}
			o := store.BetaOutcome{Hash: r.Hash, Slot: slot, State: store.BetaMissed, Entry: uint64(r.Entry), Gas: r.EntryGas,
				BlockNumber: number, BlockHash: hash, Total: uint64(r.Total), Reason: r.Reason}
			if r.Err != "" {
				o.Reason += ": " + r.Err
			}
			if len(r.Included) > 0 {
				o.State, o.TxHashes = store.BetaIncluded, r.Included
			}
			outs = append(outs, o)
		}
	} else if b.paid != nil {
		entries, err := b.paid.Paid(ctx, slot)
		if err != nil {
			return err
		}
		pooled, _, err := b.pool.ForSlot(ctx, slot)
		if err != nil {
			return err
		}
		for i, e := range entries {
			for _, h := range e.Hashes {
				if txs, ok := pooled[h]; ok {
					outs = append(outs, store.BetaOutcome{Hash: h, Slot: slot, State: store.BetaMissed, Entry: uint64(i), Gas: e.Gas,
						Total: uint64(len(txs)), Reason: ReasonNoBetaPart})
				}
			}
		}
	}
	if err := b.pool.db.PutBetaOutcomes(ctx, outs); err != nil {
		return err
	}
	b.countOutcomes(ctx, slot, outs)
	if len(outs) > 0 {
		log.Info("Beta bundles delivered", "slot", slot, "paid", len(outs), "beta", beta != nil)
	}
	return nil
}

// countOutcomes adds the outcomes to the signers' statistics.
func (b *Service) countOutcomes(ctx context.Context, slot uint64, outs []store.BetaOutcome) {
	if b.pool.stats == nil || len(outs) == 0 {
		return
	}
	list, err := b.pool.db.BetaBundlesForSlot(ctx, slot)
	if err != nil {
		return
	}
	signers := make(map[common.Hash]common.Address, len(list))
	for _, bb := range list {
		signers[bb.Hash] = bb.Signer
	}
	for _, o := range outs {
		kind := bundle.StatBetaMissed
		if o.State == store.BetaIncluded {
			kind = bundle.StatBetaIncluded
		}
		b.pool.stats.Add(signers[o.Hash], kind)
	}
}
