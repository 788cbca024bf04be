package main

import (
	"context"
	"strings"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// TestRelayBuildersCommand: `gavel relay builders` sets, lists and clears
// a builder's status in the database a node on that datadir uses, and
// refuses bad input with a message naming what was expected.
func TestRelayBuildersCommand(t *testing.T) {
	dir := t.TempDir()
	pk := "0x" + strings.Repeat("ab", len(beacon.BLSPubkey{}))
	if out, errOut, code := gavel(t, "relay", "builders", "set", "--datadir", dir, "--status", "high-priority", "--note", "onboarded 2026-11", pk); code != 0 || !strings.Contains(out, "is high-priority") {
		t.Fatalf("set: exit %d: %s %s", code, out, errOut)
	}
	st, err := store.OpenSQLite(store.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	var got []store.BuilderStatus
	st.BuilderStatuses(context.Background(), func(b *store.BuilderStatus) error { got = append(got, *b); return nil })
	st.Close()
	if len(got) != 1 || got[0].Pubkey.String() != pk || got[0].Status != store.BuilderHighPriority || got[0].Note != "onboarded 2026-11" {
		t.Fatalf("stored: %+v", got)
	}
	if out, errOut, code := gavel(t, "relay", "builders", "list", "--datadir", dir); code != 0 || !strings.Contains(out, pk+" high-priority") {
		t.Fatalf("list: exit %d: %s %s", code, out, errOut)
	}
	if out, errOut, code := gavel(t, "relay", "builders", "clear", "--datadir", dir, pk); code != 0 || !strings.Contains(out, "has no status now") {
		t.Fatalf("clear: exit %d: %s %s", code, out, errOut)
	}
	if out, _, code := gavel(t, "relay", "builders", "list", "--datadir", dir); code != 0 || !strings.Contains(out, "no builder has a status") {
		t.Fatalf("list after clear: exit %d: %s", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"set", "--status", "blocked", pk}, "name the relay's database"},
		{[]string{"set", "--datadir", dir, "--status", "optimistic", pk}, "expected high-priority or blocked"},
		{[]string{"set", "--datadir", dir, pk}, "expected --status high-priority|blocked, or --optimistic --collateral <amount>"},
		{[]string{"set", "--datadir", dir, "--optimistic", pk}, "--optimistic needs --collateral"},
		{[]string{"set", "--datadir", dir, "--collateral", "1ether", pk}, "--collateral is only for --optimistic"},
		{[]string{"set", "--datadir", dir, "--optimistic", "--collateral", "1eth", pk}, `--collateral "1eth": expected wei (1000000000000000000), or ether or gwei with the unit (1ether, 0.5ether, 250gwei)`},
		{[]string{"set", "--datadir", dir, "--optimistic", "--collateral", "0.5gwei0", pk}, "expected wei"},
		{[]string{"set", "--datadir", dir, "--optimistic", "--collateral", "1.5wei", pk}, "not a whole number of wei"},
		{[]string{"set", "--datadir", dir, "--optimistic", "--collateral", "0ether", pk}, "expected a collateral above 0"},
		{[]string{"set", "--datadir", dir, "--optimistic", "--collateral", "-1", pk}, "expected wei"},
		{[]string{"set", "--datadir", dir, "--status", "blocked", "0x1234"}, "expected 0x and 96 hex digits"},
		{[]string{"clear", "--datadir", dir}, "expected one argument"},
		{[]string{"list", "--store.url", "mysql://x"}, "expected postgres://"},
	} {
		_, errOut, code := gavel(t, append([]string{"relay", "builders"}, c.args...)...)
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want an error saying %q", c.args, code, errOut, c.want)
		}
	}
}

// TestRelayBuildersOptimistic: `gavel relay builders set --optimistic
// --collateral` stores the collateral in wei whatever the unit, list shows
// it, and clear removes it.
func TestRelayBuildersOptimistic(t *testing.T) {
	dir := t.TempDir()
	pk := "0x" + strings.Repeat("cd", len(beacon.BLSPubkey{}))
	for _, c := range []struct{ amount, wei string }{
		{"1ether", "1000000000000000000"},
		{"0.25ether", "250000000000000000"},
		{"250gwei", "250000000000"},
		{"12345", "12345"},
		{"7wei", "7"},
	} {
		out, errOut, code := gavel(t, "relay", "builders", "set", "--datadir", dir, "--optimistic", "--collateral", c.amount, pk)
		if code != 0 || !strings.Contains(out, "optimistic with a collateral of "+c.wei+" wei") {
			t.Fatalf("set %s: exit %d: %s %s", c.amount, code, out, errOut)
		}
		st, err := store.OpenSQLite(store.Path(dir))
		if err != nil {
			t.Fatal(err)
		}
		var got []store.OptimisticBuilder
		st.OptimisticBuilders(context.Background(), func(b *store.OptimisticBuilder) error { got = append(got, *b); return nil })
		st.Close()
		if len(got) != 1 || got[0].Collateral.String() != c.wei || got[0].Demoted {
			t.Fatalf("%s stored as %+v", c.amount, got)
		}
	}
	if out, errOut, code := gavel(t, "relay", "builders", "list", "--datadir", dir); code != 0 || !strings.Contains(out, pk+" optimistic collateral=7") {
		t.Fatalf("list: exit %d: %s %s", code, out, errOut)
	}
	if out, errOut, code := gavel(t, "relay", "builders", "clear", "--datadir", dir, pk); code != 0 || !strings.Contains(out, "has no status now") {
		t.Fatalf("clear: exit %d: %s %s", code, out, errOut)
	}
	if out, _, code := gavel(t, "relay", "builders", "list", "--datadir", dir); code != 0 || !strings.Contains(out, "no builder has a status") {
		t.Fatalf("list after clear: exit %d: %s", code, out)
	}
}
