package eth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/internal/testnode"
)

func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode == http.StatusOK && v != nil {
		if err := json.Unmarshal(raw, v); err != nil {
			t.Fatalf("GET %s: %v: %s", url, err, raw)
		}
	}
	return res.StatusCode
}

// TestDevChainThroughRelay steps a dev node and checks that every block came
// through the relay: the validators endpoint lists duties, each delivered
// payload is the chain's block at that number and pays the slot's dev
// validator, builder_blocks_received lists the dev builder's submissions and
// validator_registration returns the dev validators' registrations.
func TestDevChainThroughRelay(t *testing.T) {
	dir := t.TempDir()
	n := testnode.New(t, testnode.Options{DataDir: dir})
	if n.Relay() == nil {
		t.Fatal("dev node has no relay")
	}
	// A user transaction, so blocks carry fees besides the payment.
	acc := testnode.Account(1)
	to := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	tx, _ := types.SignNewTx(acc.Key, types.LatestSignerForChainID(big.NewInt(1337)), &types.DynamicFeeTx{
		ChainID: big.NewInt(1337), Nonce: 0, GasTipCap: big.NewInt(2e9), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(1),
	})
	if err := n.Client().SendTransaction(context.Background(), tx); err != nil {
		t.Fatal(err)
	}
	vals, _ := devbeacon.DevValidators(devbeacon.DefaultValidators)
	var heads []*types.Header
	for i := 0; i < 3; i++ {
		heads = append(heads, n.Step())
	}
	base := n.MEVURL()

	var duties []struct {
		Slot           string          `json:"slot"`
		ValidatorIndex string          `json:"validator_index"`
		Entry          json.RawMessage `json:"entry"`
		BetaGas        string          `json:"beta_gas"`
	}
	if code := getJSON(t, base+"/relay/v1/builder/validators", &duties); code != 200 || len(duties) == 0 {
		t.Fatalf("validators: %d, %d duties", code, len(duties))
	}
	if duties[0].BetaGas != "" {
		// No auction contracts on this chain (the dev auction is off): the
		// L2 read fails, so the slot's beta_gas is not known and left out.
		t.Errorf("beta_gas %q, want it left out (never read)", duties[0].BetaGas)
	}

	var delivered []struct {
		Slot                 string `json:"slot"`
		BlockHash            string `json:"block_hash"`
		BlockNumber          string `json:"block_number"`
		ProposerFeeRecipient string `json:"proposer_fee_recipient"`
		Value                string `json:"value"`
	}
	if code := getJSON(t, base+"/relay/v1/data/bidtraces/proposer_payload_delivered", &delivered); code != 200 {
		t.Fatalf("delivered: %d", code)
	}
	if len(delivered) != len(heads) {
		t.Fatalf("%d delivered payloads, want %d", len(delivered), len(heads))
	}
	for _, d := range delivered {
		num, _ := strconv.ParseUint(d.BlockNumber, 10, 64)
		h, err := n.Chain().HeaderByNumber(num)
		if err != nil {
			t.Fatal(err)
		}
		if h.Hash().Hex() != d.BlockHash {
			t.Errorf("delivered block %d is %s, chain has %s", num, d.BlockHash, h.Hash().Hex())
		}
		slot, _ := strconv.ParseUint(d.Slot, 10, 64)
		want := devbeacon.ProposerOf(vals, slot).FeeRecipient
		if common.HexToAddress(d.ProposerFeeRecipient) != want {
			t.Errorf("slot %d paid %s, want %s", slot, d.ProposerFeeRecipient, want.Hex())
		}
		if h.Coinbase != eth.DevBuilderCoinbase() {
			t.Errorf("block %d coinbase %s, want the dev builder's", num, h.Coinbase.Hex())
		}
	}
	if err := n.Relay().FlushTraces(context.Background()); err != nil { // bid traces are written in batches
		t.Fatal(err)
	}
	var received []json.RawMessage
	if code := getJSON(t, base+"/relay/v1/data/bidtraces/builder_blocks_received?slot="+delivered[0].Slot, &received); code != 200 || len(received) == 0 {
		t.Fatalf("builder_blocks_received: %d, %d rows", code, len(received))
	}
	var reg struct {
		Message struct {
			FeeRecipient string `json:"fee_recipient"`
		} `json:"message"`
	}
	if code := getJSON(t, base+"/relay/v1/data/validator_registration?pubkey="+vals[0].Pubkey.String(), &reg); code != 200 {
		t.Fatalf("validator_registration: %d", code)
	}
	if common.HexToAddress(reg.Message.FeeRecipient) != vals[0].FeeRecipient {
		t.Errorf("registration fee recipient %s, want %s", reg.Message.FeeRecipient, vals[0].FeeRecipient.Hex())
	}
}

// TestDevSampleSubmission: mev_devSampleSubmission gives a submission that
// the relay's builder API accepts as it is, for the next slot, paying the
// proposer (value above 0), so that the relay verifies it and lists it in
// builder_blocks_received.
func TestDevSampleSubmission(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	n.Step()
	var sub json.RawMessage
	if err := n.RPC().Call(&sub, "mev_devSampleSubmission"); err != nil {
		t.Fatal(err)
	}
	var trace struct {
		Message struct {
			Slot      string `json:"slot"`
			BlockHash string `json:"block_hash"`
			Value     string `json:"value"`
		} `json:"message"`
	}
	if err := json.Unmarshal(sub, &trace); err != nil || trace.Message.Value == "" || trace.Message.Value == "0" {
		t.Fatalf("sample bid value %q (%v): the relay drops a bid of value 0 unverified", trace.Message.Value, err)
	}
	res, err := http.Post(n.MEVURL()+"/relay/v1/builder/blocks", "application/json", bytes.NewReader(sub))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("POST /relay/v1/builder/blocks with the sample: %d %s", res.StatusCode, raw)
	}
	// Verified: it is among the slot's received blocks.
	if err := n.Relay().FlushTraces(context.Background()); err != nil {
		t.Fatal(err)
	}
	var received []struct {
		BlockHash string `json:"block_hash"`
	}
	getJSON(t, n.MEVURL()+"/relay/v1/data/bidtraces/builder_blocks_received?slot="+trace.Message.Slot, &received)
	found := false
	for _, r := range received {
		found = found || r.BlockHash == trace.Message.BlockHash
	}
	if !found {
		t.Fatalf("the sample %s is not in builder_blocks_received of slot %s: %+v", trace.Message.BlockHash, trace.Message.Slot, received)
	}
	// The chain goes on: the next slot is built (from the sample or the dev
	// builder, whichever bid is higher).
	if head := n.Step(); head.Number.Uint64() != 2 {
		t.Fatalf("head %d after the sample's slot", head.Number)
	}
}

// TestMethodNotAllowed: on the node's MEV listener a known path asked with
// the wrong method is 405 with Allow, an unknown path 404.
func TestMethodNotAllowed(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	for _, tc := range []struct {
		method, path string
		status       int
		allow        string
	}{
		{http.MethodGet, "/relay/v1/builder/blocks", 405, "POST"},
		{http.MethodGet, "/eth_callBundle", 405, "POST"},
		{http.MethodGet, "/v1", 405, "POST"},
		{http.MethodDelete, "/", 405, "GET, HEAD, POST"}, // GET /: the status page
		{http.MethodPost, "/readyz", 405, "GET, HEAD"},
		{http.MethodPost, "/relay/v1/data/bidtraces/proposer_payload_delivered", 405, "GET, HEAD"},
		{http.MethodDelete, "/eth/v1/builder/validators", 405, "POST"},
		{http.MethodGet, "/no/such/path", 404, ""},
	} {
		req, _ := http.NewRequest(tc.method, n.MEVURL()+tc.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.status || res.Header.Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d Allow %q, want %d Allow %q", tc.method, tc.path, res.StatusCode, res.Header.Get("Allow"), tc.status, tc.allow)
		}
	}
}
