package auctioncli

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/internal/testnode"
)

// fakeState is the L1 state after the block: nonces and balances.
type fakeState struct {
	nonce   map[common.Address]uint64
	balance map[common.Address]*big.Int
}

func (s fakeState) NonceAt(_ context.Context, a common.Address, _ *big.Int) (uint64, error) {
	return s.nonce[a], nil
}

func (s fakeState) BalanceAt(_ context.Context, a common.Address, _ *big.Int) (*big.Int, error) {
	if b, ok := s.balance[a]; ok {
		return b, nil
	}
	return big.NewInt(gparams.Ether), nil
}

// TestJudge applies verify's rules to blocks built by hand: which way a
// paid bundle is missing decides whether the slot is honored.
func TestJudge(t *testing.T) {
	chainID := big.NewInt(1337)
	signer := types.LatestSignerForChainID(chainID)
	tx := func(acct int, nonce uint64, tip int64, gas uint64) *types.Transaction {
		to := common.Address{0xbe}
		return types.MustSignNewTx(testnode.Account(acct).Key, signer, &types.DynamicFeeTx{
			ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: gas, To: &to, Value: big.NewInt(1)})
	}
	alphaTx := tx(1, 0, gparams.GWei, 21000)
	a := []*types.Transaction{tx(5, 0, 0, 21000), tx(5, 1, 0, 21000)}
	b := []*types.Transaction{tx(6, 0, 0, 21000)}
	ha, hb := common.Hash{0xa}, common.Hash{0xb}
	addr := func(i int) common.Address { return testnode.Account(i).Address }

	cases := []struct {
		name    string
		entries []auction.Bundle
		block   []*types.Transaction // nil: no block at the slot
		missed  bool
		state   fakeState
		honored bool
		says    string
	}{
		{name: "both whole, in order", entries: []auction.Bundle{{AmountOfGas: big.NewInt(100_000), BundleHashes: []common.Hash{ha, hb}}},
			block: []*types.Transaction{alphaTx, a[0], a[1], b[0]}, honored: true, says: "included 2 of 2 at tx indexes 1..2"},
		{name: "out of order", entries: []auction.Bundle{{AmountOfGas: big.NewInt(100_000), BundleHashes: []common.Hash{ha, hb}}},
			block: []*types.Transaction{alphaTx, b[0], a[0], a[1]}, says: "out of order"},
		{name: "alpha after beta", entries: []auction.Bundle{{AmountOfGas: big.NewInt(100_000), BundleHashes: []common.Hash{hb}}},
			block: []*types.Transaction{b[0], alphaTx}, says: "out of order"},
		{name: "budget for one tx", entries: []auction.Bundle{{AmountOfGas: big.NewInt(30_000), BundleHashes: []common.Hash{ha}}},
			block: []*types.Transaction{alphaTx, a[0]}, state: fakeState{nonce: map[common.Address]uint64{addr(5): 1}}, honored: true,
			says: "included 1 of 2 at tx index 1; tx 1 not in the block: the entry's gas budget is used up"},
		{name: "second tx left out", entries: []auction.Bundle{{AmountOfGas: big.NewInt(100_000), BundleHashes: []common.Hash{ha}}},
			block: []*types.Transaction{alphaTx, a[0]}, state: fakeState{nonce: map[common.Address]uint64{addr(5): 1}}, says: "left out"},
		{name: "later tx without the first", entries: []auction.Bundle{{AmountOfGas: big.NewInt(100_000), BundleHashes: []common.Hash{ha}}},
			block: []*types.Transaction{alphaTx, a[1]}, says: "out of order: tx 1 is in the block though tx 0 is not"},
		{name: "nonce used elsewhere (the free option)", entries: []auction.Bundle{{AmountOfGas: big.NewInt(100_000), BundleHashes: []common.Hash{hb}}},
			block: []*types.Transaction{alphaTx}, state: fakeState{nonce: map[common.Address]uint64{addr(6): 1}}, honored: true,
			says: "tx failed for its own sender: nonce 0"},
		{name: "funds moved", entries: []auction.Bundle{{AmountOfGas: big.NewInt(100_000), BundleHashes: []common.Hash{hb}}},
			block: []*types.Transaction{alphaTx}, state: fakeState{balance: map[common.Address]*big.Int{addr(6): big.NewInt(1000)}}, honored: true,
			says: "tx failed for its own sender: " + addr(6).Hex() + " holds 1000 wei"},
		{name: "not pooled", entries: []auction.Bundle{{AmountOfGas: big.NewInt(100_000), BundleHashes: []common.Hash{{0xcc}}}},
			block: []*types.Transaction{alphaTx}, honored: true, says: "not pooled"},
		{name: "no gas paid", entries: []auction.Bundle{{AmountOfGas: big.NewInt(0), BundleHashes: []common.Hash{hb}}},
			block: []*types.Transaction{alphaTx}, honored: true, says: "pays no gas"},
		{name: "slot missed", entries: []auction.Bundle{{AmountOfGas: big.NewInt(100_000), BundleHashes: []common.Hash{hb}}},
			missed: true, says: "slot 3 has no L1 block (missed)"},
		{name: "slot missed, nothing due", entries: []auction.Bundle{{AmountOfGas: big.NewInt(100_000), BundleHashes: []common.Hash{{0xcc}}}},
			missed: true, honored: true, says: "nothing was due"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := &verifyInput{slot: 3, entries: c.entries, signer: signer, state: c.state,
				pooled: map[common.Hash][]*types.Transaction{ha: a, hb: b}}
			if !c.missed {
				in.block = types.NewBlockWithHeader(&types.Header{Number: big.NewInt(3), GasLimit: 30_000_000, GasUsed: 21000 * uint64(len(c.block)), BaseFee: big.NewInt(gparams.GWei)}).
					WithBody(types.Body{Transactions: c.block})
				for range c.block {
					in.receipts = append(in.receipts, &types.Receipt{Status: types.ReceiptStatusSuccessful, GasUsed: 21000})
				}
			}
			v, err := judge(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			v.print(&env{out: &out})
			if v.honored != c.honored || !strings.Contains(out.String(), c.says) {
				t.Fatalf("honored %v, want %v, saying %q:\n%s", v.honored, c.honored, c.says, out.String())
			}
		})
	}
}
