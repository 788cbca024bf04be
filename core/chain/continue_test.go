package chain

import (
	"context"
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/params"
)

// verifiedAlpha builds a block of transfers with a withdrawal, verifies it
// as a builder submission with KeepState and returns it.
func verifiedAlpha(t *testing.T, c *Chain) *VerifiedPayload {
	t.Helper()
	accs := params.DevAccounts()
	parent := c.Head()
	bb, err := c.NewBlockBuilder(context.Background(), parent, attrsFor(parent))
	if err != nil {
		t.Fatal(err)
	}
	for i := uint64(0); i < 3; i++ {
		if _, err := bb.ApplyTx(transfer(t, c, accs[0].Key, i, common.Address{0xaa}, 1, 1e9)); err != nil {
			t.Fatal(err)
		}
	}
	built, err := bb.Finish()
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.ValidatePayload(context.Background(), &BuilderPayload{
		Payload: built.Envelope.ExecutionPayload, ParentBeaconRoot: built.Block.BeaconRoot(), Requests: built.Requests,
		VersionedHashes: []common.Hash{}, RegisteredGasLimit: parent.GasLimit, ProposerFeeRecipient: common.Address{0xfe},
		Value: uint256.MustFromBig(built.Fees), KeepState: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !v.HasState() {
		t.Fatal("KeepState kept no state")
	}
	return v
}

// TestContinueBlockImports appends zero-tip transfers to a verified block on
// its kept state and checks that geth's own import accepts the result: state
// root, receipts, gas used, withdrawals (credited after the appended txs)
// and block hash. An invalid tx leaves the block as it was.
func TestContinueBlockImports(t *testing.T) {
	c := newTestChain(t)
	accs := params.DevAccounts()
	alpha := verifiedAlpha(t, c)
	bb, err := c.ContinueBlock(context.Background(), alpha)
	if err != nil {
		t.Fatal(err)
	}
	if bb.TxCount() != 3 || bb.GasLeft() != alpha.Block.GasLimit()-alpha.Block.GasUsed() {
		t.Fatalf("continued block: %d txs, %d gas left", bb.TxCount(), bb.GasLeft())
	}
	// The withdrawal's recipient has not been credited yet: beta runs
	// before withdrawals, as in any block.
	beta := transfer(t, c, accs[3].Key, 0, common.Address{0xaa}, 7, 0)
	if _, err := bb.ApplyTx(beta); err != nil {
		t.Fatal(err)
	}
	if _, err := bb.ApplyTx(transfer(t, c, accs[3].Key, 5, common.Address{0xaa}, 7, 0)); !errors.Is(err, core.ErrNonceTooHigh) {
		t.Fatalf("nonce gap: %v, want %v", err, core.ErrNonceTooHigh)
	}
	built, err := bb.Finish()
	if err != nil {
		t.Fatal(err)
	}
	txs := built.Block.Transactions()
	if len(txs) != 4 || txs[3].Hash() != beta.Hash() || built.Block.GasUsed() != alpha.Block.GasUsed()+21000 {
		t.Fatalf("merged block: %d txs, gas used %d", len(txs), built.Block.GasUsed())
	}
	if built.Block.Hash() == alpha.Block.Hash() || len(built.Block.Withdrawals()) != 1 {
		t.Fatal("merged block keeps the alpha hash or lost its withdrawal")
	}
	// A second continuation of the same alpha starts from the same state.
	again, err := c.ContinueBlock(context.Background(), alpha)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := again.ApplyTx(beta); err != nil {
		t.Fatalf("the kept state was changed by the first continuation: %v", err)
	}
	importBlock(t, c, built)
	if got := c.stateBalance(t, common.Address{0xaa}); got != 3+7+1e9 {
		t.Fatalf("recipient balance %d", got)
	}
}

func TestContinueBlockNeedsKeptState(t *testing.T) {
	c := newTestChain(t)
	if _, err := c.ContinueBlock(context.Background(), &VerifiedPayload{Block: types.NewBlockWithHeader(c.Head())}); !errors.Is(err, ErrNoKeptState) {
		t.Fatalf("got %v, want %v", err, ErrNoKeptState)
	}
}

// TestContinueBlockShanghai runs the merge on a Shanghai chain (Capella on
// the beacon side): no blob gas, no beacon root, no requests; geth's import
// accepts the result.
func TestContinueBlockShanghai(t *testing.T) {
	g := DevGenesis(params.DevGasLimit, 1_700_000_000)
	cfg := *g.Config
	cfg.CancunTime, cfg.PragueTime, cfg.OsakaTime, cfg.BlobScheduleConfig = nil, nil, nil, nil
	g.Config = &cfg
	c, stop, err := NewInMemory(g)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	accs := params.DevAccounts()
	parent := c.Head()
	a := attrsFor(parent)
	a.BeaconRoot = nil
	bb, err := c.NewBlockBuilder(context.Background(), parent, a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bb.ApplyTx(transfer(t, c, accs[0].Key, 0, common.Address{0xaa}, 1, 1e9)); err != nil {
		t.Fatal(err)
	}
	built, err := bb.Finish()
	if err != nil {
		t.Fatal(err)
	}
	v, err := c.ValidatePayload(context.Background(), &BuilderPayload{
		Payload: built.Envelope.ExecutionPayload, RegisteredGasLimit: parent.GasLimit, ProposerFeeRecipient: common.Address{0xfe},
		Value: uint256.MustFromBig(built.Fees), KeepState: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	cb, err := c.ContinueBlock(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cb.ApplyTx(transfer(t, c, accs[3].Key, 0, common.Address{0xaa}, 7, 0)); err != nil {
		t.Fatal(err)
	}
	merged, err := cb.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if merged.Block.Header().BlobGasUsed != nil || merged.Block.Header().RequestsHash != nil || len(merged.Block.Transactions()) != 2 {
		t.Fatal("the Shanghai merge carries Cancun or Prague fields, or lost a tx")
	}
	b, err := engine.ExecutableDataToBlock(*merged.Envelope.ExecutionPayload, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.bc.InsertChain(types.Blocks{b}); err != nil {
		t.Fatalf("geth rejects the merged Shanghai block: %v", err)
	}
}
