package eth

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/internal/rpctest"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/mevapi/jsonrpc"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
	"github.com/gavel-eth/gavel/params"
)

// postRaw posts a JSON-RPC body to url, signed with sig in the lower-case
// x-flashbots-signature header as ethers sends it, unless sig is empty.
func postRaw(t *testing.T, url string, body []byte, sig string) (int, rpctest.Reply) {
	t.Helper()
	return rpctest.Post(t, url, body, map[string]string{"x-flashbots-signature": sig})
}

func signTx(t *testing.T, c *chain.Chain, nonce uint64, tip int64) hexutil.Bytes {
	to := common.Address{0x77}
	tx, err := types.SignNewTx(params.DevAccounts()[0].Key, types.LatestSignerForChainID(c.Config().ChainID), &types.DynamicFeeTx{
		ChainID: c.Config().ChainID, Nonce: nonce, GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(50e9), Gas: 21000, To: &to, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return raw
}

// TestSubmissionEndToEnd runs the "done when" list against a real
// in-memory chain, a real SQLite file and real HTTP on loopback.
func TestSubmissionEndToEnd(t *testing.T) {
	c, stop, err := chain.NewInMemory(chain.DevGenesis(params.DevGasLimit, 1_700_000_000))
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	db, err := store.OpenSQLite("")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	slot := uint64(50)
	stats := store.NewStatsBuffer(db, DefaultSubmissionConfig.StatsFlush)
	betaSvc, err := betapool.NewService(betapool.ServiceConfig{Pool: betapool.DefaultConfig, Store: db, ChainID: c.ChainID(),
		CurrentSlot: func() uint64 { return slot }, Stats: stats, Chain: c, Gas: c, Accounts: c})
	if err != nil {
		t.Fatal(err)
	}
	sub, err := NewSubmission(DefaultSubmissionConfig, SubmissionDeps{Chain: c, Store: db, Stats: stats, Beta: betaSvc.Pool()})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	mux := http.NewServeMux()
	sub.Register(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	// A zero-tip beta bundle for an upcoming slot answers keccak256(txHash).
	beta := signTx(t, c, 5, 0)
	status, r := postRaw(t, srv.URL+"/", rpctest.Body("mev_sendBetaBundle", map[string]any{"txs": []hexutil.Bytes{beta}, "slot": "52"}), "")
	var got common.Hash
	json.Unmarshal(r.Result, &got)
	txh := crypto.Keccak256Hash(beta)
	if status != 200 || got != crypto.Keccak256Hash(txh[:]) || r.Method != "mev_sendBetaBundle" {
		t.Fatalf("beta bundle: %d %s %+v", status, got, r.Error)
	}
	// A tipped one is 400 naming the priority fee.
	status, r = postRaw(t, srv.URL+"/", rpctest.Body("mev_sendBetaBundle", map[string]any{"txs": []hexutil.Bytes{signTx(t, c, 5, 1)}, "slot": "52"}), "")
	if status != 400 || !strings.Contains(r.Error.Message, "maxPriorityFeePerGas") {
		t.Fatalf("tipped beta bundle: %d %+v", status, r.Error)
	}

	// Unsigned /v1/auction is 401.
	next := c.Head().Number.Uint64() + 1
	tx := signTx(t, c, 0, 2e9)
	body := rpctest.Body("eth_sendBundle", map[string]any{"txs": []hexutil.Bytes{tx}, "blockNumber": hexutil.Uint64(next)})
	if status, r := postRaw(t, srv.URL+"/v1/auction", body, ""); status != 401 {
		t.Fatalf("unsigned auction: %d %+v", status, r.Error)
	}
	// Signed: {bundleHash}.
	searcher, _ := crypto.GenerateKey()
	sig, _ := reqsig.Sign(body, searcher)
	status, r = postRaw(t, srv.URL+"/v1/auction", body, sig)
	var res struct {
		BundleHash common.Hash `json:"bundleHash"`
	}
	json.Unmarshal(r.Result, &res)
	txh = crypto.Keccak256Hash(tx)
	if status != 200 || res.BundleHash != crypto.Keccak256Hash(txh[:]) {
		t.Fatalf("signed eth_sendBundle: %d %s %+v", status, r.Result, r.Error)
	}
	// The same signature over a modified body is 401.
	modified := bytes.Replace(body, []byte(`"id":1`), []byte(`"id":2`), 1)
	if status, r := postRaw(t, srv.URL+"/v1/auction", modified, sig); status != 401 || !strings.Contains(r.Error.Message, "signer mismatch") {
		t.Fatalf("modified body: %d %+v", status, r.Error)
	}

	// The bundle is at the top of the target block, which imports as valid.
	parent := c.Head()
	root := common.Hash{1}
	built, err := sub.Builder().Build(context.Background(), parent, chain.BuildAttrs{Timestamp: parent.Time + 2, FeeRecipient: common.Address{0xfe}, BeaconRoot: &root})
	if err != nil {
		t.Fatal(err)
	}
	if built.Block.NumberU64() != next || len(built.Block.Transactions()) == 0 || built.Block.Transactions()[0].Hash() != txh {
		t.Fatalf("block %d does not start with the bundle", built.Block.NumberU64())
	}
	if err := c.ImportBuilt(built.BuiltBlock); err != nil {
		t.Fatal(err)
	}
	sub.Builder().Imported(built.Block.Hash())

	// The signer's statistics: only to the signer itself.
	statsBody := rpctest.Body("mev_getUserStats", crypto.PubkeyToAddress(searcher.PublicKey))
	if status, r := postRaw(t, srv.URL+"/v1", statsBody, ""); status != 400 || !strings.Contains(r.Error.Message, "answers only about the request's signer: sign the request") {
		t.Fatalf("unsigned user stats: %d %+v", status, r.Error)
	}
	other, _ := crypto.GenerateKey()
	otherSig, _ := reqsig.Sign(statsBody, other)
	if status, r := postRaw(t, srv.URL+"/v1", statsBody, otherSig); status != 400 || !strings.Contains(r.Error.Message, "the request is signed by "+crypto.PubkeyToAddress(other.PublicKey).Hex()) {
		t.Fatalf("user stats signed by another key: %d %+v", status, r.Error)
	}
	ownSig, _ := reqsig.Sign(statsBody, searcher)
	status, r = postRaw(t, srv.URL+"/v1", statsBody, ownSig)
	var u jsonrpc.UserStatsResult
	json.Unmarshal(r.Result, &u)
	// requests: the bundle and this call.
	if status != 200 || u.Requests != 2 || u.Bundles != 1 || u.Inclusions != 1 {
		t.Fatalf("user stats: %d %+v %+v", status, u, r.Error)
	}
}
