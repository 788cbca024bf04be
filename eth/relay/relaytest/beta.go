package relaytest

import (
	"context"
	"math/big"
	"slices"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/miner"
)

// Settlement is an L2 settlement per slot (a betapool.L2): the paid
// entries of queryBundles and the gas for sale. It stands in for the L2
// chain, which is outside the relay. Set the maps before use, or change
// them with Pay while it is read.
type Settlement struct {
	Paid  map[uint64][]auction.Bundle
	Items map[uint64]uint64

	mu sync.Mutex
}

// Bundles returns slot's paid entries.
func (l *Settlement) Bundles(_ context.Context, slot uint64) ([]auction.Bundle, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.Paid[slot]), nil
}

// ItemsForSale returns the gas sold for slot's beta block.
func (l *Settlement) ItemsForSale(_ context.Context, slot uint64) (*big.Int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return new(big.Int).SetUint64(l.Items[slot]), nil
}

// Pay appends a settlement entry paying gas for hashes in slot, as
// SettlementHouse.submitBundle does.
func (l *Settlement) Pay(slot, gas uint64, hashes ...common.Hash) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Paid == nil {
		l.Paid = make(map[uint64][]auction.Bundle)
	}
	l.Paid[slot] = append(l.Paid[slot], auction.Bundle{AmountOfGas: new(big.Int).SetUint64(gas), BundleHashes: hashes})
}

// Sell sets the gas slot's auction sells, as Auctioneer.openAuction does.
func (l *Settlement) Sell(slot, gas uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.Items == nil {
		l.Items = make(map[uint64]uint64)
	}
	l.Items[slot] = gas
}

// BetaService returns a beta service on e's chain and store reading l2,
// its reads made by hand (Refresh, as with slots stepped by hand), which
// makes e's relay merge a slot again when the slot's paid set changed.
// stats may be nil.
func (e *Env) BetaService(tb testing.TB, l2 betapool.L2, stats betapool.StatsCounter) *betapool.Service {
	tb.Helper()
	s, err := betapool.NewService(betapool.ServiceConfig{
		Pool: betapool.DefaultConfig, Settlement: betapool.SettlementConfig{Refresh: -1},
		Store: e.Store, ChainID: e.Chain.ChainID(), CurrentSlot: e.Relay.HeadSlot, Stats: stats, Chain: e.Chain, L2: l2,
		Changed: func(ctx context.Context, slot uint64) { e.Relay.RemergeSlot(ctx, slot) },
	})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Stop() })
	return s
}

// BetaHolder is a relay.Beta whose beta service is set after the relay is
// built (a betapool.Service needs the environment's chain).
type BetaHolder struct{ Service *betapool.Service }

// Merge merges through Service.
func (h *BetaHolder) Merge(ctx context.Context, slot uint64, v *chain.VerifiedPayload) (*miner.BetaBlock, uint64, error) {
	return h.Service.Merge(ctx, slot, v)
}

// Gas is Service's beta gas of slot.
func (h *BetaHolder) Gas(slot uint64) (uint64, bool) { return h.Service.Gas(slot) }

// Delivered records the delivery in Service.
func (h *BetaHolder) Delivered(ctx context.Context, slot uint64, bb *miner.BetaBlock) error {
	return h.Service.Delivered(ctx, slot, bb)
}

// PaidPooled asks Service.
func (h *BetaHolder) PaidPooled(ctx context.Context, slot uint64) (bool, error) {
	return h.Service.PaidPooled(ctx, slot)
}
