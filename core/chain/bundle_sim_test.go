package chain_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/consensus/misc/eip1559"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
)

func newSim(e *testEnv) *bundle.Simulator { return bundle.NewSimulator(e.c, bundle.Config{}) }

func TestCallBundleTransfers(t *testing.T) {
	e := newTestEnv(t, 3)
	to := common.Address{0x42}
	txs := []*types.Transaction{
		e.tx(0, 0, &to, ether(1), 21000, nil),
		e.tx(1, 0, &to, ether(2), 21000, nil),
	}
	res, err := newSim(e).Call(context.Background(), txs, e.block())
	if err != nil {
		t.Fatal(err)
	}
	parent := e.c.Head()
	baseFee := eip1559.CalcBaseFee(e.c.Config(), parent)
	tip := new(big.Int).Sub(big.NewInt(100*gwei), baseFee)
	if tip.Cmp(big.NewInt(2*gwei)) > 0 {
		tip = big.NewInt(2 * gwei)
	}
	wantFees := new(big.Int).Mul(tip, big.NewInt(21000))
	if res.TotalGasUsed != 42000 || len(res.Results) != 2 {
		t.Fatalf("totalGasUsed %d results %d, want 42000 and 2", res.TotalGasUsed, len(res.Results))
	}
	for i, r := range res.Results {
		if r.TxHash != txs[i].Hash() || r.GasUsed != 21000 || r.Failure != nil {
			t.Fatalf("result %d: %+v", i, r)
		}
		if r.GasFees.Cmp(wantFees) != 0 || r.CoinbaseDiff.Cmp(wantFees) != 0 || r.EthSentToCoinbase.Sign() != 0 {
			t.Fatalf("result %d: fees %v diff %v sent %v, want %v %v 0", i, r.GasFees, r.CoinbaseDiff, r.EthSentToCoinbase, wantFees, wantFees)
		}
		if r.GasPrice.Cmp(tip) != 0 {
			t.Fatalf("result %d: gasPrice %v, want tip %v", i, r.GasPrice, tip)
		}
		if r.From != e.accs[i].Address || r.To == nil || *r.To != to || len(r.ReturnData) != 0 {
			t.Fatalf("result %d: from %v to %v ret %x", i, r.From, r.To, r.ReturnData)
		}
	}
	if want := new(big.Int).Mul(wantFees, big.NewInt(2)); res.CoinbaseDiff.Cmp(want) != 0 || res.GasFees.Cmp(want) != 0 {
		t.Fatalf("bundle coinbaseDiff %v gasFees %v, want %v", res.CoinbaseDiff, res.GasFees, want)
	}
	if res.BundleGasPrice.Cmp(tip) != 0 || res.EthSentToCoinbase.Sign() != 0 {
		t.Fatalf("bundleGasPrice %v ethSent %v", res.BundleGasPrice, res.EthSentToCoinbase)
	}
	h0, h1 := txs[0].Hash(), txs[1].Hash()
	if want := crypto.Keccak256Hash(h0[:], h1[:]); res.BundleHash != want {
		t.Fatalf("bundleHash %v, want %v", res.BundleHash, want)
	}
	if res.StateBlockNumber != 3 || res.StateBlockHash != parent.Hash() {
		t.Fatalf("state block %d %v", res.StateBlockNumber, res.StateBlockHash)
	}
	// Simulation never touches the chain's state.
	sdbAfter, _ := e.bc.State()
	if sdbAfter.GetNonce(e.accs[0].Address) != 0 {
		t.Fatal("simulation leaked into the chain state")
	}
}

func TestCallBundleCoinbasePayment(t *testing.T) {
	e := newTestEnv(t, 1)
	pay := ether(3)
	cb := testCoinbase
	txs := []*types.Transaction{
		e.tx(0, 0, &cb, pay, 21000, nil),                     // direct transfer to the coinbase
		e.tx(0, 1, &payAddr, big.NewInt(12345), 100000, nil), // contract pays block.coinbase
	}
	res, err := newSim(e).Call(context.Background(), txs, e.block())
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Results[0].EthSentToCoinbase; got.Cmp(pay) != 0 {
		t.Fatalf("tx 0 ethSentToCoinbase %v, want %v", got, pay)
	}
	if got := res.Results[1].EthSentToCoinbase; got.Cmp(big.NewInt(12345)) != 0 {
		t.Fatalf("tx 1 ethSentToCoinbase %v, want 12345 (result %+v)", got, res.Results[1])
	}
	want := new(big.Int).Add(pay, big.NewInt(12345))
	if res.EthSentToCoinbase.Cmp(want) != 0 {
		t.Fatalf("bundle ethSentToCoinbase %v, want %v", res.EthSentToCoinbase, want)
	}
	sum := new(big.Int).Add(res.GasFees, want)
	if res.CoinbaseDiff.Cmp(sum) != 0 {
		t.Fatalf("coinbaseDiff %v, want gasFees+sent %v", res.CoinbaseDiff, sum)
	}
	// gasPrice is the coinbase's take per gas, including the payment.
	wantPrice := new(big.Int).Quo(res.Results[0].CoinbaseDiff, big.NewInt(21000))
	if res.Results[0].GasPrice.Cmp(wantPrice) != 0 {
		t.Fatalf("gasPrice %v, want %v", res.Results[0].GasPrice, wantPrice)
	}
}

func TestCallBundleRevertingCreation(t *testing.T) {
	e := newTestEnv(t, 1)
	to := common.Address{0x42}
	txs := []*types.Transaction{
		e.tx(0, 0, nil, nil, 200000, revertingInitCode()),
		e.tx(0, 1, &to, big.NewInt(1), 21000, nil), // runs on: nonce advanced by the failed creation
	}
	res, err := newSim(e).Call(context.Background(), txs, e.block())
	if err != nil {
		t.Fatal(err)
	}
	r := res.Results[0]
	if r.Failure == nil || !r.Failure.Reverted || r.Failure.Error != "execution reverted" || r.Failure.Revert != "nope" {
		t.Fatalf("failure %+v, want revert nope", r.Failure)
	}
	if r.To != nil || r.ReturnData != nil || r.GasUsed == 0 || r.GasUsed >= 200000 {
		t.Fatalf("creation result %+v", r)
	}
	if res.Results[1].Failure != nil {
		t.Fatalf("tx 1 failed: %+v", res.Results[1].Failure)
	}
}

func TestCallBundleLoopTimesOut(t *testing.T) {
	e := newTestEnv(t, 1)
	to := common.Address{0x42}
	txs := []*types.Transaction{
		e.tx(0, 0, &to, big.NewInt(1), 21000, nil),
		e.tx(0, 1, &loopAddr, nil, chain.MaxTxGas, nil),
	}
	b := e.block()
	ms := time.Millisecond
	b.Timeout = &ms
	res, err := newSim(e).Call(context.Background(), txs, b)
	if !errors.Is(err, bundle.ErrTimeout) || res != nil {
		t.Fatalf("got %v, %+v; want ErrTimeout and no result", err, res)
	}
	if !strings.Contains(err.Error(), "timed out after 1 ms") {
		t.Fatalf("message %q does not say the timeout", err)
	}
	// A caller that goes away is not a timeout.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newSim(e).Call(ctx, txs, e.block()); !errors.Is(err, bundle.ErrCancelled) {
		t.Fatalf("cancelled caller: got %v, want ErrCancelled", err)
	}
}

// TestSimulationCancelIsSticky checks the chain-level guard: after a
// cancellation, nothing runs and nothing reports success.
func TestSimulationCancelIsSticky(t *testing.T) {
	e := newTestEnv(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	sim, err := e.c.NewSimulation(ctx, e.c.Head(), chain.SimHeader{})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	loop, _ := sim.TxMessage(e.tx(0, 0, &loopAddr, nil, chain.MaxTxGas, nil))
	go func() { time.Sleep(time.Millisecond); cancel() }()
	if _, err := sim.Apply(loop, 0); !errors.Is(err, chain.ErrSimulationCancelled) {
		t.Fatalf("loop: got %v, want ErrSimulationCancelled", err)
	}
	to := common.Address{0x42}
	m, _ := sim.TxMessage(e.tx(1, 0, &to, big.NewInt(1), 21000, nil))
	if _, err := sim.Apply(m, 0); !errors.Is(err, chain.ErrSimulationCancelled) {
		t.Fatalf("after cancel: got %v, want ErrSimulationCancelled", err)
	}
	if n := sim.Nonce(e.accs[0].Address); n != 0 {
		t.Fatalf("cancelled tx left nonce %d, want 0 (rolled back)", n)
	}
}

func TestCallBundleHeaderOverrides(t *testing.T) {
	e := newTestEnv(t, 2)
	parent := e.c.Head()
	call := func(b *bundle.Block) []byte {
		t.Helper()
		res, err := newSim(e).Call(context.Background(), []*types.Transaction{e.tx(0, 0, &envAddr, nil, 100000, nil)}, b)
		if err != nil {
			t.Fatal(err)
		}
		if f := res.Results[0].Failure; f != nil {
			t.Fatalf("env contract failed (post-merge rules off?): %+v", f)
		}
		if len(res.Results[0].ReturnData) != 6*32 {
			t.Fatalf("return data %x", res.Results[0].ReturnData)
		}
		return res.Results[0].ReturnData
	}
	word := func(ret []byte, i int) *big.Int { return new(big.Int).SetBytes(ret[i*32 : (i+1)*32]) }

	// Defaults: parent+12, parent's coinbase, computed base fee, parent's gas limit and randao.
	ret := call(e.block())
	if got := word(ret, 0).Uint64(); got != parent.Time+12 {
		t.Errorf("default timestamp %d, want %d", got, parent.Time+12)
	}
	if got := common.BigToAddress(word(ret, 1)); got != parent.Coinbase {
		t.Errorf("default coinbase %v, want %v", got, parent.Coinbase)
	}
	if got, want := word(ret, 2), eip1559.CalcBaseFee(e.c.Config(), parent); got.Cmp(want) != 0 {
		t.Errorf("default base fee %v, want %v", got, want)
	}
	if got := word(ret, 3).Uint64(); got != parent.GasLimit {
		t.Errorf("default gas limit %d, want %d", got, parent.GasLimit)
	}
	if got := common.BigToHash(word(ret, 4)); got != parent.MixDigest {
		t.Errorf("default prevrandao %v, want parent's %v", got, parent.MixDigest)
	}
	if got := word(ret, 5).Uint64(); got != parent.Number.Uint64()+1 {
		t.Errorf("number %d", got)
	}

	cb := common.HexToAddress("0x00000000000000000000000000000000000cafe1")
	ts, gl := uint64(1_900_000_000), uint64(12_345_678)
	b := e.block()
	b.Number = parent.Number.Uint64() + 5
	b.Coinbase, b.Timestamp, b.GasLimit = &cb, &ts, &gl
	b.BaseFee = big.NewInt(7 * gwei)
	b.Difficulty = big.NewInt(131072) // must not switch post-merge rules off (PUSH0 would fail)
	ret = call(b)
	if got := word(ret, 0).Uint64(); got != ts {
		t.Errorf("timestamp %d, want %d", got, ts)
	}
	if got := common.BigToAddress(word(ret, 1)); got != cb {
		t.Errorf("coinbase %v, want %v", got, cb)
	}
	if got := word(ret, 2); got.Cmp(big.NewInt(7*gwei)) != 0 {
		t.Errorf("base fee %v", got)
	}
	if got := word(ret, 3).Uint64(); got != gl {
		t.Errorf("gas limit %d, want %d", got, gl)
	}
	if got := common.BigToHash(word(ret, 4)); got != parent.MixDigest {
		t.Errorf("prevrandao %v changed by the difficulty override", got)
	}
	if got := word(ret, 5).Uint64(); got != b.Number {
		t.Errorf("number %d, want %d", got, b.Number)
	}

	// The coinbase override also receives the fees.
	res, err := newSim(e).Call(context.Background(), []*types.Transaction{e.tx(0, 0, &cb, big.NewInt(99), 21000, nil)}, b)
	if err != nil {
		t.Fatal(err)
	}
	wantFees := new(big.Int).Mul(big.NewInt(2*gwei), big.NewInt(21000))
	if res.GasFees.Cmp(wantFees) != 0 || res.EthSentToCoinbase.Cmp(big.NewInt(99)) != 0 {
		t.Fatalf("with coinbase override: gasFees %v sent %v", res.GasFees, res.EthSentToCoinbase)
	}
	// A base fee above the fee cap makes the tx consensus-invalid.
	b.BaseFee = big.NewInt(1000 * gwei)
	_, err = newSim(e).Call(context.Background(), []*types.Transaction{e.tx(0, 0, &cb, nil, 21000, nil)}, b)
	if !errors.Is(err, bundle.ErrInvalidTx) || !strings.Contains(err.Error(), "max fee per gas less than block base fee") {
		t.Fatalf("fee cap below base fee: %v", err)
	}
	// A gas limit override below the bundle's gas makes it not fit.
	small := uint64(30000)
	b = e.block()
	b.GasLimit = &small
	to := common.Address{1}
	_, err = newSim(e).Call(context.Background(), []*types.Transaction{e.tx(0, 0, &to, nil, 21000, nil), e.tx(0, 1, &to, nil, 21000, nil)}, b)
	if !errors.Is(err, bundle.ErrInvalidTx) || !strings.Contains(err.Error(), "tx 1") || !strings.Contains(err.Error(), "gas limit reached") {
		t.Fatalf("over block gas: %v", err)
	}
}

func TestCallBundleDependentTxs(t *testing.T) {
	e := newTestEnv(t, 1)
	key, _ := crypto.GenerateKey()
	fresh := crypto.PubkeyToAddress(key.PublicKey)
	fund := e.tx(0, 0, &fresh, ether(1), 21000, nil)
	to := common.Address{0x43}
	spend := signTx(e.signer, key, 0, &to, big.NewInt(1000), 21000, nil)

	res, err := newSim(e).Call(context.Background(), []*types.Transaction{fund, spend}, e.block())
	if err != nil {
		t.Fatal(err)
	}
	if res.Results[1].From != fresh || res.Results[1].Failure != nil {
		t.Fatalf("spend result %+v", res.Results[1])
	}
	// Reversed, the spender has nothing: the whole call fails, naming the tx.
	_, err = newSim(e).Call(context.Background(), []*types.Transaction{spend, fund}, e.block())
	if !errors.Is(err, bundle.ErrInvalidTx) || !strings.Contains(err.Error(), spend.Hash().Hex()) ||
		!strings.Contains(err.Error(), "insufficient funds") {
		t.Fatalf("reversed: %v", err)
	}
	// A nonce gap also names the tx.
	_, err = newSim(e).Call(context.Background(), []*types.Transaction{e.tx(0, 5, &to, nil, 21000, nil)}, e.block())
	if !errors.Is(err, bundle.ErrInvalidTx) || !strings.Contains(err.Error(), "nonce too high") {
		t.Fatalf("nonce gap: %v", err)
	}
}

func TestCallBundleOlderState(t *testing.T) {
	e := newTestEnv(t, 4)
	// Dev account 9 sent one tx per block, so its nonce at block n is n.
	for _, n := range []uint64{1, 2} {
		hdr, _ := e.c.HeaderByNumber(n)
		to := common.Address{0x44}
		tx := e.tx(9, n, &to, nil, 21000, nil)
		for _, ref := range []rpc.BlockNumberOrHash{
			rpc.BlockNumberOrHashWithNumber(rpc.BlockNumber(n)),
			rpc.BlockNumberOrHashWithHash(hdr.Hash(), true),
		} {
			res, err := newSim(e).Call(context.Background(), []*types.Transaction{tx}, &bundle.Block{Number: n + 1, State: ref})
			if err != nil {
				t.Fatalf("state %v: %v", ref, err)
			}
			if res.StateBlockNumber != n || res.StateBlockHash != hdr.Hash() {
				t.Fatalf("state %v: got block %d", ref, res.StateBlockNumber)
			}
		}
		// The same tx is invalid on the head state (nonce too low).
		if _, err := newSim(e).Call(context.Background(), []*types.Transaction{tx}, e.block()); !errors.Is(err, bundle.ErrInvalidTx) {
			t.Fatalf("tx with nonce %d on head: %v", n, err)
		}
	}
}

func TestCallBundleBadBlocks(t *testing.T) {
	e := newTestEnv(t, 2)
	to := common.Address{0x45}
	txs := []*types.Transaction{e.tx(0, 0, &to, nil, 21000, nil)}
	sim := newSim(e)
	tooLong := 11 * time.Second
	zero := time.Duration(0)
	huge := uint64(1 << 62)
	cases := []struct {
		name string
		b    *bundle.Block
		err  error
		msg  string
	}{
		{"no block number", &bundle.Block{State: latest()}, bundle.ErrNoBlockNumber, "bundle missing blockNumber"},
		{"future state block", &bundle.Block{Number: 10, State: rpc.BlockNumberOrHashWithNumber(9)}, bundle.ErrUnknownStateBlock, "block 9 is in the future (head is 2)"},
		{"unknown hash", &bundle.Block{Number: 3, State: rpc.BlockNumberOrHashWithHash(common.Hash{1}, false)}, bundle.ErrUnknownStateBlock, "unknown block: hash 0x01"},
		{"no finalized", &bundle.Block{Number: 3, State: rpc.BlockNumberOrHashWithNumber(rpc.FinalizedBlockNumber)}, bundle.ErrUnknownStateBlock, "no finalized block yet"},
		{"timeout above cap", &bundle.Block{Number: 3, State: latest(), Timeout: &tooLong}, bundle.ErrBadTimeout, "11000 ms is above the maximum of 10000 ms"},
		{"zero timeout", &bundle.Block{Number: 3, State: latest(), Timeout: &zero}, bundle.ErrBadTimeout, "expected a positive number of milliseconds"},
		// A client without funds (zero base fee) ran 100 txs of 16.7M gas
		// each under an unbounded override: seconds of CPU per request.
		{"gas limit above twice the state block's", &bundle.Block{Number: 3, State: latest(), GasLimit: &huge}, bundle.ErrBadGasLimit, fmt.Sprintf("%d is above %d, twice the state block's gas limit", huge, 2*e.c.Head().GasLimit)},
	}
	for _, c := range cases {
		_, err := sim.Call(context.Background(), txs, c.b)
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want %v containing %q", c.name, err, c.err, c.msg)
		}
	}
	if _, err := sim.Call(context.Background(), nil, e.block()); !errors.Is(err, bundle.ErrNoTxs) {
		t.Errorf("no txs: %v", err)
	}
}

func TestEstimateGasBundle(t *testing.T) {
	e := newTestEnv(t, 1)
	to := common.Address{0x46}
	fromCall := e.accs[3].Address
	items := []bundle.EstimateItem{
		{Tx: e.tx(0, 0, &to, big.NewInt(1), 50000, nil)}, // signed, generous gas
		{Call: &chain.SimCall{From: fromCall, To: &gasyAddr}},
		{Call: &chain.SimCall{From: fromCall, To: &loopAddr, Gas: 100000}},
		{Tx: e.tx(0, 1, nil, nil, 200000, revertingInitCode())},
	}
	res, err := newSim(e).EstimateGas(context.Background(), items, e.block())
	if err != nil {
		t.Fatal(err)
	}
	r := res.Results
	if r[0].GasLimit != 21000 || r[0].GasUsed != 21000 || r[0].Failure != nil || r[0].TxHash != items[0].Tx.Hash() {
		t.Fatalf("transfer estimate %+v", r[0])
	}
	if r[1].Failure != nil || r[1].GasLimit <= r[1].GasUsed {
		t.Fatalf("gasy estimate %+v: want success and a limit above the gas used", r[1])
	}
	// The limit found is the smallest: one less fails, the limit succeeds.
	sim, err := e.c.NewSimulation(context.Background(), e.c.Head(), chain.SimHeader{NoBaseFee: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	first, _ := sim.TxMessage(items[0].Tx)
	if _, err := sim.Apply(first, 21000); err != nil {
		t.Fatal(err)
	}
	m, _ := sim.CallMessage(items[1].Call)
	ok, _ := sim.Try(m, r[1].GasLimit)
	bad, _ := sim.Try(m, r[1].GasLimit-1)
	if ok.Err != nil || bad.Err == nil {
		t.Fatalf("limit %d: err %v; limit-1: err %v", r[1].GasLimit, ok.Err, bad.Err)
	}
	if r[2].Failure == nil || r[2].Failure.Error != "out of gas" || r[2].GasLimit != 0 || r[2].GasUsed != 100000 {
		t.Fatalf("loop estimate %+v", r[2])
	}
	if r[3].Failure == nil || r[3].Failure.Revert != "nope" {
		t.Fatalf("reverting creation estimate %+v", r[3])
	}
	if res.TotalGasUsed != r[0].GasUsed+r[1].GasUsed+r[2].GasUsed+r[3].GasUsed {
		t.Fatalf("totalGasUsed %d", res.TotalGasUsed)
	}
	// Consensus-invalid entries fail the whole estimate.
	_, err = newSim(e).EstimateGas(context.Background(), []bundle.EstimateItem{{Tx: e.tx(0, 7, &to, nil, 21000, nil)}}, e.block())
	if !errors.Is(err, bundle.ErrInvalidTx) || !strings.Contains(err.Error(), "nonce too high") {
		t.Fatalf("bad nonce: %v", err)
	}
	_, err = newSim(e).EstimateGas(context.Background(), []bundle.EstimateItem{{Call: &chain.SimCall{From: common.Address{9}, To: &to, Value: ether(1)}}}, e.block())
	if !errors.Is(err, bundle.ErrInvalidTx) || !strings.Contains(err.Error(), "call 0") || !strings.Contains(err.Error(), "insufficient funds") {
		t.Fatalf("unfunded call: %v", err)
	}
}
