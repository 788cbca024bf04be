package bundleapi

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/bundle"
)

// ethersSimulation mirrors how @flashbots/ethers-provider-bundle v1.0.0
// parses an eth_callBundle result (simulate()): BigInt() of four wei
// fields, totalGasUsed recomputed as the sum of results[i].gasUsed with
// JavaScript's +, and firstRevert = the first result with an "error" or
// "revert" key present at all.
type ethersSimulation struct {
	BundleGasPrice, CoinbaseDiff, EthSentToCoinbase, GasFees *big.Int
	TotalGasUsed                                             float64
	FirstRevert                                              map[string]any
	StateBlockNumber                                         any
}

func ethersParse(t *testing.T, raw []byte) ethersSimulation {
	t.Helper()
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatalf("result is not a JSON object: %v", err)
	}
	bigint := func(key string) *big.Int {
		s, ok := obj[key].(string) // BigInt(undefined) and BigInt(1.5) throw; strings parse
		if !ok {
			t.Fatalf("%s = %#v: BigInt() would throw", key, obj[key])
		}
		n, ok := new(big.Int).SetString(s, 0)
		if !ok {
			t.Fatalf("%s = %q: BigInt() would throw", key, s)
		}
		return n
	}
	sim := ethersSimulation{
		BundleGasPrice: bigint("bundleGasPrice"), CoinbaseDiff: bigint("coinbaseDiff"),
		EthSentToCoinbase: bigint("ethSentToCoinbase"), GasFees: bigint("gasFees"),
		StateBlockNumber: obj["stateBlockNumber"],
	}
	results, ok := obj["results"].([]any)
	if !ok {
		t.Fatalf("results = %#v, want an array", obj["results"])
	}
	for i, r := range results {
		m := r.(map[string]any)
		g, ok := m["gasUsed"].(float64) // a string would concatenate
		if !ok {
			t.Fatalf("results[%d].gasUsed = %#v, want a JSON number", i, m["gasUsed"])
		}
		sim.TotalGasUsed += g
		_, hasErr := m["error"]
		_, hasRevert := m["revert"]
		if sim.FirstRevert == nil && (hasErr || hasRevert) {
			sim.FirstRevert = m
		}
	}
	return sim
}

func TestCallBundleResultShape(t *testing.T) {
	to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	res := &bundle.CallResult{
		BundleHash: common.Hash{1}, BundleGasPrice: big.NewInt(3), CoinbaseDiff: big.NewInt(300000),
		EthSentToCoinbase: big.NewInt(100000), GasFees: big.NewInt(200000), StateBlockNumber: 7, TotalGasUsed: 100000,
		Results: []bundle.TxResult{
			{TxHash: common.Hash{2}, GasUsed: 21000, GasPrice: big.NewInt(2), GasFees: big.NewInt(42000), CoinbaseDiff: big.NewInt(42000),
				EthSentToCoinbase: new(big.Int), From: common.HexToAddress("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"), To: &to},
			{TxHash: common.Hash{3}, GasUsed: 79000, GasPrice: big.NewInt(3), GasFees: big.NewInt(158000), CoinbaseDiff: big.NewInt(258000),
				EthSentToCoinbase: big.NewInt(100000), Failure: &bundle.Failure{Error: "execution reverted", Reverted: true, Revert: "nope"}},
			{TxHash: common.Hash{4}, GasUsed: 0, GasPrice: new(big.Int), GasFees: new(big.Int), CoinbaseDiff: new(big.Int),
				EthSentToCoinbase: new(big.Int), Failure: &bundle.Failure{Error: "out of gas"}},
		},
	}
	raw, err := json.Marshal(encodeCallResult(res))
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	for _, want := range []string{
		`"bundleGasPrice":"3"`, `"coinbaseDiff":"300000"`, `"stateBlockNumber":7`, `"totalGasUsed":100000`,
		`"fromAddress":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"`, // checksummed
		`"toAddress":"0x00000000000000000000000000000000000000AA"`,
		`"toAddress":"0x"`, // contract creation
		`"value":"0x"`, `"error":"execution reverted","ethSentToCoinbase":"100000"`, `"revert":"nope"`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("result lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, "null") {
		t.Errorf("result has a null; keys must be omitted instead:\n%s", s)
	}
	var r []map[string]json.RawMessage
	var top struct {
		Results *[]map[string]json.RawMessage `json:"results"`
	}
	top.Results = &r
	if err := json.Unmarshal(raw, &top); err != nil {
		t.Fatal(err)
	}
	keys := func(m map[string]json.RawMessage) string {
		return fmt.Sprint(has(m, "value"), has(m, "error"), has(m, "revert"))
	}
	if got := keys(r[0]); got != "true false false" {
		t.Errorf("success tx: value/error/revert present = %s", got)
	}
	if got := keys(r[1]); got != "false true true" {
		t.Errorf("reverted tx: value/error/revert present = %s", got)
	}
	if got := keys(r[2]); got != "false true false" {
		t.Errorf("out-of-gas tx: value/error/revert present = %s", got)
	}

	sim := ethersParse(t, raw)
	if sim.TotalGasUsed != 100000 || sim.CoinbaseDiff.Int64() != 300000 || sim.FirstRevert["revert"] != "nope" {
		t.Fatalf("ethers view %+v", sim)
	}
	// Negative diffs (the coinbase paying out) stay parseable.
	res.CoinbaseDiff = big.NewInt(-5)
	raw, _ = json.Marshal(encodeCallResult(res))
	if sim := ethersParse(t, raw); sim.CoinbaseDiff.Int64() != -5 {
		t.Fatalf("negative diff %v", sim.CoinbaseDiff)
	}
}

func has(m map[string]json.RawMessage, k string) bool { _, ok := m[k]; return ok }
