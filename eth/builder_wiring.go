package eth

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/log"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/builder"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/internal/sched"
	"github.com/gavel-eth/gavel/miner"
	"github.com/gavel-eth/gavel/params"
)

// BuilderConfig is the [Mev.Builder] section: builder mode (--builder).
type BuilderConfig struct {
	// Enabled builds and submits a block for every slot with payload
	// attributes (--builder).
	Enabled bool `toml:",omitempty"`
	// SecretKey is the builder's BLS secret key, 32 bytes hex
	// (--builder.secretkey). Required; --dev uses the dev builder key.
	SecretKey string `toml:",omitempty"`
	// CoinbaseKey is the secp256k1 key (hex) of the funded account the
	// builder builds with and pays proposers from with a final transaction
	// (--builder.coinbasekey). Empty: the block's fee recipient is the
	// proposer. --dev uses the dev builder account.
	CoinbaseKey string `toml:",omitempty"`
	// Relays are external relays' base URLs (--builder.relays); the
	// in-process relay, when it runs, is always submitted to.
	Relays []string `toml:",omitempty"`
	// Debounce is how long a rebuild waits for more bundles or
	// transactions, the least time between two builds (20 ms).
	Debounce time.Duration `toml:",omitempty"`
	// MaxBuilds bounds the builds of one slot (16).
	MaxBuilds int `toml:",omitempty"`
	// SlotOpen is how long into its slot a slot is still rebuilt (1 s);
	// negative: until the next slot's attributes (tests with manual slots).
	SlotOpen time.Duration `toml:"-"`
}

// ErrBuilderConfig is returned when --builder is on without what it needs.
var ErrBuilderConfig = errors.New("builder mode misconfigured")

// newBuilder wires builder mode into a node being assembled, after the relay:
// the payload attributes of engine_forkchoiceUpdated (and of the beacon
// node's events, when the relay follows one) start a slot's build, new
// bundles and transactions a rebuild, and the blocks go to the in-process
// relay and to cfg.Relays. On a real network the in-process relay gets its
// chain constants from the beacon node once it answers; the builder is then
// built and started. The returned service is the builder's lifecycle.
func newBuilder(n *Node, cfg BuilderConfig) (*builderService, error) {
	if !cfg.Enabled {
		return nil, nil
	}
	dev := n.beacon != nil
	var external []builder.Relay
	for _, u := range cfg.Relays {
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			return nil, fmt.Errorf("%w: --builder.relays: %q is not an http(s) URL", ErrBuilderConfig, u)
		}
		external = append(external, builder.NewHTTPRelay(u, nil))
	}
	if n.relay == nil && len(external) == 0 {
		return nil, fmt.Errorf("%w: nowhere to submit: run the in-process relay or give --builder.relays", ErrBuilderConfig)
	}
	bcCfg := builder.Config{Debounce: cfg.Debounce, MaxBuilds: cfg.MaxBuilds, SlotOpen: cfg.SlotOpen}
	var err error
	switch {
	case cfg.SecretKey != "":
		if bcCfg.SecretKey, err = relayKey(cfg.SecretKey, nil); err != nil {
			return nil, fmt.Errorf("%w: --builder.secretkey: %v", ErrBuilderConfig, err)
		}
	case dev:
		if bcCfg.SecretKey, err = relayKey("", devBuilderKeySeed[:]); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%w: %v", ErrBuilderConfig, builder.ErrNoKey)
	}
	switch {
	case cfg.CoinbaseKey != "":
		if bcCfg.CoinbaseKey, err = coinbaseKey(cfg.CoinbaseKey); err != nil {
			return nil, err
		}
	case dev:
		bcCfg.CoinbaseKey, bcCfg.Bonus = chain.DevBuilderKey(), DevBuilderBonus
	}
	svc := &builderService{chain: n.chain}
	n.submission.bundles.Notify(svc.kick)
	build := func(bcfg *params.BeaconConfig, spec *beacon.Spec, local *relay.Relay) (*builder.Builder, error) {
		relays := external
		if local != nil {
			relays = append([]builder.Relay{builder.LocalRelay{R: local}}, external...)
		}
		c := bcCfg
		c.Beacon, c.Spec = bcfg, spec
		b, err := builder.New(c, criticalBlocks{n.submission.builder, n.sched})
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBuilderConfig, err)
		}
		b.Live(n.chain, relays...)
		n.engine.Attributes().Subscribe(func(a chain.ForkchoiceAttributes) {
			if slot, err := relay.AttributesSlot(bcfg, a.Timestamp); err == nil {
				b.OnAttributes(slot, a.Head, a.PayloadAttributes)
			}
		})
		names := make([]string, len(relays))
		for i, r := range relays {
			names[i] = r.Name()
		}
		log.Info("Builder attached", "pubkey", b.Pubkey(), "relays", names, "payment", paymentMode(bcCfg.CoinbaseKey))
		return b, nil
	}
	if n.relay != nil && n.relay.Relay() == nil {
		// Real network: build once the relay has the beacon node's constants.
		rs := n.relay
		rs.OnReady(func(r *relay.Relay) {
			b, err := build(r.BeaconConfig(), r.Spec(), r)
			if err != nil {
				log.Error("Builder not started", "err", err)
				return
			}
			rs.builder = b
			if err := svc.start(b); err != nil {
				log.Error("Builder not started", "err", err)
			}
		})
		return svc, nil
	}
	// Without the in-process relay the builder submits with the mainnet
	// preset's limits: submissions have the same bytes under every preset.
	var bcfg *params.BeaconConfig
	var local *relay.Relay
	spec := beacon.MainnetSpec
	if n.relay != nil {
		local = n.relay.Relay()
		bcfg, spec = local.BeaconConfig(), local.Spec()
	} else {
		bcfg = params.BeaconConfigForChain(n.chain.ChainID())
	}
	if bcfg == nil {
		return nil, fmt.Errorf("%w: no beacon constants for chain id %d: run the relay too (--relay.secretkey, --relay.beacon)", ErrBuilderConfig, n.chain.ChainID())
	}
	b, err := build(bcfg, spec, local)
	if err != nil {
		return nil, err
	}
	if n.relay != nil {
		n.relay.builder = b
	}
	svc.b = b
	return svc, nil
}

// coinbaseKey parses --builder.coinbasekey.
func coinbaseKey(hexKey string) (*ecdsa.PrivateKey, error) {
	k, err := crypto.HexToECDSA(strings.TrimPrefix(hexKey, "0x"))
	if err != nil {
		return nil, fmt.Errorf("%w: --builder.coinbasekey must be a secp256k1 key, 32 bytes hex: %v", ErrBuilderConfig, err)
	}
	return k, nil
}

func paymentMode(k *ecdsa.PrivateKey) string {
	if k == nil {
		return "fee recipient"
	}
	return "final tx from " + crypto.PubkeyToAddress(k.PublicKey).Hex()
}

// builderService runs the builder and its rebuild trigger on new pool
// transactions as a node.Lifecycle. On a real network the builder comes
// after the node started (start).
type builderService struct {
	mu      sync.Mutex
	b       *builder.Builder
	chain   *chain.Chain
	started bool
	stopped bool
	stopTxs func()
}

// current is the builder, nil until it is built.
func (s *builderService) current() *builder.Builder {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b
}

// kick asks the builder, once there is one, to rebuild.
func (s *builderService) kick() {
	s.mu.Lock()
	b := s.b
	s.mu.Unlock()
	if b != nil {
		b.Kick()
	}
}

// Start implements node.Lifecycle.
func (s *builderService) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started = true
	return s.startLocked()
}

// start sets and starts a builder built after the node started.
func (s *builderService) start(b *builder.Builder) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b = b
	if !s.started || s.stopped {
		return nil
	}
	return s.startLocked()
}

func (s *builderService) startLocked() error {
	if s.b == nil {
		return nil
	}
	if err := s.b.Start(); err != nil {
		return err
	}
	s.stopTxs = s.chain.NotifyNewTxs(s.b.Kick)
	return nil
}

// Stop implements node.Lifecycle.
func (s *builderService) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	if s.stopTxs != nil {
		s.stopTxs()
	}
	if s.b == nil {
		return nil
	}
	return s.b.Stop()
}

// criticalBlocks builds the builder's blocks (builder mode, the dev
// builder) as the slot's critical work: no client turn is handed out while
// a block is built. Sending it to a relay is not: the relay's reading of a
// submission is its client work, as any builder's.
type criticalBlocks struct {
	builder.BlockBuilder
	sched *sched.Scheduler
}

// BuildPaying builds a block as critical work.
func (c criticalBlocks) BuildPaying(ctx context.Context, parent *types.Header, attrs chain.BuildAttrs, pay miner.Payment) (*miner.Result, *uint256.Int, error) {
	defer c.sched.Critical()()
	return c.BlockBuilder.BuildPaying(ctx, parent, attrs, pay)
}

// criticalPayloads builds the dev proposer's local block as the slot's
// critical work.
type criticalPayloads struct {
	devbeacon.PayloadBuilder
	sched *sched.Scheduler
}

// BuildPayload builds the local block as critical work.
func (c criticalPayloads) BuildPayload(ctx context.Context, req devbeacon.PayloadRequest) (*engine.ExecutionPayloadEnvelope, error) {
	defer c.sched.Critical()()
	return c.PayloadBuilder.BuildPayload(ctx, req)
}
