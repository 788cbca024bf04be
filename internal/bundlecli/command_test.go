package bundlecli

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/internal/testnode"
)

// run runs `gavel bundle args...` against n and returns stdout.
func run(t *testing.T, n *testnode.Node, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := &cli.App{Name: "gavel", Commands: []*cli.Command{Command()}, Writer: &out, ErrWriter: &errOut}
	args = append([]string{"gavel", "bundle", args[0], "--rpc", n.HTTPURL()}, args[1:]...)
	err := app.Run(args)
	return out.String(), err
}

func mustRun(t *testing.T, n *testnode.Node, args ...string) string {
	t.Helper()
	out, err := run(t, n, args...)
	if err != nil {
		t.Fatalf("gavel bundle %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// TestBundleCommands walks a searcher's session on a dev node: sign,
// simulate, send (signed request), status after the block, a cancelled
// bundle, a beta bundle and its status.
func TestBundleCommands(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	n.Step()
	to := "0x000000000000000000000000000000000000beef"

	raw := strings.TrimSpace(mustRun(t, n, "sign", "--dev-account", "1", "--to", to, "--value", "1wei"))
	var sim struct {
		BundleHash   common.Hash
		TotalGasUsed uint64
		Results      []struct{ Error string }
	}
	if err := json.Unmarshal([]byte(mustRun(t, n, "simulate", "--tx", raw)), &sim); err != nil || sim.TotalGasUsed != 21000 || len(sim.Results) != 1 || sim.Results[0].Error != "" {
		t.Fatalf("simulate: %+v, %v", sim, err)
	}
	hash := strings.TrimSpace(mustRun(t, n, "send", "--tx", raw, "--auth-key", "0x"+strings.Repeat("11", 32)))
	if hash != sim.BundleHash.Hex() {
		t.Fatalf("send returned %s, simulate %s", hash, sim.BundleHash.Hex())
	}
	// A second bundle, built and signed in place, cancelled before its block.
	uuid := "0b5c7a3e-1111-4c2a-9d0e-5f1e2d3c4b5a"
	cancelled := strings.TrimSpace(mustRun(t, n, "send", "--dev-account", "2", "--to", to, "--uuid", uuid))
	mustRun(t, n, "cancel", "--dev-account", "2", "--uuid", uuid)
	n.Step()
	n.Step() // the next build marks the block's bundles included

	status := func(hash string, args ...string) (st struct{ Status, DropReason string }) {
		t.Helper()
		out := mustRun(t, n, append(append([]string{"status"}, args...), hash)...)
		if err := json.Unmarshal([]byte(out), &st); err != nil {
			t.Fatalf("status: %v\n%s", err, out)
		}
		return st
	}
	if st := status(hash, "--auth-key", "0x"+strings.Repeat("11", 32)); st.Status != "included" {
		t.Errorf("sent bundle: %+v", st)
	}
	// Another key sees what Flashbots shows for a bundle it does not know.
	if st := status(hash, "--dev-account", "3"); st.Status != "unknown" {
		t.Errorf("status read with another key: %+v", st)
	}
	var stats struct {
		IsHighPriority      *bool
		AllTimeGasSimulated string
		Bundles             uint64
	}
	if err := json.Unmarshal([]byte(mustRun(t, n, "user-stats", "--auth-key", "0x"+strings.Repeat("11", 32))), &stats); err != nil || stats.IsHighPriority == nil || stats.AllTimeGasSimulated != "21000" || stats.Bundles == 0 {
		t.Errorf("user-stats: %+v, %v", stats, err)
	}
	if st := status(cancelled, "--dev-account", "2"); st.Status != "dropped" || st.DropReason != "cancelled" {
		t.Errorf("cancelled bundle: %+v", st)
	}

	beta := strings.TrimSpace(mustRun(t, n, "send-beta", "--dev-account", "4", "--to", to, "--value", "1"))
	var got struct {
		BundleHash common.Hash
		Txs        []string
	}
	if err := json.Unmarshal([]byte(mustRun(t, n, "beta-status", beta)), &got); err != nil || got.BundleHash.Hex() != beta || len(got.Txs) != 1 {
		t.Fatalf("beta-status: %+v, %v", got, err)
	}

	for _, args := range [][]string{
		{"send"},             // no txs
		{"sign", "--to", to}, // no key
		{"sign", "--dev-account", "10", "--to", to},
		{"status", "0x1234"},
		{"user-stats"}, // no key: no signer to answer for
	} {
		if _, err := run(t, n, args...); !errors.Is(err, ErrUsage) {
			t.Errorf("%v: %v, want a usage error", args, err)
		}
	}
}

// TestBundleHints: `bundle send` names the signing flags its status hint
// needs, `bundle status` unsigned names them too, and flags after the hash
// are refused with where they go.
func TestBundleHints(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	n.Step()
	var out, errOut bytes.Buffer
	app := &cli.App{Name: "gavel", Commands: []*cli.Command{Command()}, Writer: &out, ErrWriter: &errOut}
	if err := app.Run([]string{"gavel", "bundle", "send", "--rpc", n.HTTPURL(), "--dev-account", "2", "--to", "0x000000000000000000000000000000000000beef"}); err != nil {
		t.Fatal(err)
	}
	hash := strings.TrimSpace(out.String())
	if want := "`gavel bundle status --dev-account 2 " + hash + "`"; !strings.Contains(errOut.String(), want) {
		t.Fatalf("send's hint %q, want it to contain %s", errOut.String(), want)
	}
	out.Reset()
	errOut.Reset()
	if err := app.Run([]string{"gavel", "bundle", "status", "--rpc", n.HTTPURL(), hash}); err != nil || !strings.Contains(out.String(), `"unknown"`) ||
		!strings.Contains(errOut.String(), "this request was unsigned") || !strings.Contains(errOut.String(), "--dev-account N") {
		t.Fatalf("unsigned status of a signed bundle: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	if _, err := run(t, n, "status", hash, "--dev-account", "2"); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), `"--dev-account" comes after the bundle hash: flags go before it`) {
		t.Fatalf("flag after the hash: %v", err)
	}
}
