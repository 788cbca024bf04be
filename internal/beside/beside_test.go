package beside

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// spinFor keeps the calling goroutine busy (not blocked) for d.
func spinFor(d time.Duration) {
	for t0 := time.Now(); time.Since(t0) < d; {
	}
}

// TestGoRuns: every f handed to Go runs, from a busy caller and from many
// callers at once, and afterwards every thread of the process may run on
// every CPU it could before.
func TestGoRuns(t *testing.T) {
	const n = 50
	ran := make(chan int, 2*n)
	for i := range n {
		Go(func() { ran <- i })
		spinFor(100 * time.Microsecond)
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Go(func() { ran <- n + i })
		}()
	}
	wg.Wait()
	got := make([]int, 0, 2*n)
	for range 2 * n {
		select {
		case i := <-ran:
			got = append(got, i)
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d functions ran", len(got), 2*n)
		}
	}
	slices.Sort(got)
	for i, v := range got {
		if v != i {
			t.Fatalf("functions run: %v", got)
		}
	}
	checkAffinityRestored(t)
}

// BenchmarkStart is how long a goroutine started by a busy one waits
// before it runs, with the other cores idle, started with go and with Go:
// the starter spins for 2 ms, so a start near 2 ms means the new goroutine
// ran only once the starter stopped.
//
//	go test ./internal/beside -run '^$' -bench Start -benchtime 300x -count 3
func BenchmarkStart(b *testing.B) {
	for _, c := range []struct {
		name  string
		start func(func())
	}{
		{"go", func(f func()) { go f() }},
		{"steered", Go},
	} {
		b.Run(c.name, func(b *testing.B) {
			var lat []time.Duration
			var call time.Duration
			for b.Loop() {
				// Every core idle, and no b.StartTimer (its ReadMemStats
				// stops the world, which leaves the cores awake).
				time.Sleep(2 * time.Millisecond)
				started := make(chan time.Duration, 1)
				t0 := time.Now()
				c.start(func() { started <- time.Since(t0) })
				call += time.Since(t0)
				spinFor(2 * time.Millisecond)
				lat = append(lat, <-started)
			}
			b.ReportMetric(float64(call.Microseconds())/float64(len(lat)), "call-us")
			slices.Sort(lat)
			at := func(p float64) float64 { return float64(lat[int(float64(len(lat)-1)*p)].Microseconds()) }
			b.ReportMetric(at(0.5), "start-p50-us")
			b.ReportMetric(at(0.75), "start-p75-us")
			b.ReportMetric(at(0.9), "start-p90-us")
			b.ReportMetric(float64(runtime.NumCPU()), "cpus")
		})
	}
}
