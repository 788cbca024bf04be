// Package beside starts work meant to run beside its caller's, on another
// core, at once: the relay verifies a builder's signature on one core
// while the handler reads, inflates and decodes the rest of the
// submission on the other, and the bid is servable only when both end.
//
// A goroutine started by a busy goroutine with go can wait for a core far
// longer than it then runs. The Go runtime wakes an idle thread to take
// it, and the kernel decides where that thread runs: on the two-vCPU
// virtual machines this project is measured on, whose guest kernel packs
// woken threads onto busy vCPUs (sched_vcpu_pack), it is often queued
// behind the busy caller, and the goroutine starts only when the caller
// stops or the load balancer moves it, a millisecond or two later
// (BenchmarkStart: "go" p50 0.7 ms, p75 2 ms). Go steers the wake: for the
// moment it takes the new goroutine to start, the process's other threads
// may run only on the CPUs other than the caller's, so the thread woken
// for it lands on an idle one; the new goroutine gives every thread its
// CPUs back before it runs f ("steered" p50 0.1 ms). A timer gives them
// back too if the goroutine has not started within steerLimit. One
// steering runs at a time, and a process with more than maxThreads
// threads is not steered (the steering's cost grows with them): those
// calls are plain go.
package beside

// Go runs f on a goroutine of its own, steered to a CPU other than the
// caller's where the platform allows it (Linux, more than one usable
// CPU), as go f() otherwise.
func Go(f func()) {
	if !steeredGo(f) {
		go f()
	}
}
