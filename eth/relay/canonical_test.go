package relay_test

import (
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
)

// TestDeliveredCanonical: once the head is CanonicalDepth slots past a
// delivery, its record says whether the delivered block is the chain's
// block at its number; before that, and while the chain has no block at the
// number, it is unknown. The chain is the relay's real one: slot 1's
// delivered block is imported, slot 2's block (built on the same parent,
// since the test's publisher imports nothing) loses to it.
func TestDeliveredCanonical(t *testing.T) {
	var e *relaytest.Env
	e = relaytest.New(t, relaytest.Options{Configure: func(c *relay.Config) { c.Canonical = chainOf{&e} }})
	e.RegisterAll()
	ctx := context.Background()
	deliver := func(slot uint64) *relaytest.Block {
		t.Helper()
		b := e.BuildBlock(slot, 1, nil)
		sub := e.Submission(b)
		if out, err := submit(e, sub, false); err != nil || out != relay.Accepted {
			t.Fatalf("submission: %v %v", out, err)
		}
		bid, err := e.Relay.GetHeader(ctx, slot, sub.Fulu.Message.ParentHash, e.Proposer(slot).Key.PublicKey())
		if err != nil || bid == nil {
			t.Fatalf("getHeader: %v %v", bid, err)
		}
		if _, err := e.Relay.GetPayload(ctx, e.BlindedBlock(slot, bid), false); err != nil {
			t.Fatal(err)
		}
		return b
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
	two := deliver(2)
	if two.Built.Block.NumberU64() != one.Built.Block.NumberU64() {
		t.Fatalf("test setup: slot 2 delivered block %d, want %d", two.Built.Block.NumberU64(), one.Built.Block.NumberU64())
	}
	if rec, _ := e.Store.Delivered(ctx, 2); rec.BlockHash != beacon.Root(two.Built.Block.Hash()) {
		t.Fatal("test setup: slot 2's record names another block")
	}
	// The chain has no block at the number yet: unknown.
	if err := e.Relay.CheckCanonical(2 + relay.DefaultCanonicalDepth); err != nil || canonical(1) != nil || canonical(2) != nil {
		t.Fatalf("chain behind: canonical %v, %v (%v), want unknown", canonical(1), canonical(2), err)
	}
	if err := e.Chain.ImportBuilt(one.Built); err != nil {
		t.Fatal(err)
	}
	// Not deep enough yet: slot 1 is checked from head slot 1+depth on.
	if err := e.Relay.CheckCanonical(1 + relay.DefaultCanonicalDepth - 1); err != nil || canonical(1) != nil {
		t.Fatalf("head too close: canonical %v (%v), want unknown", canonical(1), err)
	}
	if err := e.Relay.CheckCanonical(1 + relay.DefaultCanonicalDepth); err != nil || canonical(1) == nil || !*canonical(1) || canonical(2) != nil {
		t.Fatalf("head past slot 1 only: canonical %v, %v (%v), want true, unknown", canonical(1), canonical(2), err)
	}
	if err := e.Relay.CheckCanonical(2 + relay.DefaultCanonicalDepth); err != nil || canonical(2) == nil || *canonical(2) {
		t.Fatalf("another block at its number: canonical %v (%v), want false", canonical(2), err)
	}
	if c := canonical(1); c == nil || !*c {
		t.Fatalf("slot 1 after slot 2's check: %v", c)
	}
}

// chainOf is the relay's chain once the environment is built (the relay
// is configured before the environment exists).
type chainOf struct{ e **relaytest.Env }

func (c chainOf) CanonicalHash(n uint64) (common.Hash, bool) {
	return (*c.e).Chain.CanonicalHash(n)
}
