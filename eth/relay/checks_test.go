package relay_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/params"
)

func submit(e *relaytest.Env, sub *beacon.Submission, cancel bool) (relay.SubmitOutcome, error) {
	return e.Relay.Submit(context.Background(), relay.SubmitRequest{Submission: sub, Cancellations: cancel, ReceivedAt: e.Clock.Now()})
}

// fulu returns a copy of a Fulu submission's request to edit.
func fulu(sub *beacon.Submission) *beacon.SubmitBlockRequestFulu {
	c := *sub.Fulu
	c.ExecutionPayload.Transactions = append([][]byte(nil), c.ExecutionPayload.Transactions...)
	return &c
}

// TestSubmissionChecks runs a good submission through Submit, then one
// submission per check that fails exactly that check, in the pipeline's
// order, and compares the error's sentinel and message.
func TestSubmissionChecks(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	b := e.BuildBlock(1, 3, nil)
	good := e.Submission(b)
	slotTime := e.Beacon.SlotTime(1)

	resign := func(edit func(r *beacon.SubmitBlockRequestFulu)) *beacon.Submission {
		r := fulu(good)
		edit(r)
		s, err := e.Sign(r)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	other := e.Validators[2]
	cases := []struct {
		name     string
		sub      func() *beacon.Submission
		sentinel error
		msg      string // exact, or a prefix when it ends in "*"
	}{
		{"fork", func() *beacon.Submission {
			r := fulu(good)
			s, _ := beacon.NewSubmission(beacon.MainnetSpec, params.ForkElectra, &beacon.SubmitBlockRequestElectra{Message: r.Message, ExecutionPayload: r.ExecutionPayload,
				BlobsBundle: beacon.BlobsBundle(r.BlobsBundle), ExecutionRequests: r.ExecutionRequests, Signature: r.Signature})
			return s
		}, relay.ErrWrongFork, "not fulu payload"},
		{"timestamp", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) { r.ExecutionPayload.Timestamp++ })
		}, relay.ErrTimestamp, "incorrect timestamp. got " + u(slotTime+1) + ", expected " + u(slotTime)},
		{"no duty", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) {
				r.Message.Slot = 1000
				r.ExecutionPayload.Timestamp = e.Beacon.SlotTime(1000)
			})
		}, relay.ErrNoDuty, "could not find slot duty"},
		{"proposer", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) { r.Message.ProposerPubkey = other.Key.PublicKey() })
		}, relay.ErrProposerMismatch, "proposer pubkey does not match the slot duty: got " + other.Key.PublicKey().String() + ", expected " + e.Proposer(1).Key.PublicKey().String()},
		{"fee recipient", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) {
				r.Message.ProposerFeeRecipient = beacon.Address(other.FeeRecipient)
			})
		}, relay.ErrFeeRecipient, "fee recipient does not match"},
		{"block hash", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) { r.Message.BlockHash[0] ^= 1 })
		}, relay.ErrBlockHash, "blockHash mismatch"},
		{"parent hash", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) { r.Message.ParentHash[0] ^= 1 })
		}, relay.ErrParentHash, "parentHash mismatch"},
		{"attributes", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) {
				r.Message.ParentHash[0] ^= 1
				r.ExecutionPayload.ParentHash[0] ^= 1
			})
		}, relay.ErrNoPayloadAttributes, "payload attributes not (yet) known"},
		{"prev randao", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) { r.ExecutionPayload.PrevRandao = beacon.Root{1} })
		}, relay.ErrPrevRandao, "incorrect prev_randao - got: " + beacon.Root{1}.String() + ", expected: " + common.Hash(good.Fulu.ExecutionPayload.PrevRandao).Hex()},
		{"withdrawals", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) {
				r.ExecutionPayload.Withdrawals = []beacon.Withdrawal{{Index: 1, Amount: 5}}
			})
		}, relay.ErrWithdrawalsRoot, "incorrect withdrawals root - got: *"},
		{"signature", func() *beacon.Submission {
			r := fulu(good)
			r.Signature, _ = other.Key.Sign(&r.Message, beacon.BuilderDomain(e.Beacon))
			s, _ := beacon.NewSubmission(beacon.MainnetSpec, params.ForkFulu, r)
			return s
		}, relay.ErrBuilderSignature, "invalid signature"},
		{"bid gas used", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) { r.Message.GasUsed++ })
		}, relay.ErrBidTrace, "bid trace does not match the payload: block gas used mismatch: got " + u(good.Fulu.Message.GasUsed+1) + ", expected " + u(good.Fulu.Message.GasUsed)},
		{"bid gas limit", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) { r.Message.GasLimit-- })
		}, relay.ErrBidTrace, "bid trace does not match the payload: block gas limit mismatch: got 29999999, expected 30000000"},
		{"sealed block hash", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) { r.ExecutionPayload.ExtraData = []byte("x") })
		}, relay.ErrSimulation, "simulation failed: invalid block: blockhash mismatch*"},
		{"state root", func() *beacon.Submission {
			h := b.Built.Block.Header()
			h.Root = common.Hash{1}
			blk := b.Built.Block.WithSeal(h)
			d := engine.BlockToExecutableData(blk, nil, nil, nil).ExecutionPayload
			p, _ := beacon.ExecutionPayloadFromExecutableData(params.ForkFulu, d)
			return resign(func(r *beacon.SubmitBlockRequestFulu) {
				r.ExecutionPayload = *p.Deneb
				r.Message.BlockHash = p.Deneb.BlockHash
			})
		}, relay.ErrSimulation, "simulation failed: block execution failed: invalid merkle root*"},
		{"payment", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) {
				r.Message.Value = beacon.U256FromUint256(new(uint256.Int).AddUint64(b.Value, 1))
			})
		}, relay.ErrSimulation, "simulation failed: could not verify proposer payment: inaccurate payment " + b.Value.Dec() + ", expected " + new(uint256.Int).AddUint64(b.Value, 1).Dec()},
		{"blobs", func() *beacon.Submission {
			return resign(func(r *beacon.SubmitBlockRequestFulu) {
				r.BlobsBundle.Commitments = []beacon.KZGCommitment{{0xc0}}
			})
		}, relay.ErrSimulation, "simulation failed: invalid block: invalid number of versionedHashes*"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := submit(e, c.sub(), false)
			if !errors.Is(err, c.sentinel) {
				t.Fatalf("error %v, want %v", err, c.sentinel)
			}
			if p, ok := strings.CutSuffix(c.msg, "*"); ok {
				if !strings.HasPrefix(err.Error(), p) {
					t.Fatalf("message %q, want prefix %q", err, p)
				}
			} else if err.Error() != c.msg {
				t.Fatalf("message %q, want %q", err, c.msg)
			}
		})
	}

	// The good submission passes, and becomes the bid getHeader serves.
	if out, err := submit(e, good, false); err != nil || out != relay.Accepted {
		t.Fatalf("good submission: %v, %v", out, err)
	}
	v := e.Proposer(1)
	bid, err := e.Relay.GetHeader(context.Background(), 1, good.Fulu.Message.ParentHash, v.Key.PublicKey())
	if err != nil || bid == nil {
		t.Fatalf("getHeader: %v, %v", bid, err)
	}
	if bid.Header().BlockHash() != good.Fulu.Message.BlockHash || bid.Pubkey() != e.RelayKey.PublicKey() {
		t.Fatal("getHeader serves another bid or another signer")
	}
	if err := bid.VerifySignature(beacon.BuilderDomain(e.Beacon)); err != nil {
		t.Fatalf("relay signature: %v", err)
	}
	// The best bid keeps its verified block; without a beta source there is
	// no state to keep (TestBetaThroughRelay checks the kept state).
	best := e.Relay.BestBid(1, good.Fulu.Message.ParentHash, v.Key.PublicKey())
	if best == nil || best.Verified() == nil {
		t.Fatal("the best bid has no verified block")
	}
	if best.Verified().HasState() {
		t.Fatal("a relay without beta kept a state nothing uses")
	}
	// The same value again is at the floor: 202, not simulated.
	if out, err := submit(e, good, false); err != nil || out != relay.BelowFloor {
		t.Fatalf("resubmission: %v, %v; want below floor", out, err)
	}
	// Past slot, once the head has moved.
	e.Relay.SetHeadSlot(1)
	if _, err := submit(e, good, false); !errors.Is(err, relay.ErrPastSlot) || err.Error() != "submission for past slot" {
		t.Fatalf("past slot: %v", err)
	}
}

func TestZeroValueDropped(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	b := e.BuildBlock(1, 0, uint256.NewInt(0))
	if out, err := submit(e, e.Submission(b), false); err != nil || out != relay.Dropped {
		t.Fatalf("zero value: %v, %v; want dropped", out, err)
	}
}

func TestGasLimitRule(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	v := e.Proposer(1)
	if err := e.Relay.RegisterValidators(context.Background(), []beacon.SignedValidatorRegistration{
		e.Registration(v, 40_000_000, e.Beacon.GenesisTime+5),
	}); err != nil {
		t.Fatal(err)
	}
	_, err := submit(e, e.Submission(e.BuildBlock(1, 1, nil)), false)
	want := "simulation failed: incorrect gas limit set: got 30000000, expected 30029295 (parent 30000000, registered 40000000)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

func TestCancellations(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	b := e.BuildBlock(1, 2, nil)
	high := e.Submission(b)
	// The builder pays b.Value; bidding less is allowed (the payment is at
	// least the value).
	low, err := e.SubmissionWith(b, func(t *beacon.BidTrace) { t.Value = beacon.U256FromUint64(1) })
	if err != nil {
		t.Fatal(err)
	}
	pk := e.Proposer(1).Key.PublicKey()
	parent := high.Fulu.Message.ParentHash
	if _, err := submit(e, high, true); err != nil {
		t.Fatal(err)
	}
	e.Clock.Set(e.Clock.Now().Add(time.Millisecond))
	if out, err := submit(e, low, true); err != nil || out != relay.Accepted {
		t.Fatalf("lower cancellable bid: %v %v", out, err)
	}
	bid, _ := e.Relay.GetHeader(context.Background(), 1, parent, pk)
	if bid == nil || bid.Value() != beacon.U256FromUint64(1) {
		t.Fatalf("the builder's newer, lower bid must replace its earlier one")
	}
	// An older submission arriving after a newer one is refused.
	if _, err := e.Relay.Submit(context.Background(), relay.SubmitRequest{Submission: high, Cancellations: true, ReceivedAt: e.Clock.Now().Add(-time.Second)}); !errors.Is(err, relay.ErrNewerPayload) || err.Error() != "already using a newer payload" {
		t.Fatalf("older submission: %v", err)
	}

	d := relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) { c.CancellationsDisabled = true }})
	if _, err := submit(d, high, true); !errors.Is(err, relay.ErrCancellationsDisabled) || err.Error() != "cancellations are disabled" {
		t.Fatalf("disabled: %v", err)
	}
}

func u(x uint64) string { return uint256.NewInt(x).Dec() }

// TestSignatureCheckFailed: an early signature check over a signature that
// does not verify reports ErrBuilderSignature without waiting once it is
// done (the listener then stops reading the submission's body).
func TestSignatureCheckFailed(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	sub := e.Submission(e.BuildBlock(1, 1, nil))
	sig := sub.Signature()
	sig[len(sig)-1] ^= 1
	c := e.Relay.StartSignatureCheck(sub.BidTrace(), sig)
	deadline := time.Now().Add(20 * time.Second) // a safety net, not a timing assertion
	for c.Failed() == nil {
		if time.Now().After(deadline) {
			t.Fatal("a bad signature's check never reported its failure")
		}
		time.Sleep(time.Millisecond)
	}
	if err := c.Failed(); !errors.Is(err, relay.ErrBuilderSignature) {
		t.Fatalf("Failed() = %v, want ErrBuilderSignature", err)
	}
}
