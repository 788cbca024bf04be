package relaystatus

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

type fakeRelay struct{ head uint64 }

func (f fakeRelay) HeadSlot() uint64                   { return f.head }
func (f fakeRelay) Pubkey() beacon.BLSPubkey           { return beacon.BLSPubkey{1} }
func (f fakeRelay) BeaconConfig() *params.BeaconConfig { return &params.BeaconConfig{Name: "testnet"} }

type fakeDeliveries struct {
	rows []store.DeliveredPayload
	err  error
}

func (f *fakeDeliveries) DeliveredPayloads(_ context.Context, q store.DeliveredQuery) ([]store.DeliveredPayload, error) {
	return f.rows, f.err
}

func delivered(slot uint64, builder byte, value uint64) store.DeliveredPayload {
	var d store.DeliveredPayload
	d.Slot, d.BlockNumber, d.BuilderPubkey = slot, slot, beacon.BLSPubkey{builder}
	d.Value[31] = byte(value)
	return d
}

// TestBuildersWindow: bids and wins count only inside the window, and the
// table orders by wins, then bids.
func TestBuildersWindow(t *testing.T) {
	bids := NewBidCounter()
	rec := bids.Tee(nil)
	add := func(slot uint64, b byte, ok bool) {
		var s store.BlockSubmission
		s.Slot, s.BuilderPubkey, s.SimSuccess = slot, beacon.BLSPubkey{b}, ok
		rec.Add(s)
	}
	add(10, 1, true) // outside the window below
	add(100, 1, true)
	add(100, 2, true)
	add(101, 2, true)
	add(101, 2, false) // failed verification: not a bid
	add(102, 3, true)
	d := &fakeDeliveries{rows: []store.DeliveredPayload{delivered(102, 1, 5), delivered(101, 1, 4), delivered(20, 2, 1)}}
	c := NewCollector(Config{Relay: func() (Relay, string) { return fakeRelay{head: 102}, "" }, Deliveries: d, Bids: bids, BuilderSlots: 8})
	c.Refresh(context.Background())
	s := c.Snapshot()
	want := []Builder{{beacon.BLSPubkey{1}.String(), 1, 2}, {beacon.BLSPubkey{2}.String(), 2, 0}, {beacon.BLSPubkey{3}.String(), 1, 0}}
	if len(s.Builders) != len(want) {
		t.Fatalf("builders %+v, want %+v", s.Builders, want)
	}
	for i := range want {
		if s.Builders[i] != want[i] {
			t.Errorf("builder %d: %+v, want %+v", i, s.Builders[i], want[i])
		}
	}
	if len(s.Plot) != PlotSlots || s.Plot[len(s.Plot)-1].Slot != 102 || !s.Plot[len(s.Plot)-1].Delivered || s.Plot[len(s.Plot)-3].Delivered {
		t.Errorf("plot ends %+v", s.Plot[len(s.Plot)-3:])
	}
	if s.Relay.Network != "testnet" || s.Relay.HeadSlot != 102 || len(s.Deliveries) != 2 {
		t.Errorf("snapshot %+v", s.Relay)
	}
}

// TestRefreshKeepsOldOnError: a failed read keeps what the page showed.
func TestRefreshKeepsOldOnError(t *testing.T) {
	d := &fakeDeliveries{rows: []store.DeliveredPayload{delivered(5, 1, 1)}}
	c := NewCollector(Config{Relay: func() (Relay, string) { return fakeRelay{head: 5}, "" }, Deliveries: d})
	c.Refresh(context.Background())
	d.rows, d.err = nil, errors.New("database down")
	c.Refresh(context.Background())
	if s := c.Snapshot(); len(s.Deliveries) != 1 || s.Deliveries[0].Slot != 5 {
		t.Fatalf("deliveries after a failed read: %+v", s.Deliveries)
	}
}

// TestNotReady: before the relay exists the snapshot says why.
func TestNotReady(t *testing.T) {
	c := NewCollector(Config{Relay: func() (Relay, string) { return nil, "waiting for a beacon node" }, Deliveries: &fakeDeliveries{}})
	c.Refresh(context.Background())
	if s := c.Snapshot(); s.Relay.Waiting != "waiting for a beacon node" || s.Relay.Pubkey != "" {
		t.Fatalf("snapshot %+v", s.Relay)
	}
}

// TestBidCounterForgetsOldSlots: counts older than the kept slots go.
func TestBidCounterForgetsOldSlots(t *testing.T) {
	c := NewBidCounter()
	c.count(1, beacon.BLSPubkey{1})
	c.count(1+bidSlotsKept, beacon.BLSPubkey{1})
	c.count(1, beacon.BLSPubkey{1}) // long past now: ignored
	if got := c.Since(0)[beacon.BLSPubkey{1}]; got != 1 {
		t.Fatalf("bids since 0: %d, want 1", got)
	}
}

type countingBeta struct{ reads int }

func (b *countingBeta) Refresh(context.Context, uint64) error { b.reads++; return nil }
func (b *countingBeta) Market() Market {
	return Market{Upcoming: []UpcomingSlot{{Slot: 1}}}
}

// TestBetaReadPaced: in the background the beta market (L2 reads) is
// read again when the head moves, else only every betaEvery; Refresh
// reads it always.
func TestBetaReadPaced(t *testing.T) {
	now := time.Unix(1000, 0)
	head := uint64(5)
	beta := &countingBeta{}
	c := NewCollector(Config{Relay: func() (Relay, string) { return fakeRelay{head: head}, "" }, Deliveries: &fakeDeliveries{},
		Beta: beta, Now: func() time.Time { return now }})
	ctx := context.Background()
	c.refresh(ctx, false)
	now = now.Add(time.Second)
	c.refresh(ctx, false)
	if beta.reads != 1 || len(c.Snapshot().Beta.Upcoming) != 1 {
		t.Fatalf("reads %d after two refreshes in one head, want 1 (and the market kept)", beta.reads)
	}
	head++
	c.refresh(ctx, false)
	now = now.Add(betaEvery)
	c.refresh(ctx, false)
	if beta.reads != 3 {
		t.Fatalf("reads %d, want 3: one for the new head, one after %s", beta.reads, betaEvery)
	}
	c.Refresh(ctx)
	if beta.reads != 4 {
		t.Fatalf("an explicit Refresh did not read the beta market")
	}
}
