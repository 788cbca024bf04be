package store

import (
	"context"
	"errors"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
)

// TestRecentBuilders: the builders with a verified bid trace from a slot
// on, each with its latest such slot, read by a second handle on the same
// database (a restart, or another instance); failed and optimistic-only
// traces do not count.
func TestRecentBuilders(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		subs := []BlockSubmission{
			{BidTraceV2: trace(10, 1, 7, 1, 5), ReceivedAt: 1, SimSuccess: true},
			{BidTraceV2: trace(20, 2, 8, 1, 5), ReceivedAt: 2, SimSuccess: true},
			{BidTraceV2: trace(30, 3, 8, 1, 5), ReceivedAt: 3, SimSuccess: true},
			{BidTraceV2: trace(40, 4, 8, 1, 5), ReceivedAt: 4, SimError: "invalid"},
			{BidTraceV2: trace(40, 5, 9, 1, 5), ReceivedAt: 5, SimError: "invalid"},
			{BidTraceV2: trace(41, 6, 6, 1, 5), ReceivedAt: 6, Optimistic: true},
		}
		if err := s.PutBlockSubmissions(ctx, subs); err != nil {
			t.Fatal(err)
		}
		other := db.open(t)
		defer other.Close()
		recent := func(from uint64, limit int) map[beacon.BLSPubkey]uint64 {
			t.Helper()
			got := map[beacon.BLSPubkey]uint64{}
			if err := other.RecentBuilders(ctx, from, limit, func(pk beacon.BLSPubkey, slot uint64) error { got[pk] = slot; return nil }); err != nil {
				t.Fatal(err)
			}
			return got
		}
		if got := recent(10, 0); len(got) != 2 || got[pubkey(7)] != 10 || got[pubkey(8)] != 30 {
			t.Errorf("from slot 10: %v, want builder 7 at 10 and 8 at 30", got)
		}
		if got := recent(11, 0); len(got) != 1 || got[pubkey(8)] != 30 {
			t.Errorf("from slot 11: %v, want builder 8 at 30", got)
		}
		if got := recent(0, 1); len(got) != 1 || got[pubkey(8)] != 30 {
			t.Errorf("limit 1: %v, want the latest (builder 8 at 30)", got)
		}
		if got := recent(1<<63, 0); len(got) != 0 {
			t.Errorf("from a slot past int64: %v", got)
		}
	})
}

// TestBuilderStatuses: an operator's status is durable, shared by every
// handle on the database, replaced by a new one and removed by a clear;
// unknown statuses are refused.
func TestBuilderStatuses(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		if err := s.SetBuilderStatus(ctx, BuilderStatus{Pubkey: pubkey(2), Status: BuilderBlocked, Note: "spam", UpdatedAt: 5}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetBuilderStatus(ctx, BuilderStatus{Pubkey: pubkey(1), Status: BuilderBlocked, UpdatedAt: 6}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetBuilderStatus(ctx, BuilderStatus{Pubkey: pubkey(1), Status: BuilderHighPriority, Note: "new builder, onboarded", UpdatedAt: 7}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetBuilderStatus(ctx, BuilderStatus{Pubkey: pubkey(3), Status: "optimistic"}); !errors.Is(err, ErrBadBuilderStatus) {
			t.Fatalf("unknown status: %v, want ErrBadBuilderStatus", err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s = db.open(t)
		defer s.Close()
		var got []BuilderStatus
		if err := s.BuilderStatuses(ctx, func(b *BuilderStatus) error { got = append(got, *b); return nil }); err != nil {
			t.Fatal(err)
		}
		want := []BuilderStatus{
			{Pubkey: pubkey(1), Status: BuilderHighPriority, Note: "new builder, onboarded", UpdatedAt: 7},
			{Pubkey: pubkey(2), Status: BuilderBlocked, Note: "spam", UpdatedAt: 5},
		}
		if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("after a restart: %+v, want %+v", got, want)
		}
		if ok, err := s.ClearBuilderStatus(ctx, pubkey(2)); err != nil || !ok {
			t.Fatalf("clear: %v %v", ok, err)
		}
		if ok, err := s.ClearBuilderStatus(ctx, pubkey(2)); err != nil || ok {
			t.Fatalf("clear again: %v %v, want false", ok, err)
		}
		n := 0
		s.BuilderStatuses(ctx, func(*BuilderStatus) error { n++; return nil })
		if n != 1 {
			t.Fatalf("%d statuses after the clear, want 1", n)
		}
	})
}
