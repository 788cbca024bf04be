package workload

import (
	"os"
	"testing"
	"time"
)

// TestEnsure builds (or finds) the database of the size GAVEL_WORKLOAD
// names; with GAVEL_WORKLOAD=full it is how the full state is generated
// ahead of a benchmark run.
func TestEnsure(t *testing.T) {
	s, err := SizeFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	dir, err := Ensure(New(s))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s workload in %s (%v)", s.Name, dir, time.Since(start))
}
