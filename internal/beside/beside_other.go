//go:build !linux

package beside

func steeredGo(func()) bool { return false }
