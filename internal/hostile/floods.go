package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/gorilla/websocket"

	"github.com/gavel-eth/gavel/params"
)

// The floods of issue 25: requests the listeners admit whose work (bundle
// simulation, EVM calls, database reads, subscriptions) competes with the
// node's own slots. Each runs -conns clients for -hold; measure counts the
// dev node's missed slots beside the honest probes.
var (
	bundleTxs = flag.Int("bundletxs", 100, "callbundle, estimatebundle, rpccallbundle, gethcallbundle: transactions per bundle")
	bundleGas = flag.Uint64("bundlegas", 0, "callbundle, estimatebundle, rpccallbundle, gethcallbundle: 0 for transfers, else each transaction is a contract creation looping until it has used this gas")
	loopGas   = flag.Uint64("loopgas", 50_000_000, "ethcall: gas of each eth_call, an infinite loop put in place by a state override")
	dataRate  = flag.Int("rate", 1000, "dataapi: builder_blocks_received requests per second, all clients together")
	dataRows  = flag.Int("datarows", 175, "dataapi: bids of one builder key stored before the run, the rows of each answer")
	wsURL     = flag.String("ws", "ws://127.0.0.1:19464", "websockets: geth's WebSocket endpoint of the target (gavel --ws)")
	wsSubs    = flag.Int("subs", 100, "websockets: newHeads subscriptions per connection, never read")
	period    = flag.Duration("period", 2*time.Second, "the target's --dev.period, to count its missed slots")
)

// floods are the attacks of this file by name.
var floods = map[string]func() map[string]int{
	"callbundle":     func() map[string]int { return floodBundleSims(restBundle(*target + "/eth_callBundle")) },
	"estimatebundle": func() map[string]int { return floodBundleSims(restBundle(*target + "/eth_estimateGasBundle")) },
	"rpccallbundle":  func() map[string]int { return floodBundleSims(rpcBundle(*target)) },
	"gethcallbundle": func() map[string]int { return floodBundleSims(rpcBundle(*rpcURL)) },
	"ethcall":        floodEthCall,
	"dataapi":        floodDataAPI,
	"websockets":     floodWebSockets,
	"headers":        floodHeaders,
	// idle is no attack: the control run, the node's own growth and the
	// probes' noise over the same phases.
	"idle": func() map[string]int { time.Sleep(*hold); return map[string]int{"none": 1} },
}

// loopCode is EVM code that jumps to itself until its gas runs out.
var loopCode = hexutil.Bytes{0x5b, 0x60, 0x00, 0x56} // JUMPDEST PUSH1 0 JUMP

// simTxs are -bundletxs transactions of funded dev account acc from its
// current nonce: transfers, or with -bundlegas contract creations that loop
// until they have used it. Valid bundles: every one is simulated whole.
func simTxs(acc int, salt int) []hexutil.Bytes {
	a := params.DevAccounts()[acc%len(params.DevAccounts())]
	_, r, _ := rpcCall(*rpcURL, "eth_getTransactionCount", a.Address, "latest")
	var nonce hexutil.Uint64
	json.Unmarshal(r, &nonce)
	signer := types.LatestSignerForChainID(big.NewInt(params.DevChainID))
	out := make([]hexutil.Bytes, *bundleTxs)
	for i := range out {
		to := common.BigToAddress(big.NewInt(int64(1000 + salt)))
		inner := &types.DynamicFeeTx{ChainID: big.NewInt(params.DevChainID), Nonce: uint64(nonce) + uint64(i),
			GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11), Gas: 21000, To: &to, Value: big.NewInt(1)}
		if *bundleGas > 0 {
			inner.To, inner.Gas, inner.Value, inner.Data = nil, *bundleGas, new(big.Int), loopCode
		}
		out[i], _ = types.MustSignNewTx(a.Key, signer, inner).MarshalBinary()
	}
	return out
}

// bundleRequest is how one simulation flood posts a bundle: its URL and
// body.
type bundleRequest func(txs []hexutil.Bytes, block uint64) (url string, body []byte)

// restBundle posts the bundle's fields as the REST body.
func restBundle(url string) bundleRequest {
	return func(txs []hexutil.Bytes, block uint64) (string, []byte) {
		b, _ := json.Marshal(map[string]any{"txs": txs, "blockNumber": hexutil.Uint64(block), "stateBlockNumber": "latest"})
		return url, b
	}
}

// rpcBundle posts a JSON-RPC eth_callBundle.
func rpcBundle(url string) bundleRequest {
	return func(txs []hexutil.Bytes, block uint64) (string, []byte) {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "eth_callBundle",
			"params": []any{map[string]any{"txs": txs, "blockNumber": hexutil.Uint64(block), "stateBlockNumber": "latest"}}})
		return url, b
	}
}

// floodBundleSims is the simulation floods: -conns clients, each with a
// bundle of its own (signed before the clock starts), post it one request
// after the other for -hold.
func floodBundleSims(req bundleRequest) map[string]int {
	bodies := make([][]byte, *conns)
	urls := make([]string, *conns)
	block := headNumber() + 1
	for c := range bodies {
		urls[c], bodies[c] = req(simTxs(c, c), block)
	}
	return during(*conns, func(c int, a *answers) {
		client := attackerClient(c)
		for end := time.Now().Add(*hold); time.Now().Before(end); {
			a.add(post(client, urls[c], bodies[c]))
		}
	})
}

// floodEthCall is -attack ethcall: -conns clients call geth's eth_call with
// -loopgas gas on an address whose code a state override makes an infinite
// loop, one call after the other for -hold.
func floodEthCall() map[string]int {
	loop := common.HexToAddress("0x00000000000000000000000000000000000c0de1")
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "eth_call", "params": []any{
		map[string]any{"to": loop, "gas": hexutil.Uint64(*loopGas)}, "latest",
		map[string]any{loop.Hex(): map[string]any{"code": loopCode}}}})
	return during(*conns, func(c int, a *answers) {
		client := attackerClient(c)
		for end := time.Now().Add(*hold); time.Now().Before(end); {
			a.add(post(client, *rpcURL, body))
		}
	})
}

// floodDataAPI is -attack dataapi: -conns clients together ask the data
// API's builder_blocks_received for -datarows bids of one builder key (stored
// by fillBids before the run) -rate times a second for -hold.
func floodDataAPI() map[string]int {
	url := fmt.Sprintf("%s/relay/v1/data/bidtraces/builder_blocks_received?builder_pubkey=%s", *target, builderKeyOf("data api bids").PublicKey())
	every := time.Duration(int64(time.Second) * int64(*conns) / int64(max(1, *dataRate)))
	return during(*conns, func(c int, a *answers) {
		client := attackerClient(c)
		client.Timeout = 5 * time.Second
		tick := time.NewTicker(every)
		defer tick.Stop()
		time.Sleep(time.Duration(c) * every / time.Duration(*conns)) // spread over the interval
		for end := time.Now().Add(*hold); time.Now().Before(end); <-tick.C {
			a.add(get(client, url))
		}
	})
}

// fillBids stores -datarows accepted bids of the dataapi key for the coming
// slots (honest builder submissions of the dev sample block) and returns
// the size of builder_blocks_received's answer for that key.
func fillBids() (stored, size int) {
	key := builderKeyOf("data api bids")
	theBuilders = &honestBuilders{known: key, knownJSON: key}
	client := &http.Client{Timeout: 10 * time.Second}
	accepted := 0
	for i := 0; i < 4**dataRows && accepted < *dataRows; i++ {
		if res, err := client.Do(theBuilders.request("known")); err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				accepted++
			}
		}
	}
	res, err := http.Get(fmt.Sprintf("%s/relay/v1/data/bidtraces/builder_blocks_received?builder_pubkey=%s", *target, key.PublicKey()))
	if err != nil {
		fail(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return accepted, len(b)
}

// floodWebSockets is -attack websockets: -conns WebSocket connections to
// geth's --ws endpoint, each subscribing -subs times to newHeads and then
// never reading, held open for -hold.
func floodWebSockets() map[string]int {
	return during(*conns, func(c int, a *answers) {
		d := websocket.Dialer{NetDial: attackerDialer(c).Dial, HandshakeTimeout: 10 * time.Second}
		ws, _, err := d.Dial(*wsURL, nil)
		if err != nil {
			a.add("dial: " + err.Error())
			return
		}
		defer ws.Close()
		end := time.Now().Add(*hold)
		ws.SetWriteDeadline(end)
		subscribed := 0
		for i := 0; i < *wsSubs; i++ {
			msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"eth_subscribe","params":["newHeads"]}`, i)
			if ws.WriteMessage(websocket.TextMessage, []byte(msg)) != nil {
				break
			}
			subscribed++
		}
		a.add(fmt.Sprintf("%d of %d subscriptions sent", subscribed, *wsSubs))
		time.Sleep(time.Until(end))
	})
}

// answers counts a flood's answers by kind, keeping at most 24 kinds.
type answers struct {
	mu sync.Mutex
	n  map[string]int
}

func (a *answers) add(kind string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.n[kind]; !ok && len(a.n) >= 24 {
		kind = "other"
	}
	a.n[kind]++
}

// during runs client(c, answers) for c in [0, n) at once and returns the
// answers when all have returned.
func during(n int, client func(c int, a *answers)) map[string]int {
	a := &answers{n: map[string]int{}}
	var wg sync.WaitGroup
	for c := 0; c < n; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client(c, a)
		}()
	}
	wg.Wait()
	return a.n
}

// post sends one JSON body and names the answer: the HTTP status, with a
// JSON-RPC error's or a refusal's message cut short.
func post(client *http.Client, url string, body []byte) string {
	res, err := client.Post(url, "application/json", bytes.NewReader(body))
	return answerOf(res, err)
}

// get is post for a GET.
func get(client *http.Client, url string) string {
	res, err := client.Get(url)
	return answerOf(res, err)
}

func answerOf(res *http.Response, err error) string {
	if err != nil {
		if strings.Contains(err.Error(), "Timeout") || strings.Contains(err.Error(), "deadline") {
			return "timeout"
		}
		return "error"
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var out struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
		Message string `json:"message"`
	}
	json.Unmarshal(b, &out)
	msg := out.Message
	if out.Error != nil {
		msg = out.Error.Message
	}
	if res.StatusCode != http.StatusOK && msg == "" {
		msg = string(b)
	}
	kind := strconv.Itoa(res.StatusCode)
	if msg != "" {
		kind += " " + cut(msg, 60)
	}
	return kind
}

func cut(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// chainMark is the head block at the start of a phase.
type chainMark struct{ number, time uint64 }

// headMark reads the target's head block.
func headMark() chainMark {
	b, ok := blockAt("latest")
	if !ok {
		fail(fmt.Errorf("no head block from %s", *rpcURL))
	}
	return b
}

// blockAt reads block ref's number and timestamp.
func blockAt(ref string) (chainMark, bool) {
	_, r, _ := rpcCall(*rpcURL, "eth_getBlockByNumber", ref, false)
	var h struct {
		Number *hexutil.Uint64 `json:"number"`
		Time   hexutil.Uint64  `json:"timestamp"`
	}
	if json.Unmarshal(r, &h) != nil || h.Number == nil {
		return chainMark{}, false
	}
	return chainMark{uint64(*h.Number), uint64(h.Time)}, true
}

// missedSlots counts the dev slots after from's block that began by end
// and those of them the chain has no block for. Read it once the last of
// them is over: a block is stamped with its slot's time, however late.
func missedSlots(from chainMark, end time.Time) (missed, slots int) {
	p := uint64(max(time.Second, *period) / time.Second)
	last := uint64(end.Unix())
	if last <= from.time {
		return 0, 0
	}
	slots = int((last - from.time) / p)
	blocks := 0
	for n := from.number + 1; ; n++ {
		b, ok := blockAt(hexutil.EncodeUint64(n))
		if !ok || b.time > last {
			break
		}
		blocks++
	}
	return max(0, slots-blocks), slots
}
