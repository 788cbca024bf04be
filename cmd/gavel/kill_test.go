package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/internal/store/pgtest"
	"github.com/gavel-eth/gavel/params"
)

// TestSIGKILLLosesNoAcknowledgedWrite runs `gavel --dev --store.url
// postgres://...` under load (beta bundles and validator registrations
// from the test, deliveries from the dev proposer) and kills it with
// SIGKILL. Every write the process acknowledged before it died must be in
// the database: each beta bundle answered 200, each registration answered
// 200 (or a newer one), the delivery record of each block the relay
// delivered onto the chain. The counts are logged.
func TestSIGKILLLosesNoAcknowledgedWrite(t *testing.T) {
	url := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "--dev", "--dev.period", "1s", "--ipcdisable",
		"--http.port", "0", "--authrpc.port", "0", "--mev.addr", "127.0.0.1:0", "--verbosity", "2", "--store.url", url)
	cmd.Env = append(os.Environ(), "GAVEL_TEST_MAIN=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	t.Cleanup(func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	urls := map[string]string{}
	lineRe := regexp.MustCompile(`^\s+(JSON-RPC \(HTTP\)|MEV listener)\s+(\S+)`)
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if m := lineRe.FindStringSubmatch(sc.Text()); m != nil {
			urls[m[1]] = m[2]
		}
		if strings.HasPrefix(sc.Text(), "These keys are public") {
			break
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	rpcURL, mev := urls["JSON-RPC (HTTP)"], urls["MEV listener"]
	if rpcURL == "" || mev == "" {
		t.Fatalf("no URLs in the banner; stderr: %s", stderr.String())
	}
	client, err := ethclient.DialContext(ctx, rpcURL)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	genesis, err := client.HeaderByNumber(ctx, big.NewInt(0))
	if err != nil {
		t.Fatal(err)
	}
	chainID, _ := client.ChainID(ctx)
	bcfg := params.DevBeaconConfig(genesis.Time, 1, devbeacon.DevGenesisValidatorsRoot(genesis.Hash()))
	vals, err := devbeacon.DevValidators(devbeacon.DefaultValidators)
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	ackedBundles := []common.Hash{}
	ackedRegs := map[beacon.BLSPubkey]beacon.ValidatorRegistration{} // newest acknowledged
	ackedRounds := 0
	stop := make(chan struct{})
	var wg sync.WaitGroup
	post := func(path string, body []byte) (int, []byte, error) {
		res, err := http.Post(mev+path, "application/json", bytes.NewReader(body))
		if err != nil {
			return 0, nil, err
		}
		defer res.Body.Close()
		var out bytes.Buffer
		out.ReadFrom(res.Body)
		return res.StatusCode, out.Bytes(), nil
	}
	// Beta bundles: zero-tip transfers for two slots ahead.
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			key := params.DevAccounts()[3+w].Key
			signer := types.LatestSignerForChainID(chainID)
			for nonce := uint64(0); nonce < 5000; nonce++ {
				select {
				case <-stop:
					return
				default:
				}
				to := common.Address{byte(w + 1)}
				tx, _ := types.SignNewTx(key, signer, &types.DynamicFeeTx{ChainID: chainID, Nonce: nonce, GasTipCap: common.Big0,
					GasFeeCap: big.NewInt(100e9), Gas: 21000, To: &to, Value: big.NewInt(1)})
				raw, _ := tx.MarshalBinary()
				slot := bcfg.SlotAt(uint64(time.Now().Unix())) + 2
				body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "mev_sendBetaBundle",
					"params": []any{map[string]any{"txs": []hexutil.Bytes{raw}, "slot": fmt.Sprint(slot)}}})
				code, out, err := post("/", body)
				if err != nil {
					return // the process is gone
				}
				var r struct {
					Result common.Hash
					Error  *struct{ Message string }
				}
				if code == 200 && json.Unmarshal(out, &r) == nil && r.Error == nil {
					mu.Lock()
					ackedBundles = append(ackedBundles, r.Result)
					mu.Unlock()
				}
			}
		}()
	}
	// Registrations: every validator, its gas limit alternating between the
	// chain's and one less (both pass the gas-limit rule), so each round is
	// a change that is written.
	wg.Add(1)
	go func() {
		defer wg.Done()
		dom := beacon.BuilderDomain(bcfg)
		for round := 1; round < 5000; round++ {
			select {
			case <-stop:
				return
			default:
			}
			ts := uint64(time.Now().Unix()) + 5
			regs := make([]beacon.SignedValidatorRegistration, len(vals))
			for i, v := range vals {
				msg := beacon.ValidatorRegistration{FeeRecipient: beacon.Address(v.FeeRecipient),
					GasLimit: genesis.GasLimit - uint64(round%2), Timestamp: ts + uint64(i), Pubkey: v.Pubkey}
				sig, err := v.Key.Sign(&msg, dom)
				if err != nil {
					t.Error(err)
					return
				}
				regs[i] = beacon.SignedValidatorRegistration{Message: msg, Signature: sig}
			}
			body, _ := json.Marshal(regs)
			code, _, err := post("/eth/v1/builder/validators", body)
			if err != nil {
				return
			}
			if code == 200 {
				mu.Lock()
				ackedRounds++
				for _, r := range regs {
					if r.Message.Timestamp > ackedRegs[r.Message.Pubkey].Timestamp {
						ackedRegs[r.Message.Pubkey] = r.Message
					}
				}
				mu.Unlock()
			}
		}
	}()

	// Let the load run for a few slots, then kill the process.
	var relayBlocks []*types.Header
	for n := uint64(1); n <= 5; n++ {
		var h *types.Header
		for h == nil {
			if h, _ = client.HeaderByNumber(ctx, new(big.Int).SetUint64(n)); h == nil {
				select {
				case <-ctx.Done():
					t.Fatalf("block %d never came: %s", n, stderr.String())
				case <-time.After(50 * time.Millisecond):
				}
			}
		}
		if h.Coinbase == chain.DevBuilderAddress() {
			relayBlocks = append(relayBlocks, h)
		}
	}
	cmd.Process.Kill()
	killed = true
	cmd.Wait()
	close(stop)
	wg.Wait()

	st, err := store.OpenPostgres(url, store.PostgresConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	dctx := context.Background()
	for _, h := range ackedBundles {
		if _, err := st.BetaBundle(dctx, h); err != nil {
			t.Fatalf("acknowledged beta bundle %s lost: %v", h, err)
		}
	}
	// A registration equal to the stored one but for its timestamp is
	// acknowledged without a write (the relay skips unchanged ones).
	for pk, acked := range ackedRegs {
		r, err := st.Registration(dctx, pk)
		if err != nil {
			t.Fatalf("acknowledged registration of %s lost: %v", pk, err)
		}
		m := r.Message
		if m.Timestamp < acked.Timestamp && (m.FeeRecipient != acked.FeeRecipient || m.GasLimit != acked.GasLimit) {
			t.Fatalf("acknowledged registration of %s lost:\nstored %+v\nacked  %+v", pk, m, acked)
		}
	}
	for _, h := range relayBlocks {
		bh := beacon.Root(h.Hash())
		ds, err := st.DeliveredPayloads(dctx, store.DeliveredQuery{BlockHash: &bh})
		if err != nil || len(ds) != 1 {
			t.Fatalf("delivery of block %d (%s) on chain but not recorded: %v", h.Number, h.Hash(), err)
		}
	}
	if len(ackedBundles) == 0 || len(ackedRegs) == 0 || len(relayBlocks) == 0 {
		t.Fatalf("no load: %d beta bundles, %d registrations, %d relay blocks acknowledged", len(ackedBundles), len(ackedRegs), len(relayBlocks))
	}
	t.Logf("after SIGKILL: %d acknowledged beta bundles, %d acknowledged registration requests (%d validators), %d delivered blocks: all in the database",
		len(ackedBundles), ackedRounds, len(ackedRegs), len(relayBlocks))
}
