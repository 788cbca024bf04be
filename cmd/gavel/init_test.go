package main

import (
	"bufio"
	"context"
	"encoding/json"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/node"
)

// readGenesis reads testdata/genesis.json: a merged-at-genesis Shanghai
// chain with chain id 32382 (the Lodestar devnet's).
func readGenesis(t *testing.T) (*core.Genesis, []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "genesis.json"))
	if err != nil {
		t.Fatal(err)
	}
	g := new(core.Genesis)
	if err := json.Unmarshal(b, g); err != nil {
		t.Fatal(err)
	}
	return g, b
}

// TestInitCustomNetwork: `gavel init` writes a custom genesis as `geth
// init` does; the node started on that datadir runs that chain; a second
// init with another genesis is refused; --override.osaka is accepted.
func TestInitCustomNetwork(t *testing.T) {
	g, raw := readGenesis(t)
	dir := t.TempDir()
	datadir := filepath.Join(dir, "data")
	out, errOut, code := gavel(t, "init", "--datadir", datadir, filepath.Join("testdata", "genesis.json"))
	if code != 0 {
		t.Fatalf("gavel init exit %d: %s", code, errOut)
	}
	want := g.ToBlock().Hash()
	if !strings.Contains(out, want.Hex()) || !strings.Contains(out, "chain id 32382") {
		t.Fatalf("init output %q lacks the genesis hash %s", out, want.Hex())
	}
	// The same genesis again is fine (geth: idempotent); another is refused.
	if _, errOut, code := gavel(t, "init", "--datadir", datadir, filepath.Join("testdata", "genesis.json")); code != 0 {
		t.Fatalf("init again with the same genesis: exit %d: %s", code, errOut)
	}
	other := filepath.Join(dir, "other.json")
	if err := os.WriteFile(other, []byte(strings.Replace(string(raw), `"0x1c9c380"`, `"0x1c9c381"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := gavel(t, "init", "--datadir", datadir, other); code == 0 || !strings.Contains(errOut, "genesis") {
		t.Fatalf("init with another genesis: exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"init", "--datadir", datadir}, "need the genesis.json file"},
		{[]string{"init", "--datadir", datadir, filepath.Join(dir, "absent.json")}, "failed to read genesis file"},
		{[]string{"init", "--datadir", datadir, filepath.Join(dir, "data")}, "invalid genesis file"},
	} {
		if _, errOut, code := gavel(t, c.args...); code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %s", c.args, code, errOut)
		}
	}
	if _, errOut, code := gavel(t, "init", "--datadir", filepath.Join(dir, "osaka"), "--override.osaka", "2000000000", filepath.Join("testdata", "genesis.json")); code != 0 {
		t.Fatalf("init --override.osaka: exit %d: %s", code, errOut)
	}

	// The node on that datadir runs the custom chain.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cfg := filepath.Join(dir, "p2p.toml")
	if err := os.WriteFile(cfg, []byte("[Node.P2P]\nListenAddr = \"127.0.0.1:0\"\nMaxPeers = 0\nNoDiscovery = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, os.Args[0], "--datadir", datadir, "--config", cfg, "--ipcdisable", "--http", "--http.port", "0",
		"--authrpc.port", "0", "--mev.addr", "127.0.0.1:0", "--verbosity", "2")
	cmd.Env = append(os.Environ(), "GAVEL_TEST_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() })
	var rpcURL string
	sc := bufio.NewScanner(stdout)
	re := regexp.MustCompile(`JSON-RPC \(HTTP\)\s+(\S+)`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			rpcURL = m[1]
		}
		if strings.Contains(sc.Text(), "MEV listener") {
			break
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	if rpcURL == "" {
		t.Fatal("no JSON-RPC URL in the banner")
	}
	ec, err := ethclient.DialContext(ctx, rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	defer ec.Close()
	if id, err := ec.ChainID(ctx); err != nil || id.Cmp(big.NewInt(32382)) != 0 {
		t.Fatalf("eth_chainId %v, %v; want 32382", id, err)
	}
	h, err := ec.HeaderByNumber(ctx, big.NewInt(0))
	if err != nil || h.Hash() != want {
		t.Fatalf("block 0 is %v (%v), want the genesis %s", h.Hash(), err, want)
	}
	if bal, err := ec.BalanceAt(ctx, common.HexToAddress("0x8943545177806ED17B9F23F0a21ee5948eCaa776"), nil); err != nil || bal.Sign() == 0 {
		t.Fatalf("the genesis account's balance: %v, %v", bal, err)
	}
}

// TestDumpConfigKeepsGenesis: a genesis given with --override.genesis (or
// in [Eth.Genesis]) survives dumpconfig and reads back as the same genesis.
func TestDumpConfigKeepsGenesis(t *testing.T) {
	g, _ := readGenesis(t)
	out, errOut, code := gavel(t, "dumpconfig", "--override.genesis", filepath.Join("testdata", "genesis.json"))
	if code != 0 {
		t.Fatalf("dumpconfig exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "[Eth.Genesis]") {
		t.Fatalf("dumpconfig dropped the genesis:\n%s", out)
	}
	file := filepath.Join(t.TempDir(), "gavel.toml")
	if err := os.WriteFile(file, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig()
	if err := loadConfigFile(file, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Eth.Genesis == nil || cfg.Eth.Genesis.ToBlock().Hash() != g.ToBlock().Hash() || cfg.Eth.Genesis.Config.ChainID.Uint64() != 32382 {
		t.Fatalf("the dumped genesis reads back differently: %+v", cfg.Eth.Genesis)
	}
	again, errOut, code := gavel(t, "dumpconfig", "--config", file)
	if code != 0 || again != out {
		t.Fatalf("dumpconfig --config does not round-trip (exit %d %s):\n%s\n---\n%s", code, errOut, out, again)
	}
	// A network flag's genesis is not configuration: not dumped.
	if out, _, _ := gavel(t, "dumpconfig", "--sepolia"); strings.Contains(out, "[Eth.Genesis]") {
		t.Fatal("dumpconfig --sepolia wrote sepolia's genesis")
	}
}

// TestRelayFlagsOnRealNetwork: a relay turned on without its key (or
// without beacon nodes) on a real network is a start-up error naming the
// missing flag.
func TestRelayFlagsOnRealNetwork(t *testing.T) {
	datadir := filepath.Join(t.TempDir(), "data")
	if _, errOut, code := gavel(t, "init", "--datadir", datadir, filepath.Join("testdata", "genesis.json")); code != 0 {
		t.Fatalf("init: %s", errOut)
	}
	common := []string{"--datadir", datadir, "--ipcdisable", "--port", "0", "--nodiscover", "--maxpeers", "0", "--authrpc.port", "0", "--mev.addr", "127.0.0.1:0"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--relay.beacon", "http://127.0.0.1:1"}, "--relay.beacon is set but --relay.secretkey is missing"},
		{[]string{"--relay.secretkey", "0x2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70819"}, "--relay.secretkey is set but --relay.beacon is missing"},
		{[]string{"--relay.beacon", "localhost:5052", "--relay.secretkey", "0x2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70819"}, "--relay.beacon: invalid beacon node URL"},
		{[]string{"--relay.beacon", "http://127.0.0.1:1", "--relay.secretkey", "0x12"}, "--relay.secretkey"},
		{[]string{"--relay.spec", "seconds_per_slot=2"}, "--relay.spec"},
	} {
		_, errOut, code := gavel(t, append(append([]string{}, common...), c.args...)...)
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr does not say %q:\n%s", c.args, code, c.want, errOut)
		}
	}
}

// TestDumpConfigBesideRunningNode: dumpconfig prints the configuration of a
// datadir another node holds (its lock taken) instead of failing with
// "datadir already used by another process".
func TestDumpConfigBesideRunningNode(t *testing.T) {
	datadir := t.TempDir()
	cfg := defaultNodeConfig()
	cfg.DataDir, cfg.IPCPath, cfg.HTTPHost, cfg.WSHost, cfg.AuthPort = datadir, "", "", "", 0
	cfg.P2P.ListenAddr, cfg.P2P.MaxPeers, cfg.P2P.NoDiscovery, cfg.P2P.NoDial = "", 0, true, true
	holder, err := node.New(&cfg) // takes the datadir's lock
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	out, errOut, code := gavel(t, "dumpconfig", "--datadir", datadir, "--override.genesis", filepath.Join("testdata", "genesis.json"))
	if code != 0 {
		t.Fatalf("dumpconfig beside a running node: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, strconv.Quote(datadir)) {
		t.Fatalf("dumpconfig does not print the datadir %s:\n%s", datadir, out)
	}
}

// TestDevRefusesCustomDatadir: `gavel --dev` on a datadir `gavel init`
// wrote (the Lodestar devnet's chain 32382, merged at genesis) exits at
// once with an error that names the stored chain, the dev chain and what
// to do, instead of starting and failing every slot.
func TestDevRefusesCustomDatadir(t *testing.T) {
	g, _ := readGenesis(t)
	datadir := filepath.Join(t.TempDir(), "custom")
	if _, errOut, code := gavel(t, "init", "--datadir", datadir, filepath.Join("testdata", "genesis.json")); code != 0 {
		t.Fatalf("gavel init exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"--dev", nil, []string{
			datadir + " holds chain id 32382 (genesis " + g.ToBlock().Hash().Hex() + "), which --dev did not create",
			"--dev runs gavel's dev chain (chain id 1337)",
			"run this datadir without --dev, as a custom network beside its consensus client (gavel --datadir " + datadir + " --syncmode full), or give --dev a new --datadir",
		}},
		// Even with the chain id it holds: a chain id does not make a dev chain.
		{"--dev --dev.chainid 32382", []string{"--dev.chainid", "32382"}, []string{
			"holds chain id 32382", "--dev runs gavel's dev chain (chain id 32382)", "give --dev a new --datadir",
		}},
	} {
		args := append([]string{"--dev", "--datadir", datadir, "--ipcdisable", "--http.port", "0", "--authrpc.port", "0", "--mev.addr", "127.0.0.1:0"}, c.args...)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, os.Args[0], args...)
		cmd.Env = append(os.Environ(), "GAVEL_TEST_MAIN=1")
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		timedOut := ctx.Err() != nil
		cancel()
		errOut := stderr.String()
		if timedOut {
			t.Fatalf("%s on a custom network's datadir did not exit within 60 s:\n%s", c.name, errOut)
		}
		if err == nil {
			t.Fatalf("%s on a custom network's datadir: exit 0, stderr %s", c.name, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", c.name, w, errOut)
			}
		}
		if strings.Contains(errOut, "Dev slot failed") {
			t.Errorf("%s: the dev chain ran:\n%s", c.name, errOut)
		}
	}
}
