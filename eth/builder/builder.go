// Package builder is gavel's block builder for relays: for a slot's payload
// attributes it builds the alpha block on the head with the local builder
// (miner/: eth_sendBundle bundles, then mempool transactions by tip), pays
// the proposer with the block's final transaction, signs the bid trace with
// the builder's BLS key and submits the block to relays: the in-process
// relay directly, external relays over the builder-specs HTTP API. The
// --dev proposer flow and --builder on live chains use this one builder.
package builder

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/miner"
	"github.com/gavel-eth/gavel/params"
)

var (
	buildTimer        = metrics.NewRegisteredTimer("gavel/builder/build", nil)
	firstBidTimer     = metrics.NewRegisteredTimer("gavel/builder/firstbid", nil)
	submissionsSent   = metrics.NewRegisteredMeter("gavel/builder/submissions", nil)
	submissionsFailed = metrics.NewRegisteredMeter("gavel/builder/submissions/failed", nil)
	rebuildsMeter     = metrics.NewRegisteredMeter("gavel/builder/rebuilds", nil)
)

// ErrNoKey is returned when the builder is turned on without its BLS key.
var ErrNoKey = errors.New("the builder needs its BLS secret key (--builder.secretkey, 32 bytes hex)")

// Proposer is the registered proposer of a slot as a relay knows it: who
// the bid is for, where the payment goes and the gas limit it asked for.
type Proposer struct {
	Pubkey       beacon.BLSPubkey
	FeeRecipient common.Address
	GasLimit     uint64
	// BetaGas is the gas the relay keeps for the slot's beta block (its
	// validators list's beta_gas; 0 when it appends none): the builder
	// leaves it unused (Job.Reserve).
	BetaGas uint64
}

// Relay is a relay the builder submits to.
type Relay interface {
	// Name identifies the relay in logs.
	Name() string
	// Proposer returns the registered proposer of slot; ok is false when
	// the relay knows none (the builder then submits nothing to it).
	Proposer(ctx context.Context, slot uint64) (p Proposer, ok bool, err error)
	// Submit submits a signed block.
	Submit(ctx context.Context, sub *beacon.Submission) error
}

// BlockBuilder builds a block that pays its proposer (miner.Builder).
type BlockBuilder interface {
	BuildPaying(ctx context.Context, parent *types.Header, attrs chain.BuildAttrs, pay miner.Payment) (*miner.Result, *uint256.Int, error)
}

// Job is one slot's block to build: the parent and the slot's payload
// attributes (the fee recipient in Attrs is ignored: the proposer's
// registered one is paid).
type Job struct {
	Slot   uint64
	Parent *types.Header
	Attrs  chain.PayloadAttributes
	// Reserve is gas of the block's limit left unused: the slot's beta
	// block's (the relay's beta_gas).
	Reserve uint64
}

// Config configures the builder.
type Config struct {
	// Beacon is the network's consensus constants (fork of a slot, the
	// builder signing domain, slot times).
	Beacon *params.BeaconConfig
	// Spec is the beacon chain's consensus preset (nil: mainnet); it sets
	// the list limits of the submissions.
	Spec *beacon.Spec
	// SecretKey is the builder's BLS key: it signs every bid trace.
	SecretKey *beacon.SecretKey
	// CoinbaseKey is the execution account the builder builds with and pays
	// proposers from with a final transaction. Nil: the block's fee
	// recipient is the proposer's, paid by balance difference.
	CoinbaseKey *ecdsa.PrivateKey
	// Bonus is added to the payment (needs CoinbaseKey; nil: none).
	Bonus *uint256.Int
	// Debounce is how long a rebuild waits for more bundles or transactions
	// after one arrives, and so the least time between two builds (20 ms).
	Debounce time.Duration
	// MaxBuilds bounds the builds of one slot (16).
	MaxBuilds int
	// SlotOpen is how long after the start of its slot a slot is still
	// rebuilt (1 s); negative: until the next slot's attributes (tests).
	SlotOpen time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Defaults of Config.
const (
	DefaultDebounce  = 20 * time.Millisecond
	DefaultMaxBuilds = 16
	DefaultSlotOpen  = time.Second
)

// Builder builds and submits blocks for relays. Create it with New; on live
// chains run it as a node.Lifecycle and feed it attributes (OnAttributes).
type Builder struct {
	cfg    Config
	blocks BlockBuilder
	domain beacon.Domain
	pubkey beacon.BLSPubkey

	// live mode (slots.go)
	headers HeaderSource
	relays  []Relay
	attrsCh chan slotAttrs
	kick    chan struct{}
	stop    context.CancelFunc
	done    chan struct{}
}

// New creates a builder.
func New(cfg Config, blocks BlockBuilder) (*Builder, error) {
	if cfg.SecretKey == nil {
		return nil, ErrNoKey
	}
	if cfg.Beacon == nil || blocks == nil {
		return nil, errors.New("builder needs beacon constants and a block builder")
	}
	if cfg.Bonus != nil && cfg.CoinbaseKey == nil {
		return nil, errors.New("builder: a bonus needs a coinbase key to pay it from")
	}
	if cfg.Debounce <= 0 {
		cfg.Debounce = DefaultDebounce
	}
	if cfg.MaxBuilds <= 0 {
		cfg.MaxBuilds = DefaultMaxBuilds
	}
	if cfg.SlotOpen == 0 {
		cfg.SlotOpen = DefaultSlotOpen
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Builder{
		cfg: cfg, blocks: blocks, domain: beacon.BuilderDomain(cfg.Beacon), pubkey: cfg.SecretKey.PublicKey(),
		attrsCh: make(chan slotAttrs, 8), kick: make(chan struct{}, 1),
	}, nil
}

// As returns a builder for one-off builds (Build) that signs with key and
// adds bonus (nil: none) to its payment: another builder's blocks from the
// same block builder and coinbase account (--dev's sample submissions). It
// is not for live mode.
func (b *Builder) As(key *beacon.SecretKey, bonus *uint256.Int) (*Builder, error) {
	cfg := b.cfg
	cfg.SecretKey, cfg.Bonus = key, bonus
	return New(cfg, b.blocks)
}

// Pubkey is the builder's BLS public key.
func (b *Builder) Pubkey() beacon.BLSPubkey { return b.pubkey }

// Built is a built block wrapped as a signed submission.
type Built struct {
	Submission *beacon.Submission
	Value      *uint256.Int
	Result     *miner.Result
}

// Build builds job's block for proposer p and signs it as a submission of
// the slot's fork.
func (b *Builder) Build(ctx context.Context, job Job, p Proposer) (*Built, error) {
	start := time.Now()
	attrs := chain.BuildAttrs{
		Timestamp: job.Attrs.Timestamp, Random: job.Attrs.PrevRandao, Withdrawals: job.Attrs.Withdrawals, GasLimit: p.GasLimit,
		Reserve: job.Reserve,
	}
	// The chain uses the parent beacon root from Cancun on and ignores it
	// before.
	root := job.Attrs.ParentBeaconRoot
	attrs.BeaconRoot = &root
	res, value, err := b.blocks.BuildPaying(ctx, job.Parent, attrs, miner.Payment{Key: b.cfg.CoinbaseKey, To: p.FeeRecipient, Bonus: b.cfg.Bonus})
	if err != nil {
		return nil, fmt.Errorf("building the block of slot %d: %w", job.Slot, err)
	}
	sub, err := b.sign(job.Slot, p, res, value)
	if err != nil {
		return nil, fmt.Errorf("signing the block of slot %d: %w", job.Slot, err)
	}
	buildTimer.UpdateSince(start)
	return &Built{Submission: sub, Value: value, Result: res}, nil
}

// sign wraps a built block as a signed submission of the slot's fork.
func (b *Builder) sign(slot uint64, p Proposer, res *miner.Result, value *uint256.Int) (*beacon.Submission, error) {
	fork := b.cfg.Beacon.ForkAtSlot(slot)
	env := res.Envelope
	payload, err := beacon.ExecutionPayloadFromExecutableData(fork, env.ExecutionPayload)
	if err != nil {
		return nil, err
	}
	pv := payload.View()
	trace := beacon.BidTrace{
		Slot: slot, ParentHash: pv.ParentHash, BlockHash: pv.BlockHash, BuilderPubkey: b.pubkey,
		ProposerPubkey: p.Pubkey, ProposerFeeRecipient: beacon.Address(p.FeeRecipient),
		GasLimit: pv.GasLimit, GasUsed: pv.GasUsed, Value: beacon.U256FromUint256(value),
	}
	sig, err := b.cfg.SecretKey.Sign(&trace, b.domain)
	if err != nil {
		return nil, err
	}
	if env.BlobsBundle != nil && len(env.BlobsBundle.Commitments) > 0 {
		return nil, errors.New("blocks with blobs are not built for relays yet")
	}
	empty := beacon.BlobsBundle{Commitments: []beacon.KZGCommitment{}, Proofs: []beacon.KZGProof{}, Blobs: []beacon.Blob{}}
	switch fork {
	case params.ForkBellatrix:
		return beacon.NewSubmission(b.cfg.Spec, fork, &beacon.SubmitBlockRequestBellatrix{Message: trace, ExecutionPayload: *payload.Bellatrix, Signature: sig})
	case params.ForkCapella:
		return beacon.NewSubmission(b.cfg.Spec, fork, &beacon.SubmitBlockRequestCapella{Message: trace, ExecutionPayload: *payload.Capella, Signature: sig})
	case params.ForkDeneb:
		return beacon.NewSubmission(b.cfg.Spec, fork, &beacon.SubmitBlockRequestDeneb{Message: trace, ExecutionPayload: *payload.Deneb, BlobsBundle: empty, Signature: sig})
	}
	reqs, err := beacon.ExecutionRequestsFromEngine(env.Requests)
	if err != nil {
		return nil, err
	}
	switch fork {
	case params.ForkElectra:
		return beacon.NewSubmission(b.cfg.Spec, fork, &beacon.SubmitBlockRequestElectra{Message: trace, ExecutionPayload: *payload.Deneb,
			BlobsBundle: empty, ExecutionRequests: *reqs, Signature: sig})
	case params.ForkFulu:
		return beacon.NewSubmission(b.cfg.Spec, fork, &beacon.SubmitBlockRequestFulu{Message: trace, ExecutionPayload: *payload.Deneb,
			BlobsBundle: beacon.BlobsBundleFulu(empty), ExecutionRequests: *reqs, Signature: sig})
	}
	return nil, fmt.Errorf("the builder does not build %s blocks", fork)
}

// Submit sends a built block to relays, one log line and one metric count
// per submission: the in-process relay first (no network), then the others
// all at once, so a slow relay delays none of the rest. It returns the
// failures joined.
func (b *Builder) Submit(ctx context.Context, built *Built, relays ...Relay) error {
	t := built.Submission.BidTrace()
	errs := make([]error, len(relays))
	var wg sync.WaitGroup
	for i, r := range relays {
		if _, local := r.(LocalRelay); local {
			errs[i] = b.submitOne(ctx, built, t, r)
		}
	}
	for i, r := range relays {
		if _, local := r.(LocalRelay); local {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = b.submitOne(ctx, built, t, r)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// submitOne submits to one relay and logs the outcome.
func (b *Builder) submitOne(ctx context.Context, built *Built, t *beacon.BidTrace, r Relay) error {
	start := time.Now()
	err := r.Submit(ctx, built.Submission)
	fields := []any{"relay", r.Name(), "slot", t.Slot, "block", common.Hash(t.BlockHash), "txs", len(built.Result.Block.Transactions()),
		"bundles", len(built.Result.Bundles), "value", built.Value, "elapsed", time.Since(start)}
	if err != nil {
		submissionsFailed.Mark(1)
		log.Warn("Builder submission refused", append(fields, "err", err)...)
		return fmt.Errorf("%s: %w", r.Name(), err)
	}
	submissionsSent.Mark(1)
	log.Info("Builder submitted block", fields...)
	return nil
}
