package eth_test

import (
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/testnode"
)

// postREST posts body to url with Content-Type ct (none when empty).
func postREST(t *testing.T, url, ct, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestBundleRESTProtections: the REST simulator (POST /eth_callBundle,
// /eth_estimateGasBundle) runs in a turn of the listener's CPU gate, counts
// in the JSON-RPC per-IP rate limit, answers body-budget refusals with
// mevapi.BodyStatus's statuses, and refuses a Content-Type other than JSON
// with 415.
func TestBundleRESTProtections(t *testing.T) {
	n := testnode.New(t, testnode.Options{Configure: func(_ *node.Config, _ *ethconfig.Config, c *eth.Config) {
		c.Submission.RPC.IPRate, c.Submission.RPC.IPBurst = 0.001, 4
		c.Listener.BodyBudgetPerIP = 16 << 10
		c.Listener.BudgetWait = 10 * time.Millisecond
	}})
	n.Step()
	bn := &bundleNode{Node: n, signer: types.LatestSignerForChainID(n.Chain().Config().ChainID)}
	to := common.Address{0x46}
	tx := raw(bn.sign(0, 0, &to, big.NewInt(1), 21000, nil))[0]
	body := fmt.Sprintf(`{"txs":[%q],"blockNumber":"0x%x","stateBlockNumber":"latest"}`, tx, n.Chain().Head().Number.Uint64()+1)

	// 1: a simulation runs in a CPU turn: its bytes count as gate work.
	before := n.MEV().HeavyWork().Work
	if status, out := postREST(t, n.MEVURL()+"/eth_callBundle", "", body); status != 200 {
		t.Fatalf("callBundle without Content-Type: %d %s", status, out)
	}
	if got := n.MEV().HeavyWork().Work - before; got < int64(len(body)) {
		t.Fatalf("gate work grew by %d bytes, want the body's %d: the simulation ran outside the CPU gate", got, len(body))
	}
	// 2: not JSON: 415.
	status, out := postREST(t, n.MEVURL()+"/eth_estimateGasBundle", "text/plain", body)
	if status != 415 || !strings.Contains(out, `unsupported Content-Type \"text/plain\": expected application/json or none`) {
		t.Fatalf("text/plain: %d %s", status, out)
	}
	// 3: a body over this IP's share of the body budget: 429, as every
	// other handler answers it (not 400).
	large := fmt.Sprintf(`{"txs":[%q],"pad":"%s"}`, tx, strings.Repeat("a", 40<<10))
	status, out = postREST(t, n.MEVURL()+"/eth_callBundle", "application/json", large)
	if status != 429 || !strings.Contains(out, "too many request body bytes in flight from this IP address") {
		t.Fatalf("body over the IP's budget: %d %s", status, out)
	}
	// 4: the fourth request of a burst of 4 passes; the fifth, whether
	// REST or JSON-RPC, is over the per-IP rate limit.
	if status, out := postREST(t, n.MEVURL()+"/eth_callBundle", "application/json", body); status != 200 {
		t.Fatalf("fourth request: %d %s", status, out)
	}
	status, out = postREST(t, n.MEVURL()+"/eth_estimateGasBundle", "application/json", body)
	if status != 429 || out != `{"code":429,"message":"rate limit exceeded for this IP address, retry later"}`+"\n" {
		t.Fatalf("fifth request: %d %s, want 429", status, out)
	}
	if status, _ := postREST(t, n.MEVURL()+"/", "application/json", `{"jsonrpc":"2.0","id":1,"method":"eth_callBundle","params":[`+body+`]}`); status != 429 {
		t.Fatalf("JSON-RPC after the REST burst: %d, want 429 (one bucket per IP)", status)
	}
}
