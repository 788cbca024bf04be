package store

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/bundle"
)

func wei(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return v
}

func checkUsage(t *testing.T, what string, got bundle.Usage, gas uint64, paid string) {
	t.Helper()
	if got.GasSimulated != gas || got.Payments().String() != paid {
		t.Fatalf("%s: gas %d paid %s, want gas %d paid %s", what, got.GasSimulated, got.Payments(), gas, paid)
	}
}

// TestStatsBufferUsage counts gas simulated and validator payments through
// the buffer with a stepped clock: the all-time total keeps everything, the
// 7-day and 1-day windows keep the hours inside them, amounts above 2^64 wei
// and below a gwei survive the store, and buckets that left the week are
// deleted from the database.
func TestStatsBufferUsage(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		buf := NewStatsBuffer(s, time.Hour)
		defer buf.Close()
		now := time.Unix(1_800_000_000, 0)
		buf.now = func() time.Time { return now }
		a, other := common.Address{7}, common.Address{8}

		// Ten days ago: only all time.
		now = now.Add(-10 * 24 * time.Hour)
		buf.AddUsage(a, bundle.Usage{GasSimulated: 1000, ValidatorPayments: wei("30000000000000000000")}) // 30 ETH: above 2^64 wei
		if err := buf.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		// Three days ago: all time and 7 days.
		now = now.Add(7 * 24 * time.Hour)
		buf.AddUsage(a, bundle.Usage{GasSimulated: 200, ValidatorPayments: wei("1000000001")})
		if err := buf.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		// Now: everywhere; one part flushed, one pending.
		now = now.Add(3 * 24 * time.Hour)
		buf.AddUsage(a, bundle.Usage{GasSimulated: 21000})
		if err := buf.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		buf.AddUsage(a, bundle.Usage{ValidatorPayments: wei("999999999")})
		buf.AddUsage(other, bundle.Usage{GasSimulated: 5})
		buf.AddUsage(common.Address{}, bundle.Usage{GasSimulated: 5}) // unsigned: ignored

		u, err := buf.Get(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		checkUsage(t, "all time", u.AllTime, 22200, "30000000002000000000")
		checkUsage(t, "7d", u.Last7d, 21200, "2000000000")
		checkUsage(t, "1d", u.Last1d, 21000, "999999999")
		if u, err := buf.Get(ctx, other); err != nil || u.AllTime.GasSimulated != 5 || u.Last1d.GasSimulated != 5 {
			t.Fatalf("other signer: %+v %v", u, err)
		}

		// Stored, the ten-day-old bucket is gone (the flush of the newest
		// hour pruned it); the totals are unchanged.
		if err := buf.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		stored, err := s.UserStat(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		if len(stored.Hours) != 2 {
			t.Fatalf("stored hourly buckets %v, want the last 7 days' 2", stored.Hours)
		}
		checkUsage(t, "stored all time", stored.AllTime, 22200, "30000000002000000000")

		// A day later the 1-day window is empty, the week still counts.
		now = now.Add(24 * time.Hour)
		u, _ = buf.Get(ctx, a)
		checkUsage(t, "1d a day later", u.Last1d, 0, "0")
		checkUsage(t, "7d a day later", u.Last7d, 21200, "2000000000")
	})
}
