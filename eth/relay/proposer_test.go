package relay_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

func TestRegistrationChecks(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	ctx := context.Background()
	v0, v1 := e.Validators[0], e.Validators[1]
	g := e.Beacon.GenesisTime
	now := uint64(e.Clock.Now().Unix())

	expect := func(name string, err error, sentinel error, msg string) {
		t.Helper()
		if !errors.Is(err, sentinel) || err.Error() != msg {
			t.Fatalf("%s: %v, want %q", name, err, msg)
		}
	}
	expect("empty", e.Relay.RegisterValidators(ctx, nil), relay.ErrEmptyRegistrations, "empty request")
	expect("too early", e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{e.Registration(v0, 1, g-86401)}),
		relay.ErrTimestampTooEarly, fmt.Sprintf("timestamp too early: %d, expected %d or later (genesis %d less 24h0m0s)", g-86401, g-86400, g))
	expect("too late", e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{e.Registration(v0, 1, now+11)}),
		relay.ErrTimestampTooLate, fmt.Sprintf("timestamp too far in the future: %d, expected %d or earlier (now plus 10s)", now+11, now+10))
	stranger := relaytest.Validator{Key: e.BuilderKey}
	expect("unknown", e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{e.Registration(stranger, 1, g)}),
		relay.ErrUnknownValidator, "not a known validator: "+e.BuilderKey.PublicKey().String())

	// A bad signature rejects the request; registrations before it are kept.
	bad := e.Registration(v1, 1, g)
	bad.Signature = e.Registration(v0, 2, g).Signature
	err := e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{e.Registration(v0, 7, g), bad})
	expect("signature", err, relay.ErrValidatorSignature, "failed to verify validator signature for "+v1.Key.PublicKey().String())
	if r, ok := e.Relay.Registration(v0.Key.PublicKey()); !ok || r.Message.GasLimit != 7 {
		t.Fatal("the registration before the bad one is not kept")
	}
	if _, ok := e.Relay.Registration(v1.Key.PublicKey()); ok {
		t.Fatal("the badly signed registration was kept")
	}
	if _, err := e.Store.Registration(ctx, v0.Key.PublicKey()); err != nil {
		t.Fatalf("not committed to the store: %v", err)
	}

	// Newer-only: a change with an older timestamp is ignored, a newer one
	// replaces.
	if err := e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{e.Registration(v0, 8, g)}); err != nil {
		t.Fatal(err)
	}
	if r, _ := e.Relay.Registration(v0.Key.PublicKey()); r.Message.GasLimit != 7 {
		t.Fatal("a change that is not newer replaced the registration")
	}
	if err := e.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{e.Registration(v0, 9, g+1)}); err != nil {
		t.Fatal(err)
	}
	if r, _ := e.Relay.Registration(v0.Key.PublicKey()); r.Message.GasLimit != 9 {
		t.Fatal("a newer registration did not replace the old one")
	}
}

// accepted submits a block for slot and returns the bid getHeader serves.
func accepted(t *testing.T, e *relaytest.Env, slot uint64, transfers int) *beacon.SignedBuilderBid {
	t.Helper()
	sub := e.Submission(e.BuildBlock(slot, transfers, nil))
	if out, err := submit(e, sub, false); err != nil || out != relay.Accepted {
		t.Fatalf("submission: %v %v", out, err)
	}
	bid, err := e.Relay.GetHeader(context.Background(), slot, sub.Fulu.Message.ParentHash, e.Proposer(slot).Key.PublicKey())
	if err != nil || bid == nil {
		t.Fatalf("getHeader: %v %v", bid, err)
	}
	return bid
}

func TestGetHeader(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	parent := beacon.Root(e.Chain.Head().Hash())
	pk := e.Proposer(1).Key.PublicKey()
	if bid, err := e.Relay.GetHeader(context.Background(), 1, parent, pk); bid != nil || err != nil {
		t.Fatalf("no bid yet: %v %v, want none (204)", bid, err)
	}
	accepted(t, e, 1, 1)
	if bid, _ := e.Relay.GetHeader(context.Background(), 1, parent, e.Proposer(2).Key.PublicKey()); bid != nil {
		t.Fatal("a bid for another proposer is served")
	}
	// More than 3 s into the slot: no bid (204), as the reference relay.
	start := e.Clock.Now()
	e.Clock.Set(start.Add(3*time.Second + time.Millisecond))
	if bid, err := e.Relay.GetHeader(context.Background(), 1, parent, pk); bid != nil || err != nil {
		t.Fatalf("past the cutoff: %v %v, want none", bid, err)
	}
	e.Clock.Set(start)
	e.Relay.SetHeadSlot(2)
	if _, err := e.Relay.GetHeader(context.Background(), 1, parent, pk); !errors.Is(err, relay.ErrSlotTooOld) || err.Error() != "slot is too old" {
		t.Fatalf("old slot: %v", err)
	}
}

func TestGetPayloadChecks(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	ctx := context.Background()
	bid := accepted(t, e, 1, 2)
	good := e.BlindedBlock(1, bid)

	expect := func(name string, blk *beacon.SignedBlindedBeaconBlock, sentinel error, msg string) {
		t.Helper()
		_, err := e.Relay.GetPayload(ctx, blk, false)
		if !errors.Is(err, sentinel) || err.Error() != msg {
			t.Fatalf("%s: %v, want %q", name, err, msg)
		}
	}
	wrongFork := *good
	wrongFork.Fork = params.ForkElectra
	expect("version", &wrongFork, relay.ErrConsensusVersion, "error checking payload and header version: Fulu payload with wrong consensus version. Expected: fulu, Got: electra")

	idx := *good.Electra
	idx.Message.ProposerIndex = 2
	expect("proposer index", &beacon.SignedBlindedBeaconBlock{Fork: params.ForkFulu, Electra: &idx}, relay.ErrProposerIndex, "not the expected proposer index")

	sig := *good.Electra
	sig.Signature = e.BlindedBlock(1, bid).Electra.Signature
	sig.Message.Body.Graffiti[0] = 1
	expect("signature", &beacon.SignedBlindedBeaconBlock{Fork: params.ForkFulu, Electra: &sig}, relay.ErrPayloadSignature, "could not verify payload signature")

	unknown := e.BlindedBlock(1, bid)
	unknown.Electra.Message.Body.ExecutionPayloadHeader.BlockHash[0] ^= 1
	resigned := e.BlindedBlockFrom(1, unknown.Electra.Message)
	expect("unknown payload", resigned, relay.ErrUnknownPayload, "no execution payload for this request")

	mismatch := e.BlindedBlock(1, bid)
	mismatch.Electra.Message.Body.ExecutionPayloadHeader.GasUsed++
	expect("header", e.BlindedBlockFrom(1, mismatch.Electra.Message), relay.ErrHeaderMismatch, "invalid execution payload header")

	if e.Publisher.Count() != 0 {
		t.Fatal("a rejected request published a block")
	}
	d, err := e.Relay.GetPayload(ctx, good, false)
	if err != nil {
		t.Fatal(err)
	}
	if d.Payload.View().BlockHash != bid.Header().BlockHash() || e.Publisher.Count() != 1 {
		t.Fatal("getPayload delivered another payload or did not publish")
	}
	rec, err := e.Store.Delivered(ctx, 1)
	if err != nil || rec.BlockHash != bid.Header().BlockHash() || rec.NumTx != 3 {
		t.Fatalf("delivered record: %+v %v", rec, err)
	}
	// The same block again is served again (repeated getPayload).
	if _, err := e.Relay.GetPayload(ctx, good, false); err != nil {
		t.Fatalf("repeat: %v", err)
	}
	// Submissions for a delivered slot are pointless.
	sub := e.Submission(e.BuildBlock(1, 4, nil))
	if _, err := submit(e, sub, false); !errors.Is(err, relay.ErrSlotDelivered) || err.Error() != "payload for this slot was already delivered" {
		t.Fatalf("submission after delivery: %v", err)
	}
}

// TestEquivocationUnderConcurrency sends 50 concurrent getPayload calls for
// one slot, half for each of two blocks: exactly one block is delivered,
// every call for it gets it, every call for the other is refused.
func TestEquivocationUnderConcurrency(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	ctx := context.Background()
	blkA := e.BlindedBlock(1, accepted(t, e, 1, 1))
	bidB := accepted(t, e, 1, 2) // a better bid of the same builder
	blkB := e.BlindedBlock(1, bidB)

	var wg sync.WaitGroup
	results := make([]error, 50)
	hashes := make([]beacon.Root, 50)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			blk := blkA
			if i%2 == 1 {
				blk = blkB
			}
			d, err := e.Relay.GetPayload(ctx, blk, false)
			results[i] = err
			if err == nil {
				hashes[i] = d.Payload.View().BlockHash
			}
		}(i)
	}
	wg.Wait()
	winners := map[beacon.Root]int{}
	for i, err := range results {
		switch {
		case err == nil:
			winners[hashes[i]]++
		case !errors.Is(err, relay.ErrEquivocation):
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if len(winners) != 1 {
		t.Fatalf("%d different payloads delivered for one slot", len(winners))
	}
	for _, n := range winners {
		if n != 25 {
			t.Fatalf("%d calls got the delivered block, want 25", n)
		}
	}
	rows, err := e.Store.DeliveredPayloads(ctx, store.DeliveredQuery{})
	if err != nil || len(rows) != 1 {
		t.Fatalf("%d delivered records, %v", len(rows), err)
	}
}

// TestRestartKeepsState reopens the store under a new relay: registrations
// come back, and the delivered slot still refuses another payload.
func TestRestartKeepsState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "relay.db")
	e := relaytest.New(t, relaytest.Options{StorePath: path})
	e.RegisterAll()
	ctx := context.Background()
	blkA := e.BlindedBlock(1, accepted(t, e, 1, 1))
	if _, err := e.Relay.GetPayload(ctx, blkA, false); err != nil {
		t.Fatal(err)
	}
	if err := e.Store.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r, err := relay.New(relay.Config{Beacon: e.Beacon, SecretKey: e.RelayKey, Now: e.Clock.Now}, e.Chain, st, e.Publisher, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range e.Validators {
		if _, ok := r.Registration(v.Key.PublicKey()); !ok {
			t.Fatalf("registration of validator %d lost", v.Index)
		}
	}
	e.Feed(r)
	e.Relay = r
	// A restarted relay refuses a second payload for the delivered slot,
	// and submissions for it, from what the database says.
	sub := e.Submission(e.BuildBlock(1, 3, nil))
	if _, err := submit(e, sub, false); !errors.Is(err, relay.ErrSlotDelivered) {
		t.Fatalf("submission for a delivered slot after restart: %v", err)
	}
	if d, err := st.Delivered(ctx, 1); err != nil || d.BlockHash != blkA.Header().BlockHash() {
		t.Fatalf("delivered record lost: %v", err)
	}
}

// TestValidatorsListsRegisteredOnly: the builder API's duty list covers the
// whole current and next epoch (the current epoch's past slots too) and only
// registered proposers.
func TestValidatorsListsRegisteredOnly(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	if got := e.Relay.Validators(); len(got) != 0 {
		t.Fatalf("%d duties before any registration", len(got))
	}
	v := e.Validators[1]
	if err := e.Relay.RegisterValidators(context.Background(), []beacon.SignedValidatorRegistration{e.Registration(v, 1, e.Beacon.GenesisTime)}); err != nil {
		t.Fatal(err)
	}
	e.Relay.SetHeadSlot(3)
	got := e.Relay.Validators()
	// Validator 1 proposes slots 1, 5, 9, ... of the first two epochs (64
	// slots), all listed: slot 1, before the head (3), too.
	if len(got) != 16 || got[0].Slot != 1 {
		t.Fatalf("%d duties from slot %d, want 16 from slot 1", len(got), got[0].Slot)
	}
	for _, d := range got {
		if d.ValidatorIndex != 1 || d.Slot%4 != 1 || d.Entry.Message.Pubkey != v.Key.PublicKey() || d.BetaGas != 0 {
			t.Fatalf("unexpected duty %+v", d)
		}
	}
}

// TestGetPayloadLateAndPublishFailure: a request past the getPayload cutoff
// and a publish failure are refused with the reference relay's messages.
func TestGetPayloadLateAndPublishFailure(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	blk := e.BlindedBlock(1, accepted(t, e, 1, 1))
	start := e.Clock.Now()
	e.Clock.Set(start.Add(4500 * time.Millisecond))
	if _, err := e.Relay.GetPayload(context.Background(), blk, false); !errors.Is(err, relay.ErrTooLate) || err.Error() != "sent too late - 4500 ms into slot" {
		t.Fatalf("late: %v", err)
	}
	e.Clock.Set(start)
	e.Publisher.Err = errors.New("beacon node down")
	if _, err := e.Relay.GetPayload(context.Background(), blk, false); !errors.Is(err, relay.ErrPublish) || err.Error() != "failed to publish block" {
		t.Fatalf("publish failure: %v", err)
	}
	if e.Publisher.Attempts != relay.DefaultPublishAttempts {
		t.Fatalf("%d publish attempts, want %d", e.Publisher.Attempts, relay.DefaultPublishAttempts)
	}
	// Issue 14, finding 6: nothing is recorded for a block not accepted.
	ctx := context.Background()
	if _, err := e.Store.Delivered(ctx, 1); err == nil {
		t.Fatal("a delivery was recorded for a block that failed to publish")
	}
	// The same block is published again on the next request, and recorded.
	e.Publisher.Err = nil
	if _, err := e.Relay.GetPayload(ctx, blk, false); err != nil {
		t.Fatalf("retry after the failure: %v", err)
	}
	if d, err := e.Store.Delivered(ctx, 1); err != nil || d.BlockHash != blk.Header().BlockHash() {
		t.Fatalf("delivery not recorded after the block was accepted: %v", err)
	}
	// Repeats are answered from the record: published once.
	for i := 0; i < 5; i++ {
		if _, err := e.Relay.GetPayload(ctx, blk, false); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.Publisher.Count(); n != 1 {
		t.Fatalf("block published %d times, want once", n)
	}
}

// TestGetPayloadPublishRetried: a publish that fails once is tried again;
// the proposer gets its payload and the block is published.
func TestGetPayloadPublishRetried(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	blk := e.BlindedBlock(1, accepted(t, e, 1, 1))
	e.Publisher.FailNext = 1
	d, err := e.Relay.GetPayload(context.Background(), blk, false)
	if err != nil || d == nil {
		t.Fatalf("getPayload with one failed publish: %v", err)
	}
	if e.Publisher.Count() != 1 || e.Publisher.Attempts != 2 {
		t.Fatalf("published %d blocks in %d attempts, want 1 in 2", e.Publisher.Count(), e.Publisher.Attempts)
	}
}

// TestCloseWaitsForPublish: getPayload v2 answers before the block is
// published; Close returns only once that publish has ended.
func TestCloseWaitsForPublish(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	blk := e.BlindedBlock(1, accepted(t, e, 1, 1))
	gate := make(chan struct{})
	e.Publisher.Gate = gate
	if _, err := e.Relay.GetPayload(context.Background(), blk, true); err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() {
		e.Relay.Close()
		close(closed)
	}()
	select {
	case <-closed:
		t.Fatal("Close returned while a block was still being published")
	default:
	}
	close(gate)
	<-closed
	if n := e.Publisher.Count(); n != 1 {
		t.Fatalf("%d blocks published when Close returned, want 1", n)
	}
}

// TestDeliveryOutlivesTheRequest: a proposer that hangs up right after
// POSTing its signed blinded block still gets the block published and the
// delivery recorded; the request's context does not reach the record.
func TestDeliveryOutlivesTheRequest(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	blk := e.BlindedBlock(1, accepted(t, e, 1, 1))
	e.Publisher.Gate = make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := e.Relay.GetPayload(ctx, blk, false)
		done <- err
	}()
	cancel() // the proposer hangs up while the block is being published
	close(e.Publisher.Gate)
	if err := <-done; err != nil {
		t.Fatalf("getPayload after the proposer hung up: %v", err)
	}
	if e.Publisher.Count() != 1 {
		t.Fatalf("%d blocks published, want 1", e.Publisher.Count())
	}
	rec, err := e.Store.Delivered(context.Background(), 1)
	if err != nil || rec.BlockHash != blk.Header().BlockHash() {
		t.Fatalf("delivery record after the proposer hung up: %+v, %v", rec, err)
	}
}

// TestSecondBeaconBlockForDeliveredPayload: the proposer signs a second
// blinded beacon block (other graffiti) over the execution header it already
// got the payload of. The reference relay keys on the block hash, so the
// payload, public already, is served again; the second block is a proposer
// equivocation: counted, not published.
func TestSecondBeaconBlockForDeliveredPayload(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	ctx := context.Background()
	bid := accepted(t, e, 1, 1)
	first := e.BlindedBlock(1, bid)
	if _, err := e.Relay.GetPayload(ctx, first, false); err != nil {
		t.Fatal(err)
	}
	before := relay.ProposerEquivocations()
	if _, err := e.Relay.GetPayload(ctx, first, false); err != nil || relay.ProposerEquivocations() != before {
		t.Fatalf("the same signed block again: %v, %d equivocations counted", err, relay.ProposerEquivocations()-before)
	}
	msg := first.Electra.Message
	copy(msg.Body.Graffiti[:], "second")
	second := e.BlindedBlockFrom(1, msg)
	for _, async := range []bool{false, true} {
		d, err := e.Relay.GetPayload(ctx, second, async)
		if err != nil {
			t.Fatalf("second beacon block (async %v): %v", async, err)
		}
		if d.Payload.View().BlockHash != bid.Header().BlockHash() {
			t.Fatal("the second beacon block got another payload")
		}
	}
	if got := relay.ProposerEquivocations() - before; got != 2 {
		t.Errorf("%d equivocations counted, want 2", got)
	}
	if e.Publisher.Count() != 1 {
		t.Errorf("%d blocks published, want the first only", e.Publisher.Count())
	}
}
