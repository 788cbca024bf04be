package store

import (
	"context"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
)

// TestOptimisticBuilders: a builder made optimistic with a collateral is
// read back by a second handle (another instance, a restart); a demotion
// marks it demoted, forgets its pending simulation and its shared bids of
// the slot, and is listed with whether its block was delivered; setting it
// again re-promotes it.
func TestOptimisticBuilders(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		other := db.open(t)
		defer other.Close()
		b := pubkey(7)
		if err := s.SetOptimisticBuilder(ctx, OptimisticBuilder{Pubkey: b, Collateral: beacon.U256FromUint64(1e18), Note: "deposit 1", UpdatedAt: 5}); err != nil {
			t.Fatal(err)
		}
		read := func() []OptimisticBuilder {
			t.Helper()
			var out []OptimisticBuilder
			if err := other.OptimisticBuilders(ctx, func(o *OptimisticBuilder) error { out = append(out, *o); return nil }); err != nil {
				t.Fatal(err)
			}
			return out
		}
		if got := read(); len(got) != 1 || got[0].Collateral != beacon.U256FromUint64(1e18) || got[0].Demoted || got[0].Note != "deposit 1" {
			t.Fatalf("optimistic builders %+v", got)
		}
		pending := func() []PendingSimulation {
			t.Helper()
			var out []PendingSimulation
			if err := other.PendingSimulations(ctx, func(p *PendingSimulation) error { out = append(out, *p); return nil }); err != nil {
				t.Fatal(err)
			}
			return out
		}
		beaconRoot := root(9)
		for _, h := range []byte{1, 2} {
			p := &PendingSimulation{BlockHash: root(h), Slot: 10, BuilderPubkey: b, Fork: 7, Submission: []byte{h}, ReceivedAt: int64(h), ParentBeaconRoot: &beaconRoot, RegisteredGasLimit: 30_000_000}
			if err := s.PutPendingSimulation(ctx, p)(); err != nil {
				t.Fatal(err)
			}
		}
		if got := pending(); len(got) != 2 || *got[0].ParentBeaconRoot != beaconRoot || got[0].RegisteredGasLimit != 30_000_000 || got[1].Submission[0] != 2 {
			t.Fatalf("pending simulations %+v", got)
		}
		if err := s.DeletePendingSimulation(ctx, root(2)); err != nil {
			t.Fatal(err)
		}
		// Block 1 of slot 10 was delivered, then failed its simulation.
		if _, err := s.PutDelivered(ctx, &DeliveredPayload{BidTraceV2: trace(10, 1, 7, 1, 5)}); err != nil {
			t.Fatal(err)
		}
		if err := s.DemoteBuilder(ctx, Demotion{Slot: 10, BuilderPubkey: b, BlockHash: root(1), Value: beacon.U256FromUint64(5), Reason: "invalid block", DemotedAt: 6}); err != nil {
			t.Fatal(err)
		}
		if err := s.DemoteBuilder(ctx, Demotion{Slot: 11, BuilderPubkey: b, BlockHash: root(3), Value: beacon.U256FromUint64(4), Reason: "payment short", DemotedAt: 7}); err != nil {
			t.Fatal(err)
		}
		if got := read(); len(got) != 1 || !got[0].Demoted {
			t.Fatalf("after demotion %+v", got)
		}
		if got := pending(); len(got) != 0 {
			t.Fatalf("the demoted block's simulation is still pending: %+v", got)
		}
		got, err := other.Demotions(ctx, DemotionQuery{Builder: &b})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Slot != 11 || got[0].Delivered || got[1].BlockHash != root(1) || !got[1].Delivered || got[1].Reason != "invalid block" || got[1].Value != beacon.U256FromUint64(5) {
			t.Fatalf("demotions %+v", got)
		}
		if got, err := other.Demotions(ctx, DemotionQuery{Slot: 11, Limit: 5}); err != nil || len(got) != 1 || got[0].Reason != "payment short" {
			t.Fatalf("demotions of slot 11: %+v, %v", got, err)
		}
		if err := s.SetOptimisticBuilder(ctx, OptimisticBuilder{Pubkey: b, Collateral: beacon.U256FromUint64(2e18), UpdatedAt: 8}); err != nil {
			t.Fatal(err)
		}
		if got := read(); got[0].Demoted || got[0].Collateral != beacon.U256FromUint64(2e18) {
			t.Fatalf("re-promoted %+v", got)
		}
		if found, err := s.ClearOptimisticBuilder(ctx, b); err != nil || !found {
			t.Fatalf("clear: %v %v", found, err)
		}
		if got := read(); len(got) != 0 {
			t.Fatalf("cleared %+v", got)
		}
	})
}
