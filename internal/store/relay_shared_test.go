package store

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store/pgtest"
)

func sharedBid(slot uint64, hash byte, value uint64, at int64) *SharedBid {
	return &SharedBid{
		Slot: slot, ParentHash: root(1), BlockHash: root(hash), ProposerPubkey: pubkey(2), BuilderPubkey: pubkey(3),
		Value: beacon.U256FromUint64(value), ReceivedAt: at, Fork: 7, Submission: []byte{hash, 1, 2}, Origin: "a", StoredAt: at + 1,
	}
}

// TestSharedBidsAcrossInstances stores bids through one handle and reads
// them, and their notifications, through another, as two relay instances
// on one database do.
func TestSharedBidsAcrossInstances(t *testing.T) {
	a, b := twoInstances(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if SharedOf(openSQLite(t)) != nil {
		t.Fatal("SQLite offered shared state")
	}
	sa, sb := SharedOf(a), SharedOf(b)

	notes := make(chan Notification, 16)
	go sb.Listen(ctx, func(n Notification) { notes <- n })
	if n := <-notes; !n.Resync {
		t.Fatalf("first notification %+v, want Resync", n)
	}
	if _, err := a.PutRegistrations(ctx, []Registration{reg(9, 9, 1)}); err != nil {
		t.Fatal(err)
	}
	if n := <-notes; !n.Registrations || len(n.Pubkeys) != 1 || n.Pubkeys[0] != pubkey(9) {
		t.Fatalf("notification %+v, want Registrations of pubkey 9", n)
	}
	many := make([]Registration, maxNotifiedPubkeys+1)
	for i := range many {
		many[i] = reg(byte(100+i), 1, 1)
	}
	if _, err := a.PutRegistrations(ctx, many); err != nil {
		t.Fatal(err)
	}
	if n := <-notes; !n.Registrations || n.Pubkeys != nil {
		t.Fatalf("notification %+v, want Registrations naming none", n)
	}

	for _, bid := range []*SharedBid{sharedBid(5, 1, 100, 10), sharedBid(5, 2, 300, 20), sharedBid(5, 3, 300, 15), sharedBid(6, 4, 999, 30)} {
		if err := sa.PutSharedBid(ctx, bid); err != nil {
			t.Fatal(err)
		}
		n := <-notes
		if n.BlockHash != bid.BlockHash || n.Origin != "a" {
			t.Fatalf("notification %+v for bid %s", n, bid.BlockHash)
		}
		if n.Bid == nil || !reflect.DeepEqual(*n.Bid, *bid) {
			t.Fatalf("notification of bid %s carried %+v, want the bid %+v", bid.BlockHash, n.Bid, bid)
		}
	}
	// The largest bids carried: PostgreSQL takes the longest payload gavel
	// sends (origins of three lengths: one payload is exactly that long).
	longest := 0
	for i, origin := range []string{"a", "ab", "abc"} {
		edge := sharedBid(6, byte(10+i), 1000, 40)
		edge.Origin = origin
		for size := 5000; ; size++ {
			edge.Submission = make([]byte, size+1)
			if _, _, carried, _ := parseBidNote(bidNotePayload(edge)); carried == "" {
				edge.Submission = edge.Submission[:size]
				break
			}
		}
		longest = max(longest, len(bidNotePayload(edge)))
		if err := sa.PutSharedBid(ctx, edge); err != nil {
			t.Fatalf("storing a bid of %d bytes, the largest carried (payload %d bytes): %v", len(edge.Submission), len(bidNotePayload(edge)), err)
		}
		if n := <-notes; n.Bid == nil || !reflect.DeepEqual(*n.Bid, *edge) {
			t.Fatalf("notification of the largest carried bid (%d bytes) carried %v", len(edge.Submission), n.Bid != nil)
		}
	}
	if longest != maxNotifyPayload {
		t.Fatalf("longest payload sent %d bytes, want %d", longest, maxNotifyPayload)
	}
	// A bid too large for a notification is named by hash only and read.
	large := sharedBid(6, 5, 1000, 40)
	large.Submission = make([]byte, maxNotifyPayload)
	if err := sa.PutSharedBid(ctx, large); err != nil {
		t.Fatal(err)
	}
	if n := <-notes; n.BlockHash != large.BlockHash || n.Origin != "a" || n.Bid != nil {
		t.Fatalf("notification %+v of a %d-byte bid, want its hash alone", n, len(large.Submission))
	}
	if got, err := sb.SharedBid(ctx, large.BlockHash); err != nil || len(got.Submission) != len(large.Submission) {
		t.Fatalf("large bid read by hash: %v", err)
	}
	if err := sa.PutSharedBid(ctx, sharedBid(5, 1, 100, 10)); err != nil {
		t.Fatalf("storing a bid again: %v", err)
	}
	got, err := sb.SharedBid(ctx, root(2))
	if err != nil {
		t.Fatal(err)
	}
	if want := sharedBid(5, 2, 300, 20); got.Value != want.Value || got.ReceivedAt != 20 || string(got.Submission) != string(want.Submission) || got.Fork != 7 || got.StoredAt != 21 {
		t.Fatalf("shared bid %+v", got)
	}
	best, err := sb.BestSharedBid(ctx, 5, root(1), pubkey(2))
	if err != nil || best.BlockHash != root(3) {
		t.Fatalf("best bid %v %v, want the earlier of the two at 300", best, err)
	}
	if _, err := sb.BestSharedBid(ctx, 5, root(9), pubkey(2)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("best bid of another parent: %v", err)
	}
	merged := &SharedBeta{BlockHash: root(7), Slot: 5, AlphaHash: root(3), Block: []byte{1, 2, 3}, Meta: []byte(`{}`), Origin: "a"}
	for range 2 { // the second is a no-op
		if err := sa.PutSharedBeta(ctx, merged); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := sb.SharedBeta(ctx, root(7)); err != nil || got.AlphaHash != root(3) || got.Slot != 5 || string(got.Block) != "\x01\x02\x03" || string(got.Meta) != "{}" || got.Origin != "a" {
		t.Fatalf("merged block %+v %v", got, err)
	}
	if _, err := sb.SharedBeta(ctx, root(3)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("merged block of an alpha hash: %v", err)
	}
	if err := sb.PruneSharedBids(ctx, 6); err != nil {
		t.Fatal(err)
	}
	if _, err := sb.SharedBid(ctx, root(2)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("pruned bid: %v", err)
	}
	if _, err := sb.SharedBeta(ctx, root(7)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("pruned merged block: %v", err)
	}
	if _, err := sb.SharedBid(ctx, root(4)); err != nil {
		t.Fatalf("bid of a later slot pruned: %v", err)
	}
	var since []uint64
	if err := sb.RegistrationsSince(ctx, 0, func(r *Registration) error { since = append(since, r.Message.Timestamp); return nil }); err != nil || len(since) != 2+maxNotifiedPubkeys {
		t.Fatalf("registrations since 0: %v %v", since, err)
	}
}

// TestSharedStorageUncompressed: on PostgreSQL a shared bid's submission
// and a merged block are stored without a compression attempt (migration
// 14).
func TestSharedStorageUncompressed(t *testing.T) {
	a, _ := twoInstances(t)
	for _, c := range []struct{ table, column string }{{"relay_bids", "submission"}, {"relay_beta_bids", "block"}} {
		var storage string
		err := a.(*sqlStore).db.QueryRowContext(context.Background(),
			`SELECT attstorage::text FROM pg_attribute WHERE attrelid = $1::regclass AND attname = $2`, c.table, c.column).Scan(&storage)
		if err != nil || storage != "e" {
			t.Fatalf("%s.%s storage %q (%v), want e (external, uncompressed)", c.table, c.column, storage, err)
		}
	}
}

// TestPutDeliveredLatest: through either of two stores on one database, a
// delivery for a slot older than the latest recorded is refused; the
// per-slot record still names the first block.
func TestPutDeliveredLatest(t *testing.T) {
	a, b := twoInstances(t)
	sa, sb := SharedOf(a), SharedOf(b)
	ctx := context.Background()
	if _, err := sa.PutDeliveredLatest(ctx, &DeliveredPayload{BidTraceV2: trace(5, 1, 9, 1, 1)}); err != nil {
		t.Fatal(err)
	}
	if _, err := sb.PutDeliveredLatest(ctx, &DeliveredPayload{BidTraceV2: trace(4, 2, 9, 1, 1)}); !errors.Is(err, ErrLaterDelivered) {
		t.Fatalf("slot 4 after slot 5: %v, want ErrLaterDelivered", err)
	}
	if prev, err := sb.PutDeliveredLatest(ctx, &DeliveredPayload{BidTraceV2: trace(5, 3, 9, 1, 1)}); !errors.Is(err, ErrSlotDelivered) || prev == nil || prev.BlockHash != root(1) {
		t.Fatalf("another block for slot 5: %v %v", prev, err)
	}
	if _, err := sb.PutDeliveredLatest(ctx, &DeliveredPayload{BidTraceV2: trace(6, 4, 9, 1, 1)}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Delivered(ctx, 4); !errors.Is(err, ErrNotFound) {
		t.Fatalf("slot 4 recorded: %v", err)
	}
}

// twoInstances opens two stores on one PostgreSQL database, as two relay
// instances sharing it do; both close when the test ends.
func twoInstances(t *testing.T) (a, b Store) {
	t.Helper()
	url := pgtest.URL(t)
	for _, s := range []*Store{&a, &b} {
		st, err := OpenPostgres(url, PostgresConfig{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		*s = st
	}
	return a, b
}
