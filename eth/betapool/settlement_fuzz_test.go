package betapool

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/bindings"
)

// rawL2 answers every contract call with the same bytes: what a hostile
// L2 can send.
type rawL2 struct {
	auction.Backend
	out []byte
}

func (r rawL2) CallContract(context.Context, ethereum.CallMsg, *big.Int) ([]byte, error) {
	return r.out, nil
}

func (r rawL2) HeaderByNumber(context.Context, *big.Int) (*types.Header, error) {
	return &types.Header{Number: big.NewInt(7)}, nil
}

func (r rawL2) CodeAt(context.Context, common.Address, *big.Int) ([]byte, error) {
	return []byte{1}, nil
}

// FuzzSettlementDecode feeds arbitrary queryBundles answers through the
// bounded backend, the contract client's ABI decoding and the reader's
// bounds: an error or a bounded settlement, never a panic.
func FuzzSettlementDecode(f *testing.F) {
	house, err := bindings.SettlementHouseMetaData.ParseABI()
	if err != nil {
		f.Fatal(err)
	}
	good, _ := house.Methods["queryBundles"].Outputs.Pack([]bindings.SettlementHouseBundle{
		{Submitter: common.Address{1}, AmountOfGas: big.NewInt(50_000), BundleHashes: [][32]byte{{2}, {3}}},
	})
	if len(good) == 0 {
		f.Fatal("no well-formed seed")
	}
	f.Add(good)
	f.Add([]byte{})
	f.Add(make([]byte, 64))
	f.Fuzz(func(t *testing.T, out []byte) {
		c := auction.NewClient(BoundedBackend{Backend: rawL2{out: out}, Max: 1 << 16}, auction.Addresses{}, nil)
		s := NewSettlements(c, SettlementConfig{MaxEntries: 4, MaxHashes: 4, Refresh: -1})
		entries, err := s.Paid(context.Background(), 1)
		if err != nil {
			return
		}
		if len(entries) > 4 {
			t.Fatalf("%d entries past the bound", len(entries))
		}
		for _, e := range entries {
			if len(e.Hashes) > 4 {
				t.Fatalf("%d hashes past the bound", len(e.Hashes))
			}
		}
	})
}
