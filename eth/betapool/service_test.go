package betapool

import (
	"context"
	"math/big"
	"slices"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/contracts/auction"
)

// TestServiceReadsInBackgroundOnly: the service's state is read from the
// L2 only by Refresh (the background reads, or the dev driver's step):
// asking for a slot's gas never reads, and answers at once while the L2
// hangs, with known false for a slot never read. Refresh reads the gas of
// the slots up to Lead ahead (an open auction's once) and the paid sets up
// to PaidLead ahead, and tells Changed, in slot order, of the slots whose
// paid set changed, each change bumping the slot's generation, also when a
// client's read saw the change first.
func TestServiceReadsInBackgroundOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		l2 := &fakeL2{
			bundles: map[uint64][]auction.Bundle{12: {{AmountOfGas: big.NewInt(21_000), BundleHashes: []common.Hash{{1}}}}},
			items:   map[uint64]*big.Int{11: big.NewInt(1_000_000), 12: big.NewInt(2_000_000)},
			gate:    make(chan struct{}),
		}
		var (
			mu      sync.Mutex
			changed []uint64
		)
		s, err := NewService(ServiceConfig{
			Store: memDB(t), ChainID: chainID, CurrentSlot: func() uint64 { return 10 }, L2: l2,
			Settlement: SettlementConfig{Refresh: -1, Lead: 4, PaidLead: 2},
			Changed: func(_ context.Context, slot uint64) {
				mu.Lock()
				changed = append(changed, slot)
				mu.Unlock()
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			s.Refresh(ctx, 10)
			close(done)
		}()
		synctest.Wait() // the refresh waits on the hanging L2
		for range 100 {
			if gas, known := s.Gas(11); gas != 0 || known {
				t.Fatalf("gas of a slot never read: %d, known %v", gas, known)
			}
		}
		if got, _ := s.pool.Capacity(ctx, 11, 10); got != 0 {
			t.Fatalf("capacity without gas rules: %d", got)
		}
		close(l2.gate)
		<-done
		if gas, known := s.Gas(11); gas != 1_000_000 || !known {
			t.Fatalf("gas after the refresh: %d, known %v", gas, known)
		}
		if gas, known := s.Gas(14); gas != 0 || !known {
			t.Fatalf("gas of a slot without an auction, read: %d, known %v", gas, known)
		}
		if _, known := s.Gas(15); known {
			t.Fatal("a slot past Lead was read")
		}
		// Slots 10..12 had their paid sets read for the first time: all
		// changed (generation 1); only 12's holds anything.
		if !slices.Equal(changed, []uint64{10, 11, 12}) {
			t.Fatalf("changed slots %v, want [10 11 12]", changed)
		}
		if st := s.State(12); st.Generation != 1 || len(st.Paid) != 1 {
			t.Fatalf("slot 12: %+v", st)
		}
		if st := s.State(13); st.Generation != 0 {
			t.Fatalf("a slot past PaidLead had its paid set read: %+v", st)
		}

		// Nothing changed: no Changed call; the open auctions are not read
		// again, the others (not open yet) are, on this schedule only.
		changed = nil
		l2.reads = 0
		s.Refresh(ctx, 10)
		if len(changed) != 0 {
			t.Fatalf("changed %v without a payment", changed)
		}
		if want := 3 + 3; l2.reads != want { // 3 paid sets, gas of 10, 13, 14
			t.Fatalf("%d L2 reads, want %d", l2.reads, want)
		}
		l2.set(func() {
			l2.bundles[11] = []auction.Bundle{{AmountOfGas: big.NewInt(21_000), BundleHashes: []common.Hash{{2}}}}
		})
		s.Refresh(ctx, 10)
		if !slices.Equal(changed, []uint64{11}) || s.State(11).Generation != 2 {
			t.Fatalf("changed %v, slot 11 generation %d; want [11], 2", changed, s.State(11).Generation)
		}

		// A payment a client's read saw first (mev_getBetaBundle's) is
		// still announced by the next Refresh.
		changed = nil
		l2.set(func() {
			l2.bundles[12] = append(l2.bundles[12], auction.Bundle{AmountOfGas: big.NewInt(21_000), BundleHashes: []common.Hash{{3}}})
		})
		if e, err := s.paid.Paid(ctx, 12); err != nil || len(e) != 2 {
			t.Fatalf("client read: %v, %v", e, err)
		}
		s.Refresh(ctx, 10)
		if !slices.Equal(changed, []uint64{12}) {
			t.Fatalf("changed %v after a payment a client read saw first, want [12]", changed)
		}
	})
}
