package builder_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/builder"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
	"github.com/gavel-eth/gavel/miner"
)

// TestSlowRelayDelaysNoOther: on a slot's attributes the live builder
// submits to the in-process relay while an external relay has not yet
// answered its validators request; when it answers, it gets the same
// block, which it accepts.
func TestSlowRelayDelaysNoOther(t *testing.T) {
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	const slot = 1
	a := e.Attrs(slot)
	head := e.Chain.Head()

	// The external relay: a second relay on the same chain, told the same.
	st, err := store.OpenSQLite("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ext, err := relay.New(relay.Config{Beacon: e.Beacon, SecretKey: e.RelayKey, Now: e.Clock.Now}, e.Chain, st, e.Publisher, nil)
	if err != nil {
		t.Fatal(err)
	}
	e.Feed(ext)
	var regs []beacon.SignedValidatorRegistration
	for _, v := range e.Validators {
		regs = append(regs, e.Registration(v, relaytest.GasLimit, e.Chain.Genesis().Time+1))
	}
	if err := ext.RegisterValidators(context.Background(), regs); err != nil {
		t.Fatal(err)
	}
	if err := ext.SetPayloadAttributes(slot, head.Hash(), a); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	relayapi.MountBuilder(mux, ext, relayapi.BuilderConfig{})
	release := make(chan struct{})
	posted := make(chan int, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == relayapi.PathBuilderValidators {
			<-release
		}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		mux.ServeHTTP(rec, req)
		if req.URL.Path == relayapi.PathBuilderBlocks {
			posted <- rec.status
		}
	}))
	defer srv.Close()
	defer close(release)

	local := &signalRelay{LocalRelay: builder.LocalRelay{R: e.Relay}, done: make(chan error, 4)}
	b, err := builder.New(builder.Config{
		Beacon: e.Beacon, SecretKey: e.BuilderKey, CoinbaseKey: e.Coinbase, Bonus: uint256.NewInt(1e9), SlotOpen: -1,
	}, miner.New(e.Chain, nil, miner.Config{}))
	if err != nil {
		t.Fatal(err)
	}
	b.Live(e.Chain, local, builder.NewHTTPRelay(srv.URL, nil))
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	defer b.Stop()
	b.OnAttributes(slot, head.Hash(), chain.PayloadAttributes{
		Timestamp: a.Timestamp, PrevRandao: a.PrevRandao, Withdrawals: a.Withdrawals, ParentBeaconRoot: a.ParentBeaconRoot,
	})

	if err := wait(t, local.done); err != nil { // the external relay still has not answered
		t.Fatalf("in-process relay: %v", err)
	}
	proposer := e.Proposer(slot).Key.PublicKey()
	want := e.Relay.BestBid(slot, beacon.Root(head.Hash()), proposer)
	if want == nil {
		t.Fatal("no bid in the in-process relay")
	}
	release <- struct{}{}
	if status := wait(t, posted); status != http.StatusOK {
		t.Fatalf("external relay answered %d", status)
	}
	got := ext.BestBid(slot, beacon.Root(head.Hash()), proposer)
	if got == nil || got.Trace.BlockHash != want.Trace.BlockHash {
		t.Fatal("the external relay did not get the in-process relay's block")
	}
}

// signalRelay is a relay that reports each submission's outcome.
type signalRelay struct {
	builder.LocalRelay
	done chan error
}

func (s *signalRelay) Submit(ctx context.Context, sub *beacon.Submission) error {
	err := s.LocalRelay.Submit(ctx, sub)
	s.done <- err
	return err
}

// statusRecorder records a handler's status code.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// wait receives from c, failing the test after a generous bound.
func wait[T any](t *testing.T, c <-chan T) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(30 * time.Second):
		t.Fatal("nothing arrived")
	}
	var zero T
	return zero
}
