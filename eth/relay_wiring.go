package eth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/log"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/beaconclient"
	"github.com/gavel-eth/gavel/eth/builder"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
	"github.com/gavel-eth/gavel/params"
)

// RelayConfig is the relay's part of the [Mev] section.
type RelayConfig struct {
	// SecretKey is the relay's BLS secret key, 32 bytes hex (--relay.secretkey).
	// Required on real networks; --dev derives a fixed dev key when empty.
	SecretKey string `toml:",omitempty"`
	// Beacon lists the beacon node URLs (--relay.beacon), for real networks.
	Beacon []string `toml:",omitempty"`
	// CancellationsDisabled refuses ?cancellations=1 submissions.
	CancellationsDisabled bool `toml:",omitempty"`
	// MaxSubmissionBytes caps a submission after gzip decoding (15 MiB).
	MaxSubmissionBytes int64 `toml:",omitempty"`
	// DevValidators is how many dev validators --dev runs (--dev.validators).
	DevValidators int `toml:",omitempty"`
	// Spec overrides the beacon node's chain constants (--relay.spec),
	// keyed as in /eth/v1/config/spec (SECONDS_PER_SLOT,
	// CAPELLA_FORK_EPOCH, ...) plus GENESIS_TIME and GENESIS_VALIDATORS_ROOT.
	Spec map[string]string `toml:",omitempty"`
	// HeaderWait bounds how long getHeader waits for the bid of the
	// in-process builder's build in flight for its slot and parent
	// (--relay.headerwait): 0 is the default, 500 ms; negative never waits.
	HeaderWait time.Duration `toml:",omitempty"`
	// BodyWait bounds how long getPayload waits for the block of a
	// header-first bid (--relay.bodywait): 0 is the default, 1 s.
	BodyWait time.Duration `toml:",omitempty"`
	// PageDisabled turns off the status page at GET / on the MEV listener
	// (--relay.page=false).
	PageDisabled bool `toml:",omitempty"`
	// SteerDisabled starts a known builder's signature verification as an
	// ordinary goroutine, without steering it onto another core
	// (--relay.steer=false; relay.Config.SteerDisabled).
	SteerDisabled bool `toml:",omitempty"`
}

// Dev keys, derived from fixed strings: anyone can reproduce them, which is
// the point of a dev chain and why they must never hold real value.
var (
	devRelayKeySeed   = sha256.Sum256([]byte("gavel dev relay key"))
	devBuilderKeySeed = sha256.Sum256([]byte("gavel dev builder key"))
	// devSampleBuilderKeySeed derives the BLS key that signs the sample
	// submissions of mev_devSampleSubmission: another builder than the dev one.
	devSampleBuilderKeySeed = sha256.Sum256([]byte("gavel dev sample builder key"))
)

// DevSampleBonus is what a sample submission (mev_devSampleSubmission) adds
// to its block's earnings: twice the dev builder's bonus, so that the sample
// bids above the dev builder's bid for the slot (the floor) and the relay
// verifies it rather than skipping it.
var DevSampleBonus = new(uint256.Int).Mul(DevBuilderBonus, uint256.NewInt(2))

// DevBuilderBonus is what the dev builder adds to every block's earnings,
// so that even an empty block is a bid worth taking (0.001 ether).
var DevBuilderBonus = uint256.NewInt(1e15)

// RelayService is the relay wired into a node: the domain, its HTTP routes
// and, in --dev, the proposer flow that sends every slot through it. It is a
// node.Lifecycle: on real networks it follows the beacon nodes while it
// runs; at shutdown it waits for blocks still being published and flushes
// the bid traces.
type RelayService struct {
	proposer *devbeacon.Proposer // nil on real networks
	traces   *store.SubmissionBuffer

	// The relay: built at once in --dev, on real networks once the beacon
	// node gave the chain constants.
	current atomic.Pointer[relay.Relay]
	waiting atomic.Pointer[string] // why the relay is not ready
	readyMu sync.Mutex
	onReady []func(*relay.Relay)

	follow     func(ctx context.Context) // real networks: the beacon feed
	stopFollow context.CancelFunc
	followDone chan struct{}
	builder    *builder.Builder // --builder: also fed the beacon node's payload_attributes events

	stopPooled atomic.Pointer[func()] // ends keepPooledRoots
}

// Relay is the relay's domain; nil on a real network until the beacon node
// gave the chain constants (see Ready and OnReady).
func (s *RelayService) Relay() *relay.Relay { return s.current.Load() }

// Proposer is the dev proposer flow; nil on real networks.
func (s *RelayService) Proposer() *devbeacon.Proposer { return s.proposer }

// Start implements node.Lifecycle: on real networks it starts following the
// beacon nodes.
func (s *RelayService) Start() error {
	if s.follow != nil {
		ctx, cancel := context.WithCancel(context.Background())
		s.stopFollow, s.followDone = cancel, make(chan struct{})
		go func() {
			defer close(s.followDone)
			s.follow(ctx)
		}()
	}
	return nil
}

// Stop stops following the beacon nodes and waits until the follower has
// returned, waits for the blocks still being published, and flushes the bid
// traces still queued.
func (s *RelayService) Stop() error {
	if s.stopFollow != nil {
		s.stopFollow()
		<-s.followDone
	}
	if stop := s.stopPooled.Load(); stop != nil {
		(*stop)()
	}
	if r := s.Relay(); r != nil {
		r.Close()
	}
	return s.traces.Close()
}

// keepPooledRoots keeps the transactions roots of the transactions
// entering the node's pool in the relay's cache (beacon.KeepTransactionRoots),
// until Stop: a builder's block of public transactions then finds their
// roots there, and its header is computed without hashing them on the path
// to its bid.
func (s *RelayService) keepPooledRoots(c *chain.Chain, r *relay.Relay) {
	spec := r.Spec()
	stop := c.NotifyPooledTxs(func(txs [][]byte) { beacon.KeepTransactionRoots(spec, txs) })
	if old := s.stopPooled.Swap(&stop); old != nil {
		(*old)()
	}
}

// newDevRelay builds the relay of --dev: it runs on the dev chain's beacon
// constants, the dev validators register over HTTP and every slot goes
// through it (the proposer flow, which builds with n's local builder).
// prepare (nil: none) runs before each slot is built.
func newDevRelay(n *Node, cfg RelayConfig, st store.Store, beta relay.Beta, prepare func(context.Context, uint64)) (*RelayService, error) {
	key, err := relayKey(cfg.SecretKey, devRelayKeySeed[:])
	if err != nil {
		return nil, err
	}
	nvals := cfg.DevValidators
	if nvals == 0 {
		nvals = devbeacon.DefaultValidators
	}
	vals, err := devbeacon.DevValidators(nvals)
	if err != nil {
		return nil, err
	}
	builderKey, err := beacon.DeriveSecretKey(devBuilderKeySeed[:])
	if err != nil {
		return nil, err
	}
	genesis := n.chain.Genesis()
	bcfg := params.DevBeaconConfig(genesis.Time, uint64(n.beacon.Period()/time.Second), devbeacon.DevGenesisValidatorsRoot(genesis.Hash()))
	svc := &RelayService{traces: store.NewSubmissionBuffer(st, time.Second, 0, 0)}
	r, err := relay.New(relay.Config{
		Beacon: bcfg, SecretKey: key, CancellationsDisabled: cfg.CancellationsDisabled,
		GetHeaderCutoff: -1, GetPayloadCutoff: -1, // slots may be stepped by hand
		PublishAttempts: 1, // the local import: a failure is not a beacon node's hiccup
		Beta:            beta,
		Shared:          sharedOf(st),
		HeaderWait:      cfg.HeaderWait,
		BodyWait:        cfg.BodyWait,
		SteerDisabled:   cfg.SteerDisabled,
		Canonical:       n.chain,
	}, n.chain, st, devPublisher{engine: n.engine}, n.submissionRecorder(svc.traces))
	if err != nil {
		svc.traces.Close()
		return nil, err
	}
	svc.setRelay(r)
	svc.keepPooledRoots(n.chain, r)
	devBuilder, err := builder.New(builder.Config{
		Beacon: bcfg, SecretKey: builderKey, CoinbaseKey: chain.DevBuilderKey(), Bonus: DevBuilderBonus,
	}, criticalBlocks{n.submission.builder, n.sched})
	if err != nil {
		svc.Stop() // the relay (setRelay) and the traces
		return nil, err
	}
	svc.proposer, err = devbeacon.NewProposer(devbeacon.ProposerConfig{
		RelayURL: n.mev.URL, Beacon: bcfg, Spec: r.Spec(), Validators: vals, GasLimit: n.chain.Head().GasLimit,
		BetaGas:  func(slot uint64) uint64 { gas, _ := r.BetaGas(slot); return gas },
		Prepare:  prepare,
		Client:   n.cfg.Dev.ProposerClient,
		Fallback: devFallback(n.chain, beta),
	}, r, devBuilder, criticalPayloads{n.submission.PayloadBuilder(), n.sched})
	if err != nil {
		svc.Stop()
		return nil, err
	}
	n.submission.bundles.SetBuilderID(builderKey.PublicKey().String())
	mountRelay(relayapi.Scheduled(n.mev, n.mev), r, cfg, st)
	followEngine(n, svc)
	log.Info("Relay attached", "pubkey", r.Pubkey(), "validators", len(vals), "builder", builderKey.PublicKey())
	return svc, nil
}

// mountRelay mounts the relay's builder, proposer and data APIs (on
// relayapi.Scheduled: getHeader and getPayload as critical work, the data
// API as client work).
func mountRelay(mux relayapi.Mux, r *relay.Relay, cfg RelayConfig, st store.Store) {
	relayapi.MountBuilder(mux, r, relayapi.BuilderConfig{MaxSubmissionBytes: cfg.MaxSubmissionBytes})
	relayapi.MountProposer(mux, r)
	relayapi.MountData(mux, relay.NewData(st))
}

// relayKey parses the configured key, or derives the dev key from seed.
func relayKey(hexKey string, seed []byte) (*beacon.SecretKey, error) {
	if hexKey == "" {
		return beacon.DeriveSecretKey(seed)
	}
	b, err := hex.DecodeString(strings.TrimPrefix(hexKey, "0x"))
	if err != nil {
		return nil, fmt.Errorf("relay secret key: %w", err)
	}
	return beacon.SecretKeyFromBytes(b)
}

// devPublisher publishes a delivered block in --dev: newPayload into the
// local chain, made the head. It fails unless the chain says VALID, so the
// relay records a delivery only for a block the chain accepted; the dev
// proposer's own import of the payload it fetched with getPayload v1, and
// the driver's head update, are then no-ops.
type devPublisher struct {
	engine *chain.Engine
}

// Publish implements relay.Publisher.
func (p devPublisher) Publish(ctx context.Context, blk *beacon.SignedBlockContents, payload *beacon.ExecutionPayload, bundle *beacon.BlobsBundle, requests *beacon.ExecutionRequests) error {
	env := &engine.ExecutionPayloadEnvelope{ExecutionPayload: payload.ToExecutableData()}
	if bundle != nil {
		env.BlobsBundle = &engine.BlobsBundle{}
		for i := range bundle.Commitments {
			env.BlobsBundle.Commitments = append(env.BlobsBundle.Commitments, hexutil.Bytes(bundle.Commitments[i][:]))
		}
	}
	if requests != nil {
		reqs, err := requests.EngineRequests()
		if err != nil {
			return err
		}
		env.Requests = reqs
	}
	if err := p.engine.Import(ctx, env, blk.ParentRoot()); err != nil {
		return err
	}
	// Make it the head (and sync the chain database) before the relay
	// records the delivery: a crash right after the record then restarts
	// on this block, never on a chain that replaced it.
	hash := env.ExecutionPayload.BlockHash
	return p.engine.SetHead(ctx, hash, hash, hash)
}

// sharedOf is what the relay shares with other instances on st: nil (a
// relay of its own) unless st is PostgreSQL.
func sharedOf(st store.Store) relay.Sharing {
	if sh := store.SharedOf(st); sh != nil {
		return sh
	}
	return nil
}

// storeCloser closes the node's database when the node stops.
type storeCloser struct{ st store.Store }

// Start implements node.Lifecycle.
func (c storeCloser) Start() error { return nil }

// Stop closes the store.
func (c storeCloser) Stop() error { return c.st.Close() }

// DevBuilderCoinbase is the fee recipient of the dev builder's blocks.
func DevBuilderCoinbase() common.Address { return chain.DevBuilderAddress() }

// Errors of the relay's start on a real network.
var (
	// ErrRelayConfig: the relay flags are incomplete or malformed.
	ErrRelayConfig = errors.New("relay configuration")
	// ErrRelayNotReady: the relay is waiting for the beacon node.
	ErrRelayNotReady = errors.New("relay not ready")
)

// attributesWarnSlots is how many slots without any payload attributes
// make the relay warn: every submission fails until they come.
const attributesWarnEpochs = 2

// newNetworkRelay builds the relay for a real network. The routes are
// mounted at once and answer 503 until the relay has its chain constants:
// the beacon client asks the beacon nodes (--relay.beacon) for them until
// one answers, checks them against the chain's preset, builds the relay and
// then follows head, duties, known validators and payload attributes; the
// relay publishes delivered blocks to the beacon nodes.
func newNetworkRelay(n *Node, cfg RelayConfig, st store.Store, beta relay.Beta) (*RelayService, error) {
	switch {
	case cfg.SecretKey == "":
		return nil, fmt.Errorf("%w: --relay.beacon is set but --relay.secretkey is missing: the relay needs its BLS secret key (32 bytes hex) to sign the bids it serves", ErrRelayConfig)
	case len(cfg.Beacon) == 0:
		return nil, fmt.Errorf("%w: --relay.secretkey is set but --relay.beacon is missing: on a real network the relay needs beacon node URLs for its chain constants, duties and validators", ErrRelayConfig)
	}
	key, err := relayKey(cfg.SecretKey, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: --relay.secretkey: %v", ErrRelayConfig, err)
	}
	// Ask again at most every 2 s: the relay is not ready until a beacon
	// node answers, and a proposer's registrations fail meanwhile.
	client, err := beaconclient.New(cfg.Beacon, beaconclient.Options{MaxRetryDelay: 2 * time.Second})
	if err != nil {
		return nil, fmt.Errorf("%w: --relay.beacon: %v", ErrRelayConfig, err)
	}
	preset := params.BeaconConfigForChain(n.chain.ChainID())
	traces := store.NewSubmissionBuffer(st, time.Second, 0, 0)
	svc := &RelayService{traces: traces}
	svc.setWaiting(fmt.Sprintf("waiting for a beacon node (%s) to give the chain constants", strings.Join(client.Nodes(), ", ")))
	late := lateRelay{svc}
	gated := gatedMux{relayapi.Scheduled(n.mev, n.mev), svc}
	relayapi.MountBuilder(gated, late, relayapi.BuilderConfig{MaxSubmissionBytes: cfg.MaxSubmissionBytes})
	relayapi.MountProposer(gated, late)
	relayapi.MountData(relayapi.Scheduled(n.mev, n.mev), relay.NewData(st))

	svc.follow = func(ctx context.Context) {
		var bcfg *params.BeaconConfig
		var spec *beacon.Spec
		err := client.Retry(ctx, "chain constants", func(ctx context.Context) (err error) {
			bcfg, spec, err = client.NetworkConfig(ctx, preset, cfg.Spec)
			return err
		}, beaconclient.ErrMismatch, beaconclient.ErrPreset)
		if errors.Is(err, beaconclient.ErrMismatch) || errors.Is(err, beaconclient.ErrPreset) {
			log.Error("Relay not started: the beacon node's chain does not fit", "err", err)
			svc.setWaiting(err.Error())
			return
		}
		if err != nil {
			return
		}
		r, err := relay.New(relay.Config{Beacon: bcfg, Spec: spec, SecretKey: key, CancellationsDisabled: cfg.CancellationsDisabled, Beta: beta, Shared: sharedOf(st),
			HeaderWait: cfg.HeaderWait, BodyWait: cfg.BodyWait, SteerDisabled: cfg.SteerDisabled, Canonical: n.chain}, n.chain, st, client, n.submissionRecorder(traces))
		if err != nil {
			log.Error("Relay not started", "err", err)
			svc.setWaiting(err.Error())
			return
		}
		svc.setRelay(r)
		svc.keepPooledRoots(n.chain, r)
		log.Info("Relay attached", "pubkey", r.Pubkey(), "network", bcfg.Name, "genesis", bcfg.GenesisTime, "slot", bcfg.SecondsPerSlot,
			"epoch", bcfg.SlotsPerEpoch, "preset", spec, "fork", bcfg.ForkAtSlot(bcfg.SlotAt(uint64(time.Now().Unix()))), "beacon", client.Nodes())
		warnAt := uint64(0)
		err = client.Follow(ctx, bcfg, false, beaconclient.Handlers{
			Head: func(slot uint64) {
				r.SetHeadSlot(slot)
				// Without payload attributes every submission fails.
				window := attributesWarnEpochs * bcfg.SlotsPerEpoch
				if last := r.LastAttributesSlot(); slot >= last+window && slot >= warnAt {
					log.Warn("No payload attributes for the relay: every block submission fails until they come (from the beacon node's payload_attributes events or the consensus client's engine_forkchoiceUpdated)",
						"head", slot, "lastAttributes", last)
					warnAt = slot + window
				}
			},
			Duties: func(ds []beaconclient.ProposerDuty) {
				duties := make([]relay.Duty, len(ds))
				for i, d := range ds {
					duties[i] = relay.Duty{Slot: d.Slot, ValidatorIndex: d.ValidatorIndex, Pubkey: d.Pubkey}
				}
				r.SetDuties(duties)
			},
			Validators: r.SetKnownValidators,
			PayloadAttributes: func(ev beaconclient.PayloadAttributesEvent) {
				feedAttributes(r, ev)
				if b := svc.builder; b != nil {
					b.OnAttributes(ev.ProposalSlot, common.Hash(ev.ParentBlockHash), eventAttributes(ev))
				}
			},
		})
		if err != nil && !errors.Is(err, context.Canceled) {
			log.Error("Relay stopped following the beacon nodes", "err", err)
		}
	}
	followEngine(n, svc)
	log.Info("Relay waiting for the beacon node's chain constants", "beacon", client.Nodes(), "preset", presetName(preset))
	return svc, nil
}

func presetName(p *params.BeaconConfig) string {
	if p == nil {
		return "none (custom network)"
	}
	return p.Name
}

// setRelay makes r the relay and runs the OnReady callbacks.
func (s *RelayService) setRelay(r *relay.Relay) {
	s.readyMu.Lock()
	s.current.Store(r)
	fns := s.onReady
	s.onReady = nil
	s.readyMu.Unlock()
	for _, fn := range fns {
		fn(r)
	}
}

// OnReady calls fn with the relay once it exists: at once if it does, or
// when the beacon node gave the chain constants (real networks).
func (s *RelayService) OnReady(fn func(*relay.Relay)) {
	s.readyMu.Lock()
	r := s.current.Load()
	if r == nil {
		s.onReady = append(s.onReady, fn)
	}
	s.readyMu.Unlock()
	if r != nil {
		fn(r)
	}
}

// setWaiting records why the relay is not ready.
func (s *RelayService) setWaiting(why string) { s.waiting.Store(&why) }

// Ready reports whether the relay serves: on a real network, once the
// beacon node gave its chain constants. Its error is /readyz's message.
func (s *RelayService) Ready() error {
	if s.Relay() != nil {
		return nil
	}
	why := "starting"
	if w := s.waiting.Load(); w != nil {
		why = *w
	}
	return fmt.Errorf("%w: %s", ErrRelayNotReady, why)
}

// gatedMux mounts routes that answer 503 until the relay exists.
type gatedMux struct {
	mux interface{ Handle(string, http.Handler) }
	svc *RelayService
}

// Handle mounts h behind the gate.
func (g gatedMux) Handle(pattern string, h http.Handler) {
	g.mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if err := g.svc.Ready(); err != nil {
			mevapi.WriteError(w, http.StatusServiceUnavailable, err.Error())
			return
		}
		h.ServeHTTP(w, req)
	}))
}

// lateRelay is the relay as the API handlers see it on a real network: the
// relay built once the beacon node answered. gatedMux lets no request
// through before that.
type lateRelay struct{ svc *RelayService }

func (l lateRelay) BeaconConfig() *params.BeaconConfig { return l.svc.Relay().BeaconConfig() }
func (l lateRelay) Spec() *beacon.Spec                 { return l.svc.Relay().Spec() }
func (l lateRelay) Validators() []relay.ValidatorDuty  { return l.svc.Relay().Validators() }
func (l lateRelay) CheckBidTrace(t *beacon.BidTrace, fork params.ConsensusFork) error {
	return l.svc.Relay().CheckBidTrace(t, fork)
}
func (l lateRelay) CheckCancellations(requested bool) error {
	return l.svc.Relay().CheckCancellations(requested)
}
func (l lateRelay) Submit(ctx context.Context, req relay.SubmitRequest) (relay.SubmitOutcome, error) {
	return l.svc.Relay().Submit(ctx, req)
}
func (l lateRelay) CheckHeaderTrace(t *beacon.BidTrace, fork params.ConsensusFork) error {
	return l.svc.Relay().CheckHeaderTrace(t, fork)
}
func (l lateRelay) SubmitHeader(ctx context.Context, req relay.HeaderRequest) (relay.SubmitOutcome, error) {
	return l.svc.Relay().SubmitHeader(ctx, req)
}
func (l lateRelay) KnownBuilder(pk beacon.BLSPubkey, slot uint64) bool {
	return l.svc.Relay().KnownBuilder(pk, slot)
}

func (l lateRelay) StartSignatureCheck(trace *beacon.BidTrace, sig beacon.BLSSignature) *relay.SignatureCheck {
	return l.svc.Relay().StartSignatureCheck(trace, sig)
}
func (l lateRelay) RegisterValidators(ctx context.Context, regs []beacon.SignedValidatorRegistration) error {
	return l.svc.Relay().RegisterValidators(ctx, regs)
}
func (l lateRelay) MaxRegistrations() int { return l.svc.Relay().MaxRegistrations() }
func (l lateRelay) GetHeader(ctx context.Context, slot uint64, parent beacon.Root, proposer beacon.BLSPubkey) (*beacon.SignedBuilderBid, error) {
	return l.svc.Relay().GetHeader(ctx, slot, parent, proposer)
}
func (l lateRelay) GetPayload(ctx context.Context, blk *beacon.SignedBlindedBeaconBlock, async bool) (*relay.Delivery, error) {
	return l.svc.Relay().GetPayload(ctx, blk, async)
}

// feedAttributes hands a payload_attributes event to the relay.
func feedAttributes(r *relay.Relay, ev beaconclient.PayloadAttributesEvent) {
	a := eventAttributes(ev)
	err := r.SetPayloadAttributes(ev.ProposalSlot, common.Hash(ev.ParentBlockHash), relay.PayloadAttributes{
		Timestamp: a.Timestamp, PrevRandao: a.PrevRandao, Withdrawals: a.Withdrawals, ParentBeaconRoot: a.ParentBeaconRoot,
	})
	if err != nil {
		log.Warn("Relay rejected payload attributes", "slot", ev.ProposalSlot, "err", err)
	}
}

// eventAttributes converts a payload_attributes event's attributes.
func eventAttributes(ev beaconclient.PayloadAttributesEvent) chain.PayloadAttributes {
	ws := make([]*types.Withdrawal, len(ev.Withdrawals))
	for i, w := range ev.Withdrawals {
		ws[i] = &types.Withdrawal{Index: w.Index, Validator: w.ValidatorIndex, Address: common.Address(w.Address), Amount: w.Amount}
	}
	return chain.PayloadAttributes{
		Timestamp: ev.Timestamp, PrevRandao: common.Hash(ev.PrevRandao), FeeRecipient: common.Address(ev.SuggestedFeeRecipient),
		Withdrawals: ws, ParentBeaconRoot: common.Hash(ev.ParentBeaconBlockRoot),
	}
}

// followEngine feeds the relay the payload attributes the consensus client
// sends with engine_forkchoiceUpdated: the source for beacon nodes without
// the payload_attributes event topic (and a second one beside it).
func followEngine(n *Node, svc *RelayService) {
	n.engine.Attributes().Subscribe(func(a chain.ForkchoiceAttributes) {
		r := svc.Relay()
		if r == nil {
			return // not ready: no chain constants yet
		}
		slot, err := r.SetForkchoiceAttributes(a)
		if err != nil {
			log.Warn("Relay ignored forkchoiceUpdated payload attributes", "head", a.Head, "timestamp", a.Timestamp, "err", err)
			return
		}
		log.Debug("Payload attributes from forkchoiceUpdated", "slot", slot, "head", a.Head)
	})
}

// DevRelayAPI is the dev relay's part of the mev namespace.
type DevRelayAPI struct{ n *Node }

// DevSampleSubmission returns a valid builder submission (JSON) for the next
// slot on the current head, signed by a sample builder key, for trying
// POST /relay/v1/builder/blocks on --dev: mev_devSampleSubmission. Post it
// within the slot it is for.
func (api *DevRelayAPI) DevSampleSubmission(ctx context.Context) (json.RawMessage, error) {
	key, err := beacon.DeriveSecretKey(devSampleBuilderKeySeed[:])
	if err != nil {
		return nil, err
	}
	sub, err := api.n.relay.proposer.SampleSubmission(ctx, api.n.beacon.NextRequest(), key, DevSampleBonus)
	if err != nil {
		return nil, err
	}
	return sub.MarshalJSON()
}
