package eth_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/internal/testnode"
)

// ethersClient sends requests exactly as @flashbots/ethers-provider-bundle
// (v1.0) does: JSON.stringify({method, params, id, jsonrpc}) with ids from
// 1, posted to the relay URL with X-Flashbots-Signature
// "<address>:<signMessage(id(body))>", the EIP-191 signature of the hex
// text of keccak256(body). Options left undefined are absent from the
// JSON, as JSON.stringify drops them.
type ethersClient struct {
	t      *testing.T
	url    string
	key    []byte // the authSigner's private key, raw
	nextID int
}

// ethersResponse is what the library reads of an answer: response.result,
// or response.error {message, code}.
type ethersResponse struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
		Code    int    `json:"code"`
	} `json:"error"`
}

// request posts method(params) and returns the HTTP status and the answer.
// The library calls resp.assertOk(): a status outside 200-299 throws.
func (c *ethersClient) request(method string, params ...any) (int, ethersResponse) {
	c.t.Helper()
	c.nextID++
	// JSON.stringify keeps the literal's key order: method, params, id, jsonrpc.
	p, err := json.Marshal(params)
	if err != nil {
		c.t.Fatal(err)
	}
	body := fmt.Sprintf(`{"method":%q,"params":%s,"id":%d,"jsonrpc":"2.0"}`, method, p, c.nextID)
	req, _ := http.NewRequest(http.MethodPost, c.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if c.key != nil {
		key, _ := crypto.ToECDSA(c.key)
		// ethers: authSigner.signMessage(id(body)): id is keccak256 of the
		// UTF-8 body as 0x-hex, signMessage the EIP-191 text signature of
		// that string, v 27/28.
		sig, err := crypto.Sign(accounts.TextHash([]byte(hexutil.Encode(crypto.Keccak256([]byte(body))))), key)
		if err != nil {
			c.t.Fatal(err)
		}
		sig[64] += 27
		req.Header.Set("X-Flashbots-Signature", crypto.PubkeyToAddress(key.PublicKey).Hex()+":"+hexutil.Encode(sig))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var r ethersResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		c.t.Fatalf("%s: %d %s", method, resp.StatusCode, raw)
	}
	return resp.StatusCode, r
}

// ok is request for a call the library must see succeed: status 2xx (else
// assertOk throws) and a result (else it returns the error).
func (c *ethersClient) ok(method string, params ...any) map[string]json.RawMessage {
	c.t.Helper()
	status, r := c.request(method, params...)
	if status < 200 || status > 299 || r.Error != nil {
		c.t.Fatalf("%s: %d %+v", method, status, r.Error)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r.Result, &m); err != nil {
		c.t.Fatalf("%s result %s: %v", method, r.Result, err)
	}
	return m
}

func newEthersClient(t *testing.T, url string) *ethersClient {
	key, _ := crypto.GenerateKey()
	return &ethersClient{t: t, url: url, key: crypto.FromECDSA(key)}
}

// jsBigInt parses s as JavaScript's BigInt(s) does a string: decimal, or
// 0x-hex.
func jsBigInt(t *testing.T, field string, raw json.RawMessage) *big.Int {
	t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: %s is not a string", field, raw)
	}
	v, ok := new(big.Int).SetString(s, 0)
	if !ok || (len(s) > 1 && s[0] == '0' && s[1] != 'x') {
		t.Fatalf("%s: BigInt(%q) throws", field, s)
	}
	return v
}

func jsBool(t *testing.T, field string, raw json.RawMessage) bool {
	t.Helper()
	var b bool
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatalf("%s: %s is not a boolean", field, raw)
	}
	return b
}

func jsString(t *testing.T, field string, raw json.RawMessage) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatalf("%s: %s is not a string", field, raw)
	}
	return s
}

// TestEthersProviderBundleCalls makes the calls a searcher makes with
// @flashbots/ethers-provider-bundle (simulate, sendRawBundle,
// getBundleStatsV2, getUserStatsV2) against a dev node's MEV listener, in the
// library's exact request shapes, and reads the answers as the library
// reads them.
func TestEthersProviderBundleCalls(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	n.Step()
	cfg := n.Chain().Config()
	to := common.Address{0x77}
	tx := types.MustSignNewTx(testnode.Account(2).Key, types.LatestSignerForChainID(cfg.ChainID), &types.DynamicFeeTx{
		ChainID: cfg.ChainID, Nonce: 0, GasTipCap: big.NewInt(2e9), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(1),
	})
	rawTx, _ := tx.MarshalBinary()
	txs := []string{hexutil.Encode(rawTx)}
	c := newEthersClient(t, n.MEVURL())
	target := n.Chain().Head().Number.Uint64() + 1
	blockHex := fmt.Sprintf("0x%x", target) // `0x${targetBlockNumber.toString(16)}`

	// simulate(signedBundle, blockNum+1): stateBlockNumber "latest",
	// timestamp and coinbase undefined.
	sim := c.ok("eth_callBundle", map[string]any{"txs": txs, "blockNumber": blockHex, "stateBlockNumber": "latest"})
	for _, f := range []string{"bundleGasPrice", "coinbaseDiff", "ethSentToCoinbase", "gasFees"} {
		jsBigInt(t, f, sim[f])
	}
	if jsString(t, "bundleHash", sim["bundleHash"]) == "" {
		t.Fatal("no bundleHash")
	}
	var stateBlock uint64
	if json.Unmarshal(sim["stateBlockNumber"], &stateBlock) != nil || stateBlock != target-1 {
		t.Fatalf("stateBlockNumber %s", sim["stateBlockNumber"])
	}
	var results []map[string]json.RawMessage
	if err := json.Unmarshal(sim["results"], &results); err != nil || len(results) != 1 {
		t.Fatalf("results %s", sim["results"])
	}
	// totalGasUsed = results.reduce((a, b) => a + b.gasUsed, 0): a number;
	// firstRevert = the first with 'revert' or 'error' in it.
	var gasUsed float64
	if json.Unmarshal(results[0]["gasUsed"], &gasUsed) != nil || gasUsed != 21000 {
		t.Fatalf("gasUsed %s", results[0]["gasUsed"])
	}
	if _, ok := results[0]["error"]; ok {
		t.Fatalf("a successful tx has an error key: %v", results[0])
	}
	if _, ok := results[0]["revert"]; ok {
		t.Fatalf("a successful tx has a revert key: %v", results[0])
	}
	for _, f := range []string{"gasFees", "gasPrice", "coinbaseDiff", "ethSentToCoinbase"} {
		jsBigInt(t, "results[0]."+f, results[0][f])
	}
	if jsString(t, "txHash", results[0]["txHash"]) != tx.Hash().Hex() {
		t.Fatalf("txHash %s", results[0]["txHash"])
	}

	// sendRawBundle(signedBundle, target): minTimestamp, maxTimestamp,
	// revertingTxHashes, replacementUuid undefined; reads
	// response.result.bundleHash.
	sent := c.ok("eth_sendBundle", map[string]any{"txs": txs, "blockNumber": blockHex})
	bundleHash := jsString(t, "bundleHash", sent["bundleHash"])
	// FlashbotsBundleProvider.generateBundleHash([txHash]).
	if want := crypto.Keccak256Hash(tx.Hash().Bytes()).Hex(); bundleHash != want {
		t.Fatalf("bundleHash %s, generateBundleHash gives %s", bundleHash, want)
	}

	// getBundleStatsV2(bundleHash, target) right after sending.
	checkStats := func(c *ethersClient, hash string) (simulated bool, m map[string]json.RawMessage) {
		t.Helper()
		m = c.ok("flashbots_getBundleStatsV2", map[string]any{"bundleHash": hash, "blockNumber": blockHex})
		jsBool(t, "isHighPriority", m["isHighPriority"])
		simulated = jsBool(t, "isSimulated", m["isSimulated"])
		for _, f := range []string{"consideredByBuildersAt", "sealedByBuildersAt"} {
			var list []struct{ Pubkey, Timestamp string }
			if err := json.Unmarshal(m[f], &list); err != nil || list == nil {
				t.Fatalf("%s: %s is not an array of {pubkey, timestamp}", f, m[f])
			}
		}
		return simulated, m
	}
	if sim, m := checkStats(c, bundleHash); sim || jsString(t, "receivedAt", m["receivedAt"]) == "" {
		t.Fatalf("fresh bundle: %v", m)
	}
	// Another signer, and an unknown bundle: a result with every flag false
	// (Flashbots' answer), not an error.
	stranger := newEthersClient(t, n.MEVURL())
	for _, h := range []string{bundleHash, common.Hash{0xde, 0xad}.Hex()} {
		sim, m := checkStats(stranger, h)
		if sim || jsBool(t, "isHighPriority", m["isHighPriority"]) || string(m["receivedAt"]) != "" && string(m["receivedAt"]) != `""` {
			t.Fatalf("stats of %s for a stranger: %v", h, m)
		}
		if string(m["consideredByBuildersAt"]) != "[]" || jsString(t, "status", m["status"]) != "unknown" {
			t.Fatalf("stats of %s for a stranger: %v", h, m)
		}
	}

	// The block is built with the bundle: simulated and sealed, with times.
	n.Step()
	if sim, m := checkStats(c, bundleHash); !sim || jsString(t, "simulatedAt", m["simulatedAt"]) == "" || string(m["sealedByBuildersAt"]) == "[]" {
		raw, _ := json.Marshal(m)
		t.Fatalf("built bundle: %s", raw)
	}

	// getUserStatsV2(): params [{blockNumber: latest}]; the seven fields
	// of GetUserStatsResponseSuccessV2, for the signer itself.
	latest := fmt.Sprintf("0x%x", n.Chain().Head().Number.Uint64())
	us := c.ok("flashbots_getUserStatsV2", map[string]any{"blockNumber": latest})
	if jsBool(t, "isHighPriority", us["isHighPriority"]) {
		t.Fatal("isHighPriority true: gavel has one queue")
	}
	for _, f := range []string{"allTimeValidatorPayments", "allTimeGasSimulated", "last7dValidatorPayments", "last7dGasSimulated", "last1dValidatorPayments", "last1dGasSimulated"} {
		if v := jsBigInt(t, f, us[f]); v.Sign() < 0 {
			t.Fatalf("%s negative", f)
		}
	}
	var counted struct {
		Address common.Address
		Bundles uint64
	}
	raw, _ := json.Marshal(us)
	json.Unmarshal(raw, &counted)
	key, _ := crypto.ToECDSA(c.key)
	if counted.Address != crypto.PubkeyToAddress(key.PublicKey) || counted.Bundles != 1 {
		t.Fatalf("user stats %s", raw)
	}
	// A key gavel never saw gets zeros; an unsigned call is refused (the
	// stats are the signer's), with a message saying so.
	fresh := newEthersClient(t, n.MEVURL()).ok("flashbots_getUserStatsV2", map[string]any{"blockNumber": latest})
	if string(fresh["bundles"]) != "0" || jsString(t, "allTimeGasSimulated", fresh["allTimeGasSimulated"]) != "0" {
		t.Fatalf("fresh signer: %v", fresh)
	}
	unsigned := &ethersClient{t: t, url: n.MEVURL()}
	if status, r := unsigned.request("flashbots_getUserStatsV2", map[string]any{"blockNumber": latest}); status != 400 || r.Error == nil || !strings.Contains(r.Error.Message, "sign the body") {
		t.Fatalf("unsigned user stats: %d %+v", status, r.Error)
	}
}

// TestJSONRPCParamErrorsNameTheField sends a malformed value to every
// JSON-RPC method of the MEV listener: each answers 400 naming the field
// (and index) in JSON terms, never a Go type.
func TestJSONRPCParamErrorsNameTheField(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	c := newEthersClient(t, n.MEVURL())
	for _, tc := range []struct {
		method string
		param  any
		want   string
	}{
		{"eth_sendBundle", map[string]any{"txs": []string{"0x02", "0xzz"}, "blockNumber": "0x5"}, "txs[1]: invalid hex"},
		{"eth_sendBundle", map[string]any{"txs": []any{7}, "blockNumber": "0x5"}, "txs[0]: expected a 0x-prefixed hex string"},
		{"eth_sendBundle", map[string]any{"txs": []string{"0x02"}, "blockNumber": "0x5", "revertingTxHashes": []string{"0x12"}}, "revertingTxHashes[0]: invalid hash"},
		{"eth_sendBundle", map[string]any{"txs": []string{"0x02"}, "blockNumber": true}, "blockNumber: "},
		{"eth_callBundle", map[string]any{"txs": []string{"0xzz"}, "blockNumber": "0x5", "stateBlockNumber": "latest"}, "txs[0]: invalid hex"},
		{"eth_estimateGasBundle", map[string]any{"txs": []string{"0xzz"}, "blockNumber": "0x5", "stateBlockNumber": "latest"}, "txs[0]: invalid hex"},
		{"eth_cancelBundle", map[string]any{"replacementUuid": 5}, "replacementUuid: expected a string, got a number"},
		{"mev_sendBetaBundle", map[string]any{"txs": []any{5}, "slot": "9"}, "txs[0]: expected a string, got a number"},
		{"mev_getBetaBundle", "0x12", "invalid hash: hex string has length 2, want 64"},
		{"mev_getUserStats", "0x12", "invalid address: hex string has length 2, want 40"},
		{"flashbots_getBundleStatsV2", map[string]any{"bundleHash": "0x12"}, "bundleHash: invalid hash"},
		{"flashbots_getBundleStatsV2", map[string]any{"bundleHash": common.Hash{}.Hex(), "blockNumber": 5}, "blockNumber: expected a 0x-prefixed hex number, got a non-string value"},
		{"flashbots_getUserStatsV2", map[string]any{"blockNumber": "12"}, "blockNumber: invalid hex number"},
	} {
		status, r := c.request(tc.method, tc.param)
		if status != 400 || r.Error == nil || !strings.Contains(r.Error.Message, tc.want) {
			t.Errorf("%s %v: %d %+v, want 400 saying %q", tc.method, tc.param, status, r.Error, tc.want)
			continue
		}
		for _, goWords := range []string{"Go ", "of type", "hexutil", "common.", "Args", "cannot unmarshal"} {
			if strings.Contains(r.Error.Message, goWords) {
				t.Errorf("%s: %q names a Go type", tc.method, r.Error.Message)
			}
		}
	}
}
