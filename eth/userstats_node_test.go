package eth_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/internal/testnode"
)

// restCallBundle posts body to the MEV listener's REST /eth_callBundle,
// signed with key as the JSON-RPC calls are (nil: unsigned; sig overrides
// the header), and returns the status.
func restCallBundle(t *testing.T, n *testnode.Node, key []byte, sig string, body string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, strings.TrimSuffix(n.MEVURL(), "/")+"/eth_callBundle", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != nil {
		k, _ := crypto.ToECDSA(key)
		s, err := crypto.Sign(accounts.TextHash([]byte(hexutil.Encode(crypto.Keccak256([]byte(body))))), k)
		if err != nil {
			t.Fatal(err)
		}
		s[64] += 27
		sig = crypto.PubkeyToAddress(k.PublicKey).Hex() + ":" + hexutil.Encode(s)
	}
	if sig != "" {
		req.Header.Set("X-Flashbots-Signature", sig)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK {
		var res struct{ TotalGasUsed uint64 }
		if json.Unmarshal(raw, &res) != nil || res.TotalGasUsed != 42000 {
			t.Fatalf("REST eth_callBundle: %s", raw)
		}
	}
	return resp.StatusCode
}

// TestUserStatsV2Amounts: a searcher simulates a bundle (JSON-RPC and
// signed REST eth_callBundle) and sends one that a --dev node includes; its
// flashbots_getUserStatsV2 shows the gas simulated and what the bundle paid
// the fee recipient (tips plus a direct transfer), as decimal strings, in
// all three windows. Another signer sees only its own simulation; unsigned
// simulations count for no one.
func TestUserStatsV2Amounts(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	feeRecipient := n.Step().Coinbase
	cfg := n.Chain().Config()
	signer := types.LatestSignerForChainID(cfg.ChainID)
	from := testnode.Account(2).Key
	to := common.Address{0x77}
	tip := types.MustSignNewTx(from, signer, &types.DynamicFeeTx{
		ChainID: cfg.ChainID, Nonce: 0, GasTipCap: big.NewInt(2e9), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(1),
	})
	direct := big.NewInt(3e15) // paid to the fee recipient in the bundle's second tx
	bribe := types.MustSignNewTx(from, signer, &types.DynamicFeeTx{
		ChainID: cfg.ChainID, Nonce: 1, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &feeRecipient, Value: direct,
	})
	var txs []string
	for _, tx := range []*types.Transaction{tip, bribe} {
		raw, _ := tx.MarshalBinary()
		txs = append(txs, hexutil.Encode(raw))
	}
	target := fmt.Sprintf("0x%x", n.Chain().Head().Number.Uint64()+1)
	callArgs := map[string]any{"txs": txs, "blockNumber": target, "stateBlockNumber": "latest"}
	restBody, _ := json.Marshal(callArgs)

	a, b := newEthersClient(t, n.MEVURL()), newEthersClient(t, n.MEVURL())
	// a: one JSON-RPC and one signed REST simulation of 42,000 gas each.
	if sim := a.ok("eth_callBundle", callArgs); string(sim["totalGasUsed"]) != "42000" {
		t.Fatalf("eth_callBundle: %v", sim)
	}
	if st := restCallBundle(t, n, a.key, "", string(restBody)); st != http.StatusOK {
		t.Fatalf("signed REST eth_callBundle: %d", st)
	}
	// Unsigned, and badly signed: nobody's.
	if st := restCallBundle(t, n, nil, "", string(restBody)); st != http.StatusOK {
		t.Fatalf("unsigned REST eth_callBundle: %d", st)
	}
	if st := restCallBundle(t, n, nil, crypto.PubkeyToAddress(testnode.Account(3).Key.PublicKey).Hex()+":0x1234", string(restBody)); st != http.StatusUnauthorized {
		t.Fatalf("badly signed REST eth_callBundle: %d, want 401", st)
	}
	// b: one JSON-RPC simulation.
	b.ok("eth_callBundle", callArgs)

	// a sends the bundle; the next block holds it (its top-of-block
	// simulation counts 42,000 gas), the block after makes it count as
	// included, with its payment.
	a.ok("eth_sendBundle", map[string]any{"txs": txs, "blockNumber": target})
	n.Step()
	n.Step()

	ctx := context.Background()
	paid := new(big.Int).Set(direct)
	for _, tx := range []*types.Transaction{tip, bribe} {
		rc, err := n.Client().TransactionReceipt(ctx, tx.Hash())
		if err != nil {
			t.Fatalf("bundle tx not included: %v", err)
		}
		h, err := n.Client().HeaderByNumber(ctx, rc.BlockNumber)
		if err != nil {
			t.Fatal(err)
		}
		perGas := new(big.Int).Sub(rc.EffectiveGasPrice, h.BaseFee)
		paid.Add(paid, perGas.Mul(perGas, new(big.Int).SetUint64(rc.GasUsed)))
	}

	check := func(c *ethersClient, gas, payments, bundles, requests string) {
		t.Helper()
		latest := fmt.Sprintf("0x%x", n.Chain().Head().Number.Uint64())
		us := c.ok("flashbots_getUserStatsV2", map[string]any{"blockNumber": latest})
		for _, w := range []string{"allTime", "last7d", "last1d"} {
			if g := jsString(t, w+"GasSimulated", us[w+"GasSimulated"]); g != gas {
				t.Errorf("%sGasSimulated %s, want %s", w, g, gas)
			}
			if p := jsString(t, w+"ValidatorPayments", us[w+"ValidatorPayments"]); p != payments {
				t.Errorf("%sValidatorPayments %s, want %s", w, p, payments)
			}
		}
		if string(us["bundles"]) != bundles || string(us["requests"]) != requests {
			t.Errorf("bundles %s, requests %s; want %s, %s", us["bundles"], us["requests"], bundles, requests)
		}
	}
	// a's requests: eth_callBundle, the signed REST call, eth_sendBundle
	// and this getUserStatsV2; b's: eth_callBundle and getUserStatsV2.
	check(a, "126000", paid.String(), "1", "4")
	check(b, "42000", "0", "0", "2")
	fresh := newEthersClient(t, n.MEVURL())
	check(fresh, "0", "0", "0", "1")
}
