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

// betaL2 resolves the L2 the beta service reads, or nil when beta is off:
// no L2 configured outside --dev, or --beta.disable.
func betaL2(n *Node, cfg BetaConfig) (betapool.L2, error) {
	if cfg.Disabled {
		return nil, nil
	}
	addrs, err := betaAddresses(cfg)
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.L2RPC != "":
		if addrs == nil {
			if n.beacon == nil {
				return nil, errors.New("beta: --beta.l2rpc needs --beta.network or --beta.auctioneer and --beta.settlementhouse")
			}
			def := devAuctionAddresses(n)
			addrs = &def
		}
		return &dialedL2{url: cfg.L2RPC, addrs: *addrs, max: betapool.DefaultMaxResultBytes}, nil
	case n.beacon != nil:
		// --dev: the dev chain is its own L2, read in process. The dev
		// deployment's addresses are resolved at the first read.
		return &localL2{n: n, addrs: addrs}, nil
	case addrs != nil:
		return nil, errors.New("beta: --beta.network or contract addresses need --beta.l2rpc (the L2's JSON-RPC URL)")
	}
	return nil, nil
}

// newBetaService builds the beta service: the beta-bundle pool, and with an
// L2 the settlement reads and the merge. Its reads run in the background
// every --beta refresh period, except with slots stepped by hand
// (--dev.manual), where the dev driver refreshes before each build
// (betaPrepare). A changed paid set makes the relay merge the slot's top
// bids again.
func newBetaService(n *Node, cfg Config, stats betapool.StatsCounter) (*betapool.Service, error) {
	l2, err := betaL2(n, cfg.Beta)
	if err != nil {
		return nil, err
	}
	scfg := cfg.Beta.Settlement
	if n.beacon != nil && cfg.Dev.Manual {
		scfg.Refresh = -1
	}
	return betapool.NewService(betapool.ServiceConfig{
		Pool: cfg.Submission.Beta, Settlement: scfg, Store: n.store, ChainID: n.chain.ChainID(), CurrentSlot: n.slotClock(),
		Stats: stats, Chain: n.chain, Gas: n.chain, Accounts: n.chain, L2: l2,
		Changed: func(ctx context.Context, slot uint64) {
			if n.relay == nil {
				return
			}
			if r := n.relay.Relay(); r != nil { // nil until a real network's relay has its constants
				r.RemergeSlot(ctx, slot)
			}
		},
	})
}

// betaPrepare is what the dev driver runs before each build: with slots
// stepped by hand, the beta service reads the slot's state from the L2 then
// (there are no background reads), so a test's payment made before the step
// is in the slot's block. Nil otherwise.
func betaPrepare(n *Node, cfg Config) func(context.Context, uint64) {
	if !cfg.Dev.Manual || !n.beta.HasL2() {
		return nil
	}
	return n.beta.Refresh
}

// relayBeta is the beta service as the relay sees it: nil without an L2
// (alpha only, beta_gas 0).
func relayBeta(s *betapool.Service) relay.Beta {
	if !s.HasL2() {
		return nil
	}
	return s
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
