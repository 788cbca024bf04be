// Package relaystatus is what the relay's status page shows: a Snapshot of
// the relay (identity, head, recent deliveries, builders' bids and wins, the
// beta market), built in the background by a Collector from memory and
// cheap reads, so that a page view reads one pointer and never waits on
// the database or the L2.
package relaystatus

import (
	"context"
	"math/big"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

// Defaults of the collector.
const (
	// DefaultEvery is how often the snapshot is rebuilt: a page is at most
	// this old.
	DefaultEvery = time.Second
	// DefaultBuilderSlots is the window of the builders' table: bids and
	// wins over the last this many slots.
	DefaultBuilderSlots = 64
	// RecentDeliveries is how many delivered payloads the table lists.
	RecentDeliveries = 16
	// PlotSlots is the window of the plot: value and beta gas per slot.
	PlotSlots = 64
	// readTimeout bounds one refresh's reads.
	readTimeout = 2 * time.Second
	// betaEvery is how often the beta market is read while the head stays
	// put: its reads go to the L2, a dozen calls each.
	betaEvery = 4 * time.Second
)

// Snapshot is the page's content at one moment. It is never changed once
// published: readers share it.
type Snapshot struct {
	Taken      time.Time // when it was built
	Relay      Info
	Deliveries []Delivery // newest first, at most RecentDeliveries
	// Builders are the builders that bid or won over the last BuilderSlots
	// slots, most wins first, then most bids.
	Builders     []Builder
	BuilderSlots uint64
	Beta         Market
	// Plot has one point per slot of the last PlotSlots slots up to the
	// head, oldest first.
	Plot []SlotPoint
}

// Info is the relay's identity and state.
type Info struct {
	Network  string // the beacon network's name ("dev", "mainnet", ...)
	Pubkey   string // the relay's BLS public key, 0x hex; empty until ready
	Version  string
	HeadSlot uint64
	// Waiting is why the relay is not serving yet (empty when it is).
	Waiting string
	// BetaOn reports whether the relay appends paid beta bundles; L2 names
	// the second layer whose auction it reads.
	BetaOn bool
	L2     string
}

// Delivery is one payload the relay delivered to a proposer.
type Delivery struct {
	Slot        uint64
	BlockNumber uint64
	BlockHash   string
	ValueWei    *big.Int
	Builder     string
	Txs         uint64
	BetaGas     uint64
	BetaBundles uint64
}

// Builder is one builder's activity over the builders' window.
type Builder struct {
	Pubkey string
	Bids   uint64 // verified submissions this instance received
	Wins   uint64 // delivered payloads built by it
}

// Market is the beta market as the page shows it.
type Market struct {
	Upcoming []UpcomingSlot // ascending by slot
	Settled  []SettledSlot  // newest first
}

// UpcomingSlot is a slot ahead of the head and its L2 auction.
type UpcomingSlot struct {
	Slot       uint64
	GasForSale uint64 // 0: no auction opened
	State      string // AuctionNone, AuctionOpen, AuctionSettled, ...
	Bids       uint64 // bids placed on the L2 so far
}

// SettledSlot is a slot at or behind the head whose auction settled.
type SettledSlot struct {
	Slot          uint64
	ClearingPrice *big.Int // wei per gas
	GasSold       uint64
	Paid          int // bundle hashes paid for on the L2
	Included      int // paid bundles with txs in the delivered block
	Missed        int // paid bundles left out of it
	State         string
}

// Auction states as the page names them.
const (
	AuctionNone     = "not opened"
	AuctionOpen     = "open"
	AuctionSettled  = "settled"
	AuctionPaidOut  = "paid out"
	AuctionRefunded = "refunded"
)

// SlotPoint is one slot of the plot.
type SlotPoint struct {
	Slot      uint64
	Delivered bool
	ValueWei  *big.Int
	BetaGas   uint64
}

// Relay is what the page reads of the relay (eth/relay.Relay has it).
type Relay interface {
	HeadSlot() uint64
	Pubkey() beacon.BLSPubkey
	BeaconConfig() *params.BeaconConfig
}

// Deliveries reads the delivered payloads (store.Relay has it).
type Deliveries interface {
	DeliveredPayloads(ctx context.Context, q store.DeliveredQuery) ([]store.DeliveredPayload, error)
}

// Beta is the beta market as the page needs it. Refresh runs in the
// collector's background loop and may read the L2 and the database; Market
// only returns what the last Refresh found.
type Beta interface {
	Refresh(ctx context.Context, head uint64) error
	Market() Market
}

// Config configures a Collector.
type Config struct {
	// Relay returns the relay, or nil with the reason while it is not ready
	// (a real network's relay waits for the beacon node).
	Relay func() (Relay, string)
	// Deliveries is read once per refresh (newest RecentDeliveries and
	// the plot's window).
	Deliveries Deliveries
	// Bids counts the builders' submissions as they are recorded.
	Bids *BidCounter
	// Beta is the beta market; nil when beta is off.
	Beta Beta
	// L2 names the beta market's second layer.
	L2 string
	// Every is the refresh period (DefaultEvery); BuilderSlots the
	// builders' window (DefaultBuilderSlots).
	Every        time.Duration
	BuilderSlots uint64
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Collector rebuilds the Snapshot in the background. Safe for concurrent
// use.
type Collector struct {
	cfg  Config
	snap atomic.Pointer[Snapshot]

	refreshMu sync.Mutex // one refresh at a time
	betaHead  uint64     // the head and time of the last beta read (under refreshMu)
	betaAt    time.Time
	stop      context.CancelFunc
	done      chan struct{}
}

// NewCollector returns a collector whose snapshot is empty until its first
// refresh (Start refreshes at once).
func NewCollector(cfg Config) *Collector {
	if cfg.Every <= 0 {
		cfg.Every = DefaultEvery
	}
	if cfg.BuilderSlots == 0 {
		cfg.BuilderSlots = DefaultBuilderSlots
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	c := &Collector{cfg: cfg}
	c.snap.Store(&Snapshot{Taken: cfg.Now(), Relay: Info{Version: params.Version, Waiting: "starting", BetaOn: cfg.Beta != nil, L2: cfg.L2}, BuilderSlots: cfg.BuilderSlots})
	return c
}

// Snapshot returns the latest snapshot; never nil.
func (c *Collector) Snapshot() *Snapshot { return c.snap.Load() }

// Start implements node.Lifecycle: it refreshes every period until Stop.
func (c *Collector) Start() error {
	ctx, cancel := context.WithCancel(context.Background())
	c.stop, c.done = cancel, make(chan struct{})
	go func() {
		defer close(c.done)
		t := time.NewTicker(c.cfg.Every)
		defer t.Stop()
		for {
			c.refresh(ctx, false)
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return nil
}

// Stop implements node.Lifecycle.
func (c *Collector) Stop() error {
	if c.stop != nil {
		c.stop()
		<-c.done
	}
	return nil
}

// Refresh builds a new snapshot now, reading everything again. A failed
// read keeps that part of the previous snapshot: the page shows slightly
// old figures rather than none.
func (c *Collector) Refresh(ctx context.Context) { c.refresh(ctx, true) }

// refresh builds a new snapshot; unless all, the beta market is read only
// when the head moved or betaEvery passed.
func (c *Collector) refresh(ctx context.Context, all bool) {
	c.refreshMu.Lock()
	defer c.refreshMu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	prev := c.snap.Load()
	s := &Snapshot{Taken: c.cfg.Now(), BuilderSlots: c.cfg.BuilderSlots,
		Relay: Info{Version: params.Version, BetaOn: c.cfg.Beta != nil, L2: c.cfg.L2}}
	r, waiting := c.cfg.Relay()
	if r == nil {
		s.Relay.Waiting = waiting
		c.snap.Store(s)
		return
	}
	// The relay's head follows the beacon chain; a payload it just
	// delivered may be for a slot the head has not reached yet.
	head := r.HeadSlot()
	s.Relay.Network, s.Relay.Pubkey = r.BeaconConfig().Name, r.Pubkey().String()
	window := max(c.cfg.BuilderSlots, PlotSlots)
	rows, err := c.cfg.Deliveries.DeliveredPayloads(ctx, store.DeliveredQuery{Limit: window})
	if len(rows) > 0 {
		head = max(head, rows[0].Slot)
	}
	s.Relay.HeadSlot = head
	if err != nil {
		log.Debug("Status page kept its previous deliveries", "err", err)
		s.Deliveries, s.Plot, s.Builders = prev.Deliveries, prev.Plot, prev.Builders
	} else {
		var delivered []store.DeliveredPayload
		for _, d := range rows {
			if head < window || d.Slot > head-window {
				delivered = append(delivered, d)
			}
		}
		s.Deliveries = deliveries(delivered)
		s.Plot = plot(delivered, head)
		s.Builders = builders(c.cfg.Bids, delivered, head, c.cfg.BuilderSlots)
	}
	if c.cfg.Beta != nil {
		if now := c.cfg.Now(); all || head != c.betaHead || now.Sub(c.betaAt) >= betaEvery {
			if err := c.cfg.Beta.Refresh(ctx, head); err != nil {
				log.Debug("Status page: beta market read failed", "err", err)
			}
			c.betaHead, c.betaAt = head, now
		}
		s.Beta = c.cfg.Beta.Market()
	}
	c.snap.Store(s)
}

func deliveries(rows []store.DeliveredPayload) []Delivery {
	out := make([]Delivery, 0, min(len(rows), RecentDeliveries))
	for _, d := range rows[:min(len(rows), RecentDeliveries)] {
		out = append(out, Delivery{
			Slot: d.Slot, BlockNumber: d.BlockNumber, BlockHash: d.BlockHash.String(), ValueWei: d.Value.Big(),
			Builder: d.BuilderPubkey.String(), Txs: d.NumTx, BetaGas: d.BetaGasUsed, BetaBundles: d.BetaBundleCount,
		})
	}
	return out
}

// plot lays the deliveries on the last PlotSlots slots up to head.
func plot(rows []store.DeliveredPayload, head uint64) []SlotPoint {
	from := uint64(0)
	if head >= PlotSlots {
		from = head - PlotSlots + 1
	}
	pts := make([]SlotPoint, 0, head-from+1)
	for s := from; s <= head; s++ {
		pts = append(pts, SlotPoint{Slot: s})
	}
	for _, d := range rows {
		if d.Slot >= from && d.Slot <= head {
			p := &pts[d.Slot-from]
			p.Delivered, p.ValueWei, p.BetaGas = true, d.Value.Big(), d.BetaGasUsed
		}
	}
	return pts
}

// builders joins the bids counted over the window with the wins among the
// deliveries.
func builders(bids *BidCounter, rows []store.DeliveredPayload, head, window uint64) []Builder {
	from := uint64(0)
	if head >= window {
		from = head - window + 1
	}
	by := make(map[beacon.BLSPubkey]*Builder)
	get := func(pk beacon.BLSPubkey) *Builder {
		b := by[pk]
		if b == nil {
			b = &Builder{Pubkey: pk.String()}
			by[pk] = b
		}
		return b
	}
	if bids != nil {
		for pk, n := range bids.Since(from) {
			get(pk).Bids = n
		}
	}
	for _, d := range rows {
		if d.Slot >= from {
			get(d.BuilderPubkey).Wins++
		}
	}
	out := make([]Builder, 0, len(by))
	for _, b := range by {
		out = append(out, *b)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Wins != out[j].Wins {
			return out[i].Wins > out[j].Wins
		}
		if out[i].Bids != out[j].Bids {
			return out[i].Bids > out[j].Bids
		}
		return out[i].Pubkey < out[j].Pubkey
	})
	return slices.Clip(out)
}
