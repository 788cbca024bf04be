package beside

import (
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// checkAffinityRestored fails unless, once the last steering has ended
// and been tidied, every thread may run on the process's CPUs.
func checkAffinityRestored(t *testing.T) {
	t.Helper()
	setupOnce.Do(setup)
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		t.Fatal(err)
	}
	if !usable {
		t.Logf("not steered here: %d usable CPUs", allowed.Count())
		return
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		var bad []int
		for _, tid := range listThreads() {
			var set unix.CPUSet
			if err := unix.SchedGetaffinity(tid, &set); err == nil && set != allowed {
				bad = append(bad, tid)
			}
		}
		if len(bad) == 0 && !steering.Load() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("threads %v still steered away from some CPUs", bad)
		}
		time.Sleep(time.Millisecond)
	}
}
