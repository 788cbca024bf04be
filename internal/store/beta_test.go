package store

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/beacon"
)

// TestBetaOutcomesAndDeliveredBeta: a bundle's outcome per slot and the
// delivered record's beta fields survive a reopen; the first outcome
// recorded for a (hash, slot) is kept.
func TestBetaOutcomesAndDeliveredBeta(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gavel", FileName)
	s := open(t, path)
	b := &BetaBundle{Hash: common.Hash{1}, Txs: [][]byte{{2, 1}, {2, 2}}}
	for _, slot := range []uint64{10, 11} {
		if _, err := s.PutBetaBundle(ctx, b, slot, 1000); err != nil {
			t.Fatal(err)
		}
	}
	inc := BetaOutcome{Hash: b.Hash, Slot: 10, State: BetaIncluded, Entry: 2, Gas: 50000, BlockNumber: 10, BlockHash: common.Hash{9},
		TxHashes: []common.Hash{{0xa}}, Total: 2, Reason: "entry gas budget used up"}
	if err := s.PutBetaOutcomes(ctx, []BetaOutcome{inc}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutBetaOutcomes(ctx, []BetaOutcome{{Hash: b.Hash, Slot: 10, State: BetaMissed}}); err != nil {
		t.Fatal(err)
	}
	alpha := beacon.Root{7}
	d := &DeliveredPayload{BidTraceV2: trace(10, 1, 9, 1, 1), AlphaBlockHash: &alpha, BetaGasUsed: 21000, BetaBundleCount: 1}
	if _, err := s.PutDelivered(ctx, d); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s = open(t, path)
	defer s.Close()
	got, err := s.BetaBundle(ctx, b.Hash)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Slots) != 2 || got.Slots[1].Outcome != nil || got.Slots[0].Outcome == nil {
		t.Fatalf("slots %+v", got.Slots)
	}
	o := got.Slots[0].Outcome
	if o.State != BetaIncluded || o.Entry != 2 || o.Gas != 50000 || o.BlockHash != inc.BlockHash || len(o.TxHashes) != 1 ||
		o.TxHashes[0] != inc.TxHashes[0] || o.Total != 2 || o.Reason != inc.Reason {
		t.Fatalf("outcome %+v", o)
	}
	dd, err := s.Delivered(ctx, 10)
	if err != nil {
		t.Fatal(err)
	}
	if dd.AlphaBlockHash == nil || *dd.AlphaBlockHash != alpha || dd.BetaGasUsed != 21000 || dd.BetaBundleCount != 1 {
		t.Fatalf("delivered %+v", dd)
	}
}

// TestBetaOutcomesBySlot: a slot's outcomes are read back by slot, as
// recorded, and another slot's are not among them.
func TestBetaOutcomesBySlot(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		a, b := common.Hash{0xa}, common.Hash{0xb}
		outs := []BetaOutcome{
			{Hash: b, Slot: 7, State: BetaMissed, Entry: 1, Gas: 50_000, BlockNumber: 9, BlockHash: common.Hash{0xbb}, Total: 2, Reason: "block gas used up"},
			{Hash: a, Slot: 7, State: BetaIncluded, Entry: 0, Gas: 100_000, BlockNumber: 9, BlockHash: common.Hash{0xbb}, TxHashes: []common.Hash{{1}, {2}}, Total: 2},
			{Hash: a, Slot: 8, State: BetaMissed, Reason: "other slot"},
		}
		if err := s.PutBetaOutcomes(ctx, outs); err != nil {
			t.Fatal(err)
		}
		got, err := s.BetaOutcomes(ctx, 7)
		if err != nil || len(got) != 2 {
			t.Fatalf("outcomes of slot 7: %+v, %v", got, err)
		}
		if !reflect.DeepEqual(got[0], outs[1]) || !reflect.DeepEqual(got[1], outs[0]) {
			t.Fatalf("outcomes of slot 7 by entry:\n got %+v\nwant %+v", got, []BetaOutcome{outs[1], outs[0]})
		}
		if got, err := s.BetaOutcomes(ctx, 9); err != nil || len(got) != 0 {
			t.Fatalf("outcomes of slot 9: %+v, %v", got, err)
		}
	})
}
