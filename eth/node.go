// Package eth assembles a gavel node: geth's Ethereum service, the engine
// API, the MEV listener and, in dev mode, the in-process beacon driver, each
// registered on one geth node.Node as APIs and lifecycles.
package eth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	geth "github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/eth/filters"
	"github.com/ethereum/go-ethereum/eth/tracers"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/contracts/devauction"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/eth/builder"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/eth/relaystatus"
	"github.com/gavel-eth/gavel/internal/sched"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/bundleapi"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
	"github.com/gavel-eth/gavel/params"
)

// ErrIncompatibleChain is returned when --dev is pointed at a datadir whose
// chain --dev did not create, or whose dev chain has another chain id than
// --dev.chainid.
var ErrIncompatibleChain = errors.New("datadir holds a chain that dev mode cannot drive")

// DevConfig is the [Mev.Dev] section: the dev chain's settings.
type DevConfig struct {
	Enabled  bool          // run the dev chain with the in-process beacon driver (--dev, or Enabled = true in a config file)
	Period   time.Duration // slot time
	GasLimit uint64        // genesis gas limit of a new dev chain
	Manual   bool          `toml:"-"` // slots advance only by Step (tests)
	// ProposerClient is the dev proposer's HTTP client to the relay (nil: a
	// default with a timeout); tests wrap its transport to delay or fail
	// getHeader and getPayload.
	ProposerClient *http.Client `toml:"-"`
	// Auction is the dev auction and its operator loop (eth/devoperator.go).
	Auction DevAuctionConfig
	// ChainID of a new dev chain; 0 means params.DevChainID (--dev.chainid).
	ChainID uint64 `toml:",omitempty"`
}

// Config is gavel's own configuration: the [Mev] section of the TOML file.
type Config struct {
	Listener   mevapi.Config
	Dev        DevConfig
	Bundles    bundle.Config    // bundle simulation limits (eth_callBundle, eth_estimateGasBundle)
	Sched      sched.Config     // the CPU scheduler of client work (eth/sched_wiring.go)
	Submission SubmissionConfig // bundles, beta bundles, request signatures (eth/submission.go)
	Relay      RelayConfig      // the relay (eth/relay_wiring.go)
	Builder    BuilderConfig    // builder mode (eth/builder_wiring.go)
	Beta       BetaConfig       // the beta block's L2 (eth/beta_wiring.go)
	Store      store.Config     // the database: SQLite in the datadir or PostgreSQL (URL)
}

// DefaultConfig returns gavel's defaults.
func DefaultConfig() Config {
	return Config{
		Listener: mevapi.Config{
			Addr: mevapi.DefaultAddr, MaxBodyBytes: mevapi.DefaultMaxBodyBytes,
			ReadHeaderTimeout: mevapi.DefaultReadHeaderTimeout, ReadTimeout: mevapi.DefaultReadTimeout,
			WriteTimeout: mevapi.DefaultWriteTimeout, IdleTimeout: mevapi.DefaultIdleTimeout,
			BodyBudget: mevapi.DefaultBodyBudget, BodyBudgetPerIP: mevapi.DefaultBodyBudgetPerIP, BudgetWait: mevapi.DefaultBudgetWait,
			MaxConns: mevapi.DefaultMaxConns, MaxConnsPerIP: mevapi.DefaultMaxConnsPerIP,
			MinBodyRate: mevapi.DefaultMinBodyRate, BodyGrace: mevapi.DefaultBodyGrace,
		},
		Dev: DevConfig{Period: params.DevPeriod, GasLimit: params.DevGasLimit},
		Bundles: bundle.Config{
			MaxTxs: bundle.DefaultMaxTxs, MaxBytes: bundle.DefaultMaxBytes, SenderCache: bundle.DefaultSenderCache,
			DefaultTimeout: bundle.DefaultTimeout, MaxTimeout: bundle.DefaultMaxTimeout,
		},
		Sched:      sched.Config{Wait: sched.DefaultWait, Turn: sched.DefaultTurn, Share: sched.DefaultShare},
		Submission: DefaultSubmissionConfig,
		Beta:       BetaConfig{Settlement: betapool.DefaultSettlementConfig},
	}
}

// DevHTTPModules are the JSON-RPC namespaces served over HTTP in dev mode.
var DevHTTPModules = []string{"eth", "net", "web3", "txpool", "mev", "flashbots"}

// Node is an assembled gavel node. Create it with New, then Start the Stack.
// Its parts are built once, by New, and read through the accessors.
type Node struct {
	stack      *node.Node
	eth        *geth.Ethereum
	chain      *chain.Chain
	engine     *chain.Engine
	mev        *mevapi.Server
	beacon     *devbeacon.Beacon
	auction    *devauction.Service
	submission *Submission
	beta       *betapool.Service
	relay      *RelayService
	builder    *builderService
	store      store.Store
	sched      *sched.Scheduler
	devAuction *DevAuction             // the dev auction with its operator loop; nil when auction is
	pageBids   *relaystatus.BidCounter // the status page's count of builders' bids; nil when the page is off
	statusPage *relaystatus.Collector  // the status page's snapshot; nil when the page is off
	cfg        Config
}

// Stack is the geth node the services are registered on.
func (n *Node) Stack() *node.Node { return n.stack }

// Eth is geth's Ethereum service.
func (n *Node) Eth() *geth.Ethereum { return n.eth }

// Chain is the local chain (core/chain's adapter over geth).
func (n *Node) Chain() *chain.Chain { return n.chain }

// Scheduler is the node's CPU scheduler: client work takes turns in it,
// the slot's work marks itself critical.
func (n *Node) Scheduler() *sched.Scheduler { return n.sched }

// Engine is the in-process engine API.
func (n *Node) Engine() *chain.Engine { return n.engine }

// MEV is the MEV listener.
func (n *Node) MEV() *mevapi.Server { return n.mev }

// Beacon is the dev slot driver; nil unless dev mode.
func (n *Node) Beacon() *devbeacon.Beacon { return n.beacon }

// Auction is the dev auction contracts; nil unless dev mode with the wall
// clock.
func (n *Node) Auction() *devauction.Service { return n.auction }

// DevAuction is the dev auction with its operator loop; nil when Auction is.
func (n *Node) DevAuction() *DevAuction { return n.devAuction }

// Submission is eth_sendBundle, beta bundles and the local builder.
func (n *Node) Submission() *Submission { return n.submission }

// Beta is the beta service: the beta-bundle pool, the L2 settlement state
// and the merge.
func (n *Node) Beta() *betapool.Service { return n.beta }

// Relay is the relay; nil when it does not run.
func (n *Node) Relay() *RelayService { return n.relay }

// Builder is builder mode's builder: nil unless --builder, and on a real
// network until the relay has the beacon node's chain constants.
func (n *Node) Builder() *builder.Builder {
	if n.builder == nil {
		return nil
	}
	return n.builder.current()
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
//
// A dev chain in a datadir is crash safe: its state is kept with the hash
// scheme in archive mode, so each block's state is written to the database
// as the block is imported, and a SIGKILL at any moment leaves the head
// with its state on disk. (The path scheme, geth's default, keeps the last
// 128 blocks' state in memory and journals it only at a clean shutdown: a
// killed dev node came back at genesis with blocks it could not execute.)
// A datadir created with the path scheme by an earlier gavel keeps it.
func ConfigureDevEth(stack *node.Node, cfg *ethconfig.Config, dev DevConfig) error {
	chainID := dev.ChainID
	if chainID == 0 {
		chainID = params.DevChainID
	}
	cfg.NetworkId = chainID
	cfg.SyncMode = ethconfig.FullSync
	genesis, hash, scheme, err := storedGenesis(stack)
	if err != nil {
		return err
	}
	if err := checkDevDatadir(stack.Config().DataDir, genesis, hash, dev.ChainID); err != nil {
		return err
	}
	if stack.Config().DataDir != "" && (genesis == nil || scheme == rawdb.HashScheme) {
		cfg.StateScheme = rawdb.HashScheme
		cfg.NoPruning = true
	}
	if genesis == nil {
		cfg.Genesis = chain.DevGenesis(dev.GasLimit, uint64(time.Now().Unix()))
		cfg.Genesis.Config.ChainID = new(big.Int).SetUint64(chainID)
		return nil
	}
	if scheme == rawdb.PathScheme {
		log.Warn("This dev datadir keeps its state with the path scheme: a killed node loses up to 128 blocks; start a new datadir for crash-safe dev state", "datadir", stack.Config().DataDir)
	}
	cfg.NetworkId = genesis.Config.ChainID.Uint64()
	cfg.Genesis = nil // continue the stored chain
	return nil
}

// checkDevDatadir refuses a datadir whose stored chain dev mode cannot
// drive: one that --dev did not create (a network `gavel init` wrote, whose
// slots would all fail), or a dev chain of another id than --dev.chainid
// asks for. The error names both chains and the ways out.
func checkDevDatadir(datadir string, genesis *core.Genesis, hash common.Hash, wantID uint64) error {
	if genesis == nil {
		return nil
	}
	id := genesis.Config.ChainID
	if !chain.IsDevGenesis(genesis) {
		devID := wantID
		if devID == 0 {
			devID = params.DevChainID
		}
		return fmt.Errorf("%w: %s holds chain id %v (genesis %s), which --dev did not create (gavel init, or another tool, wrote it); --dev runs gavel's dev chain (chain id %d): "+
			"run this datadir without --dev, as a custom network beside its consensus client (gavel --datadir %s --syncmode full), or give --dev a new --datadir",
			ErrIncompatibleChain, datadir, id, hash.Hex(), devID, datadir)
	}
	if wantID != 0 && id.Uint64() != wantID {
		return fmt.Errorf("%w: %s holds the dev chain with chain id %v (genesis %s); --dev.chainid asks for chain id %d: "+
			"drop --dev.chainid (or give %v) to continue the stored chain, or give --dev a new --datadir for chain id %d",
			ErrIncompatibleChain, datadir, id, hash.Hex(), wantID, id, wantID)
	}
	return nil
}

// storedGenesis returns the genesis of the chain in the node's datadir, its
// hash and its state scheme, or nil when there is none (also for in-memory
// nodes).
func storedGenesis(stack *node.Node) (*core.Genesis, common.Hash, string, error) {
	if stack.Config().DataDir == "" {
		return nil, common.Hash{}, "", nil
	}
	if _, err := os.Stat(stack.ResolvePath("chaindata")); errors.Is(err, os.ErrNotExist) {
		return nil, common.Hash{}, "", nil
	}
	db, err := stack.OpenDatabaseWithOptions("chaindata", node.DatabaseOptions{ReadOnly: true})
	if err != nil {
		return nil, common.Hash{}, "", fmt.Errorf("open chain database: %w", err)
	}
	defer db.Close()
	hash := rawdb.ReadCanonicalHash(db, 0)
	if hash == (common.Hash{}) {
		return nil, common.Hash{}, "", nil
	}
	g, err := core.ReadGenesis(db)
	if err != nil {
		return nil, common.Hash{}, "", fmt.Errorf("read stored genesis: %w", err)
	}
	return g, hash, rawdb.ReadStateScheme(db), nil
}

// New assembles a gavel node on stack, each service from explicit inputs,
// in the order they depend on each other: geth's Ethereum service with its
// tracer and filter APIs (as geth's utils.RegisterEthService and
// RegisterFilterAPI do, but returning errors instead of exiting), the engine
// API, the MEV listener with bundle simulation, the store, the dev slot
// driver, submission, and the relay; then it registers their lifecycles in
// the order they must start.
func New(stack *node.Node, ethCfg *ethconfig.Config, cfg Config) (_ *Node, err error) {
	backend, err := geth.New(stack, ethCfg)
	if err != nil {
		return nil, fmt.Errorf("ethereum service: %w", err)
	}
	stack.RegisterAPIs(tracers.APIs(backend.APIBackend))
	fsys := filters.NewFilterSystem(backend.APIBackend, filters.Config{
		LogCacheSize: ethCfg.FilterLogCacheSize, LogQueryLimit: ethCfg.LogQueryLimit, RangeLimit: ethCfg.RangeLimit,
	})
	stack.RegisterAPIs([]rpc.API{{Namespace: "eth", Service: filters.NewFilterAPI(fsys)}})

	// One scheduler for every CPU-heavy client path (the listener's
	// simulation, JSON-RPC and large bodies, geth's eth_call and traces, the
	// data API); the engine API, the dev slot step, building, getHeader and
	// getPayload mark themselves critical in it.
	sc := sched.New(cfg.Sched)
	n := &Node{stack: stack, eth: backend, chain: chain.New(backend), engine: chain.NewEngine(backend, stack.Server().PeerCount, sc), sched: sc, cfg: cfg}
	stack.RegisterAPIs(n.engine.APIs())
	stack.RegisterAPIs([]rpc.API{{Namespace: "mev", Service: &NodeAPI{n: n}}})

	// The MEV listener. Bundle simulation (eth_callBundle,
	// eth_estimateGasBundle) is served on geth's RPC, on the listener's
	// JSON-RPC and, below, as REST routes on the listener.
	n.mev = mevapi.New(cfg.Listener, n.ready, mevapi.WithScheduler(sc))
	sims := bundleapi.NewAPI(bundle.NewSimulator(n.chain, cfg.Bundles))
	stack.RegisterAPIs(sims.APIs())

	st, err := OpenStore(stack, cfg.Store)
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	n.store = st
	defer func() {
		if err != nil { // nothing registered below runs: stop what was started, in reverse
			if n.relay != nil {
				n.relay.Stop()
			}
			if n.submission != nil {
				n.submission.Close()
			}
			st.Close()
		}
	}()

	// The dev slot driver; its payload builder is the relay's proposer flow,
	// set once the relay exists.
	if cfg.Dev.Enabled {
		backend.SetSynced()
		n.beacon, err = devbeacon.New(n.chain, n.engine, devbeacon.Config{
			Period:       cfg.Dev.Period,
			FeeRecipient: ethCfg.Miner.PendingFeeRecipient,
			Manual:       cfg.Dev.Manual,
			Sched:        sc,
		})
		if err != nil {
			return nil, err
		}
	}

	// The beta service: the beta-bundle pool, the L2 settlement state kept
	// fresh in the background, and the merge the relay asks for.
	stats := store.NewStatsBuffer(st, cfg.Submission.statsFlush())
	sims.CountUsage(reqsig.SignerFrom, stats)
	if n.beta, err = newBetaService(n, cfg, stats); err != nil {
		stats.Close()
		return nil, err
	}
	n.submission, err = NewSubmission(cfg.Submission, SubmissionDeps{
		Chain: n.chain, Store: st, Stats: stats, Beta: n.beta.Pool(), SimulationAPIs: sims.APIs(),
	})
	if err != nil {
		stats.Close()
		return nil, err
	}
	n.submission.Register(n.mev)
	// The REST simulation routes count in the JSON-RPC per-IP rate limit.
	for pattern, h := range sims.Routes() {
		n.mev.Handle(pattern, n.submission.LimitIP(h))
	}
	stack.RegisterAPIs(n.submission.APIs())

	if !cfg.Relay.PageDisabled {
		n.pageBids = relaystatus.NewBidCounter()
	}
	// On a real network the relay runs when --relay.secretkey or
	// --relay.beacon is given (newNetworkRelay refuses one without the
	// other); with neither, none of its routes is mounted.
	if n.beacon != nil {
		n.relay, err = newDevRelay(n, cfg.Relay, st, relayBeta(n.beta), betaPrepare(n, cfg))
	} else if cfg.Relay.SecretKey != "" || len(cfg.Relay.Beacon) > 0 {
		n.relay, err = newNetworkRelay(n, cfg.Relay, st, relayBeta(n.beta))
	}
	if err != nil {
		return nil, err
	}
	if n.beacon == nil && n.relay == nil && params.BeaconConfigForChain(n.chain.ChainID()) == nil {
		log.Warn("No beacon genesis known for this chain and no relay to ask a beacon node: beta-bundle slots count 12 s from the execution genesis", "chainid", n.chain.ChainID())
	}
	n.statusPage = newStatusPage(n, cfg, n.beta)
	if n.builder, err = newBuilder(n, cfg.Builder); err != nil {
		return nil, err
	}
	if n.relay != nil && n.relay.proposer != nil {
		stack.RegisterAPIs([]rpc.API{{Namespace: "mev", Service: &DevRelayAPI{n}}})
	}
	if n.relay != nil {
		stack.RegisterAPIs([]rpc.API{{Namespace: "mev", Service: &OperatorAPI{n}}})
	}

	// geth's CPU-heavy methods, and eth_callBundle on geth's RPC, in client
	// turns: registered last, they replace the ungated methods.
	heavy, err := newGethHeavyRPC(sc, backend, sims.APIs())
	if err != nil {
		return nil, err
	}
	stack.RegisterAPIs(heavy.APIs())
	stack.RegisterLifecycle(heavy)
	if err := registerHTTPFront(stack, sc); err != nil {
		return nil, err
	}

	// Lifecycles start in registration order and stop in reverse: the dev
	// driver stops producing slots first, then the listener drains the
	// requests in flight, then the relay stops following the beacon nodes
	// and waits for its publishes and the outcomes it writes, then the beta
	// service stops reading the L2 and pruning, then submission flushes its
	// counters and the store closes last.
	stack.RegisterLifecycle(storeCloser{st})
	stack.RegisterLifecycle(submissionCloser{n.submission})
	stack.RegisterLifecycle(n.beta)
	if n.relay != nil {
		stack.RegisterLifecycle(n.relay)
		if n.statusPage != nil {
			stack.RegisterLifecycle(n.statusPage)
		}
	}
	if n.builder != nil {
		stack.RegisterLifecycle(n.builder)
	}
	stack.RegisterLifecycle(n.mev)
	if n.beacon != nil {
		n.beacon.SetBuilder(n.relay.proposer)
		stack.RegisterLifecycle(n.beacon)
		if !cfg.Dev.Manual && !cfg.Dev.Auction.Disabled {
			// Tests with manual slots enable it themselves when they want it
			// (testnode.Options.Register), so other tests' first blocks stay empty.
			if _, err = n.EnableDevAuction(cfg.Dev.Auction); err != nil {
				return nil, err
			}
		}
	}
	return n, nil
}

// ready reports whether the node can serve MEV traffic: the chain must be
// in sync (always true in dev mode) and the relay, if it runs, must have its
// chain constants.
func (n *Node) ready() error {
	if !n.eth.Synced() {
		return errors.New("execution client is syncing")
	}
	if n.store != nil {
		ctx, cancel := context.WithTimeout(context.Background(), readyDBTimeout)
		defer cancel()
		if err := n.store.Ping(ctx); err != nil {
			return fmt.Errorf("%s database does not answer: %v", n.store.Backend(), err)
		}
	}
	if n.relay != nil {
		return n.relay.Ready()
	}
	return nil
}

// readyDBTimeout bounds /readyz's database check.
const readyDBTimeout = 2 * time.Second

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

// MarshalJSON writes currentSlot whenever the node has a slot clock
// (slotSeconds is set), slot 0 included: scripts read it right after start.
func (i Info) MarshalJSON() ([]byte, error) {
	type plain Info
	out := struct {
		plain
		CurrentSlot *uint64 `json:"currentSlot,omitempty"`
	}{plain: plain(i)}
	if i.SlotSeconds != 0 {
		out.CurrentSlot = &i.CurrentSlot
	}
	return json.Marshal(out)
}

// NodeInfo returns the MEV listener URL and the slot clock: mev_nodeInfo.
// The slot clock is the dev driver's in --dev, the relay's (the beacon
// node's constants) on a real network once the relay has them, and absent
// otherwise.
func (api *NodeAPI) NodeInfo() Info {
	info := Info{MEVListener: api.n.mev.URL(), ChainID: api.n.chain.ChainID(), Dev: api.n.beacon != nil}
	if b := api.n.beacon; b != nil {
		info.CurrentSlot = b.CurrentSlot()
		info.SlotSeconds = uint64(b.Period() / time.Second)
		info.GenesisTime = b.GenesisTime()
	} else if c, ok := api.n.networkClock(); ok {
		info.CurrentSlot = c.Now()
		info.SlotSeconds = c.SecondsPerSlot
		info.GenesisTime = c.GenesisTime
	}
	return info
}
