// Package relaytest sets up a real relay for tests and benchmarks: an
// in-memory geth chain on the dev genesis, a real SQLite store, real BLS
// keys for validators, builder and relay, and a builder that makes real
// blocks (transfers plus a final proposer payment) and signed submissions.
// Only the beacon node is replaced: the harness feeds duties, validators and
// payload attributes itself, and publishing is recorded instead of sent.
package relaytest

import (
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

// SecondsPerSlot of the test chain.
const SecondsPerSlot = 12

// GasLimit of the test chain and of the validators' registrations.
const GasLimit = 30_000_000

// Validator is a test validator.
type Validator struct {
	Index        uint64
	Key          *beacon.SecretKey
	FeeRecipient common.Address
}

// Env is a relay over a real chain and store.
type Env struct {
	TB         testing.TB
	Chain      *chain.Chain
	Store      store.Store
	Relay      *relay.Relay
	Beacon     *params.BeaconConfig
	Spec       *beacon.Spec // the consensus preset (Options.Spec)
	Validators []Validator
	BuilderKey *beacon.SecretKey
	RelayKey   *beacon.SecretKey
	// Coinbase is the builder's funded account (dev account 9); Senders are
	// funded accounts whose transfers fill blocks.
	Coinbase  *ecdsa.PrivateKey
	Senders   []*ecdsa.PrivateKey
	Publisher *Publisher
	Clock     *Clock
	// Traces records the relay's bid traces (Options.Traces); they reach
	// the store on Flush.
	Traces *store.SubmissionBuffer

	genesis *types.Header
	nonces  map[common.Address]uint64
	capella bool
}

// Clock is a settable clock.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

// Set sets the clock.
func (c *Clock) Set(t time.Time) { c.mu.Lock(); c.now = t; c.mu.Unlock() }

// Publisher records published blocks (the beacon node cannot run here).
type Publisher struct {
	mu     sync.Mutex
	Blocks []*beacon.SignedBlockContents
	Err    error
	// FailNext fails this many next publishes (a beacon node hiccup).
	FailNext int
	// Attempts counts every Publish call, failed ones included.
	Attempts int
	// Gate, if set before publishing starts, holds every publish until it
	// is closed.
	Gate chan struct{}
}

// Publish implements relay.Publisher.
func (p *Publisher) Publish(_ context.Context, b *beacon.SignedBlockContents, _ *beacon.ExecutionPayload, _ *beacon.BlobsBundle, _ *beacon.ExecutionRequests) error {
	if p.Gate != nil {
		<-p.Gate
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.Attempts++
	if p.Err != nil {
		return p.Err
	}
	if p.FailNext > 0 {
		p.FailNext--
		return errors.New("beacon node hiccup")
	}
	p.Blocks = append(p.Blocks, b)
	return nil
}

// Count is how many blocks were published.
func (p *Publisher) Count() int { p.mu.Lock(); defer p.mu.Unlock(); return len(p.Blocks) }

// Options tune New.
type Options struct {
	// StorePath keeps the store in a file (restart tests); "" is a fresh one.
	StorePath string
	// Store, when set, is used instead of a SQLite store (and not closed).
	Store store.Store
	// Shared makes the relay share its auctions through Store (PostgreSQL)
	// with the other instances on the same database.
	Shared bool
	// Senders is how many funded sender accounts to create (default 8).
	Senders int
	// Configure may change the relay config.
	Configure func(*relay.Config)
	// Capella runs the chain on Shanghai and the beacon side on Capella (no
	// blobs, beacon root or requests) instead of Osaka/Fulu.
	Capella bool
	// Spec is the consensus preset of the relay and of the blocks the
	// proposers sign (nil: mainnet).
	Spec *beacon.Spec
	// Traces records the relay's bid traces in the store, as a node does
	// (Env.Traces; flushed only when asked, and on cleanup).
	Traces bool
	// OptimisticCollateral, when set, makes the builder optimistic with
	// this collateral (wei) before the relay starts (store.OptimisticBuilder).
	OptimisticCollateral *uint256.Int
	// Chain, when set, is the chain the relay verifies on instead of a new
	// in-memory dev chain (Senders and Capella are then ignored). Its
	// genesis must fund the builder's account (dev account 9), as
	// chain.DevGenesis does; the caller closes it.
	Chain *chain.Chain
}

func key(label string, i int) *beacon.SecretKey {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(i))
	ikm := sha256.Sum256(append([]byte(label), b[:]...))
	k, err := beacon.DeriveSecretKey(ikm[:])
	if err != nil {
		panic(err)
	}
	return k
}

// New builds the environment: chain at genesis, the relay's clock at slot
// 1's start, 4 registered validators with duties for the first two epochs.
func New(tb testing.TB, opts Options) *Env {
	tb.Helper()
	c, senders := opts.Chain, []*ecdsa.PrivateKey(nil)
	if c == nil {
		c, senders = devChain(tb, opts)
	} else {
		opts.Capella = false
	}
	var err error
	st := opts.Store
	if st == nil {
		if st, err = store.OpenSQLite(opts.StorePath); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { st.Close() })
	}
	gen := c.Genesis()
	bcfg := params.DevBeaconConfig(gen.Time, SecondsPerSlot, sha256.Sum256(gen.Hash().Bytes()))
	if opts.Capella {
		bcfg.Forks = bcfg.Forks[:params.ForkCapella+1]
	}
	e := &Env{
		TB: tb, Chain: c, Store: st, Beacon: bcfg, Spec: opts.Spec,
		BuilderKey: key("builder", 0), RelayKey: key("relay", 0),
		Coinbase: params.DevAccounts()[9].Key, Senders: senders,
		Publisher: &Publisher{}, Clock: &Clock{}, genesis: gen, nonces: map[common.Address]uint64{}, capella: opts.Capella,
	}
	e.Clock.Set(time.Unix(int64(bcfg.SlotTime(1)), 0))
	for i := 0; i < 4; i++ {
		k := key("validator", i)
		e.Validators = append(e.Validators, Validator{Index: uint64(i), Key: k, FeeRecipient: common.BytesToAddress(crypto.Keccak256([]byte{byte(i), 'f'})[12:])})
	}
	if e.Spec == nil {
		e.Spec = beacon.MainnetSpec
	}
	if opts.OptimisticCollateral != nil {
		err := st.SetOptimisticBuilder(context.Background(), store.OptimisticBuilder{
			Pubkey: e.BuilderKey.PublicKey(), Collateral: beacon.U256FromUint256(opts.OptimisticCollateral), UpdatedAt: time.Now().UnixMilli(),
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
	cfg := relay.Config{Beacon: bcfg, Spec: e.Spec, SecretKey: e.RelayKey, Now: e.Clock.Now, PublishRetryDelay: time.Microsecond}
	if opts.Shared {
		if cfg.Shared = store.SharedOf(st); cfg.Shared == nil {
			tb.Fatal("relaytest: Shared needs a PostgreSQL Store")
		}
	}
	if opts.Configure != nil {
		opts.Configure(&cfg)
	}
	var rec relay.SubmissionRecorder
	if opts.Traces {
		e.Traces = store.NewSubmissionBuffer(st, time.Hour, 0, 0)
		tb.Cleanup(func() { e.Traces.Close() })
		rec = e.Traces
	}
	e.Relay, err = relay.New(cfg, c, st, e.Publisher, rec)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(e.Relay.Close)
	e.Feed(e.Relay)
	return e
}

// devChain is a new in-memory chain on the dev genesis with opts.Senders
// (default 8) funded senders.
func devChain(tb testing.TB, opts Options) (*chain.Chain, []*ecdsa.PrivateKey) {
	if opts.Senders == 0 {
		opts.Senders = 8
	}
	g := chain.DevGenesis(GasLimit, 1_700_000_000)
	if opts.Capella {
		cfg := *g.Config
		cfg.CancunTime, cfg.PragueTime, cfg.OsakaTime, cfg.BlobScheduleConfig = nil, nil, nil, nil
		g.Config = &cfg
	}
	senders := make([]*ecdsa.PrivateKey, opts.Senders)
	bal := new(big.Int).Mul(big.NewInt(1000), big.NewInt(gparams.Ether))
	for i := range senders {
		seed := sha256.Sum256([]byte{byte(i), byte(i >> 8), 's'})
		senders[i], _ = crypto.ToECDSA(seed[:])
		g.Alloc[crypto.PubkeyToAddress(senders[i].PublicKey)] = types.Account{Balance: bal}
	}
	c, stop, err := chain.NewInMemory(g)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(stop)
	return c, senders
}

// Feed tells r what a beacon node would: the known validators and the
// duties of the first two epochs.
func (e *Env) Feed(r *relay.Relay) {
	known := map[uint64]beacon.BLSPubkey{}
	for _, v := range e.Validators {
		known[v.Index] = v.Key.PublicKey()
	}
	r.SetKnownValidators(known)
	var duties []relay.Duty
	for s := uint64(0); s < 2*e.Beacon.SlotsPerEpoch; s++ {
		v := e.Proposer(s)
		duties = append(duties, relay.Duty{Slot: s, ValidatorIndex: v.Index, Pubkey: v.Key.PublicKey()})
	}
	r.SetDuties(duties)
}

// Proposer is the validator of slot (index slot mod 4).
func (e *Env) Proposer(slot uint64) Validator { return e.Validators[slot%uint64(len(e.Validators))] }

// Registration is v's signed registration at timestamp ts.
func (e *Env) Registration(v Validator, gasLimit, ts uint64) beacon.SignedValidatorRegistration {
	msg := beacon.ValidatorRegistration{FeeRecipient: beacon.Address(v.FeeRecipient), GasLimit: gasLimit, Timestamp: ts, Pubkey: v.Key.PublicKey()}
	sig, err := v.Key.Sign(&msg, beacon.BuilderDomain(e.Beacon))
	if err != nil {
		e.TB.Fatal(err)
	}
	return beacon.SignedValidatorRegistration{Message: msg, Signature: sig}
}

// RegisterAll registers every validator (gas limit GasLimit).
func (e *Env) RegisterAll() {
	var regs []beacon.SignedValidatorRegistration
	for _, v := range e.Validators {
		regs = append(regs, e.Registration(v, GasLimit, e.genesis.Time+1))
	}
	if err := e.Relay.RegisterValidators(context.Background(), regs); err != nil {
		e.TB.Fatal(err)
	}
}

// Attrs returns the payload attributes of slot on the head, and announces
// them to the relay.
func (e *Env) Attrs(slot uint64) relay.PayloadAttributes {
	parent := e.Chain.Head()
	var s [8]byte
	binary.BigEndian.PutUint64(s[:], slot)
	a := relay.PayloadAttributes{
		Timestamp:        e.Beacon.SlotTime(slot),
		PrevRandao:       crypto.Keccak256Hash(parent.MixDigest[:], s[:]),
		Withdrawals:      []*types.Withdrawal{},
		ParentBeaconRoot: crypto.Keccak256Hash([]byte("beacon root"), s[:]),
	}
	if err := e.Relay.SetPayloadAttributes(slot, parent.Hash(), a); err != nil {
		e.TB.Fatal(err)
	}
	return a
}

// Block is a built block with what its submission needs.
type Block struct {
	Slot  uint64
	Built *chain.BuiltBlock
	Value *uint256.Int
}

// BuildBlock builds the block of slot on the head with transfers plain
// transfers and a final payment of value (nil: the block's earnings plus 1
// gwei) to the slot's proposer.
func (e *Env) BuildBlock(slot uint64, transfers int, value *uint256.Int) *Block {
	e.TB.Helper()
	a := e.Attrs(slot)
	parent := e.Chain.Head()
	coinbase := crypto.PubkeyToAddress(e.Coinbase.PublicKey)
	root := &a.ParentBeaconRoot
	if e.capella {
		root = nil
	}
	bb, err := e.Chain.NewBlockBuilder(context.Background(), parent, chain.BuildAttrs{
		Timestamp: a.Timestamp, FeeRecipient: coinbase, Random: a.PrevRandao, Withdrawals: types.Withdrawals{}, BeaconRoot: root, GasLimit: GasLimit,
	})
	if err != nil {
		e.TB.Fatal(err)
	}
	signer := bb.Signer()
	for i := 0; i < transfers; i++ {
		k := e.Senders[i%len(e.Senders)]
		from := crypto.PubkeyToAddress(k.PublicKey)
		to := common.BytesToAddress(crypto.Keccak256([]byte{byte(i), byte(i >> 8), byte(slot)})[12:])
		tx, _ := types.SignTx(types.NewTx(&types.DynamicFeeTx{
			ChainID: big.NewInt(params.DevChainID), Nonce: bb.Nonce(from), GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9),
			Gas: 21000, To: &to, Value: big.NewInt(1),
		}), signer, k)
		if _, err := bb.ApplyTx(tx); err != nil {
			e.TB.Fatal(err)
		}
	}
	if value == nil {
		value = bb.FeeRecipientGain()
		value.Add(value, uint256.NewInt(1e9))
	}
	to := e.Proposer(slot).FeeRecipient
	pay, _ := types.SignTx(types.NewTx(&types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), Nonce: bb.Nonce(coinbase), GasTipCap: common.Big0, GasFeeCap: bb.BaseFee(),
		Gas: 21000, To: &to, Value: value.ToBig(),
	}), signer, e.Coinbase)
	if _, err := bb.ApplyTx(pay); err != nil {
		e.TB.Fatal(err)
	}
	built, err := bb.Finish()
	if err != nil {
		e.TB.Fatal(err)
	}
	return &Block{Slot: slot, Built: built, Value: value}
}

// Submission wraps a block as a signed Fulu submission bidding value.
func (e *Env) Submission(b *Block) *beacon.Submission {
	e.TB.Helper()
	s, err := e.SubmissionWith(b, func(*beacon.BidTrace) {})
	if err != nil {
		e.TB.Fatal(err)
	}
	return s
}

// SubmissionWith is Submission with the bid trace changed by edit before
// it is signed.
func (e *Env) SubmissionWith(b *Block, edit func(*beacon.BidTrace)) (*beacon.Submission, error) {
	fork := params.ForkFulu
	if e.capella {
		fork = params.ForkCapella
	}
	payload, err := beacon.ExecutionPayloadFromExecutableData(fork, b.Built.Envelope.ExecutionPayload)
	if err != nil {
		return nil, err
	}
	pv := payload.View()
	v := e.Proposer(b.Slot)
	t := beacon.BidTrace{
		Slot: b.Slot, ParentHash: pv.ParentHash, BlockHash: pv.BlockHash, BuilderPubkey: e.BuilderKey.PublicKey(),
		ProposerPubkey: v.Key.PublicKey(), ProposerFeeRecipient: beacon.Address(v.FeeRecipient),
		GasLimit: pv.GasLimit, GasUsed: pv.GasUsed, Value: beacon.U256FromUint256(b.Value),
	}
	edit(&t)
	if e.capella {
		req := &beacon.SubmitBlockRequestCapella{Message: t, ExecutionPayload: *payload.Capella}
		if req.Signature, err = e.BuilderKey.Sign(&req.Message, beacon.BuilderDomain(e.Beacon)); err != nil {
			return nil, err
		}
		return beacon.NewSubmission(e.Spec, params.ForkCapella, req)
	}
	return e.Sign(&beacon.SubmitBlockRequestFulu{
		Message: t, ExecutionPayload: *payload.Deneb,
		BlobsBundle:       beacon.BlobsBundleFulu{Commitments: []beacon.KZGCommitment{}, Proofs: []beacon.KZGProof{}, Blobs: []beacon.Blob{}},
		ExecutionRequests: beacon.ExecutionRequests{Deposits: []beacon.DepositRequest{}, Withdrawals: []beacon.WithdrawalRequest{}, Consolidations: []beacon.ConsolidationRequest{}},
	})
}

// Sign signs a Fulu submission's bid trace with the builder key.
func (e *Env) Sign(req *beacon.SubmitBlockRequestFulu) (*beacon.Submission, error) {
	sig, err := e.BuilderKey.Sign(&req.Message, beacon.BuilderDomain(e.Beacon))
	if err != nil {
		return nil, err
	}
	req.Signature = sig
	return beacon.NewSubmission(e.Spec, params.ForkFulu, req)
}

// BlindedBlock is the proposer's signed blinded block for a bid.
func (e *Env) BlindedBlock(slot uint64, bid *beacon.SignedBuilderBid) *beacon.SignedBlindedBeaconBlock {
	e.TB.Helper()
	v := e.Proposer(slot)
	if e.capella {
		blk := &beacon.SignedBlindedBeaconBlockCapella{Message: beacon.BlindedBeaconBlockCapella{
			Slot: slot, ProposerIndex: v.Index,
			Body: beacon.BlindedBeaconBlockBodyCapella{
				ProposerSlashings: []beacon.ProposerSlashing{}, AttesterSlashings: []beacon.AttesterSlashing{},
				Attestations: []beacon.Attestation{}, Deposits: []beacon.Deposit{}, VoluntaryExits: []beacon.SignedVoluntaryExit{},
				SyncAggregate: e.Spec.SyncAggregate(), ExecutionPayloadHeader: bid.Capella.Message.Header, BLSToExecutionChanges: []beacon.SignedBLSToExecutionChange{},
			},
		}}
		domain, err := beacon.ProposerDomain(e.Beacon, params.ForkCapella)
		if err != nil {
			e.TB.Fatal(err)
		}
		if blk.Signature, err = v.Key.Sign(e.Spec.Hashable(&blk.Message), domain); err != nil {
			e.TB.Fatal(err)
		}
		b, err := beacon.NewSignedBlindedBeaconBlock(e.Spec, params.ForkCapella, blk)
		if err != nil {
			e.TB.Fatal(err)
		}
		return b
	}
	m := bid.Electra.Message
	return e.BlindedBlockFrom(slot, beacon.BlindedBeaconBlockElectra{
		Slot: slot, ProposerIndex: v.Index,
		Body: beacon.BlindedBeaconBlockBodyElectra{
			ProposerSlashings: []beacon.ProposerSlashing{}, AttesterSlashings: []beacon.AttesterSlashingElectra{},
			Attestations: []beacon.AttestationElectra{}, Deposits: []beacon.Deposit{}, VoluntaryExits: []beacon.SignedVoluntaryExit{},
			SyncAggregate: e.Spec.SyncAggregate(), ExecutionPayloadHeader: m.Header, BLSToExecutionChanges: []beacon.SignedBLSToExecutionChange{},
			BlobKZGCommitments: m.BlobKZGCommitments, ExecutionRequests: m.ExecutionRequests,
		},
	})
}

// BlindedBlockFrom signs msg as slot's proposer.
func (e *Env) BlindedBlockFrom(slot uint64, msg beacon.BlindedBeaconBlockElectra) *beacon.SignedBlindedBeaconBlock {
	e.TB.Helper()
	v := e.Proposer(slot)
	blk := &beacon.SignedBlindedBeaconBlockElectra{Message: msg}
	domain, err := beacon.ProposerDomain(e.Beacon, params.ForkFulu)
	if err != nil {
		e.TB.Fatal(err)
	}
	if blk.Signature, err = v.Key.Sign(e.Spec.Hashable(&blk.Message), domain); err != nil {
		e.TB.Fatal(err)
	}
	b, err := beacon.NewSignedBlindedBeaconBlock(e.Spec, params.ForkFulu, blk)
	if err != nil {
		e.TB.Fatal(err)
	}
	return b
}
