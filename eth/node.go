// Package eth assembles a gavel node: geth's Ethereum service, the engine
// API, the MEV listener and, in dev mode, the in-process beacon driver, each
// registered on one geth node.Node as APIs and lifecycles.
package eth

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	geth "github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/eth/tracers"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/contracts/devauction"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/builder"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/bundleapi"
	"github.com/gavel-eth/gavel/params"
)

// ErrIncompatibleChain is returned when --dev is pointed at a datadir whose
// chain is not a dev (post-merge at genesis) chain.
var ErrIncompatibleChain = errors.New("datadir holds a chain that dev mode cannot drive")

// DevConfig is the [Mev.Dev] section: the dev chain's settings.
type DevConfig struct {
	Enabled  bool          // run the dev chain with the in-process beacon driver (set by --dev only)
	Period   time.Duration // slot time
	GasLimit uint64        // genesis gas limit of a new dev chain
	Manual   bool          `toml:"-"` // slots advance only by Step (tests)
}

// Config is gavel's own configuration: the [Mev] section of the TOML file.
type Config struct {
	Listener   mevapi.Config
	Dev        DevConfig
	Bundles    bundle.Config    // bundle simulation limits (eth_callBundle, eth_estimateGasBundle)
	Submission SubmissionConfig // bundles, beta bundles, request signatures (eth/submission.go)
	Relay      RelayConfig      // the relay (eth/relay_wiring.go)
	Builder    BuilderConfig    // builder mode (eth/builder_wiring.go)
}

// DefaultConfig returns gavel's defaults.
func DefaultConfig() Config {
	return Config{
		Listener: mevapi.Config{
			Addr: mevapi.DefaultAddr, MaxBodyBytes: mevapi.DefaultMaxBodyBytes,
			ReadHeaderTimeout: mevapi.DefaultReadHeaderTimeout, ReadTimeout: mevapi.DefaultReadTimeout,
			WriteTimeout: mevapi.DefaultWriteTimeout, IdleTimeout: mevapi.DefaultIdleTimeout,
		},
		Dev: DevConfig{Period: params.DevPeriod, GasLimit: params.DevGasLimit},
		Bundles: bundle.Config{
			MaxTxs: bundle.DefaultMaxTxs, MaxBytes: bundle.DefaultMaxBytes, SenderCache: bundle.DefaultSenderCache,
			DefaultTimeout: bundle.DefaultTimeout, MaxTimeout: bundle.DefaultMaxTimeout,
		},
		Submission: DefaultSubmissionConfig,
	}
}

// DevHTTPModules are the JSON-RPC namespaces served over HTTP in dev mode.
var DevHTTPModules = []string{"eth", "net", "web3", "txpool", "mev"}

// Node is an assembled gavel node. Create it with New, then Start the Stack.
type Node struct {
	Stack   *node.Node
	Eth     *geth.Ethereum
	Chain   *chain.Chain
	Engine  *chain.Engine
	MEV     *mevapi.Server
	Beacon  *devbeacon.Beacon   // nil unless dev mode
	Auction *devauction.Service // the dev auction contracts; nil unless dev mode with the wall clock
	Config  Config
	Filters *filters.FilterSystem
	Bundles *bundleapi.API // bundle simulation, for the MEV listener's JSON-RPC dispatcher

	// Submission is eth_sendBundle, beta bundles and the local builder.
	Submission *Submission
	// Relay is the relay (nil when it does not run).
	Relay *RelayService
	// Builder is builder mode's builder (nil unless --builder).
	Builder *builder.Builder
}

// ConfigureDevNode sets the node settings dev mode implies unless the user
// chose otherwise: HTTP JSON-RPC on loopback with the dev namespaces and no
// p2p networking.
func ConfigureDevNode(cfg *node.Config, httpSet, httpAPISet bool) {
	if !httpSet && cfg.HTTPHost == "" {
		cfg.HTTPHost = "127.0.0.1"
	}
	if !httpAPISet {
		cfg.HTTPModules = append([]string(nil), DevHTTPModules...)
	}
	cfg.P2P.MaxPeers = 0
	cfg.P2P.ListenAddr = ""
	cfg.P2P.NoDial = true
	cfg.P2P.NoDiscovery = true
	cfg.P2P.DiscoveryV5 = false
}

// ConfigureDevEth sets the eth settings of dev mode: network id 1337, full
// sync, and gavel's dev genesis unless the datadir already holds a chain.
func ConfigureDevEth(stack *node.Node, cfg *ethconfig.Config, dev DevConfig) error {
	cfg.NetworkId = params.DevChainID
	cfg.SyncMode = ethconfig.FullSync
	genesis, err := storedGenesis(stack)
	if err != nil {
		return err
	}
	if genesis == nil {
		cfg.Genesis = chain.DevGenesis(dev.GasLimit, uint64(time.Now().Unix()))
		return nil
	}
	if !chain.IsDevGenesis(genesis) {
		return fmt.Errorf("%w: %s (chain id %v)", ErrIncompatibleChain, stack.ResolvePath("chaindata"), genesis.Config.ChainID)
	}
	cfg.Genesis = nil // continue the stored chain
	return nil
}

// storedGenesis returns the genesis of the chain in the node's datadir, or
// nil when there is none (also for in-memory nodes).
func storedGenesis(stack *node.Node) (*core.Genesis, error) {
	if stack.Config().DataDir == "" {
		return nil, nil
	}
	if _, err := os.Stat(stack.ResolvePath("chaindata")); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	db, err := stack.OpenDatabaseWithOptions("chaindata", node.DatabaseOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("open chain database: %w", err)
	}
	defer db.Close()
	if rawdb.ReadCanonicalHash(db, 0) == (common.Hash{}) {
		return nil, nil
	}
	g, err := core.ReadGenesis(db)
	if err != nil {
		return nil, fmt.Errorf("read stored genesis: %w", err)
	}
	return g, nil
}

// New registers geth's Ethereum service and gavel's services on stack. It
// does what geth's utils.RegisterEthService and RegisterFilterAPI do, but
// returns errors instead of exiting the process, so tests can use it.
func New(stack *node.Node, ethCfg *ethconfig.Config, cfg Config) (*Node, error) {
	backend, err := geth.New(stack, ethCfg)
	if err != nil {
		return nil, fmt.Errorf("ethereum service: %w", err)
	}
	stack.RegisterAPIs(tracers.APIs(backend.APIBackend))
	fsys := filters.NewFilterSystem(backend.APIBackend, filters.Config{
		LogCacheSize: ethCfg.FilterLogCacheSize, LogQueryLimit: ethCfg.LogQueryLimit, RangeLimit: ethCfg.RangeLimit,
	})
	stack.RegisterAPIs([]rpc.API{{Namespace: "eth", Service: filters.NewFilterAPI(fsys)}})

	n := &Node{
		Stack:   stack,
		Eth:     backend,
		Chain:   chain.New(backend),
		Engine:  chain.NewEngine(backend),
		Config:  cfg,
		Filters: fsys,
	}
	stack.RegisterAPIs(n.Engine.APIs())
	stack.RegisterAPIs([]rpc.API{{Namespace: "mev", Service: &NodeAPI{n: n}}})

	n.MEV = mevapi.New(cfg.Listener, n.ready)
	stack.RegisterLifecycle(n.MEV)
	n.Bundles = n.RegisterBundles(cfg.Bundles)

	if cfg.Dev.Enabled {
		backend.SetSynced()
		n.Beacon, err = devbeacon.New(n.Chain, n.Engine, devbeacon.Config{
			Period:       cfg.Dev.Period,
			FeeRecipient: ethCfg.Miner.PendingFeeRecipient,
			Manual:       cfg.Dev.Manual,
		}, devbeacon.LocalBuilder{Engine: n.Engine})
		if err != nil {
			return nil, err
		}
		stack.RegisterLifecycle(n.Beacon)
		if !cfg.Dev.Manual {
			// Tests with manual slots register it themselves when they want it
			// (testnode.Options.Register), so other tests' first blocks stay empty.
			n.Auction = devauction.Register(stack, devauction.Config{})
		}
	}
	st, err := OpenStore(stack)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	stack.RegisterLifecycle(storeCloser{st}) // registered first, stopped last
	if n.Submission, err = AttachSubmission(n, cfg.Submission, st); err != nil {
		return nil, err
	}
	if n.Relay, err = AttachRelay(n, cfg.Relay, st); err != nil {
		return nil, err
	}
	if n.Builder, err = AttachBuilder(n, cfg.Builder); err != nil {
		return nil, err
	}
	// The MEV listener's JSON-RPC serves the simulation methods too; geth's
	// RPC already has them from RegisterBundles.
	if err := n.Submission.AddAPIs(nil, n.Bundles.APIs()); err != nil {
		return nil, err
	}
	return n, nil
}

// ready reports whether the node can serve MEV traffic: the chain must be
// in sync (always true in dev mode) and the relay, if it runs, must have its
// chain constants.
func (n *Node) ready() error {
	if !n.Eth.Synced() {
		return errors.New("execution client is syncing")
	}
	if n.Relay != nil {
		return n.Relay.Ready()
	}
	return nil
}

// NodeAPI is the `mev` namespace's node-level methods.
type NodeAPI struct{ n *Node }

// Info describes the node's MEV endpoints.
type Info struct {
	MEVListener string `json:"mevListener"`
	ChainID     uint64 `json:"chainId"`
	Dev         bool   `json:"dev"`
	CurrentSlot uint64 `json:"currentSlot,omitempty"`
	SlotSeconds uint64 `json:"slotSeconds,omitempty"`
	GenesisTime uint64 `json:"genesisTime,omitempty"`
}

// NodeInfo returns the MEV listener URL and, in dev mode, the slot clock:
// mev_nodeInfo.
func (api *NodeAPI) NodeInfo() Info {
	info := Info{MEVListener: api.n.MEV.URL(), ChainID: api.n.Chain.ChainID(), Dev: api.n.Beacon != nil}
	if b := api.n.Beacon; b != nil {
		info.CurrentSlot = b.CurrentSlot()
		info.SlotSeconds = uint64(b.Period() / time.Second)
		info.GenesisTime = b.GenesisTime()
	}
	return info
}
