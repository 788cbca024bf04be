package auctioncli

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/bindings"
	"github.com/gavel-eth/gavel/contracts/operator"
	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/params"
)

// l2ChainID is the chain id of the second dev node that serves as L2.
const l2ChainID = 901

// TestSecondChainAsL2 runs the auction for an L1 dev node on a second dev
// node with another chain id (the L2): the contracts are deployed there with
// `gavel auction deploy`, a bidder bids with `gavel auction bid`, the L1
// node reads the L2 through its beta L2 RPC setting (--beta.l2rpc), and the
// operator loop (what `gavel auction operate` runs), ticked by the L1 node's
// slots and told deliveries by the L1 node's mev_deliveredBeta, opens and
// settles; the bidder pays a beta bundle's hash on the L2, L1 slot S's block
// ends with that bundle, the loop pays S out and refunds the slot L1 missed.
func TestSecondChainAsL2(t *testing.T) {
	l2 := testnode.New(t, testnode.Options{Configure: func(_ *node.Config, _ *ethconfig.Config, c *eth.Config) {
		c.Dev.ChainID = l2ChainID
	}})
	if id := l2.Chain().ChainID(); id != l2ChainID {
		t.Fatalf("L2 chain id %d, want %d", id, l2ChainID)
	}

	hexKey := func(i int) string { return "0x" + hex.EncodeToString(crypto.FromECDSA(testnode.Account(i).Key)) }
	owner, bidder := hexKey(0), hexKey(1)
	run := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		app := &cli.App{Name: "gavel", Commands: []*cli.Command{Command()}, Writer: &out, ErrWriter: &out}
		// --l2rpc goes before the flags: a positional argument must stay last.
		i := 0
		for i < len(args) && !strings.HasPrefix(args[i], "--") {
			i++
		}
		args = append(append(append([]string{"gavel", "auction"}, args[:i]...), "--l2rpc", l2.HTTPURL()), args[i:]...)
		if err := app.Run(args); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
		return out.String()
	}

	// The L1 slot S whose auction the test bids in, opened by hand before the
	// loop starts (the loop then carries it on), and the loop's leads.
	const S, missed, lead, settleLead = 10, 12, 6, 3
	file := filepath.Join(t.TempDir(), "addresses.json")
	stop := l2.StepInBackground(10 * time.Millisecond)
	run("deploy", "--key", owner, "--out", file)
	run("bidder", "add", "--key", owner, "--addresses", file, testnode.Account(1).Address.Hex())
	run("wrap", "--key", bidder, "--addresses", file, "--amount", "1ether")

	var addrs auction.Addresses
	if raw, err := os.ReadFile(file); err != nil || json.Unmarshal(raw, &addrs) != nil {
		t.Fatalf("addresses file: %v", err)
	}
	// The L1 node reads the paid bundles from the L2 (--beta.l2rpc and the
	// deployment's addresses).
	l1 := testnode.New(t, testnode.Options{Configure: func(_ *node.Config, _ *ethconfig.Config, c *eth.Config) {
		c.Beta.L2RPC = l2.HTTPURL()
		c.Beta.Auctioneer, c.Beta.SettlementHouse = addrs.Auctioneer.Hex(), addrs.SettlementHouse.Hex()
	}})
	// Slot 10 is an L1 slot: --l1rpc gives open the L1's slot clock.
	run("open", "--key", owner, "--addresses", file, "--l1rpc", l1.HTTPURL(), "--slot", "10", "--gas", "1000000")
	run("bid", "--key", bidder, "--addresses", file, "--slot", "10", "--price", "1gwei", "--gas", "400000")
	stop()
	ctx := context.Background()

	// A beta bundle for L1 slot S: a zero-tip transfer on the L1 chain.
	to := testnode.Account(6).Address
	l1ID := l1.Chain().Config().ChainID
	betaTx := types.MustSignNewTx(testnode.Account(5).Key, types.LatestSignerForChainID(l1ID), &types.DynamicFeeTx{
		ChainID: l1ID, GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000, To: &to, Value: big.NewInt(1)})
	rawBeta, _ := betaTx.MarshalBinary()
	var bundleHash common.Hash
	mev, err := rpc.Dial(l1.MEVURL())
	if err != nil {
		t.Fatal(err)
	}
	defer mev.Close()
	if err := mev.CallContext(ctx, &bundleHash, "mev_sendBetaBundle", map[string]any{"txs": []hexutil.Bytes{rawBeta}, "slot": strconv.Itoa(S)}); err != nil {
		t.Fatal(err)
	}

	opClient, err := loadOperatorClient(ctx, l2, addrs)
	if err != nil {
		t.Fatal(err)
	}
	clock := params.SlotClock{GenesisTime: l1.Beacon().GenesisTime(), SecondsPerSlot: uint64(l1.Beacon().Period() / time.Second)}
	loop, err := operator.New(opClient, operator.RelayDeliveries{L1: l1.RPC(), Clock: clock, URL: l1.MEVURL()}, operator.Config{Gas: 1_000_000, Lead: lead, SettleLead: settleLead, Grace: 1})
	if err != nil {
		t.Fatal(err)
	}
	loop.OnTransition(func(tr operator.Transition) {
		if tr.Err != nil {
			t.Errorf("%s(%d): %v", tr.Call, tr.Slot, tr.Err)
		}
	})
	// Each L1 slot ticks the loop; the L2 then mines what it sent.
	l1.Beacon().OnSlot(func(ctx context.Context, slot uint64, _ *types.Header) {
		if err := loop.Tick(ctx, slot); err != nil {
			t.Errorf("tick %d: %v", slot, err)
		}
	})
	step := func(slot uint64) {
		t.Helper()
		if _, err := l1.Beacon().ProduceSlot(ctx, slot); err != nil {
			t.Fatal(err)
		}
		l2.Step()
	}
	// The bidder pays the bundle hash on the L2 once the loop settled S,
	// sending without waiting (the L2 is stepped by hand): approve the
	// SettlementHouse for the gas tokens, then submitBundle.
	pay := func() {
		chainID := big.NewInt(l2ChainID)
		nonce, err := l2.Client().PendingNonceAt(ctx, testnode.Account(1).Address)
		if err != nil {
			t.Fatal(err)
		}
		a, h := bindings.NewAuctioneer(), bindings.NewSettlementHouse()
		for i, c := range []struct {
			to   common.Address
			data []byte
		}{
			{addrs.Auctioneer, a.PackApprove(addrs.SettlementHouse, big.NewInt(S), big.NewInt(100_000))},
			{addrs.SettlementHouse, h.PackSubmitBundle(big.NewInt(S), big.NewInt(100_000), [][32]byte{bundleHash})},
		} {
			tx := types.MustSignNewTx(testnode.Account(1).Key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
				ChainID: chainID, Nonce: nonce + uint64(i), GasTipCap: big.NewInt(gparams.GWei), GasFeeCap: big.NewInt(100 * gparams.GWei),
				Gas: 300_000, To: &c.to, Data: c.data})
			if err := l2.Client().SendTransaction(ctx, tx); err != nil {
				t.Fatal(err)
			}
		}
	}
	var sBlock *types.Header
	for slot := l1.Beacon().HeadSlot() + 1; slot <= missed+1; slot++ {
		if slot == missed {
			continue // no L1 block: the proposer missed it
		}
		step(slot)
		switch slot {
		case S - settleLead: // runAndSettle(S) was just mined on the L2
			pay()
		case S:
			sBlock = l1.Chain().Head()
		}
	}
	// L1 slot S's block ends with the bundle paid on the L2.
	blk, err := l1.Client().BlockByHash(ctx, sBlock.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if txs := blk.Transactions(); len(txs) < 2 || txs[len(txs)-1].Hash() != betaTx.Hash() {
		t.Errorf("L1 slot %d's block does not end with the beta tx paid on the L2 (%d txs)", S, len(txs))
	}
	status := func(slot uint64) auction.Status {
		st, err := opClient.Status(ctx, slot)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	if st := status(S); !st.IsPaidOut {
		t.Errorf("L1 slot %d, delivered by the L1 relay: %s on L2, want paid out", S, st.Word())
	}
	if st := status(S + 1); !st.IsPaidOut {
		t.Errorf("L1 slot %d, delivered: %s on L2, want paid out", S+1, st.Word())
	}
	if st := status(missed); !st.IsRefunded {
		t.Errorf("missed L1 slot %d: %s on L2, want refunded", missed, st.Word())
	}
	if st := status(missed + lead); !st.IsOpen {
		t.Errorf("L1 slot %d: %s on L2, want open", missed+lead, st.Word())
	}
	if res, err := opClient.BidderInfo(ctx, S, testnode.Account(1).Address); err != nil || res.ItemsBought.Uint64() != 400_000 {
		t.Errorf("bidder's result in slot %d: %+v, %v", S, res, err)
	}
	out := run("info", "--addresses", file, "--recent", "8", "--slot", "12")
	if !strings.Contains(out, "slot 12       refunded") || !strings.Contains(out, "slot 12 auction: refunded") {
		t.Errorf("info after the missed slot:\n%s", out)
	}
	// The relay data API alone (without the L1 node's JSON-RPC) pays a
	// slot out once the relay says its delivered block is canonical, which
	// it checks when its head is 2 slots past the slot; it knows nothing of
	// the missed slot.
	api := operator.RelayDeliveries{URL: l1.MEVURL()}
	step(missed + 2)
	step(missed + 3)
	deadline := time.Now().Add(10 * time.Second) // the relay checks in the background
	for {
		v, err := api.Verdict(ctx, S)
		if err == nil && v.Known && v.Payout {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("data API on slot %d: %+v, %v; want delivered and canonical", S, v, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if v, err := api.Verdict(ctx, missed); err != nil || v.Known {
		t.Errorf("data API on missed slot %d: %+v, %v", missed, v, err)
	}
}

// loadOperatorClient is a client of the L2 deployment signing as its
// operator (dev account 0, the deployer).
func loadOperatorClient(ctx context.Context, l2 *testnode.Node, addrs auction.Addresses) (*auction.Client, error) {
	chainID, err := l2.Client().ChainID(ctx)
	if err != nil {
		return nil, err
	}
	return auction.NewClient(l2.Client(), addrs, bind.NewKeyedTransactor(testnode.Account(0).Key, chainID)), nil
}
