package workload

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/params"
)

var tiny = Size{Name: "tiny", Accounts: 50, Senders: 4, Tokens: 2, Pools: 1, Holders: 10}

// blockOf applies txs in one block on the head of c and imports it,
// returning the receipts.
func blockOf(t *testing.T, c *chain.Chain, txs ...*types.Transaction) types.Receipts {
	t.Helper()
	parent := c.Head()
	root := common.Hash{1}
	bb, err := c.NewBlockBuilder(context.Background(), parent, chain.BuildAttrs{Timestamp: parent.Time + 12, BeaconRoot: &root, Withdrawals: types.Withdrawals{}})
	if err != nil {
		t.Fatal(err)
	}
	var rs types.Receipts
	for _, tx := range txs {
		r, err := bb.ApplyTx(tx)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	built, err := bb.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ImportBuilt(built); err != nil {
		t.Fatal(err)
	}
	return rs
}

func word(b []byte) *big.Int { return new(big.Int).SetBytes(b) }

// TestContracts pins what the hand-written token and pool do: the
// constant-product output with its fee, reserves that follow each swap,
// token moves logged as Transfer, reverts on a short balance or a missed
// minimum.
func TestContracts(t *testing.T) {
	w := New(tiny)
	c, stop, err := chain.NewInMemory(w.Genesis())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	signer := types.LatestSigner(c.Config())
	nonce := map[int]uint64{}
	send := func(i int, to common.Address, data []byte) *types.Transaction {
		n := nonce[i]
		nonce[i]++
		return types.MustSignNewTx(w.Senders[i], signer, &types.DynamicFeeTx{
			ChainID: big.NewInt(params.DevChainID), Nonce: n, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(50e9), Gas: 300_000, To: &to, Data: data,
		})
	}
	p := w.Pools[0]
	one := big.NewInt(gparams.Ether)
	r := w.reserve

	rs := blockOf(t, c, send(0, p.Address, SwapData(true, one, big.NewInt(1))), send(0, p.Address, SwapData(true, one, big.NewInt(1))))
	out1 := SwapOut(one, r, r)
	out2 := SwapOut(one, new(big.Int).Add(r, one), new(big.Int).Sub(r, out1))
	for i, want := range []*big.Int{out1, out2} {
		rc := rs[i]
		if rc.Status != types.ReceiptStatusSuccessful || len(rc.Logs) != 3 {
			t.Fatalf("swap %d: status %d, %d logs; expected success with 3 logs", i, rc.Status, len(rc.Logs))
		}
		in, out, swap := rc.Logs[0], rc.Logs[1], rc.Logs[2]
		if in.Address != p.Token0 || in.Topics[1] != common.BytesToHash(w.From[0][:]) || in.Topics[2] != common.BytesToHash(p.Address[:]) || word(in.Data).Cmp(one) != 0 {
			t.Errorf("swap %d: token0 Transfer %v, expected 1 ether from the sender to the pool", i, in)
		}
		if out.Address != p.Token1 || out.Topics[2] != common.BytesToHash(w.From[0][:]) || word(out.Data).Cmp(want) != 0 {
			t.Errorf("swap %d: token1 Transfer %v, expected %s to the sender", i, out, want)
		}
		if swap.Topics[0] != SwapTopic || word(swap.Data).Cmp(want) != 0 {
			t.Errorf("swap %d: Swap log %v, expected out %s", i, swap, want)
		}
		if i == 1 && rc.GasUsed > 100_000 {
			t.Errorf("swap gas %d, expected under 100,000 (a Uniswap v2 swap's order)", rc.GasUsed)
		}
	}
	if out2.Cmp(out1) >= 0 {
		t.Fatalf("second swap paid %s, first %s: the price must move", out2, out1)
	}
	// The reverse swap, a missed minimum, and a token balance drained to
	// the wei.
	back := SwapOut(one, new(big.Int).Sub(new(big.Int).Sub(r, out1), out2), new(big.Int).Add(r, new(big.Int).Mul(one, big.NewInt(2))))
	left := new(big.Int).Sub(new(big.Int).Mul(one, big.NewInt(1_000_000)), big.NewInt(2e18)) // sender 0's token0
	left.Add(left, back)
	rs = blockOf(t, c,
		send(0, p.Address, SwapData(false, one, big.NewInt(1))),
		send(1, p.Address, SwapData(true, one, new(big.Int).Mul(r, big.NewInt(2)))),
		send(0, p.Token0, TransferData(w.From[2], new(big.Int).Add(left, big.NewInt(1)))),
		send(0, p.Token0, TransferData(w.From[2], left)),
		send(0, p.Token0, TransferData(w.From[2], big.NewInt(1))),
	)
	if rs[0].Status != 1 || word(rs[0].Logs[2].Data).Cmp(back) != 0 {
		t.Errorf("reverse swap: status %d, expected success paying %s", rs[0].Status, back)
	}
	for i, want := range []uint64{0, 0, 1, 0} {
		if got := rs[i+1].Status; got != want {
			t.Errorf("tx %d: status %d, expected %d (missed minimum, short by 1 wei, exact balance, empty balance)", i+1, got, want)
		}
	}
	if l := rs[3].Logs; len(l) != 1 || l[0].Topics[0] != TransferTopic || l[0].Topics[1] != common.BytesToHash(w.From[0][:]) {
		t.Errorf("transfer logs %v, expected one Transfer from the sender", l)
	}
}

// TestMainnetLike builds a block of the CI-size workload on its on-disk
// state: about 30 M gas of transfers, token transfers and swaps, that
// geth's import path accepts.
func TestMainnetLike(t *testing.T) {
	w := New(CI)
	c := Open(t, w)
	parent := c.Head()
	nonce := func(a common.Address) uint64 { n, _, _ := c.HeadAccount(a); return n }
	g := w.NewGen(1, types.LatestSigner(c.Config()), nonce)
	root := common.Hash{2}
	b, err := Build(context.Background(), c, parent, chain.BuildAttrs{Timestamp: parent.Time + 12, BeaconRoot: &root, Withdrawals: types.Withdrawals{}, GasLimit: GasLimit},
		Flatten(g.Bundles(GasLimit)), Payment{Builder: params.DevAccounts()[9].Key, To: common.Address{0x9f}})
	if err != nil {
		t.Fatal(err)
	}
	blk := b.Block
	t.Logf("block: %d txs, %d gas, %d skipped", len(blk.Transactions()), blk.GasUsed(), b.Skipped)
	if blk.GasUsed() < 27_000_000 || len(blk.Transactions()) < 250 {
		t.Fatalf("block of %d txs and %d gas, expected at least 250 txs and 27 M gas", len(blk.Transactions()), blk.GasUsed())
	}
	kinds := map[string]int{}
	reverted := 0
	for i, tx := range blk.Transactions() {
		if b.Receipts[i].Status != types.ReceiptStatusSuccessful {
			reverted++
		}
		switch {
		case len(tx.Data()) == 0:
			kinds["transfer"]++
		case tx.To()[0] == 0x70:
			kinds["token"]++
		case tx.To()[0] == 0x90:
			kinds["swap"]++
		}
	}
	for _, k := range []string{"transfer", "token", "swap"} {
		if kinds[k] < len(blk.Transactions())/5 {
			t.Errorf("%d %s txs of %d, expected at least a fifth", kinds[k], k, len(blk.Transactions()))
		}
	}
	if reverted > 0 {
		t.Errorf("%d txs of %d reverted, expected none", reverted, len(blk.Transactions()))
	}
	if err := c.ImportBuilt(b.BuiltBlock); err != nil {
		t.Fatal(err)
	}
	if c.Head().Hash() != blk.Hash() {
		t.Fatal("block not imported")
	}
}
