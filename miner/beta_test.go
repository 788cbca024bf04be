package miner

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/chain"
)

var proposerFeeRecipient = common.Address{0xfe, 0xe0}

// verifiedAlpha builds a dev-builder block with a mempool tx and a final
// proposer payment, and verifies it as the relay does, keeping its state.
func (e *env) verifiedAlpha(t *testing.T) *chain.VerifiedPayload {
	t.Helper()
	parent := e.c.Head()
	root := common.Hash{0x42}
	res, value, err := e.builder.BuildPaying(context.Background(), parent, chain.BuildAttrs{
		Timestamp: parent.Time + 2, Random: common.Hash{1}, BeaconRoot: &root,
		Withdrawals: types.Withdrawals{{Index: 1, Validator: 2, Address: common.Address{0xaa}, Amount: 5}},
	}, Payment{Key: chain.DevBuilderKey(), To: proposerFeeRecipient, Bonus: uint256.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.c.ValidatePayload(context.Background(), &chain.BuilderPayload{
		Payload: res.Envelope.ExecutionPayload, ParentBeaconRoot: &root, Requests: res.Requests, VersionedHashes: []common.Hash{},
		RegisteredGasLimit: parent.GasLimit, ProposerFeeRecipient: proposerFeeRecipient, Value: value, KeepState: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// betaTx is a zero-tip transfer with an exact gas limit.
func (e *env) betaTx(t *testing.T, key int, nonce, gas uint64, tip int64) *types.Transaction {
	t.Helper()
	to := common.Address{0xbe, 0x7a}
	tx, err := types.SignNewTx(e.keys[key], types.LatestSignerForChainID(e.c.Config().ChainID), &types.DynamicFeeTx{
		ChainID: e.c.Config().ChainID, Nonce: nonce, GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(100e9),
		Gas: gas, To: &to, Value: big.NewInt(1)})
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// TestBuildBetaRules runs every settlement rule in one merged block, which
// geth's own import then accepts.
func TestBuildBetaRules(t *testing.T) {
	e := newEnv(t, 0)
	alpha := e.verifiedAlpha(t)
	a := types.Transactions{e.betaTx(t, 4, 0, 21000, 0), e.betaTx(t, 4, 1, 21000, 0)}
	b := types.Transactions{e.betaTx(t, 5, 0, 21000, 0)}
	c := types.Transactions{e.betaTx(t, 6, 0, 21000, 0), e.betaTx(t, 6, 5, 21000, 0), e.betaTx(t, 6, 1, 21000, 0)}
	d := types.Transactions{e.betaTx(t, 7, 0, 21000, 1)}
	f := types.Transactions{e.betaTx(t, 8, 0, alpha.Block.GasLimit(), 0)}
	g := types.Transactions{e.betaTx(t, 9, 0, 21000, 0)}
	pool := map[common.Hash]types.Transactions{{0xa}: a, {0xb}: b, {0xc}: c, {0xd}: d, {0xf}: f, {0x9}: g}
	entries := []BetaEntry{
		{Gas: 50_000, Hashes: []common.Hash{{0xa}, {0x01}, {0xb}}}, // a whole, unknown, b over the rest of the budget
		{Gas: 100_000, Hashes: []common.Hash{{0xa}, {0xc}, {0xd}}}, // a again, c stops at its nonce gap, d pays a tip
		{Gas: 0, Hashes: []common.Hash{{0x9}}},                     // no gas
		{Gas: 1 << 62, Hashes: []common.Hash{{0xf}}},               // over the block's gas left
	}
	bb, err := BuildBeta(context.Background(), e.c, alpha, entries, pool)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		hash     common.Hash
		k, n     int
		reason   string
		entryIdx int
	}{
		{common.Hash{0xa}, 2, 2, "", 0},
		{common.Hash{0x01}, 0, 0, ReasonNotPooled, 0},
		{common.Hash{0xb}, 0, 1, ReasonEntryBudget, 0},
		{common.Hash{0xa}, 0, 2, ReasonDuplicate, 1},
		{common.Hash{0xc}, 1, 3, ReasonInvalid, 1},
		{common.Hash{0xd}, 0, 1, ReasonTip, 1},
		{common.Hash{0x9}, 0, 1, ReasonNoGas, 2},
		{common.Hash{0xf}, 0, 1, ReasonBlockFull, 3},
	}
	if len(bb.Results) != len(want) {
		t.Fatalf("%d results, want %d: %+v", len(bb.Results), len(want), bb.Results)
	}
	for i, w := range want {
		r := bb.Results[i]
		if r.Hash != w.hash || len(r.Included) != w.k || r.Total != w.n || r.Reason != w.reason || r.Entry != w.entryIdx {
			t.Errorf("result %d = %+v, want %+v", i, r, w)
		}
	}
	if bb.Bundles != 2 || bb.GasUsed != 3*21000 {
		t.Fatalf("beta bundles %d gas %d, want 2 and %d", bb.Bundles, bb.GasUsed, 3*21000)
	}
	txs := bb.Block.Transactions()
	na := len(alpha.Block.Transactions())
	if len(txs) != na+3 || txs[na-1].Hash() != alpha.Block.Transactions()[na-1].Hash() ||
		txs[na].Hash() != a[0].Hash() || txs[na+1].Hash() != a[1].Hash() || txs[na+2].Hash() != c[0].Hash() {
		t.Fatalf("merged block order wrong: %d txs", len(txs))
	}
	if to := txs[na-1].To(); to == nil || *to != proposerFeeRecipient {
		t.Fatal("alpha's payment is not the last alpha tx")
	}
	if err := e.c.ImportBuilt(bb.BuiltBlock); err != nil {
		t.Fatalf("geth rejects the merged block: %v", err)
	}
}

func TestBuildBetaNothingPaid(t *testing.T) {
	e := newEnv(t, 0)
	alpha := e.verifiedAlpha(t)
	for _, entries := range [][]BetaEntry{nil, {{Gas: 1e6, Hashes: []common.Hash{{1}}}}, {{Gas: 1e6}}} {
		if _, err := BuildBeta(context.Background(), e.c, alpha, entries, nil); !errors.Is(err, ErrNoBeta) {
			t.Fatalf("entries %v: %v, want %v", entries, err, ErrNoBeta)
		}
	}
}
