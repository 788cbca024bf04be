// Package testutil holds helpers shared by the tests and benchmarks of
// several packages. Production code never imports it.
package testutil

import (
	"testing"
	"time"
)

// ReportCPU adds the process's CPU time per operation since start (a
// CPUTime reading) as the cpu-ns/op metric. It counts every thread: server
// goroutines, GC, parallel sender recovery. On a shared machine the wall
// time of a benchmark includes waiting for a core; CPU time does not, so
// benchmarks report both.
func ReportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64(CPUTime()-start)/float64(b.N), "cpu-ns/op")
	}
}
