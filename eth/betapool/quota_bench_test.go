package betapool

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/internal/testutil"
	"github.com/gavel-eth/gavel/params"
)

// BenchmarkBetaAdmission is the cost of the quota and budget checks on
// mev_sendBetaBundle's path: 64 concurrent clients send new one-tx bundles
// through Pool.AddFrom into a SQLite file (durable), each client IP
// and each signer sending 900 (under their quotas of 1,000, so each check
// counts up to 900 entries twice). Compare with the
// same benchmark on a build whose quotas are counted in memory.
func BenchmarkBetaAdmission(b *testing.B) { benchAdmission(b, false) }

// BenchmarkBetaAdmissionFunds is BenchmarkBetaAdmission with the money
// check against the head state of an in-memory dev chain (SetAccounts):
// run both side by side.
func BenchmarkBetaAdmissionFunds(b *testing.B) { benchAdmission(b, true) }

func benchAdmission(b *testing.B, funds bool) {
	db, err := store.OpenSQLite(filepath.Join(b.TempDir(), store.FileName))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var slot atomic.Uint64
	p := New(Config{MaxPerIP: 1000, MaxPerSigner: 1000}, db, chainID, slot.Load, nil)
	if funds {
		c, stop, err := chain.NewInMemory(chain.DevGenesis(params.DevGasLimit, 1_700_000_000))
		if err != nil {
			b.Fatal(err)
		}
		defer stop()
		p.SetAccounts(c)
	}
	args := make([]bundle.BetaBundleArgs, b.N)
	for i := range args {
		s := "5"
		args[i] = bundle.BetaBundleArgs{Txs: []string{signedTx(b, key, uint64(i), 0)}, Slot: &s}
	}
	ctx := context.Background()
	var next atomic.Int64
	b.SetParallelism(max(1, 64/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	cpu0 := testutil.CPUTime()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := next.Add(1) - 1
			ip := fmt.Sprintf("10.0.%d.%d", i/900/256, i/900%256)
			if _, err := p.AddFrom(ctx, args[i], common.Address{1, byte(i / 900 / 256), byte(i / 900 % 256)}, ip); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64((testutil.CPUTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
