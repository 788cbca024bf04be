package betapool

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"
	"golang.org/x/sync/singleflight"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/internal/defaults"
	"github.com/gavel-eth/gavel/miner"
)

var (
	l2ReadTimer  = metrics.NewRegisteredTimer("gavel/beta/l2/read", nil)
	l2ErrorMeter = metrics.NewRegisteredMeter("gavel/beta/l2/errors", nil)
	l2Truncated  = metrics.NewRegisteredMeter("gavel/beta/l2/truncated", nil)
)

// Defaults of the settlement reader.
const (
	DefaultMaxEntries      = 1024
	DefaultMaxHashes       = 256
	DefaultL2Timeout       = 500 * time.Millisecond
	DefaultRefresh         = time.Second
	DefaultMaxResultBytes  = 4 << 20
	settlementSlotsTracked = 256
)

// ErrL2Result means the L2 answered a contract read with more data than the
// reader accepts.
var ErrL2Result = errors.New("L2 result too large")

// L2 is what the settlement reader needs of the second-layer contracts
// (contracts/auction.Client).
type L2 interface {
	Bundles(ctx context.Context, slot uint64) ([]auction.Bundle, error)
	ItemsForSale(ctx context.Context, slot uint64) (*big.Int, error)
}

// SettlementConfig bounds and paces the settlement reader.
type SettlementConfig struct {
	// MaxEntries and MaxHashes bound a slot's settlement: entries past
	// MaxEntries and hashes past MaxHashes in one entry are ignored.
	MaxEntries int `toml:",omitempty"`
	MaxHashes  int `toml:",omitempty"`
	// Timeout bounds one L2 read (500 ms): a slow L2 costs the beta part,
	// never the slot.
	Timeout time.Duration `toml:",omitempty"`
	// Refresh is how old a slot's cached settlement may be before it is
	// read again (1 s); negative: read every time (tests step slots by hand).
	Refresh time.Duration `toml:",omitempty"`
}

// DefaultSettlementConfig is the reader's defaults.
var DefaultSettlementConfig = SettlementConfig{
	MaxEntries: DefaultMaxEntries, MaxHashes: DefaultMaxHashes, Timeout: DefaultL2Timeout, Refresh: DefaultRefresh,
}

func (c SettlementConfig) withDefaults() SettlementConfig {
	defaults.Set(&c.MaxEntries, DefaultMaxEntries)
	defaults.Set(&c.MaxHashes, DefaultMaxHashes)
	defaults.Set(&c.Timeout, DefaultL2Timeout)
	if c.Refresh == 0 {
		c.Refresh = DefaultRefresh
	}
	return c
}

// Settlements reads, per slot, the paid entries of SettlementHouse
// queryBundles and the gas the Auctioneer sells, from the L2, and caches
// them per slot. Safe for concurrent use.
type Settlements struct {
	l2  L2
	cfg SettlementConfig
	now func() time.Time

	mu    sync.Mutex
	slots map[uint64]*slotRead
	// gasReads merges concurrent reads of one slot's gas (every beta
	// submission for a slot without an auction yet asks): one L2 call.
	gasReads singleflight.Group
	// paidReads merges concurrent PaidNow reads of one slot.
	paidReads singleflight.Group
	// downUntil: after a failed read the L2 is not asked again before
	// this, so a dead L2 costs one timeout per backoff, not one per call.
	downUntil time.Time
	// noCodeWarned: "no contract code" was logged once at WARN.
	noCodeWarned bool
}

// l2Backoff is how long the reader leaves a failing L2 alone.
const l2Backoff = time.Second

// ErrL2Down means a recent L2 read failed and the reader is backing off.
var ErrL2Down = errors.New("L2 unreachable (backing off)")

// slotRead is what is known of one slot.
type slotRead struct {
	entries   []miner.BetaEntry
	readAt    time.Time         // zero: never read successfully
	refreshed []miner.BetaEntry // what the last Refresh read
	gas       uint64
	gasAt     time.Time
	warned    bool
}

// NewSettlements returns a reader over l2.
func NewSettlements(l2 L2, cfg SettlementConfig) *Settlements {
	return &Settlements{l2: l2, cfg: cfg.withDefaults(), now: time.Now, slots: make(map[uint64]*slotRead)}
}

func (s *Settlements) slot(slot uint64) *slotRead {
	r := s.slots[slot]
	if r == nil {
		r = &slotRead{}
		s.slots[slot] = r
		if len(s.slots) > settlementSlotsTracked {
			s.pruneLocked()
		}
	}
	return r
}

// pruneLocked forgets the oldest slots beyond the tracked window.
func (s *Settlements) pruneLocked() {
	keys := make([]uint64, 0, len(s.slots))
	for k := range s.slots {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys[:len(keys)-settlementSlotsTracked] {
		delete(s.slots, k)
	}
}

// Prune forgets slots before floor.
func (s *Settlements) Prune(floor uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.slots {
		if k < floor {
			delete(s.slots, k)
		}
	}
}

func (s *Settlements) fresh(at time.Time) bool {
	return !at.IsZero() && s.cfg.Refresh > 0 && s.now().Sub(at) < s.cfg.Refresh
}

// warn logs an L2 failure once per slot and counts every one.
func (s *Settlements) warn(slot uint64, what string, err error) {
	l2ErrorMeter.Mark(1)
	s.mu.Lock()
	if s.cfg.Refresh >= 0 {
		// Slots stepped by hand (Refresh < 0) read every time: a wall-clock
		// backoff would outlast many slots.
		s.downUntil = s.now().Add(l2Backoff)
	}
	r := s.slot(slot)
	first := !r.warned
	r.warned = true
	// No Auctioneer at the address yet is what a fresh dev node sees until
	// its first slots deploy the contracts: said once, not every slot.
	noCode := errors.Is(err, bind.ErrNoCode)
	noCodeFirst := noCode && !s.noCodeWarned
	s.noCodeWarned = s.noCodeWarned || noCode
	s.mu.Unlock()
	switch {
	case noCodeFirst:
		log.Warn("No auction contracts on the L2 at the configured address (yet): slots are served without beta until they are deployed", "slot", slot, "read", what, "err", err)
	case noCode:
		log.Debug("L2 settlement read failed: no auction contracts yet", "slot", slot, "read", what)
	case first:
		log.Warn("L2 settlement read failed: the slot is served without beta", "slot", slot, "read", what, "err", err)
	}
}

// Paid returns slot's paid settlement entries in settlement order, from
// the cache while fresh. When the L2 cannot be read it returns the last
// read, or the error if there is none.
func (s *Settlements) Paid(ctx context.Context, slot uint64) ([]miner.BetaEntry, error) {
	entries, _, err := s.read(ctx, slot, false)
	return entries, err
}

// Refresh reads slot's settlement from the L2 now and reports whether it
// differs from what the previous Refresh of slot read.
func (s *Settlements) Refresh(ctx context.Context, slot uint64) (changed bool, err error) {
	_, changed, err = s.read(ctx, slot, true)
	return changed, err
}

func (s *Settlements) read(ctx context.Context, slot uint64, force bool) ([]miner.BetaEntry, bool, error) {
	s.mu.Lock()
	r := s.slot(slot)
	if !force && s.fresh(r.readAt) {
		e := r.entries
		s.mu.Unlock()
		return e, false, nil
	}
	if s.now().Before(s.downUntil) {
		e, known := r.entries, !r.readAt.IsZero()
		s.mu.Unlock()
		if known {
			return e, false, nil
		}
		return nil, false, fmt.Errorf("reading the settlement of slot %d: %w", slot, ErrL2Down)
	}
	s.mu.Unlock()

	entries, err := s.fetch(ctx, slot)
	s.mu.Lock()
	defer s.mu.Unlock()
	r = s.slot(slot)
	if err != nil {
		if r.readAt.IsZero() {
			return nil, false, fmt.Errorf("reading the settlement of slot %d: %w", slot, err)
		}
		return r.entries, false, nil
	}
	changed := false
	if force {
		// Compared with the last Refresh, not with the cache, which other
		// reads (Paid, PaidNow) update too: a payment they saw first is
		// still a change for the poller.
		changed = !sameEntries(r.refreshed, entries)
		r.refreshed = entries
	}
	return entries, changed, nil
}

// fetch reads slot's settlement from the L2 and caches it.
func (s *Settlements) fetch(ctx context.Context, slot uint64) ([]miner.BetaEntry, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	start := time.Now()
	raw, err := s.l2.Bundles(ctx, slot)
	l2ReadTimer.UpdateSince(start)
	if err != nil {
		s.warn(slot, "queryBundles", err)
		return nil, err
	}
	entries := s.entries(slot, raw)
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.slot(slot)
	r.entries, r.readAt = entries, s.now()
	return entries, nil
}

// PaidNow is Paid for a decision that must not rest on an old read (a full
// beta store evicts only entries this says are unpaid): the cached read
// while it is younger than the refresh period (every call reads when
// Refresh is negative), else a read now, concurrent ones for a slot merged
// into one L2 call. When the L2 cannot be read, or the reader is backing
// off after a failure, it returns the error, never an older read.
func (s *Settlements) PaidNow(ctx context.Context, slot uint64) ([]miner.BetaEntry, error) {
	s.mu.Lock()
	r := s.slot(slot)
	if s.fresh(r.readAt) {
		e := r.entries
		s.mu.Unlock()
		return e, nil
	}
	if s.now().Before(s.downUntil) {
		s.mu.Unlock()
		return nil, fmt.Errorf("reading the settlement of slot %d: %w", slot, ErrL2Down)
	}
	s.mu.Unlock()
	v, err, _ := s.paidReads.Do(strconv.FormatUint(slot, 10), func() (any, error) {
		return s.fetch(ctx, slot)
	})
	if err != nil {
		return nil, fmt.Errorf("reading the settlement of slot %d: %w", slot, err)
	}
	return v.([]miner.BetaEntry), nil
}

// entries applies the bounds to a raw settlement: at most MaxEntries
// entries and MaxHashes hashes each; a gas amount beyond what any block
// holds is capped (it cannot buy more than the block's gas anyway).
func (s *Settlements) entries(slot uint64, raw []auction.Bundle) []miner.BetaEntry {
	if len(raw) > s.cfg.MaxEntries {
		l2Truncated.Mark(1)
		log.Warn("L2 settlement has too many entries; the rest are ignored", "slot", slot, "entries", len(raw), "max", s.cfg.MaxEntries)
		raw = raw[:s.cfg.MaxEntries]
	}
	out := make([]miner.BetaEntry, len(raw))
	for i, b := range raw {
		gas := uint64(math.MaxInt64)
		if b.AmountOfGas != nil && b.AmountOfGas.IsUint64() && b.AmountOfGas.Uint64() < gas {
			gas = b.AmountOfGas.Uint64()
		}
		if b.AmountOfGas == nil || b.AmountOfGas.Sign() <= 0 {
			gas = 0
		}
		hashes := b.BundleHashes
		if len(hashes) > s.cfg.MaxHashes {
			l2Truncated.Mark(1)
			log.Warn("L2 settlement entry has too many hashes; the rest are ignored", "slot", slot, "entry", i, "hashes", len(hashes), "max", s.cfg.MaxHashes)
			hashes = hashes[:s.cfg.MaxHashes]
		}
		out[i] = miner.BetaEntry{Gas: gas, Hashes: slices.Clone(hashes)}
	}
	return out
}

func sameEntries(a, b []miner.BetaEntry) bool {
	return slices.EqualFunc(a, b, func(x, y miner.BetaEntry) bool { return x.Gas == y.Gas && slices.Equal(x.Hashes, y.Hashes) })
}

// Gas returns the gas slot's auction sells for beta (0 when none was opened
// or the L2 cannot be read). A positive amount never changes once read.
func (s *Settlements) Gas(ctx context.Context, slot uint64) uint64 {
	s.mu.Lock()
	r := s.slot(slot)
	if r.gas > 0 || s.fresh(r.gasAt) || s.now().Before(s.downUntil) {
		g := r.gas
		s.mu.Unlock()
		return g
	}
	s.mu.Unlock()
	v, _, _ := s.gasReads.Do(strconv.FormatUint(slot, 10), func() (any, error) {
		return s.readGas(ctx, slot), nil
	})
	return v.(uint64)
}

// readGas asks the L2 for slot's items for sale and caches the answer.
func (s *Settlements) readGas(ctx context.Context, slot uint64) uint64 {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	items, err := s.l2.ItemsForSale(ctx, slot)
	if err != nil {
		s.warn(slot, "auctions", err)
		return 0
	}
	gas := uint64(0)
	if items != nil && items.Sign() > 0 {
		gas = uint64(math.MaxInt64)
		if items.IsUint64() && items.Uint64() < gas {
			gas = items.Uint64()
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.slot(slot)
	r.gas, r.gasAt = gas, s.now()
	return gas
}

// BoundedBackend wraps an L2 backend so that no contract read returns more
// than max bytes: a hostile L2 cannot make the ABI decoder build a huge
// settlement.
type BoundedBackend struct {
	auction.Backend
	Max int
}

// CallContract implements bind.ContractCaller with the size bound.
func (b BoundedBackend) CallContract(ctx context.Context, call ethereum.CallMsg, blockNumber *big.Int) ([]byte, error) {
	out, err := b.Backend.CallContract(ctx, call, blockNumber)
	if err == nil && len(out) > b.Max {
		return nil, fmt.Errorf("%w: %d bytes, at most %d", ErrL2Result, len(out), b.Max)
	}
	return out, err
}
