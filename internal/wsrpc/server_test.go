package wsrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/rpc"
	"github.com/gorilla/websocket"
)

// testService is served as "eth" (and "admin", not in the modules): a
// method, and a subscription that sends a 64 KiB notification every
// millisecond until it is ended.
type testService struct{}

func (testService) Echo(s string) string { return s }

func (testService) NewHeads(ctx context.Context) (*rpc.Subscription, error) {
	n, ok := rpc.NotifierFromContext(ctx)
	if !ok {
		return nil, rpc.ErrNotificationsUnsupported
	}
	sub := n.CreateSubscription()
	big := strings.Repeat("h", 64<<10)
	go func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-sub.Err():
				return
			case <-t.C:
				if n.Notify(sub.ID, big) != nil {
					return
				}
			}
		}
	}()
	return sub, nil
}

// serve starts a Handler over loopback and returns its ws:// URL.
func serve(t *testing.T, cfg Config) string {
	t.Helper()
	srv := rpc.NewServer()
	if err := srv.RegisterName("eth", testService{}); err != nil {
		t.Fatal(err)
	}
	if err := srv.RegisterName("admin", testService{}); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Modules == nil {
		cfg.Modules = []string{"eth"}
	}
	hs := Serve(l, NewHandler(srv, cfg))
	t.Cleanup(func() { hs.Close(); srv.Stop() })
	return "ws://" + l.Addr().String()
}

func dial(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ws, res, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		body := ""
		if res != nil {
			b, _ := io.ReadAll(res.Body)
			body = fmt.Sprintf(" (HTTP %d %s)", res.StatusCode, b)
		}
		t.Fatalf("dial: %v%s", err, body)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

type reply struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// roundTrip sends msg and returns the answers to it (notifications
// skipped) once want have come.
func roundTrip(t *testing.T, ws *websocket.Conn, msg string, want int) []reply {
	t.Helper()
	if err := ws.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
		t.Fatal(err)
	}
	ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	var out []reply
	for len(out) < want {
		_, b, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("reading the answer to %s: %v", msg, err)
		}
		var batch []reply
		if json.Unmarshal(b, &batch) != nil {
			var r reply
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatalf("answer %.200s: %v", b, err)
			}
			batch = []reply{r}
		}
		for _, r := range batch {
			if r.Method == "" {
				out = append(out, r)
			}
		}
	}
	return out
}

// TestConnectionLimit: one connection over MaxConns is refused with 503
// naming the flag; a closed one frees its place.
func TestConnectionLimit(t *testing.T) {
	url := serve(t, Config{MaxConns: 2})
	first := dial(t, url)
	dial(t, url)
	_, res, err := websocket.DefaultDialer.Dial(url, nil)
	if err == nil || res == nil || res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("third connection: err %v, response %v; expected HTTP 503", err, res)
	}
	body, _ := io.ReadAll(res.Body)
	if !strings.Contains(string(body), "--ws.maxconns") || !strings.Contains(string(body), "at most 2") {
		t.Fatalf("refusal %q does not name the bound and its flag", body)
	}
	first.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		ws, _, err := websocket.DefaultDialer.Dial(url, nil)
		if err == nil {
			ws.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed connection's place was not freed: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSubscriptionLimit: a connection holds at most MaxSubs
// subscriptions; one more gets -32005 naming the flag, in a batch too, and
// an unsubscribe frees a place. Other calls are not counted.
func TestSubscriptionLimit(t *testing.T) {
	url := serve(t, Config{MaxSubs: 3})
	ws := dial(t, url)
	sub := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"eth_subscribe","params":["newHeads"]}`, id)
	}
	var ids []string
	for i := 1; i <= 3; i++ {
		r := roundTrip(t, ws, sub(i), 1)[0]
		if r.Error != nil {
			t.Fatalf("subscription %d of 3 refused: %s", i, r.Error.Message)
		}
		ids = append(ids, string(r.Result))
	}
	r := roundTrip(t, ws, sub(4), 1)[0]
	if r.Error == nil || r.Error.Code != limitExceeded || !strings.Contains(r.Error.Message, "--ws.maxsubs") || string(r.ID) != "4" {
		t.Fatalf("fourth subscription: %+v; expected error %d naming --ws.maxsubs, id 4", r, limitExceeded)
	}
	if r := roundTrip(t, ws, `{"jsonrpc":"2.0","id":5,"method":"eth_echo","params":["x"]}`, 1)[0]; r.Error != nil {
		t.Fatalf("a plain call at the bound: %s", r.Error.Message)
	}
	un := fmt.Sprintf(`{"jsonrpc":"2.0","id":6,"method":"eth_unsubscribe","params":[%s]}`, ids[0])
	if r := roundTrip(t, ws, un, 1)[0]; r.Error != nil || string(r.Result) != "true" {
		t.Fatalf("unsubscribe: %+v", r)
	}
	// One place free: a batch of two subscriptions gets one of each.
	got := roundTrip(t, ws, "["+sub(7)+","+sub(8)+"]", 2)
	ok, refused := 0, 0
	for _, r := range got {
		if r.Error != nil && r.Error.Code == limitExceeded {
			refused++
		} else if r.Error == nil {
			ok++
		}
	}
	if ok != 1 || refused != 1 {
		t.Fatalf("batch of two subscriptions with one place free: %+v", got)
	}
}

// TestModulesOnly: a namespace outside Modules is not served, as with
// geth's WebSocket server.
func TestModulesOnly(t *testing.T) {
	ws := dial(t, serve(t, Config{}))
	r := roundTrip(t, ws, `{"jsonrpc":"2.0","id":1,"method":"admin_echo","params":["x"]}`, 1)[0]
	if r.Error == nil || r.Error.Code != methodNotFound {
		t.Fatalf("admin_echo over ws with modules [eth]: %+v; expected %d", r, methodNotFound)
	}
	if r := roundTrip(t, ws, `{"jsonrpc":"2.0","id":2,"method":"eth_echo","params":["x"]}`, 1)[0]; r.Error != nil || string(r.Result) != `"x"` {
		t.Fatalf("eth_echo: %+v", r)
	}
	// rpc_modules (what a console builds its API from) names only those.
	r = roundTrip(t, ws, `{"jsonrpc":"2.0","id":3,"method":"rpc_modules","params":[]}`, 1)[0]
	var mods map[string]string
	if r.Error != nil || json.Unmarshal(r.Result, &mods) != nil || mods["eth"] == "" || mods["admin"] != "" || string(r.ID) != "3" {
		t.Fatalf("rpc_modules over ws with modules [eth]: %+v", r)
	}
}

// TestUnreadSubscriberDropped: a client that subscribes and never reads is
// disconnected once a message waits WriteTimeout, and what the server held
// for it (its place, the subscriptions' goroutines) is freed.
func TestUnreadSubscriberDropped(t *testing.T) {
	url := serve(t, Config{MaxConns: 1, MaxSubs: 4, WriteTimeout: 300 * time.Millisecond})
	before := runtime.NumGoroutine()
	ws := dial(t, url)
	for i := 0; i < 4; i++ {
		msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"eth_subscribe","params":["newHeads"]}`, i)
		if err := ws.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	// Never read: 64 KiB a millisecond per subscription fill the socket
	// buffers within the write timeout.
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, _, err := websocket.DefaultDialer.Dial(url, nil)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the unread connection still holds the only place after 15 s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for runtime.NumGoroutine() > before+2 {
		if time.Now().After(deadline) {
			t.Fatalf("goroutines: %d before the subscriber, %d after it was dropped", before, runtime.NumGoroutine())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestPlainHTTPRefused: a request without the upgrade gets a 400 that
// says what this port serves.
func TestPlainHTTPRefused(t *testing.T) {
	url := serve(t, Config{})
	res, err := http.Post("http"+strings.TrimPrefix(url, "ws"), "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "WebSocket") {
		t.Fatalf("plain HTTP: %d %s", res.StatusCode, b)
	}
}

// TestOrigins: geth's rule, a part the allowed origin leaves out matches
// any.
func TestOrigins(t *testing.T) {
	for _, c := range []struct {
		rule, origin string
		ok           bool
	}{
		{"http://localhost", "http://localhost:3000", true},
		{"http://localhost", "https://localhost", false},
		{"localhost", "https://localhost:8080", true},
		{"http://a.example:80", "http://a.example:81", false},
		{"http://a.example", "http://b.example", false},
	} {
		if got := originAllowed(c.rule, c.origin); got != c.ok {
			t.Errorf("rule %q, origin %q: %v, expected %v", c.rule, c.origin, got, c.ok)
		}
	}
}

// FuzzAdmit: whatever a client sends, the checks never panic, a refusal is
// valid JSON, what they pass on is the message itself or valid JSON, and a
// connection never holds more than MaxSubs subscriptions and pending ones.
func FuzzAdmit(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}`,
		`[{"jsonrpc":"2.0","id":1,"method":"eth_subscribe"},{"jsonrpc":"2.0","id":2,"method":"eth_subscribe"},{"id":3,"method":"eth_blockNumber"}]`,
		`{"id":"x","method":"eth_unsubscribe","params":["0x1"]}`,
		`{"id":1,"method":"admin_peers"}`,
		`{"method":"eth_subscribe"}`,
		`[]`, `[1,2`, `null`, `"str"`, ` [ {"id":null,"method":"engine_newPayloadV4"} ] `,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		c := &conn{cfg: &Config{Modules: []string{"eth"}, MaxSubs: 2}, pending: map[string]bool{}, unsub: map[string]bool{}, modules: map[string]bool{}}
		for i := 0; i < 3; i++ { // the same message again, as a client repeating it
			pass, refusal := c.admit(msg)
			if refusal != nil && !json.Valid(refusal) {
				t.Fatalf("refusal %q is not JSON", refusal)
			}
			if pass != nil && string(pass) != string(msg) && !json.Valid(pass) {
				t.Fatalf("passed on %q, neither the message nor JSON", pass)
			}
			if c.subs+len(c.pending) > c.cfg.MaxSubs {
				t.Fatalf("%d subscriptions and %d pending, bound %d", c.subs, len(c.pending), c.cfg.MaxSubs)
			}
		}
	})
}
