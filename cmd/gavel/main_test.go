package main

import (
	"bufio"
	"bytes"
	"context"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/params"
)

// The test binary doubles as the gavel binary: with GAVEL_TEST_MAIN set it
// runs main, so tests exercise the real process (flags, exit codes) without
// a separate build.
func TestMain(m *testing.M) {
	if os.Getenv("GAVEL_TEST_MAIN") == "1" {
		os.Args = append([]string{"gavel"}, os.Args[1:]...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// gavel runs the binary with args and returns stdout, stderr and the exit code.
func gavel(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "GAVEL_TEST_MAIN=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exitErr, ok := err.(*exec.ExitError); ok {
		code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

func TestDumpConfigRoundTrip(t *testing.T) {
	dir := t.TempDir()
	out, errOut, code := gavel(t, "dumpconfig", "--ipcdisable",
		"--dev.period", "3s", "--dev.gaslimit", "25000000", "--mev.addr", "127.0.0.1:19062",
		"--mev.maxbody", "4096", "--http.port", "18545", "--txpool.pricelimit", "7")
	if code != 0 {
		t.Fatalf("dumpconfig exit %d: %s", code, errOut)
	}
	for _, want := range []string{"[Eth]", "[Node]", "[Metrics]", "[Mev.Listener]", "[Mev.Dev]", `Addr = "127.0.0.1:19062"`} {
		if !strings.Contains(out, want) {
			t.Fatalf("dumpconfig output lacks %q:\n%s", want, out)
		}
	}
	file := filepath.Join(dir, "gavel.toml")
	if err := os.WriteFile(file, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := defaultConfig()
	if err := loadConfigFile(file, &cfg); err != nil {
		t.Fatalf("reading dumped config: %v", err)
	}
	if cfg.Mev.Dev.Period != 3*time.Second || cfg.Mev.Dev.GasLimit != 25_000_000 ||
		cfg.Mev.Listener.Addr != "127.0.0.1:19062" || cfg.Mev.Listener.MaxBodyBytes != 4096 ||
		cfg.Node.HTTPPort != 18545 || cfg.Eth.TxPool.PriceLimit != 7 {
		t.Fatalf("values lost in the round trip: mev %+v, http port %d, price limit %d", cfg.Mev, cfg.Node.HTTPPort, cfg.Eth.TxPool.PriceLimit)
	}
	// Dumping the file again, with no flags, gives the same file.
	again, errOut, code := gavel(t, "dumpconfig", "--config", file)
	if code != 0 {
		t.Fatalf("dumpconfig --config exit %d: %s", code, errOut)
	}
	if again != out {
		t.Fatalf("config does not round-trip:\n--- first\n%s\n--- second\n%s", out, again)
	}
	// Flags override the file.
	over, _, _ := gavel(t, "dumpconfig", "--config", file, "--mev.addr", "127.0.0.1:29062")
	if !strings.Contains(over, `Addr = "127.0.0.1:29062"`) {
		t.Fatalf("--mev.addr did not override the file")
	}
}

// TestDumpConfigDev: flags before the command count, geth's integer
// --dev.period is accepted, and a --dev dump loads back as a dev config.
func TestDumpConfigDev(t *testing.T) {
	out, errOut, code := gavel(t, "--dev", "--dev.period", "3", "--mev.addr", "127.0.0.1:19063", "dumpconfig")
	if code != 0 {
		t.Fatalf("gavel --dev dumpconfig: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Enabled = true", "Period = 3000000000", `Addr = "127.0.0.1:19063"`, `"flashbots"`} {
		if !strings.Contains(out, want) {
			t.Fatalf("--dev dump lacks %q:\n%s", want, out)
		}
	}
	file := filepath.Join(t.TempDir(), "dev.toml")
	if err := os.WriteFile(file, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	again, errOut, code := gavel(t, "--config", file, "dumpconfig")
	if code != 0 || again != out {
		t.Fatalf("the --dev dump does not load back: exit %d: %s\n--- first\n%s\n--- second\n%s", code, errOut, out, again)
	}
}

func TestVersion(t *testing.T) {
	out, errOut, code := gavel(t, "version")
	if code != 0 || !strings.Contains(out, "Version: "+params.Version) || !strings.Contains(out, "Go Version: ") {
		t.Fatalf("gavel version: exit %d, %q, %s", code, out, errOut)
	}
}

func TestBadInputExitsCleanly(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	unknownField := write("unknown.toml", "[Mev.Listener]\nAdress = \"127.0.0.1:1\"\n")
	malformed := write("malformed.toml", "[Mev\nAddr = \n")
	wrongType := write("type.toml", "[Mev.Dev]\nGasLimit = \"lots\"\n")
	devInFile := write("dev.toml", "[Mev.Dev]\nEnabled = true\n")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"--no-such-flag"}, "flag provided but not defined: -no-such-flag"},
		{"bad duration", []string{"dumpconfig", "--dev.period", "soon"}, "dev.period"},
		{"fractional period", []string{"dumpconfig", "--dev.period", "1500ms"}, "--dev.period must be a whole number of seconds"},
		{"zero period", []string{"dumpconfig", "--dev.period", "0s"}, "--dev.period must be a whole number of seconds"},
		{"tiny gas limit", []string{"dumpconfig", "--dev.gaslimit", "10"}, "--dev.gaslimit must be at least 5000"},
		{"verbosity", []string{"dumpconfig", "--verbosity", "9"}, "--verbosity must be 0 to 5"},
		{"holesky", []string{"dumpconfig", "--holesky"}, "use --hoodi"},
		{"missing config", []string{"dumpconfig", "--config", filepath.Join(dir, "absent.toml")}, "no such file"},
		{"unknown config field", []string{"dumpconfig", "--config", unknownField}, "field 'Adress' is not defined in mevapi.Config"},
		{"malformed config", []string{"dumpconfig", "--config", malformed}, "malformed.toml, line"},
		{"wrong config type", []string{"dumpconfig", "--config", wrongType}, "type.toml"},
		{"dev mode in file and a network", []string{"dumpconfig", "--config", devInFile, "--sepolia"}, "can't be used at the same time"},
		{"fractional period in seconds", []string{"dumpconfig", "--dev.period", "1.5"}, "--dev.period"},
		{"sim timeouts", []string{"dumpconfig", "--mev.sim.timeout", "20s"}, "must not exceed --mev.sim.maxtimeout"},
		{"sim max txs", []string{"dumpconfig", "--mev.sim.maxtxs", "0"}, "--mev.sim.maxtxs must be positive"},
		{"stray argument", []string{"--ipcdisable", "serve"}, `unknown command "serve"`},
		{"builder without key", []string{"dumpconfig", "--builder"}, "--builder needs --builder.secretkey"},
		{"builder maxbuilds", []string{"dumpconfig", "--builder.maxbuilds", "0"}, "--builder.maxbuilds must be at least 1"},
		{"two networks", []string{"dumpconfig", "--dev", "--sepolia"}, "can't be used at the same time"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := gavel(t, tc.args...)
			if code == 0 {
				t.Fatalf("exit 0, want non-zero; stderr: %s", errOut)
			}
			if !strings.Contains(errOut, tc.want) {
				t.Fatalf("stderr does not say %q:\n%s", tc.want, errOut)
			}
			if strings.Contains(errOut, "panic") || strings.Contains(errOut, "goroutine ") {
				t.Fatalf("panicked:\n%s", errOut)
			}
		})
	}
}

// devProcess is a `gavel --dev` started by a test.
type devProcess struct {
	cmd    *exec.Cmd
	urls   map[string]string // banner line name -> URL or path
	banner string
	stderr *bytes.Buffer
}

// startDev starts `gavel --dev` with free ports and reads its banner. The
// process is stopped when the test ends, or earlier by stop.
func startDev(t *testing.T, ctx context.Context, args ...string) *devProcess {
	t.Helper()
	args = append([]string{"--dev", "--dev.period", "1", "--http.port", "0", "--authrpc.port", "0", "--mev.addr", "127.0.0.1:0"}, args...)
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append(os.Environ(), "GAVEL_TEST_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &devProcess{cmd: cmd, urls: map[string]string{}, stderr: new(bytes.Buffer)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.stop)
	lineRe := regexp.MustCompile(`^\s+(JSON-RPC \(HTTP\)|JSON-RPC \(IPC\)|MEV listener|engine API \(JWT\))\s+(\S+)`)
	var banner strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		banner.WriteString(line + "\n")
		if m := lineRe.FindStringSubmatch(line); m != nil {
			p.urls[m[1]] = m[2]
		}
		if strings.HasPrefix(line, "These keys are public") {
			break
		}
	}
	p.banner = banner.String()
	go func() { // keep draining stdout so the process never blocks
		for sc.Scan() {
		}
	}()
	return p
}

func (p *devProcess) stop() {
	if p.cmd.ProcessState == nil {
		p.cmd.Process.Signal(os.Interrupt)
		p.cmd.Wait()
	}
}

// TestDevBinary runs `gavel --dev` as a user would and checks the promises of
// the README: the banner, chain id 0x539, blocks on the wall clock and a
// transfer mined within two slots; its IPC socket in a directory of its own
// that a second dev node leaves alone, and `gavel attach` finding it. It is
// the one test that needs the wall clock, since the slot clock itself is
// what it checks.
func TestDevBinary(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dev := startDev(t, ctx)
	urls, banner, stderr := dev.urls, dev.banner, dev.stderr
	for _, acc := range append(params.DevAccounts(), params.DevAuctionAccounts()...) {
		if !strings.Contains(banner, acc.Address.Hex()) {
			t.Fatalf("banner lacks account %s:\n%s\nstderr: %s", acc.Address.Hex(), banner, stderr.String())
		}
	}
	if urls["JSON-RPC (HTTP)"] == "" || urls["MEV listener"] == "" || urls["engine API (JWT)"] == "" {
		t.Fatalf("banner lacks URLs:\n%s", banner)
	}
	ipc := urls["JSON-RPC (IPC)"]
	if !strings.HasPrefix(filepath.Base(filepath.Dir(ipc)), "gavel-dev-") {
		t.Fatalf("IPC socket %q is not in a gavel-dev-* temporary directory", ipc)
	}
	// A second dev node gets its own socket, and stopping it leaves ours.
	second := startDev(t, ctx, "--mev.addr", "127.0.0.1:0")
	if other := second.urls["JSON-RPC (IPC)"]; other == "" || other == ipc {
		t.Fatalf("second dev node's IPC socket %q, first %q", other, ipc)
	}
	// Attach finds a running dev node's socket by itself (the newest one).
	if out, errOut, code := gavel(t, "attach", "--exec", "eth.chainId()"); code != 0 || !strings.Contains(out, `"0x539"`) {
		t.Fatalf("gavel attach without an endpoint: exit %d, %q, %s", code, out, errOut)
	}
	second.stop()
	if _, err := os.Stat(filepath.Dir(second.urls["JSON-RPC (IPC)"])); !os.IsNotExist(err) {
		t.Errorf("second dev node left its IPC directory behind: %v\nstderr: %s", err, second.stderr.String())
	}
	if _, err := os.Stat(ipc); err != nil {
		t.Fatalf("stopping the second dev node removed the first one's socket: %v", err)
	}
	out, errOut, code := gavel(t, "attach", "--exec", "eth.chainId()", ipc)
	if code != 0 || !strings.Contains(out, `"0x539"`) {
		t.Fatalf("gavel attach over IPC: exit %d, %q, %s", code, out, errOut)
	}
	if out, errOut, code := gavel(t, "attach", "--exec", "net.version", urls["JSON-RPC (HTTP)"]); code != 0 || !strings.Contains(out, "1337") {
		t.Fatalf("gavel attach over HTTP: exit %d, %q, %s", code, out, errOut)
	}

	client, err := ethclient.DialContext(ctx, urls["JSON-RPC (HTTP)"])
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	id, err := client.ChainID(ctx)
	if err != nil || id.Uint64() != 0x539 {
		t.Fatalf("eth_chainId = %v, %v; want 0x539", id, err)
	}
	from, to := params.DevAccounts()[0], common.HexToAddress("0x000000000000000000000000000000000000beef")
	head, err := client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx := types.MustSignNewTx(from.Key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		ChainID: id, Nonce: 0, GasTipCap: big.NewInt(gparams.GWei), GasFeeCap: big.NewInt(10 * gparams.GWei),
		Gas: 21000, To: &to, Value: big.NewInt(1),
	})
	if err := client.SendTransaction(ctx, tx); err != nil {
		t.Fatalf("eth_sendRawTransaction: %v", err)
	}
	// Wait for the receipt; it must land at most two blocks after the head we saw.
	var rcpt *types.Receipt
	for rcpt == nil {
		if rcpt, err = client.TransactionReceipt(ctx, tx.Hash()); rcpt == nil {
			select {
			case <-ctx.Done():
				t.Fatalf("transfer not mined: %v\nstderr: %s", ctx.Err(), stderr.String())
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	if got, max := rcpt.BlockNumber.Uint64(), head.Number.Uint64()+2; got > max {
		t.Fatalf("transfer mined in block %d, more than two slots after head %d", got, head.Number)
	}
	// The default-verbosity log holds none of the lines the issue found false.
	dev.stop()
	for _, bad := range []string{"Using developer account", "Consensus: unknown", "(unknown)", "Head block is not reachable", "P2P server will be useless"} {
		if strings.Contains(stderr.String(), bad) {
			t.Errorf("the log says %q:\n%s", bad, stderr.String())
		}
	}
	if !strings.Contains(stderr.String(), "MEV listener stopped") {
		t.Errorf("no log line for the MEV listener's stop")
	}
}
