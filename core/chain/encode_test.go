package chain

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// FuzzDecodeBuilt: DecodeBuilt never panics, and what it accepts encodes
// back to a block of the same hash.
func FuzzDecodeBuilt(f *testing.F) {
	h := &types.Header{Number: big.NewInt(7), GasLimit: 30_000_000, BaseFee: big.NewInt(1), Difficulty: new(big.Int),
		WithdrawalsHash: &types.EmptyWithdrawalsHash, ParentBeaconRoot: &common.Hash{1}}
	seed, err := EncodeBlock(&BuiltBlock{Block: types.NewBlockWithHeader(h).WithBody(types.Body{Withdrawals: []*types.Withdrawal{}})})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte{})
	f.Add([]byte{0xc0})
	f.Fuzz(func(t *testing.T, raw []byte) {
		b, err := DecodeBuilt(raw, nil)
		if err != nil {
			return
		}
		again, err := EncodeBlock(b)
		if err != nil {
			t.Fatal(err)
		}
		b2, err := DecodeBuilt(again, nil)
		if err != nil || b2.Block.Hash() != b.Block.Hash() || b2.Envelope.ExecutionPayload.BlockHash != b.Block.Hash() {
			t.Fatalf("re-encoded block %v: %v", b2, err)
		}
	})
}
