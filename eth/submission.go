package eth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/eth/bundlepool"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/mevapi/jsonrpc"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
	"github.com/gavel-eth/gavel/miner"
	"github.com/gavel-eth/gavel/params"
)

// SubmissionConfig configures public submission: the MEV listener's JSON-RPC
// ([Mev]: auth mode, body limit, rate limits), the eth_sendBundle pool, beta
// bundles ([Beta]: horizon, limits) and the local builder.
type SubmissionConfig struct {
	RPC     jsonrpc.Config
	Bundles bundlepool.Config
	Beta    betapool.Config
	Miner   miner.Config `toml:",omitempty"`
	// StatsFlush is how often per-signer counters are written (10 s).
	StatsFlush time.Duration
}

// DefaultSubmissionConfig is every part's default.
var DefaultSubmissionConfig = SubmissionConfig{
	RPC:        jsonrpc.DefaultConfig,
	Bundles:    bundlepool.DefaultConfig,
	Beta:       betapool.DefaultConfig,
	StatsFlush: 10 * time.Second,
}

// SubmissionDeps are what submission needs from the node.
type SubmissionDeps struct {
	Chain *chain.Chain
	Store store.Store
	// Stats is the per-signer counters, which submission flushes and
	// closes when it closes.
	Stats *store.StatsBuffer
	// Beta is the beta service's pool (mev_sendBetaBundle,
	// mev_getBetaBundle).
	Beta *betapool.Pool
	// SimulationAPIs are the bundle simulation services (eth_callBundle,
	// eth_estimateGasBundle) the MEV listener's JSON-RPC serves as well.
	SimulationAPIs []rpc.API
}

// Submission is searchers' way in: the bundle pool, the beta-bundle pool,
// per-signer statistics, the local builder and the MEV listener's JSON-RPC
// handler serving them.
type Submission struct {
	bundles *bundlepool.Pool
	beta    *betapool.Pool
	builder *miner.Builder
	stats   *store.StatsBuffer
	handler *jsonrpc.Server
	apis    []rpc.API
}

// Bundles returns the eth_sendBundle pool.
func (s *Submission) Bundles() *bundlepool.Pool { return s.bundles }

// Beta returns the mev_sendBetaBundle pool.
func (s *Submission) Beta() *betapool.Pool { return s.beta }

// Builder returns the local block builder (the pooled bundles on top of the
// mempool).
func (s *Submission) Builder() *miner.Builder { return s.builder }

// NewSubmission wires the submission services from explicit dependencies.
func NewSubmission(cfg SubmissionConfig, deps SubmissionDeps) (*Submission, error) {
	if deps.Chain == nil || deps.Store == nil || deps.Stats == nil || deps.Beta == nil {
		return nil, errors.New("submission needs a chain, a store, the statistics buffer and the beta pool")
	}
	s := &Submission{stats: deps.Stats, beta: deps.Beta}
	c := deps.Chain
	s.bundles = bundlepool.New(cfg.Bundles, c.ChainID(), func() uint64 { return c.Head().Number.Uint64() }, s.stats)
	s.bundles.SetAccounts(c)
	if err := s.bundles.Persist(context.Background(), deps.Store); err != nil {
		return nil, err
	}
	s.builder = miner.New(c, s.bundles, cfg.Miner)
	s.apis = append(append(s.bundles.APIs(reqsig.SignerFrom, reqsig.ClientIPFrom), s.beta.APIs(reqsig.SignerFrom, reqsig.ClientIPFrom)...), jsonrpc.UserStatsAPIs(s.stats)...)
	s.apis = append(s.apis, jsonrpc.FlashbotsStatsAPIs(s.stats, reqsig.SignerFrom)...)
	rpcSrv, err := jsonrpc.New(cfg.RPC, append(append([]rpc.API{}, s.apis...), deps.SimulationAPIs...), jsonrpc.WithRequestHook(func(a common.Address) { s.stats.Add(a, bundle.StatRequest) }))
	if err != nil {
		return nil, fmt.Errorf("mev json-rpc: %w", err)
	}
	s.handler = rpcSrv
	return s, nil
}

// statsFlush is how often per-signer counters are written.
func (c SubmissionConfig) statsFlush() time.Duration {
	if c.StatsFlush <= 0 {
		return DefaultSubmissionConfig.StatsFlush
	}
	return c.StatsFlush
}

// APIs are the services to register on geth's RPC as well (eth_sendBundle,
// eth_cancelBundle, mev_sendBetaBundle, mev_getBetaBundle, mev_getUserStats,
// flashbots_getBundleStatsV2, flashbots_getUserStatsV2).
func (s *Submission) APIs() []rpc.API { return s.apis }

// Register adds the JSON-RPC routes to the MEV listener.
func (s *Submission) Register(mux interface{ Handle(string, http.Handler) }) {
	s.handler.Register(mux)
}

// LimitIP wraps a REST route of the MEV listener in the JSON-RPC per-IP
// rate limit (one bucket per client IP for both).
func (s *Submission) LimitIP(h http.Handler) http.Handler { return s.handler.LimitIP(h) }

// Close stops the handler and flushes statistics; the store is closed by
// its owner afterwards.
func (s *Submission) Close() error {
	s.handler.Close()
	return s.stats.Close()
}

// OpenStore opens the node's database: PostgreSQL when cfg.URL is set, else
// <datadir>/gavel/gavel.db, or a fresh temporary file (removed on Close)
// when the node has no datadir.
func OpenStore(stack *node.Node, cfg store.Config) (store.Store, error) {
	if cfg.URL == "" {
		if dir := stack.Config().DataDir; dir != "" {
			cfg.Path = store.Path(dir)
		}
	}
	return store.Open(cfg)
}

// submissionCloser closes submission when the node stops.
type submissionCloser struct{ s *Submission }

func (c submissionCloser) Start() error { return nil }
func (c submissionCloser) Stop() error  { return c.s.Close() }

// slotClock is the dev driver's slot in --dev; on other networks the
// relay's clock (the beacon node's genesis time and slot time) once the
// relay has its chain constants, before that (or without a relay) the
// chain's preset, and otherwise (private post-merge chains without a relay)
// slots of 12 s since the execution genesis.
func (n *Node) slotClock() func() uint64 {
	if n.beacon != nil {
		return n.beacon.CurrentSlot
	}
	fallback := params.SlotClock{GenesisTime: n.chain.Genesis().Time, SecondsPerSlot: 12}
	if bc := params.BeaconConfigForChain(n.chain.ChainID()); bc != nil {
		fallback = bc.Clock()
	}
	return func() uint64 {
		if c, ok := n.networkClock(); ok {
			return c.Now()
		}
		return fallback.Now()
	}
}

// networkClock is the relay's slot clock on a real network, once the relay
// has the beacon node's chain constants.
func (n *Node) networkClock() (params.SlotClock, bool) {
	if n.beacon != nil || n.relay == nil {
		return params.SlotClock{}, false
	}
	r := n.relay.Relay()
	if r == nil {
		return params.SlotClock{}, false
	}
	return r.BeaconConfig().Clock(), true
}

// PayloadBuilder returns the local builder in the dev slot driver's shape.
func (s *Submission) PayloadBuilder() devbeacon.PayloadBuilder { return payloadBuilder{s} }

type payloadBuilder struct{ s *Submission }

// BuildPayload implements devbeacon.PayloadBuilder. The parent being a block
// this builder made means that block was imported: its bundles count as
// included, and bundles for blocks up to the parent are dropped.
func (p payloadBuilder) BuildPayload(ctx context.Context, req devbeacon.PayloadRequest) (*engine.ExecutionPayloadEnvelope, error) {
	p.s.builder.Imported(req.Parent.Hash())
	p.s.bundles.Prune(req.Parent.Number.Uint64())
	a := req.Attrs
	root := a.ParentBeaconRoot
	res, err := p.s.builder.Build(ctx, req.Parent, chain.BuildAttrs{
		Timestamp:    a.Timestamp,
		FeeRecipient: a.FeeRecipient,
		Random:       a.PrevRandao,
		Withdrawals:  a.Withdrawals,
		BeaconRoot:   &root,
	})
	if err != nil {
		return nil, err
	}
	return res.Envelope, nil
}
