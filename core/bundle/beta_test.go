package bundle

import (
	"crypto/ecdsa"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"
)

const testChainID = 1337

var testKey, _ = crypto.HexToECDSA("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")

func signTx(t testing.TB, key *ecdsa.PrivateKey, inner types.TxData) string {
	t.Helper()
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(testChainID)), inner)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return hexutil.Encode(raw)
}

func dynTx(nonce, tip uint64, chainID int64) *types.DynamicFeeTx {
	to := common.Address{1}
	return &types.DynamicFeeTx{ChainID: big.NewInt(chainID), Nonce: nonce, GasTipCap: new(big.Int).SetUint64(tip),
		GasFeeCap: big.NewInt(2e9), Gas: 21000, To: &to, Value: big.NewInt(1)}
}

func sp(s string) *string { return &s }

func TestValidateBetaAccepts(t *testing.T) {
	tx := signTx(t, testKey, dynTx(0, 0, testChainID))
	b, err := ValidateBeta(BetaBundleArgs{Txs: []string{tx}, Slot: sp("105")}, testChainID, 100, DefaultBetaLimits)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := hexutil.Decode(tx)
	txHash := crypto.Keccak256Hash(raw)
	if want := crypto.Keccak256Hash(txHash[:]); b.Hash != want {
		t.Fatalf("hash %s, want keccak(txhash) %s", b.Hash, want)
	}
	if b.Slot != 105 || len(b.Txs) != 1 {
		t.Fatalf("slot %d txs %d", b.Slot, len(b.Txs))
	}
	// The slot is not hashed.
	b2, err := ValidateBeta(BetaBundleArgs{Txs: []string{tx}, Slot: sp("100")}, testChainID, 100, DefaultBetaLimits)
	if err != nil || b2.Hash != b.Hash {
		t.Fatalf("other slot: %v %s", err, b2.Hash)
	}
	// Type 4 is accepted.
	auth, _ := types.SignSetCode(testKey, types.SetCodeAuthorization{ChainID: *uint256.NewInt(testChainID), Address: common.Address{9}, Nonce: 1})
	sc := signTx(t, testKey, &types.SetCodeTx{ChainID: uint256.NewInt(testChainID), GasFeeCap: uint256.NewInt(2e9), Gas: 50000,
		To: common.Address{2}, AuthList: []types.SetCodeAuthorization{auth}})
	if _, err := ValidateBeta(BetaBundleArgs{Txs: []string{sc}, Slot: sp("100")}, testChainID, 100, DefaultBetaLimits); err != nil {
		t.Fatal(err)
	}
}

func TestValidateBetaErrors(t *testing.T) {
	good := signTx(t, testKey, dynTx(0, 0, testChainID))
	good2 := signTx(t, testKey, dynTx(1, 0, testChainID))
	to := common.Address{1}
	legacy := signTx(t, testKey, &types.LegacyTx{Nonce: 0, GasPrice: big.NewInt(1e9), Gas: 21000, To: &to})
	accessList := signTx(t, testKey, &types.AccessListTx{ChainID: big.NewInt(testChainID), GasPrice: big.NewInt(1e9), Gas: 21000, To: &to})
	tipped := signTx(t, testKey, dynTx(0, 1, testChainID))
	blob := signTx(t, testKey, &types.BlobTx{ChainID: uint256.NewInt(testChainID), GasFeeCap: uint256.NewInt(2e9), Gas: 21000,
		BlobFeeCap: uint256.NewInt(1), BlobHashes: []common.Hash{{0x01}}})
	// Signed for another chain: a type-2 tx carries its chain id, so sign it
	// with that chain's signer.
	otherTx, _ := types.SignNewTx(testKey, types.LatestSignerForChainID(big.NewInt(1)), dynTx(0, 0, 1))
	otherRaw, _ := otherTx.MarshalBinary()
	otherChain := hexutil.Encode(otherRaw)
	unsigned, _ := types.NewTx(dynTx(0, 0, testChainID)).MarshalBinary()

	lim := BetaLimits{MaxTxs: 3, MaxBytes: 300, Horizon: 10}
	many := []string{good, good2, signTx(t, testKey, dynTx(2, 0, testChainID)), signTx(t, testKey, dynTx(3, 0, testChainID))}
	big := []string{good, good2, signTx(t, testKey, dynTx(2, 0, testChainID))} // 3 x ~113 bytes > 300

	tests := []struct {
		name string
		txs  []string
		slot *string
		want error
	}{
		{"no txs", nil, sp("100"), ErrBetaNoTxs},
		{"one past max txs", many, sp("100"), ErrBetaTooManyTxs},
		{"too many bytes", big, sp("100"), ErrBetaTooLarge},
		{"missing 0x", []string{good[2:]}, sp("100"), ErrBetaTxHex},
		{"only 0x", []string{"0x"}, sp("100"), ErrBetaTxHex},
		{"odd hex", []string{good + "0"}, sp("100"), ErrBetaTxHex},
		{"non-hex char", []string{good[:10] + "zz" + good[12:]}, sp("100"), ErrBetaTxHex},
		{"garbage bytes", []string{"0x02abcdef"}, sp("100"), ErrBetaTxDecode},
		{"unsigned", []string{hexutil.Encode(unsigned)}, sp("100"), ErrBetaTxDecode},
		{"legacy", []string{legacy}, sp("100"), ErrBetaTxType},
		{"access list", []string{accessList}, sp("100"), ErrBetaTxType},
		{"blob", []string{blob}, sp("100"), ErrBetaBlobTx},
		{"other chain", []string{otherChain}, sp("100"), ErrBetaTxChainID},
		{"tipped", []string{tipped}, sp("100"), ErrBetaPriorityFee},
		{"duplicate", []string{good, good}, sp("100"), ErrBetaDuplicateTx},
		{"slot missing", []string{good}, nil, ErrBetaSlotMissing},
		{"slot empty", []string{good}, sp(""), ErrBetaSlotFormat},
		{"slot hex", []string{good}, sp("0x64"), ErrBetaSlotFormat},
		{"slot negative", []string{good}, sp("-1"), ErrBetaSlotFormat},
		{"slot space", []string{good}, sp(" 100"), ErrBetaSlotFormat},
		{"slot overflow", []string{good}, sp("18446744073709551616"), ErrBetaSlotFormat},
		{"slot past", []string{good}, sp("99"), ErrBetaSlotPast},
		{"slot one past horizon", []string{good}, sp("111"), ErrBetaSlotTooFar},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ValidateBeta(BetaBundleArgs{Txs: tt.txs, Slot: tt.slot}, testChainID, 100, lim)
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
	// The edge of each limit is accepted.
	if _, err := ValidateBeta(BetaBundleArgs{Txs: many[:3], Slot: sp("110")}, testChainID, 100, BetaLimits{MaxTxs: 3, MaxBytes: 1000, Horizon: 10}); err != nil {
		t.Fatalf("at the limits: %v", err)
	}
	// The message names the priority fee.
	_, err := ValidateBeta(BetaBundleArgs{Txs: []string{tipped}, Slot: sp("100")}, testChainID, 100, lim)
	if !strings.Contains(err.Error(), "maxPriorityFeePerGas") {
		t.Fatalf("message %q does not name the priority fee", err)
	}
}

func TestHashOf(t *testing.T) {
	a, b := common.Hash{1}, common.Hash{2}
	if got, want := HashOf([]common.Hash{a, b}), crypto.Keccak256Hash(a[:], b[:]); got != want {
		t.Fatalf("got %s, want keccak(a||b) %s", got, want)
	}
	if HashOf([]common.Hash{a, b}) == HashOf([]common.Hash{b, a}) {
		t.Fatal("order must matter")
	}
	if HashOf([]common.Hash{a}) == a {
		t.Fatal("a one-tx bundle is hashed once")
	}
}

func FuzzValidateBeta(f *testing.F) {
	f.Add("0x02", "1")
	f.Add(signTx(f, testKey, dynTx(0, 0, testChainID)), "100")
	f.Add("0xzz", "x")
	f.Fuzz(func(t *testing.T, tx, slot string) {
		b, err := ValidateBeta(BetaBundleArgs{Txs: []string{tx}, Slot: &slot}, testChainID, 100, DefaultBetaLimits)
		if err == nil && (b.Txs[0].GasTipCap().Sign() != 0 || b.Slot < 100) {
			t.Fatalf("accepted a bundle breaking the rules: %+v", b)
		}
	})
}

func TestValidateBetaByteLimit(t *testing.T) {
	a, b := signTx(t, testKey, dynTx(0, 0, testChainID)), signTx(t, testKey, dynTx(1, 0, testChainID))
	total := (len(a) - 2 + len(b) - 2) / 2
	lim := BetaLimits{MaxTxs: 10, MaxBytes: total, Horizon: 1}
	if _, err := ValidateBeta(BetaBundleArgs{Txs: []string{a, b}, Slot: sp("100")}, testChainID, 100, lim); err != nil {
		t.Fatalf("at MaxBytes: %v", err)
	}
	lim.MaxBytes--
	if _, err := ValidateBeta(BetaBundleArgs{Txs: []string{a, b}, Slot: sp("100")}, testChainID, 100, lim); !errors.Is(err, ErrBetaTooLarge) {
		t.Fatalf("one byte past MaxBytes: %v", err)
	}
}
