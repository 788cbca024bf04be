package eth_test

import (
	"context"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/testnode"
)

// TestDebugTracers: geth's native and JS tracers answer debug_traceTransaction
// over RPC on a dev node.
func TestDebugTracers(t *testing.T) {
	// As `--http.api eth,...,debug` does.
	n := testnode.New(t, testnode.Options{Configure: func(nc *node.Config, _ *ethconfig.Config, _ *eth.Config) {
		nc.HTTPModules = append(nc.HTTPModules, "debug")
	}})
	acc := testnode.Account(3)
	to := common.HexToAddress("0x000000000000000000000000000000000000beef")
	tx, _ := types.SignNewTx(acc.Key, types.LatestSignerForChainID(big.NewInt(1337)), &types.DynamicFeeTx{
		ChainID: big.NewInt(1337), GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(7),
	})
	if err := n.Client().SendTransaction(context.Background(), tx); err != nil {
		t.Fatal(err)
	}
	n.Step()

	var call struct {
		Type, From, To, Value string
	}
	if err := n.RPC().Call(&call, "debug_traceTransaction", tx.Hash(), map[string]any{"tracer": "callTracer"}); err != nil {
		t.Fatalf("callTracer: %v", err)
	}
	if call.Type != "CALL" || common.HexToAddress(call.From) != acc.Address || common.HexToAddress(call.To) != to || call.Value != "0x7" {
		t.Fatalf("callTracer: %+v", call)
	}
	var pre map[common.Address]json.RawMessage
	if err := n.RPC().Call(&pre, "debug_traceTransaction", tx.Hash(), map[string]any{"tracer": "prestateTracer"}); err != nil {
		t.Fatalf("prestateTracer: %v", err)
	}
	if _, ok := pre[acc.Address]; !ok {
		t.Fatalf("prestateTracer lacks the sender: %v", pre)
	}
	var steps int
	js := "{n: 0, step: function() { this.n++ }, fault: function() {}, result: function() { return this.n }}"
	if err := n.RPC().Call(&steps, "debug_traceTransaction", tx.Hash(), map[string]any{"tracer": js}); err != nil {
		t.Fatalf("JS tracer: %v", err)
	}
}
