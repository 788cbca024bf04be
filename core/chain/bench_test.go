package chain_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/binary"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/core/vm/program"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/eth"
	"github.com/ethereum/go-ethereum/eth/ethconfig"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/internal/testutil"
	"github.com/gavel-eth/gavel/mevapi/bundleapi"
	"github.com/gavel-eth/gavel/params"
)

// tokenAddr holds a token-style contract: transfer(address to, uint256
// amount) moves balances kept in storage slot = holder address, emits
// Transfer(from, to, amount) and returns true; reverts on a short balance.
var tokenAddr = common.HexToAddress("0x2000000000000000000000000000000000000001")

var transferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

func tokenCode() []byte {
	p := program.New()
	p.Push(0x24).Op(vm.CALLDATALOAD)            // amt
	p.Push(0x04).Op(vm.CALLDATALOAD)            // to amt
	p.Op(vm.CALLER, vm.SLOAD)                   // bal to amt
	p.Op(vm.DUP3, vm.DUP2, vm.LT)               // bal<amt bal to amt
	failAt := p.Size()                          // patched below
	p.Push(0xffff).Op(vm.JUMPI)                 // bal to amt
	p.Op(vm.DUP3, vm.SWAP1, vm.SUB)             // bal-amt to amt
	p.Op(vm.CALLER, vm.SSTORE)                  // to amt
	p.Op(vm.DUP1, vm.SLOAD, vm.DUP3, vm.ADD)    // tobal+amt to amt
	p.Op(vm.SWAP1, vm.SSTORE)                   // amt
	p.Push(0).Op(vm.MSTORE)                     //
	p.Push(0x04).Op(vm.CALLDATALOAD, vm.CALLER) // from to
	p.Push(transferTopic.Bytes()).Push(32).Push(0).Op(vm.LOG3)
	p.Push(1).Push(0).Op(vm.MSTORE).Return(0, 32)
	p, dest := p.Jumpdest()
	p.Push0().Push0().Op(vm.REVERT)
	code := p.Bytes()
	// PUSH2 0xffff at failAt: patch the jump target.
	binary.BigEndian.PutUint16(code[failAt+1:], uint16(dest))
	return code
}

func transferData(to common.Address, amount uint64) []byte {
	data := crypto.Keccak256([]byte("transfer(address,uint256)"))[:4]
	data = append(data, common.LeftPadBytes(to[:], 32)...)
	return append(data, common.LeftPadBytes(new(big.Int).SetUint64(amount).Bytes(), 32)...)
}

// benchNode is a full in-process geth node (the same eth.Ethereum service
// gavel runs) with gavel's bundle API registered, 100 funded senders and
// the token.
type benchNode struct {
	stack   *node.Node
	client  *rpc.Client
	chain   *chain.Chain
	sim     *bundle.Simulator
	backend *eth.Ethereum
	keys    []*ecdsa.PrivateKey
	signer  types.Signer
}

func newBenchNode(b *testing.B) *benchNode {
	b.Helper()
	log.SetDefault(log.NewLogger(log.DiscardHandler()))
	g := chain.DevGenesis(60_000_000, 1_700_000_000)
	keys := make([]*ecdsa.PrivateKey, 100)
	storage := map[common.Hash]common.Hash{}
	for i := range keys {
		seed := crypto.Keccak256([]byte(fmt.Sprintf("gavel bench sender %d", i)))
		keys[i], _ = crypto.ToECDSA(seed)
		addr := crypto.PubkeyToAddress(keys[i].PublicKey)
		g.Alloc[addr] = types.Account{Balance: new(big.Int).Mul(big.NewInt(100), big.NewInt(gparams.Ether))}
		storage[common.BytesToHash(addr[:])] = common.BigToHash(big.NewInt(1_000_000))
	}
	g.Alloc[tokenAddr] = types.Account{Code: tokenCode(), Storage: storage}

	ncfg := node.DefaultConfig
	ncfg.DataDir, ncfg.HTTPHost, ncfg.WSHost, ncfg.IPCPath = "", "", "", ""
	ncfg.AuthPort = 0
	ncfg.P2P = p2p.Config{MaxPeers: 0, NoDial: true, NoDiscovery: true}
	stack, err := node.New(&ncfg)
	if err != nil {
		b.Fatal(err)
	}
	ecfg := ethconfig.Defaults
	ecfg.Genesis, ecfg.NetworkId = g, params.DevChainID
	backend, err := eth.New(stack, &ecfg)
	if err != nil {
		b.Fatal(err)
	}
	c := chain.New(backend)
	sim := bundle.NewSimulator(c, bundle.Config{})
	stack.RegisterAPIs(bundleapi.APIs(sim))
	// The same service without the sender cache, as "cold_callBundle".
	cold := bundleapi.NewAPI(bundle.NewSimulator(c, bundle.Config{SenderCache: -1}))
	stack.RegisterAPIs([]rpc.API{{Namespace: "cold", Service: cold}})
	if err := stack.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stack.Close() })
	return &benchNode{stack: stack, client: stack.Attach(), chain: c, sim: sim, backend: backend, keys: keys, signer: types.LatestSigner(g.Config)}
}

// bundleTxs signs n txs from n distinct senders: plain transfers or token
// transfers, each to a fresh recipient.
func (n *benchNode) bundleTxs(count int, token bool) []*types.Transaction {
	txs := make([]*types.Transaction, count)
	for i := range txs {
		to := common.BigToAddress(big.NewInt(int64(0xbeef0000 + i)))
		inner := &types.DynamicFeeTx{
			ChainID: big.NewInt(params.DevChainID), GasTipCap: big.NewInt(gparams.GWei), GasFeeCap: big.NewInt(10 * gparams.GWei),
			Gas: 21000, To: &to, Value: big.NewInt(1),
		}
		if token {
			inner.To, inner.Value, inner.Gas, inner.Data = &tokenAddr, new(big.Int), 100_000, transferData(to, 7)
		}
		txs[i] = types.MustSignNewTx(n.keys[i], n.signer, inner)
	}
	return txs
}

// BenchmarkBundle compares, on the same node and the same txs: gavel's
// eth_callBundle over in-process JSON-RPC, geth's eth_simulateV1 over the
// same transport, and a bare core.ApplyMessage loop (the lower bound: no
// decoding, no sender recovery, no accounting, no RPC).
func BenchmarkBundle(b *testing.B) {
	n := newBenchNode(b)
	ctx := context.Background()
	head := n.chain.Head()
	for _, kind := range []string{"transfer", "token"} {
		for _, size := range []int{1, 10, 100} {
			txs := n.bundleTxs(size, kind == "token")
			raws := make([]string, len(txs))
			calls := make([]map[string]any, len(txs))
			for i, tx := range txs {
				raw, _ := tx.MarshalBinary()
				raws[i] = hexutil.Encode(raw)
				from, _ := types.Sender(n.signer, tx)
				calls[i] = map[string]any{
					"from": from, "to": tx.To(), "gas": hexutil.Uint64(tx.Gas()), "nonce": hexutil.Uint64(tx.Nonce()),
					"maxFeePerGas": (*hexutil.Big)(tx.GasFeeCap()), "maxPriorityFeePerGas": (*hexutil.Big)(tx.GasTipCap()),
					"value": (*hexutil.Big)(tx.Value()), "input": hexutil.Bytes(tx.Data()),
				}
			}
			name := fmt.Sprintf("%s/%d", kind, size)
			for _, method := range []string{"cold_callBundle", "eth_callBundle"} {
				label := map[string]string{"cold_callBundle": "callBundle-nocache", "eth_callBundle": "callBundle"}[method]
				b.Run(name+"/"+label, func(b *testing.B) {
					args := map[string]any{"txs": raws, "blockNumber": head.Number.Uint64() + 1, "stateBlockNumber": "latest"}
					defer testutil.ReportCPU(b, testutil.CPUTime())
					for b.Loop() {
						var res bundleapi.CallBundleResult
						if err := n.client.CallContext(ctx, &res, method, args); err != nil {
							b.Fatal(err)
						}
						if len(res.Results) != size || res.Results[size-1].Error != "" {
							b.Fatalf("bad result %+v", res.Results[size-1])
						}
					}
				})
			}
			b.Run(name+"/simulator", func(b *testing.B) {
				// The core of callBundle without JSON-RPC: decoded txs in,
				// Go result out.
				blk := &bundle.Block{Number: head.Number.Uint64() + 1, State: rpc.BlockNumberOrHashWithNumber(rpc.LatestBlockNumber)}
				defer testutil.ReportCPU(b, testutil.CPUTime())
				for b.Loop() {
					res, err := n.sim.Call(ctx, txs, blk)
					if err != nil || res.Results[size-1].Failure != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(name+"/simulateV1", func(b *testing.B) {
				opts := map[string]any{"blockStateCalls": []any{map[string]any{"calls": calls}}, "validation": true}
				defer testutil.ReportCPU(b, testutil.CPUTime())
				for b.Loop() {
					var res []struct {
						Calls []struct {
							Status hexutil.Uint64 `json:"status"`
						} `json:"calls"`
					}
					if err := n.client.CallContext(ctx, &res, "eth_simulateV1", opts, "latest"); err != nil {
						b.Fatal(err)
					}
					if len(res) != 1 || len(res[0].Calls) != size || res[0].Calls[size-1].Status != 1 {
						b.Fatalf("bad simulateV1 result %+v", res)
					}
				}
			})
			b.Run(name+"/applyMessage", func(b *testing.B) {
				bc := n.backend.BlockChain()
				cfg := bc.Config()
				hdr := types.CopyHeader(head)
				hdr.Number = new(big.Int).Add(head.Number, common.Big1)
				hdr.ParentHash, hdr.Time = head.Hash(), head.Time+12
				msgs := make([]*core.Message, len(txs))
				for i, tx := range txs {
					msgs[i], _ = core.TransactionToMessage(tx, n.signer, hdr.BaseFee)
				}
				defer testutil.ReportCPU(b, testutil.CPUTime())
				for b.Loop() {
					sdb, err := bc.StateAt(head.Root, head.Number, head.Time)
					if err != nil {
						b.Fatal(err)
					}
					evm := vm.NewEVM(core.NewEVMBlockContext(hdr, bc, nil), sdb, cfg, vm.Config{})
					gp := core.NewGasPool(hdr.GasLimit)
					for i, msg := range msgs {
						sdb.SetTxContext(txs[i].Hash(), i, uint32(i+1))
						res, err := core.ApplyMessage(evm, msg, gp)
						if err != nil || res.Failed() {
							b.Fatalf("tx %d: %v %v", i, err, res)
						}
						sdb.Finalise(evm.GetRules())
					}
				}
			})
		}
	}
}

// BenchmarkBundlePaired runs the four ways of BenchmarkBundle one after the
// other inside every iteration, so all of them see the same machine load,
// and reports each one's process CPU time per op and their ratios. On a
// shared machine these paired ratios are the steady figures.
func BenchmarkBundlePaired(b *testing.B) {
	n := newBenchNode(b)
	ctx := context.Background()
	head := n.chain.Head()
	bc := n.backend.BlockChain()
	cfg := bc.Config()
	hdr := types.CopyHeader(head)
	hdr.Number = new(big.Int).Add(head.Number, common.Big1)
	hdr.ParentHash, hdr.Time = head.Hash(), head.Time+12
	blk := &bundle.Block{Number: head.Number.Uint64() + 1, State: rpc.BlockNumberOrHashWithNumber(rpc.LatestBlockNumber)}
	for _, kind := range []string{"transfer", "token"} {
		for _, size := range []int{1, 10, 100} {
			txs := n.bundleTxs(size, kind == "token")
			msgs := make([]*core.Message, len(txs))
			raws := make([]string, len(txs))
			calls := make([]map[string]any, len(txs))
			for i, tx := range txs {
				msgs[i], _ = core.TransactionToMessage(tx, n.signer, hdr.BaseFee)
				raw, _ := tx.MarshalBinary()
				raws[i] = hexutil.Encode(raw)
				calls[i] = map[string]any{
					"from": msgs[i].From, "to": tx.To(), "gas": hexutil.Uint64(tx.Gas()), "nonce": hexutil.Uint64(tx.Nonce()),
					"maxFeePerGas": (*hexutil.Big)(tx.GasFeeCap()), "maxPriorityFeePerGas": (*hexutil.Big)(tx.GasTipCap()),
					"value": (*hexutil.Big)(tx.Value()), "input": hexutil.Bytes(tx.Data()),
				}
			}
			callArgs := map[string]any{"txs": raws, "blockNumber": head.Number.Uint64() + 1, "stateBlockNumber": "latest"}
			simOpts := map[string]any{"blockStateCalls": []any{map[string]any{"calls": calls}}, "validation": true}
			legs := []struct {
				name string
				run  func()
			}{
				{"callBundle", func() {
					var res bundleapi.CallBundleResult
					if err := n.client.CallContext(ctx, &res, "eth_callBundle", callArgs); err != nil || len(res.Results) != size {
						b.Fatal(err)
					}
				}},
				{"simulateV1", func() {
					var res []struct {
						Calls []struct {
							Status hexutil.Uint64 `json:"status"`
						} `json:"calls"`
					}
					if err := n.client.CallContext(ctx, &res, "eth_simulateV1", simOpts, "latest"); err != nil || len(res[0].Calls) != size {
						b.Fatal(err)
					}
				}},
				{"simulator", func() {
					if res, err := n.sim.Call(ctx, txs, blk); err != nil || res.Results[size-1].Failure != nil {
						b.Fatal(err)
					}
				}},
				{"bare", func() {
					sdb, err := bc.StateAt(head.Root, head.Number, head.Time)
					if err != nil {
						b.Fatal(err)
					}
					evm := vm.NewEVM(core.NewEVMBlockContext(hdr, bc, nil), sdb, cfg, vm.Config{})
					gp := core.NewGasPool(hdr.GasLimit)
					for i, msg := range msgs {
						sdb.SetTxContext(txs[i].Hash(), i, uint32(i+1))
						if res, err := core.ApplyMessage(evm, msg, gp); err != nil || res.Failed() {
							b.Fatalf("tx %d: %v", i, err)
						}
						sdb.Finalise(evm.GetRules())
					}
				}},
			}
			b.Run(fmt.Sprintf("%s/%d", kind, size), func(b *testing.B) {
				cpu := make([]time.Duration, len(legs))
				for b.Loop() {
					for i, leg := range legs {
						t0 := testutil.CPUTime()
						leg.run()
						cpu[i] += testutil.CPUTime() - t0
					}
				}
				for i, leg := range legs {
					b.ReportMetric(float64(cpu[i])/float64(b.N), leg.name+"-cpu-ns/op")
				}
				b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "callBundle/simulateV1")
				b.ReportMetric(float64(cpu[0])/float64(cpu[3]), "callBundle/bare")
				b.ReportMetric(float64(cpu[2])/float64(cpu[3]), "simulator/bare")
			})
		}
	}
}
