//go:build !amd64 && !arm64

package beacon

// hashPairs writes the hash of each pair of chunks (an even number) into
// digests (at least half as long), one sha256.Sum256 per pair: gohashtree
// has no code for this architecture.
func hashPairs(digests, chunks [][32]byte) {
	for i := 0; i+1 < len(chunks); i += 2 {
		digests[i/2] = hashPair(&chunks[i], &chunks[i+1])
	}
}
