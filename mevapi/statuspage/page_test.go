package statuspage

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/eth/relaystatus"
)

type fixed struct{ s *relaystatus.Snapshot }

func (f *fixed) Snapshot() *relaystatus.Snapshot { return f.s }

func snapshot() *relaystatus.Snapshot {
	return &relaystatus.Snapshot{
		Taken:      time.Unix(1700000000, 0),
		Relay:      relaystatus.Info{Network: "dev", Pubkey: "0xabc", Version: "1", HeadSlot: 9, BetaOn: true, L2: `<script>alert("l2")</script>`},
		Deliveries: []relaystatus.Delivery{{Slot: 9, BlockNumber: 8, ValueWei: big.NewInt(1_234_567_000_000_000), Builder: `0x"><img src=x>`, Txs: 3, BetaGas: 42000, BetaBundles: 1}},
		Plot:       []relaystatus.SlotPoint{{Slot: 8}, {Slot: 9, Delivered: true, ValueWei: big.NewInt(1e15), BetaGas: 42000}},
		Beta: relaystatus.Market{
			Upcoming: []relaystatus.UpcomingSlot{{Slot: 10, GasForSale: 3_000_000, State: relaystatus.AuctionOpen}},
			Settled:  []relaystatus.SettledSlot{{Slot: 9, ClearingPrice: big.NewInt(2e9), GasSold: 2_000_000, Paid: 1, Included: 1, State: relaystatus.AuctionSettled}},
		},
		BuilderSlots: 64,
	}
}

// TestPageEscapes: values that come from outside (the Host header, builder
// keys, the L2's name) are printed as text, never as markup.
func TestPageEscapes(t *testing.T) {
	h := New(&fixed{snapshot()})
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Host = `relay.example"><script>x()</script>`
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	body := rec.Body.String()
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	for _, bad := range []string{"<script>", "<img src=x>", `"><script`} {
		if strings.Contains(body, bad) {
			t.Errorf("page contains unescaped %q", bad)
		}
	}
	for _, want := range []string{"http://0xabc@relay.example&#34;&gt;&lt;script&gt;", "0.001234", "42,000", "2.000", `href="/relay/v1/data/bidtraces/proposer_payload_delivered?slot=9"`} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestPageHeaders: short caching, HTML, a policy that forbids loading or
// running anything, and HEAD without a body.
func TestPageHeaders(t *testing.T) {
	h := New(&fixed{snapshot()})
	for _, m := range []string{http.MethodGet, http.MethodHead} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(m, "/", nil)
		req.Header.Set("X-Forwarded-Proto", "https")
		h.ServeHTTP(rec, req)
		hd := rec.Header()
		if hd.Get("Cache-Control") != CacheControl || !strings.HasPrefix(hd.Get("Content-Type"), "text/html") ||
			!strings.Contains(hd.Get("Content-Security-Policy"), "default-src 'none'") {
			t.Errorf("%s: headers %v", m, hd)
		}
		if m == http.MethodHead && rec.Body.Len() != 0 {
			t.Errorf("HEAD has a body")
		}
		if m == http.MethodGet && !strings.Contains(rec.Body.String(), "https://0xabc@example.com") {
			t.Errorf("behind a TLS proxy the connect URL is not https")
		}
	}
}

// TestPageRenderedOncePerSnapshot: views of one snapshot share one
// rendering; a new snapshot is rendered anew.
func TestPageRenderedOncePerSnapshot(t *testing.T) {
	src := &fixed{snapshot()}
	h := New(src)
	a, _ := h.page("http", "h")
	b, _ := h.page("http", "h")
	if a != b {
		t.Fatal("the same snapshot was rendered twice")
	}
	next := snapshot()
	next.Relay.HeadSlot = 77
	src.s = next
	c, _ := h.page("http", "h")
	if a == c || !strings.Contains(string(c.html), ">77<") {
		t.Fatal("a new snapshot was not rendered")
	}
}

// TestPageBeforeReady: a relay waiting for its beacon node still gets a
// page that says why.
func TestPageBeforeReady(t *testing.T) {
	s := &relaystatus.Snapshot{Relay: relaystatus.Info{Version: "1", Waiting: "waiting for a beacon node"}}
	p, err := Render(s, "http", "h")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(p), "not ready: waiting for a beacon node") || strings.Contains(string(p), "Connect") {
		t.Fatalf("page before ready:\n%s", p)
	}
}

// TestPageGzip: a client that takes gzip gets the same page compressed.
func TestPageGzip(t *testing.T) {
	h := New(&fixed{snapshot()})
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Vary") != "Accept-Encoding" {
		t.Fatalf("headers %v", rec.Header())
	}
	if n, _ := strconv.Atoi(rec.Header().Get("Content-Length")); n != rec.Body.Len() {
		t.Fatalf("Content-Length %d for a body of %d bytes", n, rec.Body.Len())
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	html, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	plain := httptest.NewRecorder()
	h.ServeHTTP(plain, httptest.NewRequest(http.MethodGet, "/", nil))
	if plain.Header().Get("Content-Encoding") != "" || !bytes.Equal(html, plain.Body.Bytes()) {
		t.Fatal("the gzipped page is not the plain one")
	}
}

func TestDecimal(t *testing.T) {
	for _, c := range []struct {
		v    *big.Int
		want string
	}{
		{big.NewInt(0), "0.000000"},
		{big.NewInt(1), "0.000000"},
		{big.NewInt(1e12), "0.000001"},
		{new(big.Int).Mul(big.NewInt(12), big.NewInt(1e18)), "12.000000"},
		{big.NewInt(-5e17), "-0.500000"},
	} {
		if got := formatETH(c.v); got != c.want {
			t.Errorf("formatETH(%s) = %s, want %s", c.v, got, c.want)
		}
	}
	if got := thousands(1234567); got != "1,234,567" {
		t.Errorf("thousands = %s", got)
	}
}

// TestPageRenderingsBounded: a client naming a new Host in every request
// gets a page that names no host once the per-snapshot renderings are
// used up, rendered once, not one rendering per view.
func TestPageRenderingsBounded(t *testing.T) {
	h := New(&fixed{snapshot()})
	for i := 0; i < 3*maxHosts; i++ {
		if _, err := h.page("http", "h"+strings.Repeat("x", i)); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(h.pages); n > maxHosts+1 {
		t.Fatalf("%d pages kept for one snapshot, want at most %d", n, maxHosts+1)
	}
	p, _ := h.page("http", "another.example")
	if !strings.Contains(string(p.html), "http://0xabc@HOST") {
		t.Fatalf("past the bound the page names a host")
	}
}

// BenchmarkRender is one rendering of a full snapshot: what a view costs
// when its snapshot and host were not rendered yet.
func BenchmarkRender(b *testing.B) {
	s := snapshot()
	for i := uint64(0); i < 64; i++ {
		s.Plot = append(s.Plot, relaystatus.SlotPoint{Slot: 100 + i, Delivered: true, ValueWei: big.NewInt(int64(i+1) * 1e15), BetaGas: i * 1000})
	}
	for i := 0; i < 16; i++ {
		s.Deliveries = append(s.Deliveries, s.Deliveries[0])
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Render(s, "http", "relay.example"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkServe is a view of a page already rendered for its snapshot and
// host (the handler alone, without the network): what a view costs the
// relay.
func BenchmarkServe(b *testing.B) {
	h := New(&fixed{snapshot()})
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	h.ServeHTTP(httptest.NewRecorder(), req)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h.ServeHTTP(discard{}, req)
	}
}

// discard is a ResponseWriter that keeps nothing.
type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) WriteHeader(int)             {}
