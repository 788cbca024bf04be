package operator_test

import (
	"context"
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/contracts/operator"
	"github.com/gavel-eth/gavel/params"
)

// TestJudge is the market's refund rules, one case each: the canonical
// block at the slot and the node's account of its merges decide.
func TestJudge(t *testing.T) {
	to := common.Address{1}
	tx := types.NewTx(&types.LegacyTx{Nonce: 7, To: &to, Gas: 21000, GasPrice: big.NewInt(1)})
	block := types.NewBlockWithHeader(&types.Header{Number: big.NewInt(9), Time: 108}).WithBody(types.Body{Transactions: []*types.Transaction{tx}})
	other := types.NewBlockWithHeader(&types.Header{Number: big.NewInt(9), Time: 108, Extra: []byte("own")})
	merged := func(bundles ...operator.BundleOutcome) []operator.Merge {
		return []operator.Merge{{Block: common.Hash{0xde}}, {Block: block.Hash(), Bundles: bundles}}
	}
	bundle := common.Hash{0xbb}
	for _, c := range []struct {
		name   string
		block  *types.Block
		acct   operator.SlotAccount
		payout bool
	}{
		{"slot missed", nil, operator.SlotAccount{Known: true, Due: true}, false},
		{"slot missed, nothing due", nil, operator.SlotAccount{Known: true}, false},
		{"merged block canonical, bundle included", block,
			operator.SlotAccount{Known: true, Due: true, Merges: merged(operator.BundleOutcome{Hash: bundle, Included: []common.Hash{tx.Hash()}})}, true},
		{"merged block canonical, included tx not in it", block,
			operator.SlotAccount{Known: true, Due: true, Merges: merged(operator.BundleOutcome{Hash: bundle, Included: []common.Hash{{0x99}}})}, false},
		{"buyer's risk: nonce used elsewhere", block,
			operator.SlotAccount{Known: true, Due: true, Merges: merged(operator.BundleOutcome{Hash: bundle, Reason: "invalid on the state it met: nonce too low"})}, true},
		{"seller's failure: no room", block,
			operator.SlotAccount{Known: true, Due: true, Merges: merged(operator.BundleOutcome{Hash: bundle, Reason: "block gas used up", SellerFault: true})}, false},
		{"merged block canonical, nothing pooled at the merge", block, operator.SlotAccount{Known: true, Due: true, Merges: merged()}, true},
		{"canonical block not a merge, beta due", other, operator.SlotAccount{Known: true, Due: true, Merges: merged()}, false},
		{"canonical block not a merge, nothing due", other, operator.SlotAccount{Known: true, Merges: merged()}, true},
		{"no merge at all, beta due", other, operator.SlotAccount{Known: true, Due: true}, false},
	} {
		v := operator.Judge(c.block, c.acct)
		if !v.Known || v.Payout != c.payout || v.Reason == "" {
			t.Errorf("%s: %+v, want payout %v with a reason", c.name, v, c.payout)
		}
	}
}

// fakeL1 is a chain of blocks at the given slot times (clock: slot s at
// 100+12s), by number from 0.
type fakeL1 []*types.Block

func newFakeL1(slots ...uint64) fakeL1 {
	var c fakeL1
	for i, s := range slots {
		c = append(c, types.NewBlockWithHeader(&types.Header{Number: big.NewInt(int64(i)), Time: 100 + 12*s}))
	}
	return c
}

func (c fakeL1) HeaderByNumber(_ context.Context, n *big.Int) (*types.Header, error) {
	if n == nil {
		return c[len(c)-1].Header(), nil
	}
	if n.Uint64() >= uint64(len(c)) {
		return nil, ethereum.NotFound
	}
	return c[n.Uint64()].Header(), nil
}

func (c fakeL1) BlockByNumber(ctx context.Context, n *big.Int) (*types.Block, error) {
	if n.Uint64() >= uint64(len(c)) {
		return nil, ethereum.NotFound
	}
	return c[n.Uint64()], nil
}

// TestBlockAtSlot finds a slot's block by its time, tells a missed slot
// from one the head has not reached, and finds the first and last blocks.
func TestBlockAtSlot(t *testing.T) {
	chain := newFakeL1(0, 1, 2, 4, 5, 9)
	clock := params.SlotClock{GenesisTime: 100, SecondsPerSlot: 12}
	for _, c := range []struct {
		slot    uint64
		number  int64 // -1: no block
		reached bool
	}{{0, 0, true}, {2, 2, true}, {3, -1, true}, {4, 3, true}, {8, -1, true}, {9, 5, true}, {10, -1, false}} {
		b, reached, err := operator.BlockAtSlot(context.Background(), chain, clock, c.slot)
		if err != nil || reached != c.reached || (b == nil) != (c.number < 0) || (b != nil && b.Number().Int64() != c.number) {
			t.Errorf("slot %d: block %v, reached %v, %v; want number %d, reached %v", c.slot, b, reached, err, c.number, c.reached)
		}
	}
}

// TestDataAPIVerdict: without the L1 node, the relay data API's
// "canonical" decides; a record without it, or no record, is not known.
func TestDataAPIVerdict(t *testing.T) {
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("slot") {
		case "1":
			w.Write([]byte(`[{"slot":"1","block_hash":"0x01","canonical":true}]`))
		case "2":
			w.Write([]byte(`[{"slot":"2","block_hash":"0x02","canonical":false}]`))
		case "3":
			w.Write([]byte(`[{"slot":"3","block_hash":"0x03"}]`))
		default:
			w.Write([]byte(`[]`))
		}
	}))
	defer relay.Close()
	api := operator.RelayDeliveries{URL: relay.URL}
	for slot, want := range map[uint64]operator.Verdict{1: {Known: true, Payout: true}, 2: {Known: true}, 3: {}, 4: {}} {
		v, err := api.Verdict(context.Background(), slot)
		if err != nil || v.Known != want.Known || v.Payout != want.Payout {
			t.Errorf("slot %d: %+v, %v; want %+v", slot, v, err, want)
		}
	}
}
