package eth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/log"
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
	// CurrentSlot is the slot clock (devbeacon's in --dev; beacon genesis
	// time on real networks, see betapool.SlotClock).
	CurrentSlot func() uint64
	// SimulationAPIs are the bundle simulation services (eth_callBundle,
	// eth_estimateGasBundle) the MEV listener's JSON-RPC serves as well.
	SimulationAPIs []rpc.API
}

// Submission is searchers' way in: the bundle pool, the beta-bundle pool,
// per-signer statistics, the local builder and the MEV listener's JSON-RPC
// handler serving them.
type Submission struct {
	Bundles *bundlepool.Pool
	Beta    *betapool.Pool
	Builder *miner.Builder
	Stats   *store.StatsBuffer
	RPC     *jsonrpc.Server
	apis    []rpc.API
}

// NewSubmission wires the submission services from explicit dependencies.
func NewSubmission(cfg SubmissionConfig, deps SubmissionDeps) (*Submission, error) {
	if deps.Chain == nil || deps.Store == nil || deps.CurrentSlot == nil {
		return nil, errors.New("submission needs a chain, a store and a slot clock")
	}
	if cfg.StatsFlush <= 0 {
		cfg.StatsFlush = DefaultSubmissionConfig.StatsFlush
	}
	s := &Submission{Stats: store.NewStatsBuffer(deps.Store, cfg.StatsFlush)}
	c := deps.Chain
	s.Bundles = bundlepool.New(cfg.Bundles, c.ChainID(), func() uint64 { return c.Head().Number.Uint64() }, s.Stats)
	s.Beta = betapool.New(cfg.Beta, deps.Store, c.ChainID(), deps.CurrentSlot, s.Stats)
	s.Builder = miner.New(c, s.Bundles, cfg.Miner)
	s.apis = append(append(s.Bundles.APIs(reqsig.SignerFrom), s.Beta.APIs(reqsig.SignerFrom)...), jsonrpc.UserStatsAPIs(s.Stats)...)
	rpcSrv, err := jsonrpc.New(cfg.RPC, append(append([]rpc.API{}, s.apis...), deps.SimulationAPIs...), jsonrpc.WithRequestHook(func(a common.Address) { s.Stats.Add(a, bundle.StatRequest) }))
	if err != nil {
		s.Stats.Close()
		return nil, fmt.Errorf("mev json-rpc: %w", err)
	}
	s.RPC = rpcSrv
	return s, nil
}

// APIs are the services to register on geth's RPC as well (eth_sendBundle,
// eth_cancelBundle, mev_sendBetaBundle, mev_getBetaBundle, mev_getUserStats).
func (s *Submission) APIs() []rpc.API { return s.apis }

// Register adds the JSON-RPC routes to the MEV listener.
func (s *Submission) Register(mux interface{ Handle(string, http.Handler) }) {
	s.RPC.Register(mux)
}

// Close stops the handler and flushes statistics; the store is closed by
// its owner afterwards.
func (s *Submission) Close() error {
	s.RPC.Close()
	return s.Stats.Close()
}

// OpenStore opens the node's database: <datadir>/gavel/gavel.db, or a fresh
// temporary file (removed on Close) when the node has no datadir.
func OpenStore(stack *node.Node) (store.Store, error) {
	path := ""
	if dir := stack.Config().DataDir; dir != "" {
		path = store.Path(dir)
	}
	return store.OpenSQLite(path)
}

// submissionCloser closes submission when the node stops.
type submissionCloser struct{ s *Submission }

func (c submissionCloser) Start() error { return nil }
func (c submissionCloser) Stop() error  { return c.s.Close() }

// slotClock is the dev driver's slot in --dev, the beacon clock on the
// public networks, and otherwise (private post-merge chains) slots of 12 s
// since the execution genesis.
func slotClock(c *chain.Chain, dev *devbeacon.Beacon) func() uint64 {
	if dev != nil {
		return dev.CurrentSlot
	}
	if bc := params.BeaconConfigForChain(c.ChainID()); bc != nil {
		return betapool.SlotClock(bc.GenesisTime, bc.SecondsPerSlot, nil)
	}
	log.Warn("No beacon genesis known for this chain: beta-bundle slots count 12 s from the execution genesis", "chainid", c.ChainID())
	return betapool.SlotClock(c.Genesis().Time, 12, nil)
}

// PayloadBuilder returns the local builder in the dev slot driver's shape.
func (s *Submission) PayloadBuilder() devbeacon.PayloadBuilder { return payloadBuilder{s} }

type payloadBuilder struct{ s *Submission }

// BuildPayload implements devbeacon.PayloadBuilder. The parent being a block
// this builder made means that block was imported: its bundles count as
// included, and bundles for blocks up to the parent are dropped.
func (p payloadBuilder) BuildPayload(ctx context.Context, req devbeacon.PayloadRequest) (*engine.ExecutionPayloadEnvelope, error) {
	p.s.Builder.Imported(req.Parent.Hash())
	p.s.Bundles.Prune(req.Parent.Number.Uint64())
	a := req.Attrs
	root := a.ParentBeaconRoot
	res, err := p.s.Builder.Build(ctx, req.Parent, chain.BuildAttrs{
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
