// Package bundlepool holds eth_sendBundle bundles until the block they
// target is built. Bundles are keyed by target block number; a bundle with a
// replacementUuid replaces the earlier bundle of that uuid and can be
// cancelled with eth_cancelBundle. Blocks at or below the head are pruned.
// The local block builder (miner) reads a block's bundles from here.
package bundlepool

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"sort"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/internal/store"
)

var (
	acceptedMeter  = metrics.NewRegisteredMeter("gavel/bundles/accepted", nil)
	cancelledMeter = metrics.NewRegisteredMeter("gavel/bundles/cancelled", nil)
	includedMeter  = metrics.NewRegisteredMeter("gavel/bundles/included", nil)
	pendingGauge   = metrics.NewRegisteredGauge("gavel/bundles/pending", nil)
	evictedMeter   = metrics.NewRegisteredMeter("gavel/bundles/evicted", nil)
)

// Errors of the pool.
var (
	ErrPoolFull    = errors.New("bundle pool full")
	ErrUnknownUUID = errors.New("no pending bundle with this replacementUuid")
	ErrBlockFull   = errors.New("too many bundles for this block")
	// ErrNotYourBundle: a signed bundle's status asked for by another signer.
	ErrNotYourBundle = errors.New("bundle was sent by another signer")
	// ErrQuota: the signer or the client IP already has its share of the
	// pool pending (429).
	ErrQuota = errors.New("bundle quota exceeded")
	// ErrCancelled: the replacementUuid was cancelled for this block range;
	// a replayed request cannot bring the bundle back.
	ErrCancelled = errors.New("replacementUuid was cancelled")
	// Admission check against the head state (first tx of the bundle):
	// core/bundle's CheckFunds, shared with beta bundles.
	ErrNonceTooLow       = bundle.ErrNonceTooLow
	ErrInsufficientFunds = bundle.ErrInsufficientFunds
	ErrFeeCapTooLow      = bundle.ErrFeeCapTooLow
)

// Config bounds the pool ([Mev] section).
type Config struct {
	MaxBundles     int    `toml:",omitempty"` // pending bundles in all (10,000)
	MaxPerBlock    int    `toml:",omitempty"` // pending bundles per target block (2,000)
	MaxTxs         int    `toml:",omitempty"` // txs per bundle (100)
	MaxBytes       int    `toml:",omitempty"` // raw tx bytes per bundle (300,000)
	MaxBlocksAhead uint64 `toml:",omitempty"` // how far past the head a bundle may target (256)
	MaxPoolBytes   int    `toml:",omitempty"` // raw tx bytes of all pending bundles (64 MiB)
	MaxPerSigner   int    `toml:",omitempty"` // pending bundles of one request signer (1,000)
	MaxPerIP       int    `toml:",omitempty"` // pending bundles sent from one client IP (1,000)
}

// DefaultConfig is the Flashbots relay's bundle limits with pool bounds.
var DefaultConfig = Config{
	MaxBundles: 10_000, MaxPerBlock: 2_000, MaxTxs: 100, MaxBytes: 300_000, MaxBlocksAhead: 256,
	MaxPoolBytes: 64 << 20, MaxPerSigner: 1_000, MaxPerIP: 1_000,
}

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
	if c.MaxPoolBytes > 0 {
		d.MaxPoolBytes = c.MaxPoolBytes
	}
	if c.MaxPerSigner > 0 {
		d.MaxPerSigner = c.MaxPerSigner
	}
	if c.MaxPerIP > 0 {
		d.MaxPerIP = c.MaxPerIP
	}
	return d
}

// StatsCounter counts per-signer events (the store's StatsBuffer).
type StatsCounter interface {
	Add(addr common.Address, kind bundle.StatKind)
}

// Pool is the eth_sendBundle pool. Safe for concurrent use.
type Pool struct {
	cfg      Config
	chainID  uint64
	head     func() uint64
	stats    StatsCounter
	accounts bundle.Accounts
	notify   func() // called after each accepted bundle (Notify)

	mu        sync.Mutex
	byBlock   map[uint64]map[common.Hash]*bundle.SendBundle
	byUUID    map[uuidKey]*bundle.SendBundle
	cancelled map[uuidKey]uint64 // cancelled uuid -> highest block it was cancelled for
	entries   map[*bundle.SendBundle]*entry
	bySigner  map[common.Address]int
	byIP      map[string]int
	count     int
	bytes     int
	seq       uint64
	pruned    uint64 // highest head pruned at

	// The store the pool keeps durable (Persist), and the changes since
	// they were last queued to it (journalLocked).
	store     Store
	unsavedRm []store.SendBundleKey
	unsavedCx []store.SendBundleCancel
	pruneTo   uint64

	// Statuses of recent bundles (status.go).
	status    map[statusKey]*Status
	latest    map[common.Hash]uint64 // bundle hash -> latest block it was sent for
	finished  uint64                 // highest block whose statuses are final
	builderID string
	now       func() time.Time
}

// uuidKey scopes a replacementUuid to its owner: the request signer, or the
// zero address for unsigned bundles. Two owners' equal uuids never meet.
type uuidKey struct {
	owner common.Address
	uuid  string
}

// entry is the pool's bookkeeping of one pending bundle.
type entry struct {
	arrival  uint64
	ip       string
	bytes    int
	score    *big.Int // first tx's tip per gas: what eviction compares
	args     []byte   // the request's params (JSON), what the store keeps
	received int64    // unix milliseconds of the first acceptance
}

// New returns an empty pool. head returns the current head block number;
// stats may be nil.
func New(cfg Config, chainID uint64, head func() uint64, stats StatsCounter) *Pool {
	return &Pool{
		cfg: cfg.withDefaults(), chainID: chainID, head: head, stats: stats,
		byBlock:   map[uint64]map[common.Hash]*bundle.SendBundle{},
		byUUID:    map[uuidKey]*bundle.SendBundle{},
		cancelled: map[uuidKey]uint64{},
		entries:   map[*bundle.SendBundle]*entry{},
		bySigner:  map[common.Address]int{},
		byIP:      map[string]int{},
		status:    map[statusKey]*Status{}, latest: map[common.Hash]uint64{},
		builderID: "local", now: time.Now,
	}
}

// SetAccounts turns on the admission check against the head state: a
// bundle's first tx must have a nonce at least its sender's, a sender able
// to pay its gas at its max fee plus its value, and a max fee no lower
// than the lowest base fee its target block can have. Without it (tests of
// the pool alone) bundles are admitted on their form.
func (p *Pool) SetAccounts(a bundle.Accounts) { p.accounts = a }

// Add validates args and adds the bundle for its target block. Sending the
// same bundle for the same block again is a no-op; a bundle with a
// replacementUuid replaces the uuid's earlier bundle of the same signer.
func (p *Pool) Add(args bundle.SendBundleArgs, signer common.Address) (common.Hash, error) {
	return p.AddFrom(args, signer, "")
}

// AddFrom is Add for a request from client IP ip (quotas are per signer and
// per IP; "" counts as one client). With a store (Persist) it returns once
// the bundle is committed.
//
// Ownership: the first sender owns a bundle (its hash for its block), and a
// replay by anyone changes nothing, with one exception: a signed send of a
// bundle pending unsigned takes it over (with the signer's uuid, quota and
// status access), so whoever sees a signer's transactions first cannot
// hold the signer's bundle by sending it unsigned. An unsigned request
// never replaces, takes or cancels a signed bundle.
func (p *Pool) AddFrom(args bundle.SendBundleArgs, signer common.Address, ip string) (common.Hash, error) {
	lim := bundle.SendLimits{MaxTxs: p.cfg.MaxTxs, MaxBytes: p.cfg.MaxBytes, MaxBlocksAhead: p.cfg.MaxBlocksAhead}
	b, err := bundle.ValidateSend(args, p.chainID, p.head(), lim)
	if err != nil {
		return common.Hash{}, err
	}
	b.Signer = signer
	if err := p.admit(b); err != nil {
		return common.Hash{}, err
	}
	size := 0
	for _, raw := range args.Txs {
		size += len(raw)
	}
	e := &entry{ip: ip, bytes: size, score: tipPerGas(b.Txs[0]), received: p.now().UnixMilli()}
	if p.store != nil {
		args.ReplacementUUID = b.ReplacementUUID // canonical: what the owner's cancel names
		if e.args, err = json.Marshal(args); err != nil {
			return common.Hash{}, errclass.Internal(err)
		}
	}
	p.mu.Lock()
	added, err := p.addLocked(b, e)
	wait := p.journalLocked(added, e)
	p.mu.Unlock()
	if err != nil {
		return common.Hash{}, err
	}
	if err := wait(); err != nil {
		p.unadd(added)
		return common.Hash{}, errclass.Internal(err)
	}
	if added != nil && p.notify != nil {
		p.notify()
	}
	return b.Hash, nil
}

// addLocked adds b; it returns b when b is in the pool, nil when the pool
// kept what it had (the same bundle again).
func (p *Pool) addLocked(b *bundle.SendBundle, e *entry) (*bundle.SendBundle, error) {
	signer, ip := b.Signer, e.ip
	// Without a local builder nothing else prunes: do it as the head moves.
	// Statuses of the head block itself are left to Prune, which comes after
	// the builder has said whether the block holds its bundles.
	if head := p.head(); head > p.pruned {
		p.pruneLocked(head, head-1)
	}
	key := uuidKey{signer, b.ReplacementUUID}
	if b.ReplacementUUID != "" {
		if upTo, ok := p.cancelled[key]; ok && b.BlockNumber <= upTo {
			return nil, fmt.Errorf("%w for blocks up to %d: use another uuid", ErrCancelled, upTo)
		}
	}
	// The bundle being replaced stays until the replacement has passed every
	// check: a failed replacement must not cancel the original.
	var old *bundle.SendBundle
	if b.ReplacementUUID != "" {
		old = p.byUUID[key]
	}
	set := p.byBlock[b.BlockNumber]
	if dup, ok := set[b.Hash]; ok {
		if signer == (common.Address{}) || dup.Signer != (common.Address{}) {
			if old != nil && old != dup && dup.Signer == signer {
				p.removeLocked(old)
				p.dropLocked(old, bundle.DropReplaced)
			}
			return nil, nil
		}
		return p.takeOverLocked(dup, b, e, old)
	}
	// A replacement frees its predecessor's share before the quotas count.
	freed, freedHere := 0, 0
	if old != nil {
		freed = 1
		if old.BlockNumber == b.BlockNumber {
			freedHere = 1
		}
	}
	if signer != (common.Address{}) && p.bySigner[signer]-freed >= p.cfg.MaxPerSigner {
		return nil, errclass.Limited(fmt.Errorf("%w: signer %s has %d bundles pending, at most %d", ErrQuota, signer, p.bySigner[signer], p.cfg.MaxPerSigner))
	}
	if oldIP := p.ipOf(old); p.byIP[ip]-btoi(old != nil && oldIP == ip) >= p.cfg.MaxPerIP {
		return nil, errclass.Limited(fmt.Errorf("%w: %d bundles pending from this IP address, at most %d", ErrQuota, p.byIP[ip], p.cfg.MaxPerIP))
	}
	if len(set)-freedHere >= p.cfg.MaxPerBlock {
		low, lowE := p.leastLocked(set)
		if lowE == nil || lowE.score.Cmp(e.score) >= 0 {
			return nil, errclass.Limited(fmt.Errorf("%w: block %d already has %d bundles, none pays less per gas than this one", ErrBlockFull, b.BlockNumber, len(set)))
		}
		p.removeLocked(low)
		p.dropLocked(low, bundle.DropEvicted)
		evictedMeter.Mark(1)
	}
	if old != nil {
		p.removeLocked(old)
		p.dropLocked(old, bundle.DropReplaced)
	}
	if err := p.makeRoomLocked(e); err != nil {
		return nil, err
	}
	p.insertLocked(b, e)
	p.acceptedLocked(b)
	log.Debug("Bundle accepted", "hash", b.Hash, "block", b.BlockNumber, "txs", len(b.Txs), "signer", signer)
	return b, nil
}

// takeOverLocked gives dup, pending unsigned, to b's signer: b takes its
// place (dup's status goes on, now shown only to the signer), and the
// signer's earlier bundle of b's uuid is replaced.
func (p *Pool) takeOverLocked(dup, b *bundle.SendBundle, e *entry, old *bundle.SendBundle) (*bundle.SendBundle, error) {
	signer, ip := b.Signer, e.ip
	if p.bySigner[signer]-btoi(old != nil) >= p.cfg.MaxPerSigner {
		return nil, errclass.Limited(fmt.Errorf("%w: signer %s has %d bundles pending, at most %d", ErrQuota, signer, p.bySigner[signer], p.cfg.MaxPerSigner))
	}
	if p.byIP[ip]-btoi(p.ipOf(dup) == ip) >= p.cfg.MaxPerIP {
		return nil, errclass.Limited(fmt.Errorf("%w: %d bundles pending from this IP address, at most %d", ErrQuota, p.byIP[ip], p.cfg.MaxPerIP))
	}
	if de := p.entries[dup]; de != nil {
		e.received = de.received
	}
	p.removeLocked(dup)
	if old != nil {
		p.removeLocked(old)
		p.dropLocked(old, bundle.DropReplaced)
	}
	if st := p.status[statusKey{b.Hash, b.BlockNumber}]; st != nil {
		st.Signer = signer
	}
	p.insertLocked(b, e)
	p.acceptedLocked(b)
	log.Debug("Bundle taken over by its signer", "hash", b.Hash, "block", b.BlockNumber, "signer", signer)
	return b, nil
}

// insertLocked adds b, which passed every check, with its bookkeeping e.
func (p *Pool) insertLocked(b *bundle.SendBundle, e *entry) {
	set := p.byBlock[b.BlockNumber]
	if set == nil {
		set = map[common.Hash]*bundle.SendBundle{}
		p.byBlock[b.BlockNumber] = set
	}
	set[b.Hash] = b
	p.recordLocked(b)
	p.seq++
	e.arrival = p.seq
	p.entries[b] = e
	if b.ReplacementUUID != "" {
		p.byUUID[uuidKey{b.Signer, b.ReplacementUUID}] = b
	}
	p.count++
	p.bytes += e.bytes
	if b.Signer != (common.Address{}) {
		p.bySigner[b.Signer]++
	}
	p.byIP[e.ip]++
	pendingGauge.Update(int64(p.count))
}

// acceptedLocked counts a bundle the pool took from a request (not one
// reloaded at start: it was counted when it came).
func (p *Pool) acceptedLocked(b *bundle.SendBundle) {
	acceptedMeter.Mark(1)
	if p.stats != nil {
		p.stats.Add(b.Signer, bundle.StatBundle)
	}
}

// unadd takes b out again after the store failed to commit it: it was not
// acknowledged.
func (p *Pool) unadd(b *bundle.SendBundle) {
	if b == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if set := p.byBlock[b.BlockNumber]; set != nil && set[b.Hash] == b {
		p.removeLocked(b)
		p.dropLocked(b, bundle.DropInvalid)
		p.journalLocked(nil, nil)
	}
}

// Notify sets fn to be called after every accepted bundle (the relay
// builder's rebuild trigger). fn must not block and must not call the pool.
// Set it before the pool is used.
func (p *Pool) Notify(fn func()) { p.notify = fn }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (p *Pool) ipOf(b *bundle.SendBundle) string {
	if e := p.entries[b]; e != nil {
		return e.ip
	}
	return ""
}

// makeRoomLocked makes room for e under the count and byte budgets by
// evicting the least valuable pending bundles (lowest tip per gas of the
// first tx, the newest first among equals), only while they are worth less
// than e; otherwise the pool is full.
func (p *Pool) makeRoomLocked(e *entry) error {
	for p.count+1 > p.cfg.MaxBundles || p.bytes+e.bytes > p.cfg.MaxPoolBytes {
		var low *bundle.SendBundle
		var lowE *entry
		for b, be := range p.entries {
			if lowE == nil || less(be, lowE) {
				low, lowE = b, be
			}
		}
		if low == nil || lowE.score.Cmp(e.score) >= 0 {
			return errclass.Limited(fmt.Errorf("%w: %d bundles (%d bytes) pending, none pays less per gas than this one; retry later", ErrPoolFull, p.count, p.bytes))
		}
		p.removeLocked(low)
		p.dropLocked(low, bundle.DropEvicted)
		evictedMeter.Mark(1)
	}
	return nil
}

// leastLocked is the least valuable bundle of set.
func (p *Pool) leastLocked(set map[common.Hash]*bundle.SendBundle) (*bundle.SendBundle, *entry) {
	var low *bundle.SendBundle
	var lowE *entry
	for _, b := range set {
		if be := p.entries[b]; be != nil && (lowE == nil || less(be, lowE)) {
			low, lowE = b, be
		}
	}
	return low, lowE
}

// less orders bundles for eviction: lower tip per gas first, then the
// newer (the older keeps its place among equals).
func less(a, b *entry) bool {
	if c := a.score.Cmp(b.score); c != 0 {
		return c < 0
	}
	return a.arrival > b.arrival
}

// tipPerGas is what a tx offers the block's fee recipient per gas at most.
func tipPerGas(tx *types.Transaction) *big.Int {
	if tx.GasTipCap().Cmp(tx.GasFeeCap()) < 0 {
		return tx.GasTipCap()
	}
	return tx.GasFeeCap()
}

// admit is the cheap admission check against the head state (SetAccounts):
// the first tx, for a block BlockNumber - head blocks after the head.
func (p *Pool) admit(b *bundle.SendBundle) error {
	if p.accounts == nil {
		return nil
	}
	blocks := uint64(0)
	if h := p.accounts.Head(); h != nil && b.BlockNumber > h.Number.Uint64() {
		blocks = b.BlockNumber - h.Number.Uint64()
	}
	return bundle.CheckFunds(p.accounts, b.Txs[0], "txs[0]", blocks)
}

// Cancel removes the pending bundle of uuid sent by signer (unsigned
// bundles are cancelled unsigned), and keeps the uuid cancelled up to that
// bundle's block: replaying the request that sent it cannot bring it back.
// With a store (Persist) it returns once the cancellation is committed.
func (p *Pool) Cancel(uuid string, signer common.Address) (common.Hash, error) {
	if uuid == "" {
		return common.Hash{}, bundle.ErrCancelMissingUUID
	}
	u, err := bundle.CanonicalUUID(uuid)
	if err != nil {
		return common.Hash{}, err
	}
	p.mu.Lock()
	key := uuidKey{signer, u}
	b := p.byUUID[key]
	if b == nil {
		p.mu.Unlock()
		return common.Hash{}, fmt.Errorf("%w: %s", ErrUnknownUUID, u)
	}
	p.removeLocked(b)
	p.cancelled[key] = max(p.cancelled[key], b.BlockNumber)
	p.dropLocked(b, bundle.DropCancelled)
	cancelledMeter.Mark(1)
	if p.store != nil {
		p.unsavedCx = append(p.unsavedCx, store.SendBundleCancel{Owner: signer, UUID: u, UpTo: p.cancelled[key]})
	}
	wait := p.journalLocked(nil, nil)
	p.mu.Unlock()
	if err := wait(); err != nil {
		return common.Hash{}, errclass.Internal(err)
	}
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
	key := uuidKey{b.Signer, b.ReplacementUUID}
	if b.ReplacementUUID != "" && p.byUUID[key] == b {
		delete(p.byUUID, key)
	}
	if e := p.entries[b]; e != nil {
		if p.store != nil {
			p.unsavedRm = append(p.unsavedRm, store.SendBundleKey{Hash: b.Hash, Block: b.BlockNumber})
		}
		p.bytes -= e.bytes
		if b.Signer != (common.Address{}) {
			if p.bySigner[b.Signer]--; p.bySigner[b.Signer] <= 0 {
				delete(p.bySigner, b.Signer)
			}
		}
		if p.byIP[e.ip]--; p.byIP[e.ip] <= 0 {
			delete(p.byIP, e.ip)
		}
		delete(p.entries, b)
	}
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
	sort.Slice(out, func(i, j int) bool { return p.entries[out[i]].arrival < p.entries[out[j]].arrival })
	return out
}

// Prune drops bundles for blocks at or below head: their block is built.
// Their statuses become final (included or dropped) and one log line per
// block sums them up.
func (p *Pool) Prune(head uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pruneLocked(head, head)
	// Not waited for: a bundle whose block passed is never reloaded anyway.
	p.journalLocked(nil, nil)
}

func (p *Pool) pruneLocked(head, finish uint64) {
	p.finishLocked(finish)
	if p.store != nil && head > p.pruned {
		p.pruneTo = head
	}
	p.pruned = max(p.pruned, head)
	for k, upTo := range p.cancelled {
		if upTo <= head {
			delete(p.cancelled, k)
		}
	}
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
