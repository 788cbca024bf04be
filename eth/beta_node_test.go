package eth_test

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/devauction"
	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/params"
)

// stepper produces dev blocks in the background (the auction client waits
// for receipts by polling) until stopped. It steps only while the pool holds
// pending transactions (and otherwise every 100 ms, for waits that need a
// block but send nothing), so the slots the set-up takes depend on the
// transactions sent more than on how loaded the machine is.
type stepper struct {
	cancel context.CancelFunc
	done   chan struct{}
	once   sync.Once
}

func startStepping(t *testing.T, n *testnode.Node) *stepper {
	ctx, cancel := context.WithCancel(context.Background())
	s := &stepper{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		last := time.Now()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if pending, _ := n.Eth().TxPool().Stats(); pending == 0 && time.Since(last) < 100*time.Millisecond {
					continue
				}
				last = time.Now()
				if _, err := n.Beacon().Step(ctx); err != nil && ctx.Err() == nil {
					t.Errorf("step: %v", err)
					return
				}
			}
		}
	}()
	t.Cleanup(s.stop)
	return s
}

func (s *stepper) stop() { s.once.Do(func() { s.cancel(); <-s.done }) }

// betaTxs signs count zero-tip transfers from key starting at nonce (a nonce
// in skip is signed one higher: a gap).
func betaTxs(t *testing.T, key *ecdsa.PrivateKey, nonces ...uint64) []*types.Transaction {
	t.Helper()
	to := common.HexToAddress("0x00000000000000000000000000000000000be7a0")
	var out []*types.Transaction
	for _, nonce := range nonces {
		out = append(out, types.MustSignNewTx(key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
			ChainID: big.NewInt(params.DevChainID), Nonce: nonce, GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei),
			Gas: 21000, To: &to, Value: big.NewInt(1),
		}))
	}
	return out
}

func rawTxs(t *testing.T, txs []*types.Transaction) []hexutil.Bytes {
	out := make([]hexutil.Bytes, len(txs))
	for i, tx := range txs {
		b, err := tx.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		out[i] = b
	}
	return out
}

// TestBetaBlockEndToEnd runs the beta market on one dev chain that is its
// own L2: beta bundles sent for slot S, two bidders bid for S's beta gas,
// the auction settles, the bidders pay bundle hashes, and S's block, which
// the dev proposer gets from the relay, ends with the paid bundles' txs
// after the alpha's proposer payment, by the settlement rules:
//   - A, paid whole: included, 2 of 2;
//   - U, paid but never sent: changes nothing;
//   - P, paid 30,000 gas for two 21,000-gas txs: included 1 of 2;
//   - I, second tx with a nonce gap: included 1 of 3, the gap ends it;
//   - N, sent but never paid: absent.
func TestBetaBlockEndToEnd(t *testing.T) {
	var svc *devauction.Service
	n := testnode.New(t, testnode.Options{Register: func(n *eth.Node) error {
		svc = devauction.Register(n.Stack(), devauction.Config{})
		return nil
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st := startStepping(t, n)
	dev, err := svc.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	chainID := big.NewInt(params.DevChainID)
	op, err := svc.OperatorClient(ctx, n.Client())
	if err != nil {
		t.Fatal(err)
	}
	// The dev auction's own bidders (params.DevBidderKeys), not test accounts.
	bidder := func(i int) *auction.Client {
		return auction.NewClient(n.Client(), dev.Addresses, bind.NewKeyedTransactor(params.DevBidderKeys()[i].Key, chainID))
	}
	b1, b2 := bidder(0), bidder(1)

	// The set-up's transactions are waited for on the wall clock (receipts
	// polled every 200 ms) while the stepper steps every 20 ms, so how many
	// slots it takes depends on how fast a step is: leave room.
	slot := n.Beacon().HeadSlot() + 300
	const sold = 3_000_000
	must := func(_ *types.Receipt, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(op.OpenAuction(ctx, slot, sold))
	must(b1.PlaceBids(ctx, slot, []auction.Bid{{Price: big.NewInt(2 * gparams.GWei), Gas: 2_000_000}}))
	must(b2.PlaceBids(ctx, slot, []auction.Bid{{Price: big.NewInt(gparams.GWei), Gas: 2_000_000}}))
	must(op.Settle(ctx, slot))

	a := betaTxs(t, testnode.Account(4).Key, 0, 1)
	p := betaTxs(t, testnode.Account(5).Key, 0, 1)
	inv := betaTxs(t, testnode.Account(6).Key, 0, 2, 1)
	unpaid := betaTxs(t, testnode.Account(7).Key, 0)
	ha, hp, hi, hn := bundle.Hash(a), bundle.Hash(p), bundle.Hash(inv), bundle.Hash(unpaid)
	hu := common.Hash{0x0b, 0xad}
	must(b1.Pay(ctx, slot, 100_000, []common.Hash{ha, hu}))
	must(b2.Pay(ctx, slot, 30_000, []common.Hash{hp}))
	must(b1.Pay(ctx, slot, 100_000, []common.Hash{hi}))
	st.stop()

	if h := n.Beacon().HeadSlot(); h >= slot-1 {
		t.Fatalf("the L2 set-up took until slot %d, past the target %d", h, slot)
	}
	for n.Beacon().HeadSlot() < slot-1 {
		n.Step()
	}
	for _, txs := range [][]*types.Transaction{a, p, inv, unpaid} {
		var h common.Hash
		if err := n.RPC().CallContext(ctx, &h, "mev_sendBetaBundle", map[string]any{"txs": rawTxs(t, txs), "slot": strconv.FormatUint(slot, 10)}); err != nil {
			t.Fatal(err)
		}
	}
	var vals []struct {
		Slot    string `json:"slot"`
		BetaGas string `json:"beta_gas"`
	}
	getJSON(t, n.MEVURL()+"/relay/v1/builder/validators", &vals)
	found := false
	for _, v := range vals {
		if v.Slot == strconv.FormatUint(slot, 10) {
			found = v.BetaGas == strconv.Itoa(sold)
		}
	}
	if !found {
		t.Fatalf("validators endpoint: slot %d with beta_gas %d not in %+v", slot, sold, vals)
	}

	status := func(h common.Hash) betapool.SlotResult {
		t.Helper()
		var r betapool.BetaBundleResult
		if err := n.RPC().CallContext(ctx, &r, "mev_getBetaBundle", h); err != nil {
			t.Fatal(err)
		}
		if len(r.Slots) != 1 {
			t.Fatalf("bundle %s: slots %+v", h, r.Slots)
		}
		return r.Slots[0]
	}
	if s := status(hi); s.Status != betapool.StatePaid || s.Entry == nil || *s.Entry != 2 || s.Gas == nil || uint64(*s.Gas) != 100_000 {
		t.Fatalf("paid bundle before its slot: %+v, want paid by entry 2 with 100000 gas", s)
	}

	head := n.Step()
	if got := n.Beacon().HeadSlot(); got != slot {
		t.Fatalf("head slot %d, want %d", got, slot)
	}
	block, err := n.Client().BlockByHash(ctx, head.Hash())
	if err != nil {
		t.Fatal(err)
	}
	txs := block.Transactions()
	want := []common.Hash{a[0].Hash(), a[1].Hash(), p[0].Hash(), inv[0].Hash()}
	if len(txs) < len(want)+1 {
		t.Fatalf("block %d has %d txs", block.NumberU64(), len(txs))
	}
	tail := txs[len(txs)-len(want):]
	for i, w := range want {
		if tail[i].Hash() != w {
			t.Fatalf("block tail tx %d is %s, want %s", i, tail[i].Hash(), w)
		}
	}
	pay := txs[len(txs)-len(want)-1]
	if from, _ := types.Sender(types.LatestSignerForChainID(chainID), pay); from != eth.DevBuilderCoinbase() || pay.Value().Sign() <= 0 {
		t.Fatalf("the tx before beta is not the alpha's proposer payment (from %s, value %s)", from, pay.Value())
	}

	for _, c := range []struct {
		hash     common.Hash
		state    string
		included string
	}{
		{ha, betapool.StateIncluded, "2 of 2"},
		{hp, betapool.StateIncluded, "1 of 2"},
		{hi, betapool.StateIncluded, "1 of 3"},
		{hn, betapool.StatePending, ""}, // the slot is the current one until the next
	} {
		s := status(c.hash)
		if s.Status != c.state || s.Included != c.included {
			t.Errorf("bundle %s: %+v, want %s %s", c.hash, s, c.state, c.included)
		}
		if c.state == betapool.StateIncluded && (s.BlockHash == nil || *s.BlockHash != block.Hash()) {
			t.Errorf("bundle %s: included in %v, want block %s", c.hash, s.BlockHash, block.Hash())
		}
	}
	if s := status(hp); s.Reason == "" || s.Entry == nil || *s.Entry != 1 {
		t.Errorf("partial bundle: %+v, want entry 1 and a reason", s)
	}
	n.Step()
	if s := status(hn); s.Status != betapool.StateExpired {
		t.Errorf("unpaid bundle after its slot: %+v, want expired", s)
	}

	var delivered []struct {
		BlockHash       string `json:"block_hash"`
		AlphaBlockHash  string `json:"alpha_block_hash"`
		BetaGasUsed     string `json:"beta_gas_used"`
		BetaBundleCount string `json:"beta_bundle_count"`
	}
	getJSON(t, n.MEVURL()+"/relay/v1/data/bidtraces/proposer_payload_delivered?slot="+strconv.FormatUint(slot, 10), &delivered)
	if len(delivered) != 1 || delivered[0].BlockHash != block.Hash().Hex() || delivered[0].AlphaBlockHash == delivered[0].BlockHash ||
		delivered[0].BetaGasUsed != "84000" || delivered[0].BetaBundleCount != "3" {
		t.Fatalf("delivered record %+v", delivered)
	}
}

// TestBetaL2Unreachable: with the L2 down every slot is still delivered
// through the relay, as alpha alone.
func TestBetaL2Unreachable(t *testing.T) {
	n := testnode.New(t, testnode.Options{Configure: func(_ *node.Config, _ *ethconfig.Config, g *eth.Config) {
		g.Beta.L2RPC = "http://127.0.0.1:1"
	}})
	for i := uint64(1); i <= 3; i++ {
		h := n.Step()
		if h.Number.Uint64() != i || h.Coinbase != eth.DevBuilderCoinbase() {
			t.Fatalf("slot %d: block %d from %s, want the relay's block", i, h.Number, h.Coinbase)
		}
	}
}
