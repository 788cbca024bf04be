package eth_test

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/sched"
	"github.com/gavel-eth/gavel/internal/testnode"
)

// postRPC posts body to url with headers (name, value pairs) and returns
// the status, the headers and the (inflated) answer.
func postRPC(t *testing.T, url, body string, headers ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	resp, err := http.DefaultTransport.RoundTrip(req) // no transparent gzip: the test reads the encoding
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		if r, err = gzip.NewReader(resp.Body); err != nil {
			t.Fatal(err)
		}
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(out)
}

// padded is a JSON-RPC call of method padded with spaces to size bytes: a
// large request whose method is cheap.
func padded(id int, method string, size int) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": []any{}})
	return string(b) + strings.Repeat(" ", max(0, size-len(b)))
}

// TestLargeRPCRequestTakesATurn: on geth's --http a request of 4 KiB or
// more is decoded, run and answered in a client turn of the scheduler:
// with the one turn held (as a flood holds it), a large eth_chainId, whose
// method needs no turn of its own, waits for it and is answered 503
// -32005 "server busy" at the wait bound, while a small one is answered at
// once; with the turn free the large one is answered, gzipped when asked,
// and its turn is counted.
func TestLargeRPCRequestTakesATurn(t *testing.T) {
	n := schedNode(t, 0)
	url := n.HTTPURL()
	hold, err := n.Scheduler().Take(context.Background(), sched.Request{Client: "flood"})
	if err != nil {
		t.Fatal(err)
	}
	if status, _, out := postRPC(t, url, padded(1, "eth_chainId", 100)); status != http.StatusOK || !strings.Contains(out, `"result":"0x539"`) {
		t.Fatalf("small eth_chainId with the turn held: %d %s, want the chain id at once", status, out)
	}
	start := time.Now()
	status, header, out := postRPC(t, url, padded(2, "eth_chainId", 8<<10))
	if status != http.StatusServiceUnavailable || header.Get("Retry-After") == "" || !strings.Contains(out, `"code":-32005`) || !strings.Contains(out, "server busy") || !strings.Contains(out, "retry later") {
		t.Fatalf("8 KiB eth_chainId with the turn held: %d %v %s, want 503 -32005 server busy with Retry-After", status, header, out)
	}
	if waited := time.Since(start); waited < 50*time.Millisecond {
		t.Fatalf("8 KiB eth_chainId answered busy after %v, before the wait bound (50 ms)", waited)
	}
	before := n.Scheduler().Stats()
	hold.Release()

	status, header, out = postRPC(t, url, padded(3, "eth_chainId", 8<<10), "Accept-Encoding", "gzip")
	if status != http.StatusOK || out != `{"jsonrpc":"2.0","id":3,"result":"0x539"}` || header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("8 KiB eth_chainId with the turn free: %d %v %q, want the chain id, gzipped", status, header, out)
	}
	if after := n.Scheduler().Stats(); after.Busy != 0 || after.TurnTime <= before.TurnTime || after.Refused != before.Refused {
		t.Fatalf("scheduler before %+v, after %+v: want one more turn, given back", before, after)
	}
}

// TestHTTPFrontServesAsGeth: geth's --http behind the front answers as
// geth's own handler: only the --http.api modules (never engine_, admin_
// when not asked), rpc_modules listing those, refusals inside a batch
// beside the other answers, the virtual host and content type checks, the
// health check, 404 off the root, and the body limit, for small and large
// requests alike.
func TestHTTPFrontServesAsGeth(t *testing.T) {
	n := testnode.New(t, testnode.Options{Configure: func(nc *node.Config, _ *ethconfig.Config, c *eth.Config) {
		nc.HTTPBodyLimit = 64 << 10
		nc.HTTPVirtualHosts = []string{"localhost"}
	}})
	url := n.HTTPURL()
	for _, size := range []int{0, 8 << 10} {
		for _, method := range []string{"admin_nodeInfo", "engine_exchangeCapabilities"} {
			status, _, out := postRPC(t, url, padded(1, method, size))
			want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"the method ` + method + ` does not exist/is not available"}}`
			if status != http.StatusOK || out != want {
				t.Fatalf("%s (%d bytes): %d %s, want %s", method, size, status, out, want)
			}
		}
		batch := `[{"jsonrpc":"2.0","id":1,"method":"rpc_modules"},{"jsonrpc":"2.0","id":2,"method":"admin_peers"},{"jsonrpc":"2.0","id":3,"method":"eth_chainId"}]`
		batch += strings.Repeat(" ", max(0, size-len(batch)))
		status, _, out := postRPC(t, url, batch)
		var answers []struct {
			ID     int                 `json:"id"`
			Result json.RawMessage     `json:"result"`
			Error  *struct{ Code int } `json:"error"`
		}
		if err := json.Unmarshal([]byte(out), &answers); status != http.StatusOK || err != nil || len(answers) != 3 {
			t.Fatalf("batch (%d bytes): %d %s %v, want three answers", size, status, out, err)
		}
		for _, a := range answers {
			switch a.ID {
			case 1:
				var mods map[string]string
				json.Unmarshal(a.Result, &mods)
				if mods["eth"] == "" || mods["rpc"] == "" || mods["engine"] != "" || mods["admin"] != "" {
					t.Fatalf("rpc_modules in a batch (%d bytes): %s, want the --http.api modules only", size, a.Result)
				}
			case 2:
				if a.Error == nil || a.Error.Code != -32601 {
					t.Fatalf("admin_peers in a batch (%d bytes): %s, want -32601", size, out)
				}
			case 3:
				if string(a.Result) != `"0x539"` {
					t.Fatalf("eth_chainId in a batch (%d bytes): %s", size, out)
				}
			}
		}
		if status, _, out := postRPC(t, url, padded(1, "eth_chainId", size), "Host", "evil.example"); status != http.StatusForbidden || !strings.Contains(out, "invalid host") {
			t.Fatalf("another virtual host (%d bytes): %d %s, want 403", size, status, out)
		}
		if status, _, out := postRPC(t, url, padded(1, "eth_chainId", size), "Content-Type", "text/plain"); status != http.StatusUnsupportedMediaType || !strings.Contains(out, "invalid content type") {
			t.Fatalf("text/plain (%d bytes): %d %s, want 415", size, status, out)
		}
		if status, _, _ := postRPC(t, strings.TrimSuffix(url, "/")+"/elsewhere", padded(1, "eth_chainId", size)); status != http.StatusNotFound {
			t.Fatalf("off the root (%d bytes): %d, want 404", size, status)
		}
	}
	if status, _, out := postRPC(t, url, padded(1, "eth_chainId", 100<<10)); status != http.StatusRequestEntityTooLarge || !strings.Contains(out, "too large") {
		t.Fatalf("100 KiB with --http.bodylimit 64 KiB: %d %s, want 413", status, out)
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("health check GET /: %d, want 200", resp.StatusCode)
	}
	if status, _, out := postRPC(t, url, `{"jsonrpc":"2.0","id":1,"method":"eth_chainId"`); status != http.StatusOK || !strings.Contains(out, `"code":-32700`) {
		t.Fatalf("broken JSON: %d %s, want geth's parse error", status, out)
	}
	if status, _, out := postRPC(t, url, `{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}`); status != http.StatusOK || out != `{"jsonrpc":"2.0","id":1,"result":"0x539"}` {
		t.Fatalf("eth_chainId: %d %q", status, out)
	}
}
