package operator_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/contracts/operator"
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
