//go:build unix

package mevapi

import "syscall"

// allocChunk maps a chunk of anonymous memory, outside the Go heap. Its
// pages are resident only once written.
func allocChunk() []byte {
	c, err := syscall.Mmap(-1, 0, readChunk, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		// Out of mappings or address space: the Go heap still works.
		return make([]byte, readChunk)
	}
	return c
}

// freeChunk unmaps a chunk from allocChunk (a heap fallback is left to the
// collector).
func freeChunk(c []byte) {
	syscall.Munmap(c) // EINVAL for a heap chunk, which the collector takes
}
