package beside

import (
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// steerLimit is how long the threads stay steered when the new goroutine
// has not started: past it the caller's CPU is given back to them.
const steerLimit = 2 * time.Millisecond

// maxThreads is the most threads a steering sets the affinity of (two
// system calls each, some microseconds in all for a Go process's usual
// twenty).
const maxThreads = 128

var (
	setupOnce sync.Once
	usable    bool        // more than one CPU, and affinity can be set
	steering  atomic.Bool // a steering is under way

	threadsMu sync.Mutex
	threads   []int // the process's threads, as last listed
)

func setup() {
	var allowed unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil || allowed.Count() < 2 {
		return
	}
	if err := unix.SchedSetaffinity(0, &allowed); err != nil {
		return // not permitted here (a seccomp profile)
	}
	threads = listThreads()
	usable = len(threads) > 0
}

// listThreads reads the process's thread IDs.
func listThreads() []int {
	d, err := os.Open("/proc/self/task")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	l := make([]int, 0, len(names))
	for _, n := range names {
		if t, err := strconv.Atoi(n); err == nil {
			l = append(l, t)
		}
	}
	return l
}

func steeredGo(f func()) bool {
	setupOnce.Do(setup)
	if !usable || !steering.CompareAndSwap(false, true) {
		return false
	}
	threadsMu.Lock()
	l := threads
	threadsMu.Unlock()
	// The CPUs the process may use now (an operator may have changed
	// them since setup), read from the caller's thread, which no
	// steering has moved.
	var now unix.CPUSet
	cpu, ok := currentCPU()
	if !ok || len(l) > maxThreads || unix.SchedGetaffinity(0, &now) != nil || now.Count() < 2 || !now.IsSet(cpu) {
		steering.Store(false)
		return false
	}
	others := now
	others.Clear(cpu)
	self := unix.Gettid()
	for _, t := range l {
		if t != self {
			_ = unix.SchedSetaffinity(t, &others) // a thread gone since: nothing to steer
		}
	}
	s := &steered{threads: l, allowed: now}
	s.timer = time.AfterFunc(steerLimit, func() { s.end(); s.tidy() })
	go func() {
		s.timer.Stop()
		s.end()
		f()
		runtime.Gosched()
		s.tidy()
	}()
	return true
}

// steered is one steering, ended once (by the new goroutine or the
// timer).
type steered struct {
	threads []int
	allowed unix.CPUSet // what they get back
	timer   *time.Timer
	ended   atomic.Bool
}

// end gives the steered threads the process's CPUs back.
func (s *steered) end() {
	if !s.ended.CompareAndSwap(false, true) {
		return
	}
	for _, t := range s.threads {
		_ = unix.SchedSetaffinity(t, &s.allowed)
	}
	steering.Store(false)
}

// tidy gives the process's CPUs to any thread started since the steering
// (a thread inherits its creator's affinity) and lists the threads for
// the next one. It runs after f, off the path of the work steered.
func (s *steered) tidy() {
	l := listThreads()
	for _, t := range l {
		if !contains(s.threads, t) {
			_ = unix.SchedSetaffinity(t, &s.allowed)
		}
	}
	threadsMu.Lock()
	threads = l
	threadsMu.Unlock()
}

func contains(l []int, t int) bool {
	for _, x := range l {
		if x == t {
			return true
		}
	}
	return false
}

// currentCPU is the CPU the calling thread runs on.
func currentCPU() (int, bool) {
	var cpu, node uint32
	_, _, errno := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&cpu)), uintptr(unsafe.Pointer(&node)), 0)
	return int(cpu), errno == 0
}
