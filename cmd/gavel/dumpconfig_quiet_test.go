package main

import (
	"strings"
	"testing"
)

// TestDumpConfigQuiet: dumpconfig writes the configuration and no INFO
// lines (a dev node's datadir is opened to read its chain).
func TestDumpConfigQuiet(t *testing.T) {
	out, errOut, code := gavel(t, "--dev", "--datadir", t.TempDir(), "--ipcdisable", "dumpconfig")
	if code != 0 || !strings.Contains(out, "[Mev.Dev]") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(errOut, "INFO") {
		t.Fatalf("dumpconfig logged INFO lines:\n%s", errOut)
	}
}
