package bundleapi

import (
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
)

func TestCallBundleArgsDecode(t *testing.T) {
	const body = `{"txs":["0x02f8","0xabcd"],"blockNumber":"0x10","stateBlockNumber":"latest",
		"coinbase":"0x00000000000000000000000000000000000000c0","timestamp":1700000012,"timeout":250,
		"gasLimit":"30000000","difficulty":"0x20000","baseFee":7,"unknownField":true}`
	var a CallBundleArgs
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatal(err)
	}
	b := a.Block
	if len(a.Txs) != 2 || a.Txs[0][0] != 0x02 || b.Number != 16 {
		t.Fatalf("txs %x number %d", a.Txs, b.Number)
	}
	if n, ok := b.State.Number(); !ok || n != rpc.LatestBlockNumber {
		t.Fatalf("state %v", b.State)
	}
	if *b.Coinbase != common.HexToAddress("0xc0") || *b.Timestamp != 1700000012 || *b.Timeout != 250*time.Millisecond ||
		*b.GasLimit != 30_000_000 || b.Difficulty.Cmp(big.NewInt(0x20000)) != 0 || b.BaseFee.Int64() != 7 {
		t.Fatalf("overrides %+v", b)
	}
}

func TestStateBlockForms(t *testing.T) {
	hash := "0x" + strings.Repeat("ab", 32)
	cases := map[string]func(rpc.BlockNumberOrHash) bool{
		`"stateBlockNumber":"0x5"`:   func(r rpc.BlockNumberOrHash) bool { n, ok := r.Number(); return ok && n == 5 },
		`"stateBlockNumber":5`:       func(r rpc.BlockNumberOrHash) bool { n, ok := r.Number(); return ok && n == 5 },
		`"stateBlockNumber":"5"`:     func(r rpc.BlockNumberOrHash) bool { n, ok := r.Number(); return ok && n == 5 },
		`"stateBlockNumberOrHash":5`: func(r rpc.BlockNumberOrHash) bool { n, ok := r.Number(); return ok && n == 5 },
		`"stateBlockNumber":"` + hash + `"`: func(r rpc.BlockNumberOrHash) bool {
			h, ok := r.Hash()
			return ok && h == common.HexToHash(hash)
		},
		`"stateBlockNumber":{"blockHash":"` + hash + `","requireCanonical":true}`: func(r rpc.BlockNumberOrHash) bool {
			_, ok := r.Hash()
			return ok && r.RequireCanonical
		},
		`"stateBlockNumber":"finalized"`: func(r rpc.BlockNumberOrHash) bool { n, ok := r.Number(); return ok && n == rpc.FinalizedBlockNumber },
	}
	for field, check := range cases {
		var a CallBundleArgs
		if err := json.Unmarshal([]byte(`{"txs":["0x01"],"blockNumber":6,`+field+`}`), &a); err != nil {
			t.Errorf("%s: %v", field, err)
			continue
		}
		if !check(a.Block.State) {
			t.Errorf("%s: decoded %+v", field, a.Block.State)
		}
	}
}

// Every malformed request gets its own error saying what was expected.
func TestCallBundleArgsErrors(t *testing.T) {
	cases := []struct {
		body string
		err  error
		msg  string
	}{
		{`[1,2]`, ErrBadRequest, "expected a JSON object"},
		{`null`, ErrBadRequest, "got null"},
		{`{"blockNumber":1,"stateBlockNumber":"latest"}`, bundle.ErrNoTxs, "expected txs"},
		{`{"txs":[],"blockNumber":1,"stateBlockNumber":"latest"}`, bundle.ErrNoTxs, "txs is empty"},
		{`{"txs":"0x01","blockNumber":1,"stateBlockNumber":"latest"}`, ErrBadRequest, "txs: expected an array"},
		{`{"txs":[1],"blockNumber":1,"stateBlockNumber":"latest"}`, ErrBadRequest, "txs[0]: expected a 0x-hex string"},
		{`{"txs":["0x01","0xzz"],"blockNumber":1,"stateBlockNumber":"latest"}`, ErrBadRequest, "txs[1]: invalid hex"},
		{`{"txs":["01"],"blockNumber":1,"stateBlockNumber":"latest"}`, ErrBadRequest, "txs[0]: invalid hex: hex string without 0x prefix"},
		{`{"txs":["0x01"],"stateBlockNumber":"latest"}`, bundle.ErrNoBlockNumber, "bundle missing blockNumber"},
		{`{"txs":["0x01"],"blockNumber":"latest","stateBlockNumber":"latest"}`, ErrBadRequest, `blockNumber: expected a non-negative integer`},
		{`{"txs":["0x01"],"blockNumber":-1,"stateBlockNumber":"latest"}`, ErrBadRequest, `got -1`},
		{`{"txs":["0x01"],"blockNumber":1.5,"stateBlockNumber":"latest"}`, ErrBadRequest, `got 1.5`},
		{`{"txs":["0x01"],"blockNumber":"0x10000000000000000","stateBlockNumber":"latest"}`, ErrBadRequest, "up to 2^64-1"},
		{`{"txs":["0x01"],"blockNumber":1}`, ErrBadRequest, "missing stateBlockNumber"},
		{`{"txs":["0x01"],"blockNumber":1,"stateBlockNumber":"soon"}`, ErrBadRequest, `stateBlockNumber: expected a block number, a 32-byte block hash or a tag`},
		{`{"txs":["0x01"],"blockNumber":1,"stateBlockNumber":1,"stateBlockNumberOrHash":1}`, ErrBadRequest, "not both"},
		{`{"txs":["0x01"],"blockNumber":1,"stateBlockNumber":1,"coinbase":"0x12"}`, ErrBadRequest, "coinbase: expected a 0x-prefixed 20-byte address"},
		{`{"txs":["0x01"],"blockNumber":1,"stateBlockNumber":1,"timestamp":"soon"}`, ErrBadRequest, "timestamp: expected"},
		{`{"txs":["0x01"],"blockNumber":1,"stateBlockNumber":1,"timeout":"1s"}`, ErrBadRequest, "timeout: expected an integer number of milliseconds"},
		{`{"txs":["0x01"],"blockNumber":1,"stateBlockNumber":1,"baseFee":"-1"}`, ErrBadRequest, "baseFee: expected"},
		{`{"txs":["0x01"],"blockNumber":1,"stateBlockNumber":1,"difficulty":"0x1` + strings.Repeat("0", 64) + `"}`, ErrBadRequest, "below 2^256"},
		{`{"txs":["0x01"],"blockNumber":1,"stateBlockNumber":1,"gasLimit":true}`, ErrBadRequest, "gasLimit: expected"},
	}
	for _, c := range cases {
		var a CallBundleArgs
		err := json.Unmarshal([]byte(c.body), &a)
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s:\n got %v\nwant %v containing %q", c.body, err, c.err, c.msg)
		}
	}
}

func TestEstimateArgsDecode(t *testing.T) {
	body := `{"txs":["0x02ab",{"from":"0x0000000000000000000000000000000000000001","to":"0x0000000000000000000000000000000000000002",
		"gas":"0x5208","maxFeePerGas":"0x3b9aca00","value":"1000","input":"0x1234","nonce":3}],"blockNumber":2,"stateBlockNumber":"latest"}`
	var a EstimateGasBundleArgs
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatal(err)
	}
	if len(a.Entries) != 2 || a.Entries[0].Raw == nil || a.Entries[1].Call == nil {
		t.Fatalf("entries %+v", a.Entries)
	}
	c := a.Entries[1].Call
	if c.From != common.HexToAddress("0x1") || *c.To != common.HexToAddress("0x2") || c.Gas != 21000 ||
		c.MaxFeePerGas.Int64() != 1e9 || c.Value.Int64() != 1000 || string(c.Data) != "\x12\x34" || *c.Nonce != 3 {
		t.Fatalf("call %+v", c)
	}
	bad := []struct{ entry, msg string }{
		{`{"to":"0x0000000000000000000000000000000000000002"}`, "txs[0].from: missing"},
		{`{"from":"0x01"}`, "txs[0].from: expected a 0x-prefixed 20-byte address"},
		{`{"from":"0x0000000000000000000000000000000000000001","gas":"lots"}`, "txs[0].gas: expected"},
		{`{"from":"0x0000000000000000000000000000000000000001","data":"0x12","input":"0x34"}`, "both data and input"},
		{`{"from":"0x0000000000000000000000000000000000000001","data":"12"}`, "txs[0].data: invalid hex"},
		{`{"from":"0x0000000000000000000000000000000000000001","accessList":5}`, "txs[0].accessList: expected an EIP-2930 access list"},
		{`true`, "txs[0]: expected a 0x-hex string"},
	}
	for _, c := range bad {
		var a EstimateGasBundleArgs
		err := json.Unmarshal([]byte(`{"txs":[`+c.entry+`],"blockNumber":2,"stateBlockNumber":"latest"}`), &a)
		if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: got %v, want %q", c.entry, err, c.msg)
		}
	}
}

// FuzzCallBundleArgs: any input decodes or fails with ErrBadRequest (or a
// bundle sentinel), never a panic.
func FuzzCallBundleArgs(f *testing.F) {
	f.Add([]byte(`{"txs":["0x02f8"],"blockNumber":"0x10","stateBlockNumber":"latest","timeout":5}`))
	f.Add([]byte(`{"txs":["0x02"],"blockNumber":1,"stateBlockNumberOrHash":{"blockHash":"0x0000000000000000000000000000000000000000000000000000000000000000"}}`))
	f.Add([]byte(`{"txs":[{"from":"0x0000000000000000000000000000000000000001"}],"blockNumber":"7","stateBlockNumber":7,"baseFee":"0x1"}`))
	f.Add([]byte(`{"txs":null}`))
	f.Add([]byte(`"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var a CallBundleArgs
		if err := json.Unmarshal(data, &a); err != nil && !isInputError(err) {
			if _, syntax := err.(*json.SyntaxError); !syntax {
				t.Fatalf("unclassified error %T: %v", err, err)
			}
		}
		var e EstimateGasBundleArgs
		if err := json.Unmarshal(data, &e); err != nil && !isInputError(err) {
			if _, syntax := err.(*json.SyntaxError); !syntax {
				t.Fatalf("unclassified error %T: %v", err, err)
			}
		}
	})
}
