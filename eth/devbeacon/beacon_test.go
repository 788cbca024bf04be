package devbeacon_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/beacon/engine"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/devbeacon"
	"github.com/gavel-eth/gavel/internal/testnode"
)

func TestSlotClock(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	b := n.Beacon()
	g := b.GenesisTime()
	if b.Period() != 2*time.Second {
		t.Fatalf("default period %v", b.Period())
	}
	for _, tc := range []struct{ t, slot uint64 }{{g - 5, 0}, {g, 0}, {g + 1, 0}, {g + 2, 1}, {g + 7, 3}, {g + 200, 100}} {
		if got := b.SlotAt(tc.t); got != tc.slot {
			t.Errorf("SlotAt(genesis%+d) = %d, want %d", int64(tc.t)-int64(g), got, tc.slot)
		}
	}
	if got := b.SlotTime(5); got != g+10 {
		t.Fatalf("SlotTime(5) = %d, want genesis+10", got)
	}
	// Manual mode: the chain is where the steps put it, not the wall clock.
	if b.CurrentSlot() != 0 {
		t.Fatalf("current slot before any step: %d", b.CurrentSlot())
	}
	n.Step()
	if b.CurrentSlot() != 1 || b.HeadSlot() != 1 {
		t.Fatalf("after one step: current %d head %d", b.CurrentSlot(), b.HeadSlot())
	}
}

func TestSkippedSlotsAndTakenSlots(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	ctx := context.Background()
	h, err := n.Beacon().ProduceSlot(ctx, 5)
	if err != nil {
		t.Fatal(err)
	}
	if h.Number.Uint64() != 1 || h.Time != n.Beacon().SlotTime(5) {
		t.Fatalf("slot 5 block: #%d at %d, want #1 at %d", h.Number, h.Time, n.Beacon().SlotTime(5))
	}
	for _, slot := range []uint64{5, 4, 0} {
		if _, err := n.Beacon().ProduceSlot(ctx, slot); !errors.Is(err, devbeacon.ErrSlotTaken) {
			t.Fatalf("slot %d after slot 5: err %v, want ErrSlotTaken", slot, err)
		}
	}
}

// recordingBuilder wraps the local builder and remembers what it was asked.
type recordingBuilder struct {
	inner interface { // the node's engine: geth's miner over the local mempool
		BuildLocal(ctx context.Context, parent common.Hash, attrs chain.PayloadAttributes) (*engine.ExecutionPayloadEnvelope, error)
	}
	reqs []devbeacon.PayloadRequest
	fail error
}

func (r *recordingBuilder) BuildPayload(ctx context.Context, req devbeacon.PayloadRequest) (*engine.ExecutionPayloadEnvelope, error) {
	r.reqs = append(r.reqs, req)
	if r.fail != nil {
		return nil, r.fail
	}
	return r.inner.BuildLocal(ctx, req.Parent.Hash(), req.Attrs)
}

func TestPayloadAttributesReachBuilder(t *testing.T) {
	rec := &recordingBuilder{}
	n := testnode.New(t, testnode.Options{})
	rec.inner = n.Engine()
	n.Beacon().SetBuilder(rec)

	h1 := n.Step()
	h2 := n.Step()
	if len(rec.reqs) != 2 {
		t.Fatalf("builder asked %d times, want 2", len(rec.reqs))
	}
	for i, h := range []*types.Header{h1, h2} {
		req := rec.reqs[i]
		if req.Slot != uint64(i+1) || req.Parent.Number.Uint64() != uint64(i) {
			t.Fatalf("request %d: slot %d parent #%d", i, req.Slot, req.Parent.Number)
		}
		a := req.Attrs
		if h.Time != a.Timestamp || h.MixDigest != a.PrevRandao || h.Coinbase != a.FeeRecipient ||
			*h.ParentBeaconRoot != a.ParentBeaconRoot || a.Withdrawals == nil || len(a.Withdrawals) != 0 {
			t.Fatalf("block %d does not carry its attributes: header %+v attrs %+v", i+1, h, a)
		}
	}
	if rec.reqs[0].Attrs.PrevRandao == rec.reqs[1].Attrs.PrevRandao || rec.reqs[0].Attrs.ParentBeaconRoot == rec.reqs[1].Attrs.ParentBeaconRoot {
		t.Fatal("prevRandao and beacon root must change every slot")
	}

	// A failing builder leaves the chain where it was.
	rec.fail = errors.New("builder down")
	head := n.Chain().Head().Hash()
	if _, err := n.Beacon().Step(context.Background()); err == nil || !errors.Is(err, rec.fail) {
		t.Fatalf("step with failing builder: %v", err)
	}
	if n.Chain().Head().Hash() != head {
		t.Fatal("head moved although the builder failed")
	}
}

func TestRejectsBadPeriod(t *testing.T) {
	n := testnode.New(t, testnode.Options{})
	for _, p := range []time.Duration{0, 500 * time.Millisecond, 1500 * time.Millisecond} {
		if _, err := devbeacon.New(n.Chain(), n.Engine(), devbeacon.Config{Period: p}); err == nil {
			t.Fatalf("period %v accepted", p)
		}
	}
}
