//go:build !unix

package mevapi

// allocChunk allocates a chunk on the Go heap (no anonymous mappings here).
func allocChunk() []byte { return make([]byte, readChunk) }

// freeChunk leaves a chunk to the collector.
func freeChunk([]byte) {}
