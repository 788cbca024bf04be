//go:build !unix

package testutil

import "time"

// CPUTime is not measured on this platform: zero.
func CPUTime() time.Duration { return 0 }
