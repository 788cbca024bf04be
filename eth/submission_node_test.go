package eth_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/rpctest"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
)

// ownStats asks the MEV listener at mev for key's statistics, signed by key.
func ownStats(t *testing.T, mev string, key *ecdsa.PrivateKey, out any) {
	t.Helper()
	body := rpctest.Body("mev_getUserStats", crypto.PubkeyToAddress(key.PublicKey))
	sig, _ := reqsig.Sign(body, key)
	status, r := post(t, mev+"/v1", body, sig)
	if status != 200 {
		t.Fatalf("mev_getUserStats: %d %+v", status, r.Error)
	}
	if err := json.Unmarshal(r.Result, out); err != nil {
		t.Fatal(err)
	}
}

// post posts a JSON-RPC body to url, signed with sig in X-Ethereum-Signature
// unless sig is empty.
func post(t *testing.T, url string, body []byte, sig string) (int, rpctest.Reply) {
	t.Helper()
	return rpctest.Post(t, url, body, map[string]string{reqsig.HeaderEthereum: sig})
}

// TestDevNodeSubmission runs the acceptance list on a real dev node:
// MEV listener over HTTP, geth RPC, the dev slot driver building with the
// local builder and importing through the engine API.
func TestDevNodeSubmission(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	n.Step()
	cfg := n.Chain().Config()
	signer := types.LatestSignerForChainID(cfg.ChainID)
	mkTx := func(acc int, nonce uint64, tip int64, to common.Address) hexutil.Bytes {
		tx, err := types.SignNewTx(testnode.Account(acc).Key, signer, &types.DynamicFeeTx{ChainID: cfg.ChainID, Nonce: nonce,
			GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(1)})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := tx.MarshalBinary()
		return raw
	}
	mev := n.MEVURL()

	// Beta bundles: zero tip for an upcoming slot is accepted; a tip is not.
	slot := strconv.FormatUint(n.Beacon().CurrentSlot()+2, 10)
	beta := mkTx(3, 0, 0, common.Address{3})
	status, r := post(t, mev+"/", rpctest.Body("mev_sendBetaBundle", map[string]any{"txs": []hexutil.Bytes{beta}, "slot": slot}), "")
	var h common.Hash
	json.Unmarshal(r.Result, &h)
	th := crypto.Keccak256Hash(beta)
	if status != 200 || h != crypto.Keccak256Hash(th[:]) {
		t.Fatalf("beta bundle: %d %s %+v", status, r.Result, r.Error)
	}
	status, r = post(t, mev+"/", rpctest.Body("mev_sendBetaBundle", map[string]any{"txs": []hexutil.Bytes{mkTx(3, 0, 1, common.Address{3})}, "slot": slot}), "")
	if status != 400 || !strings.Contains(r.Error.Message, "maxPriorityFeePerGas") {
		t.Fatalf("tipped beta bundle: %d %+v", status, r.Error)
	}
	// The same services on geth's RPC.
	var viaGeth common.Hash
	if err := n.RPC().Call(&viaGeth, "mev_sendBetaBundle", map[string]any{"txs": []hexutil.Bytes{beta}, "slot": slot}); err != nil || viaGeth != h {
		t.Fatalf("geth RPC: %v %s", err, viaGeth)
	}

	// eth_sendBundle on /v1/auction: unsigned 401, signed {bundleHash}, the
	// same signature over a modified body 401.
	target := n.Chain().Head().Number.Uint64() + 1
	bundleTx := mkTx(1, 0, 1e9, common.Address{1})
	req := rpctest.Body("eth_sendBundle", map[string]any{"txs": []hexutil.Bytes{bundleTx}, "blockNumber": hexutil.Uint64(target)})
	if status, _ := post(t, mev+"/v1/auction", req, ""); status != 401 {
		t.Fatalf("unsigned: %d", status)
	}
	key, _ := crypto.GenerateKey()
	sig, _ := reqsig.Sign(req, key)
	status, r = post(t, mev+"/v1/auction", req, sig)
	if status != 200 || !strings.Contains(string(r.Result), "bundleHash") {
		t.Fatalf("signed: %d %s %+v", status, r.Result, r.Error)
	}
	if status, _ := post(t, mev+"/v1/auction", append(req[:len(req)-1:len(req)-1], ' ', '}'), sig); status != 401 {
		t.Fatalf("modified body: %d", status)
	}

	// A mempool tx with a higher tip than the bundle still goes after it.
	loose := new(types.Transaction)
	loose.UnmarshalBinary(mkTx(2, 0, 50e9, common.Address{2}))
	if err := n.Client().SendTransaction(context.Background(), loose); err != nil {
		t.Fatal(err)
	}
	head := n.Step()
	if head.Number.Uint64() != target {
		t.Fatalf("stepped to %d, want %d", head.Number, target)
	}
	block, err := n.Chain().BlockByNumber(target)
	if err != nil {
		t.Fatal(err)
	}
	txs := block.Transactions()
	// In --dev blocks come through the relay: the dev builder's payment to
	// the proposer is the last tx.
	if block.Coinbase() == eth.DevBuilderCoinbase() {
		txs = txs[:len(txs)-1]
	}
	if len(txs) != 2 || txs[0].Hash() != crypto.Keccak256Hash(bundleTx) || txs[1].Hash() != loose.Hash() {
		t.Fatalf("block %d has %d txs; want the bundle first, then the mempool tx", target, len(txs))
	}
	// The next slot counts the inclusion for the signer.
	n.Step()
	var stats struct {
		Requests, Bundles, Inclusions uint64
	}
	ownStats(t, mev, key, &stats)
	if stats.Requests != 2 || stats.Bundles != 1 || stats.Inclusions != 1 { // requests: the bundle and the stats call
		t.Fatalf("user stats %+v", stats)
	}
	// Geth's RPC carries no signature: it answers nobody's statistics.
	if err := n.RPC().Call(&stats, "mev_getUserStats", crypto.PubkeyToAddress(key.PublicKey)); err == nil || !strings.Contains(err.Error(), "answers only about the request's signer") {
		t.Fatalf("unsigned mev_getUserStats on geth's RPC: %v", err)
	}
}

// TestBetaBundleSurvivesRestart stores a beta bundle on a node with a
// datadir, restarts the node on it, and finds the bundle and the signer's
// statistics again.
func TestBetaBundleSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	n := testnode.New(t, testnode.Options{DataDir: dir})
	n.Step()
	cfg := n.Chain().Config()
	to := common.Address{9}
	tx, _ := types.SignNewTx(testnode.Account(4).Key, types.LatestSignerForChainID(cfg.ChainID), &types.DynamicFeeTx{
		ChainID: cfg.ChainID, GasFeeCap: big.NewInt(10e9), Gas: 21000, To: &to})
	raw, _ := tx.MarshalBinary()
	slot := strconv.FormatUint(n.Beacon().CurrentSlot()+5, 10)
	req := rpctest.Body("mev_sendBetaBundle", map[string]any{"txs": []hexutil.Bytes{raw}, "slot": slot})
	key, _ := crypto.GenerateKey()
	sig, _ := reqsig.Sign(req, key)
	status, r := post(t, n.MEVURL()+"/v1", req, sig)
	var h common.Hash
	json.Unmarshal(r.Result, &h)
	if status != 200 {
		t.Fatalf("%d %+v", status, r.Error)
	}
	if err := n.Stack().Close(); err != nil {
		t.Fatal(err)
	}

	n = testnode.New(t, testnode.Options{DataDir: dir})
	var got struct {
		BundleHash common.Hash
		Txs        []hexutil.Bytes
		Slots      []struct{ Slot, Status string }
	}
	if err := n.RPC().Call(&got, "mev_getBetaBundle", h); err != nil {
		t.Fatal(err)
	}
	if got.BundleHash != h || len(got.Txs) != 1 || !bytes.Equal(got.Txs[0], raw) || len(got.Slots) != 1 || got.Slots[0].Slot != slot {
		t.Fatalf("after restart: %+v", got)
	}
	var stats struct{ Requests, BetaBundles uint64 }
	ownStats(t, n.MEVURL(), key, &stats)
	if stats.Requests != 2 || stats.BetaBundles != 1 { // requests: the bundle and the stats call
		t.Fatalf("stats after restart: %+v", stats)
	}
}

// TestDevNodeBundleRules checks, on a real dev node over the MEV listener,
// that a cancelled bundle is never included and a bundle with a reverting
// tx is dropped whole unless the revert is allowed.
func TestDevNodeBundleRules(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	cfg := n.Chain().Config()
	signer := types.LatestSignerForChainID(cfg.ChainID)
	sign := func(acc int, nonce uint64, to *common.Address, data []byte, gas uint64) hexutil.Bytes {
		tx, err := types.SignNewTx(testnode.Account(acc).Key, signer, &types.DynamicFeeTx{ChainID: cfg.ChainID, Nonce: nonce,
			GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9), Gas: gas, To: to, Data: data})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := tx.MarshalBinary()
		return raw
	}
	// Deploy a contract that always reverts (runtime 0x60006000fd).
	deploy := new(types.Transaction)
	deploy.UnmarshalBinary(sign(5, 0, nil, common.FromHex("0x6460006000fd6000526005601bf3"), 100000))
	if err := n.Client().SendTransaction(context.Background(), deploy); err != nil {
		t.Fatal(err)
	}
	n.Step()
	reverter := crypto.CreateAddress(testnode.Account(5).Address, 0)
	if code, _ := n.Client().CodeAt(context.Background(), reverter, nil); len(code) != 5 {
		t.Fatalf("reverting contract not deployed: %x", code)
	}

	mev := n.MEVURL() + "/v1"
	target := hexutil.Uint64(n.Chain().Head().Number.Uint64() + 1)
	plain := common.Address{0x11}
	send := func(args map[string]any) common.Hash {
		t.Helper()
		status, r := post(t, mev, rpctest.Body("eth_sendBundle", args), "")
		if status != 200 {
			t.Fatalf("eth_sendBundle: %d %+v", status, r.Error)
		}
		var res struct{ BundleHash common.Hash }
		json.Unmarshal(r.Result, &res)
		return res.BundleHash
	}
	// 1. Cancelled.
	cancelled := sign(6, 0, &plain, nil, 21000)
	uuid := "0b5c7a3e-1111-4c2a-9d0e-5f1e2d3c4b5a"
	hCancelled := send(map[string]any{"txs": []hexutil.Bytes{cancelled}, "blockNumber": target, "replacementUuid": uuid})
	if status, r := post(t, mev, rpctest.Body("eth_cancelBundle", map[string]any{"replacementUuid": uuid}), ""); status != 200 {
		t.Fatalf("eth_cancelBundle: %d %+v", status, r.Error)
	}
	// 2. A transfer followed by a reverting call: dropped whole.
	dropped := []hexutil.Bytes{sign(7, 0, &plain, nil, 21000), sign(7, 1, &reverter, nil, 50000)}
	hDropped := send(map[string]any{"txs": dropped, "blockNumber": target})
	// 3. The same shape with the revert allowed: included.
	allowedRevert := sign(8, 1, &reverter, nil, 50000)
	allowed := []hexutil.Bytes{sign(8, 0, &plain, nil, 21000), allowedRevert}
	hAllowed := send(map[string]any{"txs": allowed, "blockNumber": target, "revertingTxHashes": []common.Hash{crypto.Keccak256Hash(allowedRevert)}})
	// 4. A nonce the sender has not reached: dropped for its nonce.
	hNonce := send(map[string]any{"txs": []hexutil.Bytes{sign(9, 5, &plain, nil, 21000)}, "blockNumber": target})
	// 5. A fee cap below the base fee, and 6. a sender with no ether, each
	// after a valid first tx: as a bundle's first tx the pool's admission
	// check refuses them at once (issue 14), which is checked too.
	lowFee, _ := types.SignNewTx(testnode.Account(4).Key, signer, &types.DynamicFeeTx{ChainID: cfg.ChainID,
		Nonce: 1, GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(1), Gas: 21000, To: &plain})
	rawLow, _ := lowFee.MarshalBinary()
	hFee := send(map[string]any{"txs": []hexutil.Bytes{sign(4, 0, &plain, nil, 21000), rawLow}, "blockNumber": target})
	poorKey, _ := crypto.GenerateKey()
	poor, _ := types.SignNewTx(poorKey, signer, &types.DynamicFeeTx{ChainID: cfg.ChainID,
		GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &plain})
	rawPoor, _ := poor.MarshalBinary()
	hFunds := send(map[string]any{"txs": []hexutil.Bytes{sign(5, 1, &plain, nil, 21000), rawPoor}, "blockNumber": target})
	for name, raw := range map[string]hexutil.Bytes{"fee cap of 1 wei": rawLow, "no ether": rawPoor} {
		if status, r := post(t, mev, rpctest.Body("eth_sendBundle", map[string]any{"txs": []hexutil.Bytes{raw}, "blockNumber": target}), ""); status != 400 || r.Error == nil {
			t.Fatalf("%s as the first tx: %d, want 400 from the admission check", name, status)
		}
	}

	n.Step()
	block, err := n.Chain().BlockByNumber(uint64(target))
	if err != nil {
		t.Fatal(err)
	}
	got := map[common.Hash]bool{}
	txs := block.Transactions()
	if block.Coinbase() == eth.DevBuilderCoinbase() {
		txs = txs[:len(txs)-1] // the relay's dev builder pays the proposer last
	}
	for _, tx := range txs {
		got[tx.Hash()] = true
	}
	if len(got) != 2 || !got[crypto.Keccak256Hash(allowed[0])] || !got[crypto.Keccak256Hash(allowed[1])] {
		t.Fatalf("block %d holds %d txs; want exactly the bundle whose revert is allowed", target, len(got))
	}
	for _, raw := range append([]hexutil.Bytes{cancelled}, dropped...) {
		if got[crypto.Keccak256Hash(raw)] {
			t.Fatal("a cancelled or dropped bundle's tx was included")
		}
	}
	// Cancelled means never: it is gone from the pool for later blocks too.
	n.Step()
	if nonce, _ := n.Client().NonceAt(context.Background(), testnode.Account(6).Address, nil); nonce != 0 {
		t.Fatalf("cancelled bundle's sender has nonce %d", nonce)
	}

	// Each bundle's fate, through flashbots_getBundleStatsV2.
	for _, tc := range []struct {
		name   string
		hash   common.Hash
		status string
		reason string
	}{
		{"cancelled", hCancelled, "dropped", "cancelled"},
		{"reverting", hDropped, "dropped", "revert not allowed"},
		{"allowed revert", hAllowed, "included", ""},
		{"future nonce", hNonce, "dropped", "nonce"},
		{"fee cap below the base fee", hFee, "dropped", "fee"},
		{"no ether", hFunds, "dropped", "funds"},
	} {
		status, r := post(t, mev, rpctest.Body("flashbots_getBundleStatsV2", map[string]any{"bundleHash": tc.hash, "blockNumber": target}), "")
		var st struct {
			IsSimulated            bool
			ReceivedAt             string
			Status, DropReason     string
			IncludedBlockHash      *common.Hash
			ConsideredByBuildersAt []struct{ Pubkey, Timestamp string }
		}
		if status != 200 || json.Unmarshal(r.Result, &st) != nil {
			t.Fatalf("%s: %d %s %+v", tc.name, status, r.Result, r.Error)
		}
		if st.Status != tc.status || st.DropReason != tc.reason || st.ReceivedAt == "" {
			t.Errorf("%s: %s", tc.name, r.Result)
		}
		if tc.status == "included" && (st.IncludedBlockHash == nil || *st.IncludedBlockHash != block.Hash() || !st.IsSimulated || len(st.ConsideredByBuildersAt) != 1) {
			t.Errorf("%s: %s, want block %s", tc.name, r.Result, block.Hash())
		}
	}
}

// TestSendBundleSurvivesRestart: an acknowledged eth_sendBundle bundle is
// committed before the answer; a node restarted on the same datadir has
// it pending, still its signer's, and includes it in its block.
func TestSendBundleSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	n := testnode.New(t, testnode.Options{DataDir: dir})
	n.Step()
	cfg := n.Chain().Config()
	to := common.Address{9}
	tx, _ := types.SignNewTx(testnode.Account(5).Key, types.LatestSignerForChainID(cfg.ChainID), &types.DynamicFeeTx{
		ChainID: cfg.ChainID, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(50e9), Gas: 21000, To: &to, Value: big.NewInt(1)})
	raw, _ := tx.MarshalBinary()
	target := n.Chain().Head().Number.Uint64() + 2
	req := rpctest.Body("eth_sendBundle", map[string]any{"txs": []hexutil.Bytes{raw}, "blockNumber": hexutil.Uint64(target)})
	key, _ := crypto.GenerateKey()
	sig, _ := reqsig.Sign(req, key)
	status, r := post(t, n.MEVURL()+"/v1", req, sig)
	var res struct{ BundleHash common.Hash }
	json.Unmarshal(r.Result, &res)
	if status != 200 {
		t.Fatalf("%d %+v", status, r.Error)
	}
	if err := n.Stack().Close(); err != nil {
		t.Fatal(err)
	}

	n = testnode.New(t, testnode.Options{DataDir: dir})
	statsReq := rpctest.Body("flashbots_getBundleStatsV2", map[string]any{"bundleHash": res.BundleHash, "blockNumber": hexutil.Uint64(target)})
	sig, _ = reqsig.Sign(statsReq, key)
	status, r = post(t, n.MEVURL()+"/v1", statsReq, sig)
	var st struct{ Status string }
	json.Unmarshal(r.Result, &st)
	if status != 200 || st.Status != "received" {
		t.Fatalf("status after the restart: %d %s %+v", status, r.Result, r.Error)
	}
	if status, r := post(t, n.MEVURL()+"/v1", statsReq, ""); status != 400 {
		t.Fatalf("unsigned status after the restart: %d %s, want the signer's bundle hidden", status, r.Result)
	}
	for n.Chain().Head().Number.Uint64() < target {
		n.Step()
	}
	block, err := n.Client().BlockByNumber(context.Background(), new(big.Int).SetUint64(target))
	if err != nil {
		t.Fatal(err)
	}
	if txs := block.Transactions(); len(txs) == 0 || txs[0].Hash() != tx.Hash() {
		t.Fatalf("block %d does not start with the bundle sent before the restart", target)
	}
}
