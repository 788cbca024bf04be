package eth_test

import (
	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/internal/rpctest"
	"github.com/gavel-eth/gavel/internal/testnode"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
	"github.com/gavel-eth/gavel/mevapi/reqsig"
)

// TestErrorClasses sends, on every API surface of a dev node, requests that
// are the client's mistake (never a 500: a 4xx with a message) and, once the
// node's database has failed, requests that need it (500 "internal server
// error", details only in the log).
func TestErrorClasses(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	url := n.MEVURL()
	vals, err := devbeacon.DevValidators(devbeacon.DefaultValidators)
	if err != nil {
		t.Fatal(err)
	}
	bcfg := n.Relay().Relay().BeaconConfig()
	reg, err := vals[0].Registration(bcfg, 30_000_000, uint64(time.Now().Unix()))
	if err != nil {
		t.Fatal(err)
	}
	regs, _ := json.Marshal([]any{reg})
	stranger, _ := devbeacon.DevValidators(devbeacon.DefaultValidators + 1)
	strangerReg, _ := stranger[devbeacon.DefaultValidators].Registration(bcfg, 30_000_000, uint64(time.Now().Unix()))
	strangerRegs, _ := json.Marshal([]any{strangerReg})
	pk := vals[0].Pubkey.String()
	beta := betaTx(t, n)
	slot := strconv.FormatUint(n.Beacon().CurrentSlot()+2, 10)
	rpc := rpctest.Body

	type request struct {
		name, method, path string
		body               []byte
	}
	clientMistakes := []request{
		{"builder: submission not JSON", "POST", relayapi.PathBuilderBlocks, []byte(`{"message":`)},
		{"builder: submission empty object", "POST", relayapi.PathBuilderBlocks, []byte(`{}`)},
		{"proposer: registrations not JSON", "POST", relayapi.PathRegisterValidator, []byte(`[{`)},
		{"proposer: unknown validator", "POST", relayapi.PathRegisterValidator, strangerRegs},
		{"proposer: header with a bad pubkey", "GET", "/eth/v1/builder/header/1/0x" + strings.Repeat("00", 32) + "/0x12", nil},
		{"proposer: blinded block not JSON", "POST", "/eth/v1/builder/blinded_blocks", []byte(`{`)},
		{"data: bad slot", "GET", relayapi.PathDataPayloadDelivered + "?slot=x", nil},
		{"data: unregistered validator", "GET", relayapi.PathDataValidatorRegistation + "?pubkey=" + stranger[devbeacon.DefaultValidators].Pubkey.String(), nil},
		{"bundle REST: no txs", "POST", "/eth_callBundle", []byte(`{"txs":[],"blockNumber":"0x1","stateBlockNumber":"latest"}`)},
		{"json-rpc: eth_sendBundle without txs", "POST", "/", rpc("eth_sendBundle", map[string]any{"txs": []string{}, "blockNumber": "0x5"})},
		{"json-rpc: eth_callBundle bad tx", "POST", "/", rpc("eth_callBundle", map[string]any{"txs": []string{"0x01"}, "blockNumber": "0x1", "stateBlockNumber": "latest"})},
		{"json-rpc: mev_sendBetaBundle slot too far", "POST", "/", rpc("mev_sendBetaBundle", map[string]any{"txs": []hexutil.Bytes{beta}, "slot": "100000000"})},
		{"json-rpc: mev_getBetaBundle unknown", "POST", "/", rpc("mev_getBetaBundle", common.Hash{1})},
		{"json-rpc: mev_getUserStats unknown signer", "POST", "/", rpc("mev_getUserStats", common.Address{1})},
	}
	for _, r := range clientMistakes {
		status, body := send(t, r.method, url+r.path, r.body)
		if status < 400 || status >= 500 {
			t.Errorf("%s: status %d (%s), want a 4xx", r.name, status, body)
		}
		if strings.Contains(body, "internal server error") {
			t.Errorf("%s: answered %s", r.name, body)
		}
	}

	if err := eth.StoreOf(n.Node).Close(); err != nil {
		t.Fatal(err)
	}
	internalFaults := []request{
		{"proposer: registration not saved", "POST", relayapi.PathRegisterValidator, regs},
		{"data: delivered payloads", "GET", relayapi.PathDataPayloadDelivered + "?slot=1", nil},
		{"data: builder blocks", "GET", relayapi.PathDataBuilderBlocks + "?slot=1", nil},
		{"data: validator registration", "GET", relayapi.PathDataValidatorRegistation + "?pubkey=" + pk, nil},
		{"json-rpc: mev_sendBetaBundle not stored", "POST", "/", rpc("mev_sendBetaBundle", map[string]any{"txs": []hexutil.Bytes{beta}, "slot": slot})},
		{"json-rpc: mev_getBetaBundle", "POST", "/", rpc("mev_getBetaBundle", common.Hash{1})},
	}
	for _, r := range internalFaults {
		status, body := send(t, r.method, url+r.path, r.body)
		if status != http.StatusInternalServerError || !strings.Contains(body, `"internal server error"`) || strings.Contains(body, "closed") {
			t.Errorf("%s: %d %s, want 500 internal server error", r.name, status, body)
		}
	}
	// mev_getUserStats reads the database only for its own signer.
	key, _ := crypto.GenerateKey()
	stats := rpc("mev_getUserStats", crypto.PubkeyToAddress(key.PublicKey))
	sig, _ := reqsig.Sign(stats, key)
	if status, r := rpctest.Post(t, url+"/", stats, map[string]string{reqsig.HeaderEthereum: sig}); status != http.StatusInternalServerError || r.Error == nil || r.Error.Message != "internal server error" {
		t.Errorf("json-rpc: mev_getUserStats: %d %+v, want 500 internal server error", status, r.Error)
	}
}

func send(t *testing.T, method, url string, body []byte) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, bytes.NewReader(body))
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(raw)
}

// betaTx is a valid zero-tip beta transaction of dev account 1.
func betaTx(t *testing.T, n *testnode.Node) hexutil.Bytes {
	acc := testnode.Account(1)
	to := common.Address{0x77}
	id := n.Chain().Config().ChainID
	tx, err := types.SignNewTx(acc.Key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		ChainID: id, GasFeeCap: big.NewInt(50e9), Gas: 21000, To: &to, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return raw
}
