package main

import (
	"strings"
	"testing"
)

// TestStoreFlags checks that the database flags reach [Mev.Store] and that
// a URL gavel cannot use, or a pool that cannot work, is refused before
// anything starts.
func TestStoreFlags(t *testing.T) {
	out, errOut, code := gavel(t, "dumpconfig", "--ipcdisable", "--store.url", "postgres://g:pw@db:5432/gavel",
		"--store.maxconns", "8", "--store.maxidleconns", "4", "--store.statementtimeout", "3s")
	if code != 0 {
		t.Fatalf("dumpconfig exit %d: %s", code, errOut)
	}
	for _, want := range []string{`URL = "postgres://g:pw@db:5432/gavel"`, "MaxConns = 8", "MaxIdleConns = 4", "StatementTimeout = 3000000000"} {
		if !strings.Contains(out, want) {
			t.Fatalf("dumpconfig lacks %q:\n%s", want, out)
		}
	}
	out, errOut, code = gavel(t, "dumpconfig", "--ipcdisable", "--store.maxconns", "4")
	if code != 0 || !strings.Contains(out, "MaxIdleConns = 4") {
		t.Fatalf("a smaller pool alone: exit %d, %s\n%s", code, errOut, out)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--store.url", "mysql://x"}, "expected empty (SQLite in the datadir) or postgres://"},
		{[]string{"--store.maxconns", "1"}, "--store.maxconns must be at least 2"},
		{[]string{"--store.maxconns", "4", "--store.maxidleconns", "5"}, "--store.maxidleconns must be 0..--store.maxconns (4)"},
		{[]string{"--store.statementtimeout", "0s"}, "--store.statementtimeout must be positive"},
	} {
		_, errOut, code := gavel(t, append([]string{"dumpconfig", "--ipcdisable"}, tc.args...)...)
		if code == 0 || !strings.Contains(errOut, tc.msg) {
			t.Fatalf("%v: exit %d, stderr %q, want %q", tc.args, code, errOut, tc.msg)
		}
	}
}
