package miner

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/bundlepool"
	"github.com/gavel-eth/gavel/params"
)

var revertAddr = common.HexToAddress("0x00000000000000000000000000000000000dead1")

type env struct {
	c       *chain.Chain
	pool    *bundlepool.Pool
	builder *Builder
	keys    []*ecdsa.PrivateKey
}

// newEnv is a real in-memory dev chain with extra funded keys, a real
// bundle pool and the builder.
func newEnv(t testing.TB, extraKeys int) *env {
	t.Helper()
	g := chain.DevGenesis(params.DevGasLimit, 1_700_000_000)
	g.Alloc[revertAddr] = types.Account{Code: common.FromHex("0x60006000fd"), Balance: new(big.Int)}
	var keys []*ecdsa.PrivateKey
	for _, a := range params.DevAccounts() {
		keys = append(keys, a.Key)
	}
	for i := 0; i < extraKeys; i++ {
		k, _ := crypto.GenerateKey()
		keys = append(keys, k)
		g.Alloc[crypto.PubkeyToAddress(k.PublicKey)] = types.Account{Balance: big.NewInt(1e18)}
	}
	c, stop, err := chain.NewInMemory(g)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	pool := bundlepool.New(bundlepool.Config{}, c.ChainID(), func() uint64 { return c.Head().Number.Uint64() }, nil)
	return &env{c: c, pool: pool, builder: New(c, pool, Config{}), keys: keys}
}

func (e *env) tx(t testing.TB, key *ecdsa.PrivateKey, nonce uint64, to common.Address, value, tip int64) hexutil.Bytes {
	t.Helper()
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(e.c.Config().ChainID), &types.DynamicFeeTx{
		ChainID: e.c.Config().ChainID, Nonce: nonce, GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(100e9),
		Gas: 60000, To: &to, Value: big.NewInt(value)})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tx.MarshalBinary()
	return raw
}

func (e *env) send(t testing.TB, args bundle.SendBundleArgs) common.Hash {
	t.Helper()
	h, err := e.pool.Add(args, common.Address{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func (e *env) build(t testing.TB) *Result {
	t.Helper()
	parent := e.c.Head()
	root := common.Hash{0x42}
	res, err := e.builder.Build(context.Background(), parent, chain.BuildAttrs{
		Timestamp: parent.Time + 2, FeeRecipient: common.Address{0xfe}, Random: common.Hash{1}, BeaconRoot: &root})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func (e *env) buildAndImport(t *testing.T) *Result {
	t.Helper()
	res := e.build(t)
	if err := e.c.ImportBuilt(res.BuiltBlock); err != nil {
		t.Fatalf("built block rejected: %v", err)
	}
	e.builder.Imported(res.Block.Hash())
	e.pool.Prune(res.Block.NumberU64())
	return res
}

func hashes(block *types.Block) []common.Hash {
	var out []common.Hash
	for _, tx := range block.Transactions() {
		out = append(out, tx.Hash())
	}
	return out
}

func txHash(raw hexutil.Bytes) common.Hash { return crypto.Keccak256Hash(raw) }

func TestBundlesAtTopByPrice(t *testing.T) {
	e := newEnv(t, 0)
	next := bundle.Uint64(e.c.Head().Number.Uint64() + 1)
	low := e.tx(t, e.keys[0], 0, common.Address{1}, 1, 1e9)
	high := e.tx(t, e.keys[1], 0, common.Address{1}, 1, 5e9)
	// Pays the coinbase directly: highest effective price.
	direct := e.tx(t, e.keys[2], 0, common.Address{0xfe}, 1e16, 0)
	later := e.tx(t, e.keys[3], 0, common.Address{1}, 1, 9e9)
	e.send(t, bundle.SendBundleArgs{Txs: []hexutil.Bytes{low}, BlockNumber: next})
	e.send(t, bundle.SendBundleArgs{Txs: []hexutil.Bytes{high}, BlockNumber: next})
	e.send(t, bundle.SendBundleArgs{Txs: []hexutil.Bytes{direct}, BlockNumber: next})
	e.send(t, bundle.SendBundleArgs{Txs: []hexutil.Bytes{later}, BlockNumber: next + 1})

	res := e.buildAndImport(t)
	got := hashes(res.Block)
	want := []common.Hash{txHash(direct), txHash(high), txHash(low)}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("block %d txs %v, want %v", res.Block.NumberU64(), got, want)
	}
	// The bundle for the next block waits for it.
	res = e.buildAndImport(t)
	if got := hashes(res.Block); len(got) != 1 || got[0] != txHash(later) {
		t.Fatalf("next block txs %v", got)
	}
}

func TestRevertingBundleDroppedWhole(t *testing.T) {
	e := newEnv(t, 0)
	next := bundle.Uint64(e.c.Head().Number.Uint64() + 1)
	ok := e.tx(t, e.keys[0], 0, common.Address{1}, 1, 2e9)
	rev := e.tx(t, e.keys[0], 1, revertAddr, 0, 2e9)
	e.send(t, bundle.SendBundleArgs{Txs: []hexutil.Bytes{ok, rev}, BlockNumber: next})
	// The same txs with the revert allowed, from another sender.
	ok2 := e.tx(t, e.keys[1], 0, common.Address{1}, 1, 1e9)
	rev2 := e.tx(t, e.keys[1], 1, revertAddr, 0, 1e9)
	e.send(t, bundle.SendBundleArgs{Txs: []hexutil.Bytes{ok2, rev2}, BlockNumber: next, RevertingTxHashes: []common.Hash{txHash(rev2)}})

	res := e.buildAndImport(t)
	got := hashes(res.Block)
	if len(got) != 2 || got[0] != txHash(ok2) || got[1] != txHash(rev2) {
		t.Fatalf("block txs %v: want only the bundle allowed to revert", got)
	}
	for _, h := range got {
		if h == txHash(ok) {
			t.Fatal("a tx of the reverting bundle was included")
		}
	}
	if len(res.Bundles) != 1 {
		t.Fatalf("%d bundles reported", len(res.Bundles))
	}
}

func TestCancelledBundleNeverIncluded(t *testing.T) {
	e := newEnv(t, 0)
	next := bundle.Uint64(e.c.Head().Number.Uint64() + 1)
	uuid := "123e4567-e89b-12d3-a456-426614174000"
	tx := e.tx(t, e.keys[0], 0, common.Address{1}, 1, 2e9)
	e.send(t, bundle.SendBundleArgs{Txs: []hexutil.Bytes{tx}, BlockNumber: next, ReplacementUUID: uuid})
	e.send(t, bundle.SendBundleArgs{Txs: []hexutil.Bytes{tx}, BlockNumber: next + 1, ReplacementUUID: uuid}) // replaces
	if _, err := e.pool.Cancel(uuid, common.Address{}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if res := e.buildAndImport(t); len(res.Block.Transactions()) != 0 {
			t.Fatalf("block %d holds %d txs after cancel", res.Block.NumberU64(), len(res.Block.Transactions()))
		}
	}
}

func TestTimestampWindow(t *testing.T) {
	e := newEnv(t, 0)
	head := e.c.Head()
	next := bundle.Uint64(head.Number.Uint64() + 1)
	ts := head.Time + 2
	early, late := bundle.Uint64(ts+1), bundle.Uint64(ts-1)
	e.send(t, bundle.SendBundleArgs{Txs: []hexutil.Bytes{e.tx(t, e.keys[0], 0, common.Address{1}, 1, 2e9)}, BlockNumber: next, MinTimestamp: &early})
	e.send(t, bundle.SendBundleArgs{Txs: []hexutil.Bytes{e.tx(t, e.keys[1], 0, common.Address{1}, 1, 2e9)}, BlockNumber: next, MaxTimestamp: &late})
	inWindow := e.tx(t, e.keys[2], 0, common.Address{1}, 1, 2e9)
	lo, hi := bundle.Uint64(ts), bundle.Uint64(ts)
	e.send(t, bundle.SendBundleArgs{Txs: []hexutil.Bytes{inWindow}, BlockNumber: next, MinTimestamp: &lo, MaxTimestamp: &hi})
	res := e.buildAndImport(t)
	if got := hashes(res.Block); len(got) != 1 || got[0] != txHash(inWindow) {
		t.Fatalf("txs %v, want only the bundle whose window holds %d", got, ts)
	}
}

// BenchmarkSelect1000 builds a block from 1,000 pending one-tx bundles
// (distinct senders, distinct tips): simulate each, order, apply. The
// baseline is the same block with no bundles.
func BenchmarkSelect1000(b *testing.B) {
	for _, n := range []int{0, 1000} {
		b.Run(map[int]string{0: "empty", 1000: "bundles1000"}[n], func(b *testing.B) {
			e := newEnv(b, n)
			next := bundle.Uint64(e.c.Head().Number.Uint64() + 1)
			for i := 0; i < n; i++ {
				e.send(b, bundle.SendBundleArgs{Txs: []hexutil.Bytes{e.tx(b, e.keys[10+i], 0, common.Address{1}, 1, int64(1e9+i))}, BlockNumber: next})
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res := e.build(b)
				if len(res.Bundles) != n {
					b.Fatalf("%d bundles included", len(res.Bundles))
				}
			}
		})
	}
}
