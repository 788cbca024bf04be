package relay_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/miner"
)

// slowOutcomes is a beta service with nothing to append whose record of a
// delivered slot's outcome waits for release: a slow store write.
type slowOutcomes struct {
	entered, release chan struct{}
	written          atomic.Bool
}

func (s *slowOutcomes) Merge(context.Context, uint64, *chain.VerifiedPayload) (*miner.BetaBlock, uint64, error) {
	return nil, 1, miner.ErrNoBeta
}
func (s *slowOutcomes) Gas(uint64) (uint64, bool)                        { return 0, true }
func (s *slowOutcomes) PaidPooled(context.Context, uint64) (bool, error) { return false, nil }
func (s *slowOutcomes) Delivered(context.Context, uint64, *miner.BetaBlock) error {
	close(s.entered)
	<-s.release
	s.written.Store(true)
	return nil
}

// TestCloseWaitsForBetaOutcomes: the outcome of a slot delivered without a
// beta part is written in the background after getPayload answered; Close
// (which the node calls before closing the store) returns only once it is
// written.
func TestCloseWaitsForBetaOutcomes(t *testing.T) {
	beta := &slowOutcomes{entered: make(chan struct{}), release: make(chan struct{})}
	e := relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) { c.Beta = beta }})
	e.RegisterAll()
	ctx := context.Background()
	if _, err := submit(e, e.Submission(e.BuildBlock(1, 1, nil)), false); err != nil {
		t.Fatal(err)
	}
	bid, err := e.Relay.GetHeader(ctx, 1, beacon.Root(e.Chain.Head().Hash()), e.Proposer(1).Key.PublicKey())
	if err != nil || bid == nil {
		t.Fatalf("getHeader: %v", err)
	}
	if _, err := e.Relay.GetPayload(ctx, e.BlindedBlock(1, bid), false); err != nil {
		t.Fatal(err)
	}
	<-beta.entered // getPayload answered; the outcome is being written
	closed := make(chan struct{})
	go func() {
		e.Relay.Close()
		close(closed)
	}()
	select {
	case <-closed:
		close(beta.release)
		t.Fatal("Close returned while the beta outcome was still being written")
	case <-time.After(100 * time.Millisecond): // Close waits (the failure above shows at once)
	}
	close(beta.release)
	<-closed
	if !beta.written.Load() {
		t.Fatal("Close returned before the beta outcome was written")
	}
}
