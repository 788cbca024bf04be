package relay_test

import (
	"sync/atomic"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
)

// TestSteeredVerification: a builder's signature verification started
// from a submission's first bytes is steered onto another core
// (internal/beside) only for a builder the relay knows, never with
// SteerDisabled, and its verdict is the same either way: a good signature
// passes, another trace's fails.
func TestSteeredVerification(t *testing.T) {
	var steered atomic.Int32
	defer relay.SetSteer(func(f func()) { steered.Add(1); go f() })()
	for _, disabled := range []bool{false, true} {
		e := relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) { c.SteerDisabled = disabled }})
		e.RegisterAll()
		domain := beacon.BuilderDomain(e.Beacon)
		check := func(slot uint64, forge bool) error {
			t.Helper()
			trace := &beacon.BidTrace{Slot: slot, BuilderPubkey: e.BuilderKey.PublicKey(), Value: beacon.U256FromUint64(1)}
			sig, err := e.BuilderKey.Sign(trace, domain)
			if err != nil {
				t.Fatal(err)
			}
			if forge {
				trace.Value = beacon.U256FromUint64(2) // signed for another value
			}
			c := e.Relay.StartSignatureCheck(trace, sig)
			<-c.Done()
			return c.Failed()
		}
		steered.Store(0)
		if err := check(1, false); err != nil || steered.Load() != 0 {
			t.Fatalf("disabled %v, unknown builder: verdict %v, steered %d times; want it verified plainly", disabled, err, steered.Load())
		}
		accepted(t, e, 1, 1) // now known
		want := int32(1)
		if disabled {
			want = 0
		}
		if err := check(2, false); err != nil || steered.Load() != want {
			t.Fatalf("disabled %v, known builder: verdict %v, steered %d times; want verified, %d", disabled, err, steered.Load(), want)
		}
		if err := check(2, true); err == nil || steered.Load() != 2*want {
			t.Fatalf("disabled %v, known builder, a signature over another trace: verdict %v, steered %d times", disabled, err, steered.Load())
		}
	}
}
