package relaytest

import (
	"context"
	"math/big"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/miner"
)

// Settlement is a fixed L2 settlement per slot (a betapool.L2): the paid
// entries of queryBundles and the gas for sale. It stands in for the L2
// chain, which is outside the relay.
type Settlement struct {
	Paid  map[uint64][]auction.Bundle
	Items map[uint64]uint64
}

// Bundles returns slot's paid entries.
func (l *Settlement) Bundles(_ context.Context, slot uint64) ([]auction.Bundle, error) {
	return l.Paid[slot], nil
}

// ItemsForSale returns the gas sold for slot's beta block.
func (l *Settlement) ItemsForSale(_ context.Context, slot uint64) (*big.Int, error) {
	return new(big.Int).SetUint64(l.Items[slot]), nil
}

// BetaHolder is a relay.Beta whose beta source is set after the relay is
// built (a betapool.BetaBlocks needs the environment's chain).
type BetaHolder struct{ Blocks *betapool.BetaBlocks }

// Merge merges through Blocks.
func (h *BetaHolder) Merge(ctx context.Context, slot uint64, v *chain.VerifiedPayload) (*miner.BetaBlock, error) {
	return h.Blocks.Merge(ctx, slot, v)
}

// Gas is Blocks' beta gas of slot.
func (h *BetaHolder) Gas(ctx context.Context, slot uint64) uint64 { return h.Blocks.Gas(ctx, slot) }

// Delivered records the delivery in Blocks.
func (h *BetaHolder) Delivered(ctx context.Context, slot uint64, bb *miner.BetaBlock) error {
	return h.Blocks.Delivered(ctx, slot, bb)
}

// PaidPooled asks Blocks.
func (h *BetaHolder) PaidPooled(ctx context.Context, slot uint64) (bool, error) {
	return h.Blocks.PaidPooled(ctx, slot)
}
