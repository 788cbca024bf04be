package store

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"sync"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
)

func pubkey(b byte) beacon.BLSPubkey { var p beacon.BLSPubkey; p[0], p[47] = b, b; return p }
func root(b byte) beacon.Root        { var r beacon.Root; r[0], r[31] = b, 0xee; return r }

func reg(pk byte, fee byte, ts uint64) Registration {
	var r Registration
	r.Message.Pubkey = pubkey(pk)
	r.Message.FeeRecipient[0] = fee
	r.Message.GasLimit = 30_000_000 + uint64(fee)
	r.Message.Timestamp = ts
	r.Signature[0], r.Signature[95] = pk, fee
	r.ReceivedAt = int64(ts) * 1000
	return r
}

func trace(slot uint64, hash byte, builder, proposer byte, value uint64) beacon.BidTraceV2 {
	var t beacon.BidTraceV2
	t.Slot = slot
	t.ParentHash = root(hash + 100)
	t.BlockHash = root(hash)
	t.BuilderPubkey = pubkey(builder)
	t.ProposerPubkey = pubkey(proposer)
	t.ProposerFeeRecipient[19] = proposer
	t.GasLimit, t.GasUsed = 30_000_000, 21_000*uint64(hash)
	t.Value = beacon.U256FromUint64(value)
	t.BlockNumber = slot + 1000
	t.NumTx = uint64(hash)
	return t
}

func TestRelayRestartKeepsRegistrationsAndDelivered(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		if n, err := s.PutRegistrations(ctx, []Registration{reg(1, 1, 100), reg(2, 2, 100)}); err != nil || n != 2 {
			t.Fatalf("put registrations: %d %v", n, err)
		}
		d := &DeliveredPayload{BidTraceV2: trace(7, 1, 9, 1, 12345), DeliveredAt: 777}
		if _, err := s.PutDelivered(ctx, d); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.PutRegistrations(ctx, []Registration{reg(3, 3, 100)}); !errors.Is(err, ErrClosed) {
			t.Fatalf("registration after Close: %v, want ErrClosed", err)
		}
		if _, err := s.PutDelivered(ctx, &DeliveredPayload{BidTraceV2: trace(8, 1, 9, 1, 1)}); !errors.Is(err, ErrClosed) {
			t.Fatalf("delivery after Close: %v, want ErrClosed", err)
		}

		s = db.open(t)
		defer s.Close()
		got, err := s.Registration(ctx, pubkey(2))
		if err != nil {
			t.Fatal(err)
		}
		if want := reg(2, 2, 100); *got != want {
			t.Fatalf("registration after restart:\n got %+v\nwant %+v", got, want)
		}
		var all []beacon.BLSPubkey
		if err := s.ForEachRegistration(ctx, func(r *Registration) error { all = append(all, r.Message.Pubkey); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(all) != 2 || all[0] != pubkey(1) || all[1] != pubkey(2) {
			t.Fatalf("ForEachRegistration: %v", all)
		}
		gd, err := s.Delivered(ctx, 7)
		if err != nil {
			t.Fatal(err)
		}
		if *gd != *d {
			t.Fatalf("delivered after restart:\n got %+v\nwant %+v", gd, d)
		}
		if slot, ok, err := s.LatestDeliveredSlot(ctx); err != nil || !ok || slot != 7 {
			t.Fatalf("LatestDeliveredSlot = %d %v %v", slot, ok, err)
		}
		// The uniqueness per slot survives the restart too.
		other := &DeliveredPayload{BidTraceV2: trace(7, 2, 9, 1, 1), DeliveredAt: 778}
		if prev, err := s.PutDelivered(ctx, other); !errors.Is(err, ErrSlotDelivered) || prev == nil || prev.BlockHash != d.BlockHash {
			t.Fatalf("second delivery for slot 7: prev=%v err=%v", prev, err)
		}
	})
}

func TestRelayRegistrationsNewerOnly(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		if n, err := s.PutRegistrations(ctx, []Registration{reg(1, 1, 100)}); err != nil || n != 1 {
			t.Fatalf("first: %d %v", n, err)
		}
		// Older and equal timestamps are skipped, a newer one replaces.
		if n, err := s.PutRegistrations(ctx, []Registration{reg(1, 2, 99), reg(1, 3, 100)}); err != nil || n != 0 {
			t.Fatalf("older/equal: %d %v", n, err)
		}
		if got, _ := s.Registration(ctx, pubkey(1)); got.Message.FeeRecipient[0] != 1 {
			t.Fatalf("older registration replaced the newer one: %+v", got.Message)
		}
		if n, err := s.PutRegistrations(ctx, []Registration{reg(1, 4, 101)}); err != nil || n != 1 {
			t.Fatalf("newer: %d %v", n, err)
		}
		if got, _ := s.Registration(ctx, pubkey(1)); got.Message.FeeRecipient[0] != 4 || got.Message.Timestamp != 101 {
			t.Fatalf("newer registration not stored: %+v", got.Message)
		}
		// Within one batch the newest wins whatever the order.
		if n, err := s.PutRegistrations(ctx, []Registration{reg(5, 9, 300), reg(5, 8, 200)}); err != nil || n != 1 {
			t.Fatalf("batch: %d %v", n, err)
		}
		if got, _ := s.Registration(ctx, pubkey(5)); got.Message.Timestamp != 300 {
			t.Fatalf("batch order: %+v", got.Message)
		}
		if _, err := s.Registration(ctx, pubkey(6)); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown pubkey: %v", err)
		}
		// Out-of-range numbers are refused before anything is written.
		bad := reg(7, 1, 1<<63)
		if _, err := s.PutRegistrations(ctx, []Registration{reg(8, 1, 1), bad}); err == nil {
			t.Fatal("timestamp 2^63 accepted")
		}
		if _, err := s.Registration(ctx, pubkey(8)); !errors.Is(err, ErrNotFound) {
			t.Fatalf("a refused batch was partly written: %v", err)
		}
	})
}

func TestRelayRegistrationsLargeBatch(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		regs := make([]Registration, 5000)
		for i := range regs {
			regs[i] = reg(0, 1, 10)
			regs[i].Message.Pubkey[1], regs[i].Message.Pubkey[2] = byte(i), byte(i>>8)
		}
		if n, err := s.PutRegistrations(ctx, regs); err != nil || n != len(regs) {
			t.Fatalf("batch: %d %v", n, err)
		}
		count := 0
		if err := s.ForEachRegistration(ctx, func(*Registration) error { count++; return nil }); err != nil || count != len(regs) {
			t.Fatalf("stored %d, %v", count, err)
		}
		stop := errors.New("stop")
		if err := s.ForEachRegistration(ctx, func(*Registration) error { return stop }); !errors.Is(err, stop) {
			t.Fatalf("ForEachRegistration did not pass fn's error: %v", err)
		}
	})
}

func TestRelayDeliveredUniquePerSlotConcurrent(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		// Two handles on one file stand for two relay instances sharing a database.
		a, b := db.open(t), db.open(t)
		defer a.Close()
		defer b.Close()
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := a
				if i%2 == 1 {
					s = b
				}
				_, errs[i] = s.PutDelivered(ctx, &DeliveredPayload{BidTraceV2: trace(42, byte(i+1), 9, 1, 5), DeliveredAt: int64(i)})
			}()
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, ErrSlotDelivered):
				t.Fatalf("unexpected error: %v", err)
			}
		}
		if won != 1 {
			t.Fatalf("%d deliveries recorded for one slot, want exactly 1", won)
		}
	})
}

func TestRelayDeliveredQueries(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		// slot -> value; builder 9 for odd slots, 8 for even; proposer = slot.
		values := map[uint64]uint64{1: 50, 2: 10, 3: 40, 4: 30, 5: 20}
		for slot, v := range values {
			b := byte(8 + slot%2)
			if _, err := s.PutDelivered(ctx, &DeliveredPayload{BidTraceV2: trace(slot, byte(slot), b, byte(slot), v)}); err != nil {
				t.Fatal(err)
			}
		}
		// A value beyond uint64 sorts above the rest.
		huge := trace(6, 6, 8, 6, 0)
		huge.Value, _ = beacon.U256FromBig(new(big.Int).Lsh(big.NewInt(1), 200))
		if _, err := s.PutDelivered(ctx, &DeliveredPayload{BidTraceV2: huge}); err != nil {
			t.Fatal(err)
		}
		slots := func(q DeliveredQuery) []uint64 {
			t.Helper()
			got, err := s.DeliveredPayloads(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			out := []uint64{}
			for _, d := range got {
				out = append(out, d.Slot)
			}
			return out
		}
		h3, b9, p4 := root(3), pubkey(9), pubkey(4)
		for _, c := range []struct {
			name string
			q    DeliveredQuery
			want []uint64
		}{
			{"all, newest first", DeliveredQuery{}, []uint64{6, 5, 4, 3, 2, 1}},
			{"limit", DeliveredQuery{Limit: 2}, []uint64{6, 5}},
			{"cursor inclusive", DeliveredQuery{Cursor: 4, Limit: 2}, []uint64{4, 3}},
			{"slot", DeliveredQuery{Slot: 3}, []uint64{3}},
			{"block hash", DeliveredQuery{BlockHash: &h3}, []uint64{3}},
			{"block number", DeliveredQuery{BlockNumber: 1002}, []uint64{2}},
			{"builder", DeliveredQuery{BuilderPubkey: &b9}, []uint64{5, 3, 1}},
			{"proposer", DeliveredQuery{ProposerPubkey: &p4}, []uint64{4}},
			{"value asc", DeliveredQuery{Order: OrderValueAsc}, []uint64{2, 5, 4, 3, 1, 6}},
			{"value desc", DeliveredQuery{Order: OrderValueDesc, Limit: 3}, []uint64{6, 1, 3}},
			{"builder and cursor", DeliveredQuery{BuilderPubkey: &b9, Cursor: 4}, []uint64{3, 1}},
			{"no match", DeliveredQuery{Slot: 99}, []uint64{}},
			{"slot beyond int64", DeliveredQuery{Slot: 1 << 63}, []uint64{}},
		} {
			if got := slots(c.q); !equalU64(got, c.want) {
				t.Errorf("%s: got slots %v, want %v", c.name, got, c.want)
			}
		}
		got, _ := s.Delivered(ctx, 6)
		if got.Value != huge.Value {
			t.Fatalf("uint256 value round trip: %s", got.Value)
		}
		if _, err := s.Delivered(ctx, 99); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Delivered(99): %v", err)
		}
	})
}

func TestRelayOutOfRangeNumbersRefused(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		huge := trace(1<<63, 1, 1, 1, 1)
		if _, err := s.PutDelivered(ctx, &DeliveredPayload{BidTraceV2: huge}); err == nil || !strings.Contains(err.Error(), "slot") {
			t.Fatalf("slot 2^63 accepted: %v", err)
		}
		sub := BlockSubmission{BidTraceV2: trace(1, 1, 1, 1, 1)}
		sub.GasUsed = 1 << 63
		if err := s.PutBlockSubmissions(ctx, []BlockSubmission{sub}); err == nil || !strings.Contains(err.Error(), "gas_used") {
			t.Fatalf("gas_used 2^63 accepted: %v", err)
		}
		if _, err := s.Delivered(ctx, 1<<63); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Delivered(2^63): %v", err)
		}
	})
}

func TestRelayLatestDeliveredEmpty(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		s := db.open(t)
		defer s.Close()
		if slot, ok, err := s.LatestDeliveredSlot(context.Background()); err != nil || ok || slot != 0 {
			t.Fatalf("empty store: %d %v %v", slot, ok, err)
		}
	})
}

func TestRelayBlockSubmissions(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		subs := []BlockSubmission{
			{BidTraceV2: trace(10, 1, 8, 1, 5), ReceivedAt: 10_001, SimSuccess: true},
			{BidTraceV2: trace(10, 2, 9, 1, 6), ReceivedAt: 10_002, SimSuccess: true},
			{BidTraceV2: trace(10, 3, 9, 1, 7), ReceivedAt: 10_003, SimError: "invalid payment"},
			{BidTraceV2: trace(11, 4, 9, 2, 8), ReceivedAt: 11_500, Optimistic: true},
			{BidTraceV2: trace(12, 5, 8, 3, 9), ReceivedAt: 12_000, SimSuccess: true},
		}
		if err := s.PutBlockSubmissions(ctx, subs); err != nil {
			t.Fatal(err)
		}
		// Re-writing the same rows is a no-op.
		if err := s.PutBlockSubmissions(ctx, subs[:2]); err != nil {
			t.Fatal(err)
		}
		hashes := func(q SubmissionQuery) []uint64 {
			t.Helper()
			got, err := s.BlockSubmissions(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			out := []uint64{}
			for _, b := range got {
				out = append(out, uint64(b.BlockHash[0]))
			}
			return out
		}
		h2, b9 := root(2), pubkey(9)
		for _, c := range []struct {
			name string
			q    SubmissionQuery
			want []uint64
		}{
			{"all valid, newest first", SubmissionQuery{}, []uint64{5, 4, 2, 1}},
			{"slot", SubmissionQuery{Slot: 10}, []uint64{2, 1}},
			{"limit", SubmissionQuery{Limit: 1}, []uint64{5}},
			{"builder", SubmissionQuery{BuilderPubkey: &b9}, []uint64{4, 2}},
			{"block hash", SubmissionQuery{BlockHash: &h2}, []uint64{2}},
			{"failed one not listed", SubmissionQuery{Slot: 10, BuilderPubkey: &b9}, []uint64{2}},
			{"block number", SubmissionQuery{BlockNumber: 1011}, []uint64{4}},
		} {
			if got := hashes(c.q); !equalU64(got, c.want) {
				t.Errorf("%s: got %v, want %v", c.name, got, c.want)
			}
		}
		got, _ := s.BlockSubmissions(ctx, SubmissionQuery{Slot: 11})
		if len(got) != 1 || got[0].BidTraceV2 != subs[3].BidTraceV2 || !got[0].Optimistic || got[0].SimSuccess {
			t.Fatalf("round trip: %+v", got)
		}
		wt := got[0].WithTimestamp()
		if wt.Timestamp != 11 || wt.TimestampMs != 11_500 || !wt.OptimisticSubmission {
			t.Fatalf("WithTimestamp: %+v", wt)
		}
	})
}

func TestRelayValueEncoding(t *testing.T) {
	max, _ := beacon.U256FromBig(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1)))
	for _, v := range []beacon.U256{{}, beacon.U256FromUint64(1), beacon.U256FromUint64(1e18), max} {
		enc := encodeValue(v)
		if len(enc) != valueDigits {
			t.Fatalf("%s encodes to %d digits", v, len(enc))
		}
		dec, err := decodeValue(enc)
		if err != nil || dec != v {
			t.Fatalf("round trip %s: %s %v", v, dec, err)
		}
	}
	for _, bad := range []string{"", "x", "-1", "1" + encodeValue(max)} {
		if _, err := decodeValue(bad); err == nil {
			t.Errorf("decodeValue(%q) accepted", bad)
		}
	}
}

func equalU64(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRelayDeliveredCanonical: a delivered record's Canonical is nil until
// set, only for the block it names, and the records still to check are
// those of slots up to the bound without it.
func TestRelayDeliveredCanonical(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		for slot := uint64(1); slot <= 4; slot++ {
			if _, err := s.PutDelivered(ctx, &DeliveredPayload{BidTraceV2: trace(slot, byte(slot), 9, 1, 5)}); err != nil {
				t.Fatal(err)
			}
		}
		if d, err := s.Delivered(ctx, 1); err != nil || d.Canonical != nil {
			t.Fatalf("a new record: %+v %v, want Canonical unknown", d, err)
		}
		if err := s.SetDeliveredCanonical(ctx, 1, root(1), true); err != nil {
			t.Fatal(err)
		}
		if err := s.SetDeliveredCanonical(ctx, 2, root(2), false); err != nil {
			t.Fatal(err)
		}
		if err := s.SetDeliveredCanonical(ctx, 3, root(9), false); err != nil { // not slot 3's block
			t.Fatal(err)
		}
		for slot, want := range map[uint64]*bool{1: ptr(true), 2: ptr(false), 3: nil} {
			d, err := s.Delivered(ctx, slot)
			if err != nil || (d.Canonical == nil) != (want == nil) || (want != nil && *d.Canonical != *want) {
				t.Errorf("slot %d: canonical %v (%v), want %v", slot, d.Canonical, err, want)
			}
		}
		list, err := s.DeliveredPayloads(ctx, DeliveredQuery{Slot: 2})
		if err != nil || len(list) != 1 || list[0].Canonical == nil || *list[0].Canonical {
			t.Fatalf("data query of slot 2: %+v %v", list, err)
		}
		got, err := s.DeliveredUnchecked(ctx, 3, 0)
		if err != nil || len(got) != 1 || got[0].Slot != 3 {
			t.Fatalf("unchecked up to slot 3: %+v %v, want slot 3 only", got, err)
		}
		if got, err := s.DeliveredUnchecked(ctx, 10, 1); err != nil || len(got) != 1 || got[0].Slot != 3 {
			t.Fatalf("unchecked, limit 1: %+v %v, want slot 3", got, err)
		}
	})
}

func ptr[T any](v T) *T { return &v }
