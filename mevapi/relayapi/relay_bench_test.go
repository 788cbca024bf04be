package relayapi_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/testutil"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// BenchmarkGetHeaderLoad sends getHeader requests over loopback HTTP at a
// fixed rate of 1,000 per second (open loop: a request starts on schedule
// whatever the earlier ones do) for b.N requests and reports the latency
// percentiles. The bid is the relay's best for the slot, as a proposer
// would ask for it: the submitted block (alpha-only), or with a paid beta
// bundle appended (beta: the merged header the relay built and signed when
// the bid arrived).
func BenchmarkGetHeaderLoad(b *testing.B) {
	for _, beta := range []bool{false, true} {
		name := "alpha-only"
		if beta {
			name = "beta"
		}
		b.Run(name, func(b *testing.B) { benchGetHeaderLoad(b, beta) })
	}
}

func benchGetHeaderLoad(b *testing.B, beta bool) {
	b.StopTimer()
	url := benchHeaderServer(b, beta)
	// A keep-alive pool as many mev-boost instances hold towards a relay;
	// dials counts the connections opened while the load runs.
	var dials atomic.Int64
	dialer := &net.Dialer{}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 512, MaxConnsPerHost: 0,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dials.Add(1)
			return dialer.DialContext(ctx, network, addr)
		}}}
	get := func() (time.Duration, int) {
		start := time.Now()
		res, err := client.Get(url)
		if err != nil {
			return time.Since(start), 0
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return time.Since(start), res.StatusCode
	}
	for i := 0; i < 200; i++ { // warm the connection pool and the signed bid
		get()
	}
	const rate = 1000
	n := max(b.N, 2000)
	lat := make([]time.Duration, n)
	codes := make([]int, n)
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Second / rate)
	defer tick.Stop()
	warmDials := dials.Load()
	cpu := testutil.CPUTime()
	b.StartTimer()
	for i := 0; i < n; i++ {
		<-tick.C
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			lat[i], codes[i] = get()
		}(i)
	}
	wg.Wait()
	b.StopTimer()
	// CPU of the whole process (client and relay) per request.
	b.ReportMetric(float64(testutil.CPUTime()-cpu)/float64(n), "cpu-ns/req")
	for i, c := range codes {
		if c != 200 {
			b.Fatalf("request %d: status %d", i, c)
		}
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(float64(len(lat)-1)*p)]) / float64(time.Millisecond) }
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(pct(1.0), "max-ms")
	b.ReportMetric(float64(n), "requests")
	b.ReportMetric(float64(dials.Load()-warmDials), "new-conns")
}

// benchHeaderServer is a relay over HTTP holding one accepted bid; it
// returns the getHeader URL of that bid. With beta, slot 1 has a paid beta
// bundle and the header served is the merged block's.
func benchHeaderServer(b *testing.B, beta bool) string {
	var e *relaytest.Env
	var base string
	if beta {
		l2 := &relaytest.Settlement{}
		var svc *betapool.Service
		e, base, svc = betaServer(b, l2)
		paidBetaBundle(b, svc, l2, 1)
	} else {
		e, base = server(b)
	}
	registerHTTP(b, e, base, true)
	sub := e.Submission(e.BuildBlock(1, 10, nil))
	raw, _ := sub.MarshalSSZ()
	if code, _, out := do(b, "POST", base+relayapi.PathBuilderBlocks, raw, map[string]string{"Content-Type": "application/octet-stream"}); code != 200 {
		b.Fatalf("submit: %d %s", code, out)
	}
	pk := e.Proposer(1).Key.PublicKey()
	bid, err := e.Relay.GetHeader(context.Background(), 1, beacon.Root(sub.Fulu.Message.ParentHash), pk)
	if err != nil || bid == nil {
		b.Fatalf("getHeader: %v", err)
	}
	if merged := bid.Header().BlockHash() != sub.Fulu.Message.BlockHash; merged != beta {
		b.Fatalf("header served is the merged block: %v, want %v", merged, beta)
	}
	return base + "/eth/v1/builder/header/1/" + sub.Fulu.Message.ParentHash.String() + "/" + pk.String()
}

// BenchmarkGetHeaderHandler is the server side of one getHeader (routing,
// parsing, best bid, JSON encoding) without the network, serially.
func BenchmarkGetHeaderHandler(b *testing.B) {
	e := relaytest.New(b, relaytest.Options{})
	e.RegisterAll()
	srv := mevapi.New(mevapi.Config{}, nil)
	relayapi.MountBuilder(srv, e.Relay, relayapi.BuilderConfig{})
	relayapi.MountProposer(srv, e.Relay)
	h := srv.Handler()
	sub := e.Submission(e.BuildBlock(1, 10, nil))
	raw, _ := sub.MarshalSSZ()
	req := httptest.NewRequest("POST", relayapi.PathBuilderBlocks, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/octet-stream")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 {
		b.Fatalf("submit: %d %s", rec.Code, rec.Body)
	}
	path := "/eth/v1/builder/header/1/" + sub.Fulu.Message.ParentHash.String() + "/" + e.Proposer(1).Key.PublicKey().String()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != 200 {
			b.Fatalf("getHeader: %d", rec.Code)
		}
	}
}
