package relayapi_test

import (
	"context"
	"encoding/json"
	"math/big"
	"strconv"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
	"github.com/gavel-eth/gavel/params"
)

// betaServer is server with a beta service: l2 stands in for the L2
// settlement, read once as the service's background reads would.
func betaServer(tb testing.TB, l2 *relaytest.Settlement) (*relaytest.Env, string, *betapool.Service) {
	tb.Helper()
	holder := &relaytest.BetaHolder{}
	e, base := serverWith(tb, relaytest.Options{Configure: func(c *relay.Config) { c.Beta = holder }})
	holder.Service = e.BetaService(tb, l2, nil)
	holder.Service.Refresh(context.Background(), 0)
	return e, base, holder.Service
}

// TestBetaRoomHTTP: over the HTTP builder API, the validators list carries
// the slot's beta_gas, and a submission whose gas use leaves less than it
// of the gas limit gets a 400 saying so; one that leaves the room is
// accepted.
func TestBetaRoomHTTP(t *testing.T) {
	const betaGas = relaytest.GasLimit - 100_000
	e, base, _ := betaServer(t, &relaytest.Settlement{Items: map[uint64]uint64{1: betaGas}})
	registerHTTP(t, e, base, false)
	var duties []struct {
		Slot    string `json:"slot"`
		BetaGas string `json:"beta_gas"`
	}
	code, _, out := do(t, "GET", base+relayapi.PathBuilderValidators, nil, nil)
	// The list starts at the epoch's first slot (0), the head's.
	if code != 200 || json.Unmarshal(out, &duties) != nil || len(duties) < 2 || duties[1].Slot != "1" || duties[1].BetaGas != strconv.Itoa(betaGas) {
		t.Fatalf("validators: %d %s, want slot 1 with beta_gas %d", code, out, betaGas)
	}
	ssz := map[string]string{"Content-Type": "application/octet-stream"}
	// Ten transfers and the payment use 231,000 gas: 100,000 are left.
	full, _ := e.Submission(e.BuildBlock(1, 10, nil)).MarshalSSZ()
	code, _, out = do(t, "POST", base+relayapi.PathBuilderBlocks, full, ssz)
	want := "block leaves no room for the beta block: gas used 231000 of limit 30000000 leaves 29769000, expected at least beta_gas 29900000 for slot 1"
	if code != 400 || errorMessage(t, out) != want {
		t.Fatalf("submission without room for beta: %d %s, want 400 %q", code, out, want)
	}
	// One transfer and the payment (42,000 gas) leave the room.
	small, _ := e.Submission(e.BuildBlock(1, 1, nil)).MarshalSSZ()
	if code, _, out = do(t, "POST", base+relayapi.PathBuilderBlocks, small, ssz); code != 200 {
		t.Fatalf("submission leaving room for beta: %d %s", code, out)
	}
}

// paidBetaBundle sends a one-transfer beta bundle for slot to beta's pool
// and pays for it in l2 (21,000 gas), which beta then reads: the relay
// merges it into slot's top bid.
func paidBetaBundle(tb testing.TB, beta *betapool.Service, l2 *relaytest.Settlement, slot uint64) {
	tb.Helper()
	to := common.Address{0xbe}
	tx := types.MustSignNewTx(params.DevAccounts()[5].Key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000, To: &to})
	raw, _ := tx.MarshalBinary()
	s := strconv.FormatUint(slot, 10)
	h, err := beta.Pool().Add(context.Background(), bundle.BetaBundleArgs{Txs: []string{hexutil.Encode(raw)}, Slot: &s}, common.Address{})
	if err != nil {
		tb.Fatal(err)
	}
	l2.Pay(slot, 21000, h)
	l2.Sell(slot, 21000)
	beta.Refresh(context.Background(), 0)
}
