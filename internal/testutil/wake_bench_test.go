package testutil_test

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkGoroutineStart is how long a goroutine started by a busy one
// waits before it runs, with the other cores idle: the second core's
// readiness for work handed to it for a millisecond or two (the relay's
// verification of a builder's signature beside the rest of the
// submission). The starter spins for 1 ms; a start latency near 1 ms means
// the new goroutine ran only once the starter stopped.
func BenchmarkGoroutineStart(b *testing.B) {
	var lat []time.Duration
	for b.Loop() {
		b.StopTimer()
		time.Sleep(2 * time.Millisecond) // every core idle
		b.StartTimer()
		started := make(chan time.Duration, 1)
		t0 := time.Now()
		go func() { started <- time.Since(t0) }()
		for time.Since(t0) < time.Millisecond {
		}
		lat = append(lat, <-started)
	}
	slices.Sort(lat)
	at := func(p float64) float64 { return float64(lat[int(float64(len(lat)-1)*p)].Microseconds()) }
	b.ReportMetric(at(0.1), "start-p10-us")
	b.ReportMetric(at(0.5), "start-p50-us")
	b.ReportMetric(at(0.9), "start-p90-us")
}
