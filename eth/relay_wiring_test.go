package eth

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

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
