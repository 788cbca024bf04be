package eth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/sched"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/internal/wsrpc"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// schedNode is a dev node whose scheduler has one client turn and a short
// wait, with the debug namespace on its HTTP RPC.
func schedNode(t *testing.T, turn time.Duration) *testnode.Node {
	return testnode.New(t, testnode.Options{Configure: func(nc *node.Config, _ *ethconfig.Config, c *eth.Config) {
		nc.HTTPModules = append(nc.HTTPModules, "debug")
		c.Sched = sched.Config{Turns: 1, Wait: 50 * time.Millisecond, Turn: turn}
	}})
}

// rpcAnswer posts one JSON-RPC request and returns the HTTP status and the
// decoded answer.
func rpcAnswer(t *testing.T, url, method string, params ...any) (int, json.RawMessage, *struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var a struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatalf("%s: %d %s: %v", method, resp.StatusCode, raw, err)
	}
	return resp.StatusCode, a.Result, a.Error
}

// TestClientPathsTakeTurns: with the scheduler's one turn held (as a flood
// would hold it), every CPU-heavy client path waits for it and answers
// "server busy, retry later" at the wait bound: REST and JSON-RPC
// simulation on the MEV listener, geth's eth_call, eth_estimateGas,
// eth_callBundle and debug_traceCall on :8545, and the data API. Once the
// turn is free they answer as before.
func TestClientPathsTakeTurns(t *testing.T) {
	n := schedNode(t, 0)
	n.Step()
	bn := &bundleNode{Node: n, signer: types.LatestSignerForChainID(n.Chain().Config().ChainID)}
	to := common.Address{0x46}
	tx := raw(bn.sign(0, 0, &to, big.NewInt(1), 21000, nil))[0]
	bundle := map[string]any{"txs": []string{tx}, "blockNumber": fmt.Sprintf("0x%x", n.Chain().Head().Number.Uint64()+1), "stateBlockNumber": "latest"}
	bundleJSON, _ := json.Marshal(bundle)
	call := map[string]any{"from": testnode.Account(0).Address, "to": to, "value": "0x1"}

	hold, err := n.Scheduler().Take(context.Background(), sched.Request{Client: "flood"})
	if err != nil {
		t.Fatal(err)
	}
	if status, out := postREST(t, n.MEVURL()+"/eth_callBundle", "", string(bundleJSON)); status != http.StatusServiceUnavailable || !strings.Contains(out, "server busy") {
		t.Fatalf("REST eth_callBundle with the turn held: %d %s, want 503 server busy", status, out)
	}
	if status, _, e := rpcAnswer(t, n.MEVURL(), "eth_callBundle", bundle); status != http.StatusServiceUnavailable || e == nil || e.Code != -32005 || !strings.Contains(e.Message, "server busy") {
		t.Fatalf("listener JSON-RPC eth_callBundle with the turn held: %d %+v, want 503 -32005 server busy", status, e)
	}
	for _, c := range []struct {
		method string
		params []any
	}{
		{"eth_call", []any{call, "latest"}},
		{"eth_estimateGas", []any{call}},
		{"eth_callBundle", []any{bundle}},
		{"debug_traceCall", []any{call, "latest"}},
	} {
		if _, _, e := rpcAnswer(t, n.HTTPURL(), c.method, c.params...); e == nil || e.Code != -32005 || !strings.Contains(e.Message, "server busy, retry later") {
			t.Fatalf("%s on :8545 with the turn held: %+v, want -32005 server busy", c.method, e)
		}
	}
	// The node's own in-process readers (the dev auction's L2 reads) are not
	// client work: they do not wait.
	var est string
	if err := n.Stack().Attach().Call(&est, "eth_estimateGas", call); err != nil || est != "0x5208" {
		t.Fatalf("in-process eth_estimateGas with the turn held: %q %v, want 0x5208 at once", est, err)
	}
	resp, err := http.Get(n.MEVURL() + relayapi.PathDataBuilderBlocks + "?limit=1")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(out), "server busy") {
		t.Fatalf("data API with the turn held: %d %s, want 503 server busy with Retry-After", resp.StatusCode, out)
	}
	// --ws (gavel's own WebSocket server, cmd/gavel) serves the node's
	// handler over a codec geth reports as "ipc" with the client's address:
	// a WebSocket client's eth_call is client work all the same.
	h, err := n.Stack().RPCHandler()
	if err != nil {
		t.Fatal(err)
	}
	ws := httptest.NewServer(wsrpc.NewHandler(h, wsrpc.Config{Modules: []string{"eth"}}))
	defer ws.Close()
	wc, err := rpc.Dial("ws" + strings.TrimPrefix(ws.URL, "http"))
	if err != nil {
		t.Fatal(err)
	}
	defer wc.Close()
	var wsRes string
	var re rpc.Error
	if err := wc.Call(&wsRes, "eth_call", call, "latest"); !errors.As(err, &re) || re.ErrorCode() != -32005 {
		t.Fatalf("eth_call over --ws with the turn held: %q %v, want -32005 server busy", wsRes, err)
	}
	if st := n.Scheduler().Stats(); st.Refused != 8 || st.Busy != 1 { // the eight requests above, nothing of the node's own
		t.Fatalf("scheduler after the refusals: %+v", st)
	}

	hold.Release()
	if status, out := postREST(t, n.MEVURL()+"/eth_callBundle", "", string(bundleJSON)); status != http.StatusOK {
		t.Fatalf("REST eth_callBundle with the turn free: %d %s", status, out)
	}
	if _, res, e := rpcAnswer(t, n.HTTPURL(), "eth_estimateGas", call); e != nil || string(res) != `"0x5208"` {
		t.Fatalf("eth_estimateGas with the turn free: %s %+v, want 0x5208", res, e)
	}
	if _, res, e := rpcAnswer(t, n.HTTPURL(), "eth_callBundle", bundle); e != nil || !strings.Contains(string(res), `"bundleHash"`) {
		t.Fatalf("eth_callBundle on :8545 with the turn free: %s %+v", res, e)
	}
	// geth's own argument errors come through unchanged.
	if _, _, e := rpcAnswer(t, n.HTTPURL(), "eth_call"); e == nil || e.Message != "missing value for required argument 0" {
		t.Fatalf("eth_call without arguments: %+v, want geth's missing-argument error", e)
	}
	if st := n.Scheduler().Stats(); st.Busy != 0 || st.Peak != 1 {
		t.Fatalf("scheduler after the calls: %+v", st)
	}
}

// TestEndlessCallStopsAtTurnBound: an eth_call of an infinite loop (code
// put in place by a state override, 50 M gas) is stopped at the turn bound
// and answered with an error naming it, and the turn is free again.
func TestEndlessCallStopsAtTurnBound(t *testing.T) {
	// The loop burns 50 M gas in 11-gas rounds: about 90 ms or more of
	// interpreter time on a fast idle core, so a 10 ms bound stops it first
	// (with 100 ms a quiet machine ran out of gas before the bound).
	n := schedNode(t, 10*time.Millisecond)
	loop := common.Address{0x10}
	call := map[string]any{"to": loop, "gas": "0x2faf080"}
	override := map[common.Address]any{loop: map[string]string{"code": "0x5b5f56"}} // JUMPDEST PUSH0 JUMP
	_, _, e := rpcAnswer(t, n.HTTPURL(), "eth_call", call, "latest", override)
	if e == nil || !strings.Contains(e.Message, "execution stopped") || !strings.Contains(e.Message, "--sched.turn") {
		t.Fatalf("endless eth_call: %+v, want stopped at the turn bound", e)
	}
	if st := n.Scheduler().Stats(); st.Busy != 0 {
		t.Fatalf("after the stopped call: %+v, want the turn free", st)
	}
}

// TestDevSlotIsCriticalWork: a dev slot marks the node's scheduler
// critical for its own parts (the pool's sync and the attributes, the
// local block, the dev builder's block, the proposer's getHeader and
// getPayload, the import and the new head) and releases every mark; the
// dev builder's submission, client work of the relay, still goes through
// (the slot's block is the builder's, not the local fallback).
func TestDevSlotIsCriticalWork(t *testing.T) {
	n := schedNode(t, 0)
	before := n.Scheduler().Stats().Marks
	head := n.Step()
	st := n.Scheduler().Stats()
	if got := st.Marks - before; got < 7 || st.Critical != 0 {
		t.Fatalf("a dev slot took %d critical marks (%d held after it), want at least 7 and all released", got, st.Critical)
	}
	if builder := crypto.PubkeyToAddress(chain.DevBuilderKey().PublicKey); head.Coinbase != builder {
		t.Fatalf("the slot's block has coinbase %s, want the dev builder's %s: its submission did not get through", head.Coinbase, builder)
	}
}
