package betapool

import (
	"context"
	"errors"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/contracts/auction"
)

// fakeL2 is a settlement the test sets, read as the L2 would serve it.
type fakeL2 struct {
	mu      sync.Mutex
	bundles map[uint64][]auction.Bundle
	items   map[uint64]*big.Int
	down    bool
	reads   int
	gate    chan struct{} // when set, ItemsForSale waits for it to close
}

var errDown = errors.New("connection refused")

func (f *fakeL2) Bundles(_ context.Context, slot uint64) ([]auction.Bundle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	if f.down {
		return nil, errDown
	}
	return f.bundles[slot], nil
}

func (f *fakeL2) ItemsForSale(_ context.Context, slot uint64) (*big.Int, error) {
	if f.gate != nil {
		<-f.gate
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	if f.down {
		return nil, errDown
	}
	if v := f.items[slot]; v != nil {
		return v, nil
	}
	return new(big.Int), nil
}

func (f *fakeL2) set(fn func()) { f.mu.Lock(); fn(); f.mu.Unlock() }

// TestSettlementBounds: a hostile settlement is cut to the configured
// number of entries and hashes; a gas amount beyond uint64 is capped, zero
// and negative are 0.
func TestSettlementBounds(t *testing.T) {
	huge := new(big.Int).Lsh(big.NewInt(1), 200)
	many := make([]common.Hash, 10)
	for i := range many {
		many[i] = common.Hash{byte(i)}
	}
	l2 := &fakeL2{bundles: map[uint64][]auction.Bundle{7: {
		{AmountOfGas: huge, BundleHashes: many},
		{AmountOfGas: big.NewInt(0), BundleHashes: many[:1]},
		{AmountOfGas: big.NewInt(-5), BundleHashes: many[:1]},
		{AmountOfGas: big.NewInt(1), BundleHashes: many[:1]},
	}}}
	s := NewSettlements(l2, SettlementConfig{MaxEntries: 3, MaxHashes: 4, Refresh: -1})
	got, err := s.Paid(context.Background(), 7)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || len(got[0].Hashes) != 4 || got[0].Gas != 1<<63-1 || got[1].Gas != 0 || got[2].Gas != 0 {
		t.Fatalf("entries %+v", got)
	}
}

// TestSettlementCacheAndL2Down: reads are cached while fresh, each read
// that finds a different paid set bumps the slot's generation, and a dead
// L2 costs one read per backoff: the last good read is served, a slot never
// read gets an error, a known gas stays known.
func TestSettlementCacheAndL2Down(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_700_000_000, 0)
	l2 := &fakeL2{bundles: map[uint64][]auction.Bundle{5: {{AmountOfGas: big.NewInt(50_000), BundleHashes: []common.Hash{{1}}}}},
		items: map[uint64]*big.Int{5: big.NewInt(3_000_000)}}
	s := NewSettlements(l2, SettlementConfig{Refresh: time.Second})
	s.now = func() time.Time { return now }
	if st := s.State(5); st.GasKnown || st.Generation != 0 {
		t.Fatalf("state before any read: %+v", st)
	}
	if e, err := s.Paid(ctx, 5); err != nil || len(e) != 1 || e[0].Gas != 50_000 {
		t.Fatalf("first read: %+v, %v", e, err)
	}
	if g, err := s.ReadGas(ctx, 5); err != nil || g != 3_000_000 {
		t.Fatalf("gas %d, %v", g, err)
	}
	if st := s.State(5); st.Gas != 3_000_000 || !st.GasKnown || st.Generation != 1 || len(st.Paid) != 1 {
		t.Fatalf("state after the first reads: %+v", st)
	}
	reads := l2.reads
	s.Paid(ctx, 5)
	s.ReadGas(ctx, 5)
	if l2.reads != reads {
		t.Fatal("a fresh read, or an open auction's gas, was read again")
	}
	l2.set(func() {
		l2.bundles[5] = append(l2.bundles[5], auction.Bundle{AmountOfGas: big.NewInt(1), BundleHashes: []common.Hash{{2}}})
	})
	if _, changed, err := s.ReadPaid(ctx, 5); err != nil || !changed || s.State(5).Generation != 2 {
		t.Fatalf("read after a payment: changed=%v, %v, generation %d", changed, err, s.State(5).Generation)
	}
	if _, changed, _ := s.ReadPaid(ctx, 5); changed || s.State(5).Generation != 2 {
		t.Fatal("read without a payment reported a change")
	}

	l2.set(func() { l2.down = true })
	now = now.Add(2 * time.Second)
	if e, err := s.Paid(ctx, 5); err != nil || len(e) != 2 {
		t.Fatalf("L2 down: %+v, %v; want the last read", e, err)
	}
	reads = l2.reads
	if _, err := s.Paid(ctx, 6); !errors.Is(err, ErrL2Down) {
		t.Fatalf("slot never read with the L2 down: %v, want %v", err, ErrL2Down)
	}
	if _, err := s.ReadGas(ctx, 6); !errors.Is(err, ErrL2Down) || l2.reads != reads {
		t.Fatalf("gas read during the backoff: %v, %d more reads", err, l2.reads-reads)
	}
	if st := s.State(5); st.Gas != 3_000_000 || len(st.Paid) != 2 {
		t.Fatalf("known state lost while the L2 is down: %+v", st)
	}
}
