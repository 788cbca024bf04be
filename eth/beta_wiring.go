package eth

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/deploy"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/params"
)

// BetaConfig is the [Mev.Beta] section: the second-layer auction whose paid
// bundles the relay appends to its blocks.
type BetaConfig struct {
	// L2RPC is the L2's JSON-RPC URL, HTTP or WS (--beta.l2rpc). Empty: in
	// --dev the dev chain is its own L2, read in process; elsewhere no beta.
	L2RPC string `toml:",omitempty"`
	// Network is a preset of contract addresses (--beta.network main|test).
	Network string `toml:",omitempty"`
	// Auctioneer and SettlementHouse override the preset's addresses
	// (--beta.auctioneer, --beta.settlementhouse).
	Auctioneer      string `toml:",omitempty"`
	SettlementHouse string `toml:",omitempty"`
	// Disabled turns the beta block off (--beta.disable).
	Disabled bool `toml:",omitempty"`
	// Settlement bounds and paces the L2 reads.
	Settlement betapool.SettlementConfig
}

// betaAddresses resolves the contracts to read: flags over the preset; nil
// when neither names them.
func betaAddresses(cfg BetaConfig) (*auction.Addresses, error) {
	var a auction.Addresses
	if cfg.Network != "" {
		n, err := params.BetaNetworkByName(cfg.Network)
		if err != nil {
			return nil, err
		}
		a.Auctioneer, a.SettlementHouse = n.Auctioneer, n.SettlementHouse
	}
	for _, f := range []struct {
		val  string
		dst  *common.Address
		flag string
	}{{cfg.Auctioneer, &a.Auctioneer, "--beta.auctioneer"}, {cfg.SettlementHouse, &a.SettlementHouse, "--beta.settlementhouse"}} {
		if f.val == "" {
			continue
		}
		if !common.IsHexAddress(f.val) {
			return nil, fmt.Errorf("%s %q: expected a 0x-prefixed 20-byte address", f.flag, f.val)
		}
		*f.dst = common.HexToAddress(f.val)
	}
	if a.Auctioneer == (common.Address{}) && a.SettlementHouse == (common.Address{}) {
		return nil, nil
	}
	if a.Auctioneer == (common.Address{}) || a.SettlementHouse == (common.Address{}) {
		return nil, errors.New("beta: both --beta.auctioneer and --beta.settlementhouse are needed (or --beta.network)")
	}
	return &a, nil
}

// newBeta builds the beta-block source for the relay, or nil when beta is
// off: no L2 configured outside --dev, or --beta.disable.
func newBeta(n *Node, gcfg Config) (*betapool.BetaBlocks, error) {
	cfg := gcfg.Beta
	if cfg.Disabled || n.submission == nil {
		return nil, nil
	}
	addrs, err := betaAddresses(cfg)
	if err != nil {
		return nil, err
	}
	var l2 betapool.L2
	switch {
	case cfg.L2RPC != "":
		if addrs == nil {
			if n.beacon == nil {
				return nil, errors.New("beta: --beta.l2rpc needs --beta.network or --beta.auctioneer and --beta.settlementhouse")
			}
			def := devAuctionAddresses(n)
			addrs = &def
		}
		l2 = &dialedL2{url: cfg.L2RPC, addrs: *addrs, max: betapool.DefaultMaxResultBytes}
	case n.beacon != nil:
		// --dev: the dev chain is its own L2, read in process. The dev
		// deployment's addresses are resolved at the first read.
		l2 = &localL2{n: n, addrs: addrs}
	default:
		if addrs != nil {
			return nil, errors.New("beta: --beta.network or contract addresses need --beta.l2rpc (the L2's JSON-RPC URL)")
		}
		return nil, nil
	}
	scfg := cfg.Settlement
	if n.beacon != nil && gcfg.Dev.Manual {
		scfg.Refresh = -1 // slots are stepped by hand: read at every merge
	}
	return betapool.NewBetaBlocks(n.chain, n.submission.beta, betapool.NewSettlements(l2, scfg)), nil
}

// devAuctionAddresses is the dev chain's auction deployment.
func devAuctionAddresses(n *Node) auction.Addresses {
	if n.auction != nil {
		return n.auction.Addresses()
	}
	return deploy.Addresses(params.DevOwnerKey().Address, 0) // devauction's default deployer

}

// localL2 reads the dev chain's own auction contracts in process.
type localL2 struct {
	n     *Node
	addrs *auction.Addresses

	once sync.Once
	c    *auction.Client
}

func (l *localL2) client() *auction.Client {
	l.once.Do(func() {
		a := devAuctionAddresses(l.n)
		if l.addrs != nil {
			a = *l.addrs
		}
		l.c = auction.NewClient(ethclient.NewClient(l.n.stack.Attach()), a, nil)
	})
	return l.c
}

// Bundles implements betapool.L2.
func (l *localL2) Bundles(ctx context.Context, slot uint64) ([]auction.Bundle, error) {
	return l.client().Bundles(ctx, slot)
}

// ItemsForSale implements betapool.L2.
func (l *localL2) ItemsForSale(ctx context.Context, slot uint64) (*big.Int, error) {
	return l.client().ItemsForSale(ctx, slot)
}

// dialedL2 reads the contracts of an L2 reached over JSON-RPC (HTTP or
// WS), dialling on first use and again after a failed dial, so an L2 that
// is down at start-up only costs the beta part until it is back.
type dialedL2 struct {
	url   string
	addrs auction.Addresses
	max   int

	mu sync.Mutex
	c  *auction.Client
}

func (l *dialedL2) client(ctx context.Context) (*auction.Client, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.c != nil {
		return l.c, nil
	}
	rc, err := rpc.DialContext(ctx, l.url)
	if err != nil {
		return nil, fmt.Errorf("dialling the L2 at %s: %w", l.url, err)
	}
	l.c = auction.NewClient(betapool.BoundedBackend{Backend: ethclient.NewClient(rc), Max: l.max}, l.addrs, nil)
	return l.c, nil
}

// Bundles implements betapool.L2.
func (l *dialedL2) Bundles(ctx context.Context, slot uint64) ([]auction.Bundle, error) {
	c, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return c.Bundles(ctx, slot)
}

// ItemsForSale implements betapool.L2.
func (l *dialedL2) ItemsForSale(ctx context.Context, slot uint64) (*big.Int, error) {
	c, err := l.client(ctx)
	if err != nil {
		return nil, err
	}
	return c.ItemsForSale(ctx, slot)
}

// betaPoller is a node.Lifecycle that re-reads the next slot's settlement
// until the slot starts and re-merges its top bids when the paid set
// changed: the beta block follows payments made after the best alpha
// arrived.
type betaPoller struct {
	beta  *betapool.BetaBlocks
	relay func() *relay.Relay // nil until a real network's relay has its constants
	every time.Duration

	stop context.CancelFunc
	done chan struct{}
}

// Start implements node.Lifecycle.
func (p *betaPoller) Start() error {
	ctx, cancel := context.WithCancel(context.Background())
	p.stop, p.done = cancel, make(chan struct{})
	go func() {
		defer close(p.done)
		t := time.NewTicker(p.every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			r := p.relay()
			if r == nil {
				continue
			}
			head := r.HeadSlot()
			next := head + 1
			changed, err := p.beta.Settlements().Refresh(ctx, next)
			if err == nil && changed {
				r.RemergeSlot(ctx, next)
			}
			if head > 64 {
				p.beta.Settlements().Prune(head - 64)
			}
		}
	}()
	return nil
}

// Stop implements node.Lifecycle.
func (p *betaPoller) Stop() error {
	if p.stop != nil {
		p.stop()
		<-p.done
	}
	return nil
}

// newBetaPoller returns the poller, or nil when reads are not cached
// (slots stepped by hand: every merge reads the L2) or there is no beta.
func newBetaPoller(beta *betapool.BetaBlocks, r func() *relay.Relay, cfg Config) *betaPoller {
	every := cfg.Beta.Settlement.Refresh
	if every == 0 {
		every = betapool.DefaultRefresh
	}
	if beta == nil || every < 0 || cfg.Dev.Manual {
		return nil
	}
	log.Info("Beta block on", "refresh", every)
	return &betaPoller{beta: beta, relay: r, every: every}
}
