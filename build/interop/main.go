// Command interop is `make interop`: gavel as execution client, relay and
// builder of a real consensus client, Lodestar 1.5.1 from npm, on a local
// Capella devnet (8 validators, 2 s slots, chain id 32382) of the minimal
// preset (8 slots per epoch, the recipe's) or, with -preset mainnet, the
// mainnet preset (preset.go). With -relays 2 it runs the README's
// two-instance template behind HAProxy instead (multi.go).
//
// It installs Lodestar into build/interop/.cache (kept between runs), builds
// gavel, runs `gavel init` with lodestar/el-genesis.json, starts a second
// `gavel --dev` as the beta block's L2 with the auction deployed (beta.go),
// starts gavel (EL + relay + builder, reading beta settlement from the L2),
// then `lodestar dev` with its builder URL at a loopback
// proxy in front of gavel's MEV listener (the proxy only records what
// Lodestar asks and how fast gavel answers), its genesis -genesisdelay
// (60 s) ahead as devnet tools set it, so that its validators sign their
// registrations before genesis. Lodestar boots in seconds on a quiet
// machine but took 35 to 40 s at load average 25; one that comes up more
// than a few slots after genesis on a chain without blocks takes itself
// for syncing ("waiting for peers") and never proposes. A transfer from a key other than the
// builder's fee recipient is sent every slot. After the run it checks:
//
//   - every validator's registration is stored (data API), and the figures
//     say how many were signed before genesis;
//   - from the first slot Lodestar asks gavel for a header (Lodestar 1.5.1
//     enables its builder only once enough slots of its own window have
//     blocks) for at least -epochs epochs, every proposal asked gavel for a
//     header, got a bid, and the signed blinded block got its payload;
//   - the beacon chain's execution block hashes, gavel's chain and the data
//     API's delivered payloads agree, slot by slot;
//   - a transaction sent with eth_sendBundle landed;
//   - a beta bundle sent for a slot of the window and paid on the L2 (with
//     `gavel auction operate` on the beacon chain's clock) is the last
//     transaction of that slot's block, right after the builder's proposer
//     payment; the delivered record has its beta part, mev_getBetaBundle
//     says included and the operator paid the slot out (beta.go).
//
// It prints the figures (slots, bids served, blocks delivered, missed slots,
// getHeader latency, bids ready before the proposer asked) and stops
// everything it started within bounded time. Everything listens on
// 127.0.0.1 only.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/params"
)

// Keys of the devnet. They are public test keys: never use them elsewhere.
const (
	// relayKey and builderKey are BLS secret keys (any 32 bytes below the curve order).
	relayKey   = "0x2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70819"
	builderKey = "0x1b2c3d4e5f60718293a4b5c6d7e8f9011b2c3d4e5f60718293a4b5c6d7e8f901"
	// coinbaseKey is the funded account of el-genesis.json
	// (0x8943545177806ED17B9F23F0a21ee5948eCaa776, a well-known devnet key):
	// the builder's fee recipient, which pays each proposer.
	coinbaseKey = "bcdf20249abf0ed6d944c0288fad489e33f66b3960d9e6229c1cd214ed3bbe31"
	// senderKey is dev account 1 of gavel's test mnemonic, funded in
	// el-genesis.json: it sends a tip-paying transfer every slot.
	senderKey = "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
	// bundleKey is dev account 2, funded in el-genesis.json: it signs the
	// eth_sendBundle transaction.
	bundleKey = "5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"
	// feeRecipient is the validators' suggested fee recipient.
	feeRecipient = "0x000000000000000000000000000000000000fee1"
)

func main() {
	preset := flag.String("preset", presetMinimal, "consensus preset of the devnet: minimal (8 slots per epoch) or mainnet (32)")
	epochs := flag.Int("epochs", 0, "epochs (of 2 s slots) that must pass with gavel's builder in every proposal (0: 8 minimal, 2 mainnet)")
	capture := flag.String("capture", "", "write the first signed blinded block Lodestar sent, with its proposer's pubkey and signing constants, to this JSON file")
	timeout := flag.Duration("timeout", 15*time.Minute, "bound on the whole run, npm install included")
	keep := flag.Bool("keep", false, "keep the work directory (logs, data) even when the run passes")
	flag.StringVar(&gavelVerbosity, "verbosity", "3", "gavel's --verbosity (its log is in the work directory)")
	flag.DurationVar(&pollPhase, "txphase", pollPhase, "how far into each slot the run sends the slot's transfer (below the slot time)")
	genesisDelay := flag.Duration("genesisdelay", 60*time.Second, "how far after Lodestar's start its devnet's genesis is (0: at once); Lodestar signs its validator registrations before it")
	relays := flag.Int("relays", 1, "relay instances: 1 (gavel as EL, relay and builder of one Lodestar, with the beta block's L2) or 2 (two gavel nodes, each with its own Lodestar, one PostgreSQL, HAProxy in front: multi.go; its phases are two epochs, one with an instance stopped, then until it rejoins and one more, whatever -epochs says)")
	flag.Parse()
	if *relays != 1 && *relays != 2 {
		fmt.Fprintf(os.Stderr, "-relays %d: expected 1 or 2\n", *relays)
		os.Exit(2)
	}
	txphaseSet := false
	flag.Visit(func(f *flag.Flag) { txphaseSet = txphaseSet || f.Name == "txphase" })
	if *relays == 2 && !txphaseSet {
		// Two instances: a transfer sent after the slot's rebuilds end (1 s
		// into the slot) waits in the pool for the next slot's first build,
		// so every slot's first bid has something to pay, whichever
		// instance's getHeader answers (only the one whose builder is still
		// building waits for a bid in flight).
		pollPhase = time.Second
	}
	if *relays == 2 && *preset != presetMinimal {
		fmt.Fprintln(os.Stderr, "-preset: -relays 2 runs the minimal preset only")
		os.Exit(2)
	}
	if *relays == 2 && *capture != "" {
		fmt.Fprintln(os.Stderr, "-capture: only with -relays 1")
		os.Exit(2)
	}
	if *genesisDelay < 0 || *genesisDelay > 10*time.Minute {
		fmt.Fprintf(os.Stderr, "-genesisdelay %s: expected 0 to 10m\n", *genesisDelay)
		os.Exit(2)
	}
	if err := checkPreset(*preset); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if pollPhase < 0 || pollPhase >= 2*time.Second {
		fmt.Fprintf(os.Stderr, "-txphase %s: expected 0 or more and below the 2 s slot\n", pollPhase)
		os.Exit(2)
	}
	if *epochs <= 0 {
		*epochs = defaultEpochs(*preset)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	r := &run{epochs: *epochs, preset: *preset, genesisDelay: *genesisDelay}
	var err error
	if *relays == 2 {
		err = r.mainMulti(ctx)
	} else {
		err = r.main(ctx)
	}
	if err == nil && *capture != "" {
		err = r.captureBlinded(ctx, *capture)
	}
	r.stopAll()
	if err != nil {
		fmt.Fprintf(os.Stderr, "\ninterop: FAIL: %v\n", err)
		if r.work != "" {
			for _, name := range []string{"gavel.log", "lodestar.log", "l2.log", "operator.log", "gavel-a.log", "gavel-b.log", "gavel-b-restart.log", "lodestar-a.log", "lodestar-b.log", "haproxy.log"} {
				tail(filepath.Join(r.work, name), 40)
			}
			fmt.Fprintf(os.Stderr, "logs and data kept in %s\n", r.work)
		}
		os.Exit(1)
	}
	if r.work != "" && !*keep {
		os.RemoveAll(r.work)
	} else if r.work != "" {
		fmt.Printf("work directory kept: %s\n", r.work)
	}
	fmt.Println("interop: PASS")
}

var gavelVerbosity string

type run struct {
	epochs       int
	preset       string        // presetMinimal or presetMainnet (preset.go)
	genesisDelay time.Duration // from Lodestar's start to its genesis
	genesisTime  int64         // the devnet's genesis, unix seconds
	here         string        // build/interop
	work         string

	mu       sync.Mutex
	procs    []*exec.Cmd
	cleanups []func() // after the processes stop (the PostgreSQL of -relays 2)

	ports struct{ auth, http, mev, rest, proxy, p2p int }
	calls callLog

	beta      *betaRun      // the L2 and the beta flow (beta.go)
	betaClock func() uint64 // the L1 slot now, once the beacon node answered
}

// locate returns the working directory, which must be the repository
// root (how names the command to run there), and sets r.here to the
// harness's directory under it.
func (r *run) locate(how string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	r.here = filepath.Join(wd, "build", "interop")
	if _, err := os.Stat(filepath.Join(r.here, "lodestar", "package.json")); err != nil {
		return "", fmt.Errorf("run from the repository root (%s): %w", how, err)
	}
	return wd, nil
}

func (r *run) main(ctx context.Context) error {
	wd, err := r.locate("make interop")
	if err != nil {
		return err
	}
	if r.work, err = os.MkdirTemp("", "gavel-interop-"); err != nil {
		return err
	}
	lodestar, err := r.installLodestar(ctx)
	if err != nil {
		return err
	}
	gavel := filepath.Join(r.work, "gavel")
	step("building gavel")
	if err := command(ctx, wd, "go", "build", "-o", gavel, "./cmd/gavel").Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	for _, p := range []*int{&r.ports.auth, &r.ports.http, &r.ports.mev, &r.ports.rest, &r.ports.proxy, &r.ports.p2p} {
		if *p, err = freePort(); err != nil {
			return err
		}
	}

	step("gavel init with a Capella/Shanghai genesis (chain id 32382)")
	out, err := command(ctx, r.work, gavel, "init", "--datadir", filepath.Join(r.work, "el"), filepath.Join(r.here, "lodestar", "el-genesis.json")).CombinedOutput()
	if err != nil {
		return fmt.Errorf("gavel init: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`genesis (0x[0-9a-f]{64}) written`).FindSubmatch(out)
	if m == nil {
		return fmt.Errorf("gavel init did not print the genesis hash:\n%s", out)
	}
	genesisHash := string(m[1])

	jwt := filepath.Join(r.work, "jwt.hex")
	secret := make([]byte, 32)
	rand.Read(secret)
	if err := os.WriteFile(jwt, []byte(hex.EncodeToString(secret)), 0o600); err != nil {
		return err
	}
	// p2p on loopback only, no peers, no discovery.
	cfgFile := filepath.Join(r.work, "gavel.toml")
	toml := fmt.Sprintf("[Node.P2P]\nListenAddr = \"127.0.0.1:%d\"\nMaxPeers = 0\nNoDiscovery = true\nDiscoveryV4 = false\nDiscoveryV5 = false\n", r.ports.p2p)
	if err := os.WriteFile(cfgFile, []byte(toml), 0o600); err != nil {
		return err
	}
	beta, betaArgs, err := r.startL2(ctx, gavel)
	if err != nil {
		return err
	}
	r.beta = beta
	step("starting gavel (execution client, relay, builder, beta block from the L2)")
	if err := r.start(ctx, "gavel.log", nil, gavel, append([]string{"--config", cfgFile, "--datadir", filepath.Join(r.work, "el"),
		"--verbosity", gavelVerbosity, "--ipcdisable", "--syncmode", "full", "--authrpc.addr", "127.0.0.1", "--authrpc.port", strconv.Itoa(r.ports.auth), "--authrpc.jwtsecret", jwt,
		"--http", "--http.addr", "127.0.0.1", "--http.port", strconv.Itoa(r.ports.http), "--http.api", "eth,net,web3,mev",
		"--mev.addr", fmt.Sprintf("127.0.0.1:%d", r.ports.mev),
		"--relay.secretkey", relayKey, "--relay.beacon", fmt.Sprintf("http://127.0.0.1:%d", r.ports.rest),
		"--builder", "--builder.secretkey", builderKey, "--builder.coinbasekey", coinbaseKey,
	}, betaArgs...)...); err != nil {
		return err
	}
	rpcURL := fmt.Sprintf("http://127.0.0.1:%d", r.ports.http)
	mevURL := fmt.Sprintf("http://127.0.0.1:%d", r.ports.mev)
	restURL := fmt.Sprintf("http://127.0.0.1:%d", r.ports.rest)
	var ec *ethclient.Client
	if err := waitFor(ctx, 60*time.Second, "gavel's JSON-RPC", func() error {
		var err error
		if ec, err = ethclient.DialContext(ctx, rpcURL); err != nil {
			return err
		}
		_, err = ec.ChainID(ctx)
		return err
	}); err != nil {
		return err
	}
	// Not ready before the beacon node runs; the relay's routes answer 503.
	if code, body := get(ctx, mevURL+"/readyz"); code != 503 {
		return fmt.Errorf("before the beacon node runs, /readyz answered %d %s; want 503", code, body)
	}
	if code, body := get(ctx, mevURL+"/eth/v1/builder/status"); code != 503 || !strings.Contains(body, "waiting for a beacon node") {
		return fmt.Errorf("before the beacon node runs, the builder status answered %d %s; want 503 waiting for a beacon node", code, body)
	}

	proxy, err := r.startProxy(mevURL)
	if err != nil {
		return err
	}
	defer proxy.Close()

	// Genesis in the future, as devnet tools set it: Lodestar 1.5.1 signs its
	// validator registrations when its validator client starts, before
	// genesis, and re-sends those same messages every epoch; the relay
	// accepts them (a registration may be signed up to a day before
	// genesis), so the run needs no restart of Lodestar after genesis.
	genesisTime := time.Now().Add(r.genesisDelay).Unix()
	r.genesisTime = genesisTime
	step(fmt.Sprintf("starting lodestar dev (%s preset, 2 s slots, 8 validators, genesis in %s, at %d)", r.preset, r.genesisDelay, genesisTime))
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LODESTAR_") {
			env = append(env, kv)
		}
	}
	if err := r.start(ctx, "lodestar.log", env, "node", append(append([]string{lodestar, "dev"}, r.lodestarPresetArgs()...),
		"--genesisValidators", "8", "--startValidators", "0..7",
		"--genesisTime", strconv.FormatInt(genesisTime, 10), "--genesisEth1Hash", genesisHash,
		"--execution.urls", fmt.Sprintf("http://127.0.0.1:%d", r.ports.auth), "--jwt-secret", jwt,
		"--dataDir", filepath.Join(r.work, "cl"),
		"--rest.address", "127.0.0.1", "--rest.port", strconv.Itoa(r.ports.rest), "--server", restURL,
		"--listenAddress", "127.0.0.1", "--port", strconv.Itoa(r.ports.p2p+1000),
		"--suggestedFeeRecipient", feeRecipient,
		"--builder", "--builder.urls", fmt.Sprintf("http://127.0.0.1:%d", r.ports.proxy),
	)...); err != nil {
		return err
	}
	// Not ready before genesis either: the execution client has no head
	// from the consensus client until the first slot.
	if err := waitFor(ctx, r.genesisDelay+60*time.Second, "gavel's relay (/readyz)", func() error {
		if code, body := get(ctx, mevURL+"/readyz"); code != 200 {
			return fmt.Errorf("%d %s", code, body)
		}
		return nil
	}); err != nil {
		return err
	}
	step("relay ready: chain constants from Lodestar's beacon API")
	bGenesis, bSeconds, err := beaconClock(ctx, restURL)
	if err != nil {
		return fmt.Errorf("beacon clock: %w", err)
	}
	r.betaClock = func() uint64 { return params.SlotClock{GenesisTime: bGenesis, SecondsPerSlot: bSeconds}.Now() }
	if err := r.startOperator(ctx, r.beta, rpcURL, bGenesis, bSeconds); err != nil {
		return err
	}

	// Traffic: a tip-paying transfer every slot, and one eth_sendBundle.
	chainID := big.NewInt(32382)
	sender, _ := crypto.HexToECDSA(senderKey)
	bundler, _ := crypto.HexToECDSA(bundleKey)
	signer := types.LatestSignerForChainID(chainID)
	nonce := uint64(0)
	transfer := func(key *ecdsa.PrivateKey, nonce uint64, to common.Address, tip int64) *types.Transaction {
		return types.MustSignNewTx(key, signer, &types.DynamicFeeTx{ChainID: chainID, Nonce: nonce, GasTipCap: big.NewInt(tip),
			GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000, To: &to, Value: big.NewInt(1)})
	}
	spe := r.slotsPerEpoch()
	var bundleTx *types.Transaction
	var bundleBlock uint64
	endSlot := uint64(0)
	firstAsked := uint64(0)
	lastSlot := uint64(0)
	registered := false
	regSlot := uint64(0)
	// Lodestar enables its builder after 16 to 32 slots (its circuit breaker).
	deadline := time.Unix(genesisTime, 0).Add(time.Duration(spe*uint64(r.epochs)+startupSlots) * 2 * time.Second)
	for {
		if time.Now().After(deadline) {
			return fmt.Errorf("the devnet did not reach %d epochs with gavel's builder in every proposal before %s (first getHeader at slot %d)", r.epochs, deadline.Format(time.TimeOnly), firstAsked)
		}
		if err := sleep(ctx, untilPoll(genesisTime, 2, time.Now())); err != nil {
			return err
		}
		slot := uint64(0)
		if now := time.Now().Unix(); now > genesisTime {
			slot = uint64(now-genesisTime) / 2
		}
		if slot == lastSlot || slot == 0 {
			continue
		}
		lastSlot = slot
		// The window starts once every validator's registration is stored:
		// Lodestar registers at start and then once an epoch, so one it sent
		// while the relay still waited for the beacon node is retried only at
		// the next epoch.
		if !registered {
			registered = r.registrations(ctx, mevURL, restURL) == 8
			if registered {
				regSlot = slot
				step(fmt.Sprintf("all 8 validators' registrations stored (slot %d)", slot))
			}
		}
		if firstAsked == 0 && registered {
			if s, ok := r.calls.firstHeaderSlotAfter(regSlot); ok {
				firstAsked = s
				endSlot = s + uint64(r.epochs)*spe - 1 // epochs worth of slots from the first ask
				step(fmt.Sprintf("Lodestar asked gavel for its first header at slot %d; measuring through slot %d", s, endSlot))
			}
		}
		head, err := ec.BlockNumber(ctx)
		if err != nil {
			return fmt.Errorf("eth_blockNumber: %w", err)
		}
		if err := ec.SendTransaction(ctx, transfer(sender, nonce, common.HexToAddress("0x000000000000000000000000000000000000beef"), gparams.GWei)); err != nil {
			return fmt.Errorf("eth_sendRawTransaction: %w", err)
		}
		nonce++
		if firstAsked != 0 && bundleTx == nil {
			bundleTx = transfer(bundler, 0, common.HexToAddress("0x000000000000000000000000000000000000b0b0"), 2*gparams.GWei)
			bundleBlock = head + 2
			raw, _ := bundleTx.MarshalBinary()
			var res json.RawMessage
			if err := rpcCall(ctx, mevURL+"/v1", "eth_sendBundle", []any{map[string]any{"txs": []string{hexutil.Encode(raw)}, "blockNumber": hexutil.EncodeUint64(bundleBlock)}}, &res); err != nil {
				return fmt.Errorf("eth_sendBundle: %w", err)
			}
			step(fmt.Sprintf("eth_sendBundle %s for block %d: %s", bundleTx.Hash(), bundleBlock, res))
		}
		if firstAsked != 0 && r.beta.slot == 0 {
			if err := r.beta.startFlow(ctx, rpcURL, mevURL, r.betaClock(), endSlot, r.betaClock); err != nil {
				return err
			}
		}
		if endSlot != 0 && slot > endSlot+1 {
			break
		}
	}
	return r.check(ctx, ec, rpcURL, mevURL, restURL, firstAsked, endSlot, bundleTx, bundleBlock)
}

// check verifies the run and prints the figures.
func (r *run) check(ctx context.Context, ec *ethclient.Client, rpcURL, mevURL, restURL string, from, to uint64, bundleTx *types.Transaction, bundleBlock uint64) error {
	step(fmt.Sprintf("checking slots %d..%d", from, to))
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	// Registrations of every validator.
	var vals struct {
		Data []struct {
			Index     string `json:"index"`
			Validator struct {
				Pubkey string `json:"pubkey"`
			} `json:"validator"`
		} `json:"data"`
	}
	if err := getJSON(ctx, restURL+"/eth/v1/beacon/states/head/validators", &vals); err != nil {
		return fmt.Errorf("lodestar validators: %w", err)
	}
	registered, preGenesis := 0, 0
	for _, v := range vals.Data {
		var reg struct {
			Message struct {
				Timestamp string `json:"timestamp"`
			} `json:"message"`
		}
		if err := getJSON(ctx, mevURL+"/relay/v1/data/validator_registration?pubkey="+v.Validator.Pubkey, &reg); err != nil {
			fail("validator %s has no registration stored (%v)", v.Validator.Pubkey, err)
			continue
		}
		registered++
		if ts, err := strconv.ParseInt(reg.Message.Timestamp, 10, 64); err == nil && ts < r.genesisTime {
			preGenesis++
		}
	}
	if len(vals.Data) != 8 {
		fail("lodestar reports %d validators, want 8", len(vals.Data))
	}

	// The delivered payloads, by slot.
	var delivered []struct {
		Slot        string `json:"slot"`
		BlockHash   string `json:"block_hash"`
		BlockNumber string `json:"block_number"`
	}
	if err := getJSON(ctx, mevURL+"/relay/v1/data/bidtraces/proposer_payload_delivered?limit=200", &delivered); err != nil {
		return fmt.Errorf("data API: %w", err)
	}
	deliveredBySlot := map[uint64]string{}
	for _, d := range delivered {
		s, _ := strconv.ParseUint(d.Slot, 10, 64)
		deliveredBySlot[s] = strings.ToLower(d.BlockHash)
	}

	var proposed, missed, bidsServed, payloads, readyFirst, asked int
	for slot := from; slot <= to; slot++ {
		var blk beaconBlock
		code, body := get(ctx, fmt.Sprintf("%s/eth/v2/beacon/blocks/%d", restURL, slot))
		if code == 404 {
			missed++
			fail("slot %d: no block (missed)", slot)
			continue
		}
		if code != 200 || json.Unmarshal([]byte(body), &blk) != nil {
			return fmt.Errorf("lodestar block %d: %d %.200s", slot, code, body)
		}
		proposed++
		hash := strings.ToLower(blk.Data.Message.Body.ExecutionPayload.BlockHash)
		number, _ := strconv.ParseUint(blk.Data.Message.Body.ExecutionPayload.BlockNumber, 10, 64)
		hc := r.calls.find("GET", "/eth/v1/builder/header/"+strconv.FormatUint(slot, 10)+"/")
		switch {
		case hc == nil:
			fail("slot %d: Lodestar proposed without asking gavel for a header", slot)
		case hc.status != 200:
			asked++
			pk := ""
			for _, v := range vals.Data {
				if v.Index == blk.Data.Message.ProposerIndex {
					pk = v.Validator.Pubkey
				}
			}
			fail("slot %d: getHeader answered %d, no bid (%s; proposer %s %s)", slot, hc.status, hc.path, blk.Data.Message.ProposerIndex, pk)
		default:
			asked++
			bidsServed++
			if first := r.firstSubmission(ctx, mevURL, slot); first != 0 && first <= hc.at.UnixMilli() {
				readyFirst++
			}
		}
		if pc := r.calls.findBlinded(slot); pc == nil || pc.status != 200 {
			fail("slot %d: no payload returned for a signed blinded block", slot)
		} else {
			payloads++
		}
		if d, ok := deliveredBySlot[slot]; !ok {
			fail("slot %d: no delivered payload in the data API", slot)
		} else if d != hash {
			fail("slot %d: beacon block's payload %s, data API delivered %s", slot, hash, d)
		}
		if h, err := ec.HeaderByNumber(ctx, new(big.Int).SetUint64(number)); err != nil || strings.ToLower(h.Hash().Hex()) != hash {
			fail("slot %d: gavel's block %d is not the beacon chain's %s (%v)", slot, number, hash, err)
		}
	}

	// The bundle.
	bundleLanded := false
	if bundleTx == nil {
		fail("no bundle was sent")
	} else if rc, err := ec.TransactionReceipt(ctx, bundleTx.Hash()); err != nil {
		fail("the eth_sendBundle transaction %s did not land: %v", bundleTx.Hash(), err)
	} else {
		bundleLanded = rc.Status == types.ReceiptStatusSuccessful
		step(fmt.Sprintf("eth_sendBundle transaction landed in block %d (targeted %d), index %d", rc.BlockNumber, bundleBlock, rc.TransactionIndex))
		if rc.BlockNumber.Uint64() != bundleBlock {
			fail("the bundle landed in block %d, it targeted %d", rc.BlockNumber, bundleBlock)
		}
	}

	betaFig, betaProblems := r.beta.checkBeta(ctx, ec, rpcURL, mevURL, restURL, r.betaClock)
	problems = append(problems, betaProblems...)

	lat := r.calls.latencies("GET", "/eth/v1/builder/header/")
	slots := int(to - from + 1)
	fmt.Printf("\nfigures (%s preset, slots %d..%d, %d epochs of %d slots, 2 s each):\n", r.preset, from, to, slots/int(r.slotsPerEpoch()), r.slotsPerEpoch())
	fmt.Printf("  slots                      %d\n", slots)
	fmt.Printf("  blocks proposed            %d (missed slots %d)\n", proposed, missed)
	fmt.Printf("  getHeader asked / bids     %d / %d\n", asked, bidsServed)
	fmt.Printf("  payloads returned          %d (blocks delivered in the data API over the run: %d)\n", payloads, len(delivered))
	fmt.Printf("  validators registered      %d of %d, %d signed before genesis", registered, len(vals.Data), preGenesis)
	if preGenesis == 0 && r.genesisDelay > 0 {
		fmt.Printf(" (Lodestar's validators started after genesis: a loaded machine boots it slower than -genesisdelay %s)", r.genesisDelay)
	}
	fmt.Println()
	fmt.Printf("  getHeader latency          p50 %s, p95 %s, p99 %s, max %s (%d calls, measured at a loopback proxy in front of gavel)\n",
		pct(lat, 50), pct(lat, 95), pct(lat, 99), pct(lat, 100), len(lat))
	r.printHeaderWaits()
	if bidsServed > 0 {
		fmt.Printf("  bid ready before the ask   %d of %d slots (%.0f %%)\n", readyFirst, bidsServed, 100*float64(readyFirst)/float64(bidsServed))
	}
	fmt.Printf("  eth_sendBundle tx landed   %v\n", bundleLanded)
	betaFig.print()
	fmt.Printf("  before the window          slots 1..%d: Lodestar's builder circuit breaker and its once-an-epoch registrations\n", from-1)
	if len(problems) > 0 {
		return fmt.Errorf("%d problems:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	return nil
}

// firstSubmission is when gavel's relay first received a submission for
// slot (unix ms), 0 if it lists none.
func (r *run) firstSubmission(ctx context.Context, mevURL string, slot uint64) int64 {
	var subs []struct {
		TimestampMs string `json:"timestamp_ms"`
	}
	if getJSON(ctx, fmt.Sprintf("%s/relay/v1/data/bidtraces/builder_blocks_received?slot=%d", mevURL, slot), &subs) != nil {
		return 0
	}
	var first int64
	for _, s := range subs {
		if ms, err := strconv.ParseInt(s.TimestampMs, 10, 64); err == nil && (first == 0 || ms < first) {
			first = ms
		}
	}
	return first
}

// installLodestar installs Lodestar 1.5.1 into .cache unless the cached
// install matches lodestar/package.json, and returns its entry point.
func (r *run) installLodestar(ctx context.Context) (string, error) {
	cache := filepath.Join(r.here, ".cache")
	entry := filepath.Join(cache, "node_modules", "@chainsafe", "lodestar", "lib", "index.js")
	want, err := os.ReadFile(filepath.Join(r.here, "lodestar", "package.json"))
	if err != nil {
		return "", err
	}
	have, _ := os.ReadFile(filepath.Join(cache, "package.json"))
	if _, err := os.Stat(entry); err == nil && bytes.Equal(want, have) {
		step("Lodestar 1.5.1: cached in " + cache)
		return entry, nil
	}
	step("installing Lodestar 1.5.1 from npm into " + cache + " (about 2 minutes, once)")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	os.Remove(filepath.Join(cache, "package-lock.json"))
	if err := os.WriteFile(filepath.Join(cache, "package.json"), want, 0o644); err != nil {
		return "", err
	}
	ictx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	out, err := command(ictx, cache, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error").CombinedOutput()
	if err != nil {
		// Not a usable cache, and not one to resume: npm takes the packages
		// an interrupted install unpacked as installed, native builds
		// (snappy) left half done included.
		os.Remove(filepath.Join(cache, "package.json"))
		os.RemoveAll(filepath.Join(cache, "node_modules"))
		return "", fmt.Errorf("npm install: %v\n%s", err, out)
	}
	return entry, nil
}

// start runs a process in its own process group, its output in work/logName.
func (r *run) start(ctx context.Context, logName string, env []string, name string, args ...string) error {
	_, err := r.startCmd(logName, env, name, args...)
	return err
}

// startCmd is start returning the process, for a run that stops one
// process before the others.
func (r *run) startCmd(logName string, env []string, name string, args ...string) (*exec.Cmd, error) {
	f, err := os.Create(filepath.Join(r.work, logName))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr, cmd.Env = r.work, f, f, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	r.mu.Lock()
	r.procs = append(r.procs, cmd)
	r.mu.Unlock()
	go func() { cmd.Wait(); f.Close() }()
	return cmd, nil
}

// stopAll stops the processes it started, newest first: SIGTERM to each
// process group, a second SIGTERM after 5 s, SIGKILL after 30 s.
func (r *run) stopAll() {
	r.mu.Lock()
	procs := slices.Clone(r.procs)
	r.mu.Unlock()
	slices.Reverse(procs)
	for _, cmd := range procs {
		stopProc(cmd)
	}
	for _, f := range slices.Backward(r.cleanups) {
		f()
	}
}

// stopProc stops one process group: SIGTERM, a second SIGTERM after 5 s,
// SIGKILL after 30 s.
func stopProc(cmd *exec.Cmd) {
	pgid := cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		for cmd.ProcessState == nil {
			if err := syscall.Kill(-pgid, 0); err != nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		close(done)
	}()
	// Lodestar stops "gracefully" on the first signal, which can take
	// more than 30 s, and exits at once on a second one.
	again := time.NewTimer(5 * time.Second)
	select {
	case <-done:
	case <-again.C:
		syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(25 * time.Second):
			fmt.Fprintf(os.Stderr, "interop: %s did not stop in 30 s: killed\n", filepath.Base(cmd.Path))
			syscall.Kill(-pgid, syscall.SIGKILL)
		}
	}
	again.Stop()
}

// callLog records what Lodestar asked gavel through the proxy.
type callLog struct {
	mu    sync.Mutex
	calls []*call
}

type call struct {
	method, path string
	at           time.Time
	took         time.Duration
	status       int
	body         []byte // blinded blocks: the request body
}

func (l *callLog) add(c *call) { l.mu.Lock(); l.calls = append(l.calls, c); l.mu.Unlock() }

func (l *callLog) find(method, prefix string) *call {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.calls {
		if c.method == method && strings.HasPrefix(c.path, prefix) {
			return c
		}
	}
	return nil
}

// findBlinded returns the getPayload call whose signed blinded block is for slot.
func (l *callLog) findBlinded(slot uint64) *call {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.calls {
		var b struct {
			Message struct {
				Slot string `json:"slot"`
			} `json:"message"`
		}
		if c.method == "POST" && strings.Contains(c.path, "blinded_blocks") && json.Unmarshal(c.body, &b) == nil && b.Message.Slot == strconv.FormatUint(slot, 10) {
			return c
		}
	}
	return nil
}

// firstHeaderSlotAfter is the slot of the first getHeader for a slot after
// slot.
func (l *callLog) firstHeaderSlotAfter(slot uint64) (uint64, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.calls {
		if c.method != "GET" || !strings.HasPrefix(c.path, "/eth/v1/builder/header/") {
			continue
		}
		s, err := strconv.ParseUint(strings.Split(strings.TrimPrefix(c.path, "/eth/v1/builder/header/"), "/")[0], 10, 64)
		if err == nil && s > slot {
			return s, true
		}
	}
	return 0, false
}

// registrations counts the validators whose registration gavel stored.
func (r *run) registrations(ctx context.Context, mevURL, restURL string) int {
	var vals struct {
		Data []struct {
			Validator struct {
				Pubkey string `json:"pubkey"`
			} `json:"validator"`
		} `json:"data"`
	}
	if getJSON(ctx, restURL+"/eth/v1/beacon/states/head/validators", &vals) != nil {
		return 0
	}
	n := 0
	for _, v := range vals.Data {
		if code, _ := get(ctx, mevURL+"/relay/v1/data/validator_registration?pubkey="+v.Validator.Pubkey); code == 200 {
			n++
		}
	}
	return n
}

func (l *callLog) latencies(method, prefix string) []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []time.Duration
	for _, c := range l.calls {
		if c.method == method && strings.HasPrefix(c.path, prefix) {
			out = append(out, c.took)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// beaconBlock is what the harness reads of a beacon node's
// /eth/v2/beacon/blocks/{slot}: the proposer and the execution payload.
type beaconBlock struct {
	Data struct {
		Message struct {
			ProposerIndex string `json:"proposer_index"`
			Body          struct {
				ExecutionPayload struct {
					BlockHash   string `json:"block_hash"`
					BlockNumber string `json:"block_number"`
				} `json:"execution_payload"`
			} `json:"body"`
		} `json:"message"`
	} `json:"data"`
}

// startProxy serves Lodestar's builder URL and forwards to gavel's MEV
// listener, recording each call and how long gavel took.
func (r *run) startProxy(target string) (*http.Server, error) {
	u, _ := url.Parse(target)
	rp := httputil.NewSingleHostReverseProxy(u)
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", r.ports.proxy))
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		c := &call{method: req.Method, path: req.URL.Path, at: time.Now()}
		if req.Method == "POST" && strings.Contains(req.URL.Path, "blinded_blocks") {
			c.body, _ = io.ReadAll(req.Body)
			req.Body = io.NopCloser(bytes.NewReader(c.body))
		}
		rec := &statusRecorder{ResponseWriter: w, status: 200}
		rp.ServeHTTP(rec, req)
		c.took, c.status = time.Since(c.at), rec.status
		r.calls.add(c)
	})}
	go srv.Serve(ln)
	return srv, nil
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) { s.status = code; s.ResponseWriter.WriteHeader(code) }

func step(msg string) { fmt.Printf("interop %s  %s\n", time.Now().Format("15:04:05"), msg) }

func command(ctx context.Context, dir, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	return cmd
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func waitFor(ctx context.Context, limit time.Duration, what string, f func() error) error {
	end := time.Now().Add(limit)
	for {
		err := f()
		if err == nil {
			return nil
		}
		if time.Now().After(end) {
			return fmt.Errorf("%s not up after %v: %v", what, limit, err)
		}
		if err := sleep(ctx, 500*time.Millisecond); err != nil {
			return err
		}
	}
}

var httpClient = &http.Client{Timeout: 10 * time.Second}

func get(ctx context.Context, u string) (int, string) {
	req, _ := http.NewRequestWithContext(ctx, "GET", u, nil)
	req.Header.Set("Accept", "application/json")
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	return resp.StatusCode, string(b)
}

func getJSON(ctx context.Context, u string, v any) error {
	code, body := get(ctx, u)
	if code != 200 {
		return fmt.Errorf("GET %s: %d %.300s", u, code, body)
	}
	return json.Unmarshal([]byte(body), v)
}

func rpcCall(ctx context.Context, u, method string, params any, result any) error {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequestWithContext(ctx, "POST", u, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return fmt.Errorf("%s: HTTP %d: %v", method, resp.StatusCode, err)
	}
	if out.Error != nil {
		return errors.New(out.Error.Message)
	}
	return json.Unmarshal(out.Result, result)
}

func pct(sorted []time.Duration, p int) string {
	if len(sorted) == 0 {
		return "n/a"
	}
	i := (len(sorted)*p + 99) / 100
	i = min(max(i-1, 0), len(sorted)-1)
	return sorted[i].Round(10 * time.Microsecond).String()
}

func tail(path string, n int) {
	f, err := os.Open(path)
	if err != nil {
		return
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	fmt.Fprintf(os.Stderr, "--- last %d lines of %s\n%s\n", len(lines), path, strings.Join(lines, "\n"))
}
