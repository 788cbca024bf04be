// Package relay is gavel's MEV relay: validator registrations, proposer
// duties, the builder submission pipeline with in-process verification, the
// auction per (slot, parent, proposer) with its best bid kept in memory
// together with the verified post-state, getHeader, and getPayload with its
// equivocation guard and delivery record.
//
// The package decides; mevapi/relayapi parses and encodes HTTP. What the
// relay knows of the beacon chain (duties, known validators, head slot, the
// payload attributes of upcoming slots) is pushed into it: by the dev driver
// in --dev, by the beacon client on real networks.
package relay

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

// Defaults of the relay's limits and timing.
const (
	// DefaultRegistrationLookahead is how far in the future a registration's
	// timestamp may be (builder-specs MAX_REGISTRATION_LOOKAHEAD).
	DefaultRegistrationLookahead = 10 * time.Second
	// DefaultRegistrationPreGenesis is how long before genesis a
	// registration's timestamp may be (Config.RegistrationPreGenesis).
	DefaultRegistrationPreGenesis = 24 * time.Hour
	// DefaultGetHeaderCutoff is how far into a slot getHeader still answers
	// with a bid (later: 204).
	DefaultGetHeaderCutoff = 3 * time.Second
	// DefaultGetPayloadCutoff is how far into a slot getPayload is served.
	DefaultGetPayloadCutoff = 4 * time.Second
	// DefaultBodyWait is how long getPayload waits for the block of a
	// header-first bid (Config.BodyWait).
	DefaultBodyWait = time.Second
	// DefaultPublishAttempts and DefaultPublishRetryDelay: a delivered
	// block's publishing is tried three times, 250 ms apart.
	DefaultPublishAttempts   = 3
	DefaultPublishRetryDelay = 250 * time.Millisecond
	// Registration limits (Config.MaxRegistrations and the verification caps).
	DefaultMaxRegistrations        = 1 << 16
	DefaultVerificationsPerRequest = 1 << 13
	DefaultVerificationsPerSecond  = 2048
	// slotsKept is how many slots of auctions and payloads stay in memory
	// behind the head.
	slotsKept = 64
)

// Config configures a relay.
type Config struct {
	// Beacon is the network's consensus constants (fork schedule, signing
	// domains, slot timing).
	Beacon *params.BeaconConfig
	// Spec is the beacon chain's consensus preset (the beacon node's
	// /eth/v1/config/spec): the shapes of blinded blocks and the list limits
	// in withdrawals roots and bids. Nil means mainnet.
	Spec *beacon.Spec
	// SecretKey is the relay's BLS key, which signs every bid getHeader serves.
	SecretKey *beacon.SecretKey
	// CancellationsDisabled refuses ?cancellations=1 submissions.
	CancellationsDisabled bool
	// RegistrationLookahead bounds registration timestamps (default 10 s).
	RegistrationLookahead time.Duration
	// RegistrationPreGenesis is how long before genesis a registration may
	// have been signed (default 24 h): validator clients sign before genesis
	// and re-send that same message every epoch after it.
	RegistrationPreGenesis time.Duration
	// MaxRegistrations caps the registrations of one request, counted as
	// sent (default 65,536); VerificationsPerRequest caps the BLS checks one
	// request may cost after duplicates, unchanged and unknown entries are
	// dropped (default 8,192, about two seconds of two cores); VerificationsPerSecond is each client IP's
	// refill rate of BLS checks, with VerificationsPerRequest as its burst
	// (default 2,048). What a cap leaves out is answered with a clear error
	// so the client sends it again; what was checked before is saved.
	MaxRegistrations        int
	VerificationsPerRequest int
	VerificationsPerSecond  float64
	// GetHeaderCutoff and GetPayloadCutoff bound how far into its slot a
	// request is served; negative disables the cutoff (dev mode, where
	// slots are stepped by hand). Zero means the default.
	GetHeaderCutoff  time.Duration
	GetPayloadCutoff time.Duration
	// HeaderWait bounds how long getHeader waits for a bid of a build in
	// flight for its slot and parent (ExpectBid) when it has none yet
	// (default DefaultHeaderWait); negative: never wait.
	HeaderWait time.Duration
	// BodyWait bounds how long getPayload waits for the block of a
	// header-first bid whose builder has not sent it yet (default
	// DefaultBodyWait); past it the builder is demoted and the proposer is
	// owed the bid's value.
	BodyWait time.Duration
	// SteerDisabled starts a known builder's signature verification as an
	// ordinary goroutine. By default it is steered onto another core at
	// once (internal/beside: the process's other threads kept off the
	// handler's CPU for the moment the goroutine takes to start, about
	// 0.2 ms, Linux only).
	SteerDisabled bool
	// PublishAttempts is how often a delivered block's publishing is tried
	// before getPayload gives up (default 3), PublishRetryDelay the pause
	// between tries (default 250 ms).
	PublishAttempts   int
	PublishRetryDelay time.Duration
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Beta builds the beta part of the blocks served (nil: alpha only,
	// beta_gas 0).
	Beta Beta
	// Shared, when set, is the database this relay shares with other
	// instances: one auction across all of them (shared.go).
	Shared Sharing
	// InstanceID names this instance in shared bids (random when empty).
	InstanceID string
	// Canonical is the chain delivered blocks are checked against, to mark
	// the records of blocks that did not become canonical (nil: records
	// stay unmarked); CanonicalDepth is how many slots after its slot a
	// delivery is checked (default DefaultCanonicalDepth).
	Canonical      CanonicalChain
	CanonicalDepth uint64
	// PrefixBlocks is how many verified blocks keep states between their
	// transactions, so that a builder's next block sharing a prefix of
	// transactions is executed from there (core/chain.PrefixCache; default
	// chain.DefaultPrefixBlocks, each with up to chain.DefaultPrefixPoints
	// state copies); negative: every block is executed in full.
	PrefixBlocks int
}

// Chain is what the relay needs of the local chain: in-process
// verification of a builder's block (core/chain.Chain).
type Chain interface {
	ValidatePayload(ctx context.Context, p *chain.BuilderPayload) (*chain.VerifiedPayload, error)
}

// Publisher publishes a proposer's unblinded block: to the beacon nodes on
// real networks, into the local chain in --dev.
type Publisher interface {
	Publish(ctx context.Context, block *beacon.SignedBlockContents, payload *beacon.ExecutionPayload, bundle *beacon.BlobsBundle, requests *beacon.ExecutionRequests) error
}

// Duty is a proposer duty: who proposes slot.
type Duty struct {
	Slot           uint64
	ValidatorIndex uint64
	Pubkey         beacon.BLSPubkey
}

// PayloadAttributes are what the beacon chain fixes for the block of a slot
// on a parent: the relay checks submissions against them.
type PayloadAttributes struct {
	Timestamp        uint64
	PrevRandao       common.Hash
	Withdrawals      []*types.Withdrawal
	ParentBeaconRoot common.Hash
	withdrawalsRoot  beacon.Root
}

// SubmissionRecorder receives every verified submission's bid trace for the
// data API; writes may be batched (store.SubmissionBuffer).
type SubmissionRecorder interface {
	Add(s store.BlockSubmission) bool
}

// Relay is the relay's domain state. All methods are safe for concurrent use.
type Relay struct {
	cfg         Config
	chain       Chain
	store       store.Relay
	publisher   Publisher
	recorder    SubmissionRecorder
	builderDom  beacon.Domain
	relayPubkey beacon.BLSPubkey

	headSlot  atomic.Uint64
	lastAttrs atomic.Uint64 // highest slot with payload attributes

	regMu sync.RWMutex
	regs  map[beacon.BLSPubkey]*beacon.SignedValidatorRegistration

	beaconMu sync.RWMutex
	duties   map[uint64]Duty                 // slot -> duty (current and next epoch)
	known    map[beacon.BLSPubkey]uint64     // known validators: pubkey -> index
	byIndex  map[uint64]beacon.BLSPubkey     // index -> pubkey
	attrs    map[attrsKey]*PayloadAttributes // (slot, parent) -> attributes

	bids *bidStore
	// merges orders the beta merges of each auction (mergeorder.go).
	merges *mergeOrder
	// background is the goroutines that write to the store after the
	// request that started them answered (beta outcomes, shared bids'
	// merges, pruning): Close waits for them.
	background sync.WaitGroup
	onMerged   atomic.Pointer[func(slot, gen uint64, block beacon.Root)] // tests: a merge is served
	// waits are the builds in flight getHeader may wait for (headerwait.go).
	waits         bidWaits
	headerWaits   atomic.Int64                 // getHeaders that waited
	headerWaiting atomic.Int64                 // getHeaders waiting now
	onWait        atomic.Pointer[func(uint64)] // tests: a getHeader starts waiting

	builderKeys     sync.Map // beacon.BLSPubkey -> *beacon.PublicKey
	builderKeyCount atomic.Int64
	knownBuilders   *knownBuilders // builders with a recent stored bid (KnownBuilder)

	deliveries *deliveryGuard
	canonical  *canonicalMarker   // nil without Config.Canonical
	prefixes   *chain.PrefixCache // nil: no incremental simulation

	verifyRate *clientRates // BLS checks of registrations per client IP
	// Sharing with other instances (shared.go).
	instance    string
	regCursor   atomic.Int64 // newest registration received_at seen, unix ms
	stopSharing context.CancelFunc
	sharingDone chan struct{}
	sharingUp   chan struct{} // closed once the first notification connection is up
	sharingOnce sync.Once
	onShared    atomic.Pointer[func(beacon.Root, time.Duration)] // tests: a bid of another instance was installed
	onVerified  atomic.Pointer[func(beacon.Root)]                // tests: ... and executed here
	verifySem   chan struct{}

	// Optimistic relaying (optimistic.go).
	optimisticSem    chan struct{}
	signAheadSem     chan struct{}                            // bids whose header is signed before their checks passed (signAhead)
	optimisticQueued atomic.Int64                             // background simulations not ended
	dropOptimistic   atomic.Bool                              // tests: background simulations never run (a crash)
	onOptimistic     atomic.Pointer[func(beacon.Root, error)] // tests: a background simulation ended
	optimisticGate   atomic.Pointer[chan struct{}]            // tests: background simulations wait for it
}

type attrsKey struct {
	slot   uint64
	parent common.Hash
}

// New creates a relay. st holds registrations and delivered payloads;
// registrations and the last delivered slot are reloaded from it.
func New(cfg Config, c Chain, st store.Relay, pub Publisher, rec SubmissionRecorder) (*Relay, error) {
	if cfg.Beacon == nil || cfg.SecretKey == nil || c == nil || st == nil || pub == nil {
		return nil, errors.New("relay needs a beacon config, a secret key, a chain, a store and a publisher")
	}
	if err := cfg.Beacon.Validate(); err != nil {
		return nil, err
	}
	if cfg.Spec == nil {
		cfg.Spec = beacon.MainnetSpec
	}
	if cfg.RegistrationLookahead <= 0 {
		cfg.RegistrationLookahead = DefaultRegistrationLookahead
	}
	if cfg.RegistrationPreGenesis <= 0 {
		cfg.RegistrationPreGenesis = DefaultRegistrationPreGenesis
	}
	if cfg.GetHeaderCutoff == 0 {
		cfg.GetHeaderCutoff = DefaultGetHeaderCutoff
	}
	if cfg.GetPayloadCutoff == 0 {
		cfg.GetPayloadCutoff = DefaultGetPayloadCutoff
	}
	if cfg.HeaderWait == 0 {
		cfg.HeaderWait = DefaultHeaderWait
	}
	if cfg.BodyWait <= 0 {
		cfg.BodyWait = DefaultBodyWait
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.PublishAttempts <= 0 {
		cfg.PublishAttempts = DefaultPublishAttempts
	}
	if cfg.PublishRetryDelay <= 0 {
		cfg.PublishRetryDelay = DefaultPublishRetryDelay
	}
	if cfg.MaxRegistrations <= 0 {
		cfg.MaxRegistrations = DefaultMaxRegistrations
	}
	if cfg.VerificationsPerRequest <= 0 {
		cfg.VerificationsPerRequest = DefaultVerificationsPerRequest
	}
	if cfg.VerificationsPerSecond <= 0 {
		cfg.VerificationsPerSecond = DefaultVerificationsPerSecond
	}
	if cfg.InstanceID == "" {
		cfg.InstanceID = newInstanceID()
	}
	if cfg.CanonicalDepth == 0 {
		cfg.CanonicalDepth = DefaultCanonicalDepth
	}
	if cfg.PrefixBlocks == 0 {
		cfg.PrefixBlocks = chain.DefaultPrefixBlocks
	}
	r := &Relay{
		instance: cfg.InstanceID, verifySem: make(chan struct{}, maxSharedVerifications),
		optimisticSem: make(chan struct{}, maxOptimisticSimulations),
		signAheadSem:  make(chan struct{}, maxSignAhead),
		cfg:           cfg, chain: c, store: st, publisher: pub, recorder: rec,
		builderDom:    beacon.BuilderDomain(cfg.Beacon),
		relayPubkey:   cfg.SecretKey.PublicKey(),
		regs:          make(map[beacon.BLSPubkey]*beacon.SignedValidatorRegistration),
		duties:        make(map[uint64]Duty),
		known:         make(map[beacon.BLSPubkey]uint64),
		byIndex:       make(map[uint64]beacon.BLSPubkey),
		attrs:         make(map[attrsKey]*PayloadAttributes),
		bids:          newBidStore(),
		merges:        newMergeOrder(),
		knownBuilders: newKnownBuilders(KnownBuilderSlots),
		verifyRate:    newClientRates(cfg.VerificationsPerSecond, cfg.VerificationsPerRequest),
	}
	if cfg.PrefixBlocks > 0 {
		r.prefixes = chain.NewPrefixCache(cfg.PrefixBlocks, chain.DefaultPrefixPoints)
	}
	ctx := context.Background()
	err := st.ForEachRegistration(ctx, func(reg *store.Registration) error {
		r.cacheRegistration(reg)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("relay: loading registrations: %w", err)
	}
	r.deliveries, err = newDeliveryGuard(ctx, st)
	if r.deliveries != nil {
		r.deliveries.recordFirst = cfg.Shared != nil
		if cfg.Shared != nil {
			r.deliveries.putLatest = cfg.Shared.PutDeliveredLatest
		}
	}
	if err != nil {
		return nil, err
	}
	if err := r.knownBuilders.start(st, cfg.Beacon.SlotAt(uint64(cfg.Now().Unix()))); err != nil {
		return nil, fmt.Errorf("relay: loading the known builders: %w", err)
	}
	if cfg.Shared != nil {
		r.startSharing()
	}
	if err := r.resumeOptimistic(ctx); err != nil {
		r.Close()
		return nil, fmt.Errorf("relay: resuming the simulations of optimistic bids: %w", err)
	}
	if cfg.Canonical != nil {
		r.canonical = newCanonicalMarker(cfg.Canonical, st, cfg.CanonicalDepth)
	}
	log.Info("Relay ready", "pubkey", r.relayPubkey, "network", cfg.Beacon.Name, "registrations", len(r.regs), "shared", cfg.Shared != nil, "instance", r.instance)
	return r, nil
}

// Pubkey is the relay's BLS public key.
func (r *Relay) Pubkey() beacon.BLSPubkey { return r.relayPubkey }

// BeaconConfig is the network's consensus constants.
func (r *Relay) BeaconConfig() *params.BeaconConfig { return r.cfg.Beacon }

// MaxRegistrations is how many registrations one request may carry
// (Config.MaxRegistrations).
func (r *Relay) MaxRegistrations() int { return r.cfg.MaxRegistrations }

// Spec returns the consensus preset the relay decodes, hashes and signs with.
func (r *Relay) Spec() *beacon.Spec { return r.cfg.Spec }

// SetHeadSlot records the slot of the beacon head: submissions and
// getHeader for it and earlier are refused. Old auctions are pruned.
func (r *Relay) SetHeadSlot(slot uint64) {
	for {
		cur := r.headSlot.Load()
		if slot <= cur {
			return
		}
		if r.headSlot.CompareAndSwap(cur, slot) {
			break
		}
	}
	r.bids.releasePassed(slot)
	r.waits.prune(slot)
	if r.canonical != nil {
		r.canonical.headAt(slot)
	}
	r.knownBuilders.refresh(slot)
	if slot > slotsKept {
		floor := slot - slotsKept
		r.bids.prune(floor)
		r.beaconMu.Lock()
		for k := range r.attrs {
			if k.slot < floor {
				delete(r.attrs, k)
			}
		}
		for s := range r.duties {
			if s < floor {
				delete(r.duties, s)
			}
		}
		r.beaconMu.Unlock()
		r.deliveries.prune(floor)
		if r.cfg.Shared != nil {
			r.pruneShared(floor)
		}
	}
}

// HeadSlot is the slot of the beacon head.
func (r *Relay) HeadSlot() uint64 { return r.headSlot.Load() }

// SetDuties adds proposer duties (the current and next epoch's).
func (r *Relay) SetDuties(duties []Duty) {
	r.beaconMu.Lock()
	defer r.beaconMu.Unlock()
	for _, d := range duties {
		r.duties[d.Slot] = d
	}
}

// SetKnownValidators replaces the set of validators allowed to register
// (active and pending), by index.
func (r *Relay) SetKnownValidators(byIndex map[uint64]beacon.BLSPubkey) {
	known := make(map[beacon.BLSPubkey]uint64, len(byIndex))
	idx := make(map[uint64]beacon.BLSPubkey, len(byIndex))
	for i, pk := range byIndex {
		known[pk], idx[i] = i, pk
	}
	r.beaconMu.Lock()
	r.known, r.byIndex = known, idx
	r.beaconMu.Unlock()
}

// SetPayloadAttributes records the payload attributes of slot's block on
// parent (the beacon node's payload_attributes event; in --dev the driver's
// attributes before the slot).
func (r *Relay) SetPayloadAttributes(slot uint64, parent common.Hash, a PayloadAttributes) error {
	ws := make([]beacon.Withdrawal, len(a.Withdrawals))
	for i, w := range a.Withdrawals {
		ws[i] = beacon.Withdrawal{Index: w.Index, ValidatorIndex: w.Validator, Address: beacon.Address(w.Address), Amount: w.Amount}
	}
	root, err := beacon.WithdrawalsRoot(r.cfg.Spec, ws)
	if err != nil {
		return err
	}
	a.withdrawalsRoot = root
	r.beaconMu.Lock()
	r.attrs[attrsKey{slot, parent}] = &a
	r.beaconMu.Unlock()
	for {
		last := r.lastAttrs.Load()
		if slot <= last || r.lastAttrs.CompareAndSwap(last, slot) {
			return nil
		}
	}
}

// LastAttributesSlot is the highest slot with payload attributes (0 when
// none came yet).
func (r *Relay) LastAttributesSlot() uint64 { return r.lastAttrs.Load() }

// AttributesSlot is the slot a payload-attributes timestamp is for:
// (timestamp - genesis time) / seconds per slot of the network's beacon
// constants. A timestamp before genesis or between slot starts matches no
// slot (ErrAttributesTimestamp). This is the one mapping from attributes to
// slots: the relay and the builder both use it.
func AttributesSlot(cfg *params.BeaconConfig, timestamp uint64) (uint64, error) {
	if timestamp < cfg.GenesisTime || cfg.SecondsPerSlot == 0 || (timestamp-cfg.GenesisTime)%cfg.SecondsPerSlot != 0 {
		return 0, fmt.Errorf("%w: %d (genesis %d, %d s slots)", ErrAttributesTimestamp, timestamp, cfg.GenesisTime, cfg.SecondsPerSlot)
	}
	return (timestamp - cfg.GenesisTime) / cfg.SecondsPerSlot, nil
}

// SetForkchoiceAttributes records the payload attributes the consensus
// client sent with engine_forkchoiceUpdated: those of the block on a.Head
// for the slot of a.Timestamp (AttributesSlot). It returns that slot. This
// serves consensus clients whose beacon node has no payload_attributes
// event topic.
func (r *Relay) SetForkchoiceAttributes(a chain.ForkchoiceAttributes) (uint64, error) {
	slot, err := AttributesSlot(r.cfg.Beacon, a.Timestamp)
	if err != nil {
		return 0, err
	}
	return slot, r.SetPayloadAttributes(slot, a.Head, PayloadAttributes{
		Timestamp: a.Timestamp, PrevRandao: a.PrevRandao, Withdrawals: a.Withdrawals, ParentBeaconRoot: a.ParentBeaconRoot,
	})
}

func (r *Relay) payloadAttributes(slot uint64, parent common.Hash) *PayloadAttributes {
	r.beaconMu.RLock()
	defer r.beaconMu.RUnlock()
	return r.attrs[attrsKey{slot, parent}]
}

func (r *Relay) duty(slot uint64) (Duty, bool) {
	r.beaconMu.RLock()
	defer r.beaconMu.RUnlock()
	d, ok := r.duties[slot]
	return d, ok
}

func (r *Relay) validatorIndex(pk beacon.BLSPubkey) (uint64, bool) {
	r.beaconMu.RLock()
	defer r.beaconMu.RUnlock()
	i, ok := r.known[pk]
	return i, ok
}

func (r *Relay) validatorPubkey(index uint64) (beacon.BLSPubkey, bool) {
	r.beaconMu.RLock()
	defer r.beaconMu.RUnlock()
	pk, ok := r.byIndex[index]
	return pk, ok
}

// Registration returns the cached registration of a validator.
func (r *Relay) Registration(pk beacon.BLSPubkey) (*beacon.SignedValidatorRegistration, bool) {
	r.regMu.RLock()
	defer r.regMu.RUnlock()
	reg, ok := r.regs[pk]
	return reg, ok
}

// ValidatorDuty is one entry of GET /relay/v1/builder/validators.
type ValidatorDuty struct {
	Slot           uint64
	ValidatorIndex uint64
	Entry          *beacon.SignedValidatorRegistration
	// BetaGas is the gas the slot's L2 auction sells for the beta block,
	// which a submission must leave unused (0: no auction opened), as the
	// beta service last read it; BetaGasKnown is false while it was never
	// read (nothing is reserved then).
	BetaGas      uint64
	BetaGasKnown bool
}

// Validators lists the duties of the whole current and next epoch whose
// proposer is registered, by slot: the current epoch's past slots too, as
// relay-specs and the reference relay list them.
func (r *Relay) Validators() []ValidatorDuty {
	head := r.HeadSlot()
	spe := r.cfg.Beacon.SlotsPerEpoch
	from := head / spe * spe
	to := from + 2*spe
	r.beaconMu.RLock()
	duties := make([]Duty, 0, 2*spe)
	for s := from; s < to; s++ {
		if d, ok := r.duties[s]; ok {
			duties = append(duties, d)
		}
	}
	r.beaconMu.RUnlock()
	out := make([]ValidatorDuty, 0, len(duties))
	for _, d := range duties {
		if reg, ok := r.Registration(d.Pubkey); ok {
			gas, known := r.BetaGas(d.Slot)
			out = append(out, ValidatorDuty{Slot: d.Slot, ValidatorIndex: d.ValidatorIndex, Entry: reg, BetaGas: gas, BetaGasKnown: known})
		}
	}
	return out
}

// slotStart is when slot begins.
func (r *Relay) slotStart(slot uint64) time.Time {
	return time.Unix(int64(r.cfg.Beacon.SlotTime(slot)), 0)
}
