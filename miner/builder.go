// Package miner builds the block gavel proposes locally for a slot: the
// eth_sendBundle bundles for that block first, each atomic and ordered by
// what it pays the fee recipient per gas, then mempool transactions by tip,
// within the gas limit. It replaces geth's miner for dev blocks; the block
// assembly itself is geth's, through core/chain. When the relay exists this
// is also what the dev builder submits.
package miner

import (
	"context"
	"errors"
	"math/big"
	"sort"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
)

var (
	buildTimer      = metrics.NewRegisteredTimer("gavel/miner/build", nil)
	bundlesInBlock  = metrics.NewRegisteredHistogram("gavel/miner/bundles", nil, metrics.NewExpDecaySample(1028, 0.015))
	bundlesRejected = metrics.NewRegisteredMeter("gavel/miner/bundles/rejected", nil)
)

// BundleSource gives the builder the eth_sendBundle bundles for a block
// (eth/bundlepool.Pool) and hears what became of them: Considered after each
// build, MarkIncluded when a built block becomes canonical.
type BundleSource interface {
	Bundles(number, timestamp uint64) []*bundle.SendBundle
	Considered(number uint64, cs []bundle.Consideration)
	MarkIncluded(number uint64, hash common.Hash, bs []*bundle.SendBundle)
}

// Config configures the local builder.
type Config struct {
	// GasLimit is the gas limit the builder moves towards (0: keep the
	// parent's).
	GasLimit uint64 `toml:",omitempty"`
	// Extra is the block's extra data (at most 32 bytes).
	Extra []byte `toml:",omitempty"`
	// MaxBundles caps how many bundles are simulated per block (1,000).
	MaxBundles int `toml:",omitempty"`
}

// Builder is the local block builder.
type Builder struct {
	chain   *chain.Chain
	bundles BundleSource
	cfg     Config

	usage bundle.UsageCounter // what included bundles paid, per signer (nil: not counted)

	mu    sync.Mutex
	built map[common.Hash]builtBundles // recent blocks -> bundles they hold
	order []common.Hash
}

type builtBundles struct {
	number  uint64
	bundles []*bundle.SendBundle
	paid    []*big.Int // what each of bundles paid the fee recipient
}

// New returns a builder over c taking bundles from src (nil: no bundles).
func New(c *chain.Chain, src BundleSource, cfg Config) *Builder {
	if cfg.MaxBundles <= 0 {
		cfg.MaxBundles = 1000
	}
	return &Builder{chain: c, bundles: src, cfg: cfg, built: map[common.Hash]builtBundles{}}
}

// CountPayments sets where the builder counts, per signer, what its
// bundles paid the fee recipient once their block becomes canonical. Set it
// before the builder is used.
func (b *Builder) CountPayments(u bundle.UsageCounter) { b.usage = u }

// Result is a built block and the bundles it includes.
type Result struct {
	*chain.BuiltBlock
	Bundles []*bundle.SendBundle
}

// Build builds the block on parent for attrs.
func (b *Builder) Build(ctx context.Context, parent *types.Header, attrs chain.BuildAttrs) (*Result, error) {
	return b.build(ctx, parent, attrs, nil)
}

// build builds the block; last, if set, adds the block's final txs.
func (b *Builder) build(ctx context.Context, parent *types.Header, attrs chain.BuildAttrs, last func(*chain.BlockBuilder) error) (*Result, error) {
	start := time.Now()
	if attrs.GasLimit == 0 {
		attrs.GasLimit = b.cfg.GasLimit
	}
	if attrs.Extra == nil {
		attrs.Extra = b.cfg.Extra
	}
	bb, err := b.chain.NewBlockBuilder(ctx, parent, attrs)
	if err != nil {
		return nil, err
	}
	var cands []*bundle.SendBundle
	if b.bundles != nil {
		cands = b.bundles.Bundles(bb.Number(), bb.Timestamp())
	}
	included, paid, considered := b.applyBundles(bb, cands)
	skip := make(map[common.Hash]bool)
	for _, bun := range included {
		for _, tx := range bun.Txs {
			skip[tx.Hash()] = true
		}
	}
	if _, err := bb.FillFromPool(skip); err != nil && err != chain.ErrNoTxPool {
		return nil, err
	}
	if last != nil {
		if err := last(bb); err != nil {
			return nil, err
		}
	}
	built, err := bb.Finish()
	if err != nil {
		return nil, err
	}
	b.remember(built.Block.Hash(), builtBundles{built.Block.NumberU64(), included, paid})
	if b.bundles != nil && len(considered) > 0 {
		b.bundles.Considered(built.Block.NumberU64(), considered)
	}
	buildTimer.UpdateSince(start)
	bundlesInBlock.Update(int64(len(included)))
	log.Debug("Built local block", "number", built.Block.NumberU64(), "hash", built.Block.Hash(), "txs", len(built.Block.Transactions()),
		"bundles", len(included), "gas", built.Block.GasUsed(), "fees", built.Fees, "elapsed", time.Since(start))
	return &Result{BuiltBlock: built, Bundles: included}, nil
}

// scored is a bundle with its top-of-block simulation.
type scored struct {
	b     *bundle.SendBundle
	price *uint256.Int
	idx   int
}

// applyBundles simulates each candidate on the block's starting state,
// orders them by effective gas price to the fee recipient (ties: arrival
// order), then applies them in that order; a bundle that fails on the state
// left by earlier ones is dropped whole ("outbid"). It returns the included
// bundles, what each paid the fee recipient, and what became of every
// candidate.
func (b *Builder) applyBundles(bb *chain.BlockBuilder, cands []*bundle.SendBundle) ([]*bundle.SendBundle, []*big.Int, []bundle.Consideration) {
	if len(cands) > b.cfg.MaxBundles {
		cands = cands[:b.cfg.MaxBundles]
	}
	considered := make([]bundle.Consideration, len(cands))
	ranked := make([]scored, 0, len(cands))
	for i, c := range cands {
		considered[i].Bundle = c
		out, err := bb.SimulateBundle(c.Txs, c.CanRevert)
		if err != nil {
			bundlesRejected.Mark(1)
			considered[i].Reason, considered[i].Err = dropReason(err, false), err
			log.Debug("Bundle fails at top of block", "hash", c.Hash, "reason", considered[i].Reason, "err", err)
			continue
		}
		considered[i].Simulated = true
		considered[i].GasUsed = out.GasUsed
		ranked = append(ranked, scored{c, out.EffectiveGasPrice(), i})
	}
	sort.SliceStable(ranked, func(i, j int) bool {
		if c := ranked[i].price.Cmp(ranked[j].price); c != 0 {
			return c > 0
		}
		return ranked[i].idx < ranked[j].idx
	})
	var (
		included []*bundle.SendBundle
		paid     []*big.Int
	)
	for _, r := range ranked {
		out, err := bb.ApplyBundle(r.b.Txs, r.b.CanRevert)
		if err != nil {
			bundlesRejected.Mark(1)
			considered[r.idx].Reason, considered[r.idx].Err = dropReason(err, true), err
			log.Debug("Bundle dropped", "hash", r.b.Hash, "reason", considered[r.idx].Reason, "err", err)
			continue
		}
		considered[r.idx].Included = true
		considered[r.idx].Paid = out.CoinbaseDiff.ToBig()
		included = append(included, r.b)
		paid = append(paid, considered[r.idx].Paid)
	}
	return included, paid, considered
}

// dropReason classifies a bundle failure. afterOthers: the bundle ran
// cleanly at the top of the block and failed only on the state earlier
// (better paying) bundles left, so it was outbid.
func dropReason(err error, afterOthers bool) bundle.DropReason {
	switch {
	case errors.Is(err, chain.ErrBlockFull):
		return bundle.DropBlockFull
	case afterOthers:
		return bundle.DropOutbid
	case errors.Is(err, chain.ErrTxNonce):
		return bundle.DropNonce
	case errors.Is(err, chain.ErrTxReverted):
		return bundle.DropRevert
	case errors.Is(err, chain.ErrTxFee):
		return bundle.DropFee
	case errors.Is(err, chain.ErrTxFunds):
		return bundle.DropFunds
	}
	return bundle.DropInvalid
}

const rememberBlocks = 64

func (b *Builder) remember(hash common.Hash, bs builtBundles) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.built[hash] = bs
	b.order = append(b.order, hash)
	if len(b.order) > rememberBlocks {
		delete(b.built, b.order[0])
		b.order = b.order[1:]
	}
}

// Imported tells the builder that block hash became canonical, so the
// bundles it built into it count as included, and what they paid the fee
// recipient as their signers' validator payments (per-signer statistics).
func (b *Builder) Imported(hash common.Hash) {
	b.mu.Lock()
	bs, ok := b.built[hash]
	delete(b.built, hash)
	b.mu.Unlock()
	if ok && b.bundles != nil && len(bs.bundles) > 0 {
		b.bundles.MarkIncluded(bs.number, hash, bs.bundles)
	}
	if ok && b.usage != nil {
		for i, bun := range bs.bundles {
			b.usage.AddUsage(bun.Signer, bundle.Usage{ValidatorPayments: bs.paid[i]})
		}
	}
}
