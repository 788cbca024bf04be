package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// runWait samples, every 10 ms, how long the target's threads have waited
// in the kernel's run queues in all (the second field of
// /proc/PID/task/TID/schedstat): runnable, but no core free for them. Over
// a slow honest request it tells the time the OS kept the target off the
// cores (the attacker and other processes on them) from the time the
// target spent on its own work.
type runWait struct {
	mu      sync.Mutex
	at      []time.Time
	waited  []time.Duration // summed over the target's threads
	own     []time.Duration // the same for this process (the honest client)
	stop    chan struct{}
	stopped chan struct{}
}

// slowAnswer is an honest request slower than slowAt.
type slowAnswer struct {
	start time.Time
	took  time.Duration
}

// slowAt is the honest answer time from which a request is listed with the
// run-queue wait the target had during it.
const slowAt = 50 * time.Millisecond

func startRunWait() *runWait {
	w := &runWait{stop: make(chan struct{}), stopped: make(chan struct{})}
	if *pid == 0 {
		close(w.stopped)
		return w
	}
	go func() {
		defer close(w.stopped)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			d, o := threadsRunWait(*pid), threadsRunWait(os.Getpid())
			w.mu.Lock()
			w.at, w.waited, w.own = append(w.at, time.Now()), append(w.waited, d), append(w.own, o)
			w.mu.Unlock()
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

func (w *runWait) end() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.stopped
}

// between is the run-queue wait of the target's threads, and of this
// process's, from a to b (from the samples around them, so up to 10 ms
// wider).
func (w *runWait) between(a, b time.Time) (target, own time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	first, last := 0, len(w.at)-1 // the last sample before a, the first after b
	for i, t := range w.at {
		if !t.After(a) {
			first = i
		}
		if !t.Before(b) {
			last = i
			break
		}
	}
	if last <= first {
		return 0, 0
	}
	return w.waited[last] - w.waited[first], w.own[last] - w.own[first]
}

// perSecond is the run-queue wait per second of the sampled period.
func (w *runWait) perSecond() time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(w.at)
	if n < 2 {
		return 0
	}
	return time.Duration(float64(w.waited[n-1]-w.waited[0]) / w.at[n-1].Sub(w.at[0]).Seconds())
}

// describe lists the slow answers with the run-queue wait of the target
// and of the honest client during each.
func (w *runWait) describe(kind string, slow []slowAnswer) string {
	var b strings.Builder
	for _, s := range slow {
		target, own := w.between(s.start, s.start.Add(s.took))
		fmt.Fprintf(&b, "\n  %-8s slow answer %s at %s: meanwhile the target's threads waited %s for a core, the honest client's %s",
			kind, s.took.Round(100*time.Microsecond), s.start.Format("15:04:05.000"), target.Round(100*time.Microsecond), own.Round(100*time.Microsecond))
	}
	return b.String()
}

// threadsRunWait sums the run-queue wait of every thread of process p.
func threadsRunWait(p int) time.Duration {
	dirs, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", p))
	var sum int64
	for _, f := range dirs {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if fs := strings.Fields(string(b)); len(fs) >= 2 {
			n, _ := strconv.ParseInt(fs[1], 10, 64)
			sum += n
		}
	}
	return time.Duration(sum)
}
