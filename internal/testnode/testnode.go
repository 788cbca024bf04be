// Package testnode starts an in-process gavel dev node for tests: the real
// geth chain, real HTTP JSON-RPC and the real MEV listener on free loopback
// ports, with slots advanced by hand (Step) instead of by the wall clock.
package testnode

import (
	"context"
	"math/big"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/eth"
	"github.com/gavel-eth/gavel/params"
)

// FeeRecipient is the fee recipient of the blocks a test node builds.
var FeeRecipient = common.HexToAddress("0x00000000000000000000000000000000000fee00")

// Options tune a test node. The zero value is a fresh in-memory dev chain.
type Options struct {
	// DataDir keeps the chain on disk; a second node on the same DataDir
	// continues the chain.
	DataDir string
	// IPC serves JSON-RPC on a socket in the test's temp dir as well.
	IPC bool
	// WS serves JSON-RPC over WebSocket as well.
	WS bool
	// Configure may change the configs before the node is assembled.
	Configure func(*node.Config, *ethconfig.Config, *eth.Config)
	// Register may register extra services on the assembled node before it
	// starts (routes, APIs, lifecycles).
	Register func(*eth.Node) error
}

// Node is a running test node.
type Node struct {
	*eth.Node
	t      testing.TB
	rpc    *rpc.Client
	client *ethclient.Client
}

// New starts a dev node and stops it when the test ends.
func New(t testing.TB, opts Options) *Node {
	t.Helper()
	log.SetDefault(log.NewLogger(log.DiscardHandler()))

	ncfg := node.DefaultConfig
	ncfg.Name = params.ClientName
	ncfg.Version = params.Version
	ncfg.DataDir = opts.DataDir
	ncfg.HTTPHost, ncfg.HTTPPort = "127.0.0.1", 0
	ncfg.HTTPModules = append([]string(nil), eth.DevHTTPModules...)
	ncfg.AuthAddr, ncfg.AuthPort = "127.0.0.1", 0
	ncfg.WSHost = ""
	if opts.WS {
		ncfg.WSHost, ncfg.WSPort = "127.0.0.1", 0
		ncfg.WSModules = append([]string(nil), eth.DevHTTPModules...)
	}
	ncfg.IPCPath = ""
	if opts.IPC {
		ncfg.IPCPath = filepath.Join(t.TempDir(), "gavel.ipc")
	}
	ncfg.P2P = p2p.Config{MaxPeers: 0, NoDial: true, NoDiscovery: true}

	ecfg := ethconfig.Defaults
	ecfg.Miner.PendingFeeRecipient = FeeRecipient
	ecfg.Miner.GasPrice = big.NewInt(1)

	gcfg := eth.DefaultConfig()
	gcfg.Listener.Addr = "127.0.0.1:0"
	gcfg.Dev.Enabled, gcfg.Dev.Manual = true, true

	if opts.Configure != nil {
		opts.Configure(&ncfg, &ecfg, &gcfg)
	}
	stack, err := node.New(&ncfg)
	if err != nil {
		t.Fatalf("testnode: new node: %v", err)
	}
	t.Cleanup(func() { stack.Close() })
	if err := eth.ConfigureDevEth(stack, &ecfg, gcfg.Dev); err != nil {
		t.Fatalf("testnode: dev config: %v", err)
	}
	n, err := eth.New(stack, &ecfg, gcfg)
	if err != nil {
		t.Fatalf("testnode: assemble: %v", err)
	}
	if opts.Register != nil {
		if err := opts.Register(n); err != nil {
			t.Fatalf("testnode: register: %v", err)
		}
	}
	if err := stack.Start(); err != nil {
		t.Fatalf("testnode: start: %v", err)
	}
	client, err := rpc.Dial(stack.HTTPEndpoint())
	if err != nil {
		t.Fatalf("testnode: dial %s: %v", stack.HTTPEndpoint(), err)
	}
	t.Cleanup(client.Close)
	return &Node{Node: n, t: t, rpc: client, client: ethclient.NewClient(client)}
}

// Step produces the next slot's block now and returns its header.
func (n *Node) Step() *types.Header {
	n.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	h, err := n.Beacon().Step(ctx)
	if err != nil {
		n.t.Fatalf("testnode: step: %v", err)
	}
	return h
}

// StepInBackground produces a block every interval until the returned stop
// is called or the test ends, for code under test that waits for receipts.
// A step that fails while running fails the test.
func (n *Node) StepInBackground(every time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if _, err := n.Beacon().Step(ctx); err != nil && ctx.Err() == nil {
					n.t.Errorf("testnode: step in background: %v", err)
					return
				}
			}
		}
	}()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	n.t.Cleanup(stop)
	return stop
}

// StepOnNewTxs produces a block each time transactions enter the pool,
// until the returned stop is called or the test ends: for code under test
// that sends transactions and waits for their receipts (a deployment), with
// no clock deciding when blocks come. It also produces one block at once:
// until a chain's first block geth's transaction index is not built, the
// node reports syncing, and senders that wait for it (the dev auction's
// deployment) send nothing. stop lets a step in progress finish. A step
// that fails fails the test.
func (n *Node) StepOnNewTxs() (stop func()) {
	wake := make(chan struct{}, 1)
	wake <- struct{}{}
	unsubscribe := n.Chain().NotifyNewTxs(func() {
		select {
		case wake <- struct{}{}:
		default: // a step is already due; it takes these txs too
		}
	})
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				return
			case <-wake:
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				_, err := n.Beacon().Step(ctx)
				cancel()
				if err != nil {
					n.t.Errorf("testnode: step on new txs: %v", err)
					return
				}
			}
		}
	}()
	var once sync.Once
	stop = func() { once.Do(func() { unsubscribe(); close(quit); <-done }) }
	n.t.Cleanup(stop)
	return stop
}

// HTTPURL is the JSON-RPC endpoint over HTTP.
func (n *Node) HTTPURL() string { return n.Stack().HTTPEndpoint() }

// MEVURL is the MEV listener's base URL.
func (n *Node) MEVURL() string { return n.MEV().URL() }

// RPC is a JSON-RPC client over HTTP.
func (n *Node) RPC() *rpc.Client { return n.rpc }

// Client is an ethclient over HTTP.
func (n *Node) Client() *ethclient.Client { return n.client }

// Account returns dev account i (0..9) of the test mnemonic.
func Account(i int) params.DevAccount { return params.DevAccounts()[i] }
