package eth_test

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/params"
)

// TestNetworkSlotClock: on a custom network (chain id 32382, no preset,
// execution genesis at time 0) the node's slot clock is the beacon node's
// once the relay has its constants: mev_nodeInfo reports it (what `gavel
// auction operate --l1rpc` and `gavel bundle send-beta` read), and the beta
// pool takes a bundle for the beacon chain's next slots (it counted 12 s
// slots from the execution genesis, so every real slot had passed).
func TestNetworkSlotClock(t *testing.T) {
	var up atomic.Bool
	up.Store(true)
	lodestar := lodestarNode(t, &up)
	target, _ := url.Parse(lodestar.URL)
	// Genesis 1000 slots of 2 s ago: the beacon chain's current slot is
	// about 1000 whatever the machine's clock says.
	genesis := uint64(time.Now().Unix()) - 2000
	proxy := httputil.NewSingleHostReverseProxy(target)
	bn := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/eth/v1/beacon/genesis" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, fmt.Sprintf(`{"data":{"genesis_time":"%d","genesis_validators_root":"0x%s","genesis_fork_version":"0x03000000"}}`, genesis, strings.Repeat("ab", 32)))
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(bn.Close)

	stack, n := networkNode(t, bn.URL)
	ready := make(chan *relay.Relay, 1)
	n.Relay().OnReady(func(r *relay.Relay) { ready <- r })
	if err := stack.Start(); err != nil {
		t.Fatal(err)
	}
	<-ready
	client := stack.Attach()
	defer client.Close()
	chainID := big.NewInt(32382)
	to := common.Address{0xbe}
	// Account 2 is funded in testdata/custom-genesis.json: beta bundles pass
	// the admission check against the head state.
	tx := types.MustSignNewTx(params.DevAccounts()[2].Key, types.LatestSignerForChainID(chainID), &types.DynamicFeeTx{
		ChainID: chainID, GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000, To: &to, Value: big.NewInt(1)})
	raw, _ := tx.MarshalBinary()
	clock := params.SlotClock{GenesisTime: genesis, SecondsPerSlot: 2}
	now := clock.Now()
	slot := strconv.FormatUint(now+3, 10)
	var hash common.Hash
	if err := client.CallContext(context.Background(), &hash, "mev_sendBetaBundle", map[string]any{"txs": []string{hexutil.Encode(raw)}, "slot": slot}); err != nil {
		t.Fatalf("beta bundle for the beacon chain's slot %s: %v", slot, err)
	}
	past := strconv.FormatUint(now-10, 10)
	if err := client.CallContext(context.Background(), &hash, "mev_sendBetaBundle", map[string]any{"txs": []string{hexutil.Encode(raw)}, "slot": past}); err == nil {
		t.Fatalf("beta bundle for slot %s, which has passed, was taken", past)
	}

	var info eth.Info
	if err := client.Call(&info, "mev_nodeInfo"); err != nil {
		t.Fatal(err)
	}
	if info.Dev || info.GenesisTime != genesis || info.SlotSeconds != 2 || info.CurrentSlot < 1000 || info.CurrentSlot > clock.Now() {
		t.Fatalf("mev_nodeInfo %+v; want genesis %d, 2 s slots, current slot %d", info, genesis, clock.Now())
	}

}
