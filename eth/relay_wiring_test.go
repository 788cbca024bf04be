package eth

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/beaconclient"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store"
)

// TestFeedAttributes: a beacon node's payload_attributes event reaches the
// relay's checks: a wrong prevRandao in the event rejects the slot's
// submission, the right one lets it through.
func TestFeedAttributes(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	b := e.BuildBlock(1, 1, nil)
	sub := e.Submission(b)
	p := sub.Fulu.ExecutionPayload
	ev := beaconclient.PayloadAttributesEvent{
		ProposalSlot: 1, ParentBlockHash: p.ParentHash, Timestamp: p.Timestamp,
		PrevRandao: beacon.Root{1}, Withdrawals: []beacon.Withdrawal{}, ParentBeaconBlockRoot: beacon.Root(*b.Built.Block.BeaconRoot()),
	}
	feedAttributes(e.Relay, ev)
	submit := func() error {
		_, err := e.Relay.Submit(context.Background(), relay.SubmitRequest{Submission: sub, ReceivedAt: e.Clock.Now()})
		return err
	}
	if err := submit(); !errors.Is(err, relay.ErrPrevRandao) {
		t.Fatalf("wrong prevRandao in the event: %v", err)
	}
	ev.PrevRandao = p.PrevRandao
	feedAttributes(e.Relay, ev)
	if err := submit(); err != nil {
		t.Fatalf("right attributes: %v", err)
	}
}

// TestRelayServiceStopWaitsForFollower: Stop returns only after the beacon
// follower has returned.
func TestRelayServiceStopWaitsForFollower(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	started := make(chan struct{})
	var returned atomic.Bool
	svc := &RelayService{
		traces: store.NewSubmissionBuffer(e.Store, time.Hour, 0, 0),
		follow: func(ctx context.Context) {
			close(started)
			<-ctx.Done()
			returned.Store(true)
		},
	}
	svc.setRelay(e.Relay)
	if err := svc.Start(); err != nil {
		t.Fatal(err)
	}
	<-started
	if err := svc.Stop(); err != nil {
		t.Fatal(err)
	}
	if !returned.Load() {
		t.Fatal("Stop returned before the beacon follower did")
	}
}

// TestDeliveredBetaBeforeRelayReady: on a real network the operator API is
// served before the beacon node gave the relay its chain constants (no
// relay yet); mev_deliveredBeta then answers a clear error that names the
// wait, not "method handler crashed".
func TestDeliveredBetaBeforeRelayReady(t *testing.T) {
	n := &Node{relay: &RelayService{}}
	srv := rpc.NewServer()
	if err := srv.RegisterName("mev", &OperatorAPI{n}); err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	c := rpc.DialInProc(srv)
	defer c.Close()
	var out DeliveredBeta
	err := c.Call(&out, "mev_deliveredBeta", hexutil.Uint64(5))
	if err == nil || !strings.Contains(err.Error(), "relay not ready") || !strings.Contains(err.Error(), "beacon node") {
		t.Fatalf("mev_deliveredBeta before the relay is built: %v, want a relay-not-ready error", err)
	}
}
