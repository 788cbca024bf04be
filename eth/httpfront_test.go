package eth

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/rpc"
)

// secretService answers whatever is called; its namespace is not served.
type secretService struct{}

func (secretService) Secret() string { return "the secret" }

// openService is a served namespace.
type openService struct{}

func (openService) Hello() string { return "hello" }

func filterServer(t testing.TB) *moduleFilter {
	srv := rpc.NewServer()
	for ns, svc := range map[string]any{"admin": secretService{}, "engine": secretService{}, "eth": openService{}} {
		if err := srv.RegisterName(ns, svc); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(srv.Stop)
	return &moduleFilter{srv: srv, modules: []string{"eth", "engine"}, limit: 1 << 20}
}

// FuzzModuleFilter: whatever body arrives, the filter answers (no panic),
// never with an answer of a namespace it does not serve (admin, and engine
// even when listed), and a served call that comes through is answered.
func FuzzModuleFilter(f *testing.F) {
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"eth_hello"}`)
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"admin_secret"}`)
	f.Add(`[{"jsonrpc":"2.0","id":1,"method":"admin_secret"},{"jsonrpc":"2.0","id":2,"method":"eth_hello"},{"jsonrpc":"2.0","id":3,"method":"rpc_modules"}]`)
	f.Add(`[{"jsonrpc":"2.0","id":1,"method":"engine_secret"},1,"x",{"method":"admin_secret"}]`)
	f.Add(`{"jsonrpc":"2.0","id":1,"method":"admin_secret"`)
	f.Add(`[]`)
	f.Add(` {"jsonrpc":"2.0","id":{"a":1},"method":"ADMIN_secret","params":[]} `)
	m := filterServer(f)
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, req)
		out := rec.Body.String()
		if strings.Contains(out, "the secret") {
			t.Fatalf("%q answered %q: a call of a namespace not served came through", body, out)
		}
		if rec.Code == http.StatusOK && len(bytes.TrimSpace(rec.Body.Bytes())) > 0 && !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%q answered %d %q: not JSON", body, rec.Code, out)
		}
	})
}

// TestModuleFilterAnswersEachCall: a batch mixing served and refused calls
// gets one answer per call with an id, the refused ones as geth words a
// method it does not have; rpc_modules lists the served namespaces only.
func TestModuleFilterAnswersEachCall(t *testing.T) {
	m := filterServer(t)
	body := `[{"jsonrpc":"2.0","id":1,"method":"admin_secret"},{"jsonrpc":"2.0","id":2,"method":"eth_hello"},{"jsonrpc":"2.0","id":3,"method":"rpc_modules"},{"jsonrpc":"2.0","method":"eth_hello"},{"jsonrpc":"2.0","id":4,"method":"engine_secret"}]`
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, req)
	var answers []struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &answers); err != nil || rec.Code != http.StatusOK {
		t.Fatalf("%d %s: %v", rec.Code, rec.Body, err)
	}
	got := map[int]string{}
	for _, a := range answers {
		if a.Error != nil {
			got[a.ID] = a.Error.Message
		} else {
			got[a.ID] = string(a.Result)
		}
	}
	want := map[int]string{
		1: "the method admin_secret does not exist/is not available",
		2: `"hello"`,
		3: `{"eth":"1.0","rpc":"1.0"}`,
		4: "the method engine_secret does not exist/is not available",
	}
	if len(answers) != len(want) {
		t.Fatalf("%d answers %s, want %d (the notification gets none)", len(answers), rec.Body, len(want))
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("call %d: %s, want %s", id, got[id], w)
		}
	}
}
