package eth_test

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/internal/store/pgtest"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/params"
)

// betaSend posts mev_sendBetaBundle to the MEV listener at url, as a
// searcher does, with zero-tip transfers of gas each from test account
// acct (nonces from nonce on), and returns the HTTP status and the answer.
func betaSend(t *testing.T, url string, acct, nonce, slot uint64, gas ...uint64) (int, string) {
	t.Helper()
	key := testnode.Account(int(acct)).Key
	to := common.Address{0xbe, 0x7a}
	var txs []string
	for i, g := range gas {
		tx := types.MustSignNewTx(key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
			ChainID: big.NewInt(params.DevChainID), Nonce: nonce + uint64(i), GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei),
			Gas: g, To: &to, Value: big.NewInt(1),
		})
		b, err := tx.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		txs = append(txs, fmt.Sprintf("%q", fmt.Sprintf("0x%x", b)))
	}
	return postJSON(t, url, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"mev_sendBetaBundle","params":[{"txs":[%s],"slot":"%d"}]}`, strings.Join(txs, ","), slot))
}

// TestBetaCapacityPerSlot (issue 14, finding 3): a beta bundle for slot S
// is held to S's beta_gas, the gas S's L2 auction sells and the relay's
// validators endpoint publishes for S, not to the head's gas limit (30M);
// a slot whose auction is not open yet is held to the gas limit its block
// can reach. Each refusal names the bundle's gas, the limit and the slot.
func TestBetaCapacityPerSlot(t *testing.T) {
	const sold = 100_000
	n, _ := devAuctionNode(t, eth.DevAuctionConfig{Gas: sold, Lead: 4, SettleLead: 2}, nil)
	var slot uint64
	for i := 0; i < 8 && slot == 0; i++ { // the operator's openAuction txs land in the next blocks
		n.Step()
		var vals []struct {
			Slot    string `json:"slot"`
			BetaGas string `json:"beta_gas"`
		}
		getJSON(t, n.MEVURL()+"/relay/v1/builder/validators", &vals)
		for _, v := range vals {
			s, _ := strconv.ParseUint(v.Slot, 10, 64)
			if v.BetaGas == strconv.Itoa(sold) && s > n.Beacon().HeadSlot()+1 {
				slot = s
				break
			}
		}
	}
	if slot == 0 {
		t.Fatalf("no slot with beta_gas %d on the validators endpoint", sold)
	}

	// Five 21,000-gas txs: 105,000 gas, over the 100,000 sold.
	code, body := betaSend(t, n.MEVURL(), 4, 0, slot, 21000, 21000, 21000, 21000, 21000)
	want := fmt.Sprintf("the txs' gas limits sum to 105000, slot %d sells 100000 gas for its beta part (beta_gas)", slot)
	if code != 400 || !strings.Contains(body, want) {
		t.Fatalf("over beta_gas: %d %s, want 400 with %q", code, body, want)
	}
	// Four fit.
	if code, body := betaSend(t, n.MEVURL(), 4, 0, slot, 21000, 21000, 21000, 21000); code != 200 || !strings.Contains(body, `"result":"0x`) {
		t.Fatalf("within beta_gas: %d %s", code, body)
	}

	// Slot S+40: no auction yet. The bound is the gas limit its block can
	// reach: the head's raised by at most 1/1024 per slot.
	far := slot + 40
	limit := n.Chain().Head().GasLimit
	ceiling := betapool.GasLimitCeiling(limit, far-n.Beacon().HeadSlot())
	if ceiling <= limit || ceiling > limit+limit/20 {
		t.Fatalf("ceiling %d for gas limit %d", ceiling, limit)
	}
	if code, body := betaSend(t, n.MEVURL(), 5, 0, far, 21000, 21000, 21000, 21000, 21000); code != 200 {
		t.Fatalf("105,000 gas for a slot without an auction: %d %s", code, body)
	}
	q := limit / 4 // each tx within EIP-7825's per-tx cap
	code, body = betaSend(t, n.MEVURL(), 5, 0, far, q, q, q, limit-3*q, limit/10)
	if code != 400 || !strings.Contains(body, fmt.Sprintf("sum to %d, more than", limit+limit/10)) ||
		!strings.Contains(body, fmt.Sprintf("the most gas slot %d's block can have", far)) {
		t.Fatalf("over the block's gas limit: %d %s", code, body)
	}
	if code, body := betaSend(t, n.MEVURL(), 5, 0, far, 1<<24+1); code != 400 || !strings.Contains(body, "the active fork allows at most 16777216 per tx (EIP-7825)") {
		t.Fatalf("a tx over the per-tx cap: %d %s", code, body)
	}
}

// TestBetaQuotaSurvivesRestart (issue 14, finding 3): a client that used
// its beta bundle quota gets no fresh one when the node restarts: the
// quota is counted from the database in the datadir.
func TestBetaQuotaSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	cfg := func(_ *node.Config, _ *ethconfig.Config, c *eth.Config) { c.Submission.Beta.MaxPerIP = 3 }
	n := testnode.New(t, testnode.Options{DataDir: dir, Configure: cfg})
	slot := n.Beacon().HeadSlot() + 10
	for i := uint64(0); i < 3; i++ {
		if code, body := betaSend(t, n.MEVURL(), 4, i, slot, 21000); code != 200 {
			t.Fatalf("bundle %d: %d %s", i, code, body)
		}
	}
	if code, body := betaSend(t, n.MEVURL(), 4, 3, slot, 21000); code != 429 || !strings.Contains(body, "beta bundle quota exceeded: 3 bundles") {
		t.Fatalf("over the quota: %d %s", code, body)
	}
	if err := n.Stack().Close(); err != nil {
		t.Fatal(err)
	}
	n = testnode.New(t, testnode.Options{DataDir: dir, Configure: cfg})
	if code, body := betaSend(t, n.MEVURL(), 4, 3, slot, 21000); code != 429 || !strings.Contains(body, "beta bundle quota exceeded") {
		t.Fatalf("over the quota after a restart: %d %s", code, body)
	}
}

// TestBetaQuotaSharedByRelays (issue 14, finding 3): two nodes sharing one
// PostgreSQL database (issue 12's relay instances) share the beta bundle
// quotas: a client sending to both alternately gets the quota once.
func TestBetaQuotaSharedByRelays(t *testing.T) {
	url := pgtest.URL(t)
	cfg := func(_ *node.Config, _ *ethconfig.Config, c *eth.Config) {
		c.Store.URL = url
		c.Submission.Beta.MaxPerIP = 4
	}
	a := testnode.New(t, testnode.Options{Configure: cfg})
	b := testnode.New(t, testnode.Options{Configure: cfg})
	slot := a.Beacon().HeadSlot() + 10
	accepted := 0
	for i := uint64(0); i < 8; i++ {
		code, body := betaSend(t, []*testnode.Node{a, b}[i%2].MEVURL(), 4, i, slot, 21000)
		switch {
		case code == 200:
			accepted++
		case code != 429 || !strings.Contains(body, "beta bundle quota exceeded"):
			t.Fatalf("bundle %d: %d %s", i, code, body)
		}
	}
	if accepted != 4 {
		t.Fatalf("%d bundles accepted by two relays sharing a database, quota 4", accepted)
	}
}
