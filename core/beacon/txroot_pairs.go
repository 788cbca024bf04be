//go:build amd64 || arm64

package beacon

import "github.com/prysmaticlabs/gohashtree"

// hashPairs writes the hash of each pair of chunks (an even number) into
// digests (at least half as long). gohashtree hashes many pairs at once
// with SHA extensions or AVX2/AVX-512 lanes where the CPU has them, and
// with its generic code elsewhere; it cannot take zero chunks.
func hashPairs(digests, chunks [][32]byte) {
	if len(chunks) > 0 {
		gohashtree.HashChunks(digests, chunks)
	}
}
