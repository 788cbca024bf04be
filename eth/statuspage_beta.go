package eth

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/eth/relaystatus"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/miner"
)

// This file is the status page's one adapter over the beta market: what it
// reads of the L2 auction, the settlement reader and the beta store. It
// runs only in the page's background refresh (relaystatus.Beta.Refresh);
// a page view reads the market this cached.

// Windows of the page's beta market.
const (
	pageUpcomingSlots = 6  // slots ahead of the head listed
	pageSettledSlots  = 8  // settled slots listed
	pageSettledScan   = 32 // slots behind the head searched for them
)

// auctionReader reads one slot's auction on the L2 (auction.Client).
type auctionReader interface {
	Auction(ctx context.Context, slot uint64) (auction.AuctionState, error)
}

// pageBeta implements relaystatus.Beta.
type pageBeta struct {
	auctions    func(context.Context) (auctionReader, error)
	settlements interface {
		Paid(ctx context.Context, slot uint64) ([]miner.BetaEntry, error)
	}
	db interface {
		BetaBundle(ctx context.Context, hash common.Hash) (*store.BetaBundle, error)
	}

	mu     sync.Mutex
	market relaystatus.Market
	// final holds the slots behind the head that will not change: paid
	// out or refunded with their outcomes recorded, or (nil) never
	// settled. They are not read again.
	final map[uint64]*relaystatus.SettledSlot
}

// newPageBeta returns the page's beta market over the node's beta source,
// or nil when beta is off.
func newPageBeta(n *Node, cfg BetaConfig, beta *betapool.Service) *pageBeta {
	if beta == nil || !beta.HasL2() {
		return nil
	}
	b := &pageBeta{settlements: beta, db: n.store, final: make(map[uint64]*relaystatus.SettledSlot)}
	if cfg.L2RPC == "" {
		var once sync.Once
		var c *auction.Client
		b.auctions = func(context.Context) (auctionReader, error) {
			once.Do(func() { c = auction.NewClient(ethclient.NewClient(n.stack.Attach()), devAuctionAddresses(n), nil) })
			return c, nil
		}
		return b
	}
	addrs, _ := betaAddresses(cfg) // checked by newBeta
	var mu sync.Mutex
	var c *auction.Client
	b.auctions = func(ctx context.Context) (auctionReader, error) {
		mu.Lock()
		defer mu.Unlock()
		if c != nil {
			return c, nil
		}
		a := devAuctionAddresses(n)
		if addrs != nil {
			a = *addrs
		}
		rc, err := rpc.DialContext(ctx, cfg.L2RPC)
		if err != nil {
			return nil, fmt.Errorf("dialling the L2 at %s: %w", cfg.L2RPC, err)
		}
		c = auction.NewClient(betapool.BoundedBackend{Backend: ethclient.NewClient(rc), Max: betapool.DefaultMaxResultBytes}, a, nil)
		return c, nil
	}
	return b
}

// l2Name names the L2 the page's beta market reads.
func l2Name(cfg BetaConfig) string {
	switch {
	case cfg.L2RPC == "":
		return "the dev chain itself"
	case cfg.Network != "":
		return cfg.Network + " (" + cfg.L2RPC + ")"
	default:
		return cfg.L2RPC
	}
}

// Market implements relaystatus.Beta.
func (b *pageBeta) Market() relaystatus.Market {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.market
}

// Refresh implements relaystatus.Beta: the upcoming auctions and the
// recent slots that may still change.
func (b *pageBeta) Refresh(ctx context.Context, head uint64) error {
	l2, err := b.auctions(ctx)
	if err != nil {
		return err
	}
	var upcoming []relaystatus.UpcomingSlot
	for s := head + 1; s <= head+pageUpcomingSlots; s++ {
		a, err := l2.Auction(ctx, s)
		if err != nil {
			return err
		}
		upcoming = append(upcoming, relaystatus.UpcomingSlot{Slot: s, GasForSale: u64(a.ItemsForSale), State: auctionState(a), Bids: u64(a.Bids)})
	}
	settled, err := b.settled(ctx, l2, head)
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.market = relaystatus.Market{Upcoming: upcoming, Settled: settled}
	for s := range b.final {
		if head > pageSettledScan && s < head-pageSettledScan {
			delete(b.final, s)
		}
	}
	return nil
}

// settled reads the settled auctions among the slots up to head, newest
// first.
func (b *pageBeta) settled(ctx context.Context, l2 auctionReader, head uint64) ([]relaystatus.SettledSlot, error) {
	out := []relaystatus.SettledSlot{}
	for i := uint64(0); i < pageSettledScan && i <= head && len(out) < pageSettledSlots; i++ {
		s := head - i
		b.mu.Lock()
		f, ok := b.final[s]
		b.mu.Unlock()
		if ok {
			if f != nil {
				out = append(out, *f)
			}
			continue
		}
		a, err := l2.Auction(ctx, s)
		if err != nil {
			return nil, err
		}
		if !a.IsSettled {
			if s+1 < head { // its slot has passed: it will not settle now
				b.mu.Lock()
				b.final[s] = nil
				b.mu.Unlock()
			}
			continue
		}
		row := relaystatus.SettledSlot{Slot: s, ClearingPrice: a.ClearingPrice, GasSold: u64(a.ItemsSold), State: auctionState(a)}
		entries, err := b.settlements.Paid(ctx, s)
		if err != nil {
			return nil, err
		}
		var paid []common.Hash
		for _, e := range entries {
			paid = append(paid, e.Hashes...)
		}
		row.Paid = len(paid)
		recorded, err := b.outcomes(ctx, s, paid, &row)
		if err != nil {
			return nil, err
		}
		if (a.IsPaidOut || a.IsRefunded) && recorded {
			b.mu.Lock()
			b.final[s] = &row
			b.mu.Unlock()
		}
		out = append(out, row)
	}
	return out, nil
}

// outcomes counts the slot's paid bundles included and missed, and reports
// whether any outcome is recorded (the slot's block was delivered). A paid
// hash never sent to this node has no outcome here.
func (b *pageBeta) outcomes(ctx context.Context, slot uint64, paid []common.Hash, row *relaystatus.SettledSlot) (bool, error) {
	recorded := false
	for _, h := range paid {
		bb, err := b.db.BetaBundle(ctx, h)
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			return false, err
		}
		for _, s := range bb.Slots {
			if s.Slot != slot || s.Outcome == nil {
				continue
			}
			recorded = true
			switch s.Outcome.State {
			case store.BetaIncluded:
				row.Included++
			case store.BetaMissed:
				row.Missed++
			}
		}
	}
	return recorded, nil
}

func auctionState(a auction.AuctionState) string {
	switch {
	case a.IsRefunded:
		return relaystatus.AuctionRefunded
	case a.IsPaidOut:
		return relaystatus.AuctionPaidOut
	case a.IsSettled:
		return relaystatus.AuctionSettled
	case a.IsOpen:
		return relaystatus.AuctionOpen
	default:
		return relaystatus.AuctionNone
	}
}

func u64(v *big.Int) uint64 {
	if v == nil || v.Sign() < 0 || !v.IsUint64() {
		return 0
	}
	return v.Uint64()
}
