package jsonrpc

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/internal/sched"
	"github.com/gavel-eth/gavel/mevapi"
)

// gateService reports, from inside a call, how many turns of the MEV
// listener's CPU gate are taken.
type gateService struct{ mev *mevapi.Server }

func (g gateService) Busy() int { return g.mev.HeavyWork().Busy }

// TestBatchRunsInCPUTurn: a batch's calls, and a single call, run in a turn
// of the listener's CPU gate, so a flood of either leaves a core to health
// checks, getHeader and the node.
func TestBatchRunsInCPUTurn(t *testing.T) {
	mev := mevapi.New(mevapi.Config{}, nil)
	s, err := New(Config{}, []rpc.API{{Namespace: "gate", Service: gateService{mev}}})
	if err != nil {
		t.Fatal(err)
	}
	s.Register(mev)
	ts := httptest.NewServer(mev.Handler())
	t.Cleanup(func() { ts.Close(); s.Close() })

	status, r, raw := post(t, ts.URL+"/v1", `{"jsonrpc":"2.0","id":1,"method":"gate_busy","params":[]}`, nil)
	if status != http.StatusOK || string(r.Result) != "1" {
		t.Fatalf("a single call saw %s turns taken (status %d): want 1, its own: %s", r.Result, status, raw)
	}
	status, _, raw = post(t, ts.URL+"/v1", `[{"jsonrpc":"2.0","id":1,"method":"gate_busy","params":[]},{"jsonrpc":"2.0","id":2,"method":"gate_busy","params":[]}]`, nil)
	var batch []response
	if err := json.Unmarshal([]byte(raw), &batch); status != http.StatusOK || err != nil || len(batch) != 2 {
		t.Fatalf("batch: status %d, %v: %s", status, err, raw)
	}
	for _, b := range batch {
		if string(b.Result) != "1" {
			t.Fatalf("a batch's call saw %s turns taken: want 1, the batch's own: %s", b.Result, raw)
		}
	}
	if got := mev.HeavyWork(); got.Busy != 0 || got.Work == 0 {
		t.Fatalf("after the batch: %+v, want the turn given back and its bytes counted", got)
	}
}

// TestBatchCountsPerCallInIPLimit: with a per-IP rate limit, a batch of n
// calls spends n requests of the client's bucket.
func TestBatchCountsPerCallInIPLimit(t *testing.T) {
	ts, _ := newTestServer(t, Config{IPRate: 0.001, IPBurst: 5})
	batch := `[{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["a"]},{"jsonrpc":"2.0","id":2,"method":"test_echo","params":["b"]},{"jsonrpc":"2.0","id":3,"method":"test_echo","params":["c"]}]`
	if status, _, raw := post(t, ts.URL+"/v1", batch, nil); status != http.StatusOK {
		t.Fatalf("first batch of 3 with a burst of 5: status %d: %s", status, raw)
	}
	if status, _, raw := post(t, ts.URL+"/v1", batch, nil); status != http.StatusTooManyRequests {
		t.Fatalf("second batch of 3 with 2 requests left: status %d, want 429: %s", status, raw)
	}
	// What is left still serves a single call.
	if status, _, raw := post(t, ts.URL+"/v1", `{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["d"]}`, nil); status != http.StatusOK {
		t.Fatalf("a single call with 2 requests left: status %d: %s", status, raw)
	}
}

// TestBatchResponseLimit: once a batch's answers pass BatchResponseLimit
// bytes, the calls left get -32003 "response too large"; notifications get
// nothing.
func TestBatchResponseLimit(t *testing.T) {
	ts, _ := newTestServer(t, Config{BatchResponseLimit: 40})
	status, _, raw := post(t, ts.URL+"/v1", `[{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["a"]},{"jsonrpc":"2.0","id":2,"method":"test_echo","params":["b"]},{"jsonrpc":"2.0","method":"test_echo","params":["c"]},{"jsonrpc":"2.0","id":4,"method":"test_echo","params":["d"]}]`, nil)
	var batch []response
	if err := json.Unmarshal([]byte(raw), &batch); status != http.StatusOK || err != nil {
		t.Fatalf("status %d, %v: %s", status, err, raw)
	}
	if len(batch) != 3 || string(batch[0].Result) != `"a"` || string(batch[1].Result) != `"b"` || batch[2].Error == nil || batch[2].Error.Code != -32003 || string(batch[2].ID) != "4" {
		t.Fatalf("want a, b, then -32003 for id 4 (the notification unanswered): %s", raw)
	}
}

// holdService's Hold keeps its caller's turn until release is closed.
type holdService struct{ held, release chan struct{} }

func (h holdService) Hold() int {
	h.held <- struct{}{}
	<-h.release
	return 1
}

func (h holdService) Ping() int { return 1 }

// TestFloodingAddressHeldToShare: on a listener whose scheduler holds each
// address to half a turn, an address that held the turn for a second waits
// before its next call (here past the wait bound: 503 server busy, without
// computing), while a call from another address is served at once.
func TestFloodingAddressHeldToShare(t *testing.T) {
	sc := sched.New(sched.Config{Turns: 1, Wait: 100 * time.Millisecond, Share: 0.5, Burst: 10 * time.Millisecond})
	mev := mevapi.New(mevapi.Config{Addr: "127.0.0.1:0"}, nil, mevapi.WithScheduler(sc))
	svc := holdService{make(chan struct{}), make(chan struct{})}
	s, err := New(Config{}, []rpc.API{{Namespace: "gate", Service: svc}})
	if err != nil {
		t.Fatal(err)
	}
	s.Register(mev)
	if err := mev.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mev.Stop(); s.Close() })
	from := func(ip string) *http.Client {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	}
	call := func(c *http.Client, method string) (int, string) {
		res, err := c.Post(mev.URL()+"/v1", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"gate_`+method+`","params":[]}`))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(raw)
	}
	flooder, honest := from("127.0.0.2"), from("127.0.0.3")

	// The flooder holds the turn for at least a second: about two seconds
	// of its share to wait off, far past the 100 ms wait.
	done := make(chan int)
	go func() { status, _ := call(flooder, "hold"); done <- status }()
	<-svc.held
	time.Sleep(time.Second)
	close(svc.release)
	if status := <-done; status != http.StatusOK {
		t.Fatalf("the flooder's first call: %d", status)
	}
	if status, raw := call(flooder, "ping"); status != http.StatusServiceUnavailable || !strings.Contains(raw, "more than its share") {
		t.Fatalf("the flooder's next call: %d %s, want 503 naming its share", status, raw)
	}
	if status, raw := call(honest, "ping"); status != http.StatusOK {
		t.Fatalf("a call from another address: %d %s", status, raw)
	}
	if st := sc.Stats(); st.Paced != 1 {
		t.Fatalf("scheduler %+v: want the flooder's call paced", st)
	}
}

// TestSignatureCheckTakesTurn: recovering a request's signer is CPU work
// done in a turn of the scheduler: with the only turn held, a signed call
// waits and is answered busy, its signature not yet checked (a bad one
// would be 401); with the turn free the same call gets its 401.
func TestSignatureCheckTakesTurn(t *testing.T) {
	sc := sched.New(sched.Config{Turns: 1, Wait: 50 * time.Millisecond})
	mev := mevapi.New(mevapi.Config{}, nil, mevapi.WithScheduler(sc))
	s, err := New(Config{}, []rpc.API{{Namespace: "gate", Service: holdService{}}})
	if err != nil {
		t.Fatal(err)
	}
	s.Register(mev)
	ts := httptest.NewServer(mev.Handler())
	t.Cleanup(func() { ts.Close(); s.Close() })
	key, _ := crypto.GenerateKey()
	body := `{"jsonrpc":"2.0","id":1,"method":"gate_ping","params":[]}`
	bad := crypto.PubkeyToAddress(key.PublicKey).Hex() + ":" + strings.Split(sign(t, key, body+" "), ":")[1]
	header := map[string]string{"X-Flashbots-Signature": bad}

	turn, err := sc.Take(context.Background(), sched.Request{Client: "test"})
	if err != nil {
		t.Fatal(err)
	}
	if status, _, raw := post(t, ts.URL+"/v1", body, header); status != http.StatusServiceUnavailable || !strings.Contains(raw, "server busy") {
		t.Fatalf("signed call with the turn held: %d %s, want 503 server busy", status, raw)
	}
	turn.Release()
	if status, _, raw := post(t, ts.URL+"/v1", body, header); status != http.StatusUnauthorized {
		t.Fatalf("signed call with the turn free: %d %s, want 401", status, raw)
	}
}
