package eth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
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
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/internal/store"
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

// DevBuilderBonus is what the dev builder adds to every block's earnings,
// so that even an empty block is a bid worth taking (0.001 ether).
var DevBuilderBonus = uint256.NewInt(1e15)

// RelayService is the relay wired into a node: the domain, its HTTP routes
// and, in --dev, the proposer flow that sends every slot through it. It is a
// node.Lifecycle: on real networks it follows the beacon nodes while it
// runs; at shutdown it waits for blocks still being published and flushes
// the bid traces.
type RelayService struct {
	relay    *relay.Relay
	proposer *devbeacon.Proposer // nil on real networks
	traces   *store.SubmissionBuffer

	follow     func(ctx context.Context) // real networks: the beacon feed
	stopFollow context.CancelFunc
	followDone chan struct{}
}

// Relay is the relay's domain.
func (s *RelayService) Relay() *relay.Relay { return s.relay }

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
	s.relay.Close()
	return s.traces.Close()
}

// newDevRelay builds the relay of --dev: it runs on the dev chain's beacon
// constants, the dev validators register over HTTP and every slot goes
// through it (the proposer flow, which builds with n's local builder).
func newDevRelay(n *Node, cfg RelayConfig, st store.Store, beta relay.Beta) (*RelayService, error) {
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
	svc.relay, err = relay.New(relay.Config{
		Beacon: bcfg, SecretKey: key, CancellationsDisabled: cfg.CancellationsDisabled,
		GetHeaderCutoff: -1, GetPayloadCutoff: -1, // slots may be stepped by hand
		Beta:   beta,
		Shared: sharedOf(st),
	}, n.chain, st, devPublisher{engine: n.engine}, svc.traces)
	if err != nil {
		svc.traces.Close()
		return nil, err
	}
	svc.proposer, err = devbeacon.NewProposer(devbeacon.ProposerConfig{
		RelayURL: n.mev.URL, Beacon: bcfg, Validators: vals, GasLimit: n.chain.Head().GasLimit,
		BuilderKey: builderKey, CoinbaseKey: chain.DevBuilderKey(), Bonus: DevBuilderBonus,
		BetaGas: func(slot uint64) uint64 { return svc.relay.BetaGas(context.Background(), slot) },
	}, svc.relay, n.submission.builder, n.submission.PayloadBuilder())
	if err != nil {
		svc.traces.Close()
		return nil, err
	}
	n.submission.bundles.SetBuilderID(builderKey.PublicKey().String())
	mountRelay(n.mev, svc.relay, cfg, st)
	log.Info("Relay attached", "pubkey", svc.relay.Pubkey(), "validators", len(vals), "builder", builderKey.PublicKey())
	return svc, nil
}

// mountRelay mounts the relay's builder, proposer and data APIs.
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

// newNetworkRelay builds the relay for a public network: the network's
// beacon constants, the beacon client (--relay.beacon) feeding head,
// duties, known validators and payload attributes, and publishing blocks to
// the beacon nodes.
func newNetworkRelay(n *Node, cfg RelayConfig, st store.Store, beta relay.Beta) (*RelayService, error) {
	if len(cfg.Beacon) == 0 {
		return nil, errors.New("relay: --relay.secretkey needs --relay.beacon (beacon node URLs)")
	}
	bcfg := params.BeaconConfigForChain(n.chain.ChainID())
	if bcfg == nil {
		return nil, fmt.Errorf("relay: no beacon constants for chain id %d", n.chain.ChainID())
	}
	key, err := relayKey(cfg.SecretKey, nil)
	if err != nil {
		return nil, err
	}
	client, err := beaconclient.New(cfg.Beacon, beaconclient.Options{})
	if err != nil {
		return nil, fmt.Errorf("relay: %w", err)
	}
	traces := store.NewSubmissionBuffer(st, time.Second, 0, 0)
	r, err := relay.New(relay.Config{Beacon: bcfg, SecretKey: key, CancellationsDisabled: cfg.CancellationsDisabled, Beta: beta, Shared: sharedOf(st)}, n.chain, st, client, traces)
	if err != nil {
		traces.Close()
		return nil, err
	}
	mountRelay(n.mev, r, cfg, st)
	svc := &RelayService{relay: r, traces: traces}
	svc.follow = func(ctx context.Context) {
		err := client.Follow(ctx, bcfg, false, beaconclient.Handlers{
			Head: r.SetHeadSlot,
			Duties: func(ds []beaconclient.ProposerDuty) {
				duties := make([]relay.Duty, len(ds))
				for i, d := range ds {
					duties[i] = relay.Duty{Slot: d.Slot, ValidatorIndex: d.ValidatorIndex, Pubkey: d.Pubkey}
				}
				r.SetDuties(duties)
			},
			Validators:        r.SetKnownValidators,
			PayloadAttributes: func(ev beaconclient.PayloadAttributesEvent) { feedAttributes(r, ev) },
		})
		if err != nil && !errors.Is(err, context.Canceled) {
			log.Error("Relay stopped following the beacon nodes", "err", err)
		}
	}
	log.Info("Relay attached", "pubkey", r.Pubkey(), "network", bcfg.Name, "beacon", client.Nodes())
	return svc, nil
}

// feedAttributes hands a payload_attributes event to the relay.
func feedAttributes(r *relay.Relay, ev beaconclient.PayloadAttributesEvent) {
	ws := make([]*types.Withdrawal, len(ev.Withdrawals))
	for i, w := range ev.Withdrawals {
		ws[i] = &types.Withdrawal{Index: w.Index, Validator: w.ValidatorIndex, Address: common.Address(w.Address), Amount: w.Amount}
	}
	err := r.SetPayloadAttributes(ev.ProposalSlot, common.Hash(ev.ParentBlockHash), relay.PayloadAttributes{
		Timestamp: ev.Timestamp, PrevRandao: common.Hash(ev.PrevRandao), Withdrawals: ws, ParentBeaconRoot: common.Hash(ev.ParentBeaconBlockRoot),
	})
	if err != nil {
		log.Warn("Relay rejected payload attributes", "slot", ev.ProposalSlot, "err", err)
	}
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
	sub, err := api.n.relay.proposer.SampleSubmission(ctx, api.n.beacon.NextRequest(), key)
	if err != nil {
		return nil, err
	}
	return sub.MarshalJSON()
}
