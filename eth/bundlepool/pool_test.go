package bundlepool

import (
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/params"
)

func rawTx(t *testing.T, nonce uint64) hexutil.Bytes {
	to := common.Address{1}
	tx, err := types.SignNewTx(params.DevAccounts()[0].Key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), Nonce: nonce, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1e9), Gas: 21000, To: &to})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return raw
}

type counter map[bundle.StatKind]int

func (c counter) Add(_ common.Address, k bundle.StatKind) { c[k]++ }

func TestPool(t *testing.T) {
	head := uint64(10)
	stats := counter{}
	p := New(Config{MaxBundles: 3, MaxPerBlock: 2}, params.DevChainID, func() uint64 { return head }, stats)
	alice, bob := common.Address{0xa}, common.Address{0xb}
	uuid := "123e4567-e89b-12d3-a456-426614174000"

	h1, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 0)}, BlockNumber: 11, ReplacementUUID: uuid}, alice)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 0)}, BlockNumber: 11}, alice); err != nil || again != h1 || p.Len() != 1 {
		t.Fatalf("re-send: %v %s len %d", err, again, p.Len())
	}
	// Someone else cannot replace or cancel alice's uuid.
	if _, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 1)}, BlockNumber: 12, ReplacementUUID: uuid}, bob); !errors.Is(err, ErrNotYourBundle) {
		t.Fatalf("replace by another signer: %v", err)
	}
	if _, err := p.Cancel(uuid, bob); !errors.Is(err, ErrNotYourBundle) {
		t.Fatalf("cancel by another signer: %v", err)
	}
	// Alice replaces it with a bundle for block 12.
	h2, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 1)}, BlockNumber: 12, ReplacementUUID: uuid}, alice)
	if err != nil || p.Len() != 1 || len(p.Bundles(11, 0)) != 0 || len(p.Bundles(12, 0)) != 1 {
		t.Fatalf("replace: %v len %d", err, p.Len())
	}
	// Per-block and total limits.
	p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 2)}, BlockNumber: 12}, bob)
	if _, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 3)}, BlockNumber: 12}, bob); !errors.Is(err, ErrBlockFull) {
		t.Fatalf("one past the per-block limit: %v", err)
	}
	p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 4)}, BlockNumber: 13}, bob)
	if _, err := p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 5)}, BlockNumber: 14}, bob); !errors.Is(err, ErrPoolFull) {
		t.Fatalf("one past the pool limit: %v", err)
	}
	// Cancel, unknown uuid, bad uuid.
	if got, err := p.Cancel(uuid, alice); err != nil || got != h2 {
		t.Fatalf("cancel: %v", err)
	}
	if _, err := p.Cancel(uuid, alice); !errors.Is(err, ErrUnknownUUID) {
		t.Fatalf("second cancel: %v", err)
	}
	if _, err := p.Cancel("x", alice); !errors.Is(err, bundle.ErrSendReplacementID) {
		t.Fatalf("bad uuid: %v", err)
	}
	// Prune drops blocks at or below the head.
	head = 12
	p.Prune(12)
	if p.Len() != 1 || len(p.Bundles(13, 0)) != 1 {
		t.Fatalf("after prune: %d", p.Len())
	}
	// Adding also prunes once the head has moved.
	head = 13
	p.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{rawTx(t, 6)}, BlockNumber: 14}, bob)
	if p.Len() != 1 || len(p.Bundles(13, 0)) != 0 {
		t.Fatalf("after add at a new head: %d", p.Len())
	}
	if stats[bundle.StatBundle] != 5 {
		t.Fatalf("bundle stats %v", stats)
	}
	p.MarkIncluded(p.Bundles(14, 0))
	if stats[bundle.StatInclusion] != 1 {
		t.Fatalf("inclusion stats %v", stats)
	}
}
