package auctioncli

import (
	"bytes"
	"context"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/contracts/devauction"
	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/testnode"
)

// TestDevNodeWalkthrough runs docs/auction.md against an in-process dev node
// over real HTTP JSON-RPC, with the addresses discovered through
// mev_auctionContracts. Slots are produced every few milliseconds instead of
// every two seconds.
func TestDevNodeWalkthrough(t *testing.T) {
	var svc *devauction.Service
	n := testnode.New(t, testnode.Options{Register: func(n *eth.Node) error {
		svc = devauction.Register(n.Stack(), devauction.Config{})
		return nil
	}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				n.Beacon().Step(ctx)
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	wctx, wcancel := context.WithTimeout(ctx, time.Minute)
	defer wcancel()
	if _, err := svc.Wait(wctx); err != nil {
		t.Fatal(err)
	}

	key := func(i int) string { return "0x" + hex.EncodeToString(crypto.FromECDSA(testnode.Account(i).Key)) }
	run := func(args ...string) string {
		t.Helper()
		var out bytes.Buffer
		app := &cli.App{Name: "gavel", Commands: []*cli.Command{Command()}, Writer: &out, ErrWriter: &out}
		args = append([]string{"gavel", "auction"}, args...)
		args = append(args, "--l2rpc", n.HTTPURL())
		if err := app.Run(args); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
		return out.String()
	}
	alice, bob := testnode.Account(1).Address.Hex(), testnode.Account(2).Address.Hex()
	out := run("info", "--bidder", alice)
	if !strings.Contains(out, "bidder id:        2") || !strings.Contains(out, "(100 ether)") {
		t.Fatalf("alice before bidding:\n%s", out)
	}
	run("open", "--key", key(0), "--slot", "1000", "--gas", "5000000")
	run("bid", "--key", key(1), "--slot", "1000", "--price", "2gwei", "--gas", "3000000")
	run("bid", "--key", key(2), "--slot", "1000", "--price", "1gwei", "--gas", "4000000")
	out = run("settle", "--key", key(0), "--slot", "1000")
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
	run("pay", "--key", key(1), "--slot", "1000", "--gas", "100000", "--hash", hash)
	if out = run("info", "--slot", "1000"); !strings.Contains(out, "paid 100000 gas for "+hash) {
		t.Errorf("queryBundles after pay:\n%s", out)
	}
}
