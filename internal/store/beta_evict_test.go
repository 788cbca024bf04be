package store

import (
	"context"
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestBetaEvictionForSmallerHolder: with the disk budget spent by a few
// IPs, a bundle from an IP holding fewer bytes takes the room of the
// largest holder's newest evictable entry, in the same transaction; the
// largest holder itself is still refused; an entry with an outcome or of a
// slot before EvictFrom is never evicted; the evicted entry keeps a status.
func TestBetaEvictionForSmallerHolder(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		entry := int64(BetaEntryBytes + 104) // betaBundle's txs, RLP-encoded
		// 10.0.0.1 holds 6 entries, 10.0.0.2 holds 2: 8 entries fill the budget.
		q := BetaQuota{From: 10, EvictFrom: 12, MaxBytes: 8 * entry}
		put := func(i int, slot uint64, at int64, ip string) error {
			q := q
			q.IP = ip
			_, err := s.PutBetaBundleWithin(ctx, betaBundle(i, common.Address{}), slot, at, q)
			return err
		}
		big := []struct {
			slot uint64
			at   int64
		}{{10, 1}, {12, 2}, {13, 3}, {12, 4}, {14, 5}, {11, 6}}
		for i, e := range big {
			if err := put(i, e.slot, e.at, "10.0.0.1"); err != nil {
				t.Fatalf("big %d: %v", i, err)
			}
		}
		for i := 10; i < 12; i++ {
			if err := put(i, 13, 7, "10.0.0.2"); err != nil {
				t.Fatalf("small %d: %v", i, err)
			}
		}
		// The newest entry of 10.0.0.1 (received at 6) is of slot 11, before
		// EvictFrom; the one at 5 (slot 14) has an outcome: the one at 4
		// (bundle 3, slot 12) goes.
		if err := s.PutBetaOutcomes(ctx, []BetaOutcome{{Hash: betaBundle(4, common.Address{}).Hash, Slot: 14, State: BetaIncluded, Reason: "x"}}); err != nil {
			t.Fatal(err)
		}
		if err := put(20, 15, 8, "10.0.0.3"); err != nil {
			t.Fatalf("honest bundle refused: %v", err)
		}
		if _, err := s.BetaBundle(ctx, betaBundle(20, common.Address{}).Hash); err != nil {
			t.Fatalf("honest bundle not stored: %v", err)
		}
		b, err := s.BetaBundle(ctx, betaBundle(3, common.Address{}).Hash)
		if err != nil || len(b.Slots) != 1 || b.Slots[0].Evicted != BetaEvicted || b.Slots[0].Slot != 12 {
			t.Fatalf("evicted bundle 3: %+v %v", b, err)
		}
		for _, i := range []int{0, 1, 2, 4, 5, 10, 11} {
			b, err := s.BetaBundle(ctx, betaBundle(i, common.Address{}).Hash)
			if err != nil || len(b.Slots) != 1 || b.Slots[0].Evicted != "" {
				t.Fatalf("bundle %d should be kept: %+v %v", i, b, err)
			}
		}
		if used, err := s.(*sqlStore).BetaBundleBytes(ctx); err != nil || used != 8*entry {
			t.Fatalf("budget use %d, want %d: %v", used, 8*entry, err)
		}
		// 10.0.0.1 (5 entries) is still the largest: it is refused; 10.0.0.3
		// holds 1, so it evicts again (bundle 2, slot 13).
		if err := put(30, 15, 9, "10.0.0.1"); !errors.Is(err, ErrBetaStoreFull) {
			t.Fatalf("largest holder not refused: %v", err)
		}
		if err := put(21, 15, 10, "10.0.0.3"); err != nil {
			t.Fatalf("second honest bundle refused: %v", err)
		}
		if b, err := s.BetaBundle(ctx, betaBundle(2, common.Address{}).Hash); err != nil || b.Slots[0].Evicted == "" {
			t.Fatalf("bundle 2 should be evicted: %+v %v", b, err)
		}
		// Left of 10.0.0.1: slots 10, 12 (bundle 1), 11, and 14 with an
		// outcome; bundle 1 goes for the next. Then 10.0.0.3 holds as much
		// as 10.0.0.1 (3 entries) and is refused.
		if err := put(22, 15, 11, "10.0.0.3"); err != nil {
			t.Fatalf("third honest bundle refused: %v", err)
		}
		if b, err := s.BetaBundle(ctx, betaBundle(1, common.Address{}).Hash); err != nil || b.Slots[0].Evicted == "" {
			t.Fatalf("bundle 1 should be evicted: %+v %v", b, err)
		}
		if err := put(23, 15, 12, "10.0.0.3"); !errors.Is(err, ErrBetaStoreFull) {
			t.Fatalf("an IP holding as much as the largest is refused: %v", err)
		}
		// A prune measures each IP's bytes again.
		if _, err := s.(*sqlStore).PruneBetaBundles(ctx, 11); err != nil {
			t.Fatal(err)
		}
		if err := put(24, 15, 13, "10.0.0.4"); err != nil {
			t.Fatalf("after the prune: %v", err)
		}
	})
}

// TestBetaEvictionOfListedEntries: when the disk budget is spent,
// BetaEvictionCandidates lists the largest holder's newest entries without
// an outcome, of any slot (also the coming ones, which EvictFrom never
// reaches), and a new entry takes the room of those the caller passes in
// BetaQuota.Evictable, in the same transaction; one given an outcome since
// it was listed stays, and nothing is listed for the largest holder itself
// or before the slot asked for.
func TestBetaEvictionOfListedEntries(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t).(*sqlStore)
		defer s.Close()
		entry := int64(BetaEntryBytes + 104)
		q := BetaQuota{From: 10, EvictFrom: 100, MaxBytes: 6 * entry}
		put := func(i int, slot uint64, at int64, ip string, ev []BetaEntryRef) error {
			q := q
			q.IP, q.Evictable = ip, ev
			_, err := s.PutBetaBundleWithin(ctx, betaBundle(i, common.Address{}), slot, at, q)
			return err
		}
		// 10.0.0.1 fills the budget with entries of the coming slots 11-15.
		for i := 0; i < 5; i++ {
			if err := put(i, uint64(11+i), int64(1+i), "10.0.0.1", nil); err != nil {
				t.Fatal(err)
			}
		}
		if err := put(9, 11, 9, "10.0.0.2", nil); err != nil {
			t.Fatal(err)
		}
		if err := put(10, 11, 10, "10.0.0.3", nil); !errors.Is(err, ErrBetaStoreFull) {
			t.Fatalf("full store, nothing from EvictFrom on: %v", err)
		}
		if c, err := s.BetaEvictionCandidates(ctx, "10.0.0.1", 0, 1<<20); err != nil || len(c) != 0 {
			t.Fatalf("candidates for the largest holder itself: %v %v", c, err)
		}
		// Newest first, bounded by the bytes needed.
		c, err := s.BetaEvictionCandidates(ctx, "10.0.0.3", 0, 2*entry)
		want := []BetaEntryRef{{betaBundle(4, common.Address{}).Hash, 15}, {betaBundle(3, common.Address{}).Hash, 14}}
		if err != nil || len(c) != 2 || c[0] != want[0] || c[1] != want[1] {
			t.Fatalf("candidates %v %v, want %v", c, err, want)
		}
		if c, _ := s.BetaEvictionCandidates(ctx, "10.0.0.3", 16, 1<<20); len(c) != 0 {
			t.Fatalf("slots from 16 on only: %v", c)
		}
		// Bundle 4 (slot 15) got an outcome since it was listed: it stays,
		// and bundle 3 (slot 14) goes.
		if err := s.PutBetaOutcomes(ctx, []BetaOutcome{{Hash: want[0].Hash, Slot: 15, State: BetaIncluded, Reason: "x"}}); err != nil {
			t.Fatal(err)
		}
		if err := put(10, 11, 11, "10.0.0.3", want); err != nil {
			t.Fatalf("with listed entries: %v", err)
		}
		if b, err := s.BetaBundle(ctx, want[1].Hash); err != nil || b.Slots[0].Evicted != BetaEvicted {
			t.Fatalf("listed entry of slot 14: %+v %v", b, err)
		}
		if b, err := s.BetaBundle(ctx, want[0].Hash); err != nil || b.Slots[0].Evicted != "" {
			t.Fatalf("listed entry with an outcome: %+v %v", b, err)
		}
		// An entry of an IP holding no more than the sender is not taken.
		mine := []BetaEntryRef{{betaBundle(9, common.Address{}).Hash, 11}}
		if err := put(11, 12, 12, "10.0.0.3", mine); !errors.Is(err, ErrBetaStoreFull) {
			t.Fatalf("entry of an IP holding as little: %v", err)
		}
		if used, err := s.BetaBundleBytes(ctx); err != nil || used != 6*entry {
			t.Fatalf("budget use %d, want %d: %v", used, 6*entry, err)
		}
	})
}
