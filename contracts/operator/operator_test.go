package operator_test

import (
	"context"
	"math/big"
	"sync"
	"testing"

	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/deploy"
	"github.com/gavel-eth/gavel/contracts/operator"
	"github.com/gavel-eth/gavel/contracts/simtest"
)

var ctx = context.Background()

// outcomes is a Deliveries with the outcomes the test decides: slots absent
// are not known yet.
type outcomes struct {
	mu sync.Mutex
	m  map[uint64]bool
}

func (o *outcomes) Verdict(_ context.Context, slot uint64) (operator.Verdict, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	inc, ok := o.m[slot]
	return operator.Verdict{Known: ok, Payout: inc}, nil
}

func (o *outcomes) set(slot uint64, included bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.m[slot] = included
}

// TestLoop drives the loop through open, settle, payout, refund of an
// undelivered beta and refund of a missed slot on the real contracts, then
// restarts it and checks that the new loop picks up where the first stopped
// without sending anything twice.
func TestLoop(t *testing.T) {
	chain := simtest.New(t, 0)
	addrs, err := deploy.Deploy(ctx, chain.Client, chain.Signer(chain.Dev[0].Key), deploy.Config{})
	if err != nil {
		t.Fatal(err)
	}
	admin := auction.NewClient(chain.Client, addrs, chain.Signer(chain.Dev[0].Key))
	bidder := auction.NewClient(chain.Client, addrs, chain.Signer(chain.Dev[1].Key))
	if _, _, err := admin.AddBidder(ctx, bidder.From()); err != nil {
		t.Fatal(err)
	}
	if _, err := bidder.Wrap(ctx, big.NewInt(gparams.Ether)); err != nil {
		t.Fatal(err)
	}

	cfg := operator.Config{Gas: 1_000_000, Lead: 4, SettleLead: 2, Grace: 1}
	deliveries := &outcomes{m: map[uint64]bool{}}
	newLoop := func() (*operator.Operator, *[]operator.Transition) {
		op, err := operator.New(admin, deliveries, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var log []operator.Transition
		op.OnTransition(func(tr operator.Transition) {
			if tr.Err != nil {
				t.Errorf("transition %s(%d) failed: %v", tr.Call, tr.Slot, tr.Err)
			}
			log = append(log, tr)
		})
		return op, &log
	}
	op, trs := newLoop()
	tick := func(op *operator.Operator, done uint64) {
		t.Helper()
		if err := op.Tick(ctx, done); err != nil {
			t.Fatalf("tick %d: %v", done, err)
		}
	}
	state := func(slot uint64) string {
		t.Helper()
		st, err := admin.Status(ctx, slot)
		if err != nil {
			t.Fatal(err)
		}
		return st.Word()
	}
	expect := func(want map[uint64]string) {
		t.Helper()
		for s, w := range want {
			if got := state(s); got != w {
				t.Errorf("slot %d: %s, want %s", s, got, w)
			}
		}
	}

	tick(op, 0) // window (2, 4]
	expect(map[uint64]string{2: "not opened", 3: "open", 4: "open", 5: "not opened"})
	if st, _ := admin.Status(ctx, 3); st.ItemsForSale.Uint64() != 1_000_000 {
		t.Errorf("slot 3 sells %v gas, want 1000000", st.ItemsForSale)
	}
	if _, err := bidder.PlaceBids(ctx, 3, []auction.Bid{{Price: big.NewInt(gparams.GWei), Gas: 600_000}}); err != nil {
		t.Fatal(err)
	}
	if _, err := bidder.PlaceBids(ctx, 4, []auction.Bid{{Price: big.NewInt(gparams.GWei), Gas: 500_000}}); err != nil {
		t.Fatal(err)
	}
	tick(op, 1) // settles 3, opens 5
	expect(map[uint64]string{3: "settled", 4: "open", 5: "open"})
	tick(op, 2) // settles 4, opens 6
	expect(map[uint64]string{4: "settled", 6: "open"})

	deliveries.set(3, true)
	deliveries.set(4, false) // delivered without its beta
	tick(op, 3)              // pays 3 out, settles 5, opens 7
	expect(map[uint64]string{3: "paid out", 4: "settled", 5: "settled", 7: "open"})
	if bal, err := admin.WETHBalance(ctx, addrs.Accountant); err != nil || bal.Cmp(new(big.Int).Mul(big.NewInt(600_000), big.NewInt(gparams.GWei))) != 0 {
		t.Errorf("Accountant holds %v WETH after slot 3's payout (%v), want 600000 gwei", bal, err)
	}
	tick(op, 4) // refunds 4
	expect(map[uint64]string{4: "refunded"})
	if res, err := admin.BidderInfo(ctx, 4, bidder.From()); err != nil || res.ItemsBought.Uint64() != 500_000 {
		t.Fatalf("slot 4 result %+v, %v", res, err)
	}

	// Slot 5 stays unknown: a missed slot, refunded Grace (1) slots after it.
	tick(op, 5)
	expect(map[uint64]string{5: "settled"})
	n := len(*trs)

	// A new loop (a restarted operator) finishes slot 5 and carries on.
	op2, trs2 := newLoop()
	tick(op2, 6)
	expect(map[uint64]string{5: "refunded", 6: "settled", 7: "settled", 8: "settled", 9: "open", 10: "open"})
	tick(op2, 6) // the same tick again changes nothing
	if op2.Pending() != 0 {
		t.Errorf("%d transactions still pending on an auto-mining chain", op2.Pending())
	}
	sentBy := func(trs []operator.Transition) map[string]int {
		m := map[string]int{}
		for _, tr := range trs {
			if tr.Tx != nil && tr.Receipt == nil {
				m[string(tr.Call)]++
			}
		}
		return m
	}
	first, second := sentBy((*trs)[:n]), sentBy(*trs2)
	// First loop, ticks 0..5: open 3..9 (7), settle 3..7 (5), payout 3, refund 4.
	if first["openAuction"] != 7 || first["runAndSettle"] != 5 || first["payout"] != 1 || first["refund"] != 1 {
		t.Errorf("first loop sent %v", first)
	}
	// Second loop, tick 6 twice: refund 5, settle 8, open 10, nothing twice.
	if second["openAuction"] != 1 || second["runAndSettle"] != 1 || second["refund"] != 1 || second["payout"] != 0 {
		t.Errorf("restarted loop sent %v", second)
	}
}

func TestConfigCheck(t *testing.T) {
	if _, err := operator.New(nil, &outcomes{}, operator.Config{Lead: 3, SettleLead: 3}); err == nil {
		t.Error("a settle lead equal to the open lead was accepted")
	}
	if _, err := operator.New(nil, nil, operator.Config{}); err == nil {
		t.Error("no deliveries source was accepted")
	}
}
