package relay_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/testutil"
	"github.com/gavel-eth/gavel/miner"
	"github.com/gavel-eth/gavel/params"
)

// BenchmarkBetaMerge compares, in one run, the verification of a
// 200-transfer alpha block (ValidatePayload, with and without keeping its
// state) with appending 1,000,000 gas of beta transfers (47 of 21,000 gas)
// to it and assembling the merged block (the kept state copied, the txs
// applied, withdrawals and request system calls, state root, receipts,
// block hash): through the pool as the relay does (BetaBlocks.Merge: the
// settlement, the slot's bundles, miner.BuildBeta), and miner.BuildBeta on
// freshly decoded txs whose senders must be recovered.
func BenchmarkBetaMerge(b *testing.B) {
	e, _, zipped := benchSubmission(b, 200)
	ctx := context.Background()
	key := params.DevAccounts()[5].Key
	to := common.Address{0xbe}
	var txs types.Transactions
	for nonce := uint64(0); nonce < 1_000_000/21000; nonce++ {
		txs = append(txs, types.MustSignNewTx(key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
			ChainID: big.NewInt(params.DevChainID), Nonce: nonce, GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei),
			Gas: 21000, To: &to, Value: big.NewInt(1)}))
	}
	h := bundle.Hash(txs)
	entries := []miner.BetaEntry{{Gas: 1_000_000, Hashes: []common.Hash{h}}}

	p := builderPayload(e, decode(b, e, zipped))
	p.KeepState = true
	alpha, err := e.Chain.ValidatePayload(ctx, p)
	if err != nil {
		b.Fatal(err)
	}
	for _, keep := range []bool{false, true} {
		name := "verify-alpha"
		if keep {
			name += "-keepstate"
		}
		b.Run(name, func(b *testing.B) {
			start := testutil.CPUTime()
			for b.Loop() {
				b.StopTimer()
				p := builderPayload(e, decode(b, e, zipped)) // cold sender caches
				p.KeepState = keep
				b.StartTimer()
				if _, err := e.Chain.ValidatePayload(ctx, p); err != nil {
					b.Fatal(err)
				}
			}
			testutil.ReportCPU(b, start)
		})
	}
	// Through the pool, as the relay merges: the bundle was validated when
	// it was sent (senders recovered then), the settlement is in memory.
	l2 := &relaytest.Settlement{}
	beta := e.BetaService(b, l2, nil)
	pool := beta.Pool()
	var raw []string
	for _, tx := range txs {
		r, _ := tx.MarshalBinary()
		raw = append(raw, hexutil.Encode(r))
	}
	slot1 := "1"
	if _, err := pool.Add(ctx, bundle.BetaBundleArgs{Txs: raw, Slot: &slot1}, common.Address{}); err != nil {
		b.Fatal(err)
	}
	l2.Pay(1, 1_000_000, h)
	beta.Refresh(ctx, 0)
	b.Run("merge-1M-gas-pool", func(b *testing.B) {
		start := testutil.CPUTime()
		for b.Loop() {
			bb, _, err := beta.Merge(ctx, 1, alpha)
			if err != nil || bb.GasUsed != uint64(len(txs))*21000 {
				b.Fatal(err)
			}
		}
		testutil.ReportCPU(b, start)
	})
	b.Run("merge-1M-gas-cold-senders", func(b *testing.B) {
		start := testutil.CPUTime()
		for b.Loop() {
			b.StopTimer()
			pool := map[common.Hash]types.Transactions{h: fresh(b, txs)} // cold sender caches, as decoded from the pool
			b.StartTimer()
			bb, err := miner.BuildBeta(ctx, e.Chain, alpha, entries, pool)
			if err != nil || bb.GasUsed != uint64(len(txs))*21000 {
				b.Fatal(err)
			}
		}
		testutil.ReportCPU(b, start)
	})
}

// fresh decodes copies of txs, without their cached senders.
func fresh(b *testing.B, txs types.Transactions) types.Transactions {
	out := make(types.Transactions, len(txs))
	for i, tx := range txs {
		raw, _ := tx.MarshalBinary()
		out[i] = new(types.Transaction)
		if err := out[i].UnmarshalBinary(raw); err != nil {
			b.Fatal(err)
		}
	}
	return out
}

// BenchmarkGetHeaderBeta: getHeader of an auction whose top bid has a beta
// block (merged when the bid arrived) beside one served as submitted: both
// are a lookup of a prebuilt, presigned answer.
func BenchmarkGetHeaderBeta(b *testing.B) {
	holder := &relaytest.BetaHolder{}
	e := relaytest.New(b, relaytest.Options{Configure: func(c *relay.Config) { c.Beta = holder }})
	ctx := context.Background()
	l2 := &relaytest.Settlement{}
	svc := e.BetaService(b, l2, nil)
	holder.Service = svc
	pool := svc.Pool()
	key := params.DevAccounts()[5].Key
	to := common.Address{0xbe}
	tx := types.MustSignNewTx(key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000, To: &to})
	raw, _ := tx.MarshalBinary()
	slot1 := "1"
	h, err := pool.Add(ctx, bundle.BetaBundleArgs{Txs: []string{hexutil.Encode(raw)}, Slot: &slot1}, common.Address{})
	if err != nil {
		b.Fatal(err)
	}
	l2.Pay(1, 21000, h)
	svc.Refresh(ctx, 0)
	e.RegisterAll()
	parent := beacon.Root(e.Chain.Head().Hash())
	for _, slot := range []uint64{1, 2} {
		if _, err := submit(e, e.Submission(e.BuildBlock(slot, 10, nil)), false); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		slot uint64
	}{{"beta", 1}, {"alpha-only", 2}} {
		pk := e.Proposer(c.slot).Key.PublicKey()
		bid, err := e.Relay.GetHeader(context.Background(), c.slot, parent, pk)
		if err != nil || bid == nil {
			b.Fatal(err)
		}
		if merged := bid.Header().BlockHash() != e.Relay.BestBid(c.slot, parent, pk).Trace.BlockHash; merged != (c.slot == 1) {
			b.Fatalf("slot %d: merged %v", c.slot, merged)
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				e.Relay.GetHeader(context.Background(), c.slot, parent, pk)
			}
		})
	}
}
