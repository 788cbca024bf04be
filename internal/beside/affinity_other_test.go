//go:build !linux

package beside

import "testing"

func checkAffinityRestored(*testing.T) {}
