package auction_test

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/contracts/auction"
)

// racingBackend is the node as a client sees it while another process sends
// from the same key (the dev node's operator loop and a `gavel auction --key
// $OPERATOR` command): the first nonce read returns a nonce the other
// sender takes right after, with fees the client's transaction does not
// outbid.
type racingBackend struct {
	auction.Backend
	t     *testing.T
	other func(ctx context.Context, tx *types.Transaction) error // how the other sender's tx lands
	key   *ecdsa.PrivateKey
	chain *big.Int

	mu    sync.Mutex
	raced bool
}

func (b *racingBackend) PendingNonceAt(ctx context.Context, from common.Address) (uint64, error) {
	n, err := b.Backend.PendingNonceAt(ctx, from)
	b.mu.Lock()
	defer b.mu.Unlock()
	if err != nil || b.raced {
		return n, err
	}
	b.raced = true
	to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	tx, err := types.SignNewTx(b.key, types.LatestSignerForChainID(b.chain), &types.DynamicFeeTx{
		ChainID: b.chain, Nonce: n, GasTipCap: gweis(100), GasFeeCap: gweis(1000), Gas: 21000, To: &to,
	})
	if err != nil {
		b.t.Fatal(err)
	}
	if err := b.other(ctx, tx); err != nil {
		b.t.Fatalf("the other sender's tx: %v", err)
	}
	return n, nil
}

// TestSendRetriesTakenNonce: a transaction whose nonce another sender of the
// key took first (in the pool, or already in a block) is signed again with
// the next nonce and lands.
func TestSendRetriesTakenNonce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		other func(f *fixture) func(context.Context, *types.Transaction) error
	}{
		{"in the pool", func(f *fixture) func(context.Context, *types.Transaction) error {
			return f.chain.Backend.Client().SendTransaction // in the pool, not mined
		}},
		{"in a block", func(f *fixture) func(context.Context, *types.Transaction) error {
			return f.chain.Client.SendTransaction
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, 0)
			key := f.chain.Dev[0].Key // owner and operator
			racing := &racingBackend{Backend: f.chain.Client, t: t, other: tc.other(f), key: key, chain: f.chain.ChainID}
			op := auction.NewClient(racing, f.addrs, f.chain.Signer(key))
			r, err := op.OpenAuction(ctx, 7, 1_000_000)
			if err != nil {
				t.Fatalf("open with the nonce taken by another sender: %v", err)
			}
			if !racing.raced {
				t.Fatal("the other sender never raced")
			}
			if r.Status != types.ReceiptStatusSuccessful {
				t.Fatalf("open reverted: %+v", r)
			}
			if _, err := f.admin.OpenAuction(ctx, 7, 1_000_000); err == nil {
				t.Fatal("slot 7 opened twice: the first open did not land")
			}
		})
	}
}
