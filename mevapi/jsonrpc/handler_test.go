package jsonrpc

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/internal/testutil"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
)

// testService is a tiny JSON-RPC service; the handler under test is the
// real one, over real HTTP.
type testService struct{}

type codedError struct {
	code int
	msg  string
}

func (e *codedError) Error() string  { return e.msg }
func (e *codedError) ErrorCode() int { return e.code }

func (testService) Echo(s string) string { return s }
func (testService) Whoami(ctx context.Context) string {
	a, _ := reqsig.SignerFrom(ctx)
	return a.Hex()
}
func (testService) Invalid() error         { return &codedError{CodeInvalidParams, "slot is in the past"} }
func (testService) Broken() error          { return &codedError{CodeInternal, "disk on fire"} }
func (testService) Plain() error           { return errors.New("nonce too low") }
func (testService) SendBetaBundle() string { return "0xabc" }

type response struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func newTestServer(t *testing.T, cfg Config) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	s, err := New(cfg, []rpc.API{{Namespace: "test", Service: testService{}}, {Namespace: "mev", Service: testService{}}},
		WithRequestHook(func(common.Address) { n.Add(1) }))
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	s.Register(mux)
	ts := httptest.NewServer(mux)
	t.Cleanup(func() { ts.Close(); s.Close() })
	return ts, &n
}

func post(t *testing.T, url, body string, headers map[string]string) (int, response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header[k] = []string{v} // sent exactly as written, case included
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var r response
	json.Unmarshal(raw, &r)
	return res.StatusCode, r, string(raw)
}

func sign(t *testing.T, key *ecdsa.PrivateKey, body string) string {
	h, err := reqsig.Sign([]byte(body), key)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestSignatures(t *testing.T) {
	ts, _ := newTestServer(t, Config{})
	key, _ := crypto.GenerateKey()
	other, _ := crypto.GenerateKey()
	addr := crypto.PubkeyToAddress(key.PublicKey)
	body := `{"jsonrpc":"2.0","id":1,"method":"test_whoami","params":[]}`
	good := sign(t, key, body)
	addrPart, sigPart, _ := strings.Cut(good, ":")
	otherSig := strings.SplitN(sign(t, other, body), ":", 2)[1]

	tests := []struct {
		name    string
		path    string
		body    string
		headers map[string]string
		status  int
		msg     string // substring of the error message
	}{
		{"unsigned auction", "/v1/auction", body, nil, 401, "missing request signature"},
		{"unsigned v1", "/v1", body, nil, 200, ""},
		{"signed auction", "/v1/auction", body, map[string]string{"X-Ethereum-Signature": good}, 200, ""},
		{"lowercase flashbots header", "/v1/auction", body, map[string]string{"x-flashbots-signature": good}, 200, ""},
		{"uppercase header", "/v1/auction", body, map[string]string{"X-ETHEREUM-SIGNATURE": good}, 200, ""},
		{"tampered body", "/v1/auction", body + " ", map[string]string{"X-Ethereum-Signature": good}, 401, "signer mismatch"},
		{"another key", "/v1/auction", body, map[string]string{"X-Ethereum-Signature": addrPart + ":" + otherSig}, 401, "signer mismatch"},
		{"missing 0x", "/v1/auction", body, map[string]string{"X-Ethereum-Signature": addrPart + ":" + sigPart[2:]}, 401, "must start with 0x"},
		{"bad hex", "/v1", body, map[string]string{"X-Ethereum-Signature": addrPart + ":0xzz"}, 401, "bad signature hex"},
		{"malformed header", "/", body, map[string]string{"X-Ethereum-Signature": "nonsense"}, 401, "malformed signature header"},
		{"bad signature on optional path", "/MevSendBetaBundleRequest", body, map[string]string{"X-Flashbots-Signature": addrPart + ":" + otherSig}, 401, "signer mismatch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, r, raw := post(t, ts.URL+tt.path, tt.body, tt.headers)
			if status != tt.status {
				t.Fatalf("status %d, want %d: %s", status, tt.status, raw)
			}
			if tt.msg != "" && (r.Error == nil || !strings.Contains(r.Error.Message, tt.msg)) {
				t.Fatalf("error %s does not say %q", raw, tt.msg)
			}
			if status == 200 && tt.headers != nil {
				var who string
				json.Unmarshal(r.Result, &who)
				if who != addr.Hex() {
					t.Fatalf("service saw signer %s, want %s", who, addr.Hex())
				}
			}
		})
	}
}

func TestAuthRequired(t *testing.T) {
	ts, _ := newTestServer(t, Config{Auth: AuthRequired})
	body := `{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["x"]}`
	if status, _, raw := post(t, ts.URL+"/v1", body, nil); status != 401 {
		t.Fatalf("unsigned with auth=required: %d %s", status, raw)
	}
	key, _ := crypto.GenerateKey()
	if status, _, raw := post(t, ts.URL+"/v1", body, map[string]string{"X-Ethereum-Signature": sign(t, key, body)}); status != 200 {
		t.Fatalf("signed: %d %s", status, raw)
	}
	if _, err := New(Config{Auth: "sometimes"}, nil); err == nil {
		t.Fatal("unknown auth mode accepted")
	}
}

func TestStatusMapping(t *testing.T) {
	ts, hook := newTestServer(t, Config{})
	call := func(method string) string {
		return `{"jsonrpc":"2.0","id":7,"method":"` + method + `","params":[]}`
	}
	tests := []struct {
		name, body string
		status     int
		code       int
		msg        string
	}{
		{"ok", `{"jsonrpc":"2.0","id":7,"method":"test_echo","params":["hi"]}`, 200, 0, ""},
		{"invalid params", call("test_invalid"), 400, CodeInvalidParams, "slot is in the past"},
		{"wrong arg count", call("test_echo"), 400, CodeInvalidParams, ""},
		{"unknown method", call("test_nope"), 400, CodeMethodNotFound, ""},
		{"plain error", call("test_plain"), 400, CodeServerError, "nonce too low"},
		{"internal", call("test_broken"), 500, CodeInternal, internalMessage},
		{"parse error", `{"jsonrpc":`, 400, CodeParseError, ""},
		{"empty", ``, 400, CodeInvalidRequest, "empty request body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, r, raw := post(t, ts.URL+"/v1", tt.body, nil)
			if status != tt.status {
				t.Fatalf("status %d, want %d: %s", status, tt.status, raw)
			}
			if tt.code != 0 && (r.Error == nil || r.Error.Code != tt.code || !strings.Contains(r.Error.Message, tt.msg)) {
				t.Fatalf("body %s, want code %d with %q", raw, tt.code, tt.msg)
			}
			if strings.Contains(raw, "disk on fire") {
				t.Fatal("internal detail leaked")
			}
		})
	}
	if hook.Load() == 0 {
		t.Fatal("request hook never called")
	}
	// mev_sendBetaBundle echoes "method"; other methods do not.
	_, r, raw := post(t, ts.URL+"/", call("mev_sendBetaBundle"), nil)
	if r.Method != "mev_sendBetaBundle" || string(r.ID) != "7" {
		t.Fatalf("no method echo: %s", raw)
	}
	if _, r, _ := post(t, ts.URL+"/", `{"jsonrpc":"2.0","id":7,"method":"test_echo","params":["x"]}`, nil); r.Method != "" {
		t.Fatal("echoed method for test_echo")
	}
	// Inside a batch, internal details are hidden too.
	status, _, raw := post(t, ts.URL+"/v1", "["+call("test_broken")+"]", nil)
	if status != 200 || strings.Contains(raw, "disk on fire") || !strings.Contains(raw, internalMessage) {
		t.Fatalf("batch with an internal error: %d %s", status, raw)
	}
	// A batch answers 200 with one response per call.
	status, _, raw = post(t, ts.URL+"/v2", "["+call("test_invalid")+","+`{"jsonrpc":"2.0","id":8,"method":"test_echo","params":["b"]}`+"]", nil)
	var batch []response
	if err := json.Unmarshal([]byte(raw), &batch); err != nil || status != 200 || len(batch) != 2 || batch[0].Error == nil || string(batch[1].Result) != `"b"` {
		t.Fatalf("batch: %d %s", status, raw)
	}
}

func TestBodyLimit(t *testing.T) {
	const limit = 200
	ts, _ := newTestServer(t, Config{BodyLimit: limit})
	prefix, suffix := `{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["`, `"]}`
	pad := func(n int) string { return prefix + strings.Repeat("a", n-len(prefix)-len(suffix)) + suffix }
	if status, _, raw := post(t, ts.URL+"/v1", pad(limit), nil); status != 200 {
		t.Fatalf("at the limit: %d %s", status, raw)
	}
	status, r, raw := post(t, ts.URL+"/v1", pad(limit+1), nil)
	if status != 413 || r.Error == nil || !strings.Contains(r.Error.Message, "limit is 200 bytes") {
		t.Fatalf("one past the limit: %d %s", status, raw)
	}
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1", bytes.NewReader([]byte(pad(100))))
	req.Header.Set("Content-Encoding", "gzip")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 415 {
		t.Fatalf("gzip body: %d", res.StatusCode)
	}
	// Every value counts, not only the first.
	for _, values := range [][]string{{"identity", "gzip"}, {"identity, br"}} {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1", bytes.NewReader([]byte(pad(100))))
		req.Header["Content-Encoding"] = values
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 415 {
			t.Fatalf("Content-Encoding %q: %d", values, res.StatusCode)
		}
	}
}

func TestRateLimits(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["x"]}`
	// A rate so low that no token refills during the test: the burst is all
	// there is.
	ts, _ := newTestServer(t, Config{IPRate: 0.0001, IPBurst: 2})
	for i, want := range []int{200, 200, 429} {
		if status, _, raw := post(t, ts.URL+"/v1", body, nil); status != want {
			t.Fatalf("request %d: %d, want %d: %s", i, status, want, raw)
		}
	}
	ts, _ = newTestServer(t, Config{SignerRate: 0.0001, SignerBurst: 1})
	a, _ := crypto.GenerateKey()
	b, _ := crypto.GenerateKey()
	for i, tc := range []struct {
		key  *ecdsa.PrivateKey
		want int
	}{{a, 200}, {a, 429}, {b, 200}, {nil, 200}, {nil, 200}} {
		h := map[string]string{}
		if tc.key != nil {
			h["X-Ethereum-Signature"] = sign(t, tc.key, body)
		}
		if status, _, raw := post(t, ts.URL+"/v1", body, h); status != tc.want {
			t.Fatalf("request %d: %d, want %d: %s", i, status, tc.want, raw)
		}
	}
}

func TestRoutes(t *testing.T) {
	ts, _ := newTestServer(t, Config{})
	res, err := http.Get(ts.URL + "/v1")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET /v1: %d", res.StatusCode)
	}
	if status, _, _ := post(t, ts.URL+"/nowhere", `{}`, nil); status != 404 {
		t.Fatalf("POST /nowhere: %d", status)
	}
}

// FuzzMapSingle feeds arbitrary request/response pairs to the status mapper:
// it must not panic and must keep a response that parses as JSON parseable.
func FuzzMapSingle(f *testing.F) {
	f.Add([]byte(`{"method":"mev_sendBetaBundle"}`), []byte(`{"jsonrpc":"2.0","id":1,"result":"0x"}`))
	f.Add([]byte(`{}`), []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"x"}}`))
	f.Add([]byte(`[`), []byte(`{"error":null}`))
	f.Fuzz(func(t *testing.T, req, resp []byte) {
		status, out := mapSingle(req, resp)
		if status < 200 || status > 599 {
			t.Fatalf("status %d", status)
		}
		if json.Valid(resp) && !json.Valid(out) {
			t.Fatalf("valid response %q became invalid %q", resp, out)
		}
	})
}

// TestParseErrorSaysWhy: a single call that does not parse is answered
// with what is wrong, not geth's bare "parse error".
func TestParseErrorSaysWhy(t *testing.T) {
	ts, _ := newTestServer(t, Config{})
	deep := `{"jsonrpc":"2.0","id":1,"method":"test_echo","params":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`
	for body, want := range map[string]string{
		`{`:                       "unexpected end of JSON input",
		deep:                      "exceeded max depth",
		`{"jsonrpc":"2.0","id":1`: "unexpected end of JSON input",
	} {
		status, r, raw := post(t, ts.URL+"/v1", body, nil)
		if status != 400 || r.Error == nil || r.Error.Code != CodeParseError || !strings.HasPrefix(r.Error.Message, "parse error: ") || !strings.Contains(r.Error.Message, want) {
			t.Errorf("%.40s: %d %.300s, want 400 -32700 saying %q", body, status, raw, want)
		}
	}
	// JSON that parses but is not a request says what a request is.
	for _, body := range []string{`null`, `"x"`, `{"method":5}`} {
		status, r, raw := post(t, ts.URL+"/v1", body, nil)
		if status != 400 || r.Error == nil || r.Error.Code != CodeInvalidRequest || !strings.Contains(r.Error.Message, `expected a JSON object with "jsonrpc":"2.0"`) {
			t.Errorf("%s: %d %s", body, status, raw)
		}
	}
}

func TestBatchLimit(t *testing.T) {
	ts, _ := newTestServer(t, Config{BatchItemLimit: 2})
	one := `{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["x"]}`
	status, _, raw := post(t, ts.URL+"/v1", "["+one+","+one+"]", nil)
	if status != 200 || strings.Contains(raw, "error") {
		t.Fatalf("at the limit: %d %s", status, raw)
	}
	status, _, raw = post(t, ts.URL+"/v1", "["+one+","+one+","+one+"]", nil)
	if status != 400 || !strings.Contains(raw, "batch too large: 3 calls, at most 2 allowed") {
		t.Fatalf("one past the limit: %s", raw)
	}
	// Issue 14: a batch that does not parse is 400 with -32700, an empty
	// one 400 with -32600 (both were 200).
	status, _, raw = post(t, ts.URL+"/v1", "["+one+",", nil)
	if status != 400 || !strings.Contains(raw, `"code":-32700`) {
		t.Fatalf("unparsable batch: %d %s", status, raw)
	}
	status, _, raw = post(t, ts.URL+"/v1", "[]", nil)
	if status != 400 || !strings.Contains(raw, `"code":-32600`) || !strings.Contains(raw, "empty batch") {
		t.Fatalf("empty batch: %d %s", status, raw)
	}
}

// FuzzServe sends arbitrary bodies and signature headers through the whole
// handler: no panic, and only the statuses the API documents.
func FuzzServe(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["x"]}`), "")
	f.Add([]byte(`[{"jsonrpc":"2.0","id":1,"method":"mev_sendBetaBundle","params":[]}]`), "0x1:0x2")
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"test_broken"}`), ":")
	f.Add([]byte(``), "0x96216849c49358B10257cb55b28eA603c874b05E:0x00")
	s, err := New(Config{BodyLimit: 4096}, []rpc.API{{Namespace: "test", Service: testService{}}, {Namespace: "mev", Service: testService{}}})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler(false)
	allowed := map[int]bool{200: true, 400: true, 401: true, 413: true, 500: true}
	f.Fuzz(func(t *testing.T, body []byte, sig string) {
		req := httptest.NewRequest(http.MethodPost, "/v1", bytes.NewReader(body))
		if sig != "" {
			req.Header.Set(reqsig.HeaderEthereum, sig)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if !allowed[rec.Code] {
			t.Fatalf("status %d for %q", rec.Code, body)
		}
		if rec.Code != 200 && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("error body is not JSON: %q", rec.Body.String())
		}
	})
}

// BenchmarkHandler is the handler's own cost per call (no network): a
// trivial method through the MEV JSON-RPC handler, unsigned and signed,
// against geth's rpc.Server alone as the baseline.
func BenchmarkHandler(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"mev_sendBetaBundle","params":[]}`)
	key, _ := crypto.GenerateKey()
	sig, _ := reqsig.Sign(body, key)
	s, err := New(Config{}, []rpc.API{{Namespace: "mev", Service: testService{}}})
	if err != nil {
		b.Fatal(err)
	}
	bare := rpc.NewServer()
	bare.RegisterName("mev", testService{})
	run := func(b *testing.B, h http.Handler, sig string) {
		b.ReportAllocs()
		defer testutil.ReportCPU(b, testutil.CPUTime())
		for b.Loop() {
			req := httptest.NewRequest(http.MethodPost, "/v1", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			if sig != "" {
				req.Header.Set(reqsig.HeaderEthereum, sig)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 200 {
				b.Fatal(rec.Code, rec.Body.String())
			}
		}
	}
	b.Run("geth-rpc-server", func(b *testing.B) { run(b, bare, "") })
	b.Run("mev-handler", func(b *testing.B) { run(b, s.Handler(false), "") })
	b.Run("mev-handler-signed", func(b *testing.B) { run(b, s.Handler(false), sig) })

	// A one-argument method that lists itself as fast, through geth's
	// dispatcher and through the fast path.
	body = []byte(`{"jsonrpc":"2.0","id":1,"method":"mev_sendBetaBundle","params":[{"txs":["0x02"],"slot":"9"}]}`)
	fast, geth, _ := fastPair(b)
	b.Run("one-arg/geth-dispatch", func(b *testing.B) { run(b, geth.Handler(false), "") })
	b.Run("one-arg/fast-path", func(b *testing.B) { run(b, fast.Handler(false), "") })
}
