package eth_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/bindings"
	"github.com/gavel-eth/gavel/contracts/operator"
	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/internal/rpctest"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/params"
)

// devAuctionNode starts a manual-slot dev node with the dev auction and its
// operator loop, and steps it whenever the deployment sends transactions
// until the contracts are deployed (the deployment waits for its receipts on
// its own goroutine). From then on the test steps by hand.
func devAuctionNode(t *testing.T, cfg eth.DevAuctionConfig, observe func(operator.Transition)) (*testnode.Node, *eth.DevAuction) {
	t.Helper()
	var da *eth.DevAuction
	n := testnode.New(t, testnode.Options{Register: func(n *eth.Node) (err error) {
		da, err = n.EnableDevAuction(cfg)
		if err == nil {
			da.OnTransition(observe)
		}
		return err
	}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stop := n.StepOnNewTxs()
	if _, err := da.Service.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	stop()
	n.Step() // the loop has started (at the latest here) and opened its window
	if da.Operator() == nil {
		t.Fatal("no operator loop after the deployment")
	}
	return n, da
}

// sender sends contract calls without waiting for them to be mined, so the
// test decides in which slot they land. It numbers each account's
// transactions itself: the pool's pending nonce may lag a transaction it
// just accepted.
type sender struct {
	t      *testing.T
	n      *testnode.Node
	chain  *big.Int
	nonces map[common.Address]uint64
}

func (s sender) send(key *ecdsa.PrivateKey, to common.Address, data []byte, gas uint64) common.Hash {
	s.t.Helper()
	opts := bind.NewKeyedTransactor(key, s.chain)
	opts.GasLimit = gas // no estimate: earlier calls of the same block are not mined yet
	nonce, ok := s.nonces[opts.From]
	if !ok {
		var err error
		if nonce, err = s.n.Client().PendingNonceAt(context.Background(), opts.From); err != nil {
			s.t.Fatal(err)
		}
	}
	s.nonces[opts.From] = nonce + 1
	opts.Nonce = new(big.Int).SetUint64(nonce)
	c := bind.NewBoundContract(to, bindings.NewAuctioneer().GetABI(), s.n.Client(), s.n.Client(), s.n.Client())
	tx, err := c.RawTransact(opts, data)
	if err != nil {
		s.t.Fatalf("sending from %s to %s: %v", opts.From, to, err)
	}
	return tx.Hash()
}

// TestDevAuctionOperator runs the market end to end with the in-process
// operator loop on a dev node stepped by hand: a beta bundle is sent for
// slot S, two bidders bid, the loop settles, the winner pays the bundle
// hash, slot S's block (through the relay) ends with the bundle's tx, the
// bundle is included and the loop pays S out; slot S+1 is missed and the
// loop refunds it.
func TestDevAuctionOperator(t *testing.T) {
	const lead, settleLead = 6, 3
	var (
		mu          sync.Mutex
		transitions []operator.Transition
	)
	n, da := devAuctionNode(t, eth.DevAuctionConfig{Gas: 1_000_000, Lead: lead, SettleLead: settleLead}, func(tr operator.Transition) {
		mu.Lock()
		defer mu.Unlock()
		if tr.Err != nil {
			t.Errorf("%s(%d) failed: %v", tr.Call, tr.Slot, tr.Err)
		}
		transitions = append(transitions, tr)
	})
	ctx := context.Background()
	addrs := da.Service.Addresses()
	reader := auction.NewClient(n.Client(), addrs, nil)
	state := func(slot uint64) auction.Status {
		t.Helper()
		st, err := reader.Status(ctx, slot)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}

	n.Step() // mines the opens of the first tick
	head := n.Beacon().HeadSlot()
	S := head + lead - 1 // opened by the tick of head-1, mined in head
	if st := state(S); !st.IsOpen || st.ItemsForSale.Uint64() != 1_000_000 {
		t.Fatalf("slot %d (head %d) is %s selling %v gas, want open selling 1000000", S, head, st.Word(), st.ItemsForSale)
	}

	// The beta bundle for slot S: account 5 pays account 6, zero tip.
	chainID := n.Chain().Config().ChainID
	signer := types.LatestSignerForChainID(chainID)
	to := testnode.Account(6).Address
	betaTx, err := types.SignNewTx(testnode.Account(5).Key, signer, &types.DynamicFeeTx{ChainID: chainID, Nonce: 0,
		GasTipCap: big.NewInt(0), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := betaTx.MarshalBinary()
	status, r := post(t, n.MEVURL()+"/", rpctest.Body("mev_sendBetaBundle", map[string]any{"txs": []hexutil.Bytes{raw}, "slot": strconv.FormatUint(S, 10)}), "")
	if status != 200 || r.Error != nil {
		t.Fatalf("mev_sendBetaBundle: %d %+v", status, r.Error)
	}
	var bundleHash common.Hash
	if err := json.Unmarshal(r.Result, &bundleHash); err != nil {
		t.Fatalf("bundle hash %q: %v", r.Result, err)
	}

	// The two dev bidders bid in S and S+1.
	tx := sender{t: t, n: n, chain: chainID, nonces: map[common.Address]uint64{}}
	ab := bindings.NewAuctioneer()
	dev, _ := da.Service.Deployed()
	bidders := params.DevBidderKeys()
	if len(dev.Bidders) != 2 || len(bidders) != 2 {
		t.Fatalf("dev bidders %+v", dev.Bidders)
	}
	bid := func(i int, slot uint64, gwei int64, gas uint64) {
		p, err := auction.Bid{Price: big.NewInt(gwei * gparams.GWei), Gas: gas, BidderID: dev.Bidders[i].ID}.Pack()
		if err != nil {
			t.Fatal(err)
		}
		tx.send(bidders[i].Key, addrs.Auctioneer, ab.PackBid(new(big.Int).SetUint64(slot), []*big.Int{p}), 500_000)
	}
	bid(0, S, 2, 600_000)
	bid(1, S, 1, 800_000)
	bid(0, S+1, 1, 300_000)
	for n.Beacon().HeadSlot() < S-settleLead {
		n.Step()
	}
	if st, err := reader.Auction(ctx, S); err != nil || !st.IsOpen || st.Bids.Uint64() != 2 {
		t.Fatalf("slot %d before settlement: %+v, %v", S, st, err)
	}
	n.Step() // mines runAndSettle(S), sent after slot S-settleLead
	st, err := reader.Auction(ctx, S)
	if err != nil {
		t.Fatal(err)
	}
	if !st.IsSettled || st.ItemsSold.Uint64() != 1_000_000 || st.ClearingPrice.Int64() != gparams.GWei {
		t.Fatalf("slot %d after settlement: %s, sold %v at %v", S, stateWord(st), st.ItemsSold, st.ClearingPrice)
	}

	// The winner with 600,000 gas pays 100,000 of it for the bundle hash.
	gas := new(big.Int).SetUint64(100_000)
	approve := tx.send(bidders[0].Key, addrs.Auctioneer, ab.PackApprove(addrs.SettlementHouse, new(big.Int).SetUint64(S), gas), 100_000)
	submit := tx.send(bidders[0].Key, addrs.SettlementHouse, bindings.NewSettlementHouse().PackSubmitBundle(new(big.Int).SetUint64(S), gas, [][32]byte{bundleHash}), 300_000)
	for n.Beacon().HeadSlot() < S-1 {
		n.Step()
	}
	paid, err := reader.Bundles(ctx, S)
	if err != nil || len(paid) != 1 || paid[0].BundleHashes[0] != bundleHash {
		for _, h := range []common.Hash{approve, submit} {
			r, err := n.Client().TransactionReceipt(ctx, h)
			if r != nil {
				t.Logf("tx %s: status %d block %d gas %d", h, r.Status, r.BlockNumber, r.GasUsed)
			} else {
				t.Logf("tx %s: %v", h, err)
			}
		}
		t.Fatalf("queryBundles(%d) at head slot %d = %+v, %v", S, n.Beacon().HeadSlot(), paid, err)
	}

	block := n.Step() // slot S, delivered through the relay
	if got := n.Beacon().SlotAt(block.Time); got != S {
		t.Fatalf("stepped to slot %d, want %d", got, S)
	}
	// Slot S's block ends with the beta bundle's tx, after the alpha's
	// proposer payment; the bundle is included, 1 of 1.
	blk, err := n.Client().BlockByHash(ctx, block.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if txs := blk.Transactions(); len(txs) < 2 || txs[len(txs)-1].Hash() != betaTx.Hash() {
		t.Fatalf("slot %d's block does not end with the paid beta tx %s (%d txs)", S, betaTx.Hash(), len(txs))
	}
	var res betapool.BetaBundleResult
	if err := n.RPC().CallContext(ctx, &res, "mev_getBetaBundle", bundleHash); err != nil {
		t.Fatal(err)
	}
	if len(res.Slots) != 1 || res.Slots[0].Status != betapool.StateIncluded || res.Slots[0].Included != "1 of 1" {
		t.Fatalf("mev_getBetaBundle after slot %d: %+v", S, res.Slots)
	}
	// Slot S+1 is missed: the next block is slot S+2's.
	if _, err := n.Beacon().ProduceSlot(ctx, S+2); err != nil {
		t.Fatal(err)
	}
	n.Step() // mines payout(S) (sent after S) and refund(S+1) (sent after S+2)
	if st := state(S); !st.IsPaidOut {
		t.Errorf("slot %d after its delivered block: %s, want paid out", S, st.Word())
	}
	if st := state(S + 1); !st.IsRefunded {
		t.Errorf("missed slot %d: %s, want refunded", S+1, st.Word())
	}
	weth, err := reader.WETHBalance(ctx, addrs.Accountant)
	if want := big.NewInt(1_000_000 * gparams.GWei); err != nil || weth.Cmp(want) != 0 {
		t.Errorf("Accountant holds %v WETH (%v), want slot %d's proceeds %v", weth, err, S, want)
	}
	var calls = map[auction.Call][]uint64{}
	mu.Lock()
	defer mu.Unlock()
	for _, tr := range transitions {
		if tr.Receipt != nil && (tr.Slot == S || tr.Slot == S+1) {
			calls[tr.Call] = append(calls[tr.Call], tr.Slot)
		}
	}
	if len(calls[auction.CallSettle]) != 2 || len(calls[auction.CallPayout]) != 1 || len(calls[auction.CallRefund]) != 1 {
		t.Errorf("mined operator calls for slots %d and %d: %v", S, S+1, calls)
	}
}

func stateWord(st auction.AuctionState) string {
	return auction.Status{IsOpen: st.IsOpen, IsSettled: st.IsSettled, IsPaidOut: st.IsPaidOut, IsRefunded: st.IsRefunded}.Word()
}

// TestFreeOptionPaysOut is the free-option attack: the sole winner of slot
// S sends a beta bundle, pays its hash after settlement, then sends a
// mempool tx with the same nonce from the same account, so the beta tx
// misses with "nonce too low". The bundle failed on its own sender: the
// buyer's risk, so the operator pays S out instead of refunding the
// winner's payment.
func TestFreeOptionPaysOut(t *testing.T) {
	const lead, settleLead = 6, 3
	n, da := devAuctionNode(t, eth.DevAuctionConfig{Gas: 1_000_000, Lead: lead, SettleLead: settleLead}, func(tr operator.Transition) {
		if tr.Err != nil {
			t.Errorf("%s(%d) failed: %v", tr.Call, tr.Slot, tr.Err)
		}
	})
	ctx := context.Background()
	addrs := da.Service.Addresses()
	reader := auction.NewClient(n.Client(), addrs, nil)
	n.Step()
	S := n.Beacon().HeadSlot() + lead - 1

	chainID := n.Chain().Config().ChainID
	signer := types.LatestSignerForChainID(chainID)
	to := testnode.Account(6).Address
	attacker := testnode.Account(5).Key
	betaTx := types.MustSignNewTx(attacker, signer, &types.DynamicFeeTx{ChainID: chainID, Nonce: 0,
		GasTipCap: big.NewInt(0), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(1)})
	raw, _ := betaTx.MarshalBinary()
	status, r := post(t, n.MEVURL()+"/", rpctest.Body("mev_sendBetaBundle", map[string]any{"txs": []hexutil.Bytes{raw}, "slot": strconv.FormatUint(S, 10)}), "")
	if status != 200 || r.Error != nil {
		t.Fatalf("mev_sendBetaBundle: %d %+v", status, r.Error)
	}
	var bundleHash common.Hash
	if err := json.Unmarshal(r.Result, &bundleHash); err != nil {
		t.Fatal(err)
	}

	// The sole winner buys the slot's gas and pays for the bundle hash.
	tx := sender{t: t, n: n, chain: chainID, nonces: map[common.Address]uint64{}}
	ab := bindings.NewAuctioneer()
	dev, _ := da.Service.Deployed()
	winner := params.DevBidderKeys()[0]
	p, err := auction.Bid{Price: big.NewInt(gparams.GWei), Gas: 1_000_000, BidderID: dev.Bidders[0].ID}.Pack()
	if err != nil {
		t.Fatal(err)
	}
	tx.send(winner.Key, addrs.Auctioneer, ab.PackBid(new(big.Int).SetUint64(S), []*big.Int{p}), 500_000)
	for n.Beacon().HeadSlot() <= S-settleLead {
		n.Step() // the last step mines runAndSettle(S)
	}
	gas := new(big.Int).SetUint64(100_000)
	tx.send(winner.Key, addrs.Auctioneer, ab.PackApprove(addrs.SettlementHouse, new(big.Int).SetUint64(S), gas), 100_000)
	tx.send(winner.Key, addrs.SettlementHouse, bindings.NewSettlementHouse().PackSubmitBundle(new(big.Int).SetUint64(S), gas, [][32]byte{bundleHash}), 300_000)
	for n.Beacon().HeadSlot() < S-1 {
		n.Step()
	}
	if paid, err := reader.Bundles(ctx, S); err != nil || len(paid) != 1 {
		t.Fatalf("queryBundles(%d) = %+v, %v", S, paid, err)
	}
	// Then the same nonce through the mempool, with a tip: it lands in the
	// alpha of slot S, before the beta part.
	spoiler := types.MustSignNewTx(attacker, signer, &types.DynamicFeeTx{ChainID: chainID, Nonce: 0,
		GasTipCap: big.NewInt(gparams.GWei), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(2)})
	if err := n.Client().SendTransaction(ctx, spoiler); err != nil {
		t.Fatal(err)
	}
	for n.Beacon().HeadSlot() < S {
		n.Step()
	}
	var res betapool.BetaBundleResult
	if err := n.RPC().CallContext(ctx, &res, "mev_getBetaBundle", bundleHash); err != nil {
		t.Fatal(err)
	}
	if len(res.Slots) != 1 || res.Slots[0].Status != betapool.StateMissed || !strings.Contains(res.Slots[0].Reason, "nonce too low") {
		t.Fatalf("mev_getBetaBundle after slot %d: %+v, want missed with nonce too low", S, res.Slots)
	}
	// The node's account: slot S's block came out of the merge, and the
	// bundle missed on its own txs, not through the seller.
	var acct eth.DeliveredBeta
	if err := n.RPC().CallContext(ctx, &acct, "mev_deliveredBeta", hexutil.Uint64(S)); err != nil {
		t.Fatal(err)
	}
	canonical := n.Chain().Head().Hash()
	if !acct.Known || !acct.Due || len(acct.Merges) != 1 || acct.Merges[0].Block != canonical || len(acct.Merges[0].Bundles) != 1 ||
		acct.Merges[0].Bundles[0].SellerFault || !strings.Contains(acct.Merges[0].Bundles[0].Reason, "nonce too low") {
		t.Fatalf("mev_deliveredBeta(%d) = %+v, want the canonical block %s with the bundle missed on its own nonce", S, acct, canonical)
	}
	n.Step() // mines what the operator sent after slot S
	st, err := reader.Status(ctx, S)
	if err != nil {
		t.Fatal(err)
	}
	if !st.IsPaidOut {
		t.Fatalf("slot %d, whose paid bundle failed on its own sender: %s, want paid out (the buyer's risk)", S, st.Word())
	}
}

// TestDevFallbackGetsBetaPart: when the relay has no bid for slot S (here
// it already moved past S, so the dev builder's submission and getHeader
// are refused), the dev proposer's local fallback block gets the slot's
// paid beta bundles appended, the bundle is included, and the operator
// pays S out rather than refunding it.
func TestDevFallbackGetsBetaPart(t *testing.T) {
	const lead, settleLead = 6, 3
	n, da := devAuctionNode(t, eth.DevAuctionConfig{Gas: 1_000_000, Lead: lead, SettleLead: settleLead}, func(tr operator.Transition) {
		if tr.Err != nil {
			t.Errorf("%s(%d) failed: %v", tr.Call, tr.Slot, tr.Err)
		}
	})
	ctx := context.Background()
	addrs := da.Service.Addresses()
	reader := auction.NewClient(n.Client(), addrs, nil)
	n.Step()
	S := n.Beacon().HeadSlot() + lead - 1

	chainID := n.Chain().Config().ChainID
	to := testnode.Account(6).Address
	betaTx := types.MustSignNewTx(testnode.Account(5).Key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{ChainID: chainID, Nonce: 0,
		GasTipCap: big.NewInt(0), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(1)})
	raw, _ := betaTx.MarshalBinary()
	status, r := post(t, n.MEVURL()+"/", rpctest.Body("mev_sendBetaBundle", map[string]any{"txs": []hexutil.Bytes{raw}, "slot": strconv.FormatUint(S, 10)}), "")
	if status != 200 || r.Error != nil {
		t.Fatalf("mev_sendBetaBundle: %d %+v", status, r.Error)
	}
	var bundleHash common.Hash
	if err := json.Unmarshal(r.Result, &bundleHash); err != nil {
		t.Fatal(err)
	}
	tx := sender{t: t, n: n, chain: chainID, nonces: map[common.Address]uint64{}}
	ab := bindings.NewAuctioneer()
	dev, _ := da.Service.Deployed()
	winner := params.DevBidderKeys()[0]
	p, err := auction.Bid{Price: big.NewInt(gparams.GWei), Gas: 1_000_000, BidderID: dev.Bidders[0].ID}.Pack()
	if err != nil {
		t.Fatal(err)
	}
	tx.send(winner.Key, addrs.Auctioneer, ab.PackBid(new(big.Int).SetUint64(S), []*big.Int{p}), 500_000)
	for n.Beacon().HeadSlot() <= S-settleLead {
		n.Step()
	}
	gas := new(big.Int).SetUint64(100_000)
	tx.send(winner.Key, addrs.Auctioneer, ab.PackApprove(addrs.SettlementHouse, new(big.Int).SetUint64(S), gas), 100_000)
	tx.send(winner.Key, addrs.SettlementHouse, bindings.NewSettlementHouse().PackSubmitBundle(new(big.Int).SetUint64(S), gas, [][32]byte{bundleHash}), 300_000)
	for n.Beacon().HeadSlot() < S-1 {
		n.Step()
	}
	if paid, err := reader.Bundles(ctx, S); err != nil || len(paid) != 1 {
		t.Fatalf("queryBundles(%d) = %+v, %v", S, paid, err)
	}

	n.Relay().Relay().SetHeadSlot(S + 1) // the relay will have no bid for S
	block := n.Step()
	if got := n.Beacon().SlotAt(block.Time); got != S {
		t.Fatalf("stepped to slot %d, want %d", got, S)
	}
	resp, err := http.Get(n.MEVURL() + "/relay/v1/data/bidtraces/proposer_payload_delivered?slot=" + strconv.FormatUint(S, 10))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if strings.TrimSpace(string(body)) != "[]" {
		t.Fatalf("slot %d was delivered through the relay (%s): the test wants the fallback", S, body)
	}
	blk, err := n.Client().BlockByHash(ctx, block.Hash())
	if err != nil {
		t.Fatal(err)
	}
	if txs := blk.Transactions(); len(txs) == 0 || txs[len(txs)-1].Hash() != betaTx.Hash() {
		t.Fatalf("slot %d's fallback block does not end with the paid beta tx (%d txs)", S, len(txs))
	}
	var res betapool.BetaBundleResult
	if err := n.RPC().CallContext(ctx, &res, "mev_getBetaBundle", bundleHash); err != nil {
		t.Fatal(err)
	}
	if len(res.Slots) != 1 || res.Slots[0].Status != betapool.StateIncluded || res.Slots[0].Included != "1 of 1" {
		t.Fatalf("mev_getBetaBundle after slot %d: %+v", S, res.Slots)
	}
	n.Step() // mines what the operator sent after slot S
	if st, err := reader.Status(ctx, S); err != nil || !st.IsPaidOut {
		t.Fatalf("slot %d, fallback block with its beta part: %s (%v), want paid out", S, st.Word(), err)
	}
}
