package relay_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/builder"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store/pgtest"
	"github.com/gavel-eth/gavel/miner"
)

// gatedBlocks is the real block builder, each build held until the test
// releases it: nil builds the block, an error fails the build.
type gatedBlocks struct {
	builder.BlockBuilder
	started chan struct{}
	release chan error
}

func (g *gatedBlocks) BuildPaying(ctx context.Context, parent *types.Header, attrs chain.BuildAttrs, pay miner.Payment) (*miner.Result, *uint256.Int, error) {
	g.started <- struct{}{}
	select {
	case err := <-g.release:
		if err != nil {
			return nil, nil, err
		}
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	return g.BlockBuilder.BuildPaying(ctx, parent, attrs, pay)
}

// waitEnv is a relay with the in-process builder on a live slot loop whose
// builds the test releases. headerWait is the relay's bound; getHeader's
// slot cutoff is off, so that only headerWait bounds a wait.
type waitEnv struct {
	*relaytest.Env
	blocks *gatedBlocks
	b      *builder.Builder
	waits  chan uint64 // a getHeader started waiting, for this slot
}

func newWaitEnv(t *testing.T, headerWait time.Duration) *waitEnv {
	t.Helper()
	e := relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) {
		c.HeaderWait, c.GetHeaderCutoff = headerWait, -1
	}})
	e.RegisterAll()
	w := &waitEnv{Env: e, waits: make(chan uint64, 64),
		blocks: &gatedBlocks{BlockBuilder: miner.New(e.Chain, nil, miner.Config{}), started: make(chan struct{}, 16), release: make(chan error)}}
	e.Relay.OnHeaderWait(func(slot uint64) { w.waits <- slot })
	b, err := builder.New(builder.Config{
		Beacon: e.Beacon, SecretKey: e.BuilderKey, CoinbaseKey: e.Coinbase, Bonus: uint256.NewInt(1e9), SlotOpen: -1,
	}, w.blocks)
	if err != nil {
		t.Fatal(err)
	}
	b.Live(e.Chain, builder.LocalRelay{R: e.Relay})
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Stop() })
	w.b = b
	return w
}

// startBuild hands the builder slot's attributes on the head, as
// forkchoiceUpdated does, and returns once its first build is running.
func (w *waitEnv) startBuild(t *testing.T, slot uint64) common.Hash {
	t.Helper()
	head := w.Chain.Head().Hash()
	a := w.Attrs(slot)
	w.b.OnAttributes(slot, head, chain.PayloadAttributes{
		Timestamp: a.Timestamp, PrevRandao: a.PrevRandao, Withdrawals: a.Withdrawals, ParentBeaconRoot: a.ParentBeaconRoot,
	})
	recv(t, w.blocks.started)
	return head
}

type headerAnswer struct {
	bid *beacon.SignedBuilderBid
	err error
}

// askHeader calls getHeader in the background.
func (w *waitEnv) askHeader(slot uint64, parent common.Hash, proposer beacon.BLSPubkey) chan headerAnswer {
	ch := make(chan headerAnswer, 1)
	go func() {
		bid, err := w.Relay.GetHeader(context.Background(), slot, beacon.Root(parent), proposer)
		ch <- headerAnswer{bid, err}
	}()
	return ch
}

// recv receives from c, failing the test if nothing comes in a generous
// bound (a hang, not a timing check).
func recv[T any](t *testing.T, c <-chan T) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(time.Minute):
		t.Fatal("nothing arrived")
	}
	var zero T
	return zero
}

// TestGetHeaderWaitsForBuildInFlight: the proposer asks while the
// in-process builder's first build of the slot is still running; getHeader
// waits and answers with the bid once it lands instead of 204.
func TestGetHeaderWaitsForBuildInFlight(t *testing.T) {
	w := newWaitEnv(t, time.Hour)
	head := w.startBuild(t, 1)
	pk := w.Proposer(1).Key.PublicKey()
	if w.Relay.BestBid(1, beacon.Root(head), pk) != nil {
		t.Fatal("a bid before the build was released")
	}
	ans := w.askHeader(1, head, pk)
	if slot := recv(t, w.waits); slot != 1 {
		t.Fatalf("a getHeader waits for slot %d", slot)
	}
	w.blocks.release <- nil
	got := recv(t, ans)
	if got.err != nil || got.bid == nil {
		t.Fatalf("getHeader after the wait: %v %v, want the builder's bid", got.bid, got.err)
	}
	best := w.Relay.BestBid(1, beacon.Root(head), pk)
	if best == nil || got.bid.Header().BlockHash() != best.Trace.BlockHash || best.Trace.BuilderPubkey != w.b.Pubkey() {
		t.Fatal("getHeader served another block than the in-process builder's")
	}
	if n := w.Relay.HeaderWaits(); n != 1 {
		t.Fatalf("%d getHeaders waited, want 1", n)
	}
	// Now that the bid is there, asking again does not wait.
	if bid, err := w.Relay.GetHeader(context.Background(), 1, beacon.Root(head), pk); err != nil || bid == nil {
		t.Fatalf("getHeader again: %v %v", bid, err)
	}
	if n, f := w.Relay.HeaderWaits(), w.Relay.BuildsInFlight(); n != 1 || f != 0 {
		t.Fatalf("after the bid: %d waits, %d builds in flight; want 1 and 0", n, f)
	}
}

// TestGetHeaderNoWaitWithoutBuild: without a build in flight for the asked
// slot and parent, or asked by anyone but the slot's proposer, getHeader
// answers 204 without waiting, even with a build running for another
// parent.
func TestGetHeaderNoWaitWithoutBuild(t *testing.T) {
	w := newWaitEnv(t, time.Hour)
	head := w.Chain.Head().Hash()
	pk := w.Proposer(1).Key.PublicKey()
	if bid, err := w.Relay.GetHeader(context.Background(), 1, beacon.Root(head), pk); bid != nil || err != nil {
		t.Fatalf("getHeader without bid or build: %v %v, want 204", bid, err)
	}
	w.startBuild(t, 1)
	other := common.Hash{1}
	if bid, err := w.Relay.GetHeader(context.Background(), 1, beacon.Root(other), pk); bid != nil || err != nil {
		t.Fatalf("getHeader on another parent: %v %v, want 204", bid, err)
	}
	stranger := w.Proposer(2).Key.PublicKey()
	if bid, err := w.Relay.GetHeader(context.Background(), 1, beacon.Root(head), stranger); bid != nil || err != nil {
		t.Fatalf("getHeader naming another proposer: %v %v, want 204", bid, err)
	}
	if n := w.Relay.HeaderWaits(); n != 0 {
		t.Fatalf("%d getHeaders waited, want none", n)
	}
	if f := w.Relay.BuildsInFlight(); f != 1 {
		t.Fatalf("%d builds in flight, want the running one", f)
	}
	w.blocks.release <- nil
}

// TestGetHeaderWaitEnds: a failed first build does not end the wait (the
// builder rebuilds when transactions arrive, and that bid is served); a
// build that does not finish within the bound leaves getHeader at the
// bound with 204; the request's context ending (the client hung up) and
// the builder's run ending end the wait with 204.
func TestGetHeaderWaitEnds(t *testing.T) {
	t.Run("failed build then rebuild", func(t *testing.T) {
		w := newWaitEnv(t, time.Hour)
		head := w.startBuild(t, 1)
		w.blocks.release <- errors.New("the test fails the build")
		ans := w.askHeader(1, head, w.Proposer(1).Key.PublicKey())
		recv(t, w.waits)
		w.b.Kick() // a transaction arrived
		recv(t, w.blocks.started)
		w.blocks.release <- nil
		if got := recv(t, ans); got.bid == nil || got.err != nil {
			t.Fatalf("getHeader after a failed build and a rebuild: %v %v, want the rebuild's bid", got.bid, got.err)
		}
	})
	t.Run("bound", func(t *testing.T) {
		w := newWaitEnv(t, time.Millisecond)
		head := w.startBuild(t, 1)
		got := recv(t, w.askHeader(1, head, w.Proposer(1).Key.PublicKey()))
		if got.bid != nil || got.err != nil {
			t.Fatalf("getHeader at the bound: %v %v, want 204", got.bid, got.err)
		}
		if n, f := w.Relay.HeaderWaits(), w.Relay.BuildsInFlight(); n != 1 || f != 1 {
			t.Fatalf("%d waits, %d builds in flight; want 1 wait that ended while the build runs", n, f)
		}
	})
	t.Run("client hangs up", func(t *testing.T) {
		w := newWaitEnv(t, time.Hour)
		head := w.startBuild(t, 1)
		ctx, cancel := context.WithCancel(context.Background())
		ans := make(chan headerAnswer, 1)
		go func() {
			bid, err := w.Relay.GetHeader(ctx, 1, beacon.Root(head), w.Proposer(1).Key.PublicKey())
			ans <- headerAnswer{bid, err}
		}()
		recv(t, w.waits)
		cancel()
		if got := recv(t, ans); got.bid != nil || got.err != nil {
			t.Fatalf("getHeader after the client left: %v %v, want 204", got.bid, got.err)
		}
	})
	t.Run("run ends", func(t *testing.T) {
		w := newWaitEnv(t, time.Hour)
		head := w.startBuild(t, 1)
		ans := w.askHeader(1, head, w.Proposer(1).Key.PublicKey())
		recv(t, w.waits)
		w.b.Stop() // cancels the build in progress
		if got := recv(t, ans); got.bid != nil || got.err != nil {
			t.Fatalf("getHeader after the builder stopped: %v %v, want 204", got.bid, got.err)
		}
		if f := w.Relay.BuildsInFlight(); f != 0 {
			t.Fatalf("%d builds in flight after the run ended", f)
		}
	})
}

// TestGetHeaderConcurrentWaitsShareOne: many getHeaders for one slot while
// its build runs all wait on the one build and all get its bid when it
// lands.
func TestGetHeaderConcurrentWaitsShareOne(t *testing.T) {
	const asks = 8
	w := newWaitEnv(t, time.Hour)
	head := w.startBuild(t, 1)
	pk := w.Proposer(1).Key.PublicKey()
	answers := make([]chan headerAnswer, asks)
	for i := range answers {
		answers[i] = w.askHeader(1, head, pk)
	}
	for range asks {
		recv(t, w.waits)
	}
	if f := w.Relay.BuildsInFlight(); f != 1 {
		t.Fatalf("%d waits in flight for %d getHeaders of one slot, want 1", f, asks)
	}
	w.blocks.release <- nil
	var hash beacon.Root
	for i, ch := range answers {
		got := recv(t, ch)
		if got.err != nil || got.bid == nil {
			t.Fatalf("getHeader %d: %v %v", i, got.bid, got.err)
		}
		if i == 0 {
			hash = got.bid.Header().BlockHash()
		} else if got.bid.Header().BlockHash() != hash {
			t.Fatalf("getHeader %d got another block", i)
		}
	}
	if n := w.Relay.HeaderWaits(); n != asks {
		t.Fatalf("%d getHeaders waited, want %d", n, asks)
	}
}

// TestGetHeaderWaitWokenBySharedBid: instance A's proposer waits for a
// build in flight; the bid lands on instance B first, reaches A by
// LISTEN/NOTIFY and ends A's wait with that bid.
func TestGetHeaderWaitWokenBySharedBid(t *testing.T) {
	url := pgtest.URL(t)
	a := instanceWith(t, url, func(c *relay.Config) { c.HeaderWait, c.GetHeaderCutoff = time.Hour, -1 })
	b := instance(t, url)
	b.RegisterAll()
	waits := make(chan uint64, 1)
	a.Relay.OnHeaderWait(func(slot uint64) { waits <- slot })
	sub := b.Submission(b.BuildBlock(1, 2, nil))
	parent := sub.BidTrace().ParentHash
	ended := a.Relay.ExpectBid(1, common.Hash(parent))
	defer ended()
	ans := make(chan headerAnswer, 1)
	go func() {
		bid, err := a.Relay.GetHeader(context.Background(), 1, parent, a.Proposer(1).Key.PublicKey())
		ans <- headerAnswer{bid, err}
	}()
	recv(t, waits)
	if out, err := submit(b, sub, false); err != nil || out != relay.Accepted {
		t.Fatalf("submission to B: %v %v", out, err)
	}
	got := recv(t, ans)
	if got.err != nil || got.bid == nil || got.bid.Header().BlockHash() != sub.BidTrace().BlockHash {
		t.Fatalf("A's getHeader after B's bid: %v %v", got.bid, got.err)
	}
}
