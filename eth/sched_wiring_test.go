package eth

import (
	"encoding/json"
	"reflect"
	"testing"
)

// marshalledBody is the request forward sent before requestBody: the
// parameters encoded again by encoding/json. requestBody must send the
// same request.
func marshalledBody(t testing.TB, method string, params []*json.RawMessage) []byte {
	last := len(params)
	for last > 0 && params[last-1] == nil {
		last--
	}
	args := make([]any, last)
	for i, p := range params[:last] {
		if p != nil {
			args[i] = *p
		}
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": args})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sameJSON reports whether a and b are the same JSON value.
func sameJSON(t testing.TB, a, b []byte) bool {
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return reflect.DeepEqual(va, vb)
}

func raws(ps ...string) []*json.RawMessage {
	out := make([]*json.RawMessage, len(ps))
	for i, p := range ps {
		if p != "-" {
			r := json.RawMessage(p)
			out[i] = &r
		}
	}
	return out
}

// TestRequestBody: the request a gated method sends to geth's
// implementation carries the parameters as given up to the last one, a
// missing one in between as null, whitespace and all, and is the request
// encoding/json would have made.
func TestRequestBody(t *testing.T) {
	// An empty parameter (geth's decoder never hands one over) is sent as
	// null, not as a broken request.
	if got, want := string(requestBody("eth_call", raws(""))), `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[null]}`; got != want {
		t.Errorf("requestBody(empty parameter) = %s, want %s", got, want)
	}
	for _, c := range []struct {
		params []*json.RawMessage
		want   string
	}{
		{nil, `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[]}`},
		{raws("-", "-"), `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[]}`},
		{raws(`{"to":"0x01"}`), `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x01"}]}`},
		{raws(`{"to":"0x01"}`, "-", `{"0x01":{"code":"0x00"}}`, "-"), `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x01"},null,{"0x01":{"code":"0x00"}}]}`},
		{raws(` { "to" : "0x01" } `, `"latest"`), `{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[ { "to" : "0x01" } ,"latest"]}`},
	} {
		got := requestBody("eth_call", c.params)
		if string(got) != c.want {
			t.Errorf("requestBody(%d params) = %s, want %s", len(c.params), got, c.want)
		}
		if !sameJSON(t, got, marshalledBody(t, "eth_call", c.params)) {
			t.Errorf("requestBody(%d params) = %s, not what encoding/json makes: %s", len(c.params), got, marshalledBody(t, "eth_call", c.params))
		}
	}
}

// FuzzRequestBody: for any parameters geth's server could hand over (valid
// JSON values, or missing), requestBody is valid JSON and the request
// encoding/json would have made.
func FuzzRequestBody(f *testing.F) {
	f.Add(`{"txs":["0x01"],"blockNumber":"0x2"}`, "", `"latest"`)
	f.Add(` [1, 2.5e3, "\u00e9"] `, `null`, "")
	f.Add(`"a\"b"`, `{}`, `true`)
	f.Fuzz(func(t *testing.T, a, b, c string) {
		var params []*json.RawMessage
		for _, p := range []string{a, b, c} {
			if p == "" {
				params = append(params, nil)
				continue
			}
			if !json.Valid([]byte(p)) {
				return // geth's decoder hands over valid JSON values only
			}
			r := json.RawMessage(p)
			params = append(params, &r)
		}
		got := requestBody("eth_callBundle", params)
		if !json.Valid(got) {
			t.Fatalf("requestBody = %s: not JSON", got)
		}
		if !sameJSON(t, got, marshalledBody(t, "eth_callBundle", params)) {
			t.Fatalf("requestBody = %s, encoding/json makes %s", got, marshalledBody(t, "eth_callBundle", params))
		}
	})
}
