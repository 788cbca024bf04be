package beacon

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
)

// This file is the transactions root of a payload header, computed without
// the generic SSZ hasher. Each transaction is a byte list whose limit
// (MAX_BYTES_PER_TRANSACTION, 2^25 chunks on mainnet) puts its few data
// chunks under some twenty levels of zero padding: a block of a few
// hundred transactions costs tens of thousands of 64-byte hashes, and the
// relay pays them before it can serve a bid (the header it signs). The
// generic hasher spends most of that time around each hash (a digest
// written and summed per pair); here every pair is one sha256.Sum256 of a
// 64-byte array, with SHA extensions where the CPU has them (as the bid
// trace's root in bidtrace_root.go). TestTransactionsRootMatchesSSZ and
// FuzzTransactionsRoot hold it equal to the generated hasher.

// zeroHashes[i] is the root of a subtree of 2^i zero chunks.
var zeroHashes = func() (z [64][32]byte) {
	for i := 1; i < len(z); i++ {
		z[i] = hashPair(&z[i-1], &z[i-1])
	}
	return z
}()

// depthOf is the depth of the SSZ tree of limit leaves: ceil(log2(limit)).
func depthOf(limit uint64) int {
	if limit <= 1 {
		return 0
	}
	return bits.Len64(limit - 1)
}

// merkleizeChunks is SSZ merkleize(chunks, limit) of n 32-byte chunks laid
// out in layer (which it overwrites; its length is at least n*32 rounded up
// to an even number of chunks), padded with zero chunks to 2^depth.
func merkleizeChunks(layer []byte, n int, depth int) [32]byte {
	if n == 0 {
		return zeroHashes[depth]
	}
	level := 0
	for n > 1 {
		if n%2 == 1 {
			copy(layer[n*32:], zeroHashes[level][:])
			n++
		}
		var pair [64]byte
		for i := 0; i < n/2; i++ {
			copy(pair[:], layer[i*64:i*64+64])
			h := sha256.Sum256(pair[:])
			copy(layer[i*32:], h[:])
		}
		n /= 2
		level++
	}
	var root [32]byte
	copy(root[:], layer[:32])
	for ; level < depth; level++ {
		root = hashPair(&root, &zeroHashes[level])
	}
	return root
}

// mixInLen is SSZ mix_in_length(root, n).
func mixInLen(root [32]byte, n uint64) [32]byte {
	var l [32]byte
	binary.LittleEndian.PutUint64(l[:8], n)
	return hashPair(&root, &l)
}

// parallelTxs is how many transactions make transactionsRoot split the
// work over the cores: below it a goroutine costs more than it saves.
const parallelTxs = 64

// transactionsRoot is hash_tree_root(List[ByteList[maxBytes], maxTxs]) of
// txs. The transactions' roots are computed on up to GOMAXPROCS (at most
// 4) goroutines: the relay waits for this root before it can serve a bid,
// and the other core is often idle or about to be.
func transactionsRoot(txs [][]byte, maxTxs, maxBytes uint64) (Root, error) {
	if uint64(len(txs)) > maxTxs {
		return Root{}, fmt.Errorf("%d transactions, limit %d", len(txs), maxTxs)
	}
	txDepth := depthOf((maxBytes + 31) / 32)
	listDepth := depthOf(maxTxs)
	if txDepth >= len(zeroHashes) || listDepth >= len(zeroHashes) {
		return Root{}, fmt.Errorf("list limits %d and %d out of range", maxTxs, maxBytes)
	}
	for i, tx := range txs {
		if uint64(len(tx)) > maxBytes {
			return Root{}, fmt.Errorf("transaction %d: %d bytes, limit %d", i, len(tx), maxBytes)
		}
	}
	roots := make([]byte, (len(txs)+1)/2*64+64)
	parts := 1
	if len(txs) >= parallelTxs {
		parts = min(runtime.GOMAXPROCS(0), 4)
	}
	var wg sync.WaitGroup
	for p := 1; p < parts; p++ {
		wg.Go(func() { txRoots(txs, roots, len(txs)*p/parts, len(txs)*(p+1)/parts, txDepth) })
	}
	txRoots(txs, roots, 0, len(txs)/parts, txDepth)
	wg.Wait()
	return mixInLen(merkleizeChunks(roots, len(txs), listDepth), uint64(len(txs))), nil
}

// txRoots writes the roots of txs[from:to] into roots (32 bytes each, at
// the transaction's index).
func txRoots(txs [][]byte, roots []byte, from, to, depth int) {
	var scratch []byte
	for i := from; i < to; i++ {
		tx := txs[i]
		chunks := (len(tx) + 31) / 32
		need := (chunks + 1) / 2 * 64
		if cap(scratch) < need {
			scratch = make([]byte, need*2)
		}
		layer := scratch[:need]
		copy(layer, tx)
		clear(layer[len(tx):])
		r := mixInLen(merkleizeChunks(layer, chunks, depth), uint64(len(tx)))
		copy(roots[i*32:], r[:])
	}
}
