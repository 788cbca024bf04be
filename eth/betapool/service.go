package betapool

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/log"
	"golang.org/x/sync/errgroup"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/miner"
)

// ServiceConfig is what the beta service is built from.
type ServiceConfig struct {
	// Pool bounds the beta bundles; Settlement bounds and paces the L2
	// reads.
	Pool       Config
	Settlement SettlementConfig
	// Store holds the beta bundles and their outcomes.
	Store store.BetaBundles
	// ChainID is the L1 chain id beta txs are signed for.
	ChainID uint64
	// CurrentSlot is the node's slot clock.
	CurrentSlot func() uint64
	// Stats counts bundles and outcomes per signer (nil: not counted).
	Stats StatsCounter
	// Chain merges beta blocks on verified alphas (nil: no merges). Gas
	// and Accounts turn on the pool's gas and funds checks (nil: bundles
	// are admitted on their form).
	Chain    *chain.Chain
	Gas      GasRules
	Accounts bundle.Accounts
	// L2 is the auction's chain (nil: no L2: bundles are kept, nothing is
	// merged, beta_gas is 0).
	L2 L2
	// Changed is told, in slot order, of each slot whose paid set a
	// background read found changed: the relay merges its top bids again.
	Changed func(ctx context.Context, slot uint64)
}

// Service is the beta block's one owner: the beta-bundle pool, the L2
// settlement reader with each upcoming slot's state (gas for sale, the
// paid set and its generation), the background reads that keep that state
// fresh, and the merge of the paid bundles onto a verified alpha. The relay
// and the builder read its state from memory: no request waits on the L2.
// It is a node.Lifecycle: Start starts the background reads, Stop ends
// them and waits for the pool's background pruning.
type Service struct {
	chain   *chain.Chain
	pool    *Pool
	paid    *Settlements // nil: no L2
	cfg     SettlementConfig
	slot    func() uint64
	changed func(ctx context.Context, slot uint64)

	stop context.CancelFunc
	done chan struct{}
	// refreshing: one Refresh at a time (the poller and the dev driver's
	// may meet), so that changes are announced in order.
	refreshing sync.Mutex
	// announced is, per slot, the paid-set generation Changed was last told
	// of (guarded by refreshing). A read made elsewhere (mev_getBetaBundle,
	// a full store's eviction check) may see a payment first: the
	// generation, not the read that saw it, says what Changed was told.
	announced map[uint64]uint64
}

// NewService builds the beta service from cfg.
func NewService(cfg ServiceConfig) (*Service, error) {
	if cfg.Store == nil || cfg.CurrentSlot == nil {
		return nil, errors.New("beta service needs a store and a slot clock")
	}
	s := &Service{chain: cfg.Chain, cfg: cfg.Settlement.withDefaults(), slot: cfg.CurrentSlot, changed: cfg.Changed,
		announced: make(map[uint64]uint64)}
	if cfg.L2 != nil {
		s.paid = NewSettlements(cfg.L2, cfg.Settlement)
	}
	s.pool = newPool(cfg.Pool, cfg.Store, cfg.ChainID, cfg.CurrentSlot, cfg.Stats, s.paid)
	if cfg.Gas != nil {
		s.pool.SetGasRules(cfg.Gas)
	}
	if cfg.Accounts != nil {
		s.pool.SetAccounts(cfg.Accounts)
	}
	return s, nil
}

// Pool is the beta-bundle pool (mev_sendBetaBundle, mev_getBetaBundle).
func (s *Service) Pool() *Pool { return s.pool }

// HasL2 reports whether the service reads an L2: without one nothing is
// merged and the relay serves alpha alone.
func (s *Service) HasL2() bool { return s.paid != nil }

// State is what the service last read of slot, from memory.
func (s *Service) State(slot uint64) SlotState {
	if s.paid == nil {
		return SlotState{GasKnown: true}
	}
	return s.paid.State(slot)
}

// Paid is slot's paid settlement, in settlement order: the last read while
// it is fresh, else a read of the L2 now. It is for background readers and
// client answers (the status page), never the relay's request paths, which
// read State. Without an L2 nothing is paid.
func (s *Service) Paid(ctx context.Context, slot uint64) ([]miner.BetaEntry, error) {
	if s.paid == nil {
		return nil, nil
	}
	return s.paid.Paid(ctx, slot)
}

// Gas is the gas slot's auction sells for beta (the validators endpoint's
// beta_gas) as last read; known is false while it was never read.
func (s *Service) Gas(slot uint64) (gas uint64, known bool) {
	st := s.State(slot)
	return st.Gas, st.GasKnown
}

// refreshReaders bounds the L2 reads of one Refresh running at once.
const refreshReaders = 4

// Refresh reads from the L2 the state of the slots from on: the gas for
// sale of the slots up to Lead ahead whose auction was not seen open, and
// the paid set of the slots up to PaidLead ahead. It then tells Changed,
// in slot order, of each slot whose paid set changed, and forgets slots
// more than 64 before from. The background reads call it every Refresh
// period with the current slot; with slots stepped by hand the dev driver
// calls it before each build.
func (s *Service) Refresh(ctx context.Context, from uint64) {
	if s.paid == nil {
		return
	}
	s.refreshing.Lock()
	defer s.refreshing.Unlock()
	var g errgroup.Group
	g.SetLimit(refreshReaders)
	for slot := from; slot <= from+s.cfg.Lead; slot++ {
		if s.paid.State(slot).Gas > 0 {
			continue // never changes once open
		}
		g.Go(func() error {
			s.paid.ReadGas(ctx, slot) // a failure is logged; the state stays as it was
			return nil
		})
	}
	for slot := from; slot <= from+s.cfg.PaidLead; slot++ {
		g.Go(func() error {
			s.paid.ReadPaid(ctx, slot) // a failure is logged; the state stays as it was
			return nil
		})
	}
	g.Wait()
	var changed []uint64
	for slot := from; slot <= from+s.cfg.PaidLead; slot++ {
		if gen := s.paid.State(slot).Generation; gen != s.announced[slot] {
			s.announced[slot] = gen
			changed = append(changed, slot)
		}
	}
	if from > 64 {
		s.paid.Prune(from - 64)
		for slot := range s.announced {
			if slot < from-64 {
				delete(s.announced, slot)
			}
		}
	}
	if s.changed == nil {
		return
	}
	for _, slot := range changed {
		if ctx.Err() != nil {
			return
		}
		s.changed(ctx, slot)
	}
}

// Start implements node.Lifecycle: it starts the background reads, every
// Refresh period, unless slots are stepped by hand (Refresh negative) or
// there is no L2.
func (s *Service) Start() error {
	if s.paid == nil || s.cfg.Refresh < 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stop, s.done = cancel, make(chan struct{})
	log.Info("Beta block on", "refresh", s.cfg.Refresh, "lead", s.cfg.Lead, "paidLead", s.cfg.PaidLead)
	go func() {
		defer close(s.done)
		t := time.NewTicker(s.cfg.Refresh)
		defer t.Stop()
		for {
			s.Refresh(ctx, s.slot())
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return nil
}

// Stop implements node.Lifecycle: it ends the background reads and waits
// for them and for the pool's background pruning, so that nothing of the
// service writes to the store once it returns.
func (s *Service) Stop() error {
	if s.stop != nil {
		s.stop()
		<-s.done
	}
	s.pool.Close()
	return nil
}
