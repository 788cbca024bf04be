package main

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestWSBounds: `gavel --dev --ws` serves JSON-RPC over WebSocket within
// --ws.maxconns and --ws.maxsubs: a newHeads subscription delivers the dev
// chain's heads, one subscription more is answered -32005 and one
// connection more 503, each naming its flag. It waits for one dev block (1 s
// slots) on the wall clock.
func TestWSBounds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dev := startDev(t, ctx, "--ws", "--ws.addr", "127.0.0.1", "--ws.port", "0", "--ws.maxconns", "1", "--ws.maxsubs", "1")
	m := regexp.MustCompile(`JSON-RPC \(WS\)\s+(ws://\S+)`).FindStringSubmatch(dev.banner)
	if m == nil {
		t.Fatalf("banner lacks the WebSocket URL:\n%s\nstderr: %s", dev.banner, dev.stderr)
	}
	ws, _, err := websocket.DefaultDialer.Dial(m[1], nil)
	if err != nil {
		t.Fatalf("dial %s: %v", m[1], err)
	}
	defer ws.Close()
	_, res, err := websocket.DefaultDialer.Dial(m[1], nil)
	if err == nil || res == nil || res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("second connection with --ws.maxconns 1: err %v, response %v; expected 503", err, res)
	}
	for _, msg := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}`,
		`{"jsonrpc":"2.0","id":2,"method":"eth_subscribe","params":["newHeads"]}`,
	} {
		if err := ws.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	var subscribed, refused, head bool
	ws.SetReadDeadline(time.Now().Add(30 * time.Second))
	for !(subscribed && refused && head) {
		_, b, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("subscribed %v, refused %v, head %v: %v", subscribed, refused, head, err)
		}
		var r struct {
			ID     int             `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Params struct {
				Result struct {
					Number string `json:"number"`
				} `json:"result"`
			} `json:"params"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("%.200s: %v", b, err)
		}
		switch {
		case r.Method == "eth_subscription":
			head = r.Params.Result.Number != ""
		case r.ID == 1:
			if r.Error != nil {
				t.Fatalf("first subscription refused: %s", r.Error.Message)
			}
			subscribed = true
		case r.ID == 2:
			if r.Error == nil || r.Error.Code != -32005 || !strings.Contains(r.Error.Message, "--ws.maxsubs") {
				t.Fatalf("second subscription with --ws.maxsubs 1: %s", b)
			}
			refused = true
		}
	}
}

// TestWSUsage: bounds below 1 and WebSocket on the HTTP port are refused,
// naming the flags.
func TestWSUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"dumpconfig", "--ws", "--ws.maxconns", "0"}, "--ws.maxconns must be at least 1"},
		{[]string{"dumpconfig", "--ws", "--ws.maxsubs", "0"}, "--ws.maxsubs must be at least 1"},
		{[]string{"dumpconfig", "--http", "--ws", "--ws.port", "8545"}, "--ws.port 8545 is also --http.port"},
	} {
		_, errOut, code := gavel(t, c.args...)
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("gavel %v: exit %d, stderr %q; expected it to say %q", c.args, code, errOut, c.want)
		}
	}
}
