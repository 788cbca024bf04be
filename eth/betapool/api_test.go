package betapool

import (
	"bytes"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/metrics"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/internal/testutil"
	"github.com/gavel-eth/gavel/mevapi/jsonrpc"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
	"github.com/gavel-eth/gavel/params"
)

const chainID = params.DevChainID

var key = params.DevAccounts()[0].Key

func signedTx(t testing.TB, key *ecdsa.PrivateKey, nonce, tip uint64) string {
	to := common.Address{0xbe, 0xef}
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(big.NewInt(chainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(chainID), Nonce: nonce, GasTipCap: new(big.Int).SetUint64(tip), GasFeeCap: big.NewInt(2e9),
		Gas: 21000, To: &to, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return hexutil.Encode(raw)
}

type node struct {
	url   string
	slot  *atomic.Uint64
	db    store.Store
	stats *store.StatsBuffer
	close func()
}

// startNode serves a pool over the real MEV JSON-RPC handler and a real
// SQLite file at path.
func startNode(t testing.TB, path string, opts ...jsonrpc.Option) *node {
	db, err := store.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	slot := new(atomic.Uint64)
	slot.Store(100)
	stats := store.NewStatsBuffer(db, 1<<40)
	pool := New(Config{Horizon: 32}, db, chainID, slot.Load, stats)
	srv, err := jsonrpc.New(jsonrpc.Config{}, append(pool.APIs(reqsig.SignerFrom, reqsig.ClientIPFrom), jsonrpc.UserStatsAPIs(stats)...),
		append([]jsonrpc.Option{jsonrpc.WithRequestHook(func(a common.Address) { stats.Add(a, bundle.StatRequest) })}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	srv.Register(mux)
	ts := httptest.NewServer(mux)
	n := &node{url: ts.URL, slot: slot, db: db, stats: stats}
	n.close = func() { ts.Close(); srv.Close(); stats.Close(); db.Close() }
	return n
}

type rpcResponse struct {
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func call(t testing.TB, url string, signer *ecdsa.PrivateKey, method string, params ...any) (int, rpcResponse) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if signer != nil {
		h, _ := reqsig.Sign(body, signer)
		req.Header.Set(reqsig.HeaderEthereum, h)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var r rpcResponse
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return res.StatusCode, r
}

func TestSendBetaBundle(t *testing.T) {
	n := startNode(t, "")
	defer n.close()
	tx := signedTx(t, key, 0, 0)
	status, r := call(t, n.url+"/v1", key, "mev_sendBetaBundle", map[string]any{"txs": []string{tx}, "slot": "101"})
	if status != 200 || r.Error != nil {
		t.Fatalf("%d %+v", status, r.Error)
	}
	txHash := crypto.Keccak256Hash(hexutil.MustDecode(tx))
	want := crypto.Keccak256Hash(txHash[:])
	var got common.Hash
	json.Unmarshal(r.Result, &got)
	if got != want {
		t.Fatalf("result %s, want keccak256(txHash) %s", got, want)
	}
	if r.Method != "mev_sendBetaBundle" {
		t.Fatalf("method not echoed: %q", r.Method)
	}
	// Idempotent; another slot keeps the hash.
	for _, slot := range []string{"101", "101", "105", "/MevSendBetaBundleRequest"} {
		path := "/v2"
		if strings.HasPrefix(slot, "/") {
			path, slot = slot, "120"
		}
		status, r := call(t, n.url+path, nil, "mev_sendBetaBundle", map[string]any{"txs": []string{tx}, "slot": slot})
		var again common.Hash
		json.Unmarshal(r.Result, &again)
		if status != 200 || again != want {
			t.Fatalf("re-send for %s: %d %s %+v", slot, status, again, r.Error)
		}
	}
	// mev_getBetaBundle: pending until the slot passes, then expired.
	n.slot.Store(103)
	_, r = call(t, n.url+"/v1", nil, "mev_getBetaBundle", want)
	var res BetaBundleResult
	json.Unmarshal(r.Result, &res)
	if len(res.Slots) != 3 || res.Slots[0].Slot != "101" || res.Slots[0].Status != StateExpired ||
		res.Slots[1].Status != StatePending || res.TxHashes[0] != txHash || res.BundleHash != want {
		t.Fatalf("getBetaBundle: %+v", res)
	}
	status, r = call(t, n.url+"/v1", nil, "mev_getBetaBundle", common.Hash{1})
	if status != 400 || !strings.Contains(r.Error.Message, "unknown beta bundle") {
		t.Fatalf("unknown hash: %d %+v", status, r.Error)
	}
	// Per-signer stats, asked by the signer: two signed requests (the bundle
	// and this one), one new bundle.
	status, r = call(t, n.url+"/v1", key, "mev_getUserStats", crypto.PubkeyToAddress(key.PublicKey))
	var u jsonrpc.UserStatsResult
	json.Unmarshal(r.Result, &u)
	if status != 200 || u.Requests != 2 || u.BetaBundles != 1 {
		t.Fatalf("user stats: %d %+v %+v", status, u, r.Error)
	}
	// The answer states its crash window (issue 14): the flush interval.
	if u.UnflushedSeconds != n.stats.FlushInterval().Seconds() || u.UnflushedSeconds <= 0 {
		t.Fatalf("unflushedSeconds %v, want the flush interval %v", u.UnflushedSeconds, n.stats.FlushInterval())
	}
}

func TestSendBetaBundleErrors(t *testing.T) {
	n := startNode(t, "")
	defer n.close()
	good := signedTx(t, key, 0, 0)
	tooMany := make([]string, 101)
	for i := range tooMany {
		tooMany[i] = signedTx(t, key, uint64(i), 0)
	}
	tests := []struct {
		name   string
		params any
		msg    string
	}{
		{"no params", nil, "missing value"},
		{"no txs", map[string]any{"txs": []string{}, "slot": "101"}, "no txs"},
		{"101 txs", map[string]any{"txs": tooMany, "slot": "101"}, "too many txs"},
		{"no 0x", map[string]any{"txs": []string{good[2:]}, "slot": "101"}, "0x-prefixed hex"},
		{"tipped", map[string]any{"txs": []string{signedTx(t, key, 0, 1)}, "slot": "101"}, "maxPriorityFeePerGas"},
		{"duplicate", map[string]any{"txs": []string{good, good}, "slot": "101"}, "duplicate"},
		{"slot number", map[string]any{"txs": []string{good}, "slot": 101}, "slot: expected a string, got a number"},
		{"slot hex", map[string]any{"txs": []string{good}, "slot": "0x65"}, "decimal"},
		{"slot past", map[string]any{"txs": []string{good}, "slot": "99"}, "in the past"},
		{"slot beyond horizon", map[string]any{"txs": []string{good}, "slot": "133"}, "beyond the horizon"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var status int
			var r rpcResponse
			if tt.params == nil {
				status, r = call(t, n.url+"/v1", nil, "mev_sendBetaBundle")
			} else {
				status, r = call(t, n.url+"/v1", nil, "mev_sendBetaBundle", tt.params)
			}
			if status != 400 || r.Error == nil || r.Error.Code != -32602 || !strings.Contains(r.Error.Message, tt.msg) {
				t.Fatalf("got %d %+v, want 400 saying %q", status, r.Error, tt.msg)
			}
		})
	}
}

func TestDurableAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gavel", store.FileName)
	n := startNode(t, path)
	tx := signedTx(t, key, 7, 0)
	_, r := call(t, n.url+"/v1", nil, "mev_sendBetaBundle", map[string]any{"txs": []string{tx}, "slot": "110"})
	var h common.Hash
	json.Unmarshal(r.Result, &h)
	n.close()

	n = startNode(t, path)
	defer n.close()
	status, r := call(t, n.url+"/v1", nil, "mev_getBetaBundle", h)
	var res BetaBundleResult
	json.Unmarshal(r.Result, &res)
	if status != 200 || len(res.Txs) != 1 || hexutil.Encode(res.Txs[0]) != tx || res.Slots[0].Slot != "110" {
		t.Fatalf("after restart: %d %+v %+v", status, res, r.Error)
	}
}

// BenchmarkSendBetaBundle measures mev_sendBetaBundle with durable storage:
// called in-process (no HTTP) and over loopback HTTP through the MEV
// JSON-RPC handler, one client and 64 concurrent clients. The http-geth
// cases dispatch through geth's rpc.Server instead of the handler's fast
// path: the baseline.
func BenchmarkSendBetaBundle(b *testing.B) {
	for _, bc := range []struct {
		name    string
		http    bool
		clients int
		geth    bool
	}{{"direct/serial", false, 1, false}, {"direct/parallel64", false, 64, false},
		{"http-geth/serial", true, 1, true}, {"http/serial", true, 1, false},
		{"http-geth/parallel64", true, 64, true}, {"http/parallel64", true, 64, false}} {
		b.Run(bc.name, func(b *testing.B) {
			var opts []jsonrpc.Option
			if bc.geth {
				opts = append(opts, jsonrpc.WithGethDispatch())
			}
			n := startNode(b, filepath.Join(b.TempDir(), store.FileName), opts...)
			defer n.close()
			n.slot.Store(0)
			bodies := make([][]byte, b.N)
			for i := range bodies {
				bodies[i], _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i, "method": "mev_sendBetaBundle",
					"params": []any{map[string]any{"txs": []string{signedTx(b, key, uint64(i), 0)}, "slot": "5"}}})
			}
			pool := New(Config{}, n.db, chainID, n.slot.Load, nil)
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128}}
			var next atomic.Int64
			one := func() error {
				i := next.Add(1) - 1
				if !bc.http {
					var req struct {
						Params []json.RawMessage `json:"params"`
					}
					json.Unmarshal(bodies[i], &req)
					var args struct {
						Txs  []string `json:"txs"`
						Slot string   `json:"slot"`
					}
					json.Unmarshal(req.Params[0], &args)
					_, err := (&API{pool, reqsig.SignerFrom, reqsig.ClientIPFrom}).SendBetaBundle(b.Context(), toArgs(args.Txs, args.Slot))
					return err
				}
				res, err := client.Post(n.url+"/v1", "application/json", bytes.NewReader(bodies[i]))
				if err != nil {
					return err
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					return fmt.Errorf("status %d", res.StatusCode)
				}
				return nil
			}
			commits, writes := metrics.GetOrRegisterMeter("gavel/store/commits", nil), metrics.GetOrRegisterMeter("gavel/store/writes", nil)
			b.ResetTimer()
			c0, w0 := commits.Snapshot().Count(), writes.Snapshot().Count()
			cpu0 := testutil.CPUTime()
			if bc.clients == 1 {
				for i := 0; i < b.N; i++ {
					if err := one(); err != nil {
						b.Fatal(err)
					}
				}
			} else {
				b.SetParallelism(max(1, bc.clients/runtime.GOMAXPROCS(0)))
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if err := one(); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
			// CPU per request (server and client: one process) is steadier
			// than wall time on a shared machine.
			b.ReportMetric(float64((testutil.CPUTime()-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(writes.Snapshot().Count()-w0)/float64(max(1, commits.Snapshot().Count()-c0)), "writes/commit")
		})
	}
}

func toArgs(txs []string, slot string) bundleArgs { return bundleArgs{Txs: txs, Slot: &slot} }

type bundleArgs = bundle.BetaBundleArgs
