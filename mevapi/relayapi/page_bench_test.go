package relayapi_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/eth/relaystatus"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/internal/testutil"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
	"github.com/gavel-eth/gavel/mevapi/statuspage"
)

// BenchmarkGetHeaderWithPage measures getHeader over loopback HTTP at
// 1,000 requests per second (open loop, as BenchmarkGetHeaderLoad) on a
// listener that also serves the status page, with no page views and with
// 100 page views per second from another client, in one run on one server.
// The page lists 64 delivered payloads and its collector refreshes every
// second, as in a node. Reported: getHeader p50/p99/max and the page's p99.
func BenchmarkGetHeaderWithPage(b *testing.B) {
	header, page := benchPageServer(b)
	for _, views := range []int{0, 100} {
		b.Run(fmt.Sprintf("views=%d-per-s", views), func(b *testing.B) { benchHeaderWithViews(b, header, page, views) })
	}
}

func benchPageServer(b *testing.B) (header, page string) {
	e := relaytest.New(b, relaytest.Options{})
	bids := relaystatus.NewBidCounter()
	c := relaystatus.NewCollector(relaystatus.Config{
		Relay:      func() (relaystatus.Relay, string) { return e.Relay, "" },
		Deliveries: e.Store, Bids: bids,
	})
	srv := mevapi.New(mevapi.Config{}, nil)
	relayapi.MountBuilder(srv, e.Relay, relayapi.BuilderConfig{})
	relayapi.MountProposer(srv, e.Relay)
	statuspage.New(c).Mount(srv)
	hs := httptest.NewServer(srv.Handler())
	b.Cleanup(hs.Close)
	registerHTTP(b, e, hs.URL, true)
	sub := e.Submission(e.BuildBlock(1, 10, nil))
	raw, _ := sub.MarshalSSZ()
	if code, _, out := do(b, "POST", hs.URL+relayapi.PathBuilderBlocks, raw, map[string]string{"Content-Type": "application/octet-stream"}); code != 200 {
		b.Fatalf("submit: %d %s", code, out)
	}
	pk := e.Proposer(1).Key.PublicKey()
	// 64 delivered payloads for the page's tables and plot (slots the
	// relay's guard never sees: the bid above stays servable).
	for s := uint64(1000); s < 1064; s++ {
		d := &store.DeliveredPayload{BetaGasUsed: s * 100, BetaBundleCount: 1}
		d.Slot, d.BlockNumber, d.NumTx, d.BuilderPubkey = s, s, 100, e.BuilderKey.PublicKey()
		d.BlockHash = beacon.Root{byte(s), byte(s >> 8)}
		d.Value[31], d.Value[30] = byte(s), 0x10
		if _, err := e.Store.PutDelivered(context.Background(), d); err != nil {
			b.Fatal(err)
		}
	}
	if err := c.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Stop() })
	return hs.URL + "/eth/v1/builder/header/1/" + sub.Fulu.Message.ParentHash.String() + "/" + pk.String(), hs.URL + "/"
}

func benchHeaderWithViews(b *testing.B, header, page string, views int) {
	b.StopTimer()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 512}}
	// The viewer asks for gzip as a browser does and, like a remote browser's
	// work, its inflating is left out of this process: the body is read as
	// sent.
	viewer := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, DisableCompression: true}}
	get := func(c *http.Client, url string) (time.Duration, int) {
		start := time.Now()
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		if c == viewer {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		res, err := c.Do(req)
		if err != nil {
			return time.Since(start), 0
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return time.Since(start), res.StatusCode
	}
	for i := 0; i < 200; i++ {
		get(client, header)
		get(viewer, page)
	}
	const rate = 1000
	n := max(b.N, 2000)
	lat := make([]time.Duration, n)
	codes := make([]int, n)

	// The page views run beside the getHeader load, open loop too.
	stop := make(chan struct{})
	var pageLat []time.Duration
	var pageMu sync.Mutex
	var viewsDone sync.WaitGroup
	if views > 0 {
		viewsDone.Add(1)
		go func() {
			defer viewsDone.Done()
			t := time.NewTicker(time.Second / time.Duration(views))
			defer t.Stop()
			var wg sync.WaitGroup
			defer wg.Wait()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					d, code := get(viewer, page)
					if code != 200 {
						b.Errorf("page view: status %d", code)
					}
					pageMu.Lock()
					pageLat = append(pageLat, d)
					pageMu.Unlock()
				}()
			}
		}()
	}
	var wg sync.WaitGroup
	tick := time.NewTicker(time.Second / rate)
	defer tick.Stop()
	cpu := testutil.CPUTime()
	b.StartTimer()
	for i := 0; i < n; i++ {
		<-tick.C
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			lat[i], codes[i] = get(client, header)
		}(i)
	}
	wg.Wait()
	b.StopTimer()
	close(stop)
	viewsDone.Wait()
	// CPU of the whole process (clients, listener, collector) per getHeader:
	// with views, the difference to the run without is what the views cost.
	b.ReportMetric(float64(testutil.CPUTime()-cpu)/float64(n), "cpu-ns/req")
	for i, c := range codes {
		if c != 200 {
			b.Fatalf("request %d: status %d", i, c)
		}
	}
	pct := func(l []time.Duration, p float64) float64 {
		slices.Sort(l)
		return float64(l[int(float64(len(l)-1)*p)]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(lat, 0.50), "p50-ms")
	b.ReportMetric(pct(lat, 0.99), "p99-ms")
	b.ReportMetric(pct(lat, 1.0), "max-ms")
	b.ReportMetric(float64(n), "requests")
	if len(pageLat) > 0 {
		b.ReportMetric(pct(pageLat, 0.99), "page-p99-ms")
		b.ReportMetric(float64(len(pageLat)), "views")
	}
}
