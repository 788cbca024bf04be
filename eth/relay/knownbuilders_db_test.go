package relay_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/internal/store/pgtest"
)

// eventually polls cond until it holds (a safety net of 20 s, not a timing
// assertion): the known builders are refreshed in the background.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// freshKey is a builder key no bid was ever signed with.
func freshKey(t *testing.T, label string) *beacon.SecretKey {
	ikm := sha256.Sum256([]byte(label))
	k, err := beacon.DeriveSecretKey(ikm[:])
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestKnownBuilderSurvivesRestart: a builder whose bid was verified and
// stored is known to a relay restarted on the same database (SQLite file):
// the set is read from the stored bid traces, not kept in memory only.
func TestKnownBuilderSurvivesRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gavel", store.FileName)
	a := relaytest.New(t, relaytest.Options{StorePath: path, Traces: true})
	a.RegisterAll()
	accepted(t, a, 1, 1)
	pk := a.BuilderKey.PublicKey()
	if !a.Relay.KnownBuilder(pk, 1) {
		t.Fatal("builder not known after its bid was accepted")
	}
	if err := a.Traces.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	b := relaytest.New(t, relaytest.Options{StorePath: path}) // the restarted relay
	if !b.Relay.KnownBuilder(pk, 1) || !b.Relay.KnownBuilder(pk, 1+relay.KnownBuilderSlots) {
		t.Fatal("a restarted relay forgot a builder whose bid was accepted")
	}
	if b.Relay.KnownBuilder(pk, 2+relay.KnownBuilderSlots) {
		t.Fatalf("known %d slots after its bid", relay.KnownBuilderSlots+1)
	}
	if b.Relay.KnownBuilder(freshKey(t, "never bid").PublicKey(), 1) {
		t.Fatal("a builder without a bid is known")
	}
}

// TestKnownBuilderSharedByInstances: two relay instances on one PostgreSQL
// database; a builder whose bid instance A verified becomes known to B at
// B's next head slot, without any bid of it reaching B.
func TestKnownBuilderSharedByInstances(t *testing.T) {
	url := pgtest.URL(t)
	open := func() store.Store {
		st, err := store.OpenPostgres(url, store.PostgresConfig{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	a := relaytest.New(t, relaytest.Options{Store: open(), Traces: true})
	b := relaytest.New(t, relaytest.Options{Store: open()})
	a.RegisterAll()
	accepted(t, a, 1, 1)
	pk := a.BuilderKey.PublicKey()
	if err := a.Traces.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	if b.Relay.KnownBuilder(pk, 2) {
		t.Fatal("B knows the builder before its next head slot") // (it started before A's bid)
	}
	b.Relay.SetHeadSlot(1)
	eventually(t, "B knows the builder A accepted a bid of", func() bool { return b.Relay.KnownBuilder(pk, 2) })
}

// TestBuilderStatusFromDatabase: the operator's statuses are read from the
// database: a high-priority builder with no bid is known (it may use the
// body budget's reserve), a blocked one is not, whatever its bids, and its
// submissions are refused by the first check; a status set while the
// relay runs counts from its next head slot.
func TestBuilderStatusFromDatabase(t *testing.T) {
	ctx := context.Background()
	e := relaytest.New(t, relaytest.Options{})
	e.RegisterAll()
	known, priority := e.BuilderKey, freshKey(t, "a new builder the operator vouches for")
	accepted(t, e, 1, 1)
	if e.Relay.KnownBuilder(priority.PublicKey(), 2) {
		t.Fatal("a builder without a bid or a status is known")
	}
	set := func(k *beacon.SecretKey, status string) {
		t.Helper()
		if err := e.Store.SetBuilderStatus(ctx, store.BuilderStatus{Pubkey: k.PublicKey(), Status: status, Note: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	set(priority, store.BuilderHighPriority)
	set(known, store.BuilderBlocked)
	e.Relay.SetHeadSlot(1)
	eventually(t, "the statuses are read", func() bool {
		return e.Relay.KnownBuilder(priority.PublicKey(), 2) && !e.Relay.KnownBuilder(known.PublicKey(), 2)
	})
	sub := e.Submission(e.BuildBlock(2, 1, nil))
	if _, err := submit(e, sub, false); !errors.Is(err, relay.ErrBuilderBlocked) {
		t.Fatalf("blocked builder's submission: %v, want ErrBuilderBlocked", err)
	}
	if err := e.Relay.CheckBidTrace(sub.BidTrace(), sub.Fork); !errors.Is(err, relay.ErrBuilderBlocked) {
		t.Fatalf("blocked builder's bid trace: %v, want ErrBuilderBlocked", err)
	}
	if ok, err := e.Store.ClearBuilderStatus(ctx, known.PublicKey()); err != nil || !ok {
		t.Fatal(ok, err)
	}
	e.Relay.SetHeadSlot(2)
	eventually(t, "the cleared status is read", func() bool { return e.Relay.KnownBuilder(known.PublicKey(), 2) })
}
