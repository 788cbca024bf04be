package eth

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/eth/bundlepool"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/mevapi/jsonrpc"
	"github.com/gavel-eth/gavel/miner"
)

// SubmissionConfig configures public submission: the MEV listener's JSON-RPC
// ([Mev]: auth mode, body limit, rate limits), the eth_sendBundle pool, beta
// bundles ([Beta]: horizon, limits) and the local builder.
type SubmissionConfig struct {
	RPC     jsonrpc.Config
	Bundles bundlepool.Config
	Beta    betapool.Config
	Miner   miner.Config
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
	// ExtraAPIs are other services the MEV listener's JSON-RPC also serves
	// (eth_callBundle, eth_estimateGasBundle once they exist).
	ExtraAPIs []rpc.API
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
	s.apis = append(append(s.Bundles.APIs(), s.Beta.APIs()...), jsonrpc.UserStatsAPIs(s.Stats)...)
	rpcSrv, err := jsonrpc.New(cfg.RPC, append(append([]rpc.API{}, s.apis...), deps.ExtraAPIs...), jsonrpc.WithRequestHook(func(a common.Address) { s.Stats.Add(a, store.StatRequest) }))
	if err != nil {
		s.Stats.Close()
		return nil, fmt.Errorf("mev json-rpc: %w", err)
	}
	s.RPC = rpcSrv
	return s, nil
}

// APIs are the services to register on geth's RPC as well (eth_sendBundle,
// eth_cancelBundle, mev_sendBetaBundle, mev_getBetaBundle, mev_getUserStats).
// Simulation services, once they exist, are added to both.
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
