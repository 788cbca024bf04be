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
)

// Config bounds beta bundles ([Beta] section, --beta.* flags).
type Config struct {
	MaxTxs   int    `toml:",omitempty"` // txs per bundle (100)
	MaxBytes int    `toml:",omitempty"` // raw tx bytes per bundle (1 MiB)
	Horizon  uint64 `toml:",omitempty"` // --beta.horizon: slots ahead of the current one (128)
}

// DefaultConfig is bundle.DefaultBetaLimits.
var DefaultConfig = Config{
	MaxTxs:   bundle.DefaultBetaLimits.MaxTxs,
	MaxBytes: bundle.DefaultBetaLimits.MaxBytes,
	Horizon:  bundle.DefaultBetaLimits.Horizon,
}

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
	stats       StatsCounter
	now         func() time.Time
	paid        *Settlements // set by NewBetaBlocks; nil: no L2
	// decoded keeps recent bundles' txs as validated, senders recovered,
	// so that a merge does not decode and ecrecover them again.
	decoded *lru.Cache[common.Hash, types.Transactions]
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
	return &Pool{db: db, chainID: chainID, currentSlot: currentSlot, limits: cfg.limits(), stats: stats, now: time.Now,
		decoded: lru.NewCache[common.Hash, types.Transactions](decodedBundles)}
}

// Add validates args and stores the bundle for its slot, returning the
// bundle hash once the write is committed. Re-sending a bundle for a slot it
// is already stored for returns the same hash and changes nothing. Errors
// from validation wrap core/bundle's ErrBeta* sentinels.
func (p *Pool) Add(ctx context.Context, args bundle.BetaBundleArgs, signer common.Address) (common.Hash, error) {
	b, err := bundle.ValidateBeta(args, p.chainID, p.currentSlot(), p.limits)
	if err != nil {
		rejectedMeter.Mark(1)
		return common.Hash{}, err
	}
	created, err := p.db.PutBetaBundle(ctx, &store.BetaBundle{Hash: b.Hash, Txs: b.Raw, Signer: signer}, b.Slot, p.now().UnixMilli())
	if err != nil {
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
