package auctioncli

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/contracts/auction"
	"github.com/gavel-eth/gavel/contracts/devauction"
	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/params"
)

// switchableProxy forwards to an L2 node until it is switched off; then it
// answers 503, as an unreachable L2 would fail.
type switchableProxy struct {
	down atomic.Bool
	srv  *httptest.Server
}

func newSwitchableProxy(t *testing.T, target string) *switchableProxy {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &switchableProxy{}
	rp := httputil.NewSingleHostReverseProxy(u)
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.down.Load() {
			http.Error(w, "L2 down", http.StatusServiceUnavailable)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

// TestVerifyBetaSlot runs a paid beta slot to delivery with the auction on
// a second dev node (the L2) and checks what anyone can check afterwards:
//   - the delivered block hash is in builder_blocks_received, built by the
//     relay, and the relay's signature over its BidTrace verifies (BLS),
//     with the alpha's block hash and builder beside it;
//   - beta_slots shows the settlement as read (with its L2 block), the
//     alpha, the merged block and the bundle included 2 of 2;
//   - `gavel auction verify` says the slot was honored, and that a hash paid
//     but never sent to the relay does not count against it.
//
// A bundle paid for the next slot that its own sender stops (a nonce gap)
// leaves the alpha alone: beta_slots says why, verify says honored.
//
// Then, with the relay's L2 unreachable, a bundle paid for a later slot is
// left out of its block: verify says not honored and exits non-zero.
func TestVerifyBetaSlot(t *testing.T) {
	l2 := testnode.New(t, testnode.Options{Configure: func(_ *node.Config, _ *ethconfig.Config, c *eth.Config) {
		c.Dev.ChainID = l2ChainID
	}})
	hexKey := func(i int) string { return "0x" + hex.EncodeToString(crypto.FromECDSA(testnode.Account(i).Key)) }
	owner, bidder := hexKey(0), hexKey(1)
	runErr := func(args ...string) (string, error) {
		var out bytes.Buffer
		app := &cli.App{Name: "gavel", Commands: []*cli.Command{Command()}, Writer: &out, ErrWriter: &out}
		// --l2rpc goes before the flags: a positional argument must stay last.
		i := 0
		for i < len(args) && !strings.HasPrefix(args[i], "--") {
			i++
		}
		args = append(append(append([]string{"gavel", "auction"}, args[:i]...), "--l2rpc", l2.HTTPURL()), args[i:]...)
		err := app.Run(args)
		return out.String(), err
	}
	run := func(args ...string) string {
		t.Helper()
		out, err := runErr(args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}

	// S: paid and included; SB: paid for a bundle whose own sender stops it
	// (a nonce gap), so nothing is appended; S2: paid while the relay cannot
	// read the L2.
	const S, SB, S2 = 6, 7, 9
	file := filepath.Join(t.TempDir(), "addresses.json")
	stop := l2.StepInBackground(10 * time.Millisecond)
	run("deploy", "--key", owner, "--out", file)
	run("bidder", "add", "--key", owner, "--addresses", file, testnode.Account(1).Address.Hex())
	run("wrap", "--key", bidder, "--addresses", file, "--amount", "1ether")
	var addrs auction.Addresses
	if raw, err := os.ReadFile(file); err != nil || json.Unmarshal(raw, &addrs) != nil {
		t.Fatalf("addresses file: %v", err)
	}
	// The L1 node reads the L2 through a proxy the test can switch off.
	proxy := newSwitchableProxy(t, l2.HTTPURL())
	l1 := testnode.New(t, testnode.Options{Configure: func(_ *node.Config, _ *ethconfig.Config, c *eth.Config) {
		c.Beta.L2RPC = proxy.srv.URL
		c.Beta.Auctioneer, c.Beta.SettlementHouse = addrs.Auctioneer.Hex(), addrs.SettlementHouse.Hex()
	}})
	l1ID := l1.Chain().Config().ChainID
	betaTx := func(from int, nonce uint64) *types.Transaction {
		to := common.Address{0xbe, 0x7a}
		return types.MustSignNewTx(testnode.Account(from).Key, types.LatestSignerForChainID(l1ID), &types.DynamicFeeTx{
			ChainID: l1ID, Nonce: nonce, GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000, To: &to, Value: big.NewInt(1)})
	}
	a := []*types.Transaction{betaTx(5, 0), betaTx(5, 1)}
	b := []*types.Transaction{betaTx(6, 0)}
	gap := []*types.Transaction{betaTx(7, 5)}
	ha, hb, hgap := bundle.Hash(a), bundle.Hash(b), bundle.Hash(gap)
	unsent := common.Hash{0x0b, 0xad}
	for _, slot := range []string{strconv.Itoa(S), strconv.Itoa(SB), strconv.Itoa(S2)} {
		run("open", "--key", owner, "--addresses", file, "--l1rpc", l1.HTTPURL(), "--slot", slot, "--gas", "1000000")
		run("bid", "--key", bidder, "--addresses", file, "--slot", slot, "--price", "1gwei", "--gas", "400000")
		run("settle", "--key", owner, "--addresses", file, "--slot", slot)
	}
	run("pay", "--key", bidder, "--addresses", file, "--slot", strconv.Itoa(S), "--gas", "100000", "--hash", ha.Hex(), "--hash", unsent.Hex())
	run("pay", "--key", bidder, "--addresses", file, "--slot", strconv.Itoa(SB), "--gas", "21000", "--hash", hgap.Hex())
	stop()

	ctx := context.Background()
	mev, err := rpc.Dial(l1.MEVURL())
	if err != nil {
		t.Fatal(err)
	}
	defer mev.Close()
	send := func(txs []*types.Transaction, slot int) {
		t.Helper()
		raw := make([]hexutil.Bytes, len(txs))
		for i, tx := range txs {
			raw[i], _ = tx.MarshalBinary()
		}
		var h common.Hash
		if err := mev.CallContext(ctx, &h, "mev_sendBetaBundle", map[string]any{"txs": raw, "slot": strconv.Itoa(slot)}); err != nil {
			t.Fatal(err)
		}
	}
	send(a, S)
	send(gap, SB)
	send(b, S2)
	produceTo := func(slot uint64) {
		t.Helper()
		for s := l1.Beacon().HeadSlot() + 1; s <= slot; s++ {
			if _, err := l1.Beacon().ProduceSlot(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
	}
	produceTo(S)

	// The delivered block is the relay's, found among the bid traces, and
	// its signature verifies with the relay's pubkey.
	slotQ := "?slot=" + strconv.Itoa(S)
	var delivered []struct {
		BlockHash      beacon.Root      `json:"block_hash"`
		BuilderPubkey  beacon.BLSPubkey `json:"builder_pubkey"`
		AlphaBlockHash beacon.Root      `json:"alpha_block_hash"`
	}
	getJSON(t, l1.MEVURL()+"/relay/v1/data/bidtraces/proposer_payload_delivered"+slotQ, &delivered)
	rel := l1.Relay().Relay()
	if len(delivered) != 1 || delivered[0].BuilderPubkey != rel.Pubkey() || delivered[0].AlphaBlockHash == delivered[0].BlockHash {
		t.Fatalf("delivered %+v, want the merged block built by the relay %s", delivered, rel.Pubkey())
	}
	merged := delivered[0].BlockHash
	var received []json.RawMessage
	getJSON(t, l1.MEVURL()+"/relay/v1/data/bidtraces/builder_blocks_received?block_hash="+merged.String(), &received)
	if len(received) != 1 {
		t.Fatalf("builder_blocks_received for the delivered block %s: %d rows", merged, len(received))
	}
	var extra struct {
		Signature          beacon.BLSSignature `json:"signature"`
		AlphaBlockHash     beacon.Root         `json:"alpha_block_hash"`
		AlphaBuilderPubkey beacon.BLSPubkey    `json:"alpha_builder_pubkey"`
	}
	if err := json.Unmarshal(received[0], &extra); err != nil {
		t.Fatal(err)
	}
	trace := bidTraceOf(t, received[0])
	if trace.BlockHash != merged || trace.BuilderPubkey != rel.Pubkey() || extra.AlphaBlockHash != delivered[0].AlphaBlockHash {
		t.Fatalf("relay-built record %s", received[0])
	}
	if err := beacon.Verify(rel.Pubkey(), &trace, beacon.BuilderDomain(rel.BeaconConfig()), extra.Signature); err != nil {
		t.Fatalf("the relay's signature over the delivered block's BidTrace: %v", err)
	}
	// The builders' bid traces are written in batches, once a second.
	var alphaRows []json.RawMessage
	for deadline := time.Now().Add(15 * time.Second); len(alphaRows) == 0 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		getJSON(t, l1.MEVURL()+"/relay/v1/data/bidtraces/builder_blocks_received?block_hash="+extra.AlphaBlockHash.String(), &alphaRows)
	}
	if len(alphaRows) == 0 || bidTraceOf(t, alphaRows[0]).BuilderPubkey != extra.AlphaBuilderPubkey {
		t.Fatalf("the alpha %s is not among the builder's submissions: %s", extra.AlphaBlockHash, alphaRows)
	}
	tamper := trace
	tamper.Value = beacon.U256FromUint64(1)
	if beacon.Verify(rel.Pubkey(), &tamper, beacon.BuilderDomain(rel.BeaconConfig()), extra.Signature) == nil {
		t.Fatal("the signature verifies a BidTrace with another value")
	}

	var slots []struct {
		L2Block    string `json:"l2_block"`
		Settlement []struct {
			AmountOfGas  string        `json:"amount_of_gas"`
			BundleHashes []common.Hash `json:"bundle_hashes"`
		} `json:"settlement"`
		Alpha struct {
			BlockHash beacon.Root `json:"block_hash"`
		} `json:"alpha"`
		BlockHash *beacon.Root `json:"block_hash"`
		Bundles   []struct {
			Hash     common.Hash   `json:"bundle_hash"`
			State    string        `json:"state"`
			Included string        `json:"included"`
			TxHashes []common.Hash `json:"tx_hashes"`
		} `json:"bundles"`
	}
	getJSON(t, l1.MEVURL()+"/relay/v1/data/beta_slots"+slotQ, &slots)
	if len(slots) != 1 {
		t.Fatalf("beta_slots for slot %d: %d records", S, len(slots))
	}
	bs := slots[0]
	if l2b, _ := strconv.ParseUint(bs.L2Block, 10, 64); l2b == 0 || l2b > l2.Chain().Head().Number.Uint64() {
		t.Errorf("settlement read at L2 block %s (L2 head %d)", bs.L2Block, l2.Chain().Head().Number)
	}
	if len(bs.Settlement) != 1 || bs.Settlement[0].AmountOfGas != "100000" || len(bs.Settlement[0].BundleHashes) != 2 ||
		bs.Settlement[0].BundleHashes[0] != ha || bs.BlockHash == nil || *bs.BlockHash != merged || bs.Alpha.BlockHash != extra.AlphaBlockHash {
		t.Fatalf("beta slot %+v", bs)
	}
	if len(bs.Bundles) == 0 || bs.Bundles[0].Hash != ha || bs.Bundles[0].State != "included" || bs.Bundles[0].Included != "2 of 2" ||
		len(bs.Bundles[0].TxHashes) != 2 || bs.Bundles[0].TxHashes[1] != a[1].Hash() {
		t.Fatalf("beta slot bundles %+v", bs.Bundles)
	}

	out := run("verify", "--addresses", file, "--l1rpc", l1.HTTPURL(), "--slot", strconv.Itoa(S))
	t.Logf("verify --slot %d:\n%s", S, out)
	for _, want := range []string{"slot 6 honored", ha.Hex() + "  ok: included 2 of 2 at tx indexes", unsent.Hex() + "  ok: not pooled"} {
		if !strings.Contains(out, want) {
			t.Errorf("verify of slot %d lacks %q:\n%s", S, want, out)
		}
	}

	// SB: the paid bundle is invalid on the state it meets (a nonce gap):
	// the alpha is delivered alone, beta_slots says why, and that is the
	// buyer's side.
	produceTo(SB)
	slots = nil
	getJSON(t, l1.MEVURL()+"/relay/v1/data/beta_slots?slot="+strconv.Itoa(SB), &slots)
	if len(slots) != 1 || slots[0].BlockHash != nil || len(slots[0].Bundles) != 1 || slots[0].Bundles[0].Hash != hgap ||
		slots[0].Bundles[0].State != "missed" {
		t.Fatalf("beta_slots of slot %d: %+v", SB, slots)
	}
	out = run("verify", "--addresses", file, "--l1rpc", l1.HTTPURL(), "--slot", strconv.Itoa(SB))
	t.Logf("verify --slot %d:\n%s", SB, out)
	if !strings.Contains(out, hgap.Hex()+"  ok: not in the block (0 of 1): tx failed for its own sender: nonce 5") || !strings.Contains(out, "slot 7 honored") {
		t.Errorf("verify of slot %d:\n%s", SB, out)
	}

	// The relay loses its L2; bundle b is then paid for S2 on the L2: the
	// relay cannot know, S2's block is the alpha alone, the seller failed.
	proxy.down.Store(true)
	stop = l2.StepInBackground(10 * time.Millisecond)
	run("pay", "--key", bidder, "--addresses", file, "--slot", strconv.Itoa(S2), "--gas", "21000", "--hash", hb.Hex())
	stop()
	produceTo(S2)
	out, err = runErr("verify", "--addresses", file, "--l1rpc", l1.HTTPURL(), "--slot", strconv.Itoa(S2))
	t.Logf("verify --slot %d:\n%s", S2, out)
	if !errors.Is(err, ErrNotHonored) || !strings.Contains(out, hb.Hex()+"  NOT HONORED: not in the block (0 of 1): left out") ||
		!strings.Contains(out, "slot 9 NOT honored") {
		t.Fatalf("verify of slot %d with its bundle left out: %v\n%s", S2, err, out)
	}
	// A slot with nothing paid is honored; one the L1 head has not reached
	// cannot be judged yet.
	if out := run("verify", "--addresses", file, "--l1rpc", l1.HTTPURL(), "--slot", "8"); !strings.Contains(out, "slot 8 honored: nothing was due") {
		t.Errorf("verify of a slot without payments:\n%s", out)
	}
	if _, err := runErr("verify", "--addresses", file, "--l1rpc", l1.HTTPURL(), "--slot", "50"); !errors.Is(err, ErrNoSlotBlock) {
		t.Errorf("verify of a future slot: %v, want %v", err, ErrNoSlotBlock)
	}
}

// bidTraceOf reads the BidTrace fields of a data API row (the row carries
// more fields than a BidTrace, which decodes strictly).
func bidTraceOf(t *testing.T, row json.RawMessage) beacon.BidTrace {
	t.Helper()
	var all map[string]json.RawMessage
	if err := json.Unmarshal(row, &all); err != nil {
		t.Fatal(err)
	}
	keep := map[string]json.RawMessage{}
	for _, k := range []string{"slot", "parent_hash", "block_hash", "builder_pubkey", "proposer_pubkey", "proposer_fee_recipient", "gas_limit", "gas_used", "value"} {
		keep[k] = all[k]
	}
	raw, _ := json.Marshal(keep)
	var tr beacon.BidTrace
	if err := json.Unmarshal(raw, &tr); err != nil {
		t.Fatalf("BidTrace of %s: %v", row, err)
	}
	return tr
}

func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", u, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("GET %s: %v in %s", u, err, body)
	}
}

// TestVerifyOnDev: on one `gavel --dev`, which is its own L2, a bidder pays
// for a beta bundle of slot S and, once S's block is delivered, its
// delivered block hash is in builder_blocks_received (built by the relay),
// beta_slots shows the bundle included, and `gavel auction verify --slot S`
// with the node's URL alone (contracts and slot clock discovered) says the
// slot was honored.
func TestVerifyOnDev(t *testing.T) {
	var svc *devauction.Service
	n := testnode.New(t, testnode.Options{Register: func(n *eth.Node) error {
		svc = devauction.Register(n.Stack(), devauction.Config{})
		return nil
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	stop := n.StepOnNewTxs()
	dev, err := svc.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	op, err := svc.OperatorClient(ctx, n.Client())
	if err != nil {
		t.Fatal(err)
	}
	chainID := big.NewInt(params.DevChainID)
	b1 := auction.NewClient(n.Client(), dev.Addresses, bind.NewKeyedTransactor(params.DevBidderKeys()[0].Key, chainID))
	slot := n.Beacon().HeadSlot() + 60
	must := func(_ *types.Receipt, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(op.OpenAuction(ctx, slot, 1_000_000))
	must(b1.PlaceBids(ctx, slot, []auction.Bid{{Price: big.NewInt(gparams.GWei), Gas: 500_000}}))
	must(op.Settle(ctx, slot))
	to := common.Address{0xbe, 0x7a}
	var txs []*types.Transaction
	for nonce := uint64(0); nonce < 2; nonce++ {
		txs = append(txs, types.MustSignNewTx(testnode.Account(4).Key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
			ChainID: chainID, Nonce: nonce, GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000, To: &to, Value: big.NewInt(1)}))
	}
	h := bundle.Hash(txs)
	must(b1.Pay(ctx, slot, 100_000, []common.Hash{h}))
	stop()
	if head := n.Beacon().HeadSlot(); head >= slot-1 {
		t.Fatalf("the set-up took until slot %d, past the target %d", head, slot)
	}
	for n.Beacon().HeadSlot() < slot-1 {
		n.Step()
	}
	raw := make([]hexutil.Bytes, len(txs))
	for i, tx := range txs {
		raw[i], _ = tx.MarshalBinary()
	}
	if err := n.RPC().CallContext(ctx, new(common.Hash), "mev_sendBetaBundle", map[string]any{"txs": raw, "slot": strconv.FormatUint(slot, 10)}); err != nil {
		t.Fatal(err)
	}
	n.Step()

	// The delivered block is among the bid traces, built by the relay, and
	// beta_slots shows the bundle included.
	q := "?slot=" + strconv.FormatUint(slot, 10)
	var delivered []struct {
		BlockHash beacon.Root `json:"block_hash"`
	}
	getJSON(t, n.MEVURL()+"/relay/v1/data/bidtraces/proposer_payload_delivered"+q, &delivered)
	if len(delivered) != 1 {
		t.Fatalf("delivered records of slot %d: %d", slot, len(delivered))
	}
	var received []json.RawMessage
	getJSON(t, n.MEVURL()+"/relay/v1/data/bidtraces/builder_blocks_received?block_hash="+delivered[0].BlockHash.String(), &received)
	if len(received) != 1 || bidTraceOf(t, received[0]).BuilderPubkey != n.Relay().Relay().Pubkey() {
		t.Fatalf("builder_blocks_received for the delivered block %s: %s", delivered[0].BlockHash, received)
	}
	var slots []struct {
		Bundles []struct {
			Hash     common.Hash `json:"bundle_hash"`
			Included string      `json:"included"`
		} `json:"bundles"`
	}
	getJSON(t, n.MEVURL()+"/relay/v1/data/beta_slots"+q, &slots)
	if len(slots) != 1 || len(slots[0].Bundles) != 1 || slots[0].Bundles[0].Hash != h || slots[0].Bundles[0].Included != "2 of 2" {
		t.Fatalf("beta_slots of slot %d: %+v", slot, slots)
	}

	var out bytes.Buffer
	app := &cli.App{Name: "gavel", Commands: []*cli.Command{Command()}, Writer: &out, ErrWriter: &out}
	if err := app.Run([]string{"gavel", "auction", "verify", "--l2rpc", n.HTTPURL(), "--slot", strconv.FormatUint(slot, 10)}); err != nil {
		t.Fatalf("verify: %v\n%s", err, out.String())
	}
	if s := out.String(); !strings.Contains(s, h.Hex()+"  ok: included 2 of 2") || !strings.Contains(s, fmt.Sprintf("slot %d honored", slot)) {
		t.Fatalf("verify on the dev node:\n%s", s)
	}
}
