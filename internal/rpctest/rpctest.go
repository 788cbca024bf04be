// Package rpctest sends JSON-RPC requests over real HTTP in tests and
// decodes the answers, for the packages whose tests talk to the MEV
// listener's JSON-RPC as a client would.
package rpctest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// Reply is a JSON-RPC answer.
type Reply struct {
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
}

// Error is a JSON-RPC error object.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Body is the JSON-RPC 2.0 request (id 1) calling method with params.
func Body(method string, params ...any) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	return b
}

// Post posts body to url as JSON and returns the HTTP status and the
// decoded answer. header is added as given, without canonicalising the
// names (ethers sends x-flashbots-signature in lower case); empty values are
// left out. A failed request or an answer that is not JSON fails the test.
func Post(t testing.TB, url string, body []byte, header map[string]string) (int, Reply) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		if v != "" {
			req.Header[k] = []string{v}
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var r Reply
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%d %s", res.StatusCode, raw)
	}
	return res.StatusCode, r
}
