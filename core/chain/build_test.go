package chain

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/consensus/beacon"
	"github.com/ethereum/go-ethereum/consensus/ethash"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/params"
)

// revertAddr holds code that always reverts (PUSH1 0 PUSH1 0 REVERT).
var revertAddr = common.HexToAddress("0x00000000000000000000000000000000000dead1")

// newTestChain is a real in-memory geth chain on the dev genesis.
func newTestChain(t testing.TB) *Chain {
	t.Helper()
	g := DevGenesis(params.DevGasLimit, 1_700_000_000)
	g.Alloc[revertAddr] = types.Account{Code: common.FromHex("0x60006000fd"), Balance: new(big.Int)}
	bc, err := core.NewBlockChain(rawdb.NewMemoryDatabase(), g, beacon.New(ethash.NewFaker()), core.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(bc.Stop)
	return FromBlockChain(bc)
}

func transfer(t testing.TB, c *Chain, key *ecdsa.PrivateKey, nonce uint64, to common.Address, value, tip int64) *types.Transaction {
	t.Helper()
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(c.Config().ChainID), &types.DynamicFeeTx{
		ChainID: c.Config().ChainID, Nonce: nonce, GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(100e9),
		Gas: 60000, To: &to, Value: big.NewInt(value)})
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

func attrsFor(parent *types.Header) BuildAttrs {
	root := common.Hash{0xbe}
	return BuildAttrs{Timestamp: parent.Time + 2, FeeRecipient: common.Address{0xfe}, Random: common.Hash{0x1},
		BeaconRoot: &root, Withdrawals: types.Withdrawals{{Index: 0, Validator: 1, Address: common.Address{0xaa}, Amount: 1}}}
}

// importBlock checks a built block the way the engine API's newPayload
// does: rebuild it from the payload (hash check), then full import.
func importBlock(t *testing.T, c *Chain, built *BuiltBlock) {
	t.Helper()
	b, err := engine.ExecutableDataToBlock(*built.Envelope.ExecutionPayload, nil, built.Block.BeaconRoot(), built.Envelope.Requests)
	if err != nil {
		t.Fatalf("payload does not convert back to a block: %v", err)
	}
	if b.Hash() != built.Block.Hash() {
		t.Fatalf("payload hash %s, built %s", b.Hash(), built.Block.Hash())
	}
	if n, err := c.bc.InsertChain(types.Blocks{b}); err != nil {
		t.Fatalf("import rejected block %d: %v", n, err)
	}
	if c.Head().Hash() != b.Hash() {
		t.Fatal("block did not become head")
	}
}

func TestBuildBlockValid(t *testing.T) {
	c := newTestChain(t)
	accs := params.DevAccounts()
	for round := 0; round < 2; round++ {
		parent := c.Head()
		bb, err := c.NewBlockBuilder(context.Background(), parent, attrsFor(parent))
		if err != nil {
			t.Fatal(err)
		}
		n := uint64(round)
		out, err := bb.ApplyBundle(types.Transactions{
			transfer(t, c, accs[0].Key, 2*n, common.Address{1}, 1, 1e9),
			transfer(t, c, accs[0].Key, 2*n+1, bb.attrs.FeeRecipient, 1e15, 0), // direct coinbase payment
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if out.GasUsed != 42000 || out.CoinbaseDiff.Uint64() != 1e15+21000*1e9 {
			t.Fatalf("outcome gas %d diff %s", out.GasUsed, out.CoinbaseDiff)
		}
		added := bb.FillTxs(map[common.Address]types.Transactions{
			accs[1].Address: {transfer(t, c, accs[1].Key, n, common.Address{2}, 5, 2e9)},
		}, nil)
		if added != 1 {
			t.Fatalf("mempool txs added: %d", added)
		}
		built, err := bb.Finish()
		if err != nil {
			t.Fatal(err)
		}
		if len(built.Block.Transactions()) != 3 || built.Block.Transactions()[1].To() == nil || *built.Block.Transactions()[1].To() != bb.attrs.FeeRecipient {
			t.Fatalf("block txs in wrong order: %d", len(built.Block.Transactions()))
		}
		importBlock(t, c, built)
	}
}

func TestApplyBundleAtomic(t *testing.T) {
	c := newTestChain(t)
	accs := params.DevAccounts()
	parent := c.Head()
	bb, err := c.NewBlockBuilder(context.Background(), parent, attrsFor(parent))
	if err != nil {
		t.Fatal(err)
	}
	ok := transfer(t, c, accs[0].Key, 0, common.Address{1}, 1, 1e9)
	reverting := transfer(t, c, accs[0].Key, 1, revertAddr, 0, 1e9)
	// A revert not allowed drops the bundle, including the tx before it.
	if _, err := bb.ApplyBundle(types.Transactions{ok, reverting}, nil); !errors.Is(err, ErrBundleTxFailed) {
		t.Fatalf("reverting bundle: %v", err)
	}
	if bb.TxCount() != 0 || bb.GasLeft() != bb.GasLimit() {
		t.Fatalf("failed bundle left %d txs, gas left %d", bb.TxCount(), bb.GasLeft())
	}
	// A bad nonce in the middle also drops everything.
	if _, err := bb.ApplyBundle(types.Transactions{ok, transfer(t, c, accs[0].Key, 5, common.Address{1}, 1, 1e9)}, nil); !errors.Is(err, ErrBundleTxFailed) {
		t.Fatalf("nonce gap bundle: %v", err)
	}
	// Simulation leaves the block unchanged.
	sim, err := bb.SimulateBundle(types.Transactions{ok}, nil)
	if err != nil || sim.GasUsed != 21000 || bb.TxCount() != 0 {
		t.Fatalf("simulate: %v %+v txs %d", err, sim, bb.TxCount())
	}
	// Allowed to revert: applied.
	out, err := bb.ApplyBundle(types.Transactions{ok, reverting}, func(h common.Hash) bool { return h == reverting.Hash() })
	if err != nil || len(out.Reverted) != 1 || bb.TxCount() != 2 {
		t.Fatalf("allowed revert: %v %+v", err, out)
	}
	built, err := bb.Finish()
	if err != nil {
		t.Fatal(err)
	}
	importBlock(t, c, built)
	if _, err := bb.ApplyTx(ok); !errors.Is(err, ErrBuilderFinished) {
		t.Fatalf("after finish: %v", err)
	}
}

func TestBuilderRejectsBadAttrs(t *testing.T) {
	c := newTestChain(t)
	parent := c.Head()
	a := attrsFor(parent)
	a.Timestamp = parent.Time
	if _, err := c.NewBlockBuilder(context.Background(), parent, a); !errors.Is(err, ErrBuildAttrs) {
		t.Fatalf("timestamp equal to the parent's: %v, want ErrBuildAttrs", err)
	}
	a = attrsFor(parent)
	a.BeaconRoot = nil
	if _, err := c.NewBlockBuilder(context.Background(), parent, a); !errors.Is(err, ErrBuildAttrs) {
		t.Fatalf("missing beacon root: %v, want ErrBuildAttrs", err)
	}
}

// TestFailedBundleKeepsEarlierWork applies bundles and mempool txs, then a
// bundle that fails after changing state: everything before it stays, the
// block stays valid.
func TestFailedBundleKeepsEarlierWork(t *testing.T) {
	c := newTestChain(t)
	accs := params.DevAccounts()
	parent := c.Head()
	bb, err := c.NewBlockBuilder(context.Background(), parent, attrsFor(parent))
	if err != nil {
		t.Fatal(err)
	}
	first := transfer(t, c, accs[0].Key, 0, common.Address{1}, 7, 1e9)
	if _, err := bb.ApplyBundle(types.Transactions{first}, nil); err != nil {
		t.Fatal(err)
	}
	loose := transfer(t, c, accs[1].Key, 0, common.Address{2}, 3, 1e9)
	if _, err := bb.ApplyTx(loose); err != nil {
		t.Fatal(err)
	}
	// Changes state (a transfer, then a revert) and fails.
	bad := types.Transactions{transfer(t, c, accs[2].Key, 0, common.Address{3}, 5, 1e9), transfer(t, c, accs[2].Key, 1, revertAddr, 0, 1e9)}
	if _, err := bb.ApplyBundle(bad, nil); !errors.Is(err, ErrBundleTxFailed) {
		t.Fatalf("bad bundle: %v", err)
	}
	// The same sender's nonce 0 is free again: the failed bundle left nothing.
	again := transfer(t, c, accs[2].Key, 0, common.Address{4}, 9, 1e9)
	if _, err := bb.ApplyBundle(types.Transactions{again}, nil); err != nil {
		t.Fatalf("after failure: %v", err)
	}
	// Fail once more after a checkpoint was used up.
	if _, err := bb.ApplyBundle(types.Transactions{transfer(t, c, accs[3].Key, 0, revertAddr, 0, 1e9)}, nil); !errors.Is(err, ErrBundleTxFailed) {
		t.Fatalf("second bad bundle: %v", err)
	}
	built, err := bb.Finish()
	if err != nil {
		t.Fatal(err)
	}
	got := built.Block.Transactions()
	if len(got) != 3 || got[0].Hash() != first.Hash() || got[1].Hash() != loose.Hash() || got[2].Hash() != again.Hash() {
		t.Fatalf("block holds %d txs", len(got))
	}
	importBlock(t, c, built)
	if bal := c.stateBalance(t, common.Address{4}); bal != 9 {
		t.Fatalf("balance of the last transfer's recipient: %d", bal)
	}
	if bal := c.stateBalance(t, common.Address{3}); bal != 0 {
		t.Fatalf("the failed bundle's transfer happened: %d", bal)
	}
}

func (c *Chain) stateBalance(t *testing.T, a common.Address) uint64 {
	head := c.Head()
	sdb, err := c.bc.StateAt(head.Root, head.Number, head.Time)
	if err != nil {
		t.Fatal(err)
	}
	return sdb.GetBalance(a).Uint64()
}
