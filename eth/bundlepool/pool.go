// Package bundlepool holds eth_sendBundle bundles until the block they
// target is built. Bundles are keyed by target block number; a bundle with a
// replacementUuid replaces the earlier bundle of that uuid and can be
// cancelled with eth_cancelBundle. Blocks at or below the head are pruned.
// The local block builder (miner) reads a block's bundles from here.
package bundlepool

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"
)

var (
	acceptedMeter  = metrics.NewRegisteredMeter("gavel/bundles/accepted", nil)
	cancelledMeter = metrics.NewRegisteredMeter("gavel/bundles/cancelled", nil)
	includedMeter  = metrics.NewRegisteredMeter("gavel/bundles/included", nil)
	pendingGauge   = metrics.NewRegisteredGauge("gavel/bundles/pending", nil)
)

// Errors of the pool.
var (
	ErrPoolFull      = errors.New("bundle pool full")
	ErrUnknownUUID   = errors.New("no pending bundle with this replacementUuid")
	ErrNotYourBundle = errors.New("bundle was sent by another signer")
	ErrBlockFull     = errors.New("too many bundles for this block")
)

// Config bounds the pool ([Mev] section).
type Config struct {
	MaxBundles     int    `toml:",omitempty"` // pending bundles in all (10,000)
	MaxPerBlock    int    `toml:",omitempty"` // pending bundles per target block (2,000)
	MaxTxs         int    `toml:",omitempty"` // txs per bundle (100)
	MaxBytes       int    `toml:",omitempty"` // raw tx bytes per bundle (300,000)
	MaxBlocksAhead uint64 `toml:",omitempty"` // how far past the head a bundle may target (256)
}

// DefaultConfig is the Flashbots relay's bundle limits with pool bounds.
var DefaultConfig = Config{MaxBundles: 10_000, MaxPerBlock: 2_000, MaxTxs: 100, MaxBytes: 300_000, MaxBlocksAhead: 256}

func (c Config) withDefaults() Config {
	d := DefaultConfig
	if c.MaxBundles > 0 {
		d.MaxBundles = c.MaxBundles
	}
	if c.MaxPerBlock > 0 {
		d.MaxPerBlock = c.MaxPerBlock
	}
	if c.MaxTxs > 0 {
		d.MaxTxs = c.MaxTxs
	}
	if c.MaxBytes > 0 {
		d.MaxBytes = c.MaxBytes
	}
	if c.MaxBlocksAhead > 0 {
		d.MaxBlocksAhead = c.MaxBlocksAhead
	}
	return d
}

// StatsCounter counts per-signer events (the store's StatsBuffer).
type StatsCounter interface {
	Add(addr common.Address, kind bundle.StatKind)
}

// Pool is the eth_sendBundle pool. Safe for concurrent use.
type Pool struct {
	cfg     Config
	chainID uint64
	head    func() uint64
	stats   StatsCounter
	notify  func() // called after each accepted bundle (Notify)

	mu      sync.Mutex
	byBlock map[uint64]map[common.Hash]*bundle.SendBundle
	byUUID  map[string]*bundle.SendBundle
	count   int
	seq     uint64
	arrival map[*bundle.SendBundle]uint64
	pruned  uint64 // highest head pruned at

	// Statuses of recent bundles (status.go).
	status    map[statusKey]*Status
	latest    map[common.Hash]uint64 // bundle hash -> latest block it was sent for
	finished  uint64                 // highest block whose statuses are final
	builderID string
	now       func() time.Time
}

// New returns an empty pool. head returns the current head block number;
// stats may be nil.
func New(cfg Config, chainID uint64, head func() uint64, stats StatsCounter) *Pool {
	return &Pool{
		cfg: cfg.withDefaults(), chainID: chainID, head: head, stats: stats,
		byBlock: map[uint64]map[common.Hash]*bundle.SendBundle{},
		byUUID:  map[string]*bundle.SendBundle{},
		arrival: map[*bundle.SendBundle]uint64{},
		status:  map[statusKey]*Status{}, latest: map[common.Hash]uint64{},
		builderID: "local", now: time.Now,
	}
}

// Add validates args and adds the bundle for its target block. Sending the
// same bundle for the same block again is a no-op; a bundle with a
// replacementUuid replaces the uuid's earlier bundle.
func (p *Pool) Add(args bundle.SendBundleArgs, signer common.Address) (common.Hash, error) {
	lim := bundle.SendLimits{MaxTxs: p.cfg.MaxTxs, MaxBytes: p.cfg.MaxBytes, MaxBlocksAhead: p.cfg.MaxBlocksAhead}
	b, err := bundle.ValidateSend(args, p.chainID, p.head(), lim)
	if err != nil {
		return common.Hash{}, err
	}
	b.Signer = signer
	p.mu.Lock()
	defer p.mu.Unlock()
	// Without a local builder nothing else prunes: do it as the head moves.
	// Statuses of the head block itself are left to Prune, which comes after
	// the builder has said whether the block holds its bundles.
	if head := p.head(); head > p.pruned {
		p.pruneLocked(head, head-1)
	}
	// The bundle being replaced stays until the replacement has passed every
	// check: a failed replacement must not cancel the original.
	var old *bundle.SendBundle
	if b.ReplacementUUID != "" {
		old = p.byUUID[b.ReplacementUUID]
		if old != nil && old.Signer != signer {
			return common.Hash{}, fmt.Errorf("%w: replacementUuid %s belongs to another signer", ErrNotYourBundle, b.ReplacementUUID)
		}
	}
	set := p.byBlock[b.BlockNumber]
	if dup, ok := set[b.Hash]; ok {
		if old != nil && old != dup {
			p.removeLocked(old)
			p.dropLocked(old, bundle.DropReplaced)
		}
		return b.Hash, nil
	}
	freed, freedHere := 0, 0
	if old != nil {
		freed = 1
		if old.BlockNumber == b.BlockNumber {
			freedHere = 1
		}
	}
	if p.count-freed >= p.cfg.MaxBundles {
		return common.Hash{}, errclass.Limited(fmt.Errorf("%w: %d bundles pending, retry later", ErrPoolFull, p.count))
	}
	if len(set)-freedHere >= p.cfg.MaxPerBlock {
		return common.Hash{}, errclass.Limited(fmt.Errorf("%w: block %d already has %d bundles", ErrBlockFull, b.BlockNumber, len(set)))
	}
	if old != nil {
		p.removeLocked(old)
		p.dropLocked(old, bundle.DropReplaced)
	}
	set = p.byBlock[b.BlockNumber]
	if set == nil {
		set = map[common.Hash]*bundle.SendBundle{}
		p.byBlock[b.BlockNumber] = set
	}
	set[b.Hash] = b
	p.recordLocked(b)
	p.seq++
	p.arrival[b] = p.seq
	if b.ReplacementUUID != "" {
		p.byUUID[b.ReplacementUUID] = b
	}
	p.count++
	pendingGauge.Update(int64(p.count))
	acceptedMeter.Mark(1)
	if p.stats != nil {
		p.stats.Add(signer, bundle.StatBundle)
	}
	log.Debug("Bundle accepted", "hash", b.Hash, "block", b.BlockNumber, "txs", len(b.Txs), "signer", signer)
	if p.notify != nil {
		p.notify()
	}
	return b.Hash, nil
}

// Notify sets fn to be called after every accepted bundle (the relay
// builder's rebuild trigger). fn must not block and must not call the pool.
// Set it before the pool is used.
func (p *Pool) Notify(fn func()) { p.notify = fn }

// Cancel removes the pending bundle of uuid. When the bundle was signed,
// only its signer may cancel it.
func (p *Pool) Cancel(uuid string, signer common.Address) (common.Hash, error) {
	if uuid == "" {
		return common.Hash{}, bundle.ErrCancelMissingUUID
	}
	u, err := bundle.CanonicalUUID(uuid)
	if err != nil {
		return common.Hash{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.byUUID[u]
	if b == nil {
		return common.Hash{}, fmt.Errorf("%w: %s", ErrUnknownUUID, u)
	}
	if b.Signer != (common.Address{}) && b.Signer != signer {
		return common.Hash{}, fmt.Errorf("%w: replacementUuid %s", ErrNotYourBundle, u)
	}
	p.removeLocked(b)
	p.dropLocked(b, bundle.DropCancelled)
	cancelledMeter.Mark(1)
	return b.Hash, nil
}

func (p *Pool) removeLocked(b *bundle.SendBundle) {
	if set := p.byBlock[b.BlockNumber]; set != nil && set[b.Hash] == b {
		delete(set, b.Hash)
		if len(set) == 0 {
			delete(p.byBlock, b.BlockNumber)
		}
		p.count--
		pendingGauge.Update(int64(p.count))
	}
	if b.ReplacementUUID != "" && p.byUUID[b.ReplacementUUID] == b {
		delete(p.byUUID, b.ReplacementUUID)
	}
	delete(p.arrival, b)
}

// Bundles returns the bundles targeting block number whose timestamp window
// admits timestamp, in arrival order.
func (p *Pool) Bundles(number, timestamp uint64) []*bundle.SendBundle {
	p.mu.Lock()
	defer p.mu.Unlock()
	set := p.byBlock[number]
	out := make([]*bundle.SendBundle, 0, len(set))
	for _, b := range set {
		if b.ValidTime(timestamp) {
			out = append(out, b)
		} else if st := p.status[statusKey{b.Hash, number}]; st != nil && st.Reason == "" {
			st.Reason = bundle.DropTimestamp
		}
	}
	sort.Slice(out, func(i, j int) bool { return p.arrival[out[i]] < p.arrival[out[j]] })
	return out
}

// Prune drops bundles for blocks at or below head: their block is built.
// Their statuses become final (included or dropped) and one log line per
// block sums them up.
func (p *Pool) Prune(head uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pruneLocked(head, head)
}

func (p *Pool) pruneLocked(head, finish uint64) {
	p.finishLocked(finish)
	p.pruned = max(p.pruned, head)
	for n, set := range p.byBlock {
		if n > head {
			continue
		}
		for _, b := range set {
			p.removeLocked(b)
		}
	}
}

// MarkIncluded records bundles that made it into canonical block number
// (hash) and counts them per signer.
func (p *Pool) MarkIncluded(number uint64, hash common.Hash, bs []*bundle.SendBundle) {
	includedMeter.Mark(int64(len(bs)))
	p.mu.Lock()
	for _, b := range bs {
		if st := p.status[statusKey{b.Hash, number}]; st != nil {
			st.State, st.IncludedIn, st.Reason, st.Error = StateIncluded, hash, "", ""
		}
	}
	p.mu.Unlock()
	if p.stats == nil {
		return
	}
	for _, b := range bs {
		p.stats.Add(b.Signer, bundle.StatInclusion)
	}
}

// Len is the number of pending bundles.
func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count
}
