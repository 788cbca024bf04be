package bundlepool

import (
	"context"
	"math/big"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

// BenchmarkSendBundle is eth_sendBundle's pool work with 16 concurrent
// senders, each bundle new (one signed tx): "memory" keeps the pool in
// memory only, "durable" commits each bundle to a SQLite file (WAL,
// synchronous=FULL, group commit) before returning, as the node does.
func BenchmarkSendBundle(b *testing.B) {
	for _, durable := range []bool{false, true} {
		name := "memory"
		if durable {
			name = "durable"
		}
		b.Run(name, func(b *testing.B) {
			txs := benchTxs(b, b.N)
			p := New(Config{MaxBundles: 1 << 30, MaxPerBlock: 1 << 30, MaxPoolBytes: 1 << 40, MaxPerIP: 1 << 30}, params.DevChainID, func() uint64 { return 10 }, nil)
			if durable {
				st, err := store.OpenSQLite(filepath.Join(b.TempDir(), "gavel.db"))
				if err != nil {
					b.Fatal(err)
				}
				defer st.Close()
				if err := p.Persist(context.Background(), st); err != nil {
					b.Fatal(err)
				}
			}
			var next atomic.Int64
			b.SetParallelism(16)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					i := next.Add(1) - 1
					if _, err := p.AddFrom(bundle.SendBundleArgs{Txs: []hexutil.Bytes{txs[i]}, BlockNumber: bundle.Uint64(11 + i%200)}, common.Address{}, ""); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "bundles/s")
		})
	}
}

// benchTxs signs n distinct transfers.
func benchTxs(b *testing.B, n int) []hexutil.Bytes {
	to := common.Address{1}
	signer := types.LatestSignerForChainID(big.NewInt(params.DevChainID))
	out := make([]hexutil.Bytes, n)
	for i := range out {
		tx, err := types.SignNewTx(params.DevAccounts()[0].Key, signer, &types.DynamicFeeTx{
			ChainID: big.NewInt(params.DevChainID), Nonce: uint64(i), GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1e9), Gas: 21000, To: &to})
		if err != nil {
			b.Fatal(err)
		}
		out[i], _ = tx.MarshalBinary()
	}
	return out
}
