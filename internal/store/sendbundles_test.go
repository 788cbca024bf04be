package store

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestSendBundlesDurable: eth_sendBundle changes queued one after another
// commit in that order, survive reopening the database, and are pruned
// with their block.
func TestSendBundlesDurable(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		a := SendBundle{Hash: common.Hash{1}, Block: 10, IP: "127.0.0.2", ReceivedAt: 1000, Args: []byte(`{"txs":["0x01"],"blockNumber":"0xa"}`)}
		b := SendBundle{Hash: common.Hash{2}, Block: 12, Signer: common.Address{7}, ReceivedAt: 1001, Args: []byte(`{"txs":["0x02"],"blockNumber":"0xc"}`)}
		c := SendBundle{Hash: common.Hash{3}, Block: 11, ReceivedAt: 1002, Args: []byte(`{}`)}
		// Queued in this order, waited for in the opposite one: the delete
		// of c comes after its put.
		w1 := s.QueueSendBundles(ctx, SendBundleChange{Put: []SendBundle{a, b, c}})
		w2 := s.QueueSendBundles(ctx, SendBundleChange{Delete: []SendBundleKey{{c.Hash, c.Block}},
			Cancel: []SendBundleCancel{{Owner: common.Address{7}, UUID: "u", UpTo: 12}}})
		// A new owner of a: the row is replaced, not doubled.
		a.Signer = common.Address{9}
		w3 := s.QueueSendBundles(ctx, SendBundleChange{Put: []SendBundle{a}})
		for _, w := range []func() error{w3, w2, w1} {
			if err := w(); err != nil {
				t.Fatal(err)
			}
		}
		s.Close()

		s = db.open(t)
		defer s.Close()
		got, cancels, err := s.PendingSendBundles(ctx, 9)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got[0].Hash != a.Hash || got[0].Signer != a.Signer || got[0].IP != a.IP || string(got[0].Args) != string(a.Args) ||
			got[1].Hash != b.Hash || got[1].Block != 12 || got[1].ReceivedAt != 1001 {
			t.Fatalf("after reopening: %+v", got)
		}
		if len(cancels) != 1 || cancels[0] != (SendBundleCancel{common.Address{7}, "u", 12}) {
			t.Fatalf("cancels after reopening: %+v", cancels)
		}
		// Bundles at or below the head are not pending; pruning deletes them.
		if got, _, _ := s.PendingSendBundles(ctx, 10); len(got) != 1 || got[0].Hash != b.Hash {
			t.Fatalf("pending after block 10: %+v", got)
		}
		if err := s.QueueSendBundles(ctx, SendBundleChange{PruneTo: 12})(); err != nil {
			t.Fatal(err)
		}
		if got, cancels, _ := s.PendingSendBundles(ctx, 0); len(got) != 0 || len(cancels) != 0 {
			t.Fatalf("after pruning to 12: %+v %+v", got, cancels)
		}
	})
}
