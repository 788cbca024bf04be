package auctioncli

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/simtest"
)

// cliChain runs `gavel auction ...` against a simulated chain.
type cliChain struct {
	t     *testing.T
	chain *simtest.Chain
	addrs string // --addresses file
}

func newCLIChain(t *testing.T) *cliChain {
	chain := simtest.New(t, 0)
	old := dial
	dial = func(context.Context, string) (auction.Backend, *rpc.Client, error) { return chain.Client, nil, nil }
	t.Cleanup(func() { dial = old })
	return &cliChain{t: t, chain: chain, addrs: filepath.Join(t.TempDir(), "addresses.json")}
}

func keyHex(c *cliChain, i int) string {
	return "0x" + hex.EncodeToString(crypto.FromECDSA(c.chain.Dev[i].Key))
}

// run runs the command line and returns its output and error.
func (c *cliChain) run(args ...string) (string, error) {
	var out bytes.Buffer
	app := &cli.App{Name: "gavel", Commands: []*cli.Command{Command()}, Writer: &out, ErrWriter: &out}
	err := app.Run(append([]string{"gavel", "auction"}, args...))
	return out.String(), err
}

func (c *cliChain) mustRun(args ...string) string {
	c.t.Helper()
	out, err := c.run(args...)
	if err != nil {
		c.t.Fatalf("gavel auction %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// TestWalkthrough follows docs/auction.md: deploy, register two bidders, open,
// bid from both, settle, read each result, pay a bundle hash, see it paid.
func TestWalkthrough(t *testing.T) {
	c := newCLIChain(t)
	op, alice, bob := keyHex(c, 0), keyHex(c, 1), keyHex(c, 2)
	out := c.mustRun("deploy", "--key", op, "--out", c.addrs)
	if !strings.Contains(out, "Auctioneer:") {
		t.Fatalf("deploy printed %q", out)
	}
	a := "--addresses=" + c.addrs
	c.mustRun("bidder", "add", a, "--key", op, c.chain.Dev[1].Address.Hex())
	c.mustRun("bidder", "add", a, "--key", op, c.chain.Dev[2].Address.Hex())
	c.mustRun("wrap", a, "--key", alice, "--amount", "1ether")
	c.mustRun("wrap", a, "--key", bob, "--amount", "1ether")
	c.mustRun("open", a, "--key", op, "--slot", "40", "--gas", "1000000")
	c.mustRun("bid", a, "--key", alice, "--slot", "40", "--price", "3gwei", "--gas", "600000")
	c.mustRun("bid", a, "--key", bob, "--slot", "40", "--price", "2gwei", "--gas", "300000", "--price", "1gwei", "--gas", "500000")
	out = c.mustRun("settle", a, "--key", op, "--slot", "40")
	if !strings.Contains(out, "clearing price 1000000000 wei (1 gwei) per gas, 1000000 gas sold") {
		t.Errorf("settle printed %q", out)
	}
	out = c.mustRun("info", a, "--slot", "40", "--bidder", c.chain.Dev[1].Address.Hex())
	if !strings.Contains(out, "bought 600000 gas, paid 600000000000000 wei") || !strings.Contains(out, "gas tokens of "+c.chain.Dev[1].Address.Hex()+": 600000") {
		t.Errorf("alice's info:\n%s", out)
	}
	out = c.mustRun("info", a, "--slot", "40", "--key", bob)
	if !strings.Contains(out, "bought 400000 gas, paid 400000000000000 wei") {
		t.Errorf("bob's info:\n%s", out)
	}
	hash := "0x" + strings.Repeat("ab", 32)
	c.mustRun("pay", a, "--key", alice, "--slot", "40", "--gas", "100000", "--hash", hash)
	out = c.mustRun("info", a, "--slot", "40", "--key", alice)
	if !strings.Contains(out, "paid bundles (queryBundles): 1") || !strings.Contains(out, "paid 100000 gas for "+hash) ||
		!strings.Contains(out, ": 500000\n") {
		t.Errorf("after pay:\n%s", out)
	}
	c.mustRun("payout", a, "--key", op, "--slot", "40")
	out = c.mustRun("info", a, "--slot", "40")
	if !strings.Contains(out, "slot 40 auction: paid out") {
		t.Errorf("after payout:\n%s", out)
	}
}

func TestCommandErrors(t *testing.T) {
	c := newCLIChain(t)
	op := keyHex(c, 0)
	c.mustRun("deploy", "--key", op, "--out", c.addrs)
	a := "--addresses=" + c.addrs
	for _, tc := range []struct {
		args []string
		want string
		is   error
	}{
		{[]string{"open", a, "--key", keyHex(c, 3), "--slot", "1", "--gas", "100000"}, "Unauthorized()", auction.ErrReverted},
		{[]string{"open", a, "--slot", "1", "--gas", "100000"}, "no key", ErrNoKey},
		{[]string{"settle", a, "--key", op, "--slot", "9"}, "AuctionNotOpen(slot=9)", auction.ErrReverted},
		{[]string{"bid", a, "--key", keyHex(c, 4), "--slot", "1", "--price", "1gwei", "--gas", "30000"}, "not a registered bidder", auction.ErrNotRegistered},
		{[]string{"bid", a, "--key", op, "--slot", "1", "--price", "-1", "--gas", "30000"}, "invalid amount", ErrBadAmount},
		{[]string{"bid", a, "--key", op, "--slot", "1", "--price", "1gwei", "--gas", "30000", "--gas", "5"}, "one price per gas", ErrUsage},
		{[]string{"pay", a, "--key", op, "--slot", "1", "--gas", "30000", "--hash", "0x1234"}, "32-byte hash", ErrUsage},
		{[]string{"pay", a, "--key", op, "--slot", "1", "--gas", "30000", "--hash", "0x" + strings.Repeat("11", 32)}, "InsufficientBalance", auction.ErrReverted},
		{[]string{"bidder", "add", a, "--key", op, "nonsense"}, "not an address", ErrUsage},
		{[]string{"bidder", "remove", a, "--key", op, "7"}, "InvalidId()", auction.ErrReverted},
		{[]string{"wrap", a, "--key", op, "--amount", "1.5gwei5"}, "invalid amount", ErrBadAmount},
		{[]string{"info", "--slot", "1"}, "contract addresses unknown", ErrNoAddresses},
		{[]string{"open", a, "--key", "0x1234", "--slot", "1", "--gas", "100000"}, "invalid key", ErrBadKey},
	} {
		out, err := c.run(tc.args...)
		if err == nil {
			t.Errorf("%v: succeeded:\n%s", tc.args, out)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || !errors.Is(err, tc.is) {
			t.Errorf("%v: error %q, want it to contain %q and match %v", tc.args, err, tc.want, tc.is)
		}
	}
}

func TestKeystore(t *testing.T) {
	c := newCLIChain(t)
	dir := t.TempDir()
	ks := keystore.NewKeyStore(dir, keystore.LightScryptN, keystore.LightScryptP)
	if _, err := ks.ImportECDSA(c.chain.Dev[0].Key, "secret"); err != nil {
		t.Fatal(err)
	}
	pass := filepath.Join(t.TempDir(), "pass")
	os.WriteFile(pass, []byte("secret\n"), 0o600)
	out := c.mustRun("deploy", "--keystore", dir, "--password", pass, "--out", c.addrs)
	if !strings.Contains(out, "WETH:") {
		t.Fatalf("deploy with keystore printed %q", out)
	}
	os.WriteFile(pass, []byte("wrong"), 0o600)
	if _, err := c.run("deploy", "--keystore", dir, "--password", pass); !errors.Is(err, ErrBadKey) {
		t.Errorf("wrong passphrase: %v, want ErrBadKey", err)
	}
	if _, err := c.run("deploy", "--keystore", dir, "--account", c.chain.Dev[3].Address.Hex(), "--password", pass); !errors.Is(err, ErrBadKey) || !strings.Contains(err.Error(), "no key for") {
		t.Errorf("unknown account: %v", err)
	}
	// Two keys in the directory: --account must choose.
	if _, err := ks.ImportECDSA(c.chain.Dev[4].Key, "four"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.run("deploy", "--keystore", dir, "--password", pass); !errors.Is(err, ErrBadKey) || !strings.Contains(err.Error(), "choose one with --account") {
		t.Errorf("two keys without --account: %v", err)
	}
	os.WriteFile(pass, []byte("four"), 0o600)
	if out, err := c.run("wrap", "--addresses", c.addrs, "--keystore", dir, "--account", c.chain.Dev[4].Address.Hex(), "--password", pass, "--amount", "1gwei"); err != nil || !strings.Contains(out, c.chain.Dev[4].Address.Hex()) {
		t.Errorf("choosing a key with --account: %v\n%s", err, out)
	}
}

func TestParseAmount(t *testing.T) {
	for in, want := range map[string]string{
		"1000": "1000", "2gwei": "2000000000", "1.5ether": "1500000000000000000", "1.5 ETH": "1500000000000000000",
		"0.000000001ether": "1000000000", "7wei": "7", ".5gwei": "500000000", "3.": "3",
	} {
		got, err := ParseAmount(in)
		if err != nil || got.String() != want {
			t.Errorf("ParseAmount(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "1.5", "0.0000000001gwei", "abc", "1e18", "ether", ".", "1..2", "0x10", strings.Repeat("9", 101)} {
		if _, err := ParseAmount(in); !errors.Is(err, ErrBadAmount) {
			t.Errorf("ParseAmount(%q) = %v, want ErrBadAmount", in, err)
		}
	}
	if got := FormatWei(big.NewInt(1_500_000_000)); got != "1500000000 wei (1.5 gwei)" {
		t.Errorf("FormatWei = %q", got)
	}
}

func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"1000", "2gwei", "1.5ether", "-1", ".", "1..2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseAmount(s)
		if err == nil && v.Sign() < 0 {
			t.Fatalf("ParseAmount(%q) = %v: negative", s, v)
		}
	})
}

// TestOpenBidderCommands: a user without a seat bids through the OpenBidder,
// and after settlement its hash is paid and its unspent ether returned.
func TestOpenBidderCommands(t *testing.T) {
	c := newCLIChain(t)
	op, user := keyHex(c, 0), keyHex(c, 5)
	c.mustRun("deploy", "--key", op, "--out", c.addrs)
	a := "--addresses=" + c.addrs
	hash := "0x" + strings.Repeat("c3", 32)
	c.mustRun("open", a, "--key", op, "--slot", "70", "--gas", "50000")
	out := c.mustRun("openbidder", "bid", a, "--key", user, "--slot", "70", "--price", "3gwei", "--gas", "40000", "--hash", hash)
	if !strings.Contains(out, "OpenBidder bid 0 placed") {
		t.Fatalf("openbidder bid printed %q", out)
	}
	c.mustRun("openbidder", "bid", a, "--key", user, "--slot", "70", "--price", "1gwei", "--gas", "30000", "--hash", hash)
	c.mustRun("openbidder", "cancel", a, "--key", user, "1")
	if _, err := c.run("openbidder", "cancel", a, "--key", keyHex(c, 6), "0"); err == nil || !strings.Contains(err.Error(), "NotBidOwner") {
		t.Errorf("cancelling another's bid: %v", err)
	}
	c.mustRun("settle", a, "--key", op, "--slot", "70")
	if out := c.mustRun("openbidder", "submit", a, "--key", keyHex(c, 7), "--slot", "70"); !strings.Contains(out, "1 winning bundle hash(es) paid") {
		t.Errorf("openbidder submit printed %q", out)
	}
	// A slot without OpenBidder bids: submit says nothing was paid.
	c.mustRun("open", a, "--key", op, "--slot", "71", "--gas", "50000")
	c.mustRun("settle", a, "--key", op, "--slot", "71")
	if out := c.mustRun("openbidder", "submit", a, "--key", keyHex(c, 7), "--slot", "71"); !strings.Contains(out, "nothing was paid") {
		t.Errorf("openbidder submit without bids printed %q", out)
	}
	out = c.mustRun("info", a, "--slot", "70")
	if !strings.Contains(out, "paid 40000 gas for "+hash) {
		t.Errorf("queryBundles after submit:\n%s", out)
	}
	// Only bid: it set the price, so it spent everything; the cancelled bid's 30000 gwei come back.
	out = c.mustRun("openbidder", "withdraw", a, "--key", user)
	if !strings.Contains(out, "withdrew 30000000000000 wei") {
		t.Errorf("withdraw printed %q", out)
	}
	if _, err := c.run("openbidder", "withdraw", a, "--key", user); err == nil || !strings.Contains(err.Error(), "NothingToWithdraw") {
		t.Errorf("second withdraw: %v", err)
	}
}

// TestDeadNode: a node that does not answer is reported as such, with a
// non-zero exit, even when the addresses are given.
func TestDeadNode(t *testing.T) {
	var out bytes.Buffer
	app := &cli.App{Name: "gavel", Commands: []*cli.Command{Command()}, Writer: &out, ErrWriter: &out}
	err := app.Run([]string{"gavel", "auction", "info", "--l2rpc", "http://127.0.0.1:1", "--timeout", "5s",
		"--auctioneer", "0x" + strings.Repeat("11", 20)})
	if !errors.Is(err, ErrConnection) || !strings.Contains(err.Error(), "http://127.0.0.1:1") {
		t.Fatalf("info against a dead node: %v\n%s", err, out.String())
	}
}
