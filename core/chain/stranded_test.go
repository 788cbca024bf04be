package chain

import (
	"math/big"
	"slices"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/txpool"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"
)

// queuedPool stands in for geth's pool in the state a coalesced reset and
// promotion leaves it in (go-ethereum issue 35649): a sender's next tx sits
// in the queue although its predecessor is pending.
type queuedPool map[common.Address][]*types.Transaction

func (p queuedPool) ContentFrom(addr common.Address) (pending, queued []*types.Transaction) {
	return nil, p[addr]
}

func TestAddStranded(t *testing.T) {
	chainID := big.NewInt(1337)
	key, _ := crypto.GenerateKey()
	from := crypto.PubkeyToAddress(key.PublicKey)
	signer := types.LatestSignerForChainID(chainID)
	tx := func(nonce uint64, feeCap int64) *types.Transaction {
		tx, err := types.SignNewTx(key, signer, &types.DynamicFeeTx{ChainID: chainID, Nonce: nonce,
			GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(feeCap), Gas: 21000, To: &common.Address{1}})
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}
	lazy := func(txs ...*types.Transaction) []*txpool.LazyTransaction {
		var out []*txpool.LazyTransaction
		for _, tx := range txs {
			out = append(out, &txpool.LazyTransaction{Hash: tx.Hash(), Tx: tx, Gas: tx.Gas(),
				GasFeeCap: uint256.MustFromBig(tx.GasFeeCap()), GasTipCap: uint256.MustFromBig(tx.GasTipCap())})
		}
		return out
	}
	const fee = 10e9
	for _, tc := range []struct {
		name    string
		pending []*types.Transaction
		queued  []*types.Transaction
		baseFee uint64
		want    []uint64 // nonces handed to the block
	}{
		{"next queued joins", []*types.Transaction{tx(4, fee)}, []*types.Transaction{tx(5, fee), tx(6, fee)}, 0, []uint64{4, 5, 6}},
		{"gap stays queued", []*types.Transaction{tx(4, fee)}, []*types.Transaction{tx(6, fee)}, 0, []uint64{4}},
		{"run ends at a gap", []*types.Transaction{tx(4, fee)}, []*types.Transaction{tx(5, fee), tx(7, fee)}, 0, []uint64{4, 5}},
		{"run ends below the base fee", []*types.Transaction{tx(4, fee)}, []*types.Transaction{tx(5, fee), tx(6, 1e9), tx(7, fee)}, 2e9, []uint64{4, 5}},
		{"stale queued nonce skipped", []*types.Transaction{tx(4, fee), tx(5, fee)}, []*types.Transaction{tx(5, fee+1), tx(6, fee)}, 0, []uint64{4, 5, 6}},
		{"nothing queued", []*types.Transaction{tx(4, fee)}, nil, 0, []uint64{4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pending := map[common.Address][]*txpool.LazyTransaction{from: lazy(tc.pending...)}
			var baseFee *uint256.Int
			if tc.baseFee > 0 {
				baseFee = uint256.NewInt(tc.baseFee)
			}
			addStranded(queuedPool{from: tc.queued}, pending, baseFee)
			var got []uint64
			for _, ltx := range pending[from] {
				got = append(got, ltx.Tx.Nonce())
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("nonces for the block %v, want %v", got, tc.want)
			}
		})
	}
}
