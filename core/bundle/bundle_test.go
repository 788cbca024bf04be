package bundle

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/params"
)

func signed(t testing.TB, chainID int64, nonce uint64) []byte {
	t.Helper()
	key := params.DevAccounts()[0].Key
	tx := types.MustSignNewTx(key, types.LatestSignerForChainID(big.NewInt(chainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(chainID), Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1e9),
		Gas: 21000, To: &common.Address{1},
	})
	raw, err := tx.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestHash(t *testing.T) {
	var txs []*types.Transaction
	for i := range 3 {
		tx := new(types.Transaction)
		if err := tx.UnmarshalBinary(signed(t, params.DevChainID, uint64(i))); err != nil {
			t.Fatal(err)
		}
		txs = append(txs, tx)
	}
	one := txs[0].Hash()
	if got := Hash(txs[:1]); got == one || got != crypto.Keccak256Hash(one[:]) {
		t.Fatalf("one-tx bundle hash %v: want keccak(txHash), not the tx hash", got)
	}
	var cat []byte
	for _, tx := range txs {
		h := tx.Hash()
		cat = append(cat, h[:]...)
	}
	if got, want := Hash(txs), crypto.Keccak256Hash(cat); got != want {
		t.Fatalf("hash %v want %v", got, want)
	}
	if Hash(txs) != HashOf([]common.Hash{txs[0].Hash(), txs[1].Hash(), txs[2].Hash()}) {
		t.Fatal("Bundle.Hash and HashOf disagree")
	}
	if Hash([]*types.Transaction{txs[1], txs[0]}) == Hash(txs[:2]) {
		t.Fatal("order must change the hash")
	}
}

func TestDecodeTxsLimits(t *testing.T) {
	cfg := Config{MaxTxs: 3, MaxBytes: 400}
	raw := signed(t, params.DevChainID, 0)
	ok := [][]byte{raw, raw, raw}
	if len(raw)*3 > 400 {
		t.Fatalf("fixture tx too large: %d bytes", len(raw))
	}
	if _, err := cfg.DecodeTxs(ok, params.DevChainID); err != nil {
		t.Fatalf("at the limits: %v", err)
	}
	cases := []struct {
		raw [][]byte
		cfg Config
		err error
		msg string
	}{
		{nil, cfg, ErrNoTxs, "bundle missing txs"},
		{[][]byte{raw, raw, raw, raw}, cfg, ErrTooManyTxs, "4 txs, at most 3 allowed"},
		{[][]byte{raw, raw, raw}, Config{MaxTxs: 3, MaxBytes: 3*len(raw) - 1}, ErrTooLarge, "at most"},
		{[][]byte{raw, {}}, cfg, ErrBadTx, "tx 1 is empty"},
		{[][]byte{{0x02, 0x01}}, cfg, ErrBadTx, "tx 0: "},
		{[][]byte{{0xc0}}, cfg, ErrBadTx, "expected a signed EIP-2718 transaction"},
		{[][]byte{raw, signed(t, 1, 0)}, cfg, ErrWrongChain, "has chain id 1, expected 1337"},
	}
	for i, c := range cases {
		_, err := c.cfg.DecodeTxs(c.raw, params.DevChainID)
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("case %d: got %v, want %v containing %q", i, err, c.err, c.msg)
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	c := Config{}.WithDefaults()
	if c.MaxTxs != DefaultMaxTxs || c.MaxBytes != DefaultMaxBytes || c.DefaultTimeout != DefaultTimeout || c.MaxTimeout != DefaultMaxTimeout {
		t.Fatalf("defaults %+v", c)
	}
	// A max timeout below the default timeout lowers the default with it.
	if c := (Config{MaxTimeout: DefaultTimeout / 2}).WithDefaults(); c.DefaultTimeout != DefaultTimeout/2 {
		t.Fatalf("default timeout %v above max %v", c.DefaultTimeout, c.MaxTimeout)
	}
}

func TestRevertReason(t *testing.T) {
	reason := hexutil.MustDecode("0x08c379a0" +
		"0000000000000000000000000000000000000000000000000000000000000020" +
		"0000000000000000000000000000000000000000000000000000000000000004" +
		"6e6f706500000000000000000000000000000000000000000000000000000000")
	cases := map[string][]byte{
		"nope":       reason,
		"0x":         nil,
		"0xdeadbeef": {0xde, 0xad, 0xbe, 0xef},
		"0x08c379a0": {0x08, 0xc3, 0x79, 0xa0}, // selector without a payload
		"0x4e487b710000000000000000000000000000000000000000000000000000000000000001": hexutil.MustDecode("0x4e487b710000000000000000000000000000000000000000000000000000000000000001"),
	}
	for want, data := range cases {
		if got := RevertReason(data); got != want {
			t.Errorf("RevertReason(%x) = %q, want %q", data, got, want)
		}
	}
}

// FuzzDecodeTx: arbitrary bytes decode or fail with ErrBadTx/ErrWrongChain.
func FuzzDecodeTx(f *testing.F) {
	f.Add(signed(f, params.DevChainID, 0))
	f.Add(signed(f, 1, 5))
	f.Add([]byte{0x02})
	f.Add([]byte{0xf8, 0x00})
	f.Fuzz(func(t *testing.T, raw []byte) {
		tx, err := DecodeTx(0, raw, params.DevChainID)
		if err != nil {
			if !errors.Is(err, ErrBadTx) && !errors.Is(err, ErrWrongChain) {
				t.Fatalf("unclassified error: %v", err)
			}
			return
		}
		if tx == nil {
			t.Fatal("nil tx without error")
		}
	})
}

func FuzzRevertReason(f *testing.F) {
	f.Add([]byte{0x08, 0xc3, 0x79, 0xa0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if RevertReason(data) == "" && len(data) < 4 {
			t.Fatal("empty rendering of short data")
		}
	})
}
