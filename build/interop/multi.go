package main

// -relays 2: the production topology of the README's multi-instance
// template on a devnet. Two gavel nodes (execution client, relay, builder),
// each the execution client of its own Lodestar beacon node: beacon node A
// runs the 8 validators, beacon node B starts from A's genesis state with no
// validators and peers with A (discv5 bootnode ENR, dialled directly); the
// gavel nodes are static devp2p peers, so the transfers the run sends to A
// reach B's builder too. A restarted gavel B catches up through its beacon
// node, which hands it the blocks it missed. Both relays share one PostgreSQL (build/pg/start.sh) and
// the relay key. HAProxy (build/haproxy/install.sh) round-robins every
// request across the two relays: it is Lodestar's builder URL and both
// builders' --builder.relays. Its request log (server, status, method, path)
// is what the run counts per instance.
//
// The run: two epochs with both instances, then gavel B stopped for an
// epoch (A serves alone), then B started again until it is ready and has
// served for an epoch. Every slot of the window must have its block, a bid
// served by getHeader, its payload returned by getPayload and exactly one
// delivery record whose block is the beacon block's; both instances must
// serve the proposer in the first phase, only A in the second, and B again
// in the last.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/p2p/enode"
	gparams "github.com/ethereum/go-ethereum/params"
)

// multiSlotSeconds is the slot time of the -relays 2 devnet
// (lodestar/chain-config-minimal-4s.yaml): two gavel nodes and two beacon
// nodes on one machine made 2 s slots miss blocks at load.
const multiSlotSeconds = 4

// multiPresetArgs are the `lodestar dev` arguments of the -relays 2 devnet:
// the minimal preset with 4 s slots.
func multiPresetArgs(here string) []string {
	return []string{"--preset", presetMinimal, "--paramsFile", filepath.Join(here, "lodestar", "chain-config-minimal-4s.yaml")}
}

// builderKeyB is instance B's builder BLS key: a second builder, so that
// neither builder's bids cancel the other's.
const builderKeyB = "0x1c2d3e4f5061728394a5b6c7d8e9fa021c2d3e4f5061728394a5b6c7d8e9fa02"

// instance is one gavel node with its Lodestar beacon node.
type instance struct {
	name                                   string // "a" or "b"
	auth, http, mev, rest, p2p, cl, metric int    // ports
	nodeKey                                *ecdsa.PrivateKey
	args                                   []string // gavel's command line
	gavel                                  *exec.Cmd
}

func (in *instance) mevURL() string  { return fmt.Sprintf("http://127.0.0.1:%d", in.mev) }
func (in *instance) restURL() string { return fmt.Sprintf("http://127.0.0.1:%d", in.rest) }
func (in *instance) rpcURL() string  { return fmt.Sprintf("http://127.0.0.1:%d", in.http) }
func (in *instance) enode() string {
	return enode.NewV4(&in.nodeKey.PublicKey, []byte{127, 0, 0, 1}, in.p2p, in.p2p).URLv4()
}

// phase is a stretch of the run's window: slots from..to (inclusive), and
// which instances must or must not serve the proposer in it.
type phase struct {
	name     string
	from, to uint64
	need     []string // instances that must serve a getHeader or getPayload
	none     []string // instances that must serve nothing
}

func (r *run) mainMulti(ctx context.Context) error {
	wd, err := r.locate("build/interop/run.sh -relays 2")
	if err != nil {
		return err
	}
	hosts, err := readTemplate(filepath.Join(wd, "README.md"))
	if err != nil {
		return err
	}
	if r.work, err = os.MkdirTemp("", "gavel-interop2-"); err != nil {
		return err
	}
	lodestar, err := r.installLodestar(ctx)
	if err != nil {
		return err
	}
	step("HAProxy from the distribution (build/haproxy/install.sh)")
	out, err := command(ctx, wd, filepath.Join(wd, "build", "haproxy", "install.sh")).Output()
	if err != nil {
		return fmt.Errorf("build/haproxy/install.sh: %w", err)
	}
	haproxy := strings.TrimSpace(string(out))
	step("PostgreSQL for both relays (build/pg/start.sh)")
	out, err = command(ctx, wd, filepath.Join(wd, "build", "pg", "start.sh")).Output()
	if err != nil {
		return fmt.Errorf("build/pg/start.sh: %w", err)
	}
	m := regexp.MustCompile(`GAVEL_TEST_POSTGRES='([^']+)'[\s\S]*GAVEL_PG_DIR='([^']+)'`).FindSubmatch(out)
	if m == nil {
		return fmt.Errorf("build/pg/start.sh printed no database URL:\n%s", out)
	}
	dbURL, pgDir := string(m[1]), string(m[2])
	r.cleanups = append(r.cleanups, func() { exec.Command(filepath.Join(wd, "build", "pg", "stop.sh"), pgDir).Run() })

	gavel := filepath.Join(r.work, "gavel")
	step("building gavel")
	if err := command(ctx, wd, "go", "build", "-o", gavel, "./cmd/gavel").Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	lbPort, err := freePort()
	if err != nil {
		return err
	}
	lbURL := fmt.Sprintf("http://127.0.0.1:%d", lbPort)
	jwt := filepath.Join(r.work, "jwt.hex")
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return err
	}
	if err := os.WriteFile(jwt, []byte(hex.EncodeToString(secret)), 0o600); err != nil {
		return err
	}
	insts, genesisHash, err := r.setupInstances(ctx, gavel, hosts, dbURL, jwt, lbURL)
	if err != nil {
		return err
	}
	for _, in := range insts {
		step(fmt.Sprintf("starting gavel %s: %s", in.name, strings.Join(in.args[:10], " ")))
		if in.gavel, err = r.startCmd("gavel-"+in.name+".log", nil, gavel, in.args...); err != nil {
			return err
		}
		if err := waitFor(ctx, 90*time.Second, "gavel "+in.name+"'s JSON-RPC", func() error {
			ec, err := ethclient.DialContext(ctx, in.rpcURL())
			if err != nil {
				return err
			}
			defer ec.Close()
			_, err = ec.ChainID(ctx)
			return err
		}); err != nil {
			return err
		}
	}
	ec, err := ethclient.DialContext(ctx, insts[0].rpcURL())
	if err != nil {
		return err
	}

	lb, err := r.startHAProxy(ctx, haproxy, lbPort, insts)
	if err != nil {
		return err
	}

	a, b := insts[0], insts[1]
	if err := r.startBeaconNodes(ctx, lodestar, jwt, lbURL, genesisHash, a, b); err != nil {
		return err
	}
	genesisTime := r.genesisTime
	step("lodestar B peers with A")

	chainID := big.NewInt(32382)
	sender, _ := crypto.HexToECDSA(senderKey)
	signer := types.LatestSignerForChainID(chainID)
	nonce := uint64(0)
	spe := r.slotsPerEpoch()
	var (
		registered    bool
		regSlot       uint64
		firstAsked    uint64 // first slot of the window
		lastSlot      uint64
		phases        []phase
		propB         string // instance B's propagation figures before it stopped
		restarted     uint64 // slot B was started again
		rejoined      uint64 // slot B was ready again
		prepareFailed bool
	)
	deadline := time.Unix(genesisTime, 0).Add(time.Duration(spe*8+startupSlots) * multiSlotSeconds * time.Second)
	for {
		if time.Now().After(deadline) {
			return fmt.Errorf("the devnet did not get through its phases before %s (window from slot %d, phases %+v)", deadline.Format(time.TimeOnly), firstAsked, phases)
		}
		if err := sleep(ctx, untilPoll(genesisTime, multiSlotSeconds, time.Now())); err != nil {
			return err
		}
		slot := uint64(0)
		if now := time.Now().Unix(); now > genesisTime {
			slot = uint64(now-genesisTime) / multiSlotSeconds
		}
		if slot == lastSlot || slot == 0 {
			continue
		}
		lastSlot = slot
		// Beacon node B has no validators, so nothing tells it the proposers'
		// fee recipient and it sends gavel B no payload attributes: without
		// them gavel B's relay refuses submissions and its builder does not
		// build. The harness tells it, as a validator client tells its beacon
		// node (Lodestar keeps these for two epochs).
		if err := postJSON(ctx, b.restURL()+"/eth/v1/validator/prepare_beacon_proposer", prepareProposers()); err != nil && !prepareFailed {
			prepareFailed = true
			step(fmt.Sprintf("lodestar B refused prepare_beacon_proposer (gavel B gets no payload attributes while it does): %v", err))
		}
		if !registered {
			if registered = r.registrations(ctx, a.mevURL(), a.restURL()) == 8; registered {
				regSlot = slot
				step(fmt.Sprintf("all 8 validators' registrations stored (slot %d)", slot))
			}
		}
		if firstAsked == 0 && registered {
			lb.read()
			if s, ok := lb.firstHeaderSlotAfter(regSlot); ok {
				firstAsked = s
				phases = append(phases, phase{name: "both instances", from: s, to: s + 2*spe - 1, need: []string{"a", "b"}})
				step(fmt.Sprintf("Lodestar asked for its first header at slot %d: both instances serve slots %d..%d", s, s, s+2*spe-1))
			}
		}
		if err := ec.SendTransaction(ctx, types.MustSignNewTx(sender, signer, &types.DynamicFeeTx{ChainID: chainID, Nonce: nonce,
			GasTipCap: big.NewInt(gparams.GWei), GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000,
			To: &common.Address{0xbe, 0xef}, Value: big.NewInt(1)})); err != nil {
			return fmt.Errorf("eth_sendRawTransaction: %w", err)
		}
		nonce++
		switch {
		case len(phases) == 1 && slot >= phases[0].to:
			propB = propagation(ctx, b)
			step(fmt.Sprintf("stopping gavel B (slot %d): A serves alone", slot))
			stopProc(b.gavel)
			phases = append(phases, phase{name: "B stopped", from: slot + 1, to: slot + spe, none: []string{"b"}})
		case len(phases) == 2 && slot >= phases[1].to:
			step(fmt.Sprintf("starting gavel B again (slot %d)", slot))
			// At a lower CPU priority: on this one machine a starting gavel
			// (its KZG set-up, seconds of CPU) competes with Lodestar A and
			// gavel A for the proposer's path, which on separate hosts it
			// would not; at load average 19 A's getPayload then took 2.4 s
			// and Lodestar missed slots.
			if b.gavel, err = r.startCmd("gavel-b-restart.log", nil, "nice", append([]string{"-n", "10", gavel}, b.args...)...); err != nil {
				return err
			}
			restarted = slot
			phases = append(phases, phase{name: "B restarting", from: slot + 1, to: 0})
		case len(phases) == 3 && rejoined == 0:
			if code, _ := get(ctx, b.mevURL()+"/readyz"); code == 200 {
				rejoined = slot
				phases[2].to = slot + 1
				phases = append(phases, phase{name: "B rejoined", from: slot + 2, to: slot + 1 + spe, need: []string{"a", "b"}})
				step(fmt.Sprintf("gavel B ready again at slot %d (%d slots after its start); both serve slots %d..%d", slot, slot-restarted, slot+2, slot+1+spe))
			} else if slot > restarted+4*spe {
				return fmt.Errorf("gavel B did not become ready within 4 epochs of its restart (slot %d to %d)", restarted, slot)
			}
		}
		if len(phases) == 4 && slot > phases[3].to+1 {
			break
		}
	}
	return r.checkMulti(ctx, ec, insts, lb, phases, propB)
}

// setupInstances picks each instance's ports and p2p key, runs `gavel init`
// for each with the devnet's genesis and builds its command line: the
// README template's flags with the devnet's values, then what a devnet node
// needs besides. It returns the instances and the genesis block's hash.
func (r *run) setupInstances(ctx context.Context, gavel string, hosts [][]string, dbURL, jwt, lbURL string) ([]*instance, string, error) {
	insts := []*instance{{name: "a"}, {name: "b"}}
	var genesisHash string
	var err error
	for _, in := range insts {
		for _, p := range []*int{&in.auth, &in.http, &in.mev, &in.rest, &in.p2p, &in.cl, &in.metric} {
			if *p, err = freePort(); err != nil {
				return nil, "", err
			}
		}
		if in.nodeKey, err = crypto.GenerateKey(); err != nil {
			return nil, "", err
		}
		datadir := filepath.Join(r.work, "el-"+in.name)
		out, err := command(ctx, r.work, gavel, "init", "--datadir", datadir, filepath.Join(r.here, "lodestar", "el-genesis.json")).CombinedOutput()
		if err != nil {
			return nil, "", fmt.Errorf("gavel init %s: %v\n%s", in.name, err, out)
		}
		mm := regexp.MustCompile(`genesis (0x[0-9a-f]{64}) written`).FindSubmatch(out)
		if mm == nil {
			return nil, "", fmt.Errorf("gavel init did not print the genesis hash:\n%s", out)
		}
		genesisHash = string(mm[1])
	}
	for i, in := range insts {
		other := insts[1-i]
		// p2p on loopback only, no discovery: each node's one peer is the other.
		cfgFile := filepath.Join(r.work, "gavel-"+in.name+".toml")
		toml := fmt.Sprintf("[Node.P2P]\nListenAddr = \"127.0.0.1:%d\"\nMaxPeers = 4\nNoDiscovery = true\nDiscoveryV4 = false\nDiscoveryV5 = false\nStaticNodes = [%q]\n", in.p2p, other.enode())
		if err := os.WriteFile(cfgFile, []byte(toml), 0o600); err != nil {
			return nil, "", err
		}
		relayArgs, err := instanceArgs(hosts[i], templateValues{
			datadir: filepath.Join(r.work, "el-"+in.name), relayKey: relayKey, beaconURL: in.restURL(),
			storeURL: dbURL, mevAddr: fmt.Sprintf("127.0.0.1:%d", in.mev),
		})
		if err != nil {
			return nil, "", fmt.Errorf("README template: %w", err)
		}
		bkey := builderKey
		if in.name == "b" {
			bkey = builderKeyB
		}
		// The README template's flags, then what a devnet node needs besides:
		// its engine API, JSON-RPC, p2p key, full sync (no snap peers on a
		// devnet), metrics, and the builder submitting through the load balancer.
		in.args = append(relayArgs, "--config", cfgFile, "--nodekeyhex", hex.EncodeToString(crypto.FromECDSA(in.nodeKey)),
			"--verbosity", gavelVerbosity, "--ipcdisable", "--syncmode", "full",
			"--authrpc.addr", "127.0.0.1", "--authrpc.port", strconv.Itoa(in.auth), "--authrpc.jwtsecret", jwt,
			"--http", "--http.addr", "127.0.0.1", "--http.port", strconv.Itoa(in.http), "--http.api", "eth,net,web3,mev",
			"--metrics", "--metrics.addr", "127.0.0.1", "--metrics.port", strconv.Itoa(in.metric),
			"--builder", "--builder.secretkey", bkey, "--builder.coinbasekey", coinbaseKey, "--builder.relays", lbURL)
	}
	return insts, genesisHash, nil
}

// startHAProxy starts the load balancer in front of the instances' MEV
// listeners, its request log in the work directory.
func (r *run) startHAProxy(ctx context.Context, haproxy string, port int, insts []*instance) (*lbLog, error) {
	step(fmt.Sprintf("starting HAProxy round-robin over both relays at http://127.0.0.1:%d", port))
	cfg := filepath.Join(r.work, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(haproxyConfig(port, insts)), 0o600); err != nil {
		return nil, err
	}
	if out, err := command(ctx, r.work, haproxy, "-c", "-f", cfg).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("haproxy -c refused its configuration: %v\n%s", err, out)
	}
	if err := r.start(ctx, "haproxy.log", nil, haproxy, "-db", "-f", cfg); err != nil {
		return nil, err
	}
	return &lbLog{file: filepath.Join(r.work, "haproxy.log")}, nil
}

// startBeaconNodes starts Lodestar A with the validators, its builder URL
// the load balancer, and Lodestar B from A's genesis state with A as its
// bootnode, and waits until both relays are ready and B peers with A.
func (r *run) startBeaconNodes(ctx context.Context, lodestar, jwt, lbURL, genesisHash string, a, b *instance) error {
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LODESTAR_") {
			env = append(env, kv)
		}
	}
	genesisTime := time.Now().Add(r.genesisDelay).Unix()
	r.genesisTime = genesisTime
	step(fmt.Sprintf("starting lodestar A (8 validators, builder URL %s; genesis in %s, at %d)", lbURL, r.genesisDelay, genesisTime))
	if err := r.start(ctx, "lodestar-a.log", env, "node", append(append([]string{lodestar, "dev"}, multiPresetArgs(r.here)...),
		"--genesisValidators", "8", "--startValidators", "0..7",
		"--genesisTime", strconv.FormatInt(genesisTime, 10), "--genesisEth1Hash", genesisHash,
		"--execution.urls", fmt.Sprintf("http://127.0.0.1:%d", a.auth), "--jwt-secret", jwt,
		"--dataDir", filepath.Join(r.work, "cl-a"),
		"--rest.address", "127.0.0.1", "--rest.port", strconv.Itoa(a.rest), "--server", a.restURL(),
		"--listenAddress", "127.0.0.1", "--port", strconv.Itoa(a.cl),
		"--enr.ip", "127.0.0.1", "--enr.tcp", strconv.Itoa(a.cl), "--enr.udp", strconv.Itoa(a.cl),
		"--suggestedFeeRecipient", feeRecipient,
		"--builder", "--builder.urls", lbURL,
	)...); err != nil {
		return err
	}
	// lodestar dev writes the genesis state it made to genesis.ssz in its
	// working directory; B starts from that file and A's ENR.
	var enr string
	if err := waitFor(ctx, r.genesisDelay+60*time.Second, "lodestar A's identity", func() error {
		var id struct {
			Data struct {
				ENR string `json:"enr"`
			} `json:"data"`
		}
		if err := getJSON(ctx, a.restURL()+"/eth/v1/node/identity", &id); err != nil {
			return err
		}
		if _, err := os.Stat(filepath.Join(r.work, "genesis.ssz")); err != nil {
			return err
		}
		enr = id.Data.ENR
		return nil
	}); err != nil {
		return err
	}
	genesisState := filepath.Join(r.work, "genesis-a.ssz")
	if st, err := os.ReadFile(filepath.Join(r.work, "genesis.ssz")); err != nil {
		return err
	} else if err := os.WriteFile(genesisState, st, 0o644); err != nil {
		return err
	}
	step("starting lodestar B (no validators, A's genesis state, A as its bootnode)")
	if err := r.start(ctx, "lodestar-b.log", env, "node", append(append([]string{lodestar, "dev"}, multiPresetArgs(r.here)...),
		"--genesisStateFile", genesisState,
		"--execution.urls", fmt.Sprintf("http://127.0.0.1:%d", b.auth), "--jwt-secret", jwt,
		"--dataDir", filepath.Join(r.work, "cl-b"),
		"--rest.address", "127.0.0.1", "--rest.port", strconv.Itoa(b.rest),
		"--listenAddress", "127.0.0.1", "--port", strconv.Itoa(b.cl),
		"--enr.ip", "127.0.0.1", "--enr.tcp", strconv.Itoa(b.cl), "--enr.udp", strconv.Itoa(b.cl),
		"--bootnodes", enr, "--network.connectToDiscv5Bootnodes",
	)...); err != nil {
		return err
	}
	for _, in := range []*instance{a, b} {
		if err := waitFor(ctx, r.genesisDelay+90*time.Second, "relay "+in.name+" (/readyz)", func() error {
			if code, body := get(ctx, in.mevURL()+"/readyz"); code != 200 {
				return fmt.Errorf("%d %s", code, body)
			}
			return nil
		}); err != nil {
			return err
		}
	}
	step("both relays ready")
	if err := waitFor(ctx, 60*time.Second, "lodestar B peering with A", func() error {
		var pc struct {
			Data struct {
				Connected string `json:"connected"`
			} `json:"data"`
		}
		if err := getJSON(ctx, b.restURL()+"/eth/v1/node/peer_count", &pc); err != nil {
			return err
		}
		if pc.Data.Connected == "0" || pc.Data.Connected == "" {
			return fmt.Errorf("%s peers", pc.Data.Connected)
		}
		return nil
	}); err != nil {
		return err
	}
	return nil
}

// haproxyConfig is the load balancer: round-robin over the relays that
// answer /readyz, a request to one that cannot be reached retried on the
// other, and one log line per request naming the instance that served it.
func haproxyConfig(port int, insts []*instance) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, `global
    log stdout format raw local0
    maxconn 2000

defaults
    mode http
    log global
    option httplog
    timeout connect 2s
    timeout client 30s
    timeout server 30s
    retries 3
    option redispatch 1

frontend relay
    bind 127.0.0.1:%d
    log-format "req %%s %%ST %%HM %%HU"
    default_backend relays

backend relays
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 1s fall 2 rise 2
`, port)
	for _, in := range insts {
		fmt.Fprintf(&sb, "    server %s 127.0.0.1:%d check\n", in.name, in.mev)
	}
	return sb.String()
}

// lbLog is HAProxy's request log: which instance served each request.
type lbLog struct {
	file string
	reqs []lbReq
}

type lbReq struct {
	server, method, path string
	status               int
}

var lbLine = regexp.MustCompile(`^req (\S+) (-?\d+) (\S+) (\S+)`)

// read re-reads the whole log (it is small: a few requests a slot).
func (l *lbLog) read() {
	f, err := os.Open(l.file)
	if err != nil {
		return
	}
	defer f.Close()
	l.reqs = l.reqs[:0]
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		m := lbLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		st, _ := strconv.Atoi(m[2])
		l.reqs = append(l.reqs, lbReq{server: m[1], status: st, method: m[3], path: m[4]})
	}
}

func headerSlot(path string) (uint64, bool) {
	rest, ok := strings.CutPrefix(path, "/eth/v1/builder/header/")
	if !ok {
		return 0, false
	}
	s, err := strconv.ParseUint(strings.Split(rest, "/")[0], 10, 64)
	return s, err == nil
}

func (l *lbLog) firstHeaderSlotAfter(slot uint64) (uint64, bool) {
	for _, q := range l.reqs {
		if s, ok := headerSlot(q.path); ok && q.method == "GET" && s > slot {
			return s, true
		}
	}
	return 0, false
}

// served is what the proposer got for one slot through the load balancer.
type served struct {
	headers  []lbReq // getHeader calls for the slot
	payloads []lbReq // getPayload calls after them, before the next slot's getHeader
}

// bySlot groups the proposer's getHeader and getPayload requests by slot:
// Lodestar sends a slot's signed blinded block after that slot's getHeader
// and before the next one's.
func (l *lbLog) bySlot() map[uint64]*served {
	out := map[uint64]*served{}
	var cur *served
	for _, q := range l.reqs {
		if s, ok := headerSlot(q.path); ok && q.method == "GET" {
			if out[s] == nil {
				out[s] = &served{}
			}
			cur = out[s]
			cur.headers = append(cur.headers, q)
		} else if q.method == "POST" && strings.HasPrefix(q.path, "/eth/v1/builder/blinded_blocks") && cur != nil {
			cur.payloads = append(cur.payloads, q)
		}
	}
	return out
}

// propagation is an instance's shared-bid propagation timer (a bid stored
// by the other instance until it is in this one's auction), from its
// Prometheus metrics: "p50 X, p99 Y (n bids)".
func propagation(ctx context.Context, in *instance) string {
	code, body := get(ctx, fmt.Sprintf("http://127.0.0.1:%d/debug/metrics/prometheus", in.metric))
	if code != 200 {
		return fmt.Sprintf("metrics unavailable (%d)", code)
	}
	q := map[string]string{}
	count := "0"
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, "gavel_relay_shared_propagation_count "); ok {
			count = strings.TrimSpace(v)
		}
		if m := regexp.MustCompile(`^gavel_relay_shared_propagation ?\{quantile="([0-9.]+)"\} (\S+)`).FindStringSubmatch(line); m != nil {
			q[m[1]] = m[2]
		}
	}
	dur := func(s string) string {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return "n/a"
		}
		return time.Duration(f).Round(10 * time.Microsecond).String()
	}
	return fmt.Sprintf("p50 %s, p99 %s (%s bids from the other instance)", dur(q["0.5"]), dur(q["0.99"]), count)
}

// checkMulti checks every slot of the phases and prints the figures.
func (r *run) checkMulti(ctx context.Context, ec *ethclient.Client, insts []*instance, lb *lbLog, phases []phase, propB string) error {
	a := insts[0]
	lb.read()
	step(fmt.Sprintf("checking slots %d..%d", phases[0].from, phases[len(phases)-1].to))
	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	var delivered []struct {
		Slot      string `json:"slot"`
		BlockHash string `json:"block_hash"`
	}
	if err := getJSON(ctx, a.mevURL()+"/relay/v1/data/bidtraces/proposer_payload_delivered?limit=200", &delivered); err != nil {
		return fmt.Errorf("data API: %w", err)
	}
	deliveries := map[uint64][]string{}
	for _, d := range delivered {
		s, _ := strconv.ParseUint(d.Slot, 10, 64)
		deliveries[s] = append(deliveries[s], strings.ToLower(d.BlockHash))
	}
	slots := lb.bySlot()
	type counts struct{ asks, bids, payloads int }
	perPhase := make([]map[string]*counts, len(phases))
	cross := 0
	for i, ph := range phases {
		perPhase[i] = map[string]*counts{"a": {}, "b": {}}
		for slot := ph.from; slot <= ph.to; slot++ {
			var blk beaconBlock
			code, body := get(ctx, fmt.Sprintf("%s/eth/v2/beacon/blocks/%d", a.restURL(), slot))
			if code == 404 {
				fail("slot %d (%s): no block (missed)", slot, ph.name)
				continue
			}
			if code != 200 || json.Unmarshal([]byte(body), &blk) != nil {
				return fmt.Errorf("lodestar block %d: %d %.200s", slot, code, body)
			}
			hash := strings.ToLower(blk.Data.Message.Body.ExecutionPayload.BlockHash)
			sv := slots[slot]
			if sv == nil {
				fail("slot %d (%s): Lodestar proposed without asking the load balancer for a header", slot, ph.name)
				continue
			}
			var bidBy, payBy string
			for _, h := range sv.headers {
				if c := perPhase[i][h.server]; c != nil {
					c.asks++
					if h.status == 200 {
						c.bids++
						bidBy = h.server
					}
				}
			}
			for _, p := range sv.payloads {
				if c := perPhase[i][p.server]; c != nil && p.status == 200 {
					c.payloads++
					payBy = p.server
				}
			}
			switch {
			case bidBy == "":
				fail("slot %d (%s): no getHeader answered with a bid (%v)", slot, ph.name, sv.headers)
			case payBy == "":
				fail("slot %d (%s): no payload returned for the signed blinded block (%v)", slot, ph.name, sv.payloads)
			case bidBy != payBy:
				cross++
			}
			if d := deliveries[slot]; len(d) != 1 {
				fail("slot %d (%s): %d delivery records in the data API, want exactly 1", slot, ph.name, len(d))
			} else if d[0] != hash {
				fail("slot %d (%s): beacon block's payload %s, data API delivered %s", slot, ph.name, hash, d[0])
			}
			number, _ := strconv.ParseUint(blk.Data.Message.Body.ExecutionPayload.BlockNumber, 10, 64)
			if h, err := ec.HeaderByNumber(ctx, new(big.Int).SetUint64(number)); err != nil || strings.ToLower(h.Hash().Hex()) != hash {
				fail("slot %d (%s): gavel A's block %d is not the beacon chain's %s (%v)", slot, ph.name, number, hash, err)
			}
		}
		for _, n := range ph.need {
			if c := perPhase[i][n]; c.bids+c.payloads == 0 {
				fail("%s (slots %d..%d): instance %s served the proposer no bid and no payload", ph.name, ph.from, ph.to, n)
			}
		}
		for _, n := range ph.none {
			if c := perPhase[i][n]; c.asks+c.payloads > 0 {
				fail("%s (slots %d..%d): the stopped instance %s served %d asks and %d payloads", ph.name, ph.from, ph.to, n, c.asks, c.payloads)
			}
		}
	}
	// gavel B caught up with the chain after its restart.
	if ecb, err := ethclient.DialContext(ctx, insts[1].rpcURL()); err == nil {
		hb, errb := ecb.BlockNumber(ctx)
		ha, erra := ec.BlockNumber(ctx)
		if errb != nil || erra != nil || hb+2 < ha {
			fail("gavel B is at block %d (%v), A at %d (%v): B did not catch up", hb, errb, ha, erra)
		}
		ecb.Close()
	}
	subs := map[string]int{}
	for _, q := range lb.reqs {
		if q.method == "POST" && strings.HasPrefix(q.path, "/relay/v1/builder/blocks") && q.status/100 == 2 {
			subs[q.server]++
		}
	}
	fmt.Printf("\nfigures (-relays 2, minimal preset, %d s slots; per instance, from HAProxy's request log):\n", multiSlotSeconds)
	fmt.Printf("  %-16s %-9s %-22s %-22s\n", "phase", "slots", "instance a asks/bids/payloads", "instance b asks/bids/payloads")
	for i, ph := range phases {
		ca, cb := perPhase[i]["a"], perPhase[i]["b"]
		fmt.Printf("  %-16s %3d..%-4d %5d / %3d / %3d             %5d / %3d / %3d\n", ph.name, ph.from, ph.to, ca.asks, ca.bids, ca.payloads, cb.asks, cb.bids, cb.payloads)
	}
	fmt.Printf("  slots whose getHeader and getPayload went to different instances: %d\n", cross)
	fmt.Printf("  builder submissions through the load balancer: a %d, b %d (each builder also submits to its own relay)\n", subs["a"], subs["b"])
	// gavel/relay/shared/propagation: from the verifying instance storing a
	// bid to this instance holding it in its auction. Bids an instance
	// verified itself (a builder's submission reached both) are not in it.
	fmt.Printf("  bid verified on A, in B's auction (B's propagation timer before B stopped): %s\n", propB)
	fmt.Printf("  bid verified on B, in A's auction (A's propagation timer, whole run):      %s\n", propagation(ctx, a))
	fmt.Printf("  B's propagation timer since its restart (with the bids it caught up on at start, stored while it was down): %s\n", propagation(ctx, insts[1]))
	if len(problems) > 0 {
		return fmt.Errorf("%d problems:\n  %s", len(problems), strings.Join(problems, "\n  "))
	}
	return nil
}

// prepareProposers is the body of prepare_beacon_proposer for the devnet's
// 8 validators: each one's fee recipient, as Lodestar A's validator client
// registers it.
func prepareProposers() []map[string]string {
	var out []map[string]string
	for i := 0; i < 8; i++ {
		out = append(out, map[string]string{"validator_index": strconv.Itoa(i), "fee_recipient": feeRecipient})
	}
	return out
}

func postJSON(ctx context.Context, u string, v any) error {
	body, _ := json.Marshal(v)
	req, _ := http.NewRequestWithContext(ctx, "POST", u, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("POST %s: %d %s", u, resp.StatusCode, b)
	}
	return nil
}
