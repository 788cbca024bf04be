package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/params"
)

var (
	betaBytes = flag.Int("betabytes", 400_000, "betafill: zero bytes of calldata in each beta bundle's one tx")
	betaSlots = flag.Uint64("betaslots", 16, "betafill: the bundles go to the next this many slots in turn")
	betaMax   = flag.Int("betamax", 200, "betafill: bundles each address sends at most")
)

// currentSlot is the target's slot clock (mev_nodeInfo).
func currentSlot() uint64 {
	_, r, _ := rpcCall(*rpcURL, "mev_nodeInfo")
	var info struct {
		CurrentSlot uint64 `json:"currentSlot"`
	}
	json.Unmarshal(r, &info)
	return info.CurrentSlot
}

// betaTx is a zero-tip transfer by funded dev account acc carrying n zero
// bytes of calldata under a gas limit that covers them (EIP-7623's floor).
func betaTx(acc int, nonce uint64, n int) string {
	to := common.Address{1}
	tx := types.MustSignNewTx(params.DevAccounts()[acc].Key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), Nonce: nonce, GasTipCap: new(big.Int), GasFeeCap: big.NewInt(10e9),
		Gas: 31_000 + 10*uint64(n), To: &to, Data: make([]byte, n)})
	raw, _ := tx.MarshalBinary()
	return hexutil.Encode(raw)
}

// sendBeta posts one mev_sendBetaBundle from client address src and
// returns the answer: "200", or the HTTP status and the error's start.
func sendBeta(client *http.Client, tx string, slot uint64) string {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "mev_sendBetaBundle",
		"params": []any{map[string]any{"txs": []string{tx}, "slot": strconv.FormatUint(slot, 10)}}})
	res, err := client.Post(*target, "application/json", strings.NewReader(string(body)))
	if err != nil {
		return "error"
	}
	defer res.Body.Close()
	var out struct {
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	json.NewDecoder(res.Body).Decode(&out)
	if out.Error == nil {
		return strconv.Itoa(res.StatusCode)
	}
	msg, _, _ := strings.Cut(out.Error.Message, ":")
	return fmt.Sprintf("%d %s", res.StatusCode, msg)
}

// fillBeta is the beta store fill of issue 14's last gap: -spread client
// addresses (127.0.2.x) each send beta bundles of one tx of -betabytes
// zero bytes, signed by funded dev account 1 (the money check lets them
// in), for the next -betaslots slots in turn, until their quota refuses
// them, they sent -betamax, or the store is full even for a bundle without
// calldata (a full store makes them send smaller bundles).
func fillBeta() map[string]int {
	var mu sync.Mutex
	answers := map[string]int{}
	cur := currentSlot()
	var wg sync.WaitGroup
	for a := 0; a < max(1, min(*spread, 250)); a++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 2, byte(1+a))}, Timeout: 5 * time.Second}
			client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
				DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
					return d.DialContext(ctx, network, addr)
				}}}
			size := *betaBytes
			for i := 0; i < *betaMax; i++ {
				got := sendBeta(client, betaTx(1, uint64(a)<<20+uint64(i), size), cur+1+uint64(i)%*betaSlots)
				mu.Lock()
				answers[got]++
				mu.Unlock()
				switch {
				case strings.Contains(got, "quota"):
					return
				case strings.Contains(got, "store is full") && size == 0:
					return // full to the last byte
				case strings.Contains(got, "store is full"):
					size /= 4 // fill what is left with smaller bundles
					if size < 1000 {
						size = 0
					}
				}
			}
		}()
	}
	wg.Wait()
	return answers
}

// honestBeta sends one beta bundle of 1,000 zero bytes for the next slot
// from 127.0.0.1, signed by funded dev account 0, and reports the answer.
func honestBeta() string {
	_, r, _ := rpcCall(*rpcURL, "eth_getTransactionCount", params.DevAccounts()[0].Address, "latest")
	var nonce hexutil.Uint64
	json.Unmarshal(r, &nonce)
	t0 := time.Now()
	got := sendBeta(http.DefaultClient, betaTx(0, uint64(nonce), 1000), currentSlot()+1)
	return fmt.Sprintf("%s in %s", got, time.Since(t0).Round(100*time.Microsecond))
}
