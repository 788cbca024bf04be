package store

import (
	"context"
	"encoding/binary"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/internal/store/pgtest"
)

func benchRegs(n, seq int, ts uint64) []Registration {
	regs := make([]Registration, n)
	for i := range regs {
		regs[i] = reg(0, 1, ts)
		binary.BigEndian.PutUint64(regs[i].Message.Pubkey[8:], uint64(seq*n+i))
	}
	return regs
}

// BenchmarkPutRegistrations measures registration upserts into a SQLite file
// (synchronous=FULL): a request's batch in one transaction against the
// baseline of one transaction per registration, plus the two other paths a
// batch takes (newer registrations replacing stored ones, stale ones
// skipped).
func BenchmarkPutRegistrations(b *testing.B) {
	const batch = 1000
	ctx := context.Background()
	run := func(b *testing.B, name string, fn func(s Store, i int)) {
		b.Run(name, func(b *testing.B) {
			s := open(b, filepath.Join(b.TempDir(), FileName))
			defer s.Close()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				fn(s, i)
			}
			b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "regs/s")
		})
	}
	run(b, "insert/batch=1000", func(s Store, i int) {
		if _, err := s.PutRegistrations(ctx, benchRegs(batch, i, 100)); err != nil {
			b.Fatal(err)
		}
	})
	run(b, "insert/tx-per-registration", func(s Store, i int) {
		for _, r := range benchRegs(batch, i, 100) {
			if _, err := s.PutRegistrations(ctx, []Registration{r}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("insert/64-concurrent-requests-of-one", func(b *testing.B) {
		// Many small registration requests at once share commits through
		// the group committer.
		s := open(b, filepath.Join(b.TempDir(), FileName))
		defer s.Close()
		var seq atomic.Int64
		b.SetParallelism(32) // 2 CPUs x 32 = 64 goroutines
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if _, err := s.PutRegistrations(ctx, benchRegs(1, int(seq.Add(1)), 100)); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "regs/s")
	})
	run(b, "update-newer/batch=1000", func(s Store, i int) {
		if _, err := s.PutRegistrations(ctx, benchRegs(batch, 0, uint64(100+i))); err != nil {
			b.Fatal(err)
		}
	})
	run(b, "skip-stale/batch=1000", func(s Store, i int) {
		if i == 0 {
			if _, err := s.PutRegistrations(ctx, benchRegs(batch, 0, 1000)); err != nil {
				b.Fatal(err)
			}
		}
		if n, err := s.PutRegistrations(ctx, benchRegs(batch, 0, 999)); err != nil || (i > 0 && n != 0) {
			b.Fatal(n, err)
		}
	})
}

// BenchmarkPutDelivered measures the acknowledged write getPayload waits
// for: one delivered payload committed (fsync) per call.
func BenchmarkPutDelivered(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), FileName))
	defer s.Close()
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.PutDelivered(ctx, &DeliveredPayload{BidTraceV2: trace(uint64(i+1), byte(i), 1, 2, uint64(i))}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeliveredQueries measures the data API's delivered-payload
// queries on a store holding 50,000 delivered payloads.
func BenchmarkDeliveredQueries(b *testing.B) {
	const rows = 50_000
	s := open(b, filepath.Join(b.TempDir(), FileName))
	defer s.Close()
	fillDelivered(b, s, rows)
	ctx := context.Background()
	builder, hash := pubkey(3), root(0)
	for _, c := range []struct {
		name string
		q    DeliveredQuery
	}{
		{"latest-200", DeliveredQuery{Limit: 200}},
		{"cursor-200", DeliveredQuery{Cursor: rows / 2, Limit: 200}},
		{"slot", DeliveredQuery{Slot: rows / 3, Limit: 200}},
		{"builder-200", DeliveredQuery{BuilderPubkey: &builder, Limit: 200}},
		{"block-hash", DeliveredQuery{BlockHash: &hash, Limit: 200}},
		{"order-value-desc-200", DeliveredQuery{Order: OrderValueDesc, Limit: 200}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := s.DeliveredPayloads(ctx, c.q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// fillDelivered writes n delivered payloads for slots 1..n, spread over 8
// builders, with values that do not follow the slot order, in one
// transaction (PutDelivered commits each, too slow for a fixture).
func fillDelivered(tb testing.TB, s Store, n int) {
	ctx := context.Background()
	ss := s.(*sqlStore)
	tx, err := ss.db.BeginTx(ctx, nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, ss.d.rebind(`INSERT INTO relay_delivered (`+traceCols+`, delivered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`))
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	for i := 1; i <= n; i++ {
		t := trace(uint64(i), byte(i), byte(i%8), byte(i%200), uint64(i*7919%100_003))
		t.BlockHash[1], t.BlockHash[2] = byte(i>>8), byte(i>>16)
		if _, err := st.ExecContext(ctx, append(traceArgs(&t), int64(i))...); err != nil {
			tb.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkSharedBidPropagation stores shared bids one after the other
// through one PostgreSQL handle (a 24 KB submission each, the size of a
// 200-transfer block) and waits for each one's notification on another,
// as two relay instances do: the put is what a submission waits for, the
// notification what the other instance waits for before it reads the bid.
func BenchmarkSharedBidPropagation(b *testing.B) {
	pgtest.SkipUnlessAvailable(b)
	url := pgtest.URL(b)
	var stores [2]Store
	for i := range stores {
		st, err := OpenPostgres(url, PostgresConfig{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		stores[i] = st
	}
	sa, sb := SharedOf(stores[0]), SharedOf(stores[1])
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	notes := make(chan Notification, 64)
	go sb.Listen(ctx, func(n Notification) { notes <- n })
	<-notes // Resync
	submission := make([]byte, 24<<10)
	var put, seen []time.Duration
	seq := 0
	for b.Loop() {
		seq++
		bid := sharedBid(uint64(seq), 0, uint64(seq), int64(seq))
		binary.BigEndian.PutUint64(bid.BlockHash[:], uint64(seq)+uint64(time.Now().UnixNano()))
		bid.Submission = submission
		start := time.Now()
		if err := sa.PutSharedBid(ctx, bid); err != nil {
			b.Fatal(err)
		}
		put = append(put, time.Since(start))
		for n := range notes {
			if n.BlockHash == bid.BlockHash {
				break
			}
		}
		seen = append(seen, time.Since(start))
	}
	slices.Sort(put)
	slices.Sort(seen)
	ms := func(l []time.Duration, p float64) float64 {
		return float64(l[int(float64(len(l)-1)*p)]) / float64(time.Millisecond)
	}
	b.ReportMetric(ms(put, 0.5), "put-p50-ms")
	b.ReportMetric(ms(put, 0.99), "put-p99-ms")
	b.ReportMetric(ms(seen, 0.5), "notified-p50-ms")
	b.ReportMetric(ms(seen, 0.99), "notified-p99-ms")
}
