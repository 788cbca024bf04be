package bundlepool

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/mevapi/jsonrpc"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
	"github.com/gavel-eth/gavel/params"
)

// TestSendBundleFastPath: eth_sendBundle and eth_cancelBundle on the MEV
// listener skip geth's dispatcher (FastMethods) and answer exactly as it
// does, statuses and bodies, for accepted, refused and malformed calls: two
// listeners over two pools with the same history get the same requests, one
// through the fast path, one through geth.
func TestSendBundleFastPath(t *testing.T) {
	funded := params.DevAccounts()[0].Key
	empty, _ := crypto.GenerateKey()
	uuid := "123e4567-e89b-12d3-a456-426614174000"
	send := func(id int, params string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"eth_sendBundle","params":[%s]}`, id, params)
	}
	bodies := []string{
		send(1, fmt.Sprintf(`{"txs":["%s"],"blockNumber":"0x2","replacementUuid":"%s"}`, tx(t, funded, 0, 1), uuid)),
		send(2, fmt.Sprintf(`{"txs":["%s"],"blockNumber":"0x2"}`, tx(t, funded, 0, 1))), // the same bundle again
		send(3, fmt.Sprintf(`{"txs":["%s"],"blockNumber":"0x2"}`, tx(t, empty, 0, 1))),  // no funds
		send(4, `{"txs":[],"blockNumber":"0x2"}`),
		send(5, `{"txs":["0x01"],"blockNumber":"0x2"}`),
		send(6, `{"txs":"nope"}`),
		send(7, `{"blockNumber":"0x2","txs":["0x02"],"unknown":1}`),
		`{"jsonrpc":"2.0","id":"x","method":"eth_cancelBundle","params":[{"replacementUuid":"00000000-0000-0000-0000-000000000009"}]}`,
		fmt.Sprintf(`{"jsonrpc":"2.0","id":8,"method":"eth_cancelBundle","params":[{"replacementUuid":"%s"}]}`, uuid),
		`{"jsonrpc":"2.0","id":9,"method":"eth_cancelBundle","params":[{"replacementUuid":"not a uuid"}]}`,
	}
	listener := func(opts ...jsonrpc.Option) (*httptest.Server, *jsonrpc.Server) {
		p := devPool(t, Config{})
		s, err := jsonrpc.New(jsonrpc.Config{}, p.APIs(reqsig.SignerFrom, reqsig.ClientIPFrom), opts...)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(s.Handler(false))
		t.Cleanup(func() { srv.Close(); s.Close() })
		return srv, s
	}
	fast, _ := listener()
	geth, _ := listener(jsonrpc.WithGethDispatch())
	post := func(url, body string) (int, string) {
		res, err := http.Post(url, "application/json", bytes.NewReader([]byte(body)))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, body := range bodies {
		fs, fb := post(fast.URL, body)
		gs, gb := post(geth.URL, body)
		if fs != gs || fb != gb {
			t.Errorf("%s\nfast path: %d %s\ngeth:      %d %s", body, fs, fb, gs, gb)
		}
	}
}

// BenchmarkRefusedSendBundle is the listener's cost of one eth_sendBundle
// from a key without funds (the flood of docs/security.md: decoded, the
// sender recovered, refused by the funds check), through the JSON-RPC
// handler without the network: on the fast path and through geth's
// dispatcher.
func BenchmarkRefusedSendBundle(b *testing.B) {
	for _, geth := range []bool{false, true} {
		name := "fast"
		var opts []jsonrpc.Option
		if geth {
			name = "geth"
			opts = append(opts, jsonrpc.WithGethDispatch())
		}
		b.Run(name, func(b *testing.B) {
			c, stop, err := chain.NewInMemory(chain.DevGenesis(params.DevGasLimit, 1_700_000_000))
			if err != nil {
				b.Fatal(err)
			}
			defer stop()
			p := New(Config{}, params.DevChainID, func() uint64 { return c.Head().Number.Uint64() }, nil)
			p.SetAccounts(c)
			s, err := jsonrpc.New(jsonrpc.Config{}, p.APIs(reqsig.SignerFrom, reqsig.ClientIPFrom), opts...)
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			h := s.Handler(false)
			empty, _ := crypto.GenerateKey()
			bodies := make([][]byte, b.N) // each tx new: no sender cached
			for i := range bodies {
				bodies[i] = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"eth_sendBundle","params":[{"txs":["%s"],"blockNumber":"0x5"}]}`, i, tx(b, empty, uint64(i), 1))
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(bodies[i]))
				req.RemoteAddr = "10.0.0.1:1234"
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				if w.Code != http.StatusBadRequest {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}

// FuzzSendBundleFastPath: whatever the body, eth_sendBundle and
// eth_cancelBundle answer the same on the fast path as through geth's
// dispatcher (two pools fed the same bodies in the same order stay alike).
func FuzzSendBundleFastPath(f *testing.F) {
	key := params.DevAccounts()[0].Key
	uuid := "123e4567-e89b-12d3-a456-426614174000"
	for _, seed := range []string{
		fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"eth_sendBundle","params":[{"txs":["%s"],"blockNumber":"0x2","replacementUuid":"%s"}]}`, tx(f, key, 0, 1), uuid),
		fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"eth_sendBundle","params":[{"txs":["%s"],"blockNumber":"0x2"}],"extra":1}`, tx(f, key, 1, 1)),
		`{"jsonrpc":"2.0","id":3,"method":"eth_sendBundle","params":[{"txs":[],"blockNumber":"0x2"}]}`,
		`{"jsonrpc":"2.0","id":4,"method":"eth_sendBundle","params":[{"txs":["0x01"],"blockNumber":"2"},1]}`,
		`{"jsonrpc":"2.0","id":"x","method":"eth_cancelBundle","params":[{"replacementUuid":"` + uuid + `"}]}`,
		`{"jsonrpc":"2.0","id":null,"method":"eth_cancelBundle","params":[{}]}`,
		`{"jsonrpc":"2.0","method":"eth_sendBundle","params":[null]}`,
	} {
		f.Add([]byte(seed))
	}
	handler := func(opts ...jsonrpc.Option) http.Handler {
		p := devPool(f, Config{})
		s, err := jsonrpc.New(jsonrpc.Config{}, p.APIs(reqsig.SignerFrom, reqsig.ClientIPFrom), opts...)
		if err != nil {
			f.Fatal(err)
		}
		f.Cleanup(s.Close)
		return s.Handler(false)
	}
	fast, geth := handler(), handler(jsonrpc.WithGethDispatch())
	serve := func(h http.Handler, body []byte) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.RemoteAddr = "10.0.0.1:1234"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		a, b := serve(fast, body), serve(geth, body)
		if a.Code != b.Code || a.Body.String() != b.Body.String() {
			t.Fatalf("%q\nfast path: %d %s\ngeth:      %d %s", body, a.Code, a.Body, b.Code, b.Body)
		}
	})
}
