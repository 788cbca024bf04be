// Package betapool holds beta bundles: searchers' zero-tip bundles sent with
// mev_sendBetaBundle for a slot whose bottom-of-block gas they buy on L2.
// The pool validates a submission (core/bundle's rules), stores it durably
// (internal/store) before answering, and reports its state per slot. The
// settlement reader (settlement.go) says which of a slot's bundles were paid
// on L2. The beta service (service.go) owns the pool, the reader and the
// merge (beta.go): the relay and the builder see it through small
// interfaces.
package betapool

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/lru"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"
	gethparams "github.com/ethereum/go-ethereum/params"
	"golang.org/x/sync/errgroup"

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
	// each). They are counted from the database: a restart does not reset
	// them, and relay instances sharing a PostgreSQL database share them.
	MaxPerSigner int `toml:",omitempty"`
	MaxPerIP     int `toml:",omitempty"`
	// MaxBytesPerIP caps the bytes of the bundles one client IP added to
	// the store for slots that have not passed (64 MiB), so that one
	// address cannot spend the disk budget alone.
	MaxBytesPerIP int64 `toml:",omitempty"`
	// Retention is how many slots a passed slot's bundles stay stored, so
	// mev_getBetaBundle can still report them (expired, included, missed)
	// (7,200 slots: a day at 12 s; at least the 64 slots for which Status
	// asks the L2 about a payment). Older ones are deleted.
	Retention uint64 `toml:",omitempty"`
	// MaxStoreBytes is the disk budget of stored beta bundles, their txs
	// as stored (1 GiB), shared by the instances of one database: past it
	// a new bundle is stored only if early pruning or eviction (EvictLead)
	// makes room, else refused until pruning frees room.
	MaxStoreBytes int64 `toml:",omitempty"`
	// EvictLead: when the disk budget is spent, a bundle from a client IP
	// holding fewer stored bytes than the IP holding the most takes the
	// room of that IP's newest entries without an outcome: first those of
	// slots at least EvictLead slots ahead of the current one (16), then,
	// with an L2 settlement reader (NewService), those of any slot that
	// a read of the slot's settlement no older than its refresh period
	// (Settlements.PaidNow) says are not paid, made outside the store's
	// write (the store re-checks each one inside it). When the L2 cannot
	// be read, or there is none, only EvictLead's rule applies: it must
	// exceed how many slots ahead the L2 auction settles (the operator's
	// settle lead, 8 by default), so that no paid bundle is evicted
	// without the L2 saying so.
	EvictLead uint64 `toml:",omitempty"`
}

// DefaultConfig is bundle.DefaultBetaLimits with the store's quotas.
var DefaultConfig = Config{
	MaxTxs:       bundle.DefaultBetaLimits.MaxTxs,
	MaxBytes:     bundle.DefaultBetaLimits.MaxBytes,
	Horizon:      bundle.DefaultBetaLimits.Horizon,
	MaxPerSigner: 1_000, MaxPerIP: 1_000, MaxBytesPerIP: 64 << 20, Retention: 7_200, MaxStoreBytes: 1 << 30,
	EvictLead: 16,
}

// Errors of the pool's quotas (429): the store's, which counts them.
var (
	ErrQuota     = store.ErrBetaQuota
	ErrStoreFull = store.ErrBetaStoreFull
)

// Store is what the pool needs of its database for the retention period
// and the disk budget (internal/store's SQL stores).
type Store interface {
	store.BetaBundles
	PruneBetaBundles(ctx context.Context, before uint64) (int64, error)
	PruneExpiredBetaBundles(ctx context.Context, before uint64) (int64, error)
	BetaBundleBytes(ctx context.Context) (int64, error)
	OldestBetaSlot(ctx context.Context) (uint64, error)
	BetaEvictionCandidates(ctx context.Context, ip string, from uint64, need int64) ([]store.BetaEntryRef, error)
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
	paid        *Settlements // nil: no L2 (a pool built alone, New)
	// decoded keeps recent bundles' txs as validated, senders recovered,
	// so that a merge does not decode and ecrecover them again.
	decoded *lru.Cache[common.Hash, types.Transactions]
	// headGasLimit is the head block's gas limit (SetGasRules): the
	// capacity bound of slots whose beta_gas is not known yet.
	headGasLimit func() uint64
	// accounts reads the head state for the admission check
	// (SetAccounts); nil: no check.
	accounts bundle.Accounts

	// background is the pruning running in the background (Close waits).
	background sync.WaitGroup

	relieving  sync.Mutex    // one early pruning at a time (relieve)
	relievedAt atomic.Uint64 // the slot of the last early pruning

	mu         sync.Mutex
	prunedAt   uint64
	pruning    bool
	pruneStore Store // nil when db cannot prune (then no retention)
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

// New returns a pool storing into db, without an L2 settlement reader (the
// beta service, NewService, builds the node's pool with one). chainID is
// the L1 chain id beta txs must be signed for; currentSlot is the node's
// slot clock (the dev chain's slot in --dev, beacon genesis time on real
// networks). stats may be nil.
func New(cfg Config, db store.BetaBundles, chainID uint64, currentSlot func() uint64, stats StatsCounter) *Pool {
	return newPool(cfg, db, chainID, currentSlot, stats, nil)
}

// newPool is New with the settlement reader paid (nil: no L2).
func newPool(cfg Config, db store.BetaBundles, chainID uint64, currentSlot func() uint64, stats StatsCounter, paid *Settlements) *Pool {
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
	cfg.Retention = max(cfg.Retention, statusWindow)
	if cfg.MaxStoreBytes <= 0 {
		cfg.MaxStoreBytes = d.MaxStoreBytes
	}
	if cfg.MaxBytesPerIP <= 0 {
		cfg.MaxBytesPerIP = d.MaxBytesPerIP
	}
	if cfg.EvictLead == 0 {
		cfg.EvictLead = d.EvictLead
	}
	p := &Pool{
		db: db, chainID: chainID, currentSlot: currentSlot, limits: cfg.limits(), cfg: cfg, stats: stats, now: time.Now, paid: paid,
		decoded: lru.NewCache[common.Hash, types.Transactions](decodedBundles),
	}
	p.pruneStore, _ = db.(Store)
	return p
}

// GasRules is what the pool's gas checks need of the chain
// (core/chain.Chain).
type GasRules interface {
	// MinTxGas is the least gas a tx can use: intrinsic gas and calldata
	// floor (EIP-7623) under the next block's rules.
	MinTxGas(tx *types.Transaction, from common.Address) (uint64, error)
	// MaxTxGas is the per-tx gas cap of the next block's rules (EIP-7825;
	// 0: none).
	MaxTxGas() uint64
	// Head is the head block's header: its gas limit bounds the slots
	// whose beta_gas is not known yet.
	Head() *types.Header
}

// SetGasRules turns on the gas checks: each tx's gas limit must cover its
// intrinsic gas and stay within the fork's per-tx cap, and a bundle's gas
// limits together must fit its slot's beta capacity (Capacity).
func (p *Pool) SetGasRules(c GasRules) {
	p.limits.MinGas = c.MinTxGas
	p.limits.MaxTxGas = c.MaxTxGas
	p.headGasLimit = func() uint64 { return c.Head().GasLimit }
}

// SetAccounts turns on the admission check against the head state, as
// eth_sendBundle's (core/bundle.CheckFunds): a beta bundle's first tx must
// have a nonce at least its sender's, a sender holding its gas limit at its
// max fee plus its value, and a max fee no lower than the lowest base fee
// the block of its slot can have (a block per slot from the current one
// on). The money is not spent, but an account without it cannot fill the
// store. Without it (tests of the pool alone) bundles are admitted on
// their form.
func (p *Pool) SetAccounts(a bundle.Accounts) { p.accounts = a }

// admit is the admission check of SetAccounts.
func (p *Pool) admit(b *bundle.BetaBundle, cur uint64) error {
	if p.accounts == nil {
		return nil
	}
	blocks := uint64(1)
	if b.Slot > cur {
		blocks += b.Slot - cur
	}
	return bundle.CheckFunds(p.accounts, b.Txs[0], "beta bundle txs[0]", blocks)
}

// Capacity is the most gas slot's beta part can hold, as the pool checks
// bundles against it. When the slot's L2 auction is known to be open (the
// beta service's last read, never a read now), it is the
// auction's beta_gas: the gas sold for the slot, the number the relay's
// validators endpoint publishes and builders leave unused. Before that
// (the auction is opened some slots ahead, or the L2 cannot be read), the
// beta_gas of the slot is not known and the bound is the most any beta
// part of slot can hold: the gas limit its block can reach at most, the
// head's raised by the largest step the protocol allows per block, over
// every slot from the current one to slot (the operator may sell the whole
// block). known says which applies. Without gas rules there is no bound
// (0).
func (p *Pool) Capacity(ctx context.Context, slot, cur uint64) (gas uint64, known bool) {
	if p.paid != nil {
		if st := p.paid.State(slot); st.Gas > 0 {
			return st.Gas, true
		}
	}
	if p.headGasLimit == nil {
		return 0, false
	}
	steps := uint64(1)
	if slot > cur {
		steps += slot - cur
	}
	return GasLimitCeiling(p.headGasLimit(), steps), false
}

// GasLimitCeiling is the highest gas limit a block n blocks after one with
// gas limit limit can have: each block may move its parent's gas limit by
// less than parent/1024 (geth's misc.VerifyGaslimit), and never past
// params.MaxGasLimit.
func GasLimitCeiling(limit, n uint64) uint64 {
	for ; n > 0 && limit < gethparams.MaxGasLimit; n-- {
		step := limit / gethparams.GasLimitBoundDivisor
		if step <= 1 {
			break // a gas limit below 2,048 cannot rise
		}
		limit = min(limit+step-1, gethparams.MaxGasLimit)
	}
	return limit
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
	b, err := bundle.ValidateBeta(args, p.chainID, cur, p.limits)
	if err == nil {
		err = p.checkCapacity(ctx, b, cur)
	}
	if err == nil {
		err = p.admit(b, cur)
	}
	if err != nil {
		rejectedMeter.Mark(1)
		return common.Hash{}, err
	}
	p.maybePrune(cur)
	q := store.BetaQuota{From: cur, IP: ip, MaxPerSigner: p.cfg.MaxPerSigner, MaxPerIP: p.cfg.MaxPerIP,
		MaxBytesPerIP: p.cfg.MaxBytesPerIP, MaxBytes: p.cfg.MaxStoreBytes, EvictFrom: cur + p.cfg.EvictLead}
	sb := &store.BetaBundle{Hash: b.Hash, Txs: b.Raw, Signer: signer}
	created, err := p.db.PutBetaBundleWithin(ctx, sb, b.Slot, p.now().UnixMilli(), q)
	if errors.Is(err, ErrStoreFull) && p.relieve(ctx, cur) {
		created, err = p.db.PutBetaBundleWithin(ctx, sb, b.Slot, p.now().UnixMilli(), q)
	}
	for round := 0; errors.Is(err, ErrStoreFull) && round < evictRounds; round++ {
		if q.Evictable = p.unpaidCandidates(ctx, ip, b.Raw, cur); len(q.Evictable) == 0 {
			break
		}
		created, err = p.db.PutBetaBundleWithin(ctx, sb, b.Slot, p.now().UnixMilli(), q)
	}
	switch {
	case errors.Is(err, ErrQuota):
		rejectedMeter.Mark(1)
		return common.Hash{}, errclass.Limited(err)
	case errors.Is(err, ErrStoreFull):
		rejectedMeter.Mark(1)
		return common.Hash{}, errclass.Limited(fmt.Errorf("%w; %s", err, p.whenRoom(ctx, cur)))
	case err != nil:
		return common.Hash{}, errclass.Internal(fmt.Errorf("storing beta bundle %s: %w", b.Hash.Hex(), err))
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

// checkCapacity refuses a bundle whose gas limits together exceed its
// slot's Capacity: it could never be included whole.
func (p *Pool) checkCapacity(ctx context.Context, b *bundle.BetaBundle, cur uint64) error {
	limit, known := p.Capacity(ctx, b.Slot, cur)
	if limit == 0 || b.Gas <= limit {
		return nil
	}
	if known {
		return fmt.Errorf("%w: the txs' gas limits sum to %d, slot %d sells %d gas for its beta part (beta_gas)", bundle.ErrBetaGasTooHigh, b.Gas, b.Slot, limit)
	}
	return fmt.Errorf("%w: the txs' gas limits sum to %d, more than %d, the most gas slot %d's block can have (its beta_gas is not known before its L2 auction opens)",
		bundle.ErrBetaGasTooHigh, b.Gas, limit, b.Slot)
}

// Eviction of unpaid entries: a full store's new entry may take the room
// of entries of the largest holder the L2 settlement does not pay, in at
// most evictRounds rounds (a concurrent writer may take the room freed
// between a round's read and its write). A round reads the settlement of
// each slot of its candidates from statusWindow slots before the current
// one to EvictLead slots ahead (at most statusWindow + EvictLead slots),
// evictReaders at a time; each slot's read is cached for the reader's
// refresh period and concurrent ones are merged, so however many clients
// find the store full, the L2 is asked about a slot about once a period.
const (
	evictRounds  = 2
	evictReaders = 8
)

// unpaidCandidates lists the entries a bundle of raw txs from client IP ip
// may evict when the disk budget is spent: the entries without an outcome
// of the IP holding the most bytes (if ip holds fewer), of any slot from
// statusWindow slots before cur on (older ones are relieve's), that a
// fresh read of the L2 settlement (Settlements.PaidNow) says are not paid
// for their slot, or that are EvictLead slots ahead or more (EvictLead's
// rule takes those without a read). None without an L2 reader; none of a
// slot whose settlement cannot be read.
func (p *Pool) unpaidCandidates(ctx context.Context, ip string, raw [][]byte, cur uint64) []store.BetaEntryRef {
	if p.paid == nil || p.pruneStore == nil {
		return nil
	}
	need := int64(store.BetaEntryBytes)
	for _, r := range raw {
		need += int64(len(r)) + 8 // its RLP string header
	}
	from := uint64(0)
	if cur > statusWindow {
		from = cur - statusWindow // older entries are relieve's
	}
	cands, err := p.pruneStore.BetaEvictionCandidates(ctx, ip, from, need)
	if err != nil {
		log.Warn("Listing beta eviction candidates failed", "err", err)
		return nil
	}
	far := cur + p.cfg.EvictLead
	var slots []uint64 // to read
	seen := map[uint64]bool{}
	for _, c := range cands {
		if c.Slot < far && !seen[c.Slot] {
			seen[c.Slot] = true
			slots = append(slots, c.Slot)
		}
	}
	var (
		paid = map[uint64]map[common.Hash]bool{} // none: unreadable, nothing of the slot goes
		mu   sync.Mutex
		g    errgroup.Group
	)
	g.SetLimit(evictReaders)
	for _, slot := range slots {
		g.Go(func() error {
			entries, err := p.paid.PaidNow(ctx, slot)
			if err != nil {
				return nil // unreadable: none of the slot's entries goes
			}
			set := map[common.Hash]bool{}
			for _, e := range entries {
				for _, h := range e.Hashes {
					set[h] = true
				}
			}
			mu.Lock()
			paid[slot] = set
			mu.Unlock()
			return nil
		})
	}
	g.Wait()
	var out []store.BetaEntryRef
	for _, c := range cands {
		if set := paid[c.Slot]; c.Slot >= far || set != nil && !set[c.Hash] {
			out = append(out, c)
		}
	}
	return out
}

// whenRoom says when a full store gets room again.
func (p *Pool) whenRoom(ctx context.Context, cur uint64) string {
	oldest := ""
	if p.pruneStore != nil {
		if s, err := p.pruneStore.OldestBetaSlot(ctx); err == nil {
			oldest = fmt.Sprintf("; the oldest stored is for slot %d", s)
		}
	}
	return fmt.Sprintf("room comes back as slots pass (a slot's bundles never included or missed in a delivered block are deleted once the slot is %d slots old, the others once it is %d slots old%s): retry later",
		statusWindow, p.cfg.Retention, oldest)
}

// relieve deletes, when the disk budget is spent, the entries of slots
// more than statusWindow slots old that have no outcome (mev_getBetaBundle
// reports them "expired": their slot passed and nothing paid for them
// was delivered) before their retention period ends, at most once a slot
// and by one caller at a time. It reports whether anything was deleted.
func (p *Pool) relieve(ctx context.Context, cur uint64) bool {
	if p.pruneStore == nil || cur <= statusWindow || !p.relieving.TryLock() {
		return false
	}
	defer p.relieving.Unlock()
	if p.relievedAt.Load() == cur {
		return false
	}
	p.relievedAt.Store(cur)
	n, err := p.pruneStore.PruneExpiredBetaBundles(ctx, cur-statusWindow)
	if err != nil {
		log.Warn("Pruning expired beta bundles failed", "err", err)
		return false
	}
	if n > 0 {
		prunedMeter.Mark(n)
		log.Info("Beta bundle store full: pruned expired bundles early", "before", cur-statusWindow, "entries", n)
	}
	return n > 0
}

// maybePrune deletes, in the background, the bundles of slots older than
// the retention period, every pruneEvery slots.
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
	p.background.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.background.Done()
		p.Prune(context.Background(), cur-p.cfg.Retention)
		p.mu.Lock()
		p.pruning = false
		p.mu.Unlock()
	}()
}

// Close waits for the pruning running in the background: call it before
// the store closes.
func (p *Pool) Close() { p.background.Wait() }

// Prune deletes the bundles of slots before slot (and bundles left with no
// slot); the store measures its disk use again.
func (p *Pool) Prune(ctx context.Context, before uint64) error {
	if p.pruneStore == nil {
		return nil
	}
	n, err := p.pruneStore.PruneBetaBundles(ctx, before)
	if err != nil {
		log.Warn("Pruning beta bundles failed", "err", err)
		return err
	}
	if n > 0 {
		prunedMeter.Mark(n)
		log.Debug("Pruned beta bundles", "before", before, "entries", n)
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
	StateEvicted  = "evicted"  // deleted before its slot for a client holding fewer bytes (Reason says so)
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
		return nil, fmt.Errorf("%w: %s was never sent (or was sent to another node), or its last slot passed more than %d slots ago (it was deleted)", ErrUnknownBundle, hash.Hex(), p.cfg.Retention)
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
		case s.Evicted != "":
			ss.State, ss.Reason = StateEvicted, s.Evicted
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
