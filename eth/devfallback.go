package eth

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/log"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/miner"
)

// devFallback appends the slot's paid beta bundles to the dev proposer's
// local block, as the relay does to the blocks it serves: a paid slot is
// then not refunded because the relay had no bid. The local block is
// verified with its state kept, merged by the same rules (miner.BuildBeta),
// and what became of each paid bundle is recorded under the block's hash,
// so the auction operator judges the slot by the block that became
// canonical. Any failure costs only the beta part: the local block is
// returned as built.
func devFallback(c *chain.Chain, beta relay.Beta) func(context.Context, devbeacon.PayloadRequest, *engine.ExecutionPayloadEnvelope) *engine.ExecutionPayloadEnvelope {
	return func(ctx context.Context, req devbeacon.PayloadRequest, local *engine.ExecutionPayloadEnvelope) *engine.ExecutionPayloadEnvelope {
		if beta == nil {
			return local
		}
		if gas, _ := beta.Gas(req.Slot); gas == 0 {
			return local // nothing sold for the slot
		}
		d := local.ExecutionPayload
		var hashes []common.Hash
		for _, raw := range d.Transactions {
			var tx types.Transaction
			if err := tx.UnmarshalBinary(raw); err != nil {
				return local
			}
			hashes = append(hashes, tx.BlobHashes()...)
		}
		root := req.Attrs.ParentBeaconRoot
		v, err := c.ValidatePayload(ctx, &chain.BuilderPayload{
			Payload: d, VersionedHashes: hashes, ParentBeaconRoot: &root, Requests: local.Requests,
			// The local block's own gas limit is the one the parent's limit
			// may step to, and the local block pays its fee recipient nothing
			// beyond its fees.
			RegisteredGasLimit: d.GasLimit, ProposerFeeRecipient: d.FeeRecipient, Value: new(uint256.Int), KeepState: true,
		})
		if err != nil {
			log.Warn("Dev fallback block gets no beta part: it did not verify", "slot", req.Slot, "err", err)
			return local
		}
		block, _, err := beta.Merge(ctx, req.Slot, v)
		switch {
		case errors.Is(err, miner.ErrNoBeta):
			if block != nil && len(block.Results) > 0 {
				// Nothing appended: the outcomes belong to the local block.
				block.BuiltBlock = &chain.BuiltBlock{Block: v.Block, Envelope: local}
				recordFallback(ctx, beta, req.Slot, block)
			}
			return local
		case err != nil:
			log.Warn("Dev fallback block gets no beta part", "slot", req.Slot, "err", err)
			return local
		}
		recordFallback(ctx, beta, req.Slot, block)
		log.Info("Dev fallback block merged with its beta part", "slot", req.Slot, "block", block.Block.Hash(),
			"bundles", block.Bundles, "betaGas", block.GasUsed)
		env := *block.Envelope
		env.BlockValue = local.BlockValue
		return &env
	}
}

// recordFallback stores what became of the slot's paid bundles in the fallback
// block. The operator checks the block is canonical before it counts them.
func recordFallback(ctx context.Context, beta relay.Beta, slot uint64, block *miner.BetaBlock) {
	if err := beta.Delivered(ctx, slot, block); err != nil {
		log.Warn("Dev fallback could not record its beta bundles", "slot", slot, "err", err)
	}
}
