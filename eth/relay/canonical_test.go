package relay_test

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store"
)

// fakeCanonical is a chain whose canonical hashes the test sets.
type fakeCanonical map[uint64]common.Hash

func (f fakeCanonical) CanonicalHash(n uint64) (common.Hash, bool) {
	h, ok := f[n]
	return h, ok
}

// TestDeliveredCanonical: once the head is CanonicalDepth slots past a
// delivery, its record says whether the delivered block is the chain's
// block at its number; before that, and while the chain has no block at the
// number, it is unknown.
func TestDeliveredCanonical(t *testing.T) {
	chain := fakeCanonical{}
	e := relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) { c.Canonical = chain }})
	e.RegisterAll()
	ctx := context.Background()
	deliver := func(slot uint64) *store.DeliveredPayload {
		t.Helper()
		if _, err := e.Relay.GetPayload(ctx, e.BlindedBlock(slot, accepted(t, e, slot, 1)), false); err != nil {
			t.Fatal(err)
		}
		rec, err := e.Store.Delivered(ctx, slot)
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	canonical := func(slot uint64) *bool {
		t.Helper()
		rec, err := e.Store.Delivered(ctx, slot)
		if err != nil {
			t.Fatal(err)
		}
		return rec.Canonical
	}
	one := deliver(1)
	// The chain has no block at the number yet: unknown.
	if err := e.Relay.CheckCanonical(5); err != nil || canonical(1) != nil {
		t.Fatalf("chain behind: canonical %v (%v), want unknown", canonical(1), err)
	}
	chain[one.BlockNumber] = common.Hash(one.BlockHash)
	// Not deep enough yet: slot 1 is checked from head slot 1+depth on.
	if err := e.Relay.CheckCanonical(1 + relay.DefaultCanonicalDepth - 1); err != nil || canonical(1) != nil {
		t.Fatalf("head too close: canonical %v (%v), want unknown", canonical(1), err)
	}
	if err := e.Relay.CheckCanonical(1 + relay.DefaultCanonicalDepth); err != nil || canonical(1) == nil || !*canonical(1) {
		t.Fatalf("delivered block in the chain: canonical %v (%v), want true", canonical(1), err)
	}
	// Slot 2's block (number 1 too: the test chain does not import what
	// the relay publishes) is not the chain's block at its number.
	two := deliver(2)
	if two.BlockNumber != one.BlockNumber || two.BlockHash == one.BlockHash {
		t.Fatalf("test setup: slot 2 delivered %d %s", two.BlockNumber, two.BlockHash)
	}
	if err := e.Relay.CheckCanonical(2 + relay.DefaultCanonicalDepth); err != nil || canonical(2) == nil || *canonical(2) {
		t.Fatalf("another block at its number: canonical %v (%v), want false", canonical(2), err)
	}
	if c := canonical(1); c == nil || !*c {
		t.Fatalf("slot 1 after slot 2's check: %v", c)
	}
}
