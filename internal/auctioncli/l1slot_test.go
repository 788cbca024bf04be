package auctioncli

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/params"
)

// TestL1SlotAndNotOpenAdvice: `info` shows the L1 slot from --l1rpc, and
// says so rather than showing the L2 node's own clock when only --l2rpc is
// given; a bid for a slot without an open auction says the current slot
// and whether the slot has begun or is not open yet.
func TestL1SlotAndNotOpenAdvice(t *testing.T) {
	n, _ := devAuctionNode(t)
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		app := &cli.App{Name: "gavel", Commands: []*cli.Command{Command()}, Writer: &out, ErrWriter: &out}
		err := app.Run(append(append([]string{"gavel", "auction"}, args...), "--l2rpc", n.HTTPURL()))
		return out.String(), err
	}
	if out, err := run("info", "--recent", "0"); err != nil || !strings.Contains(out, "L1 slot:         unknown: pass --l1rpc") {
		t.Fatalf("info with --l2rpc only: %v\n%s", err, out)
	}
	if out, err := run("info", "--recent", "0", "--l1rpc", n.HTTPURL()); err != nil || !strings.Contains(out, "L1 slot:         ") || !strings.Contains(out, "now (one slot every") {
		t.Fatalf("info with --l1rpc: %v\n%s", err, out)
	}
	alice := "0x" + hex.EncodeToString(crypto.FromECDSA(params.DevBidderKeys()[0].Key))
	_, err := run("bid", "--key", alice, "--slot", "1", "--price", "1gwei", "--gas", "100000", "--l1rpc", n.HTTPURL())
	if err == nil || !strings.Contains(err.Error(), "AuctionNotOpen") || !strings.Contains(err.Error(), "slot 1 has begun (the current slot is") {
		t.Fatalf("bid for a slot that has begun: %v", err)
	}
	_, err = run("bid", "--key", alice, "--slot", "5000", "--price", "1gwei", "--gas", "100000", "--l1rpc", n.HTTPURL())
	if err == nil || !strings.Contains(err.Error(), "slot 5000's auction is not open (yet") || !strings.Contains(err.Error(), "the current slot is") {
		t.Fatalf("bid for a slot far ahead: %v", err)
	}
}
