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
