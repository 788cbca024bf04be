package miner

import (
	"math/big"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/gavel-eth/gavel/core/bundle"
)

// usageRecorder is a bundle.UsageCounter keeping totals per signer.
type usageRecorder struct {
	mu sync.Mutex
	m  map[common.Address]bundle.Usage
}

func (r *usageRecorder) AddUsage(a common.Address, u bundle.Usage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cur := r.m[a]
	cur.Add(u)
	r.m[a] = cur
}

func (r *usageRecorder) get(a common.Address) bundle.Usage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m[a]
}

// TestPaymentsCountedWhenCanonical: what an included bundle paid the fee
// recipient (tips, or a direct transfer) is counted for its signer once
// the block is imported, not when it is only built; a bundle that was
// outbid pays nothing.
func TestPaymentsCountedWhenCanonical(t *testing.T) {
	e := newEnv(t, 0)
	rec := &usageRecorder{m: map[common.Address]bundle.Usage{}}
	e.builder.CountPayments(rec)
	next := bundle.Uint64(e.c.Head().Number.Uint64() + 1)
	tipper, briber, loser := common.Address{0xa}, common.Address{0xb}, common.Address{0xc}
	add := func(signer common.Address, tx hexutil.Bytes) {
		if _, err := e.pool.Add(bundle.SendBundleArgs{Txs: []hexutil.Bytes{tx}, BlockNumber: next}, signer); err != nil {
			t.Fatal(err)
		}
	}
	add(tipper, e.tx(t, e.keys[0], 0, common.Address{1}, 1, 5e9))
	add(briber, e.tx(t, e.keys[1], 0, common.Address{0xfe}, 1e16, 0)) // the fee recipient
	add(loser, e.tx(t, e.keys[0], 0, common.Address{2}, 1, 1e9))      // same nonce as tipper's: outbid

	res := e.build(t)
	if got := rec.get(tipper).Payments(); got.Sign() != 0 {
		t.Fatalf("counted before the block is canonical: %s", got)
	}
	if len(res.Bundles) != 2 {
		t.Fatalf("included %d bundles, want 2", len(res.Bundles))
	}
	if err := e.c.ImportBuilt(res.BuiltBlock); err != nil {
		t.Fatal(err)
	}
	e.builder.Imported(res.Block.Hash())

	if got, want := rec.get(tipper).Payments(), big.NewInt(21000*5e9); got.Cmp(want) != 0 {
		t.Errorf("tipper paid %s, want %s (21,000 gas at a 5 gwei tip)", got, want)
	}
	if got, want := rec.get(briber).Payments(), big.NewInt(1e16); got.Cmp(want) != 0 {
		t.Errorf("briber paid %s, want %s", got, want)
	}
	if got := rec.get(loser).Payments(); got.Sign() != 0 {
		t.Errorf("outbid bundle counted %s", got)
	}
	// The same block imported again (a second Imported) counts nothing more.
	e.builder.Imported(res.Block.Hash())
	if got := rec.get(briber).Payments(); got.Cmp(big.NewInt(1e16)) != 0 {
		t.Errorf("counted twice: %s", got)
	}
}
