package relay_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store"
)

// headerOf is the header-first submission announcing sub.
func headerOf(t *testing.T, sub *beacon.Submission) *beacon.HeaderSubmission {
	t.Helper()
	h, err := beacon.NewHeaderSubmission(sub)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func submitHeader(e *relaytest.Env, h *beacon.HeaderSubmission) (relay.SubmitOutcome, error) {
	return e.Relay.SubmitHeader(context.Background(), relay.HeaderRequest{Header: h, ReceivedAt: e.Clock.Now()})
}

// headerFirstEnv is a relay whose builder is optimistic with one ether of
// collateral, getPayload waiting bodyWait for a header's block.
func headerFirstEnv(t *testing.T, bodyWait time.Duration) (*relaytest.Env, chan error, func()) {
	e := relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) { c.BodyWait = bodyWait }})
	e.RegisterAll()
	promote(t, e, ether)
	sims := watchSimulations(e)
	release := e.Relay.HoldOptimisticSimulations()
	t.Cleanup(release)
	return e, sims, release
}

// TestHeaderFirstServedThenBody: an optimistic builder's header is served
// by getHeader before its block exists at the relay, with nothing recorded
// yet; a getPayload asked meanwhile waits for the block, which then takes
// the optimistic path (recorded, simulated in the background) and is
// delivered.
func TestHeaderFirstServedThenBody(t *testing.T) {
	e, sims, release := headerFirstEnv(t, 30*time.Second)
	b := e.BuildBlock(1, 3, nil)
	sub := e.Submission(b)
	if out, err := submitHeader(e, headerOf(t, sub)); err != nil || out != relay.Accepted {
		t.Fatalf("header submission: %v, %v", out, err)
	}
	signed := header(t, e, 1)
	if signed == nil || signed.Header().BlockHash() != sub.BidTrace().BlockHash {
		t.Fatalf("getHeader after the header: %v, want block %s", signed, sub.BidTrace().BlockHash)
	}
	if err := signed.VerifySignature(beacon.BuilderDomain(e.Relay.BeaconConfig())); err != nil {
		t.Fatalf("the relay's signature over the header bid: %v", err)
	}
	if n := pendingSimulations(t, e.Store); n != 0 {
		t.Fatalf("%d pending simulations before the block arrived", n)
	}
	delivered := make(chan error, 1)
	go func() {
		d, err := e.Relay.GetPayload(context.Background(), e.BlindedBlock(1, signed), false)
		if err == nil && d.Payload.View().BlockHash != sub.BidTrace().BlockHash {
			err = errors.New("delivered another block")
		}
		delivered <- err
	}()
	if out, err := submit(e, sub, false); err != nil || out != relay.Accepted {
		t.Fatalf("the header's block: %v, %v", out, err)
	}
	if err := <-delivered; err != nil {
		t.Fatalf("getPayload of a header-first bid: %v", err)
	}
	if n := pendingSimulations(t, e.Store); n != 1 {
		t.Fatalf("%d pending simulations once the block arrived, want 1", n)
	}
	release()
	if err := waitSimulation(t, sims); err != nil {
		t.Fatalf("background simulation: %v", err)
	}
	e.Relay.WaitBackground()
	if d := demotions(t, e.Store); len(d) != 0 {
		t.Fatalf("demotions after a good block: %+v", d)
	}
	// Its header again changes nothing.
	if out, err := submitHeader(e, headerOf(t, sub)); err != nil || out != relay.Dropped {
		t.Fatalf("the header again: %v, %v, want dropped", out, err)
	}
	// The block again is an ordinary submission now, for a delivered slot.
	if _, err := submit(e, sub, false); !errors.Is(err, relay.ErrSlotDelivered) {
		t.Fatalf("the block sent again: %v, want %v", err, relay.ErrSlotDelivered)
	}
}

// TestHeaderFirstBodyMissing: a proposer signs a header whose block never
// comes: getPayload fails after Config.BodyWait, the builder is demoted
// with ReasonPayloadMissing, its bid withdrawn, and the proposer is owed
// the bid's value though nothing was delivered.
func TestHeaderFirstBodyMissing(t *testing.T) {
	e, _, _ := headerFirstEnv(t, 50*time.Millisecond)
	b := e.BuildBlock(1, 3, nil)
	sub := e.Submission(b)
	if _, err := submitHeader(e, headerOf(t, sub)); err != nil {
		t.Fatal(err)
	}
	signed := header(t, e, 1)
	if signed == nil {
		t.Fatal("no header served")
	}
	if _, err := e.Relay.GetPayload(context.Background(), e.BlindedBlock(1, signed), false); !errors.Is(err, relay.ErrPayloadMissing) {
		t.Fatalf("getPayload without the block: %v, want %v", err, relay.ErrPayloadMissing)
	}
	d := demotions(t, e.Store)
	if len(d) != 1 || d[0].Reason != store.ReasonPayloadMissing || d[0].Delivered || d[0].ProposerOwed() != sub.BidTrace().Value {
		t.Fatalf("demotions %+v, want one for the missing block, owing %s", d, sub.BidTrace().Value)
	}
	if got := header(t, e, 1); got != nil {
		t.Fatalf("getHeader still serves the demoted builder's header %s", got.Header().BlockHash())
	}
	// The block coming after getPayload gave up on it is refused.
	if _, err := submit(e, sub, false); !errors.Is(err, relay.ErrPayloadMissing) {
		t.Fatalf("the block after getPayload gave up: %v, want %v", err, relay.ErrPayloadMissing)
	}
	// Demoted: its next header is refused, its blocks take the safe path.
	if _, err := submitHeader(e, headerOf(t, e.Submission(e.BuildBlock(2, 3, nil)))); !errors.Is(err, relay.ErrHeaderNotOptimistic) {
		t.Fatalf("a demoted builder's header: %v, want %v", err, relay.ErrHeaderNotOptimistic)
	}
}

// TestHeaderFirstMismatchedBody: a block whose hash is the header's but
// whose content is not (here its extra data) is refused without demoting
// anyone (the body is not signed: anyone could send it); the header stays
// served and its true block is then taken.
func TestHeaderFirstMismatchedBody(t *testing.T) {
	e, sims, release := headerFirstEnv(t, 30*time.Second)
	b := e.BuildBlock(1, 3, nil)
	sub := e.Submission(b)
	if _, err := submitHeader(e, headerOf(t, sub)); err != nil {
		t.Fatal(err)
	}
	forged := fulu(sub)
	forged.ExecutionPayload.ExtraData = []byte("not the header's")
	fs, err := beacon.NewSubmission(nil, sub.Fork, forged)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := submit(e, fs, false); !errors.Is(err, relay.ErrBodyMismatch) || !strings.Contains(err.Error(), "extra_data") {
		t.Fatalf("mismatched block: %v, want %v naming extra_data", err, relay.ErrBodyMismatch)
	}
	if d := demotions(t, e.Store); len(d) != 0 {
		t.Fatalf("a mismatched block demoted the builder: %+v", d)
	}
	if got := header(t, e, 1); got == nil || got.Header().BlockHash() != sub.BidTrace().BlockHash {
		t.Fatalf("getHeader after the mismatched block: %v", got)
	}
	if _, err := submit(e, sub, false); err != nil {
		t.Fatalf("the true block: %v", err)
	}
	release()
	if err := waitSimulation(t, sims); err != nil {
		t.Fatal(err)
	}
}

// TestHeaderFirstBodyRace: the true block, sent while forged blocks for
// the same header are being matched, is taken, never refused for them.
func TestHeaderFirstBodyRace(t *testing.T) {
	e, sims, release := headerFirstEnv(t, 30*time.Second)
	sub := e.Submission(e.BuildBlock(1, 3, nil))
	if _, err := submitHeader(e, headerOf(t, sub)); err != nil {
		t.Fatal(err)
	}
	forged := fulu(sub)
	forged.ExecutionPayload.ExtraData = []byte("forged")
	fs, err := beacon.NewSubmission(nil, sub.Fork, forged)
	if err != nil {
		t.Fatal(err)
	}
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for range 4 {
				if _, err := submit(e, fs, false); err != nil && !errors.Is(err, relay.ErrBodyMismatch) {
					t.Errorf("forged block: %v", err)
				}
			}
		}()
	}
	close(start)
	out, err := submit(e, sub, false)
	wg.Wait()
	if err != nil || out != relay.Accepted {
		t.Fatalf("the true block among forged ones: %v, %v", out, err)
	}
	release()
	if err := waitSimulation(t, sims); err != nil {
		t.Fatal(err)
	}
}

// TestHeaderFirstInvalidBlock: a header whose block then fails its
// simulation demotes the builder and is withdrawn, as any optimistic bid.
func TestHeaderFirstInvalidBlock(t *testing.T) {
	e, sims, release := headerFirstEnv(t, 30*time.Second)
	bad := badRoot(t, e, e.BuildBlock(1, 3, nil))
	if _, err := submitHeader(e, headerOf(t, bad)); err != nil {
		t.Fatal(err)
	}
	if got := header(t, e, 1); got == nil || got.Header().BlockHash() != bad.BidTrace().BlockHash {
		t.Fatalf("getHeader: %v", got)
	}
	if _, err := submit(e, bad, false); err != nil {
		t.Fatalf("the header's (invalid) block is taken before its simulation: %v", err)
	}
	release()
	if err := waitSimulation(t, sims); !errors.Is(err, relay.ErrSimulation) {
		t.Fatalf("background simulation: %v, want %v", err, relay.ErrSimulation)
	}
	e.Relay.WaitBackground()
	if got := header(t, e, 1); got != nil {
		t.Fatal("getHeader still serves the invalid block")
	}
	if d := demotions(t, e.Store); len(d) != 1 || !strings.Contains(d[0].Reason, "invalid merkle root") || d[0].ProposerOwed() != (beacon.U256{}) {
		t.Fatalf("demotions %+v", d)
	}
}

// TestHeaderFirstRefused: headers are taken only from optimistic builders
// within their collateral, with a valid signature, and run the checks that
// need no payload.
func TestHeaderFirstRefused(t *testing.T) {
	t.Run("not optimistic", func(t *testing.T) {
		e := relaytest.New(t, relaytest.Options{})
		e.RegisterAll()
		if _, err := submitHeader(e, headerOf(t, e.Submission(e.BuildBlock(1, 3, nil)))); !errors.Is(err, relay.ErrHeaderNotOptimistic) {
			t.Fatalf("got %v, want %v", err, relay.ErrHeaderNotOptimistic)
		}
	})
	t.Run("over collateral", func(t *testing.T) {
		e := relaytest.New(t, relaytest.Options{})
		e.RegisterAll()
		b := e.BuildBlock(1, 3, nil)
		promote(t, e, new(uint256.Int).SubUint64(b.Value, 1))
		if _, err := submitHeader(e, headerOf(t, e.Submission(b))); !errors.Is(err, relay.ErrHeaderNotOptimistic) || !strings.Contains(err.Error(), "collateral") {
			t.Fatalf("got %v, want %v naming the collateral", err, relay.ErrHeaderNotOptimistic)
		}
	})
	e, _, _ := headerFirstEnv(t, 30*time.Second)
	sub := e.Submission(e.BuildBlock(1, 3, nil))
	t.Run("bad signature", func(t *testing.T) {
		h := headerOf(t, sub)
		h.Electra.Signature[10] ^= 1
		if _, err := submitHeader(e, h); !errors.Is(err, relay.ErrBuilderSignature) {
			t.Fatalf("got %v, want %v", err, relay.ErrBuilderSignature)
		}
	})
	t.Run("wrong timestamp", func(t *testing.T) {
		h := headerOf(t, sub)
		h.Header().Timestamp++
		if _, err := submitHeader(e, h); !errors.Is(err, relay.ErrTimestamp) {
			t.Fatalf("got %v, want %v", err, relay.ErrTimestamp)
		}
	})
	t.Run("wrong withdrawals root", func(t *testing.T) {
		h := headerOf(t, sub)
		h.Header().WithdrawalsRoot[0] ^= 1
		if _, err := submitHeader(e, h); !errors.Is(err, relay.ErrWithdrawalsRoot) {
			t.Fatalf("got %v, want %v", err, relay.ErrWithdrawalsRoot)
		}
	})
	t.Run("gas used not the trace's", func(t *testing.T) {
		h := headerOf(t, sub)
		h.Header().GasUsed++
		if _, err := submitHeader(e, h); !errors.Is(err, relay.ErrBidTrace) {
			t.Fatalf("got %v, want %v", err, relay.ErrBidTrace)
		}
	})
	if got := header(t, e, 1); got != nil {
		t.Fatal("a refused header is served")
	}
}

// TestHeaderFirstShared: with two instances on one PostgreSQL database, a
// header is served only by the instance that took it; its block, once
// there, is shared, and the other instance delivers it to the proposer who
// signed the header.
func TestHeaderFirstShared(t *testing.T) {
	a, b, onB := optimisticPair(t)
	sub := a.Submission(a.BuildBlock(1, 3, nil))
	if _, err := submitHeader(a, headerOf(t, sub)); err != nil {
		t.Fatal(err)
	}
	signed := header(t, a, 1)
	if signed == nil || signed.Header().BlockHash() != sub.BidTrace().BlockHash {
		t.Fatalf("A's getHeader: %v", signed)
	}
	if got := header(t, b, 1); got != nil {
		t.Fatalf("B serves a header it never took: %s", got.Header().BlockHash())
	}
	if _, err := submit(a, sub, false); err != nil {
		t.Fatalf("the block on A: %v", err)
	}
	waitBid(t, onB, sub.BidTrace().BlockHash)
	d, err := b.Relay.GetPayload(context.Background(), b.BlindedBlock(1, signed), false)
	if err != nil || d.Payload.View().BlockHash != sub.BidTrace().BlockHash {
		t.Fatalf("B's getPayload of A's header-first bid: %v", err)
	}
}

// TestHeaderFirstRestart: a header bid lives in memory until its block
// arrives. After a restart in between it is neither served nor
// deliverable; the block, sent after the restart, is an ordinary optimistic
// submission again.
func TestHeaderFirstRestart(t *testing.T) {
	path := t.TempDir() + "/relay.db"
	e := relaytest.New(t, relaytest.Options{StorePath: path})
	e.RegisterAll()
	promote(t, e, ether)
	sub := e.Submission(e.BuildBlock(1, 3, nil))
	if _, err := submitHeader(e, headerOf(t, sub)); err != nil {
		t.Fatal(err)
	}
	signed := header(t, e, 1)
	if signed == nil {
		t.Fatal("header not served")
	}
	e.Relay.Close()
	if err := e.Store.Close(); err != nil {
		t.Fatal(err)
	}
	e2 := relaytest.New(t, relaytest.Options{StorePath: path})
	e2.Attrs(1) // the slot's payload attributes, as the beacon node's events give them again
	if got := header(t, e2, 1); got != nil {
		t.Fatalf("a header lost in the restart is served: %s", got.Header().BlockHash())
	}
	if _, err := e2.Relay.GetPayload(context.Background(), e2.BlindedBlock(1, signed), false); !errors.Is(err, relay.ErrUnknownPayload) {
		t.Fatalf("getPayload of a header lost in the restart: %v, want %v", err, relay.ErrUnknownPayload)
	}
	t.Cleanup(e2.Relay.HoldOptimisticSimulations()) // its record stays until we looked
	if out, err := submit(e2, sub, false); err != nil || out != relay.Accepted {
		t.Fatalf("the block after the restart: %v, %v", out, err)
	}
	if got := header(t, e2, 1); got == nil || got.Header().BlockHash() != sub.BidTrace().BlockHash {
		t.Fatalf("getHeader after the block: %v", got)
	}
	if n := pendingSimulations(t, e2.Store); n != 1 {
		t.Fatalf("%d pending simulations: the block did not take the optimistic path", n)
	}
	if _, err := e2.Relay.GetPayload(context.Background(), e2.BlindedBlock(1, signed), false); err != nil {
		t.Fatalf("getPayload once the block came: %v", err)
	}
}
