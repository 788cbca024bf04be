package main

import (
	"context"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/params"
)

// TestBetaBinary runs the beta flow of docs/beta.md on the built binary, on
// the wall clock of a one-second `gavel --dev` with its in-process auction
// operator: a beta bundle for slot S (`gavel bundle send-beta`), two dev
// bidders bid (`gavel auction bid`), the operator settles, the winner pays
// the hash (`gavel auction pay`); slot S's block ends with the bundle's tx
// right after the alpha's proposer payment, mev_getBetaBundle says
// included, and the operator pays the auction out (`gavel auction info`).
// S is eighteen slots (seconds) ahead; the operator settles it once slot
// S-8 is over, which leaves about ten slots for the two bids and seven for
// the payment, room for a loaded machine; every wait is a poll bounded by
// the test's context.
func TestBetaBinary(t *testing.T) {
	const lead, settleLead, ahead = 20, 8, 18
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dev := startDev(t, ctx, "--dev.auction.lead", strconv.Itoa(lead), "--dev.auction.settlelead", strconv.Itoa(settleLead),
		"--dev.auction.gas", "1000000")
	httpURL := dev.urls["JSON-RPC (HTTP)"]
	if httpURL == "" {
		t.Fatalf("banner lacks the HTTP URL:\n%s", dev.banner)
	}
	client, err := rpc.DialContext(ctx, httpURL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf(format+"\nnode log:\n%s", append(args, dev.stderr.String())...)
	}
	// poll calls f until it says done, at most until the test's deadline.
	poll := func(what string, f func() bool) {
		t.Helper()
		for !f() {
			select {
			case <-ctx.Done():
				fail("waiting for %s: %v", what, ctx.Err())
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	run := func(args ...string) string {
		t.Helper()
		out, errOut, code := gavel(t, args...)
		if code != 0 {
			fail("gavel %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
		}
		return out
	}
	l2 := []string{"--l2rpc", httpURL, "--timeout", "30s"}
	info := func(slot uint64) string {
		return run(append([]string{"auction", "info", "--slot", strconv.FormatUint(slot, 10), "--recent", "0"}, l2...)...)
	}

	var ni eth.Info
	poll("the first slots", func() bool { return client.CallContext(ctx, &ni, "mev_nodeInfo") == nil && ni.CurrentSlot >= 2 })
	S := ni.CurrentSlot + ahead
	slot := strconv.FormatUint(S, 10)
	// The contracts are deployed in the first blocks: until then info fails.
	poll(fmt.Sprintf("slot %d's auction to open", S), func() bool {
		out, errOut, _ := gavel(t, append([]string{"auction", "info", "--slot", slot, "--recent", "0"}, l2...)...)
		if ctx.Err() != nil {
			fail("slot %d's auction never opened; last gavel auction info:\n%s%s", S, out, errOut)
		}
		return strings.Contains(out, "auction: open")
	})

	// 1. The beta bundle: test account (5) sends 1 wei to account (6).
	out := run("bundle", "send-beta", "--rpc", httpURL, "--dev-account", "5", "--to", params.DevAccounts()[6].Address.Hex(),
		"--value", "1", "--slot", slot)
	var hash common.Hash
	if f := strings.Fields(out); len(f) > 0 {
		hash = common.HexToHash(f[0])
	}
	if hash == (common.Hash{}) {
		fail("send-beta printed no bundle hash: %q", out)
	}
	// 2. Two bidders; bidder 1 wins 600,000 gas at 2 gwei.
	bidders := params.DevBidderKeys()
	keyHex := func(a params.DevAccount) string { return fmt.Sprintf("%#x", a.Key.D.FillBytes(make([]byte, 32))) }
	run(append([]string{"auction", "bid", "--key", keyHex(bidders[0]), "--slot", slot, "--price", "2gwei", "--gas", "600000"}, l2...)...)
	run(append([]string{"auction", "bid", "--key", keyHex(bidders[1]), "--slot", slot, "--price", "1gwei", "--gas", "800000"}, l2...)...)
	// 3. The operator settles S once slot S-settleLead is over.
	poll(fmt.Sprintf("slot %d's settlement", S), func() bool {
		s := info(S)
		if strings.Contains(s, "auction: refunded") {
			fail("slot %d refunded before it came:\n%s", S, s)
		}
		return strings.Contains(s, "auction: settled")
	})
	// 4. The winner pays the bundle hash.
	run(append([]string{"auction", "pay", "--key", keyHex(bidders[0]), "--slot", slot, "--gas", "100000", "--hash", hash.Hex()}, l2...)...)
	var head eth.Info
	if err := client.CallContext(ctx, &head, "mev_nodeInfo"); err != nil || head.CurrentSlot >= S {
		fail("the payment was mined at slot %d (%v), not before slot %d: the test's leads are too short for this machine", head.CurrentSlot, err, S)
	}

	// 5. After slot S: included, at the bottom of slot S's block.
	var st betapool.SlotResult
	poll(fmt.Sprintf("bundle %s of slot %d to be included", hash, S), func() bool {
		var r betapool.BetaBundleResult
		if err := client.CallContext(ctx, &r, "mev_getBetaBundle", hash); err != nil || len(r.Slots) != 1 {
			fail("mev_getBetaBundle: %+v, %v", r, err)
		}
		st = r.Slots[0]
		switch st.Status {
		case betapool.StateMissed, betapool.StateExpired:
			fail("bundle of slot %d: %+v, want included", S, st)
		}
		return st.Status == betapool.StateIncluded
	})
	if st.Included != "1 of 1" || st.BlockNumber == nil || len(st.IncludedTxs) != 1 {
		fail("included bundle: %+v, want 1 of 1 with its block", st)
	}
	ec := ethclient.NewClient(client)
	block, err := ec.BlockByNumber(ctx, new(big.Int).SetUint64(uint64(*st.BlockNumber)))
	if err != nil {
		t.Fatal(err)
	}
	if got := (block.Time() - ni.GenesisTime) / ni.SlotSeconds; got != S {
		fail("the bundle's block %d is slot %d's, want slot %d's", block.NumberU64(), got, S)
	}
	txs := block.Transactions()
	if len(txs) < 2 || txs[len(txs)-1].Hash() != st.IncludedTxs[0] {
		fail("block %d (%d txs) does not end with the bundle's tx %s", block.NumberU64(), len(txs), st.IncludedTxs[0])
	}
	pay := txs[len(txs)-2]
	if from, _ := types.Sender(types.LatestSignerForChainID(block.Transactions()[0].ChainId()), pay); from != eth.DevBuilderCoinbase() || pay.Value().Sign() <= 0 {
		fail("the tx before the beta tx is not the alpha's proposer payment (from %s, value %s)", from, pay.Value())
	}
	// 6. The operator pays the auction out, and the record shows the payment.
	poll(fmt.Sprintf("slot %d's payout", S), func() bool { return strings.Contains(info(S), "auction: paid out") })
	if s := info(S); !regexp.MustCompile(`paid 100000 gas for ` + hash.Hex()).MatchString(s) {
		fail("auction info of slot %d lacks the paid bundle:\n%s", S, s)
	}
}
