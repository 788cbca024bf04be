package flight

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/trace"
	"testing"
)

// TestSnapshot: a snapshot is an execution trace `go tool trace` reads (its
// header names the format), and without GAVEL_FLIGHT no recorder runs.
func TestSnapshot(t *testing.T) {
	t.Setenv(Env, "")
	Start()()
	if trace.IsEnabled() {
		t.Fatal("tracing on without " + Env)
	}

	fr := trace.NewFlightRecorder(trace.FlightRecorderConfig{})
	if err := fr.Start(); err != nil {
		t.Fatal(err)
	}
	defer fr.Stop()
	path := filepath.Join(t.TempDir(), "flight-1.trace")
	if err := snapshot(fr, path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(b, []byte("go 1.")) {
		t.Fatalf("snapshot: %v, %d bytes starting %q", err, len(b), b[:min(len(b), 16)])
	}
}
