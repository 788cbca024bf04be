package jsonrpc

import (
	"strings"
	"testing"
)

// TestUnknownMethodPointsToJSONRPC: a method the MEV listener does not
// serve is 400 -32601 with a pointer to the node's JSON-RPC endpoint.
func TestUnknownMethodPointsToJSONRPC(t *testing.T) {
	ts, _ := newTestServer(t, Config{})
	status, r, raw := post(t, ts.URL+"/", `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`, nil)
	if status != 400 || r.Error == nil || r.Error.Code != CodeMethodNotFound ||
		!strings.Contains(r.Error.Message, "eth_blockNumber") || !strings.Contains(r.Error.Message, "send other JSON-RPC calls to the node's JSON-RPC endpoint (--http, 127.0.0.1:8545 by default)") {
		t.Fatalf("%d %s", status, raw)
	}
}
