package bundleapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
)

// ErrBadRequest is wrapped by every request decoding error: malformed
// JSON, a field of the wrong type or format, a missing required field.
var ErrBadRequest = errors.New("invalid bundle request")

// CallBundleArgs is the request of eth_callBundle (SEED.md CallBundleArgs,
// Flashbots-compatible). Numbers are accepted as JSON numbers, 0x-hex or
// decimal strings; the state block under the Flashbots key
// stateBlockNumber or the key stateBlockNumberOrHash.
type CallBundleArgs struct {
	// Txs are the signed raw transactions, in bundle order.
	Txs [][]byte
	// Block is where and how the bundle runs.
	Block bundle.Block
}

// EstimateGasBundleArgs is the request of eth_estimateGasBundle: the same
// fields as CallBundleArgs, but each entry of txs is either a signed raw
// transaction (a hex string) or a call object (from, to, gas, gasPrice,
// maxFeePerGas, maxPriorityFeePerGas, value, data or input, nonce,
// accessList).
type EstimateGasBundleArgs struct {
	// Entries holds, per position, a raw tx or a call.
	Entries []EstimateEntry
	// Block is where and how the bundle runs.
	Block bundle.Block
}

// EstimateEntry is one entry of EstimateGasBundleArgs: Raw or Call.
type EstimateEntry struct {
	Raw  []byte
	Call *chain.SimCall
}

// UnmarshalJSON decodes and checks the request's shape.
func (a *CallBundleArgs) UnmarshalJSON(data []byte) error {
	fields, err := decodeObject(data)
	if err != nil {
		return err
	}
	// Fast path: an array of strings, decoded in one pass.
	if v, ok := present(fields, "txs"); ok {
		var strs []string
		if json.Unmarshal(v, &strs) == nil && len(strs) > 0 {
			a.Txs = make([][]byte, len(strs))
			for i, s := range strs {
				if a.Txs[i], err = hexutil.Decode(s); err != nil {
					return badRequest("txs[%d]: invalid hex: %v", i, err)
				}
			}
			return decodeBlock(fields, &a.Block)
		}
	}
	items, err := txList(fields)
	if err != nil {
		return err
	}
	a.Txs = make([][]byte, len(items))
	for i, it := range items {
		if a.Txs[i], err = rawTx(i, it); err != nil {
			return err
		}
	}
	return decodeBlock(fields, &a.Block)
}

// UnmarshalJSON decodes and checks the request's shape.
func (a *EstimateGasBundleArgs) UnmarshalJSON(data []byte) error {
	fields, err := decodeObject(data)
	if err != nil {
		return err
	}
	items, err := txList(fields)
	if err != nil {
		return err
	}
	a.Entries = make([]EstimateEntry, len(items))
	for i, it := range items {
		if t := bytes.TrimSpace(it); len(t) > 0 && t[0] == '{' {
			call, err := decodeCall(i, t)
			if err != nil {
				return err
			}
			a.Entries[i].Call = call
			continue
		}
		if a.Entries[i].Raw, err = rawTx(i, it); err != nil {
			return err
		}
	}
	return decodeBlock(fields, &a.Block)
}

func badRequest(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadRequest, fmt.Sprintf(format, args...))
}

// decodeObject splits a JSON object into its fields.
func decodeObject(data []byte) (map[string]json.RawMessage, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, badRequest("expected a JSON object with txs, blockNumber and stateBlockNumber: %v", err)
	}
	if fields == nil {
		return nil, badRequest("expected a JSON object with txs, blockNumber and stateBlockNumber, got null")
	}
	return fields, nil
}

// present reports whether a field is given and not null.
func present(fields map[string]json.RawMessage, key string) (json.RawMessage, bool) {
	v, ok := fields[key]
	if !ok || string(bytes.TrimSpace(v)) == "null" {
		return nil, false
	}
	return v, true
}

func txList(fields map[string]json.RawMessage) ([]json.RawMessage, error) {
	v, ok := present(fields, "txs")
	if !ok {
		return nil, fmt.Errorf("%w: expected txs, an array of signed transactions", bundle.ErrNoTxs)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return nil, badRequest("txs: expected an array of 0x-hex signed transactions, got %s", snippet(v))
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("%w: txs is empty", bundle.ErrNoTxs)
	}
	return items, nil
}

func rawTx(i int, v json.RawMessage) ([]byte, error) {
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return nil, badRequest("txs[%d]: expected a 0x-hex string, got %s", i, snippet(v))
	}
	b, err := hexutil.Decode(s)
	if err != nil {
		return nil, badRequest("txs[%d]: invalid hex: %v", i, err)
	}
	return b, nil
}

func decodeBlock(fields map[string]json.RawMessage, b *bundle.Block) error {
	var err error
	v, ok := present(fields, "blockNumber")
	if !ok {
		return fmt.Errorf("%w: expected the number of the block the bundle targets", bundle.ErrNoBlockNumber)
	}
	if b.Number, err = decodeUint("blockNumber", v); err != nil {
		return err
	}
	sv, okFB := present(fields, "stateBlockNumber")
	ov, okSeed := present(fields, "stateBlockNumberOrHash")
	switch {
	case okFB && okSeed:
		return badRequest("give stateBlockNumber or stateBlockNumberOrHash, not both")
	case okSeed:
		sv = ov
	case !okFB:
		return badRequest("missing stateBlockNumber: expected a block number, hash or tag such as \"latest\"")
	}
	if b.State, err = decodeBlockRef(sv); err != nil {
		return err
	}
	if v, ok := present(fields, "coinbase"); ok {
		var addr common.Address
		if err := json.Unmarshal(v, &addr); err != nil {
			return badRequest("coinbase: expected a 0x-prefixed 20-byte address, got %s", snippet(v))
		}
		b.Coinbase = &addr
	}
	if v, ok := present(fields, "timestamp"); ok {
		ts, err := decodeUint("timestamp", v)
		if err != nil {
			return err
		}
		b.Timestamp = &ts
	}
	if v, ok := present(fields, "gasLimit"); ok {
		gl, err := decodeUint("gasLimit", v)
		if err != nil {
			return err
		}
		b.GasLimit = &gl
	}
	if v, ok := present(fields, "difficulty"); ok {
		if b.Difficulty, err = decodeBig("difficulty", v); err != nil {
			return err
		}
	}
	if v, ok := present(fields, "baseFee"); ok {
		if b.BaseFee, err = decodeBig("baseFee", v); err != nil {
			return err
		}
	}
	if v, ok := present(fields, "timeout"); ok {
		ms, err := decodeInt("timeout", v)
		if err != nil {
			return err
		}
		d := time.Duration(math.MaxInt64)
		if ms < math.MaxInt64/int64(time.Millisecond) && ms > math.MinInt64/int64(time.Millisecond) {
			d = time.Duration(ms) * time.Millisecond
		}
		b.Timeout = &d
	}
	return nil
}

// decodeBlockRef accepts what rpc.BlockNumberOrHash accepts plus a JSON
// number or a decimal string.
func decodeBlockRef(v json.RawMessage) (rpc.BlockNumberOrHash, error) {
	var ref rpc.BlockNumberOrHash
	if err := json.Unmarshal(v, &ref); err == nil {
		return ref, nil
	}
	n, err := decodeUint("stateBlockNumber", v)
	if err != nil || n > math.MaxInt64 {
		return ref, badRequest("stateBlockNumber: expected a block number, a 32-byte block hash or a tag (latest, pending, safe, finalized, earliest), got %s", snippet(v))
	}
	return rpc.BlockNumberOrHashWithNumber(rpc.BlockNumber(n)), nil
}

const numberFormats = "a non-negative integer as a JSON number, a 0x-hex string or a decimal string"

// numberText extracts the digits of a JSON number or string.
func numberText(v json.RawMessage) (text string, base int, ok bool) {
	t := strings.TrimSpace(string(v))
	if strings.HasPrefix(t, `"`) {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return "", 0, false
		}
		if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
			return s[2:], 16, len(s) > 2
		}
		return s, 10, s != ""
	}
	return t, 10, t != ""
}

func decodeUint(name string, v json.RawMessage) (uint64, error) {
	text, base, ok := numberText(v)
	if ok {
		if n, err := strconv.ParseUint(text, base, 64); err == nil {
			return n, nil
		}
	}
	return 0, badRequest("%s: expected %s up to 2^64-1, got %s", name, numberFormats, snippet(v))
}

func decodeInt(name string, v json.RawMessage) (int64, error) {
	text, base, ok := numberText(v)
	if ok {
		if n, err := strconv.ParseInt(text, base, 64); err == nil {
			return n, nil
		}
	}
	return 0, badRequest("%s: expected an integer number of milliseconds, got %s", name, snippet(v))
}

func decodeBig(name string, v json.RawMessage) (*big.Int, error) {
	text, base, ok := numberText(v)
	if ok && !strings.HasPrefix(text, "-") && !strings.HasPrefix(text, "+") {
		if n, ok := new(big.Int).SetString(text, base); ok && n.BitLen() <= 256 {
			return n, nil
		}
	}
	return nil, badRequest("%s: expected %s below 2^256, got %s", name, numberFormats, snippet(v))
}

// snippet quotes at most 64 bytes of a value for an error message.
func snippet(v json.RawMessage) string {
	const max = 64
	s := strings.TrimSpace(string(v))
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}

// decodeCall decodes a call object of eth_estimateGasBundle.
func decodeCall(i int, v json.RawMessage) (*chain.SimCall, error) {
	fields, err := decodeObject(v)
	if err != nil {
		return nil, badRequest("txs[%d]: expected a call object: %v", i, err)
	}
	c := new(chain.SimCall)
	name := func(f string) string { return fmt.Sprintf("txs[%d].%s", i, f) }
	fv, ok := present(fields, "from")
	if !ok {
		return nil, badRequest("%s: missing, a call object needs its sender", name("from"))
	}
	if err := json.Unmarshal(fv, &c.From); err != nil {
		return nil, badRequest("%s: expected a 0x-prefixed 20-byte address, got %s", name("from"), snippet(fv))
	}
	if tv, ok := present(fields, "to"); ok {
		var to common.Address
		if err := json.Unmarshal(tv, &to); err != nil {
			return nil, badRequest("%s: expected a 0x-prefixed 20-byte address, got %s", name("to"), snippet(tv))
		}
		c.To = &to
	}
	if gv, ok := present(fields, "gas"); ok {
		if c.Gas, err = decodeUint(name("gas"), gv); err != nil {
			return nil, err
		}
	}
	if nv, ok := present(fields, "nonce"); ok {
		n, err := decodeUint(name("nonce"), nv)
		if err != nil {
			return nil, err
		}
		c.Nonce = &n
	}
	for key, dst := range map[string]**big.Int{
		"gasPrice": &c.GasPrice, "maxFeePerGas": &c.MaxFeePerGas,
		"maxPriorityFeePerGas": &c.MaxPriorityFeePerGas, "value": &c.Value,
	} {
		if bv, ok := present(fields, key); ok {
			if *dst, err = decodeBig(name(key), bv); err != nil {
				return nil, err
			}
		}
	}
	var data, input []byte
	for key, dst := range map[string]*[]byte{"data": &data, "input": &input} {
		if dv, ok := present(fields, key); ok {
			var s string
			if json.Unmarshal(dv, &s) != nil {
				return nil, badRequest("%s: expected a 0x-hex string, got %s", name(key), snippet(dv))
			}
			if *dst, err = hexutil.Decode(s); err != nil {
				return nil, badRequest("%s: invalid hex: %v", name(key), err)
			}
		}
	}
	if data != nil && input != nil && !bytes.Equal(data, input) {
		return nil, badRequest("txs[%d]: both data and input given and they differ; give one", i)
	}
	c.Data = input
	if c.Data == nil {
		c.Data = data
	}
	if av, ok := present(fields, "accessList"); ok {
		if err := json.Unmarshal(av, &c.AccessList); err != nil {
			return nil, badRequest("%s: expected an EIP-2930 access list: %v", name("accessList"), err)
		}
	}
	return c, nil
}

// callDataSize is what a call object counts against the byte limit.
func callDataSize(c *chain.SimCall) int { return len(c.Data) }
