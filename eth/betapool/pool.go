// Package betapool holds beta bundles: searchers' zero-tip bundles sent with
// mev_sendBetaBundle for a slot whose bottom-of-block gas they buy on L2.
// The pool validates a submission (core/bundle's rules), stores it durably
// (internal/store) before answering, and reports its state per slot. The
// settlement reader (settlement.go) says which of a slot's bundles were paid
// on L2, and BetaBlocks (beta.go) hands the paid ones to the relay's merge.
package betapool

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/lru"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/internal/store"
)

var (
	acceptedMeter = metrics.NewRegisteredMeter("gavel/beta/bundles/accepted", nil)
	resentMeter   = metrics.NewRegisteredMeter("gavel/beta/bundles/resent", nil)
	rejectedMeter = metrics.NewRegisteredMeter("gavel/beta/bundles/rejected", nil)
	prunedMeter   = metrics.NewRegisteredMeter("gavel/beta/bundles/pruned", nil)
)

// Config bounds beta bundles ([Beta] section, --beta.* flags).
type Config struct {
	MaxTxs   int    `toml:",omitempty"` // txs per bundle (100)
	MaxBytes int    `toml:",omitempty"` // raw tx bytes per bundle (1 MiB)
	Horizon  uint64 `toml:",omitempty"` // --beta.horizon: slots ahead of the current one (128)
	// MaxPerSigner and MaxPerIP cap the (bundle, slot) entries one request
	// signer, or one client IP, has for slots that have not passed (1,000
	// each; counted since the node started).
	MaxPerSigner int `toml:",omitempty"`
	MaxPerIP     int `toml:",omitempty"`
	// Retention is how many slots a passed slot's bundles stay stored, so
	// mev_getBetaBundle can still report them "expired" (7,200 slots: a day
	// at 12 s). Older ones are deleted.
	Retention uint64 `toml:",omitempty"`
	// MaxStoreBytes is the disk budget of stored beta bundles, raw tx bytes
	// (1 GiB): past it new bundles are refused until pruning frees room.
	MaxStoreBytes int64 `toml:",omitempty"`
}

// DefaultConfig is bundle.DefaultBetaLimits with the store's quotas.
var DefaultConfig = Config{
	MaxTxs:       bundle.DefaultBetaLimits.MaxTxs,
	MaxBytes:     bundle.DefaultBetaLimits.MaxBytes,
	Horizon:      bundle.DefaultBetaLimits.Horizon,
	MaxPerSigner: 1_000, MaxPerIP: 1_000, Retention: 7_200, MaxStoreBytes: 1 << 30,
}

// Errors of the pool's quotas (429).
var (
	ErrQuota     = errors.New("beta bundle quota exceeded")
	ErrStoreFull = errors.New("beta bundle store is full")
)

// Store is what the pool needs of its database: the beta bundles, and the
// pruning and measuring that keep them within the retention period and the
// disk budget (internal/store's SQL stores).
type Store interface {
	store.BetaBundles
	PruneBetaBundles(ctx context.Context, before uint64) (int64, error)
	BetaBundleBytes(ctx context.Context) (int64, error)
}

// pruneEvery is how many slots pass between two prunings.
const pruneEvery = 32

func (c Config) limits() bundle.BetaLimits {
	l := bundle.DefaultBetaLimits
	if c.MaxTxs > 0 {
		l.MaxTxs = c.MaxTxs
	}
	if c.MaxBytes > 0 {
		l.MaxBytes = c.MaxBytes
	}
	if c.Horizon > 0 {
		l.Horizon = c.Horizon
	}
	return l
}

// StatsCounter counts accepted bundles per signer (the store's StatsBuffer).
type StatsCounter interface {
	Add(addr common.Address, kind bundle.StatKind)
}

// Pool validates, stores and looks up beta bundles.
type Pool struct {
	db          store.BetaBundles
	chainID     uint64
	currentSlot func() uint64
	limits      bundle.BetaLimits
	cfg         Config
	stats       StatsCounter
	now         func() time.Time
	paid        *Settlements // set by NewBetaBlocks; nil: no L2
	// decoded keeps recent bundles' txs as validated, senders recovered,
	// so that a merge does not decode and ecrecover them again.
	decoded *lru.Cache[common.Hash, types.Transactions]
	maxGas  func() uint64

	mu         sync.Mutex
	perSigner  map[uint64]map[common.Address]int // slot -> signer -> entries
	perIP      map[uint64]map[string]int         // slot -> client IP -> entries
	bytes      int64                             // stored raw tx bytes (approximate between prunings)
	measured   bool
	prunedAt   uint64
	pruning    bool
	pruneStore Store // nil when db cannot prune (then no retention or budget)
}

// The decoded-tx cache: how many bundles, and the largest bundle (raw
// bytes) it takes, so that it holds a few tens of MB at most.
const (
	decodedBundles  = 1024
	decodedMaxBytes = 16 << 10
)

// remember caches a bundle's decoded txs unless it is large.
func (p *Pool) remember(hash common.Hash, raw [][]byte, txs types.Transactions) {
	n := 0
	for _, r := range raw {
		n += len(r)
	}
	if n <= decodedMaxBytes {
		p.decoded.Add(hash, txs)
	}
}

// New returns a pool storing into db. chainID is the L1 chain id beta txs
// must be signed for; currentSlot is the node's slot clock (the dev chain's
// slot in --dev, beacon genesis time on real networks). stats may be nil.
func New(cfg Config, db store.BetaBundles, chainID uint64, currentSlot func() uint64, stats StatsCounter) *Pool {
	d := DefaultConfig
	if cfg.MaxPerSigner <= 0 {
		cfg.MaxPerSigner = d.MaxPerSigner
	}
	if cfg.MaxPerIP <= 0 {
		cfg.MaxPerIP = d.MaxPerIP
	}
	if cfg.Retention == 0 {
		cfg.Retention = d.Retention
	}
	if cfg.MaxStoreBytes <= 0 {
		cfg.MaxStoreBytes = d.MaxStoreBytes
	}
	p := &Pool{
		db: db, chainID: chainID, currentSlot: currentSlot, limits: cfg.limits(), cfg: cfg, stats: stats, now: time.Now,
		perSigner: map[uint64]map[common.Address]int{}, perIP: map[uint64]map[string]int{},
		decoded: lru.NewCache[common.Hash, types.Transactions](decodedBundles),
	}
	p.pruneStore, _ = db.(Store)
	return p
}

// SetGasRules turns on the gas checks: each tx's gas limit must cover its
// intrinsic gas (minGas, core/chain.Chain.MinTxGas), and a bundle's gas
// limits together must fit maxGas(), the beta capacity of a slot (at most
// the block gas limit).
func (p *Pool) SetGasRules(minGas func(*types.Transaction, common.Address) (uint64, error), maxGas func() uint64) {
	p.limits.MinGas = minGas
	p.maxGas = maxGas
}

// Add validates args and stores the bundle for its slot, returning the
// bundle hash once the write is committed. Re-sending a bundle for a slot it
// is already stored for returns the same hash and changes nothing. Errors
// from validation wrap core/bundle's ErrBeta* sentinels.
func (p *Pool) Add(ctx context.Context, args bundle.BetaBundleArgs, signer common.Address) (common.Hash, error) {
	return p.AddFrom(ctx, args, signer, "")
}

// AddFrom is Add for a request from client IP ip: the quotas count per
// signer (signed requests) and per IP, and the disk budget is checked.
func (p *Pool) AddFrom(ctx context.Context, args bundle.BetaBundleArgs, signer common.Address, ip string) (common.Hash, error) {
	cur := p.currentSlot()
	lim := p.limits
	if p.maxGas != nil {
		lim.MaxGas = p.maxGas()
	}
	b, err := bundle.ValidateBeta(args, p.chainID, cur, lim)
	if err != nil {
		rejectedMeter.Mark(1)
		return common.Hash{}, err
	}
	p.maybePrune(cur)
	size := 0
	for _, raw := range b.Raw {
		size += len(raw)
	}
	if err := p.reserve(ctx, b.Slot, cur, signer, ip, int64(size)); err != nil {
		rejectedMeter.Mark(1)
		return common.Hash{}, err
	}
	created, err := p.db.PutBetaBundle(ctx, &store.BetaBundle{Hash: b.Hash, Txs: b.Raw, Signer: signer}, b.Slot, p.now().UnixMilli())
	if err != nil {
		p.unreserve(b.Slot, signer, ip, int64(size))
		return common.Hash{}, errclass.Internal(fmt.Errorf("storing beta bundle %s: %w", b.Hash.Hex(), err))
	}
	if !created {
		p.unreserve(b.Slot, signer, ip, int64(size))
	}
	p.remember(b.Hash, b.Raw, b.Txs)
	if created {
		acceptedMeter.Mark(1)
		if p.stats != nil {
			p.stats.Add(signer, bundle.StatBetaBundle)
		}
		log.Debug("Beta bundle accepted", "hash", b.Hash, "slot", b.Slot, "txs", len(b.Txs), "signer", signer)
	} else {
		resentMeter.Mark(1)
	}
	return b.Hash, nil
}

// reserve counts a new (bundle, slot) entry against the signer's and the
// IP's quotas and its bytes against the disk budget, or says which is spent.
func (p *Pool) reserve(ctx context.Context, slot, cur uint64, signer common.Address, ip string, size int64) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for s := range p.perSigner {
		if s < cur {
			delete(p.perSigner, s)
		}
	}
	for s := range p.perIP {
		if s < cur {
			delete(p.perIP, s)
		}
	}
	if signer != (common.Address{}) {
		n := 0
		for _, m := range p.perSigner {
			n += m[signer]
		}
		if n >= p.cfg.MaxPerSigner {
			return errclass.Limited(fmt.Errorf("%w: signer %s has %d bundles for coming slots, at most %d", ErrQuota, signer, n, p.cfg.MaxPerSigner))
		}
	}
	n := 0
	for _, m := range p.perIP {
		n += m[ip]
	}
	if n >= p.cfg.MaxPerIP {
		return errclass.Limited(fmt.Errorf("%w: %d bundles for coming slots from this IP address, at most %d", ErrQuota, n, p.cfg.MaxPerIP))
	}
	if p.pruneStore != nil {
		if !p.measured {
			b, err := p.pruneStore.BetaBundleBytes(ctx)
			if err != nil {
				return errclass.Internal(err)
			}
			p.bytes, p.measured = b, true
		}
		if p.bytes+size > p.cfg.MaxStoreBytes {
			return errclass.Limited(fmt.Errorf("%w: %d bytes of %d stored; bundles of passed slots are deleted after %d slots, retry then", ErrStoreFull, p.bytes, p.cfg.MaxStoreBytes, p.cfg.Retention))
		}
		p.bytes += size
	}
	if signer != (common.Address{}) {
		if p.perSigner[slot] == nil {
			p.perSigner[slot] = map[common.Address]int{}
		}
		p.perSigner[slot][signer]++
	}
	if p.perIP[slot] == nil {
		p.perIP[slot] = map[string]int{}
	}
	p.perIP[slot][ip]++
	return nil
}

// unreserve takes back a reservation whose bundle was not stored (failed,
// or already there for that slot).
func (p *Pool) unreserve(slot uint64, signer common.Address, ip string, size int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m := p.perSigner[slot]; m != nil && signer != (common.Address{}) {
		m[signer]--
	}
	if m := p.perIP[slot]; m != nil {
		m[ip]--
	}
	if p.pruneStore != nil {
		p.bytes -= size
	}
}

// maybePrune deletes, in the background, the bundles of slots older than
// the retention period, every pruneEvery slots, and re-measures the store.
func (p *Pool) maybePrune(cur uint64) {
	if p.pruneStore == nil || cur < p.cfg.Retention {
		return
	}
	p.mu.Lock()
	if p.pruning || cur < p.prunedAt+pruneEvery && p.prunedAt != 0 {
		p.mu.Unlock()
		return
	}
	p.pruning, p.prunedAt = true, cur
	p.mu.Unlock()
	go func() {
		p.Prune(context.Background(), cur-p.cfg.Retention)
		p.mu.Lock()
		p.pruning = false
		p.mu.Unlock()
	}()
}

// Prune deletes the bundles of slots before slot (and bundles left with no
// slot), then re-measures the store for the disk budget.
func (p *Pool) Prune(ctx context.Context, before uint64) error {
	if p.pruneStore == nil {
		return nil
	}
	n, err := p.pruneStore.PruneBetaBundles(ctx, before)
	if err != nil {
		log.Warn("Pruning beta bundles failed", "err", err)
		return err
	}
	b, err := p.pruneStore.BetaBundleBytes(ctx)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.bytes, p.measured = b, true
	p.mu.Unlock()
	if n > 0 {
		prunedMeter.Mark(n)
		log.Debug("Pruned beta bundles", "before", before, "entries", n, "bytes", b)
	}
	return nil
}

// Slot states reported by Status.
const (
	StatePending  = "pending"  // the slot has not passed and nothing is paid for it yet
	StatePaid     = "paid"     // paid on L2 for the slot, block not delivered yet
	StateIncluded = "included" // in the slot's delivered block (maybe a prefix: k of n)
	StateMissed   = "missed"   // paid, but not in the slot's block (Reason says why)
	StateExpired  = "expired"  // the slot passed without a payment known to gavel
)

// statusWindow is how many past slots Status asks the L2 about: older
// paid slots without a recorded outcome are reported expired.
const statusWindow = 64

// SlotStatus is the state of a bundle for one slot.
type SlotStatus struct {
	Slot       uint64
	State      string
	ReceivedAt time.Time
	// Paid: the settlement entry that paid for the bundle and its gas budget.
	Entry *uint64
	Gas   uint64
	// Included: the block, the txs in it (a prefix of the bundle) and the
	// bundle's tx count.
	BlockNumber uint64
	BlockHash   common.Hash
	Included    []common.Hash
	Total       int
	// Reason says why a bundle was missed or only partly included.
	Reason string
}

// Status is what gavel knows about one beta bundle.
type Status struct {
	Hash     common.Hash
	Txs      [][]byte
	TxHashes []common.Hash
	Slots    []SlotStatus
}

// ErrUnknownBundle is returned by Status for a hash never sent.
var ErrUnknownBundle = errors.New("unknown beta bundle")

// Status reports, per slot the bundle was sent for: the outcome recorded
// when the slot's block was delivered (included, missed); else, from the L2
// settlement, paid (slot not passed) or missed (passed); else pending or
// expired.
func (p *Pool) Status(ctx context.Context, hash common.Hash) (*Status, error) {
	b, err := p.db.BetaBundle(ctx, hash)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("%w: %s was never sent (or was sent to another node)", ErrUnknownBundle, hash.Hex())
	}
	if err != nil {
		return nil, errclass.Internal(err)
	}
	cur := p.currentSlot()
	st := &Status{Hash: hash, Txs: b.Txs}
	for _, raw := range b.Txs {
		tx := new(types.Transaction)
		if err := tx.UnmarshalBinary(raw); err != nil {
			return nil, errclass.Internal(fmt.Errorf("stored beta bundle %s has an undecodable tx: %w", hash.Hex(), err))
		}
		st.TxHashes = append(st.TxHashes, tx.Hash())
	}
	for _, s := range b.Slots {
		ss := SlotStatus{Slot: s.Slot, State: StatePending, ReceivedAt: time.UnixMilli(s.ReceivedAt).UTC(), Total: len(b.Txs)}
		if s.Slot < cur {
			ss.State = StateExpired
		}
		switch o := s.Outcome; {
		case o != nil:
			entry := o.Entry
			ss.State, ss.Entry, ss.Gas, ss.Reason = o.State, &entry, o.Gas, o.Reason
			ss.BlockNumber, ss.BlockHash, ss.Included = o.BlockNumber, o.BlockHash, o.TxHashes
		case p.paid != nil && s.Slot+statusWindow >= cur:
			if entry, gas, ok := p.paidEntry(ctx, s.Slot, hash); ok {
				ss.State, ss.Entry, ss.Gas = StatePaid, &entry, gas
				if s.Slot < cur {
					ss.State, ss.Reason = StateMissed, ReasonNotDelivered
				}
			}
		}
		st.Slots = append(st.Slots, ss)
	}
	return st, nil
}

// paidEntry finds the first settlement entry of slot that pays for hash.
func (p *Pool) paidEntry(ctx context.Context, slot uint64, hash common.Hash) (uint64, uint64, bool) {
	entries, err := p.paid.Paid(ctx, slot)
	if err != nil {
		return 0, 0, false
	}
	for i, e := range entries {
		for _, h := range e.Hashes {
			if h == hash {
				return uint64(i), e.Gas, true
			}
		}
	}
	return 0, 0, false
}

// ForSlot returns the decoded bundles sent for slot, in arrival order: what
// the beta-block builder matches against the slot's settlement.
func (p *Pool) ForSlot(ctx context.Context, slot uint64) (map[common.Hash]types.Transactions, []common.Hash, error) {
	list, err := p.db.BetaBundlesForSlot(ctx, slot)
	if err != nil {
		return nil, nil, err
	}
	out := make(map[common.Hash]types.Transactions, len(list))
	order := make([]common.Hash, 0, len(list))
	for _, b := range list {
		if txs, ok := p.decoded.Get(b.Hash); ok {
			out[b.Hash] = txs
			order = append(order, b.Hash)
			continue
		}
		txs := make(types.Transactions, 0, len(b.Txs))
		for _, raw := range b.Txs {
			tx := new(types.Transaction)
			if err := tx.UnmarshalBinary(raw); err != nil {
				return nil, nil, fmt.Errorf("stored beta bundle %s: %w", b.Hash.Hex(), err)
			}
			txs = append(txs, tx)
		}
		p.remember(b.Hash, b.Txs, txs)
		out[b.Hash] = txs
		order = append(order, b.Hash)
	}
	return out, order, nil
}

// hexTxs encodes raw txs for JSON.
func hexTxs(txs [][]byte) []hexutil.Bytes {
	out := make([]hexutil.Bytes, len(txs))
	for i, t := range txs {
		out[i] = t
	}
	return out
}
