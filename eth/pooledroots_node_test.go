package eth_test

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/testnode"
)

// TestPooledTransactionRoots: a transaction that enters the node's pool
// has its transactions-root leaf kept in the relay's cache before any
// block carries it (the relay's header for a block of public transactions
// then hashes none of them).
func TestPooledTransactionRoots(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	spec := n.Relay().Relay().Spec()
	tx, err := types.SignNewTx(testnode.Account(4).Key, types.LatestSignerForChainID(big.NewInt(1337)), &types.DynamicFeeTx{
		ChainID: big.NewInt(1337), Nonce: 0, GasTipCap: big.NewInt(5e9), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &common.Address{0xcd}, Value: big.NewInt(7),
	})
	if err != nil {
		t.Fatal(err)
	}
	encoded, err := tx.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if beacon.TransactionRootKept(spec, encoded) {
		t.Fatal("the transaction's root is cached before it was sent")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := n.Client().SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	// The pool announces it from its own goroutine: poll (a safety net,
	// not a timing assertion).
	for !beacon.TransactionRootKept(spec, encoded) {
		if ctx.Err() != nil {
			t.Fatal("the pooled transaction's root never reached the relay's cache")
		}
		time.Sleep(time.Millisecond)
	}
}
