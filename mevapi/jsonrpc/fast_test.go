package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/metrics"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/mevapi/reqsig"
)

// fastService has fast methods covering every kind of answer: results that
// marshal themselves or not, coded, plain, data-carrying and internal
// errors, panics, and arguments that unmarshal themselves or not.
type fastService struct{ calls atomic.Int64 }

type fastArgs struct {
	Txs  []string `json:"txs"`
	Slot *string  `json:"slot"`
}

type dataError struct{}

func (dataError) Error() string          { return "reverted" }
func (dataError) ErrorCode() int         { return 3 }
func (dataError) ErrorData() interface{} { return "0x08c379a0<&>" }

// loose marshals itself with spaces, which geth passes on uncompacted.
type loose struct{}

func (loose) MarshalJSON() ([]byte, error) { return []byte(`{ "a" : 1 }`), nil }

type unmarshalable struct{}

func (unmarshalable) MarshalJSON() ([]byte, error) { return nil, errors.New("cannot encode") }

func (f *fastService) FastMethods() []string {
	return []string{"sendBetaBundle", "hash", "loose", "unmarshalable", "wait"}
}

func (f *fastService) SendBetaBundle(ctx context.Context, a fastArgs) (string, error) {
	f.calls.Add(1)
	slot := ""
	if a.Slot != nil {
		slot = *a.Slot
	}
	switch slot {
	case "past":
		return "", &codedError{CodeInvalidParams, "slot <1> is in the past"}
	case "internal":
		return "", &codedError{CodeInternal, "disk on fire"}
	case "limit":
		return "", &codedError{CodeLimitExceeded, "slow down"}
	case "plain":
		return "", errors.New("nonce too low")
	case "data":
		return "", dataError{}
	case "panic":
		panic("boom")
	case "signer":
		a, _ := reqsig.SignerFrom(ctx)
		return a.Hex(), nil
	}
	return strings.Join(a.Txs, "+") + "@" + slot, nil
}

func (f *fastService) Hash(ctx context.Context, h common.Hash) (common.Hash, error) {
	f.calls.Add(1)
	return h, nil
}

func (f *fastService) Loose(ctx context.Context, n int) (loose, error) {
	f.calls.Add(1)
	return loose{}, nil
}

func (f *fastService) Unmarshalable(ctx context.Context, n int) (unmarshalable, error) {
	f.calls.Add(1)
	return unmarshalable{}, nil
}

// Wait returns when ctx ends.
func (f *fastService) Wait(ctx context.Context, n int) (int, error) {
	f.calls.Add(1)
	<-ctx.Done()
	return 0, ctx.Err()
}

// Other is not a fast method.
func (f *fastService) Other(ctx context.Context, n int) (int, error) { return n, nil }

// fastPair serves the same service with and without the fast path.
func fastPair(t testing.TB) (fast, geth *Server, svc *fastService) {
	t.Helper()
	svc = new(fastService)
	apis := []rpc.API{{Namespace: "mev", Service: svc}}
	fast, err := New(Config{BodyLimit: 4096}, apis)
	if err != nil {
		t.Fatal(err)
	}
	geth, err = New(Config{BodyLimit: 4096}, apis, WithGethDispatch())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fast.Close(); geth.Close() })
	return fast, geth, svc
}

func serveOnce(h http.Handler, body []byte, sig string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/v1", bytes.NewReader(body))
	if sig != "" {
		req.Header.Set(reqsig.HeaderEthereum, sig)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// fastSeeds are bodies for the fast path and for every way of missing it.
var fastSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"mev_sendBetaBundle","params":[{"txs":["0x01"],"slot":"5"}]}`,
	` { "params" : [ {"txs":["0x01"],"slot":"5"} ] , "method" : "mev_sendBetaBundle", "id" : "a\"b", "jsonrpc" : "2.0" } `,
	`{"jsonrpc":"2.0","id":null,"method":"mev_sendBetaBundle","params":[{"txs":[],"slot":"6"}]}`,
	`{"jsonrpc":"2.0","id":1e3,"method":"mev_sendBetaBundle","params":[{"TXS":["x"],"slot":"7"}]}`,
	`{"jsonrpc":"2.0","id":-7.5,"method":"mev_sendBetaBundle","params":[{"txs":["0x01"]}]}`,
	`{"jsonrpc":"2.0","id":2,"method":"mev_sendBetaBundle","params":[{"slot":"past"}]}`,
	`{"jsonrpc":"2.0","id":2,"method":"mev_sendBetaBundle","params":[{"slot":"internal"}]}`,
	`{"jsonrpc":"2.0","id":2,"method":"mev_sendBetaBundle","params":[{"slot":"limit"}]}`,
	`{"jsonrpc":"2.0","id":2,"method":"mev_sendBetaBundle","params":[{"slot":"plain"}]}`,
	`{"jsonrpc":"2.0","id":2,"method":"mev_sendBetaBundle","params":[{"slot":"data"}]}`,
	`{"jsonrpc":"2.0","id":2,"method":"mev_sendBetaBundle","params":[{"slot":"panic"}]}`,
	`{"jsonrpc":"2.0","id":2,"method":"mev_sendBetaBundle","params":[{"slot":"signer"}]}`,
	`{"jsonrpc":"2.0","id":3,"method":"mev_hash","params":["0x0000000000000000000000000000000000000000000000000000000000000001"]}`,
	`{"jsonrpc":"2.0","id":3,"method":"mev_hash","params":["0x01"]}`,
	`{"jsonrpc":"2.0","id":3,"method":"mev_hash","params":[5]}`,
	`{"jsonrpc":"2.0","id":4,"method":"mev_loose","params":[1]}`,
	`{"jsonrpc":"2.0","id":4,"method":"mev_unmarshalable","params":[1]}`,
	`{"jsonrpc":"2.0","id":5,"method":"mev_other","params":[1]}`,
	// Not plain calls: geth answers these.
	`{"jsonrpc":"2.0","id":6,"method":"mev_sendBetaBundle","params":[]}`,
	`{"jsonrpc":"2.0","id":6,"method":"mev_sendBetaBundle","params":[null]}`,
	`{"jsonrpc":"2.0","id":6,"method":"mev_sendBetaBundle","params":[{},{}]}`,
	`{"jsonrpc":"2.0","id":6,"method":"mev_sendBetaBundle","params":[{"txs":"0x01"}]}`,
	`{"jsonrpc":"2.0","id":6,"method":"mev_sendBetaBundle","params":[{"slot":5}]}`,
	`{"jsonrpc":"2.0","id":6,"method":"mev_sendBetaBundle","params":{"slot":"5"}}`,
	`{"jsonrpc":"2.0","id":6,"method":"mev_sendBetaBundle"}`,
	`{"jsonrpc":"2.0","method":"mev_sendBetaBundle","params":[{"slot":"5"}]}`,
	`{"jsonrpc":"2.0","id":{},"method":"mev_sendBetaBundle","params":[{"slot":"5"}]}`,
	`{"jsonrpc":"2.0","id":[1],"method":"mev_sendBetaBundle","params":[{"slot":"5"}]}`,
	`{"jsonrpc":"1.0","id":6,"method":"mev_sendBetaBundle","params":[{"slot":"5"}]}`,
	`{"jsonrpc":"2.0","id":6,"method":"mev_send\u0042etaBundle","params":[{"slot":"5"}]}`,
	`{"json\u0072pc":"2.0","id":6,"method":"mev_sendBetaBundle","params":[{"slot":"5"}]}`,
	`{"jsonrpc":"2.0","id":6,"method":"mev_sendBetaBundle","Method":"mev_other","params":[{"slot":"5"}]}`,
	`{"jsonrpc":"2.0","id":6,"method":"mev_other","method":"mev_sendBetaBundle","params":[{"slot":"5"}]}`,
	`{"jsonrpc":"2.0","id":6,"id":7,"method":"mev_sendBetaBundle","params":[{"slot":"5"}]}`,
	`{"jsonrpc":"2.0","id":6,"method":"mev_sendBetaBundle","params":[{"slot":"5"}],"extra":1}`,
	`{"jsonrpc":"2.0","id":6,"method":"mev_sendBetaBundle","params":[{"slot":"5"}]`,
	`{"jsonrpc":"2.0","id":6,"method":"mev_sendBetaBundle","params":[{"slot":"5"}]} {}`,
	`[{"jsonrpc":"2.0","id":6,"method":"mev_sendBetaBundle","params":[{"slot":"5"}]}]`,
	`null`, `"x"`, `{}`, `{"jsonrpc":"2.0","id":1,"method":"mev_nope","params":[1]}`,
}

// TestFastPathMatchesGeth: every body gets the same status and the same bytes
// with and without the fast path, and the plain calls do take it.
func TestFastPathMatchesGeth(t *testing.T) {
	fast, geth, _ := fastPair(t)
	key, _ := crypto.GenerateKey()
	for _, body := range fastSeeds {
		for _, signed := range []bool{false, true} {
			sig := ""
			if signed {
				sig = sign(t, key, body)
			}
			want := serveOnce(geth.Handler(false), []byte(body), sig)
			got := serveOnce(fast.Handler(false), []byte(body), sig)
			if got.Code != want.Code || got.Body.String() != want.Body.String() {
				t.Errorf("%s\nfast: %d %s\ngeth: %d %s", body, got.Code, got.Body, want.Code, want.Body)
			}
		}
	}
	// The plain calls take the fast path, the others do not.
	for _, body := range []string{fastSeeds[0], fastSeeds[1], fastSeeds[12], fastSeeds[15]} {
		if !fast.serveFast(context.Background(), httptest.NewRecorder(), []byte(body)) {
			t.Errorf("not served fast: %s", body)
		}
	}
	for _, body := range fastSeeds[17:] {
		if fast.serveFast(context.Background(), httptest.NewRecorder(), []byte(body)) {
			t.Errorf("served fast: %s", body)
		}
	}
	// The echo and the hidden internal error, spelled out.
	rec := serveOnce(fast.Handler(false), []byte(fastSeeds[0]), "")
	if rec.Code != 200 || rec.Body.String() != `{"method":"mev_sendBetaBundle","jsonrpc":"2.0","id":1,"result":"0x01@5"}` {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	rec = serveOnce(fast.Handler(false), []byte(fastSeeds[6]), "")
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "disk on fire") || !strings.Contains(rec.Body.String(), internalMessage) {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
}

// FuzzFastPath: for any body the fast path answers exactly as geth's
// dispatcher does.
func FuzzFastPath(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	fast, geth, _ := fastPair(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		if bytes.Contains(body, []byte("wait")) {
			return // blocks until the request ends
		}
		want := serveOnce(geth.Handler(false), body, "")
		got := serveOnce(fast.Handler(false), body, "")
		if got.Code != want.Code || got.Body.String() != want.Body.String() {
			t.Fatalf("%q\nfast: %d %s\ngeth: %d %s", body, got.Code, got.Body, want.Code, want.Body)
		}
	})
}

// TestFastPathTimeout: a fast call still running shortly before the HTTP
// server's write timeout is cancelled and answered "request timed out", as
// geth answers it.
func TestFastPathTimeout(t *testing.T) {
	fast, _, _ := fastPair(t)
	body := `{"jsonrpc":"2.0","id":9,"method":"mev_wait","params":[1]}`
	req := httptest.NewRequest(http.MethodPost, "/v1", strings.NewReader(body))
	// geth cancels 100 ms before the server's write timeout.
	req = req.WithContext(context.WithValue(req.Context(), http.ServerContextKey, &http.Server{WriteTimeout: 110 * time.Millisecond}))
	rec := httptest.NewRecorder()
	fast.Handler(false).ServeHTTP(rec, req)
	var r response
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || rec.Code != 400 || r.Error == nil ||
		r.Error.Code != errcodeTimeout || r.Error.Message != "request timed out" || string(r.ID) != "9" {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
}

func TestFastMethodShape(t *testing.T) {
	_, err := New(Config{}, []rpc.API{{Namespace: "bad", Service: badFast{}}})
	if err == nil || !strings.Contains(err.Error(), "bad_echo") || !strings.Contains(err.Error(), "expected func(context.Context, T) (R, error)") {
		t.Fatalf("wrong shape accepted: %v", err)
	}
	_, err = New(Config{}, []rpc.API{{Namespace: "bad", Service: missingFast{}}})
	if err == nil || !strings.Contains(err.Error(), "no such method") {
		t.Fatalf("missing method accepted: %v", err)
	}
}

type badFast struct{ testService }

func (badFast) FastMethods() []string { return []string{"echo"} }

type missingFast struct{ testService }

func (missingFast) FastMethods() []string { return []string{"absent"} }

// A fast call counts in geth's rpc/* metrics as a dispatched one does.
func TestFastPathCountsInGethMetrics(t *testing.T) {
	fast, geth, _ := fastPair(t)
	count := func() (req, ok, fail int64) {
		return metrics.GetOrRegisterGauge("rpc/requests", nil).Snapshot().Value(),
			metrics.GetOrRegisterGauge("rpc/success", nil).Snapshot().Value(),
			metrics.GetOrRegisterGauge("rpc/failure", nil).Snapshot().Value()
	}
	for _, srv := range []*Server{geth, fast} {
		r0, s0, f0 := count()
		serveOnce(srv.Handler(false), []byte(fastSeeds[0]), "")
		serveOnce(srv.Handler(false), []byte(fastSeeds[6]), "")
		if r, s, f := count(); r-r0 != 2 || s-s0 != 1 || f-f0 != 1 {
			t.Fatalf("gethOnly=%v: requests +%d, success +%d, failure +%d; want 2, 1, 1", srv.gethOnly, r-r0, s-s0, f-f0)
		}
	}
}
