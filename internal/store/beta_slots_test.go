package store

import (
	"context"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/beacon"
)

// TestRelayBuiltSubmission: a block the relay built is stored among the bid
// traces with its signature and its alpha, found by its block hash, and a
// builder's submission beside it keeps those nil.
func TestRelayBuiltSubmission(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		var sig beacon.BLSSignature
		sig[0], sig[95] = 0xaa, 0xbb
		alpha, builder := root(1), pubkey(9)
		built := BlockSubmission{BidTraceV2: trace(7, 2, 50, 1, 100), ReceivedAt: 2000, SimSuccess: true,
			Signature: &sig, AlphaBlockHash: &alpha, AlphaBuilderPubkey: &builder}
		sub := BlockSubmission{BidTraceV2: trace(7, 1, 9, 1, 100), ReceivedAt: 1000, SimSuccess: true}
		if err := s.PutBlockSubmissions(ctx, []BlockSubmission{sub, built}); err != nil {
			t.Fatal(err)
		}
		// Recording it again (at merge, then at delivery) is a no-op.
		if err := s.PutBlockSubmissions(ctx, []BlockSubmission{built}); err != nil {
			t.Fatal(err)
		}
		h := root(2)
		got, err := s.BlockSubmissions(ctx, SubmissionQuery{BlockHash: &h})
		if err != nil || len(got) != 1 {
			t.Fatalf("by hash: %v %v", got, err)
		}
		if !reflect.DeepEqual(got[0], built) {
			t.Fatalf("relay-built record %+v, want %+v", got[0], built)
		}
		all, err := s.BlockSubmissions(ctx, SubmissionQuery{Slot: 7})
		if err != nil || len(all) != 2 {
			t.Fatalf("slot 7: %v %v", all, err)
		}
		if b := all[1]; b.Signature != nil || b.AlphaBlockHash != nil || b.AlphaBuilderPubkey != nil {
			t.Fatalf("builder submission got relay fields: %+v", b)
		}
		var recent []beacon.BLSPubkey
		if err := s.RecentBuilders(ctx, 0, 0, func(pk beacon.BLSPubkey, _ uint64) error { recent = append(recent, pk); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(recent) != 1 || recent[0] != pubkey(9) {
			t.Fatalf("recent builders %v, want only the builder %s (the relay built the other block)", recent, pubkey(9))
		}
	})
}

func betaSlot(slot uint64, merged bool) *BetaSlotRecord {
	r := &BetaSlotRecord{
		Slot: slot, L2Block: slot + 500,
		Entries:            []BetaSlotEntry{{Gas: 100_000, Hashes: []common.Hash{{1}, {2}}}, {Gas: 0, Hashes: []common.Hash{{3}}}},
		AlphaBlockHash:     root(byte(slot)),
		AlphaBuilderPubkey: pubkey(4),
		AlphaValue:         beacon.U256FromUint64(slot * 1000),
		Bundles: []BetaSlotBundle{
			{Hash: common.Hash{1}, Entry: 0, State: BetaIncluded, TxHashes: []common.Hash{{0x11}}, Total: 1},
			{Hash: common.Hash{2}, Entry: 0, State: BetaMissed, TxHashes: []common.Hash{}, Total: 2, Reason: "entry gas budget used up"},
		},
		RecordedAt: int64(slot) * 12_000,
	}
	if merged {
		h := root(byte(slot + 100))
		r.BlockHash = &h
	}
	return r
}

// TestBetaSlots: records round-trip on both databases; slot, cursor and
// limit filter as the other data queries do; a slot keeps its first record.
func TestBetaSlots(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		for _, slot := range []uint64{5, 6, 7, 9} {
			if err := s.PutBetaSlot(ctx, betaSlot(slot, slot != 6)); err != nil {
				t.Fatal(err)
			}
		}
		other := betaSlot(7, false)
		other.L2Block = 1
		if err := s.PutBetaSlot(ctx, other); err != nil {
			t.Fatal(err)
		}
		got, err := s.BetaSlots(ctx, BetaSlotQuery{Slot: 7})
		if err != nil || len(got) != 1 {
			t.Fatalf("slot 7: %v %v", got, err)
		}
		if want := betaSlot(7, true); !reflect.DeepEqual(&got[0], want) {
			t.Fatalf("slot 7 record\n%+v\nwant\n%+v", got[0], *want)
		}
		if got, _ := s.BetaSlots(ctx, BetaSlotQuery{Slot: 6}); len(got) != 1 || got[0].BlockHash != nil {
			t.Fatalf("slot 6 (alpha delivered alone): %+v", got)
		}
		slots := func(q BetaSlotQuery) []uint64 {
			t.Helper()
			rs, err := s.BetaSlots(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			out := []uint64{}
			for _, r := range rs {
				out = append(out, r.Slot)
			}
			return out
		}
		for _, c := range []struct {
			q    BetaSlotQuery
			want []uint64
		}{
			{BetaSlotQuery{}, []uint64{9, 7, 6, 5}},
			{BetaSlotQuery{Cursor: 7}, []uint64{7, 6, 5}},
			{BetaSlotQuery{Cursor: 7, Limit: 2}, []uint64{7, 6}},
			{BetaSlotQuery{Slot: 8}, []uint64{}},
			{BetaSlotQuery{Slot: 1 << 63}, []uint64{}},
		} {
			if got := slots(c.q); !reflect.DeepEqual(got, c.want) {
				t.Errorf("%+v: slots %v, want %v", c.q, got, c.want)
			}
		}
		if err := s.PutBetaSlot(ctx, betaSlot(1<<63, true)); err == nil {
			t.Fatal("slot 2^63 stored")
		}
		// The delivered record's canonical flag is joined on read: unknown
		// until the relay checked its chain, then as set.
		if _, err := s.PutDelivered(ctx, &DeliveredPayload{BidTraceV2: trace(9, 109, 9, 1, 5)}); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.BetaSlots(ctx, BetaSlotQuery{Slot: 9}); len(got) != 1 || got[0].Canonical != nil {
			t.Fatalf("slot 9 before the canonical check: %+v", got)
		}
		if err := s.SetDeliveredCanonical(ctx, 9, root(109), false); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.BetaSlots(ctx, BetaSlotQuery{Slot: 9}); len(got) != 1 || got[0].Canonical == nil || *got[0].Canonical {
			t.Fatalf("slot 9 after its block was found not canonical: %+v", got)
		}
	})
}
