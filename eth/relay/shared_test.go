package relay_test

import (
	"context"
	"errors"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/eth/betapool"
	"github.com/gavel-eth/gavel/params"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/internal/store/pgtest"
)

// instance starts a relay instance on the PostgreSQL database at url, with
// its own chain (same genesis as every other instance), following the
// other instances.
func instance(t *testing.T, url string) *relaytest.Env {
	t.Helper()
	return instanceWith(t, url, nil)
}

// instanceWith is instance with the relay config changed by configure.
func instanceWith(t *testing.T, url string, configure func(*relay.Config)) *relaytest.Env {
	t.Helper()
	return instanceOpts(t, url, relaytest.Options{Configure: configure})
}

// instanceOpts is instance with opts (its store and sharing set here).
func instanceOpts(t *testing.T, url string, opts relaytest.Options) *relaytest.Env {
	t.Helper()
	st, err := store.OpenPostgres(url, store.PostgresConfig{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opts.Store, opts.Shared = st, true
	e := relaytest.New(t, opts)
	select {
	case <-e.Relay.SharingUp():
	case <-time.After(time.Minute):
		t.Fatal("relay instance never started following the shared database")
	}
	return e
}

// installed returns a channel that receives the block hash of every bid
// of another instance that e's relay puts in its auctions.
func installed(e *relaytest.Env) chan beacon.Root {
	ch := make(chan beacon.Root, 64)
	e.Relay.OnSharedBid(func(h beacon.Root, _ time.Duration) { ch <- h })
	return ch
}

func waitBid(t *testing.T, ch chan beacon.Root, want beacon.Root) {
	t.Helper()
	for {
		select {
		case h := <-ch:
			if h == want {
				return
			}
		case <-time.After(time.Minute):
			t.Fatalf("bid %s never reached the other instance", want)
		}
	}
}

// TestSharedAuctionAcrossInstances: a bid verified by instance A is
// announced to B (LISTEN/NOTIFY) and served by B's getHeader; B's
// getPayload delivers it; an instance started afterwards finds both
// through the database (read-through); the delivery holds everywhere.
func TestSharedAuctionAcrossInstances(t *testing.T) {
	url := pgtest.URL(t)
	a, b := instance(t, url), instance(t, url)
	got := installed(b)
	a.RegisterAll()
	ctx := context.Background()

	sub := a.Submission(a.BuildBlock(1, 2, nil))
	if out, err := submit(a, sub, false); err != nil || out != relay.Accepted {
		t.Fatalf("submission to A: %v %v", out, err)
	}
	hash := sub.BidTrace().BlockHash
	waitBid(t, got, hash)
	// A's registrations were announced before its bid, on the same
	// connection: B has them now.
	for _, v := range b.Validators {
		if _, ok := b.Relay.Registration(v.Key.PublicKey()); !ok {
			t.Fatalf("B lacks the registration of validator %d made on A", v.Index)
		}
	}
	parent, pk := sub.BidTrace().ParentHash, a.Proposer(1).Key.PublicKey()
	bid, err := b.Relay.GetHeader(context.Background(), 1, parent, pk)
	if err != nil || bid == nil {
		t.Fatalf("getHeader on B: %v %v", bid, err)
	}
	if bid.Header().BlockHash() != hash || bid.Value() != sub.BidTrace().Value {
		t.Fatalf("B serves block %s value %s, want A's %s", bid.Header().BlockHash(), bid.Value(), hash)
	}
	if err := bid.VerifySignature(beacon.BuilderDomain(b.Beacon)); err != nil || bid.Pubkey() != b.Relay.Pubkey() {
		t.Fatalf("B's bid is not signed by the relay key: %v", err)
	}

	// An instance started now missed the notification: it reads through.
	c := instance(t, url)
	if bid, err := c.Relay.GetHeader(context.Background(), 1, parent, pk); err != nil || bid == nil || bid.Header().BlockHash() != hash {
		t.Fatalf("getHeader on a new instance: %v %v", bid, err)
	}
	d, err := b.Relay.GetPayload(ctx, b.BlindedBlock(1, bid), false)
	if err != nil || d.Payload.View().BlockHash != hash {
		t.Fatalf("getPayload on B for A's bid: %v", err)
	}
	// The same block again on A is served (same payload); the delivery is
	// in the shared database.
	if _, err := a.Relay.GetPayload(ctx, a.BlindedBlock(1, bid), false); err != nil {
		t.Fatalf("getPayload on A for the delivered block: %v", err)
	}
	if rec, err := a.Store.Delivered(ctx, 1); err != nil || rec.BlockHash != hash {
		t.Fatalf("delivery record: %v %v", rec, err)
	}
}

// TestSharedEquivocationGuard: 50 concurrent getPayload calls for two
// different blocks of one slot, split over two instances, deliver exactly
// one payload; the database's per-slot record decides.
func TestSharedEquivocationGuard(t *testing.T) {
	url := pgtest.URL(t)
	a, b := instance(t, url), instance(t, url)
	a.RegisterAll()
	gotA, gotB := installed(a), installed(b)
	subX := a.Submission(a.BuildBlock(1, 1, nil))
	subY := b.Submission(b.BuildBlock(1, 3, nil))
	if out, err := submit(a, subX, false); err != nil || out != relay.Accepted {
		t.Fatalf("X on A: %v %v", out, err)
	}
	waitBid(t, gotB, subX.BidTrace().BlockHash)
	if out, err := submit(b, subY, false); err != nil || out != relay.Accepted {
		t.Fatalf("Y on B: %v %v", out, err)
	}
	waitBid(t, gotA, subY.BidTrace().BlockHash)

	headerOf := func(e *relaytest.Env, sub *beacon.Submission) *beacon.SignedBlindedBeaconBlock {
		p := sub.Payload()
		h, err := p.Header(beacon.MainnetSpec)
		if err != nil {
			t.Fatal(err)
		}
		bid := &beacon.SignedBuilderBid{Fork: sub.Fork, Electra: &beacon.SignedBuilderBidElectra{}}
		bid.Electra.Message.Header = *h.Deneb
		bid.Electra.Message.BlobKZGCommitments = []beacon.KZGCommitment{}
		bid.Electra.Message.ExecutionRequests = beacon.ExecutionRequests{Deposits: []beacon.DepositRequest{}, Withdrawals: []beacon.WithdrawalRequest{}, Consolidations: []beacon.ConsolidationRequest{}}
		return e.BlindedBlock(1, bid)
	}
	blocks := []*beacon.SignedBlindedBeaconBlock{headerOf(a, subX), headerOf(a, subY)}
	envs := []*relaytest.Env{a, b}
	const calls = 50
	hashes := make([]beacon.Root, calls)
	errs := make([]error, calls)
	var wg sync.WaitGroup
	for i := 0; i < calls; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, err := envs[i%2].Relay.GetPayload(context.Background(), blocks[(i/2)%2], false)
			if errs[i] = err; err == nil {
				hashes[i] = d.Payload.View().BlockHash
			}
		}()
	}
	wg.Wait()
	var winner beacon.Root
	served := 0
	for i, err := range errs {
		switch {
		case err == nil:
			if served > 0 && hashes[i] != winner {
				t.Fatalf("two payloads delivered for one slot: %s and %s", winner, hashes[i])
			}
			winner = hashes[i]
			served++
		case !errors.Is(err, relay.ErrEquivocation):
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if served == 0 || served == calls {
		t.Fatalf("%d of %d calls served, want some served and the other block refused", served, calls)
	}
	if rec, err := b.Store.Delivered(context.Background(), 1); err != nil || rec.BlockHash != winner {
		t.Fatalf("delivery record %v %v, want %s", rec, err, winner)
	}
	// Afterwards both instances serve the delivered block and refuse the other.
	win, lose := blocks[0], blocks[1]
	if winner == subY.BidTrace().BlockHash {
		win, lose = lose, win
	}
	for _, e := range envs {
		if _, err := e.Relay.GetPayload(context.Background(), win, false); err != nil {
			t.Fatalf("the delivered block again: %v", err)
		}
		if _, err := e.Relay.GetPayload(context.Background(), lose, false); !errors.Is(err, relay.ErrEquivocation) {
			t.Fatalf("the other block: %v", err)
		}
	}
}

// TestSharedRestartPicksUpState: an instance restarted on the shared
// database has the registrations and deliveries made through the others.
func TestSharedRestartPicksUpState(t *testing.T) {
	url := pgtest.URL(t)
	a := instance(t, url)
	a.RegisterAll()
	bid := accepted(t, a, 1, 1)
	if _, err := a.Relay.GetPayload(context.Background(), a.BlindedBlock(1, bid), false); err != nil {
		t.Fatal(err)
	}
	b := instance(t, url) // started after: a restarted instance
	for _, v := range b.Validators {
		if _, ok := b.Relay.Registration(v.Key.PublicKey()); !ok {
			t.Fatalf("restarted instance lacks the registration of validator %d", v.Index)
		}
	}
	other := b.Submission(b.BuildBlock(1, 2, nil))
	if _, err := submit(b, other, false); !errors.Is(err, relay.ErrSlotDelivered) {
		t.Fatalf("submission for a slot delivered by another instance: %v", err)
	}
}

// TestSharedSurvivesDatabaseRestart stops the database under two
// instances: requests that need it fail as internal errors (500), nothing
// is acknowledged; once it is back both recover by themselves, bids flow
// from A to B again (B's notification connection re-established).
func TestSharedSurvivesDatabaseRestart(t *testing.T) {
	srv := pgtest.StartServer(t)
	a, b := instance(t, srv.URL), instance(t, srv.URL)
	a.RegisterAll()
	got := installed(b)
	ctx := context.Background()

	srv.Stop()
	v := a.Validators[0]
	reg := a.Registration(v, relaytest.GasLimit-1, a.Beacon.GenesisTime+5)
	if err := a.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{reg}); !errors.Is(err, relay.ErrInternal) {
		t.Fatalf("registration with the database down: %v, want an internal error", err)
	}
	sub := a.Submission(a.BuildBlock(1, 1, nil))
	if _, err := submit(a, sub, false); !errors.Is(err, relay.ErrInternal) {
		t.Fatalf("submission with the database down: %v, want an internal error", err)
	}
	srv.Start()

	// Pooled connections cut by the restart fail once each, then it works.
	var err error
	for i := 0; i < 40; i++ {
		if err = a.Relay.RegisterValidators(ctx, []beacon.SignedValidatorRegistration{reg}); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("registration after the database came back: %v", err)
	}
	sub = a.Submission(a.BuildBlock(1, 2, nil))
	var out relay.SubmitOutcome
	for i := 0; i < 40; i++ { // the builder retries, as after any 500
		if out, err = submit(a, sub, false); err == nil {
			break
		}
	}
	if err != nil || out != relay.Accepted {
		t.Fatalf("submission after the database came back: %v %v", out, err)
	}
	waitBid(t, got, sub.BidTrace().BlockHash)
	if bid, err := b.Relay.GetHeader(context.Background(), 1, sub.BidTrace().ParentHash, a.Proposer(1).Key.PublicKey()); err != nil || bid == nil {
		t.Fatalf("getHeader on B after the restart: %v %v", bid, err)
	}
}

// flakySharing fails the first reads of the bids of upcoming slots, as the
// pooled connections a database restart broke do.
type flakySharing struct {
	relay.Sharing
	fails atomic.Int32 // reads still to fail
}

func (f *flakySharing) SharedBidsFrom(ctx context.Context, slot uint64, fn func(*store.SharedBid) error) error {
	if f.fails.Add(-1) >= 0 {
		return errors.New("flakySharing: a broken connection")
	}
	return f.Sharing.SharedBidsFrom(ctx, slot, fn)
}

// TestResyncRetries: an instance whose first reads fail when it starts
// listening still catches up: the bid another instance shared before it
// listened (no notification will bring it) is in its auction once it
// follows the database, not only readable through.
func TestResyncRetries(t *testing.T) {
	url := pgtest.URL(t)
	a := instance(t, url)
	a.RegisterAll()
	sub := a.Submission(a.BuildBlock(1, 2, nil))
	if out, err := submit(a, sub, false); err != nil || out != relay.Accepted {
		t.Fatalf("submission to A: %v %v", out, err)
	}
	flaky := &flakySharing{}
	flaky.fails.Store(2)
	b := instanceWith(t, url, func(c *relay.Config) { flaky.Sharing, c.Shared = c.Shared, flaky })
	if flaky.fails.Load() >= 0 {
		t.Fatalf("B read the shared bids %d times, want the two failures and a success", 2-flaky.fails.Load())
	}
	tr := sub.BidTrace()
	bid := b.Relay.BestBid(1, tr.ParentHash, a.Proposer(1).Key.PublicKey())
	if bid == nil || bid.Trace.BlockHash != tr.BlockHash {
		t.Fatalf("B's auction after its resync: %v, want A's bid %s", bid, tr.BlockHash)
	}
}

// paidBetaSource is a beta source on e's chain and store with one paid
// beta bundle of two txs for slot 1.
func paidBetaSource(t *testing.T, e *relaytest.Env) *betapool.Service {
	t.Helper()
	stats := store.NewStatsBuffer(e.Store, time.Hour)
	t.Cleanup(func() { stats.Close() })
	l2 := &relaytest.Settlement{Items: map[uint64]uint64{1: 1_000_000}}
	svc := e.BetaService(t, l2, stats)
	pool := svc.Pool()
	key, to := params.DevAccounts()[5].Key, common.Address{0xbe}
	var raw []string
	for nonce := uint64(0); nonce < 2; nonce++ {
		tx := types.MustSignNewTx(key, types.LatestSignerForChainID(big.NewInt(params.DevChainID)), &types.DynamicFeeTx{
			ChainID: big.NewInt(params.DevChainID), Nonce: nonce, GasTipCap: new(big.Int), GasFeeCap: big.NewInt(100 * gparams.GWei),
			Gas: 21000, To: &to, Value: big.NewInt(1)})
		enc, _ := tx.MarshalBinary()
		raw = append(raw, hexutil.Encode(enc))
	}
	slot1 := "1"
	hash, err := pool.Add(context.Background(), bundle.BetaBundleArgs{Txs: raw, Slot: &slot1}, common.Address{0x5e})
	if err != nil {
		t.Fatal(err)
	}
	l2.Pay(1, 1_000_000, hash)
	svc.Refresh(context.Background(), 0)
	return svc
}

// TestSharedBetaDeliveredElsewhere: A (with the beta source) verifies an
// alpha bid and merges the slot's paid beta bundle; its getHeader serves
// the merged block; the proposer asks B (no beta source) for the payload:
// B reads the merged block through the database and delivers it, once; A
// then serves the same block and refuses the alpha.
func TestSharedBetaDeliveredElsewhere(t *testing.T) {
	url := pgtest.URL(t)
	holder := &relaytest.BetaHolder{}
	a := instanceWith(t, url, func(c *relay.Config) { c.Beta = holder })
	b := instance(t, url)
	holder.Service = paidBetaSource(t, a)
	a.RegisterAll()
	ctx := context.Background()

	alpha := a.BuildBlock(1, 3, nil)
	sub := a.Submission(alpha)
	if out, err := submit(a, sub, false); err != nil || out != relay.Accepted {
		t.Fatalf("submission to A: %v %v", out, err)
	}
	alphaHash := sub.BidTrace().BlockHash
	bid, err := a.Relay.GetHeader(context.Background(), 1, sub.BidTrace().ParentHash, a.Proposer(1).Key.PublicKey())
	if err != nil || bid == nil {
		t.Fatalf("getHeader on A: %v %v", bid, err)
	}
	merged := bid.Header().BlockHash()
	if merged == alphaHash {
		t.Fatalf("A serves the alpha %s, want a merged block", alphaHash)
	}
	d, err := b.Relay.GetPayload(ctx, b.BlindedBlock(1, bid), false)
	if err != nil {
		t.Fatalf("getPayload on B for A's merged block: %v", err)
	}
	if d.Payload.View().BlockHash != merged || len(d.Payload.View().Transactions) != len(alpha.Built.Block.Transactions())+2 {
		t.Fatalf("B delivered block %s with %d txs, want %s with the alpha's %d and 2 beta txs",
			d.Payload.View().BlockHash, len(d.Payload.View().Transactions), merged, len(alpha.Built.Block.Transactions()))
	}
	rec, err := a.Store.Delivered(ctx, 1)
	if err != nil || rec.BlockHash != merged || rec.AlphaBlockHash == nil || *rec.AlphaBlockHash != alphaHash || rec.BetaBundleCount != 1 || rec.BetaGasUsed != 42000 {
		t.Fatalf("delivery record %+v %v", rec, err)
	}
	// One delivery: A serves the same block again and refuses the alpha.
	if d, err := a.Relay.GetPayload(ctx, a.BlindedBlock(1, bid), false); err != nil || d.Payload.View().BlockHash != merged {
		t.Fatalf("getPayload on A for the delivered merged block: %v", err)
	}
	alphaBid := &beacon.SignedBuilderBid{Fork: sub.Fork, Electra: &beacon.SignedBuilderBidElectra{}}
	h, err := sub.Payload().Header(beacon.MainnetSpec)
	if err != nil {
		t.Fatal(err)
	}
	alphaBid.Electra.Message.Header = *h.Deneb
	alphaBid.Electra.Message.BlobKZGCommitments = []beacon.KZGCommitment{}
	alphaBid.Electra.Message.ExecutionRequests = beacon.ExecutionRequests{Deposits: []beacon.DepositRequest{}, Withdrawals: []beacon.WithdrawalRequest{}, Consolidations: []beacon.ConsolidationRequest{}}
	for _, e := range []*relaytest.Env{a, b} {
		if _, err := e.Relay.GetPayload(ctx, e.BlindedBlock(1, alphaBid), false); !errors.Is(err, relay.ErrEquivocation) {
			t.Fatalf("getPayload for the alpha after the merged block was delivered: %v", err)
		}
	}
}

// TestSharedBetaOnOtherInstance: A (no beta source) verifies an alpha bid;
// B, with the beta source, executes it on its own chain, merges the slot's
// paid beta bundle and serves the merged block; B's getPayload delivers it
// and the delivery record names the alpha.
func TestSharedBetaOnOtherInstance(t *testing.T) {
	url := pgtest.URL(t)
	holder := &relaytest.BetaHolder{}
	a := instance(t, url)
	b := instanceWith(t, url, func(c *relay.Config) { c.Beta = holder })
	ctx := context.Background()
	holder.Service = paidBetaSource(t, b)
	executed := make(chan beacon.Root, 4)
	b.Relay.OnSharedVerified(func(h beacon.Root) { executed <- h })
	b.Attrs(1) // B's beacon client saw the slot's payload attributes too
	a.RegisterAll()

	alpha := a.BuildBlock(1, 3, nil)
	sub := a.Submission(alpha)
	if out, err := submit(a, sub, false); err != nil || out != relay.Accepted {
		t.Fatalf("submission to A: %v %v", out, err)
	}
	alphaHash := sub.BidTrace().BlockHash
	waitBid(t, executed, alphaHash)
	bid, err := b.Relay.GetHeader(context.Background(), 1, sub.BidTrace().ParentHash, a.Proposer(1).Key.PublicKey())
	if err != nil || bid == nil {
		t.Fatalf("getHeader on B: %v %v", bid, err)
	}
	merged := bid.Header().BlockHash()
	if merged == alphaHash || bid.Value() != sub.BidTrace().Value {
		t.Fatalf("B serves block %s value %s, want a beta block on A's %s at its value", merged, bid.Value(), alphaHash)
	}
	d, err := b.Relay.GetPayload(ctx, b.BlindedBlock(1, bid), false)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(d.Payload.View().Transactions); n != len(alpha.Built.Block.Transactions())+2 {
		t.Fatalf("delivered %d txs, want the alpha's %d and 2 beta txs", n, len(alpha.Built.Block.Transactions()))
	}
	rec, err := a.Store.Delivered(ctx, 1)
	if err != nil || rec.BlockHash != merged || rec.AlphaBlockHash == nil || *rec.AlphaBlockHash != alphaHash || rec.BetaBundleCount != 1 {
		t.Fatalf("delivery record %+v %v", rec, err)
	}
}

// TestSharedBetaRecordedElsewhere: A merges the slot's paid bundle onto
// its alpha; B, with a beta source of its own but without the slot's
// payload attributes (it cannot merge), delivers A's merged block read
// from the database. The slot's beta_slots record names the settlement
// entry merged, and the merged block has one bid trace row, the same that
// A recorded when it merged it, though B's clock reads later.
func TestSharedBetaRecordedElsewhere(t *testing.T) {
	url := pgtest.URL(t)
	holderA, holderB := &relaytest.BetaHolder{}, &relaytest.BetaHolder{}
	a := instanceOpts(t, url, relaytest.Options{Traces: true, Configure: func(c *relay.Config) { c.Beta = holderA }})
	b := instanceOpts(t, url, relaytest.Options{Traces: true, Configure: func(c *relay.Config) { c.Beta = holderB }})
	holderA.Service = paidBetaSource(t, a)
	holderB.Service = paidBetaSource(t, b)
	a.RegisterAll()
	ctx := context.Background()

	sub := a.Submission(a.BuildBlock(1, 3, nil))
	if out, err := submit(a, sub, false); err != nil || out != relay.Accepted {
		t.Fatalf("submission to A: %v %v", out, err)
	}
	bid, err := a.Relay.GetHeader(ctx, 1, sub.BidTrace().ParentHash, a.Proposer(1).Key.PublicKey())
	if err != nil || bid == nil {
		t.Fatalf("getHeader on A: %v %v", bid, err)
	}
	merged := bid.Header().BlockHash()
	if merged == sub.BidTrace().BlockHash {
		t.Fatal("A serves the alpha, want a merged block")
	}
	b.Clock.Set(b.Clock.Now().Add(1500 * time.Millisecond))
	if _, err := b.Relay.GetPayload(ctx, b.BlindedBlock(1, bid), false); err != nil {
		t.Fatalf("getPayload on B for A's merged block: %v", err)
	}
	for _, e := range []*relaytest.Env{a, b} {
		if err := e.Traces.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}

	recs, err := b.Store.BetaSlots(ctx, store.BetaSlotQuery{Slot: 1})
	if err != nil || len(recs) != 1 {
		t.Fatalf("beta_slots of slot 1: %v %v", recs, err)
	}
	if rec := recs[0]; rec.BlockHash == nil || *rec.BlockHash != merged || len(rec.Entries) != 1 || len(rec.Entries[0].Hashes) != 1 || rec.Entries[0].Gas != 1_000_000 {
		t.Fatalf("beta_slots record of slot 1 %+v, want block %s merged from the one paid entry", rec, merged)
	}
	rows, err := a.Store.BlockSubmissions(ctx, store.SubmissionQuery{BlockHash: &merged})
	if err != nil || len(rows) != 1 {
		t.Fatalf("bid trace rows of the merged block: %d %v, want one", len(rows), err)
	}
}

// TestSharedNoOlderSlotDelivered: once the shared database records a
// delivery for a later slot (another instance delivered slot 2), an
// instance that has not seen it refuses to deliver slot 1.
func TestSharedNoOlderSlotDelivered(t *testing.T) {
	url := pgtest.URL(t)
	a, b := instance(t, url), instance(t, url)
	a.RegisterAll()
	got := installed(b)
	sub := a.Submission(a.BuildBlock(1, 1, nil))
	if out, err := submit(a, sub, false); err != nil || out != relay.Accepted {
		t.Fatalf("submission to A: %v %v", out, err)
	}
	waitBid(t, got, sub.BidTrace().BlockHash)
	bid, err := b.Relay.GetHeader(context.Background(), 1, sub.BidTrace().ParentHash, a.Proposer(1).Key.PublicKey())
	if err != nil || bid == nil {
		t.Fatalf("getHeader on B: %v %v", bid, err)
	}
	later := *sub.BidTrace()
	later.Slot, later.BlockHash = 2, beacon.Root{0x02}
	ctx := context.Background()
	if _, err := a.Store.PutDelivered(ctx, &store.DeliveredPayload{BidTraceV2: beacon.BidTraceV2{BidTrace: later, BlockNumber: 2}}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Relay.GetPayload(ctx, b.BlindedBlock(1, bid), false); !errors.Is(err, relay.ErrSlotDelivered) {
		t.Fatalf("getPayload on B for slot 1 after slot 2 was delivered: %v, want ErrSlotDelivered", err)
	}
	if _, err := b.Store.Delivered(ctx, 1); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("slot 1 recorded as delivered: %v", err)
	}
}
