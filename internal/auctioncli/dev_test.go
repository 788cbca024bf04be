package auctioncli

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/contracts/devauction"
	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/params"
)

// TestDevNodeWalkthrough runs docs/auction.md against an in-process dev node
// over real HTTP JSON-RPC, with the addresses discovered through
// mev_auctionContracts. Slots are produced every few milliseconds instead of
// every two seconds.
func TestDevNodeWalkthrough(t *testing.T) {
	n, _ := devAuctionNode(t)

	hexKey := func(a params.DevAccount) string { return "0x" + hex.EncodeToString(crypto.FromECDSA(a.Key)) }
	bidders := params.DevBidderKeys()
	operator, aliceKey, bobKey := hexKey(params.DevOperatorKey()), hexKey(bidders[0]), hexKey(bidders[1])
	runErr := func(args ...string) (string, error) {
		var out bytes.Buffer
		app := &cli.App{Name: "gavel", Commands: []*cli.Command{Command()}, Writer: &out, ErrWriter: &out}
		args = append([]string{"gavel", "auction"}, args...)
		args = append(args, "--l2rpc", n.HTTPURL())
		err := app.Run(args)
		return out.String(), err
	}
	run := func(args ...string) string {
		t.Helper()
		out, err := runErr(args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}
	alice, bob := bidders[0].Address.Hex(), bidders[1].Address.Hex()
	out := run("info", "--bidder", alice)
	if !strings.Contains(out, "bidder id:        2") || !strings.Contains(out, "(100 ether)") {
		t.Fatalf("alice before bidding:\n%s", out)
	}
	if _, err := runErr("open", "--key", operator, "--slot", "1", "--gas", "5000000"); !errors.Is(err, ErrPastSlot) {
		t.Fatalf("opening slot 1, which has begun: %v", err)
	}
	run("open", "--key", operator, "--slot", "1000", "--gas", "5000000")
	run("bid", "--key", aliceKey, "--slot", "1000", "--price", "2gwei", "--gas", "3000000")
	run("bid", "--key", bobKey, "--slot", "1000", "--price", "1gwei", "--gas", "4000000")
	out = run("settle", "--key", operator, "--slot", "1000")
	if !strings.Contains(out, "1 gwei) per gas, 5000000 gas sold") {
		t.Fatalf("settle:\n%s", out)
	}
	if out = run("info", "--slot", "1000", "--bidder", alice); !strings.Contains(out, "bought 3000000 gas") {
		t.Errorf("alice's result:\n%s", out)
	}
	if out = run("info", "--slot", "1000", "--bidder", bob); !strings.Contains(out, "bought 2000000 gas") {
		t.Errorf("bob's result:\n%s", out)
	}
	hash := "0x" + strings.Repeat("5a", 32)
	run("pay", "--key", aliceKey, "--slot", "1000", "--gas", "100000", "--hash", hash)
	if out = run("info", "--slot", "1000"); !strings.Contains(out, "paid 100000 gas for "+hash) {
		t.Errorf("queryBundles after pay:\n%s", out)
	}
	run("payout", "--key", operator, "--slot", "1000")
	if out = run("info"); !strings.Contains(out, "slot 1000     paid out   5000000 gas for sale, 5000000 sold at 1000000000 wei (1 gwei) per gas") {
		t.Errorf("recent auctions after payout:\n%s", out)
	}

	// operate refuses what cannot work, before it starts.
	if _, err := runErr("operate", "--key", aliceKey); err == nil || !strings.Contains(err.Error(), "is not the Auctioneer's operator") {
		t.Errorf("operate with a bidder's key: %v", err)
	}
	if _, err := runErr("operate", "--key", operator, "--lead", "4", "--settle-lead", "4"); !errors.Is(err, ErrUsage) {
		t.Errorf("operate with settle lead = lead: %v", err)
	}
}

// devAuctionNode starts a dev node that makes a block every 20 ms, with the
// auction contracts deployed, and waits for the deployment.
func devAuctionNode(t *testing.T) (*testnode.Node, *devauction.Service) {
	t.Helper()
	var svc *devauction.Service
	n := testnode.New(t, testnode.Options{Register: func(n *eth.Node) error {
		svc = devauction.Register(n.Stack(), devauction.Config{})
		return nil
	}})
	n.StepInBackground(20 * time.Millisecond)
	wctx, wcancel := context.WithTimeout(context.Background(), time.Minute)
	defer wcancel()
	if _, err := svc.Wait(wctx); err != nil {
		t.Fatal(err)
	}
	return n, svc
}
