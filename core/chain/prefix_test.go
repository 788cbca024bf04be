package chain_test

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/internal/workload"
	"github.com/gavel-eth/gavel/params"
)

// resubmitter is a builder resubmitting its block for one slot: the same
// parent and environment, a list of bundles changed a little each time.
type resubmitter struct {
	c       *chain.Chain
	gen     *workload.Gen
	rnd     *rand.Rand
	parent  *types.Header
	attrs   chain.BuildAttrs
	root    common.Hash
	bundles []workload.Bundle
	// devNonce counts the txs unusual made per dev account.
	devNonce map[common.Address]uint64
}

func newResubmitter(tb testing.TB, c *chain.Chain, w *workload.Workload, seed uint64) *resubmitter {
	parent := c.Head()
	nonce := func(a common.Address) uint64 { n, _, _ := c.HeadAccount(a); return n }
	r := &resubmitter{c: c, gen: w.NewGen(seed, types.LatestSigner(c.Config()), nonce), parent: parent, root: common.Hash{0xbe}}
	r.rnd = r.gen.Rand()
	r.attrs = chain.BuildAttrs{Timestamp: parent.Time + 12, Random: common.Hash{7}, BeaconRoot: &r.root, Withdrawals: types.Withdrawals{}, GasLimit: workload.GasLimit}
	return r
}

// mutate changes the bundle list as a builder's next submission would:
// a new bundle at a random place or at the end, a bundle moved, one
// dropped, or a reverting tx added. With tail, the places are in the last
// quarter of the list (a builder whose top of block holds while the bundles
// it fills the rest with change).
func (r *resubmitter) mutate(changes int, tail bool) {
	at := func(n int) int {
		if tail {
			return n - n/4 + r.rnd.IntN(n/4+1)
		}
		return r.rnd.IntN(n + 1)
	}
	for ; changes > 0; changes-- {
		n := len(r.bundles)
		switch op := r.rnd.IntN(10); {
		case n == 0 || op < 3:
			r.bundles = append(r.bundles, r.gen.Bundle())
		case op < 6:
			i := at(n)
			r.bundles = append(r.bundles[:i], append([]workload.Bundle{r.gen.Bundle()}, r.bundles[i:]...)...)
		case op < 8:
			i, j := min(at(n), n-1), at(n-1)
			b := r.bundles[i]
			r.bundles = append(r.bundles[:i], r.bundles[i+1:]...)
			j = min(j, len(r.bundles))
			r.bundles = append(r.bundles[:j], append([]workload.Bundle{b}, r.bundles[j:]...)...)
		case op < 9:
			i := min(at(n), n-1)
			r.bundles = append(r.bundles[:i], r.bundles[i+1:]...)
		default:
			i := at(n)
			b := workload.Bundle{Txs: types.Transactions{r.gen.Reverting()}, Gas: 30_000}
			r.bundles = append(r.bundles[:i], append([]workload.Bundle{b}, r.bundles[i:]...)...)
		}
	}
}

// unusual inserts, at a random place, a bundle of a tx the workload's mix
// has none of: a contract creation (never replayed: it creates code) or a
// transfer to an address that does not exist yet (replayed by creating the
// account). They come from dev accounts with nonces
// counted here; one that a later change moves before a lower nonce is left
// out of the block by the builder.
func (r *resubmitter) unusual(tb testing.TB) {
	tb.Helper()
	create := r.rnd.IntN(2) == 0
	dev := params.DevAccounts()[7]
	if create {
		dev = params.DevAccounts()[8]
	}
	if r.devNonce == nil {
		r.devNonce = map[common.Address]uint64{}
	}
	n, _, err := r.c.HeadAccount(dev.Address)
	if err != nil {
		tb.Fatal(err)
	}
	tx := &types.DynamicFeeTx{ChainID: big.NewInt(params.DevChainID), Nonce: n + r.devNonce[dev.Address], GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(50e9)}
	r.devNonce[dev.Address]++
	if create {
		// Stores 1 in slot 0, deploys the one-byte code STOP.
		tx.Gas, tx.Data = 100_000, common.FromHex("0x600160005560016000f3")
	} else {
		to := common.BigToAddress(new(big.Int).SetUint64(0xf00000 + r.rnd.Uint64N(1<<20)))
		tx.To, tx.Gas, tx.Value = &to, 21_000, big.NewInt(1e15)
	}
	b := workload.Bundle{Txs: types.Transactions{types.MustSignNewTx(dev.Key, types.LatestSigner(r.c.Config()), tx)}, Gas: tx.Gas}
	i := r.rnd.IntN(len(r.bundles) + 1)
	r.bundles = append(r.bundles[:i], append([]workload.Bundle{b}, r.bundles[i:]...)...)
}

// payload builds the current bundle list into a block paying value (nil:
// its earnings) to proposer.
func (r *resubmitter) payload(tb testing.TB, proposer common.Address, value *uint256.Int) (*chain.BuilderPayload, *workload.Built) {
	tb.Helper()
	b, err := workload.Build(context.Background(), r.c, r.parent, r.attrs, workload.Flatten(r.bundles),
		workload.Payment{Builder: params.DevAccounts()[9].Key, To: proposer, Value: value})
	if err != nil {
		tb.Fatal(err)
	}
	return &chain.BuilderPayload{
		Payload: b.Envelope.ExecutionPayload, VersionedHashes: []common.Hash{}, ParentBeaconRoot: &r.root, Requests: b.Requests,
		RegisteredGasLimit: workload.GasLimit, ProposerFeeRecipient: proposer, Value: b.Value,
	}, b
}

// withStateRoot is a copy of p whose header's state root edit changes, with
// the block hash that header has.
func withStateRoot(tb testing.TB, p *chain.BuilderPayload, edit func(*common.Hash)) *chain.BuilderPayload {
	tb.Helper()
	cp := fresh(p)
	edit(&cp.Payload.StateRoot)
	b, err := engine.ExecutableDataToBlockNoHash(*cp.Payload, cp.VersionedHashes, cp.ParentBeaconRoot, cp.Requests)
	if err != nil {
		tb.Fatal(err)
	}
	cp.Payload.BlockHash = b.Hash()
	return cp
}

func fresh(p *chain.BuilderPayload) *chain.BuilderPayload {
	cp := *p
	d := *p.Payload
	cp.Payload = &d
	return &cp
}

// TestPrefixCacheMatchesFullSimulation is the property test of incremental
// simulation: over random resubmission streams (new bundles anywhere,
// moves, drops, reverting txs), every block verified from a kept prefix
// state gives what a full verification gives: the same verdict, the same
// receipts (status, gas, logs, block hash), gas used and payment, and the
// state root (both pass ValidateState against the header), most of them
// with the state root computed in an earlier block's final state, none
// redone. Claims a block does not pay and a state root one bit off are
// refused the same way. Each round ends by importing its last block, so
// the next round's blocks are on another parent with the same cache: no
// read of the old parent's state may serve them.
func TestPrefixCacheMatchesFullSimulation(t *testing.T) {
	w := workload.New(workload.Size{Name: "prefix", Accounts: 300, Senders: 400, Tokens: 3, Pools: 3, Holders: 60})
	c, stop, err := chain.NewInMemory(w.Genesis())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ctx := context.Background()
	proposer := common.Address{0x9f}
	rounds, subs := 3, 10
	if testing.Short() {
		rounds = 2
	}
	pc := chain.NewPrefixCache(3, 6)
	creations, newAddrs := 0, 0 // unusual txs included in blocks
	var last *workload.Built
	for round := 0; round < rounds; round++ {
		r := newResubmitter(t, c, w, uint64(round+1))
		r.bundles = r.gen.Bundles(1_000_000 + uint64(round)*1_000_000)
		for s := 0; s < subs; s++ {
			r.mutate(1+r.rnd.IntN(4), s%3 == 0)
			if s%2 == 1 {
				r.unusual(t)
			}
			p, built := r.payload(t, proposer, nil)
			keep := r.rnd.IntN(2) == 0
			full, inc := fresh(p), fresh(p)
			full.KeepState, inc.KeepState, inc.Prefixes = keep, keep, pc
			want, err1 := c.ValidatePayload(ctx, full)
			redone := pc.Stats().Redone
			got, err2 := c.ValidatePayload(ctx, inc)
			if st := pc.Stats(); st.Redone != redone {
				t.Fatalf("round %d submission %d: the incremental verification was redone in full (%+v): a replay or a rehash differed from execution", round, s, st)
			}
			for _, tx := range built.Block.Transactions() {
				if tx.To() == nil {
					creations++
				} else if a := tx.To().Big(); a.Cmp(big.NewInt(0xf00000)) >= 0 && a.Cmp(big.NewInt(0xf00000+1<<20)) < 0 {
					newAddrs++
				}
			}
			name := fmt.Sprintf("round %d submission %d (%d txs)", round, s, len(built.Block.Transactions()))
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: full: %v, incremental: %v; expected both to pass", name, err1, err2)
			}
			if got.Block.Hash() != want.Block.Hash() || got.PaymentByTx != want.PaymentByTx || got.HasState() != want.HasState() {
				t.Fatalf("%s: block %s payment-by-tx %v state %v, expected %s %v %v", name, got.Block.Hash(), got.PaymentByTx, got.HasState(), want.Block.Hash(), want.PaymentByTx, want.HasState())
			}
			if !reflect.DeepEqual(got.Receipts, want.Receipts) {
				for i := range want.Receipts {
					if !reflect.DeepEqual(got.Receipts[i], want.Receipts[i]) {
						t.Fatalf("%s: receipt %d:\n got %+v\nwant %+v", name, i, got.Receipts[i], want.Receipts[i])
					}
				}
				t.Fatalf("%s: %d receipts, expected %d", name, len(got.Receipts), len(want.Receipts))
			}
			// A claim above what the block pays fails the same way.
			over := fresh(p)
			over.Value = new(uint256.Int).AddUint64(p.Value, 1)
			over.Prefixes = pc
			if _, err := c.ValidatePayload(ctx, over); !errors.Is(err, chain.ErrPayment) {
				t.Fatalf("%s: claim 1 wei over the payment: %v, expected %v", name, err, chain.ErrPayment)
			}
			// A state root that is not the block's is refused, whatever
			// end state the root was computed in.
			if s%4 == 3 {
				bad := withStateRoot(t, p, func(h *common.Hash) { h[31] ^= 1 })
				bad.Prefixes = pc
				if _, err := c.ValidatePayload(ctx, bad); !errors.Is(err, chain.ErrExecution) {
					t.Fatalf("%s: state root one bit off: %v, expected %v", name, err, chain.ErrExecution)
				}
			}
			last = built
		}
		if round+1 < rounds {
			if err := c.ImportBuilt(last.BuiltBlock); err != nil {
				t.Fatal(err)
			}
		}
	}
	st := pc.Stats()
	t.Logf("prefix cache: %+v", st)
	if st.Hits == 0 || st.Skipped == 0 {
		t.Fatalf("no verification started from a kept prefix (%+v): the test did not exercise the cache", st)
	}
	if st.Replayed == 0 {
		t.Fatalf("no transaction was replayed from a record (%+v): the test did not exercise replays", st)
	}
	if creations == 0 || newAddrs == 0 {
		t.Fatalf("blocks included %d contract creations and %d transfers to new addresses, expected some of each", creations, newAddrs)
	}
	if st.Rehashed < uint64(rounds*subs)/2 {
		t.Fatalf("%d of %d state roots computed in an earlier block's final state (%+v), expected most", st.Rehashed, rounds*subs, st)
	}
	if st.Blocks > 3 || st.Points > 3*6 {
		t.Fatalf("cache holds %d blocks and %d points, expected at most 3 and 18", st.Blocks, st.Points)
	}
}

// TestPrefixCacheConcurrent verifies blocks sharing prefixes from several
// goroutines at once through one cache (the relay verifies submissions
// concurrently): every one passes, and a run with -race finds no race on
// the shared points.
func TestPrefixCacheConcurrent(t *testing.T) {
	w := workload.New(workload.Size{Name: "prefix", Accounts: 300, Senders: 400, Tokens: 3, Pools: 3, Holders: 60})
	c, stop, err := chain.NewInMemory(w.Genesis())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	r := newResubmitter(t, c, w, 77)
	r.bundles = r.gen.Bundles(1_500_000)
	var payloads []*chain.BuilderPayload
	for i := 0; i < 6; i++ {
		r.mutate(2, i%2 == 0)
		p, _ := r.payload(t, common.Address{0x9f}, nil)
		payloads = append(payloads, p)
	}
	pc := chain.NewPrefixCache(4, 4)
	if _, err := c.ValidatePayload(context.Background(), func() *chain.BuilderPayload { p := fresh(payloads[0]); p.Prefixes = pc; return p }()); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 3*len(payloads))
	for g := 0; g < 3; g++ {
		go func() {
			for _, p := range payloads {
				cp := fresh(p)
				cp.Prefixes = pc
				_, err := c.ValidatePayload(context.Background(), cp)
				errs <- err
			}
		}()
	}
	for i := 0; i < cap(errs); i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if st := pc.Stats(); st.Hits == 0 {
		t.Fatalf("no verification started from a point: %+v", st)
	}
}
