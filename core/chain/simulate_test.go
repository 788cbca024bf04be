package chain_test

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/consensus/beacon"
	"github.com/ethereum/go-ethereum/consensus/ethash"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/core/vm"
	"github.com/ethereum/go-ethereum/core/vm/program"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/params"
)

// Test fixture: a dev chain with a few blocks, a fee recipient that is
// nobody's sender, and small contracts deployed at genesis.
var (
	testCoinbase = common.HexToAddress("0xc0ffee0000000000000000000000000000000001")
	loopAddr     = common.HexToAddress("0x1000000000000000000000000000000000000001") // loops forever
	payAddr      = common.HexToAddress("0x1000000000000000000000000000000000000002") // forwards msg.value to block.coinbase
	envAddr      = common.HexToAddress("0x1000000000000000000000000000000000000003") // returns block env fields
	gasyAddr     = common.HexToAddress("0x1000000000000000000000000000000000000004") // 63/64 rule: needs more gas than it uses
)

const gwei = gparams.GWei

// loopCode: JUMPDEST PUSH1 0 JUMP, forever.
func loopCode() []byte {
	p, dest := program.New().Jumpdest()
	return p.Push(dest).Op(vm.JUMP).Bytes()
}

// payCode: CALL(GAS, COINBASE, CALLVALUE, 0, 0, 0, 0).
func payCode() []byte {
	return program.New().Push(0).Push(0).Push(0).Push(0).Op(vm.CALLVALUE, vm.COINBASE, vm.GAS, vm.CALL, vm.STOP).Bytes()
}

// envCode returns TIMESTAMP, COINBASE, BASEFEE, GASLIMIT, PREVRANDAO,
// NUMBER as six words; it starts with PUSH0, so it fails unless Shanghai
// (post-merge) rules are on.
func envCode() []byte {
	p := program.New()
	ops := []vm.OpCode{vm.TIMESTAMP, vm.COINBASE, vm.BASEFEE, vm.GASLIMIT, vm.PREVRANDAO, vm.NUMBER}
	for i, op := range ops {
		p.Op(op)
		if i == 0 {
			p.Push0()
		} else {
			p.Push(i * 32)
		}
		p.Op(vm.MSTORE)
	}
	return p.Return(0, len(ops)*32).Bytes()
}

// gasyCode clears a storage slot (a refund) and calls the pay contract
// with all its gas, reverting if that call fails. The refund and the 63/64
// rule make the gas it needs exceed the gas it uses, which exercises the
// estimate's search.
func gasyCode() []byte {
	p := program.New().Sstore(1, 0).Call(nil, payAddr, 0, 0, 0, 0, 0).Op(vm.ISZERO)
	fail := p.Size() + 4 // PUSH1 fail, JUMPI, STOP, then JUMPDEST
	p.Push(fail).Op(vm.JUMPI, vm.STOP)
	p, dest := p.Jumpdest()
	if int(dest) != fail {
		panic("gasyCode: bad jump target")
	}
	return p.Push0().Push0().Op(vm.REVERT).Bytes()
}

// revertingInitCode reverts with Error("nope") from the constructor.
func revertingInitCode() []byte {
	payload := make([]byte, 0, 100)
	payload = append(payload, 0x08, 0xc3, 0x79, 0xa0)
	payload = append(payload, common.LeftPadBytes([]byte{0x20}, 32)...)
	payload = append(payload, common.LeftPadBytes([]byte{4}, 32)...)
	payload = append(payload, common.RightPadBytes([]byte("nope"), 32)...)
	// CODECOPY(0, 12, 100); REVERT(0, 100); payload follows the 12 code bytes.
	code := program.New().Push(len(payload)).Push(12).Push(0).Op(vm.CODECOPY).Push(len(payload)).Push(0).Op(vm.REVERT).Bytes()
	if len(code) != 12 {
		panic("revertingInitCode: prologue is not 12 bytes")
	}
	return append(code, payload...)
}

type testEnv struct {
	c      *chain.Chain
	bc     *core.BlockChain
	blocks []*types.Block
	accs   []params.DevAccount
	signer types.Signer
}

// newTestEnv builds a dev chain of n blocks; block i (0-based) carries a
// 1 ether transfer from dev account 9 to a fresh address, so older states
// differ observably.
func newTestEnv(t testing.TB, n int) *testEnv {
	t.Helper()
	g := chain.DevGenesis(30_000_000, 1_700_000_000)
	g.Alloc[loopAddr] = types.Account{Code: loopCode()}
	g.Alloc[payAddr] = types.Account{Code: payCode()}
	g.Alloc[envAddr] = types.Account{Code: envCode()}
	g.Alloc[gasyAddr] = types.Account{Code: gasyCode(), Storage: map[common.Hash]common.Hash{{31: 1}: {31: 1}}}
	accs := params.DevAccounts()
	engine := beacon.New(ethash.NewFaker())
	signer := types.LatestSigner(g.Config)
	_, blocks, _ := core.GenerateChainWithGenesis(g, engine, n, func(i int, b *core.BlockGen) {
		b.SetCoinbase(testCoinbase)
		tx := types.MustSignNewTx(accs[9].Key, signer, &types.DynamicFeeTx{
			ChainID: g.Config.ChainID, Nonce: uint64(i), GasTipCap: big.NewInt(gwei), GasFeeCap: big.NewInt(100 * gwei),
			Gas: 21000, To: &common.Address{0xaa}, Value: big.NewInt(gparams.Ether),
		})
		b.AddTx(tx)
	})
	bc, err := core.NewBlockChain(rawdb.NewMemoryDatabase(), g, engine, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(bc.Stop)
	if _, err := bc.InsertChain(blocks); err != nil {
		t.Fatal(err)
	}
	return &testEnv{c: chain.FromBlockChain(bc), bc: bc, blocks: blocks, accs: accs, signer: signer}
}

// tx signs a dynamic-fee tx from dev account i.
func (e *testEnv) tx(i int, nonce uint64, to *common.Address, value *big.Int, gas uint64, data []byte) *types.Transaction {
	return signTx(e.signer, e.accs[i].Key, nonce, to, value, gas, data)
}

func signTx(signer types.Signer, key *ecdsa.PrivateKey, nonce uint64, to *common.Address, value *big.Int, gas uint64, data []byte) *types.Transaction {
	return types.MustSignNewTx(key, signer, &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), Nonce: nonce, GasTipCap: big.NewInt(2 * gwei), GasFeeCap: big.NewInt(100 * gwei),
		Gas: gas, To: to, Value: value, Data: data,
	})
}

func latest() rpc.BlockNumberOrHash { return rpc.BlockNumberOrHashWithNumber(rpc.LatestBlockNumber) }

func (e *testEnv) head() uint64 { return e.c.Head().Number.Uint64() }

func (e *testEnv) block() *bundle.Block {
	return &bundle.Block{Number: e.head() + 1, State: latest()}
}

func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(gparams.Ether)) }

func TestTxMessagesSenderCache(t *testing.T) {
	e := newTestEnv(t, 1)
	sim, err := e.c.NewSimulation(context.Background(), e.c.Head(), chain.SimHeader{})
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	to := common.Address{0x47}
	var txs []*types.Transaction
	for i := range 6 {
		txs = append(txs, e.tx(i, 0, &to, nil, 21000, nil))
	}
	cache := chain.NewSenderCache(16)
	for round := range 2 { // recovered in parallel, then from the cache
		// Fresh decodes each round, so the tx-internal cache is empty.
		fresh := make([]*types.Transaction, len(txs))
		for i, tx := range txs {
			b, _ := tx.MarshalBinary()
			fresh[i] = new(types.Transaction)
			if err := fresh[i].UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
		}
		msgs, bad, err := sim.TxMessages(fresh, cache)
		if err != nil || bad != -1 {
			t.Fatalf("round %d: %v at %d", round, err, bad)
		}
		for i, m := range msgs {
			if m.From() != e.accs[i].Address || m.Hash() != txs[i].Hash() {
				t.Fatalf("round %d tx %d: from %v, want %v", round, i, m.From(), e.accs[i].Address)
			}
		}
	}
	// A tx for another chain fails at its index, cache or not.
	other := types.MustSignNewTx(e.accs[0].Key, types.LatestSignerForChainID(big.NewInt(1)), &types.DynamicFeeTx{
		ChainID: big.NewInt(1), Gas: 21000, To: &to, GasFeeCap: big.NewInt(1),
	})
	_, bad, err := sim.TxMessages([]*types.Transaction{txs[0], txs[1], other}, cache)
	if !errors.Is(err, chain.ErrTxInvalid) || bad != 2 || !strings.Contains(err.Error(), "chain id") {
		t.Fatalf("other chain: %v at %d", err, bad)
	}
}
