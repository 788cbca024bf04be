//go:build unix

package chain_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, all threads: on a
// shared machine it is a steadier measure of work than wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
