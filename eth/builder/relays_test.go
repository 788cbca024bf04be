package builder_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/builder"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
	"github.com/gavel-eth/gavel/miner"
)

// relayServer serves a real relay's builder API over loopback HTTP; with
// refuseSSZ it answers SSZ submissions 415, as a JSON-only relay does.
type relayServer struct {
	*httptest.Server
	mu        sync.Mutex
	refuseSSZ bool
	seen      []string // Content-Type of each submission
}

func newRelayServer(t *testing.T, e *relaytest.Env) *relayServer {
	mux := http.NewServeMux()
	relayapi.MountBuilder(mux, e.Relay, relayapi.BuilderConfig{})
	s := &relayServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method == http.MethodPost && req.URL.Path == relayapi.PathBuilderBlocks {
			ct := req.Header.Get("Content-Type")
			s.mu.Lock()
			s.seen = append(s.seen, ct)
			refuse := s.refuseSSZ && ct == "application/octet-stream"
			s.mu.Unlock()
			if refuse {
				http.Error(w, `{"code":415,"message":"only JSON"}`, http.StatusUnsupportedMediaType)
				return
			}
		}
		mux.ServeHTTP(w, req)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *relayServer) contentTypes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// TestHTTPRelay: the builder learns the slot's proposer from an external
// relay's validators list, its block is taken as SSZ+gzip; once the relay
// refuses SSZ a better block goes as JSON, and from then on only JSON; a
// lower bid is reported as not taken.
func TestHTTPRelay(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	srv := newRelayServer(t, e)
	hr := builder.NewHTTPRelay(srv.URL, nil)
	ctx := context.Background()

	const slot = 1
	p, ok, err := hr.Proposer(ctx, slot)
	if err != nil || !ok {
		t.Fatalf("proposer of slot %d: %v %v", slot, ok, err)
	}
	want := e.Proposer(slot)
	if p.Pubkey != want.Key.PublicKey() || p.FeeRecipient != want.FeeRecipient || p.GasLimit != relaytest.GasLimit {
		t.Fatalf("proposer %+v, want %s paying %s", p, want.Key.PublicKey(), want.FeeRecipient.Hex())
	}
	if _, ok, err := hr.Proposer(ctx, 1000); ok || err != nil {
		t.Fatalf("slot without a duty: %v %v", ok, err)
	}

	a := e.Attrs(slot)
	job := builder.Job{Slot: slot, Parent: e.Chain.Head(), Attrs: chain.PayloadAttributes{
		Timestamp: a.Timestamp, PrevRandao: a.PrevRandao, Withdrawals: a.Withdrawals, ParentBeaconRoot: a.ParentBeaconRoot,
	}}
	blocks := miner.New(e.Chain, nil, miner.Config{})
	var b *builder.Builder
	bid := func(bonus uint64) *builder.Built {
		var err error
		b, err = builder.New(builder.Config{Beacon: e.Beacon, SecretKey: e.BuilderKey, CoinbaseKey: e.Coinbase, Bonus: uint256.NewInt(bonus)}, blocks)
		if err != nil {
			t.Fatal(err)
		}
		built, err := b.Build(ctx, job, p)
		if err != nil {
			t.Fatal(err)
		}
		return built
	}
	best := func() beacon.Root {
		b := e.Relay.BestBid(slot, beacon.Root(job.Parent.Hash()), p.Pubkey)
		if b == nil {
			t.Fatal("no bid stored")
		}
		return b.Trace.BlockHash
	}
	submit := func(built *builder.Built) error {
		return b.Submit(ctx, built, hr)
	}

	first := bid(1e9)
	if err := submit(first); err != nil {
		t.Fatalf("SSZ submission: %v", err)
	}
	if best() != first.Submission.BidTrace().BlockHash {
		t.Fatal("the SSZ submission is not the best bid")
	}
	srv.mu.Lock()
	srv.refuseSSZ = true
	srv.mu.Unlock()
	second := bid(2e9)
	if err := submit(second); err != nil {
		t.Fatalf("submission to a JSON-only relay: %v", err)
	}
	if best() != second.Submission.BidTrace().BlockHash {
		t.Fatal("the JSON submission is not the best bid")
	}
	if err := submit(bid(3e9)); err != nil {
		t.Fatal(err)
	}
	got := srv.contentTypes()
	wantCT := []string{"application/octet-stream", "application/octet-stream", "application/json", "application/json"}
	if len(got) != len(wantCT) {
		t.Fatalf("content types %v, want %v", got, wantCT)
	}
	for i := range got {
		if got[i] != wantCT[i] {
			t.Fatalf("content types %v, want %v", got, wantCT)
		}
	}
	if err := submit(bid(1)); !errors.Is(err, builder.ErrNotAccepted) {
		t.Fatalf("a bid below the floor: %v, want %v", err, builder.ErrNotAccepted)
	}
}

// TestHTTPRelaySlowFetchDoesNotBlockReaders: while a fetch of the
// validators list hangs on a slow relay, a caller asking for a slot already
// known is answered from memory at once.
func TestHTTPRelaySlowFetchDoesNotBlockReaders(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	mux := http.NewServeMux()
	relayapi.MountBuilder(mux, e.Relay, relayapi.BuilderConfig{})
	var calls atomic.Int32
	hung, release := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if calls.Add(1) == 2 { // the second fetch hangs until released
			close(hung)
			<-release
		}
		mux.ServeHTTP(w, req)
	}))
	defer srv.Close()
	defer close(release)
	hr := builder.NewHTTPRelay(srv.URL, &http.Client{Timeout: time.Minute})
	ctx := context.Background()
	if _, ok, err := hr.Proposer(ctx, 1); !ok || err != nil {
		t.Fatalf("proposer of slot 1: %v %v", ok, err)
	}
	go hr.Proposer(ctx, 1000) // not in the list: fetches again, and hangs
	<-hung
	got := make(chan error, 1)
	go func() {
		_, ok, err := hr.Proposer(ctx, 1)
		if err == nil && !ok {
			err = errors.New("slot 1 not found")
		}
		got <- err
	}()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second): // a deadlock guard, not a timing assertion
		t.Fatal("a cached slot waited for another caller's fetch")
	}
}
