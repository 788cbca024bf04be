package bundle

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

func TestValidateSend(t *testing.T) {
	tx := hexutil.MustDecode(signTx(t, testKey, dynTx(0, 1, testChainID)))
	tx2 := hexutil.MustDecode(signTx(t, testKey, dynTx(1, 1, testChainID)))
	var args SendBundleArgs
	body := `{"txs":["` + hexutil.Encode(tx) + `","` + hexutil.Encode(tx2) + `"],"blockNumber":"0xb","minTimestamp":5,"maxTimestamp":"9","replacementUuid":"123E4567-e89b-12d3-a456-426614174000"}`
	if err := json.Unmarshal([]byte(body), &args); err != nil {
		t.Fatal(err)
	}
	b, err := ValidateSend(args, testChainID, 10, DefaultSendLimits)
	if err != nil {
		t.Fatal(err)
	}
	if b.BlockNumber != 11 || b.MinTimestamp != 5 || b.MaxTimestamp != 9 || b.ReplacementUUID != "123e4567-e89b-12d3-a456-426614174000" {
		t.Fatalf("%+v", b)
	}
	if !b.ValidTime(5) || !b.ValidTime(9) || b.ValidTime(4) || b.ValidTime(10) {
		t.Fatal("timestamp window")
	}
	if b.Hash != HashOf([]common.Hash{b.Txs[0].Hash(), b.Txs[1].Hash()}) {
		t.Fatal("hash")
	}

	with := func(f func(a *SendBundleArgs)) SendBundleArgs {
		a := SendBundleArgs{Txs: []hexutil.Bytes{tx}, BlockNumber: 11}
		f(&a)
		return a
	}
	u := func(v Uint64) *Uint64 { return &v }
	for name, tt := range map[string]struct {
		args SendBundleArgs
		want error
	}{
		"no txs":         {with(func(a *SendBundleArgs) { a.Txs = nil }), ErrSendNoTxs},
		"no block":       {with(func(a *SendBundleArgs) { a.BlockNumber = 0 }), ErrSendNoBlockNumber},
		"past block":     {with(func(a *SendBundleArgs) { a.BlockNumber = 10 }), ErrSendBlockPast},
		"too far":        {with(func(a *SendBundleArgs) { a.BlockNumber = 10 + 257 }), ErrSendBlockTooFar},
		"bad timestamps": {with(func(a *SendBundleArgs) { a.MinTimestamp, a.MaxTimestamp = u(9), u(8) }), ErrSendTimestamps},
		"garbage tx":     {with(func(a *SendBundleArgs) { a.Txs = []hexutil.Bytes{{2, 1}} }), ErrSendTxDecode},
		"duplicate":      {with(func(a *SendBundleArgs) { a.Txs = []hexutil.Bytes{tx, tx} }), ErrSendDuplicateTx},
		"reverting":      {with(func(a *SendBundleArgs) { a.RevertingTxHashes = []common.Hash{{1}} }), ErrSendRevertingHash},
		"uuid":           {with(func(a *SendBundleArgs) { a.ReplacementUUID = "nope" }), ErrSendReplacementID},
		"other chain":    {with(func(a *SendBundleArgs) {}), ErrSendTxChainID},
	} {
		chain := uint64(testChainID)
		if name == "other chain" {
			chain = 1
		}
		if _, err := ValidateSend(tt.args, chain, 10, DefaultSendLimits); !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", name, err, tt.want)
		}
	}
}

func TestUint64JSON(t *testing.T) {
	for in, want := range map[string]uint64{`12`: 12, `"0xc"`: 12, `"12"`: 12} {
		var n Uint64
		if err := json.Unmarshal([]byte(in), &n); err != nil || uint64(n) != want {
			t.Errorf("%s: %d %v", in, n, err)
		}
	}
	for _, in := range []string{`-1`, `"0x"`, `"abc"`, `1.5`, `"18446744073709551616"`, `true`} {
		var n Uint64
		if err := json.Unmarshal([]byte(in), &n); err == nil {
			t.Errorf("%s accepted as %d", in, n)
		}
	}
}

func FuzzSendBundleArgs(f *testing.F) {
	f.Add([]byte(`{"txs":["0x02"],"blockNumber":"0xb"}`))
	f.Add([]byte(`{"txs":[],"blockNumber":12,"minTimestamp":"5","maxTimestamp":1}`))
	f.Add([]byte(`{"txs":["` + signTx(f, testKey, dynTx(0, 1, testChainID)) + `"],"blockNumber":"11","replacementUuid":"123e4567-e89b-12d3-a456-426614174000"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var args SendBundleArgs
		if json.Unmarshal(data, &args) != nil {
			return
		}
		b, err := ValidateSend(args, testChainID, 10, DefaultSendLimits)
		if err == nil && (b.BlockNumber <= 10 || len(b.Txs) == 0 || len(b.Txs) > DefaultSendLimits.MaxTxs) {
			t.Fatalf("accepted an invalid bundle: %+v", b)
		}
	})
}

func TestValidateSendLimits(t *testing.T) {
	var txs []hexutil.Bytes
	total := 0
	for i := 0; i < 4; i++ {
		raw := hexutil.MustDecode(signTx(t, testKey, dynTx(uint64(i), 1, testChainID)))
		txs = append(txs, raw)
		total += len(raw)
	}
	lim := SendLimits{MaxTxs: 3, MaxBytes: 1 << 20, MaxBlocksAhead: 5}
	if _, err := ValidateSend(SendBundleArgs{Txs: txs[:3], BlockNumber: 11}, testChainID, 10, lim); err != nil {
		t.Fatalf("at MaxTxs: %v", err)
	}
	if _, err := ValidateSend(SendBundleArgs{Txs: txs, BlockNumber: 11}, testChainID, 10, lim); !errors.Is(err, ErrSendTooManyTxs) {
		t.Fatalf("one past MaxTxs: %v", err)
	}
	lim = SendLimits{MaxTxs: 10, MaxBytes: total, MaxBlocksAhead: 5}
	if _, err := ValidateSend(SendBundleArgs{Txs: txs, BlockNumber: 15}, testChainID, 10, lim); err != nil {
		t.Fatalf("at MaxBytes and MaxBlocksAhead: %v", err)
	}
	lim.MaxBytes = total - 1
	if _, err := ValidateSend(SendBundleArgs{Txs: txs, BlockNumber: 11}, testChainID, 10, lim); !errors.Is(err, ErrSendTooLarge) {
		t.Fatalf("one byte past MaxBytes: %v", err)
	}
}
