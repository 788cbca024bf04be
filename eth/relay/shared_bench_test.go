package relay_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/internal/store/pgtest"
	"github.com/gavel-eth/gavel/internal/testutil"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
	"github.com/gavel-eth/gavel/params"
)

// benchInstance is instance for benchmarks (PostgreSQL from pgtest).
func benchInstance(b *testing.B, url string) *relaytest.Env {
	st, err := store.OpenPostgres(url, store.PostgresConfig{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	e := relaytest.New(b, relaytest.Options{Store: st, Shared: true, Senders: 200})
	<-e.Relay.SharingUp()
	return e
}

// BenchmarkSharedSubmission is the full Submit of a 200-transfer block
// (decode, checks, simulation, bid kept) on a relay of its own over SQLite,
// beside the same on a relay sharing its auction over PostgreSQL, which
// also stores and announces every verified bid (one statement per
// submission: the 24 KB row and its notification, committed
// asynchronously). Each operation submits a block not seen before.
func BenchmarkSharedSubmission(b *testing.B) {
	pgtest.SkipUnlessAvailable(b)
	run := func(b *testing.B, e *relaytest.Env) {
		e.RegisterAll()
		// A new block each time, as a builder sends them: a resubmitted
		// block would be a no-op for the shared database.
		raws := make([][]byte, b.N)
		var fork params.ConsensusFork
		for i := range raws {
			sub := e.Submission(e.BuildBlock(1, 200, uint256.NewInt(uint64(1e15+i))))
			raws[i], _ = sub.MarshalSSZ()
			fork = sub.Fork
		}
		at := e.Clock.Now()
		b.ResetTimer()
		start := testutil.CPUTime()
		for i := range b.N {
			at = at.Add(time.Millisecond)
			s, err := beacon.DecodeSubmissionSSZ(beacon.MainnetSpec, fork, raws[i])
			if err != nil {
				b.Fatal(err)
			}
			if out, err := e.Relay.Submit(context.Background(), relay.SubmitRequest{Submission: s, Cancellations: true, ReceivedAt: at}); err != nil || out != relay.Accepted {
				b.Fatal(out, err)
			}
		}
		testutil.ReportCPU(b, start)
	}
	b.Run("sqlite", func(b *testing.B) { run(b, relaytest.New(b, relaytest.Options{Senders: 200})) })
	b.Run("postgres", func(b *testing.B) { run(b, benchInstance(b, pgtest.URL(b))) })
}

// BenchmarkSharedPropagation submits bids to instance A one after the
// other and measures, on instance B, the time from A storing each
// verified bid to B holding it in its auction (A's commit, the
// notification, B's read when the bid did not travel in it, decode,
// auction update). Each run propagates 300 bids, whatever b.N: 270 small
// ones (one transfer, carried in the notification), whose p99 is the
// third-slowest rather than the slowest or two, then 30 of 200 transfers
// (24 KB, too large for a notification: B reads them by hash), reported
// apart (p50 and slowest).
// Then it serves getHeader from B, which never received the bid over
// HTTP, at 1,000 requests per second (open loop, loopback HTTP).
func BenchmarkSharedPropagation(b *testing.B) {
	pgtest.SkipUnlessAvailable(b)
	url := pgtest.URL(b)
	a, bb := benchInstance(b, url), benchInstance(b, url)
	a.RegisterAll()
	const small, large = 270, 30
	subs := make([]*beacon.Submission, small+large)
	for i := range subs { // distinct blocks: a rising payment each
		txs := 1
		if i >= small {
			txs = 200
		}
		subs[i] = a.Submission(a.BuildBlock(1, txs, uint256.NewInt(uint64(1e15+i))))
	}
	type seen struct {
		h    beacon.Root
		took time.Duration
		at   time.Time
	}
	ch := make(chan seen, len(subs))
	bb.Relay.OnSharedBid(func(h beacon.Root, took time.Duration) { ch <- seen{h, took, time.Now()} })
	var lat, latLarge []time.Duration
	// after is the part of a small bid's propagation after A's Submit
	// returned (its commit done): notification, decode, auction update.
	var after []time.Duration
	start, wall := testutil.CPUTime(), time.Now()
	b.ResetTimer()
	at := a.Clock.Now()
	for i, sub := range subs {
		at = at.Add(time.Millisecond)
		if out, err := a.Relay.Submit(context.Background(), relay.SubmitRequest{Submission: sub, ReceivedAt: at}); err != nil || out != relay.Accepted {
			b.Fatal(i, out, err)
		}
		committed := time.Now()
		for s := range ch {
			if s.h == sub.BidTrace().BlockHash {
				if i < small {
					lat = append(lat, s.took)
					after = append(after, max(s.at.Sub(committed), 0))
				} else {
					latLarge = append(latLarge, s.took)
				}
				break
			}
		}
	}
	b.StopTimer()
	// Per bid: A's Submit and B's taking it, one after the other.
	b.ReportMetric(float64(time.Since(wall))/float64(len(subs)), "ns/op")
	b.ReportMetric(float64(testutil.CPUTime()-start)/float64(len(subs)), "cpu-ns/op")
	pct := func(l []time.Duration, p float64) float64 {
		slices.Sort(l)
		return float64(l[int(float64(len(l)-1)*p)]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(lat, 0.50), "prop-p50-ms")
	b.ReportMetric(pct(lat, 0.99), "prop-p99-ms")
	b.ReportMetric(pct(latLarge, 0.50), "prop200tx-p50-ms")
	b.ReportMetric(pct(latLarge, 1), "prop200tx-max-ms")
	b.ReportMetric(pct(after, 0.50), "afterA-p50-ms")
	b.ReportMetric(pct(after, 0.99), "afterA-p99-ms")

	// getHeader on B over HTTP at 1,000 requests per second.
	mux := http.NewServeMux()
	relayapi.MountProposer(mux, bb.Relay)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	last := subs[len(subs)-1].BidTrace()
	get := srv.URL + "/eth/v1/builder/header/1/" + last.ParentHash.String() + "/" + last.ProposerPubkey.String()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 512}}
	do := func() (time.Duration, int) {
		t0 := time.Now()
		res, err := client.Get(get)
		if err != nil {
			return time.Since(t0), 0
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return time.Since(t0), res.StatusCode
	}
	for i := 0; i < 200; i++ {
		do()
	}
	const n = 2000
	hl := make([]time.Duration, n)
	codes := make([]int, n)
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for i := 0; i < n; i++ {
		<-tick.C
		wg.Add(1)
		go func() { defer wg.Done(); hl[i], codes[i] = do() }()
	}
	wg.Wait()
	for i, c := range codes {
		if c != 200 {
			b.Fatalf("getHeader %d on B: status %d", i, c)
		}
	}
	slices.Sort(hl)
	b.ReportMetric(pct(hl, 0.50), "getheader-p50-ms")
	b.ReportMetric(pct(hl, 0.99), "getheader-p99-ms")
}
