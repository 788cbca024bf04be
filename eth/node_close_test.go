package eth_test

import (
	"errors"
	"maps"
	"math/big"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/internal/testnode"
)

// TestNewFailureStopsWhatItStarted: when eth.New fails late (the builder's
// configuration is rejected after the relay was built), nothing it started
// keeps running: no goroutine of gavel's is left once the stack is closed.
func TestNewFailureStopsWhatItStarted(t *testing.T) {
	ncfg := node.DefaultConfig
	ncfg.DataDir, ncfg.HTTPHost, ncfg.AuthPort, ncfg.IPCPath = "", "", 0, ""
	ncfg.AuthAddr = "127.0.0.1"
	ncfg.P2P = p2p.Config{MaxPeers: 0, NoDial: true, NoDiscovery: true}
	stack, err := node.New(&ncfg)
	if err != nil {
		t.Fatal(err)
	}
	ecfg := ethconfig.Defaults
	ecfg.Miner.PendingFeeRecipient = testnode.FeeRecipient
	ecfg.Miner.GasPrice = big.NewInt(1)
	gcfg := eth.DefaultConfig()
	gcfg.Listener.Addr = "127.0.0.1:0"
	gcfg.Dev.Enabled, gcfg.Dev.Manual = true, true
	gcfg.Builder.Enabled, gcfg.Builder.Relays = true, []string{"ftp://relay.invalid"}
	if err := eth.ConfigureDevEth(stack, &ecfg, gcfg.Dev); err != nil {
		t.Fatal(err)
	}
	before := gavelGoroutines(nil) // earlier tests' goroutines are not this test's
	if _, err := eth.New(stack, &ecfg, gcfg); !errors.Is(err, eth.ErrBuilderConfig) {
		t.Fatalf("eth.New with a builder relay that is not http(s): %v, want ErrBuilderConfig", err)
	}
	stack.Close()
	var left string
	for range 100 { // goroutines told to stop may take a moment to return
		if left = strings.Join(slices.Collect(maps.Values(gavelGoroutines(before))), "\n\n"); left == "" {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("goroutines still running after eth.New failed:\n%s", left)
}

// gavelGoroutines is the stacks of the running goroutines that run gavel's
// code, other than the tests', by goroutine header ("goroutine N"), leaving
// out those in skip.
func gavelGoroutines(skip map[string]string) map[string]string {
	buf := make([]byte, 1<<22)
	buf = buf[:runtime.Stack(buf, true)]
	out := map[string]string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		id, _, _ := strings.Cut(g, " [")
		if _, old := skip[id]; old {
			continue
		}
		if strings.Contains(g, "github.com/gavel-eth/gavel/") && !strings.Contains(g, "eth_test.") {
			out[id] = g
		}
	}
	return out
}
