package devbeacon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/log"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/builder"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/internal/httpc"
	"github.com/gavel-eth/gavel/params"
)

// RelayFeed is what the dev driver tells the relay in-process, as a beacon
// node's events would on a real network: head slot, duties, known
// validators and the payload attributes of the slot being built.
type RelayFeed interface {
	SetHeadSlot(slot uint64)
	SetDuties(duties []relay.Duty)
	SetKnownValidators(byIndex map[uint64]beacon.BLSPubkey)
	SetPayloadAttributes(slot uint64, parent common.Hash, a relay.PayloadAttributes) error
}

// ProposerConfig configures the dev proposer flow.
type ProposerConfig struct {
	// RelayURL returns the relay's base URL (the MEV listener's, known once
	// it has started).
	RelayURL func() string
	// Beacon is the dev chain's consensus constants.
	Beacon *params.BeaconConfig
	// Spec is the consensus preset of the blocks it signs (nil: mainnet,
	// the dev chain's).
	Spec *beacon.Spec
	// Validators are the dev validators; validator slot mod n proposes.
	Validators []Validator
	// GasLimit is the gas limit the validators register.
	GasLimit uint64
	// BetaGas is the gas the slot's beta block was sold (the relay's
	// beta_gas), which the dev builder leaves unused; nil: none.
	BetaGas func(slot uint64) uint64
	// Prepare, when set, runs before each slot is built, once the relay
	// knows the slot: it brings state the relay keeps in memory up to date
	// (with slots stepped by hand, the beta service's reads of the L2).
	Prepare func(ctx context.Context, slot uint64)
	// Client is the HTTP client (a default with a timeout when nil).
	Client *http.Client
	// Fallback finishes the local block the slot gets when the relay path
	// fails: it appends the slot's paid beta bundles, so a slot whose
	// buyers paid is not refunded because the relay had no bid (nil: the
	// local block as built).
	Fallback func(ctx context.Context, req PayloadRequest, local *engine.ExecutionPayloadEnvelope) *engine.ExecutionPayloadEnvelope
}

// ErrSignedBlinded: the proposer signed the slot's blinded block but got no
// valid payload back from getPayload. The slot then has no block from this
// proposer: a local block would be a second signed block for the slot.
var ErrSignedBlinded = errors.New("blinded block signed but getPayload failed")

// PayloadTimeout bounds the wait for getPayload's answer once the blinded
// block is signed. The wait does not end with the slot's context: a block
// signed and sent may already be published, and no other block can replace
// it, so a late answer is still the slot's block.
const PayloadTimeout = 10 * time.Second

// Proposer is the dev proposer flow, a PayloadBuilder: each slot the dev
// builder submits its block to the relay over HTTP (SSZ+gzip), the slot's
// dev validator asks getHeader, signs the blinded block and calls
// getPayload, as a real proposer with mev-boost would. Without a relay bid
// that beats the local block (getHeader failed, had no bid, or a bid not
// worth signing), the local block is used; once the blinded block is
// signed, never: a failed getPayload is a missed slot.
type Proposer struct {
	cfg     ProposerConfig
	feed    RelayFeed
	builder *builder.Builder
	relay   builder.Relay // the relay, over HTTP
	local   PayloadBuilder
	client  *http.Client

	mu         sync.Mutex
	registered bool
}

// NewProposer creates the dev proposer flow; b is the dev builder (the
// relay builder with the dev keys).
func NewProposer(cfg ProposerConfig, feed RelayFeed, b *builder.Builder, local PayloadBuilder) (*Proposer, error) {
	if len(cfg.Validators) == 0 || cfg.Beacon == nil || b == nil || cfg.RelayURL == nil {
		return nil, errors.New("dev proposer needs validators, beacon constants, the dev builder and the relay URL")
	}
	p := &Proposer{cfg: cfg, feed: feed, builder: b, local: local, client: cfg.Client}
	if p.client == nil {
		p.client = &http.Client{Timeout: 10 * time.Second}
	}
	p.relay = builder.NewHTTPRelayFunc(cfg.RelayURL, p.client)
	known := make(map[uint64]beacon.BLSPubkey, len(cfg.Validators))
	for _, v := range cfg.Validators {
		known[v.Index] = v.Pubkey
	}
	feed.SetKnownValidators(known)
	return p, nil
}

// BuildPayload implements PayloadBuilder: the slot goes through the relay.
func (p *Proposer) BuildPayload(ctx context.Context, req PayloadRequest) (*engine.ExecutionPayloadEnvelope, error) {
	v := ProposerOf(p.cfg.Validators, req.Slot)
	req.Attrs.FeeRecipient = v.FeeRecipient
	p.announce(req)
	if p.cfg.Prepare != nil {
		p.cfg.Prepare(ctx, req.Slot)
	}

	local, err := p.local.BuildPayload(ctx, req)
	if err != nil {
		return nil, err
	}
	if err := p.register(ctx); err != nil {
		log.Warn("Dev validators could not register with the relay", "err", err)
		return p.fallback(ctx, req, local), nil
	}
	if err := p.submit(ctx, req, v); err != nil {
		log.Warn("Dev builder submission failed", "slot", req.Slot, "err", err)
	}
	env, err := p.propose(ctx, req, v, local)
	switch {
	case errors.Is(err, ErrSignedBlinded):
		// Signing a second block for the slot would be the proposer
		// equivocation builder-specs forbids, and the relay may already
		// have published the builder's block: the slot is missed.
		log.Warn("Dev proposer misses the slot: getPayload failed after signing the blinded block", "slot", req.Slot, "err", err)
		return nil, err
	case err != nil:
		log.Warn("Dev proposer falls back to the local block", "slot", req.Slot, "err", err)
		return p.fallback(ctx, req, local), nil
	}
	return env, nil
}

// fallback is the block of a slot whose relay path failed: the local
// block, with its beta part when Fallback is set.
func (p *Proposer) fallback(ctx context.Context, req PayloadRequest, local *engine.ExecutionPayloadEnvelope) *engine.ExecutionPayloadEnvelope {
	if p.cfg.Fallback == nil {
		return local
	}
	return p.cfg.Fallback(ctx, req, local)
}

// announce feeds the relay what a beacon node would: head slot, the duties
// of this and the next epoch, and the slot's payload attributes.
func (p *Proposer) announce(req PayloadRequest) {
	cfg := p.cfg.Beacon
	p.feed.SetHeadSlot(cfg.SlotAt(req.Parent.Time))
	first := req.Slot / cfg.SlotsPerEpoch * cfg.SlotsPerEpoch
	duties := make([]relay.Duty, 0, 2*cfg.SlotsPerEpoch)
	for s := first; s < first+2*cfg.SlotsPerEpoch; s++ {
		v := ProposerOf(p.cfg.Validators, s)
		duties = append(duties, relay.Duty{Slot: s, ValidatorIndex: v.Index, Pubkey: v.Pubkey})
	}
	p.feed.SetDuties(duties)
	a := req.Attrs
	if err := p.feed.SetPayloadAttributes(req.Slot, req.Parent.Hash(), relay.PayloadAttributes{
		Timestamp: a.Timestamp, PrevRandao: a.PrevRandao, Withdrawals: a.Withdrawals, ParentBeaconRoot: a.ParentBeaconRoot,
	}); err != nil {
		log.Error("Dev payload attributes rejected by the relay", "err", err)
	}
}

// register registers every dev validator once, over HTTP.
func (p *Proposer) register(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.registered {
		return nil
	}
	regs := make([]beacon.SignedValidatorRegistration, len(p.cfg.Validators))
	ts := uint64(time.Now().Unix())
	if ts < p.cfg.Beacon.GenesisTime {
		ts = p.cfg.Beacon.GenesisTime
	}
	for i, v := range p.cfg.Validators {
		var err error
		if regs[i], err = v.Registration(p.cfg.Beacon, p.cfg.GasLimit, ts); err != nil {
			return err
		}
	}
	body, err := beacon.EncodeRegistrationsJSON(regs)
	if err != nil {
		return err
	}
	status, msg, err := p.do(ctx, http.MethodPost, "/eth/v1/builder/validators", body, map[string]string{"Content-Type": "application/json"})
	if err != nil {
		return err
	}
	if status != http.StatusOK {
		return fmt.Errorf("registration: %d %s", status, msg)
	}
	p.registered = true
	log.Info("Dev validators registered with the relay", "count", len(regs))
	return nil
}

// submit builds the dev builder's block for the slot and submits it to the
// relay over HTTP (SSZ+gzip).
func (p *Proposer) submit(ctx context.Context, req PayloadRequest, v Validator) error {
	built, err := p.builder.Build(ctx, builder.Job{Slot: req.Slot, Parent: req.Parent, Attrs: req.Attrs, Reserve: p.betaGas(req.Slot)},
		builder.Proposer{Pubkey: v.Pubkey, FeeRecipient: v.FeeRecipient, GasLimit: p.cfg.GasLimit})
	if err != nil {
		return err
	}
	return p.builder.Submit(ctx, built, p.relay)
}

// betaGas is the gas the dev builder leaves for the slot's beta block.
func (p *Proposer) betaGas(slot uint64) uint64 {
	if p.cfg.BetaGas == nil {
		return 0
	}
	return p.cfg.BetaGas(slot)
}

// SampleSubmission builds a valid builder submission for req's slot, signed
// by key (a builder other than the dev builder), without sending it: what a
// relay user posts to POST /relay/v1/builder/blocks to try the builder API
// on --dev. The relay is told the slot's duties and payload attributes
// first, as a beacon node would once the head is set, and the dev
// validators are registered. The bid pays the proposer the block's
// earnings plus bonus from the dev builder's account: a bonus above 0 makes
// the value above 0, which the relay needs to verify the bid at all (a
// zero-value bid is dropped unverified, as the reference relay drops it).
func (p *Proposer) SampleSubmission(ctx context.Context, req PayloadRequest, key *beacon.SecretKey, bonus *uint256.Int) (*beacon.Submission, error) {
	if bonus == nil || bonus.IsZero() {
		return nil, errors.New("sample submission: the bonus must be above 0, or the relay drops the bid unverified")
	}
	v := ProposerOf(p.cfg.Validators, req.Slot)
	req.Attrs.FeeRecipient = v.FeeRecipient
	p.announce(req)
	if err := p.register(ctx); err != nil {
		return nil, err
	}
	other, err := p.builder.As(key, bonus)
	if err != nil {
		return nil, err
	}
	built, err := other.Build(ctx, builder.Job{Slot: req.Slot, Parent: req.Parent, Attrs: req.Attrs, Reserve: p.betaGas(req.Slot)},
		builder.Proposer{Pubkey: v.Pubkey, FeeRecipient: v.FeeRecipient, GasLimit: p.cfg.GasLimit})
	if err != nil {
		return nil, err
	}
	return built.Submission, nil
}

// propose is the proposer's side: getHeader, compare with the local block,
// sign the blinded block, getPayload. An error after signing wraps
// ErrSignedBlinded.
func (p *Proposer) propose(ctx context.Context, req PayloadRequest, v Validator, local *engine.ExecutionPayloadEnvelope) (*engine.ExecutionPayloadEnvelope, error) {
	path := fmt.Sprintf("/eth/v1/builder/header/%d/%s/%s", req.Slot, req.Parent.Hash().Hex(), v.Pubkey)
	status, body, err := p.do(ctx, http.MethodGet, path, nil, map[string]string{"Accept": "application/json"})
	if err != nil {
		return nil, err
	}
	if status == http.StatusNoContent {
		return nil, errors.New("no bid from the relay")
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("getHeader: %d %s", status, body)
	}
	var versioned struct {
		Version string          `json:"version"`
		Data    json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &versioned); err != nil {
		return nil, fmt.Errorf("getHeader answer: %w", err)
	}
	fork, err := params.ParseConsensusFork(versioned.Version)
	if err != nil {
		return nil, err
	}
	bid, err := beacon.DecodeSignedBuilderBidJSON(p.cfg.Spec, fork, versioned.Data)
	if err != nil {
		return nil, fmt.Errorf("getHeader answer: %w", err)
	}
	if err := bid.VerifySignature(beacon.BuilderDomain(p.cfg.Beacon)); err != nil {
		return nil, fmt.Errorf("relay bid signature: %w", err)
	}
	if bid.Header().Deneb == nil || bid.Header().Deneb.ParentHash != beacon.Root(req.Parent.Hash()) {
		return nil, errors.New("relay bid is not for this parent")
	}
	if local.BlockValue != nil && bid.Value().Big().Cmp(local.BlockValue) <= 0 {
		return nil, fmt.Errorf("relay bid %s does not beat the local block's %s", bid.Value(), local.BlockValue)
	}
	blinded, err := p.blindedBlock(req, v, bid)
	if err != nil {
		return nil, err
	}
	raw, err := blinded.MarshalSSZ()
	if err != nil {
		return nil, err
	}
	env, err := p.getPayload(ctx, fork, bid, raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSignedBlinded, err)
	}
	return env, nil
}

// getPayload sends the signed blinded block and returns the payload of the
// bid's header. It waits up to PayloadTimeout whatever ctx says: the block
// is signed, so the slot has no other block to fall back on.
func (p *Proposer) getPayload(ctx context.Context, fork params.ConsensusFork, bid *beacon.SignedBuilderBid, signed []byte) (*engine.ExecutionPayloadEnvelope, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), PayloadTimeout)
	defer cancel()
	status, body, err := p.do(ctx, http.MethodPost, "/eth/v1/builder/blinded_blocks", signed, map[string]string{
		"Content-Type": "application/octet-stream", "Accept": "application/octet-stream", "Eth-Consensus-Version": fork.String(),
	})
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("getPayload: %d %s", status, body)
	}
	var resp beacon.ExecutionPayloadAndBlobsBundleFulu
	if err := resp.UnmarshalSSZ(body); err != nil {
		return nil, fmt.Errorf("getPayload answer: %w", err)
	}
	payload, err := beacon.NewExecutionPayload(fork, &resp.ExecutionPayload)
	if err != nil {
		return nil, err
	}
	requests, err := bid.Electra.Message.ExecutionRequests.EngineRequests()
	if err != nil {
		return nil, err
	}
	env := &engine.ExecutionPayloadEnvelope{
		ExecutionPayload: payload.ToExecutableData(),
		BlockValue:       bid.Value().Big(),
		BlobsBundle:      engineBlobs(resp.BlobsBundle),
		Requests:         requests,
	}
	if env.ExecutionPayload.BlockHash != common.Hash(bid.Header().BlockHash()) {
		return nil, errors.New("getPayload returned another block than the signed header")
	}
	return env, nil
}

// blindedBlock is the slot's blinded beacon block with the bid's header,
// signed by the proposer. Its parent root is the slot's parent beacon root,
// which the relay hands to the engine when it publishes.
func (p *Proposer) blindedBlock(req PayloadRequest, v Validator, bid *beacon.SignedBuilderBid) (*beacon.SignedBlindedBeaconBlock, error) {
	if bid.Electra == nil {
		return nil, fmt.Errorf("dev proposer signs only Electra and Fulu blocks, not %s", bid.Fork)
	}
	m := bid.Electra.Message
	spec := bid.Spec()
	blk := &beacon.SignedBlindedBeaconBlockElectra{Message: beacon.BlindedBeaconBlockElectra{
		Slot: req.Slot, ProposerIndex: v.Index, ParentRoot: beacon.Root(req.Attrs.ParentBeaconRoot),
		Body: beacon.BlindedBeaconBlockBodyElectra{
			ProposerSlashings: []beacon.ProposerSlashing{}, AttesterSlashings: []beacon.AttesterSlashingElectra{},
			Attestations: []beacon.AttestationElectra{}, Deposits: []beacon.Deposit{}, VoluntaryExits: []beacon.SignedVoluntaryExit{},
			SyncAggregate: spec.SyncAggregate(), ExecutionPayloadHeader: m.Header, BLSToExecutionChanges: []beacon.SignedBLSToExecutionChange{},
			BlobKZGCommitments: m.BlobKZGCommitments, ExecutionRequests: m.ExecutionRequests,
		},
	}}
	copy(blk.Message.Body.Graffiti[:], "gavel dev "+strconv.FormatUint(v.Index, 10))
	domain, err := beacon.ProposerDomain(p.cfg.Beacon, bid.Fork)
	if err != nil {
		return nil, err
	}
	if blk.Signature, err = v.Key.Sign(spec.Hashable(&blk.Message), domain); err != nil {
		return nil, err
	}
	return beacon.NewSignedBlindedBeaconBlock(spec, bid.Fork, blk)
}

// engineBlobs converts a blobs bundle to the engine API's form.
func engineBlobs(b beacon.BlobsBundleFulu) *engine.BlobsBundle {
	out := &engine.BlobsBundle{Commitments: []hexutil.Bytes{}, Proofs: []hexutil.Bytes{}, Blobs: []hexutil.Bytes{}}
	for i := range b.Commitments {
		out.Commitments = append(out.Commitments, b.Commitments[i][:])
	}
	for i := range b.Proofs {
		out.Proofs = append(out.Proofs, b.Proofs[i][:])
	}
	for i := range b.Blobs {
		out.Blobs = append(out.Blobs, b.Blobs[i][:])
	}
	return out
}

// do sends one request to the relay and returns the status and body (at
// most 64 MiB: a Fulu payload with its blobs).
func (p *Proposer) do(ctx context.Context, method, path string, body []byte, header map[string]string) (int, []byte, error) {
	return httpc.Do(ctx, p.client, method, p.cfg.RelayURL()+path, body, header, 64<<20)
}
