package relay_test

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/core/errclass"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/internal/store/pgtest"
	"github.com/gavel-eth/gavel/params"
)

// ether is 10^18 wei.
var ether = uint256.NewInt(1_000_000_000_000_000_000)

// promote makes the env's builder optimistic with collateral, as
// `gavel relay builders set --optimistic` does, and has the relay read it.
func promote(t *testing.T, e *relaytest.Env, collateral *uint256.Int) {
	t.Helper()
	err := e.Store.SetOptimisticBuilder(context.Background(), store.OptimisticBuilder{
		Pubkey: e.BuilderKey.PublicKey(), Collateral: beacon.U256FromUint256(collateral), UpdatedAt: time.Now().UnixMilli(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Relay.ReloadBuilders(); err != nil {
		t.Fatal(err)
	}
}

// watchSimulations returns the results of the relay's background
// simulations of optimistic bids, in the order they end.
// heldOptimistic is a relay whose builder is optimistic with one ether of
// collateral, its background simulations watched and held until release.
func heldOptimistic(t *testing.T) (*relaytest.Env, chan error, func()) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	promote(t, e, ether)
	sims := watchSimulations(e)
	release := e.Relay.HoldOptimisticSimulations()
	t.Cleanup(release)
	return e, sims, release
}

func watchSimulations(e *relaytest.Env) chan error {
	ch := make(chan error, 16)
	e.Relay.OnOptimisticSimulated(func(_ beacon.Root, err error) { ch <- err })
	return ch
}

func waitSimulation(t *testing.T, ch chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the background simulation did not end")
		return nil
	}
}

// badRoot is b's block with a wrong state root, correctly hashed and
// signed: every check before simulation passes.
func badRoot(t *testing.T, e *relaytest.Env, b *relaytest.Block) *beacon.Submission {
	t.Helper()
	h := b.Built.Block.Header()
	h.Root = common.Hash{1}
	d := engine.BlockToExecutableData(b.Built.Block.WithSeal(h), nil, nil, nil).ExecutionPayload
	p, err := beacon.ExecutionPayloadFromExecutableData(params.ForkFulu, d)
	if err != nil {
		t.Fatal(err)
	}
	r := fulu(e.Submission(b))
	r.ExecutionPayload = *p.Deneb
	r.Message.BlockHash = p.Deneb.BlockHash
	s, err := e.Sign(r)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// overclaim is b's submission claiming one wei more than the block pays.
func overclaim(t *testing.T, e *relaytest.Env, b *relaytest.Block) *beacon.Submission {
	t.Helper()
	s, err := e.SubmissionWith(b, func(tr *beacon.BidTrace) {
		tr.Value = beacon.U256FromUint256(new(uint256.Int).AddUint64(b.Value, 1))
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func header(t *testing.T, e *relaytest.Env, slot uint64) *beacon.SignedBuilderBid {
	t.Helper()
	bid, err := e.Relay.GetHeader(context.Background(), slot, beacon.Root(e.Chain.Head().Hash()), e.Proposer(slot).Key.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	return bid
}

func pendingSimulations(t *testing.T, st store.Store) int {
	t.Helper()
	n := 0
	if err := st.PendingSimulations(context.Background(), func(*store.PendingSimulation) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}

func demotions(t *testing.T, st store.Store) []store.DemotionRecord {
	t.Helper()
	rows, err := st.Demotions(context.Background(), store.DemotionQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestOptimisticServedBeforeSimulation: an optimistic builder's bid within
// its collateral is served by getHeader while its simulation has not run
// (held), with the simulation owed recorded in the store; once the
// simulation passes, the record is gone and the builder stays optimistic.
func TestOptimisticServedBeforeSimulation(t *testing.T) {
	e, sims, release := heldOptimistic(t)
	b := e.BuildBlock(1, 3, nil)
	if out, err := submit(e, e.Submission(b), false); err != nil || out != relay.Accepted {
		t.Fatalf("submit: %v, %v", out, err)
	}
	got := header(t, e, 1)
	if got == nil || got.Header().BlockHash() != beacon.Root(b.Built.Block.Hash()) {
		t.Fatalf("getHeader before the simulation: %v, want the optimistic bid %s", got, b.Built.Block.Hash())
	}
	if n := pendingSimulations(t, e.Store); n != 1 {
		t.Fatalf("%d pending simulations recorded while it is held, want 1", n)
	}
	release()
	if err := waitSimulation(t, sims); err != nil {
		t.Fatalf("background simulation: %v", err)
	}
	e.Relay.WaitBackground()
	if n := pendingSimulations(t, e.Store); n != 0 {
		t.Fatalf("%d pending simulations after it passed", n)
	}
	if got := header(t, e, 1); got == nil || got.Header().BlockHash() != beacon.Root(b.Built.Block.Hash()) {
		t.Fatalf("getHeader after the simulation: %v", got)
	}
	if d := demotions(t, e.Store); len(d) != 0 {
		t.Fatalf("demotions after a good block: %+v", d)
	}
	// Still optimistic: a second block is served before its simulation too.
	t.Cleanup(e.Relay.HoldOptimisticSimulations())
	b2 := e.BuildBlock(1, 4, nil)
	if _, err := submit(e, e.Submission(b2), false); err != nil {
		t.Fatal(err)
	}
	if n := pendingSimulations(t, e.Store); n != 1 {
		t.Fatalf("the second block took the safe path: %d pending", n)
	}
}

// TestOptimisticBadBlocks: an optimistic builder's invalid block and its
// payment short of the claim are served, then demote the builder when the
// simulation fails: the bid is withdrawn from getHeader, the demotion
// recorded with its reason, and the builder's next submission takes the
// safe path (its invalid block is refused at once). A bid over the
// collateral takes the safe path from the start.
func TestOptimisticBadBlocks(t *testing.T) {
	cases := []struct {
		name   string
		sub    func(*testing.T, *relaytest.Env, *relaytest.Block) *beacon.Submission
		reason string
	}{
		{"invalid block", badRoot, "invalid merkle root"},
		{"payment short of claim", overclaim, "inaccurate payment"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := relaytest.New(t, relaytest.Options{})
			e.RegisterAll()
			promote(t, e, ether)
			sims := watchSimulations(e)
			release := e.Relay.HoldOptimisticSimulations()
			t.Cleanup(release)
			b := e.BuildBlock(1, 3, nil)
			bad := c.sub(t, e, b)
			if out, err := submit(e, bad, false); err != nil || out != relay.Accepted {
				t.Fatalf("optimistic submit: %v, %v (the safe path would refuse it)", out, err)
			}
			if got := header(t, e, 1); got == nil || got.Header().BlockHash() != bad.BidTrace().BlockHash {
				t.Fatalf("getHeader before the simulation: %v", got)
			}
			release()
			if err := waitSimulation(t, sims); !errors.Is(err, relay.ErrSimulation) {
				t.Fatalf("background simulation: %v, want %v", err, relay.ErrSimulation)
			}
			e.Relay.WaitBackground()
			if got := header(t, e, 1); got != nil {
				t.Fatalf("getHeader still serves the demoted builder's bid %s", got.Header().BlockHash())
			}
			d := demotions(t, e.Store)
			if len(d) != 1 || d[0].BlockHash != bad.BidTrace().BlockHash || d[0].Slot != 1 || d[0].Delivered || !strings.Contains(d[0].Reason, c.reason) {
				t.Fatalf("demotions %+v, want one of slot 1 with reason %q, not delivered", d, c.reason)
			}
			if n := pendingSimulations(t, e.Store); n != 0 {
				t.Fatalf("%d pending simulations after the demotion", n)
			}
			// Demoted: the same bad block is now simulated before it is
			// answered, and refused.
			if _, err := submit(e, c.sub(t, e, e.BuildBlock(1, 4, nil)), false); !errors.Is(err, relay.ErrSimulation) {
				t.Fatalf("demoted builder's bad resubmission: %v, want %v", err, relay.ErrSimulation)
			}
			// Its good block is verified first and then served; the
			// withdrawn bid is not.
			good := e.BuildBlock(1, 5, nil)
			if _, err := submit(e, e.Submission(good), false); err != nil {
				t.Fatal(err)
			}
			if got := header(t, e, 1); got == nil || got.Header().BlockHash() != beacon.Root(good.Built.Block.Hash()) {
				t.Fatalf("getHeader after the safe resubmission: %v", got)
			}
			if n := pendingSimulations(t, e.Store); n != 0 {
				t.Fatalf("the demoted builder's submission was served optimistically")
			}
			// Re-promoted by the operator: optimistic again from the next
			// slot on (its bids of slot 1 stay on the safe path).
			promote(t, e, ether)
			if _, err := submit(e, c.sub(t, e, e.BuildBlock(1, 6, nil)), false); !errors.Is(err, relay.ErrSimulation) {
				t.Fatalf("re-promoted builder's bad block for the slot it was demoted in: %v, want %v", err, relay.ErrSimulation)
			}
			if _, err := submit(e, c.sub(t, e, e.BuildBlock(2, 6, nil)), false); err != nil {
				t.Fatalf("re-promoted builder's submission: %v, want it served before its simulation", err)
			}
			waitSimulation(t, sims)
		})
	}
	t.Run("over collateral", func(t *testing.T) {
		e := relaytest.New(t, relaytest.Options{})
		e.RegisterAll()
		b := e.BuildBlock(1, 3, nil)
		promote(t, e, new(uint256.Int).SubUint64(b.Value, 1))
		if _, err := submit(e, badRoot(t, e, b), false); !errors.Is(err, relay.ErrSimulation) {
			t.Fatalf("bid over the collateral: %v, want %v from the safe path", err, relay.ErrSimulation)
		}
		if d := demotions(t, e.Store); len(d) != 0 {
			t.Fatalf("a safe-path failure demoted the builder: %+v", d)
		}
		if _, err := submit(e, e.Submission(e.BuildBlock(1, 4, nil)), false); err != nil {
			t.Fatal(err)
		}
		if n := pendingSimulations(t, e.Store); n != 0 {
			t.Fatal("a bid over the collateral was served before its simulation")
		}
	})
	t.Run("off by default", func(t *testing.T) {
		e := relaytest.New(t, relaytest.Options{})
		e.RegisterAll()
		if _, err := submit(e, badRoot(t, e, e.BuildBlock(1, 3, nil)), false); !errors.Is(err, relay.ErrSimulation) {
			t.Fatalf("a builder the operator did not make optimistic: %v, want %v", err, relay.ErrSimulation)
		}
	})
}

// TestOptimisticDeliveredThenDemoted: getPayload serves an optimistic bid
// whose simulation is still running (the collateral covers the proposer);
// when the simulation then fails, the demotion says the block was
// delivered.
func TestOptimisticDeliveredThenDemoted(t *testing.T) {
	e, sims, release := heldOptimistic(t)
	b := e.BuildBlock(1, 3, nil)
	bad := overclaim(t, e, b)
	if _, err := submit(e, bad, false); err != nil {
		t.Fatal(err)
	}
	signed := header(t, e, 1)
	if signed == nil {
		t.Fatal("no header")
	}
	if _, err := e.Relay.GetPayload(context.Background(), e.BlindedBlock(1, signed), false); err != nil {
		t.Fatalf("getPayload of an optimistic bid still simulating: %v", err)
	}
	release()
	if err := waitSimulation(t, sims); err == nil {
		t.Fatal("the overclaiming block passed its simulation")
	}
	e.Relay.WaitBackground()
	d := demotions(t, e.Store)
	if len(d) != 1 || !d[0].Delivered || d[0].Value != bad.BidTrace().Value {
		t.Fatalf("demotions %+v, want one delivered at value %s", d, bad.BidTrace().Value)
	}
}

// TestOptimisticRestart: a relay serves an optimistic bid and dies before
// simulating it. Restarted on the same SQLite file while the slot is
// still ahead, it serves the bid again and runs the simulation; restarted
// after the slot passed, it demotes the builder with ReasonSimulationLost.
func TestOptimisticRestart(t *testing.T) {
	for _, late := range []bool{false, true} {
		name := "slot ahead"
		if late {
			name = "slot passed"
		}
		t.Run(name, func(t *testing.T) {
			path := t.TempDir() + "/relay.db"
			e := relaytest.New(t, relaytest.Options{StorePath: path})
			e.RegisterAll()
			promote(t, e, ether)
			e.Relay.DropOptimisticSimulations()
			b := e.BuildBlock(1, 3, nil)
			if _, err := submit(e, e.Submission(b), false); err != nil {
				t.Fatal(err)
			}
			if got := header(t, e, 1); got == nil {
				t.Fatal("not served")
			}
			e.Relay.Close()
			if err := e.Store.Close(); err != nil {
				t.Fatal(err)
			}

			opts := relaytest.Options{StorePath: path}
			if late {
				opts.Configure = func(c *relay.Config) {
					at := time.Unix(int64(c.Beacon.SlotTime(3)), 0)
					c.Now = func() time.Time { return at }
				}
			}
			e2 := relaytest.New(t, opts)
			e2.Relay.WaitBackground()
			d := demotions(t, e2.Store)
			if late {
				if len(d) != 1 || d[0].Reason != relay.ReasonSimulationLost || d[0].BlockHash != beacon.Root(b.Built.Block.Hash()) {
					t.Fatalf("demotions after a restart past the slot: %+v, want %q", d, relay.ReasonSimulationLost)
				}
			} else {
				if len(d) != 0 {
					t.Fatalf("demotions after a resumed good simulation: %+v", d)
				}
				if got := header(t, e2, 1); got == nil || got.Header().BlockHash() != beacon.Root(b.Built.Block.Hash()) {
					t.Fatalf("the resumed bid is not served: %v", got)
				}
			}
			if n := pendingSimulations(t, e2.Store); n != 0 {
				t.Fatalf("%d pending simulations left after the restart", n)
			}
		})
	}
}

// TestOptimisticDemotionShared: two relay instances on one PostgreSQL
// database. An optimistic builder's invalid block, served by A before its
// simulation, reaches B and is served there too; A's failed simulation
// demotes the builder, and B withdraws the bid at once (notification), so
// neither serves it, nor reads it through from the database again.
func TestOptimisticDemotionShared(t *testing.T) {
	a, b, onB := optimisticPair(t)
	sims := watchSimulations(a)
	release := a.Relay.HoldOptimisticSimulations()
	t.Cleanup(release)
	bad := badRoot(t, a, a.BuildBlock(1, 3, nil))
	if _, err := submit(a, bad, false); err != nil {
		t.Fatalf("optimistic submit on A: %v", err)
	}
	waitBid(t, onB, bad.BidTrace().BlockHash)
	if got := header(t, b, 1); got == nil || got.Header().BlockHash() != bad.BidTrace().BlockHash {
		t.Fatalf("B before the simulation: %v", got)
	}
	release()
	if err := waitSimulation(t, sims); !errors.Is(err, relay.ErrSimulation) {
		t.Fatalf("A's simulation: %v", err)
	}
	if got := header(t, a, 1); got != nil {
		t.Fatal("A still serves the demoted builder's bid")
	}
	deadline := time.Now().Add(time.Minute)
	for header(t, b, 1) != nil {
		if time.Now().After(deadline) {
			t.Fatal("B still serves the bid A's demotion withdrew")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// B's next submission from the builder takes the safe path.
	if _, err := submit(b, badRoot(t, b, b.BuildBlock(1, 4, nil)), false); !errors.Is(err, relay.ErrSimulation) {
		t.Fatalf("demoted builder's submission on B: %v, want %v", err, relay.ErrSimulation)
	}
}

// optimisticPair is two relay instances on one PostgreSQL database whose
// builder is optimistic with one ether of collateral, and the bids B
// installs from the database.
func optimisticPair(t *testing.T) (a, b *relaytest.Env, onB chan beacon.Root) {
	url := pgtest.URL(t)
	a, b = instance(t, url), instance(t, url)
	a.RegisterAll()
	promote(t, a, ether)
	if err := b.Relay.ReloadBuilders(); err != nil {
		t.Fatal(err)
	}
	return a, b, installed(b)
}

// TestOptimisticKeepsBeta: in a slot whose beta gas was sold, an
// optimistic bid that outbids the merged (alpha + beta) block is not
// served while its simulation runs: getHeader keeps serving the merged
// block; once the simulation passed and the beta part is merged onto the
// new bid, that merged block is served. In a slot without beta gas sold
// the optimistic bid is served at once.
//
// A header-first bid (headerfirst.go) is held back the same way, from its
// header to its block's merge.
func TestOptimisticKeepsBeta(t *testing.T) {
	t.Run("block", func(t *testing.T) { testOptimisticKeepsBeta(t, false) })
	t.Run("header first", func(t *testing.T) { testOptimisticKeepsBeta(t, true) })
}

func testOptimisticKeepsBeta(t *testing.T, headerFirst bool) {
	holder := &relaytest.BetaHolder{}
	e := relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) { c.Beta = holder }})
	ctx := context.Background()
	stats := store.NewStatsBuffer(e.Store, time.Hour)
	defer stats.Close()
	l2 := &relaytest.Settlement{Items: map[uint64]uint64{1: 1_000_000}}
	svc := e.BetaService(t, l2, stats)
	holder.Service = svc
	to := common.Address{0xbe}
	tx := types.MustSignNewTx(params.DevAccounts()[5].Key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei), Gas: 21000, To: &to, Value: big.NewInt(1)})
	raw, _ := tx.MarshalBinary()
	slot1 := "1"
	hash, err := svc.Pool().Add(ctx, bundle.BetaBundleArgs{Txs: []string{hexutil.Encode(raw)}, Slot: &slot1}, common.Address{0x5e})
	if err != nil {
		t.Fatal(err)
	}
	l2.Pay(1, 1_000_000, hash)
	svc.Refresh(ctx, 0)
	e.RegisterAll()

	// A verified bid, merged.
	alpha := e.BuildBlock(1, 3, uint256.NewInt(1e15))
	if _, err := submit(e, e.Submission(alpha), false); err != nil {
		t.Fatal(err)
	}
	merged := header(t, e, 1)
	if merged == nil || merged.Header().BlockHash() == beacon.Root(alpha.Built.Block.Hash()) {
		t.Fatalf("no merged block for the verified bid: %v", merged)
	}
	// The builder turns optimistic and outbids it.
	promote(t, e, ether)
	sims := watchSimulations(e)
	release := e.Relay.HoldOptimisticSimulations()
	t.Cleanup(release)
	higher := e.BuildBlock(1, 4, uint256.NewInt(2e15))
	if headerFirst {
		if _, err := submitHeader(e, headerOf(t, e.Submission(higher))); err != nil {
			t.Fatal(err)
		}
		if got := header(t, e, 1); got == nil || got.Header().BlockHash() != merged.Header().BlockHash() {
			t.Fatalf("getHeader while the top bid is a header: %v, want the merged block %s", got, merged.Header().BlockHash())
		}
	}
	if _, err := submit(e, e.Submission(higher), false); err != nil {
		t.Fatal(err)
	}
	if n := pendingSimulations(t, e.Store); n != 1 {
		t.Fatalf("the higher bid was not served optimistically (%d pending)", n)
	}
	if got := header(t, e, 1); got == nil || got.Header().BlockHash() != merged.Header().BlockHash() {
		t.Fatalf("getHeader while the optimistic top bid is unmerged: %v, want the merged block %s", got, merged.Header().BlockHash())
	}
	release()
	if err := waitSimulation(t, sims); err != nil {
		t.Fatal(err)
	}
	e.Relay.WaitBackground()
	got := header(t, e, 1)
	if got == nil || got.Header().BlockHash() == beacon.Root(higher.Built.Block.Hash()) || got.Header().BlockHash() == merged.Header().BlockHash() ||
		got.Value().Uint256().Cmp(higher.Value) != 0 {
		t.Fatalf("after the simulation: %v, want the higher bid merged with the beta part", got)
	}

	// Slot 2 sold no beta gas: the optimistic bid is served at once.
	b2 := e.BuildBlock(2, 3, nil)
	if _, err := submit(e, e.Submission(b2), false); err != nil {
		t.Fatal(err)
	}
	if got := header(t, e, 2); got == nil || got.Header().BlockHash() != beacon.Root(b2.Built.Block.Hash()) {
		t.Fatalf("slot without beta: %v, want the optimistic bid", got)
	}
}

// TestOptimisticQueueBound: with MaxOptimisticQueued optimistic bids
// waiting for their simulation, the next submission takes the safe path
// (its bad block is refused at once).
func TestOptimisticQueueBound(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	promote(t, e, ether)
	t.Cleanup(e.Relay.HoldOptimisticSimulations())
	for i := 0; i < relay.MaxOptimisticQueued; i++ {
		b := e.BuildBlock(1, 1, uint256.NewInt(1e15+uint64(i)))
		if _, err := submit(e, e.Submission(b), false); err != nil {
			t.Fatalf("submission %d: %v", i, err)
		}
	}
	if n := pendingSimulations(t, e.Store); n != relay.MaxOptimisticQueued {
		t.Fatalf("%d pending simulations, want %d", n, relay.MaxOptimisticQueued)
	}
	over := badRoot(t, e, e.BuildBlock(1, 1, uint256.NewInt(2e15)))
	if _, err := submit(e, over, false); !errors.Is(err, relay.ErrSimulation) {
		t.Fatalf("submission past the bound: %v, want %v from the safe path", err, relay.ErrSimulation)
	}
}

// TestOptimisticRecordsBody: the pending simulation of an optimistic bid
// records the SSZ body the submission came from as it is; a body that is
// not that SSZ (a JSON one) is not recorded, the submission is encoded
// instead. Either record decodes to the submission (a restart resumes it).
func TestOptimisticRecordsBody(t *testing.T) {
	for _, kind := range []string{"ssz", "json"} {
		t.Run(kind, func(t *testing.T) {
			e := relaytest.New(t, relaytest.Options{})
			e.RegisterAll()
			promote(t, e, ether)
			e.Relay.DropOptimisticSimulations()
			sub := e.Submission(e.BuildBlock(1, 3, nil))
			want, err := sub.MarshalSSZ()
			if err != nil {
				t.Fatal(err)
			}
			body := append([]byte(nil), want...)
			if kind == "json" {
				if body, err = sub.MarshalJSON(); err != nil {
					t.Fatal(err)
				}
			}
			out, err := e.Relay.Submit(context.Background(), relay.SubmitRequest{Submission: sub, ReceivedAt: e.Clock.Now(), SSZ: body})
			if err != nil || out != relay.Accepted {
				t.Fatalf("submit: %v, %v", out, err)
			}
			var recs []*store.PendingSimulation
			if err := e.Store.PendingSimulations(context.Background(), func(p *store.PendingSimulation) error { recs = append(recs, p); return nil }); err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 || !bytes.Equal(recs[0].Submission, want) {
				t.Fatalf("%d pending simulations; recorded %d bytes, want the submission's %d bytes of SSZ", len(recs), len(recs[0].Submission), len(want))
			}
		})
	}
}

// TestOptimisticBadSignatureNotServed: a submission naming an optimistic
// builder but signed with another key has its header signed ahead of the
// checks; the signature check refuses it and getHeader serves nothing.
func TestOptimisticBadSignatureNotServed(t *testing.T) {
	e, _, _ := heldOptimistic(t)
	b := e.BuildBlock(1, 3, nil)
	r := fulu(e.Submission(b))
	other, err := beacon.DeriveSecretKey(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	if r.Signature, err = other.Sign(&r.Message, beacon.BuilderDomain(e.Beacon)); err != nil {
		t.Fatal(err)
	}
	sub, err := beacon.NewSubmission(e.Spec, params.ForkFulu, r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := submit(e, sub, false); !errors.Is(err, relay.ErrBuilderSignature) {
		t.Fatalf("submit with another key's signature: %v, want %v", err, relay.ErrBuilderSignature)
	}
	if got := header(t, e, 1); got != nil {
		t.Fatalf("getHeader serves %s after a refused signature", got.Header().BlockHash())
	}
	if n := pendingSimulations(t, e.Store); n != 0 {
		t.Fatalf("%d pending simulations for a refused submission", n)
	}
}

// failingShare is a Sharing whose PutSharedBid fails.
type failingShare struct{ relay.Sharing }

func (failingShare) PutSharedBid(context.Context, *store.SharedBid) error {
	return errors.New("database gone")
}

// TestOptimisticShareFails: an optimistic bid is served before it is
// shared with the other instances; when the share fails, the bid is
// withdrawn, the builder hears of a relay fault, and getPayload, which
// waits for the share, does not deliver it.
func TestOptimisticShareFails(t *testing.T) {
	url := pgtest.URL(t)
	e := instanceWith(t, url, func(c *relay.Config) { c.Shared = failingShare{c.Shared} })
	e.RegisterAll()
	promote(t, e, ether)
	t.Cleanup(e.Relay.HoldOptimisticSimulations())
	sub := e.Submission(e.BuildBlock(1, 3, nil))
	_, err := submit(e, sub, false)
	if err == nil || !errclass.IsInternal(err) {
		t.Fatalf("submit with the share failing: %v, want a relay fault", err)
	}
	if got := header(t, e, 1); got != nil {
		t.Fatalf("getHeader serves %s, whose share failed", got.Header().BlockHash())
	}
	// A proposer who got the header while the share ran signs it.
	signed, err := beacon.NewSignedBuilderBid(e.Spec, sub.Payload(), nil, sub.ExecutionRequests(), sub.BidTrace().Value, e.RelayKey, beacon.BuilderDomain(e.Beacon))
	if err != nil {
		t.Fatal(err)
	}
	if d, err := e.Relay.GetPayload(context.Background(), e.BlindedBlock(1, signed), false); err == nil || d != nil {
		t.Fatalf("getPayload of the bid whose share failed: %v, %v; want no delivery", d, err)
	}
	if n := e.Publisher.Count(); n != 0 {
		t.Fatalf("%d blocks published", n)
	}
}
