package eth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/params"
)

// bundleNode is a dev node serving bundle simulation with small limits,
// with two blocks: block 1 deploys a contract that loops forever (from dev
// account 8) and carries a transfer from dev account 9; block 2 carries
// another transfer from account 9. Account 9's nonce at block n is n.
type bundleNode struct {
	*testnode.Node
	loop   common.Address
	signer types.Signer
}

var bundleLimits = bundle.Config{MaxTxs: 4, MaxBytes: 1000, MaxTimeout: 2 * time.Second}

func newBundleNode(t *testing.T) *bundleNode {
	t.Helper()
	n := testnode.New(t, testnode.Options{WS: true, IPC: true, Configure: func(_ *node.Config, _ *ethconfig.Config, c *eth.Config) {
		c.Bundles = bundleLimits
	}})
	bn := &bundleNode{Node: n, signer: types.LatestSignerForChainID(big.NewInt(params.DevChainID))}
	// Init code returning the runtime JUMPDEST PUSH1 0 JUMP.
	initCode := hexutil.MustDecode("0x635b6000566000526004601cf3")
	deploy := bn.sign(8, 0, nil, nil, 100000, initCode)
	bn.loop = crypto.CreateAddress(testnode.Account(8).Address, 0)
	ctx := context.Background()
	for i, tx := range []*types.Transaction{deploy, bn.sign(9, 0, &common.Address{0xaa}, big.NewInt(1), 21000, nil)} {
		if err := n.Client().SendTransaction(ctx, tx); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	n.Step()
	if err := n.Client().SendTransaction(ctx, bn.sign(9, 1, &common.Address{0xaa}, big.NewInt(1), 21000, nil)); err != nil {
		t.Fatal(err)
	}
	n.Step()
	if code, _ := n.Client().CodeAt(ctx, bn.loop, nil); len(code) != 4 {
		t.Fatalf("loop contract not deployed: code %x", code)
	}
	if nonce, _ := n.Client().NonceAt(ctx, testnode.Account(9).Address, nil); nonce != 2 {
		t.Fatalf("account 9 nonce %d, want 2", nonce)
	}
	return bn
}

func (n *bundleNode) sign(acc int, nonce uint64, to *common.Address, value *big.Int, gas uint64, data []byte) *types.Transaction {
	return types.MustSignNewTx(testnode.Account(acc).Key, n.signer, &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), Nonce: nonce, GasTipCap: big.NewInt(gparams.GWei),
		GasFeeCap: big.NewInt(50 * gparams.GWei), Gas: gas, To: to, Value: value, Data: data,
	})
}

func raw(txs ...*types.Transaction) []string {
	out := make([]string, len(txs))
	for i, tx := range txs {
		b, _ := tx.MarshalBinary()
		out[i] = hexutil.Encode(b)
	}
	return out
}

func (n *bundleNode) head() uint64 { return n.Chain().Head().Number.Uint64() }

// args is a request for the next block on the head state.
func (n *bundleNode) args(txs []string) map[string]any {
	return map[string]any{"txs": txs, "blockNumber": hexutil.Uint64(n.head() + 1), "stateBlockNumber": "latest"}
}

// callResult is the eth_callBundle result as a client sees it.
type callResult struct {
	BundleGasPrice, BundleHash, CoinbaseDiff, EthSentToCoinbase, GasFees string
	StateBlockNumber, TotalGasUsed                                       uint64
	Results                                                              []map[string]any
}

// decodeCallResult checks the raw result the way @flashbots/ethers-provider-
// bundle parses it (BigInt of the wei fields, a numeric gasUsed summed,
// error/revert keys present only on failure) and decodes it.
func decodeCallResult(t *testing.T, raw json.RawMessage) callResult {
	t.Helper()
	var r callResult
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	for _, s := range []string{r.BundleGasPrice, r.CoinbaseDiff, r.EthSentToCoinbase, r.GasFees} {
		if _, ok := new(big.Int).SetString(s, 10); !ok {
			t.Fatalf("wei value %q is not a decimal string: %s", s, raw)
		}
	}
	var sum float64
	for i, tx := range r.Results {
		g, ok := tx["gasUsed"].(float64)
		if !ok {
			t.Fatalf("results[%d].gasUsed is not a number: %s", i, raw)
		}
		sum += g
		_, hasErr := tx["error"]
		_, hasValue := tx["value"]
		if hasErr == hasValue {
			t.Fatalf("results[%d]: exactly one of value/error must be present: %v", i, tx)
		}
	}
	if uint64(sum) != r.TotalGasUsed {
		t.Fatalf("sum of gasUsed %v != totalGasUsed %d", sum, r.TotalGasUsed)
	}
	if bytes.Contains(raw, []byte("null")) {
		t.Fatalf("result contains null: %s", raw)
	}
	return r
}

func TestCallBundleAllTransports(t *testing.T) {
	n := newBundleNode(t)
	to := common.Address{0x42}
	txs := []*types.Transaction{n.sign(0, 0, &to, big.NewInt(1), 21000, nil), n.sign(1, 0, &to, big.NewInt(2), 21000, nil)}
	h0, h1 := txs[0].Hash(), txs[1].Hash()
	wantHash := crypto.Keccak256Hash(h0[:], h1[:]).Hex()
	ctx := context.Background()

	clients := map[string]*rpc.Client{"http": n.RPC(), "inproc": n.Stack().Attach()}
	for name, url := range map[string]string{"ws": n.Stack().WSEndpoint(), "ipc": n.Stack().IPCEndpoint()} {
		c, err := rpc.Dial(url)
		if err != nil {
			t.Fatalf("dial %s %s: %v", name, url, err)
		}
		defer c.Close()
		clients[name] = c
	}
	for name, c := range clients {
		var res json.RawMessage
		if err := c.CallContext(ctx, &res, "eth_callBundle", n.args(raw(txs...))); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r := decodeCallResult(t, res)
		if r.BundleHash != wantHash || r.TotalGasUsed != 42000 || r.StateBlockNumber != n.head() {
			t.Fatalf("%s: %s", name, res)
		}
		var est json.RawMessage
		if err := c.CallContext(ctx, &est, "eth_estimateGasBundle", n.args(raw(txs...))); err != nil {
			t.Fatalf("%s estimate: %v", name, err)
		}
		if !strings.Contains(string(est), `"gasLimit":21000`) || !strings.Contains(string(est), `"totalGasUsed":42000`) {
			t.Fatalf("%s estimate: %s", name, est)
		}
	}
}

func TestCallBundleOnDevNode(t *testing.T) {
	n := newBundleNode(t)
	ctx := context.Background()
	call := func(args map[string]any) (callResult, error) {
		var res json.RawMessage
		if err := n.RPC().CallContext(ctx, &res, "eth_callBundle", args); err != nil {
			return callResult{}, err
		}
		return decodeCallResult(t, res), nil
	}

	// A transfer, a direct payment to the coinbase, a reverting contract
	// creation, and a tx that spends what the first tx sent.
	key, _ := crypto.GenerateKey()
	fresh := crypto.PubkeyToAddress(key.PublicKey)
	cb := n.Chain().Head().Coinbase                  // the simulated block's default coinbase is the parent's
	revertInit := hexutil.MustDecode("0x60006000fd") // REVERT(0, 0)
	spend := types.MustSignNewTx(key, n.signer, &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), GasTipCap: big.NewInt(gparams.GWei), GasFeeCap: big.NewInt(50 * gparams.GWei),
		Gas: 21000, To: &common.Address{0x43}, Value: big.NewInt(5),
	})
	txs := []*types.Transaction{
		n.sign(0, 0, &fresh, big.NewInt(gparams.Ether), 21000, nil),
		n.sign(0, 1, &cb, big.NewInt(123456789), 21000, nil),
		n.sign(0, 2, nil, nil, 100000, revertInit),
		spend,
	}
	r, err := call(n.args(raw(txs...)))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Results[1]["ethSentToCoinbase"]; got != "123456789" {
		t.Fatalf("direct payment: ethSentToCoinbase %v, want 123456789", got)
	}
	if r.EthSentToCoinbase != "123456789" {
		t.Fatalf("bundle ethSentToCoinbase %s", r.EthSentToCoinbase)
	}
	if rv, ok := r.Results[2]["revert"]; !ok || rv != "0x" || r.Results[2]["error"] != "execution reverted" || r.Results[2]["toAddress"] != "0x" {
		t.Fatalf("reverting creation: %v", r.Results[2])
	}
	if r.Results[3]["fromAddress"] != fresh.Hex() || r.Results[3]["value"] != "0x" {
		t.Fatalf("dependent tx: %v", r.Results[3])
	}
	// Without the funding tx the spender cannot pay: the call fails, naming it.
	_, err = call(n.args(raw(spend)))
	if err == nil || !strings.Contains(err.Error(), spend.Hash().Hex()) || !strings.Contains(err.Error(), "insufficient funds") {
		t.Fatalf("unfunded spender: %v", err)
	}
	if rpcErr, ok := err.(rpc.Error); !ok || rpcErr.ErrorCode() != -32000 {
		t.Fatalf("unfunded spender: want JSON-RPC code -32000, got %#v", err)
	}

	// Header overrides: coinbase and timestamp reach the EVM; the fees go
	// to the overridden coinbase.
	other := common.HexToAddress("0x00000000000000000000000000000000000c0ffe")
	args := n.args(raw(n.sign(0, 0, &other, big.NewInt(7), 21000, nil)))
	args["coinbase"], args["timestamp"], args["baseFee"], args["gasLimit"], args["difficulty"] = other, 2_000_000_000, "0x3b9aca00", 25_000_000, "0x1"
	r, err = call(args)
	if err != nil {
		t.Fatal(err)
	}
	if r.EthSentToCoinbase != "7" || r.GasFees != "21000000000000" {
		t.Fatalf("coinbase override: sent %s fees %s (want 7 and 21000 gwei at a 1 gwei base fee and 1 gwei tip)", r.EthSentToCoinbase, r.GasFees)
	}

	// Older state by number and by hash: account 9 had nonce 1 after block 1.
	b1, _ := n.Chain().HeaderByNumber(1)
	old := raw(n.sign(9, 1, &common.Address{0x44}, nil, 21000, nil))
	for _, state := range []any{"0x1", 1, b1.Hash().Hex(), map[string]any{"blockHash": b1.Hash(), "requireCanonical": true}} {
		r, err := call(map[string]any{"txs": old, "blockNumber": 2, "stateBlockNumber": state})
		if err != nil || r.StateBlockNumber != 1 {
			t.Fatalf("state %v: %v %+v", state, err, r)
		}
	}
	if _, err := call(n.args(old)); err == nil || !strings.Contains(err.Error(), "nonce too low") {
		t.Fatalf("the same tx on the head state: %v", err)
	}

	// A contract that loops forever times out: an error, not a success.
	args = n.args(raw(n.sign(0, 0, &n.loop, nil, 16_000_000, nil)))
	args["timeout"] = 1
	if _, err := call(args); err == nil || !strings.Contains(err.Error(), "bundle simulation timed out after 1 ms") {
		t.Fatalf("loop: %v", err)
	}
}

func TestEstimateGasBundleOnDevNode(t *testing.T) {
	n := newBundleNode(t)
	to := common.Address{0x45}
	from := testnode.Account(2).Address
	args := n.args(nil)
	args["txs"] = []any{
		raw(n.sign(2, 0, &to, big.NewInt(1), 60000, nil))[0],
		map[string]any{"from": from, "to": to, "value": "0x1"}, // nonce 1 implied by the sequence
		map[string]any{"from": from, "to": n.loop, "gas": "0x30000"},
	}
	var res struct {
		Results []struct {
			GasUsed  uint64  `json:"gasUsed"`
			GasLimit *uint64 `json:"gasLimit"`
			Error    string  `json:"error"`
			TxHash   *string `json:"txHash"`
		} `json:"results"`
		TotalGasUsed uint64 `json:"totalGasUsed"`
	}
	if err := n.RPC().Call(&res, "eth_estimateGasBundle", args); err != nil {
		t.Fatal(err)
	}
	r := res.Results
	if len(r) != 3 || *r[0].GasLimit != 21000 || r[0].TxHash == nil || *r[1].GasLimit != 21000 || r[1].TxHash != nil {
		t.Fatalf("results %+v", r)
	}
	if r[2].Error != "out of gas" || r[2].GasLimit != nil || r[2].GasUsed != 0x30000 {
		t.Fatalf("loop entry %+v", r[2])
	}
	if res.TotalGasUsed != 42000+0x30000 {
		t.Fatalf("totalGasUsed %d", res.TotalGasUsed)
	}
}

func postJSON(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestBundleREST(t *testing.T) {
	n := newBundleNode(t)
	to := common.Address{0x46}
	tx := raw(n.sign(0, 0, &to, big.NewInt(1), 21000, nil))[0]
	next := n.head() + 1

	status, body := postJSON(t, n.MEVURL()+"/eth_callBundle", fmt.Sprintf(`{"txs":[%q],"blockNumber":%d,"stateBlockNumber":"latest"}`, tx, next))
	if status != 200 || strings.Contains(body, "jsonrpc") {
		t.Fatalf("callBundle: %d %s", status, body)
	}
	decodeCallResult(t, json.RawMessage(body))
	status, body = postJSON(t, n.MEVURL()+"/eth_estimateGasBundle", fmt.Sprintf(`{"txs":[%q],"blockNumber":"0x%x","stateBlockNumberOrHash":"latest"}`, tx, next))
	if status != 200 || !strings.Contains(body, `"gasLimit":21000`) {
		t.Fatalf("estimateGasBundle: %d %s", status, body)
	}

	otherChain := types.MustSignNewTx(testnode.Account(0).Key, types.LatestSignerForChainID(big.NewInt(1)), &types.DynamicFeeTx{
		ChainID: big.NewInt(1), Gas: 21000, To: &to, GasFeeCap: big.NewInt(1e9),
	})
	unknown := common.Hash{0xde, 0xad}.Hex()
	bigData := make([]byte, 1000)
	bigTx := raw(n.sign(0, 0, &to, nil, 100000, bigData))[0]
	five := fmt.Sprintf(`[%q,%q,%q,%q,%q]`, tx, tx, tx, tx, tx)
	mk := func(txs string, rest string) string {
		return fmt.Sprintf(`{"txs":%s,"blockNumber":%d,"stateBlockNumber":"latest"%s}`, txs, next, rest)
	}
	cases := []struct{ name, body, msg string }{
		{"empty txs", mk(`[]`, ""), "bundle missing txs: txs is empty"},
		{"missing txs", fmt.Sprintf(`{"blockNumber":%d,"stateBlockNumber":"latest"}`, next), "bundle missing txs"},
		{"bad hex", mk(`["0xzz"]`, ""), "txs[0]: invalid hex"},
		{"undecodable", mk(`["0x02c0"]`, ""), "undecodable tx: tx 0"},
		{"other chain", mk(fmt.Sprintf(`[%q]`, raw(otherChain)[0]), ""), "has chain id 1, expected 1337"},
		{"missing block number", fmt.Sprintf(`{"txs":[%q],"stateBlockNumber":"latest"}`, tx), "bundle missing blockNumber"},
		{"missing state block", fmt.Sprintf(`{"txs":[%q],"blockNumber":5}`, tx), "missing stateBlockNumber"},
		{"future state block", fmt.Sprintf(`{"txs":[%q],"blockNumber":50,"stateBlockNumber":"0x31"}`, tx), "block 49 is in the future (head is 2)"},
		{"unknown hash", fmt.Sprintf(`{"txs":[%q],"blockNumber":5,"stateBlockNumber":%q}`, tx, unknown), "unknown block: hash " + unknown},
		{"timeout above cap", mk(fmt.Sprintf(`[%q]`, tx), `,"timeout":2001`), "2001 ms is above the maximum of 2000 ms"},
		{"too many txs", mk(five, ""), "5 txs, at most 4 allowed"},
		{"too many bytes", mk(fmt.Sprintf(`[%q]`, bigTx), ""), "at most 1000 allowed"},
		{"malformed JSON", `{"txs":[`, "malformed JSON"},
		{"not an object", `[1]`, "expected a JSON object"},
		{"invalid tx", mk(fmt.Sprintf(`[%q,%q]`, tx, tx), ""), "tx 1 (" + n.sign(0, 0, &to, big.NewInt(1), 21000, nil).Hash().Hex() + "): invalid transaction: nonce too low"},
	}
	for _, c := range cases {
		for _, path := range []string{"/eth_callBundle", "/eth_estimateGasBundle"} {
			status, body := postJSON(t, n.MEVURL()+path, c.body)
			var e struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal([]byte(body), &e); err != nil || status != 400 || e.Code != 400 || !strings.Contains(e.Message, c.msg) {
				t.Errorf("%s %s: %d %s; want 400 containing %q", c.name, path, status, body, c.msg)
			}
		}
	}
	// The same mistakes over JSON-RPC are invalid params (-32602) or
	// server errors (-32000) with the same messages.
	var res json.RawMessage
	err := n.RPC().Call(&res, "eth_callBundle", map[string]any{"txs": []string{}, "blockNumber": 5, "stateBlockNumber": "latest"})
	if rpcErr, ok := err.(rpc.Error); !ok || rpcErr.ErrorCode() != -32602 || !strings.Contains(err.Error(), "txs is empty") {
		t.Fatalf("empty txs over JSON-RPC: %#v", err)
	}

	// A body far over the limit is refused before it is parsed.
	huge := `{"txs":["0x` + strings.Repeat("00", 200_000) + `"]}`
	if status, body := postJSON(t, n.MEVURL()+"/eth_callBundle", huge); status != 413 || !strings.Contains(body, `"code":413`) {
		t.Fatalf("huge body: %d %s", status, body)
	}
}
