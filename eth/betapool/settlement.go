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
	DefaultMaxEntries     = 1024
	DefaultMaxHashes      = 256
	DefaultL2Timeout      = 500 * time.Millisecond
	DefaultRefresh        = time.Second
	DefaultMaxResultBytes = 4 << 20
	// DefaultLead and DefaultPaidLead are the operator's defaults
	// (contracts/operator): an auction opens 32 slots ahead and settles 8
	// slots before its slot, so no payment exists further ahead.
	DefaultLead            = 32
	DefaultPaidLead        = 8
	settlementSlotsTracked = 256
)

// ErrL2Result means the L2 answered a contract read with more data than the
// reader accepts.
var ErrL2Result = errors.New("L2 result too large")

// ErrNotRead means a slot's settlement has not been read from the L2 yet
// (the L2 did not answer since the slot came within the read window).
var ErrNotRead = errors.New("settlement not read from the L2 yet")

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
	// Refresh is how often the service reads the upcoming slots' state
	// from the L2 in the background (1 s); negative: never on its own, the
	// caller refreshes (slots stepped by hand: the dev driver before each
	// build).
	Refresh time.Duration `toml:",omitempty"`
	// Lead is how many slots ahead of the current one the gas for sale is
	// read (32, the operator's default lead: an auction further ahead is
	// not open yet). PaidLead is how many slots ahead the paid set is read
	// (8, the operator's default settle lead: nothing is paid before an
	// auction settles).
	Lead     uint64 `toml:",omitempty"`
	PaidLead uint64 `toml:",omitempty"`
}

// DefaultSettlementConfig is the reader's defaults.
var DefaultSettlementConfig = SettlementConfig{
	MaxEntries: DefaultMaxEntries, MaxHashes: DefaultMaxHashes, Timeout: DefaultL2Timeout, Refresh: DefaultRefresh,
	Lead: DefaultLead, PaidLead: DefaultPaidLead,
}

func (c SettlementConfig) withDefaults() SettlementConfig {
	defaults.Set(&c.MaxEntries, DefaultMaxEntries)
	defaults.Set(&c.MaxHashes, DefaultMaxHashes)
	defaults.Set(&c.Timeout, DefaultL2Timeout)
	defaults.Set(&c.Lead, DefaultLead)
	defaults.Set(&c.PaidLead, DefaultPaidLead)
	if c.Refresh == 0 {
		c.Refresh = DefaultRefresh
	}
	return c
}

// Settlements reads, per slot, the paid entries of SettlementHouse
// queryBundles and the gas the Auctioneer sells, from the L2, and keeps
// what it read per slot (State) with a generation that counts the changes
// of the paid set. Safe for concurrent use.
type Settlements struct {
	l2  L2
	cfg SettlementConfig
	now func() time.Time

	mu    sync.Mutex
	slots map[uint64]*slotRead
	// paidReads merges concurrent reads of one slot's settlement.
	paidReads singleflight.Group
	// downUntil: after a failed read the L2 is not asked again before
	// this, so a dead L2 costs one timeout per backoff, not one per read.
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
	entries []miner.BetaEntry
	readAt  time.Time // zero: never read successfully
	gen     uint64    // bumped by each read that finds a different paid set
	gas     uint64
	gasAt   time.Time // zero: never read successfully
	warned  bool
}

// SlotState is what the reader last read of a slot, from memory.
type SlotState struct {
	// Gas is the gas the slot's auction sells for beta (beta_gas); 0 when
	// no auction is open for it. GasKnown is false while it was never read.
	Gas      uint64
	GasKnown bool
	// Paid is the paid settlement, in settlement order. Generation counts
	// the reads that found it different from the read before (0: never
	// read); ReadAt is when it was last read.
	Paid       []miner.BetaEntry
	Generation uint64
	ReadAt     time.Time
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

// State returns what was last read of slot. It never reads the L2.
func (s *Settlements) State(slot uint64) SlotState {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.slots[slot]
	if r == nil {
		return SlotState{}
	}
	return SlotState{Gas: r.gas, GasKnown: !r.gasAt.IsZero(), Paid: r.entries, Generation: r.gen, ReadAt: r.readAt}
}

func (s *Settlements) fresh(at time.Time) bool {
	return !at.IsZero() && s.cfg.Refresh > 0 && s.now().Sub(at) < s.cfg.Refresh
}

// down reports whether the reader is backing off a failing L2.
func (s *Settlements) down() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now().Before(s.downUntil)
}

// warn logs an L2 failure once per slot and counts every one.
func (s *Settlements) warn(slot uint64, what string, err error) {
	l2ErrorMeter.Mark(1)
	s.mu.Lock()
	if s.cfg.Refresh >= 0 {
		// Slots stepped by hand (Refresh < 0) read at every step: a
		// wall-clock backoff would outlast many slots.
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

// Paid returns slot's paid settlement entries in settlement order: the last
// read while it is younger than the refresh period, else a read now (for
// answers to a client, mev_getBetaBundle, not for the relay's hot paths,
// which use State). When the L2 cannot be read it returns the last read, or
// the error if there is none.
func (s *Settlements) Paid(ctx context.Context, slot uint64) ([]miner.BetaEntry, error) {
	s.mu.Lock()
	r := s.slot(slot)
	e, at := r.entries, r.readAt
	s.mu.Unlock()
	if s.fresh(at) || (s.down() && !at.IsZero()) {
		return e, nil
	}
	entries, _, err := s.ReadPaid(ctx, slot)
	if err != nil {
		if !at.IsZero() {
			return e, nil
		}
		return nil, err
	}
	return entries, nil
}

// ReadPaid reads slot's settlement from the L2 now (concurrent reads of a
// slot merged into one call) and reports whether it differs from the read
// before, which bumps the slot's generation.
func (s *Settlements) ReadPaid(ctx context.Context, slot uint64) (entries []miner.BetaEntry, changed bool, err error) {
	if s.down() {
		return nil, false, fmt.Errorf("reading the settlement of slot %d: %w", slot, ErrL2Down)
	}
	type read struct {
		entries []miner.BetaEntry
		changed bool
	}
	v, err, _ := s.paidReads.Do(strconv.FormatUint(slot, 10), func() (any, error) {
		e, c, err := s.fetch(ctx, slot)
		return read{e, c}, err
	})
	if err != nil {
		return nil, false, fmt.Errorf("reading the settlement of slot %d: %w", slot, err)
	}
	rd := v.(read)
	return rd.entries, rd.changed, nil
}

// fetch reads slot's settlement from the L2 and keeps it.
func (s *Settlements) fetch(ctx context.Context, slot uint64) ([]miner.BetaEntry, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	start := time.Now()
	raw, err := s.l2.Bundles(ctx, slot)
	l2ReadTimer.UpdateSince(start)
	if err != nil {
		s.warn(slot, "queryBundles", err)
		return nil, false, err
	}
	entries := s.entries(slot, raw)
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.slot(slot)
	changed := r.readAt.IsZero() || !sameEntries(r.entries, entries)
	if changed {
		r.gen++
	}
	r.entries, r.readAt = entries, s.now()
	return entries, changed, nil
}

// PaidNow is Paid for a decision that must not rest on an old read (a full
// beta store evicts only entries this says are unpaid): the last read while
// it is younger than the refresh period (every call reads when Refresh is
// negative), else a read now, concurrent ones for a slot merged into one L2
// call. When the L2 cannot be read, or the reader is backing off after a
// failure, it returns the error, never an older read.
func (s *Settlements) PaidNow(ctx context.Context, slot uint64) ([]miner.BetaEntry, error) {
	s.mu.Lock()
	r := s.slot(slot)
	e, at := r.entries, r.readAt
	s.mu.Unlock()
	if s.fresh(at) {
		return e, nil
	}
	entries, _, err := s.ReadPaid(ctx, slot)
	return entries, err
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
		out[i] = miner.BetaEntry{Gas: gas, Hashes: slices.Clone(hashes), L2Block: b.L2Block}
	}
	return out
}

func sameEntries(a, b []miner.BetaEntry) bool {
	return slices.EqualFunc(a, b, func(x, y miner.BetaEntry) bool { return x.Gas == y.Gas && slices.Equal(x.Hashes, y.Hashes) })
}

// ReadGas reads the gas slot's auction sells from the L2 and keeps it,
// unless an amount above 0 was read before: it never changes once the
// auction is open. It reports the amount known after the read.
func (s *Settlements) ReadGas(ctx context.Context, slot uint64) (uint64, error) {
	s.mu.Lock()
	r := s.slot(slot)
	if r.gas > 0 {
		g := r.gas
		s.mu.Unlock()
		return g, nil
	}
	down := s.now().Before(s.downUntil)
	s.mu.Unlock()
	if down {
		return 0, fmt.Errorf("reading the gas for sale of slot %d: %w", slot, ErrL2Down)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	items, err := s.l2.ItemsForSale(ctx, slot)
	if err != nil {
		s.warn(slot, "auctions", err)
		return 0, fmt.Errorf("reading the gas for sale of slot %d: %w", slot, err)
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
	r = s.slot(slot)
	r.gas, r.gasAt = gas, s.now()
	return gas, nil
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
