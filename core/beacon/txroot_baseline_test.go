package beacon

import (
	"crypto/sha256"
	"runtime"
	"sync"
)

// The per-pair transactions root (one sha256.Sum256 per 64-byte pair, each
// transaction's tree on its own), kept as BenchmarkTransactionsRoot's
// baseline and as a second reference in TestTransactionsRootMatchesSSZ.

// perPairMerkleize is SSZ merkleize(chunks, limit) of n 32-byte chunks laid
// out in layer (which it overwrites; its length is at least n*32 rounded up
// to an even number of chunks), padded with zero chunks to 2^depth.
func perPairMerkleize(layer []byte, n int, depth int) [32]byte {
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

// perPairTransactionsRoot is hash_tree_root(List[ByteList[maxBytes], maxTxs]) of
// txs, one hash per pair and each transaction's tree on its own, split
// over up to GOMAXPROCS (at most 4) goroutines: the baseline of
// transactionsRoot's level-by-level hashing.
func perPairTransactionsRoot(txs [][]byte, maxTxs, maxBytes uint64) (Root, error) {
	txDepth, listDepth, err := txRootDepths(txs, maxTxs, maxBytes)
	if err != nil {
		return Root{}, err
	}
	roots := make([]byte, (len(txs)+1)/2*64+64)
	parts := 1
	if len(txs) >= parallelTxs {
		parts = min(runtime.GOMAXPROCS(0), 4)
	}
	var wg sync.WaitGroup
	for p := 1; p < parts; p++ {
		wg.Go(func() { perPairTxRoots(txs, roots, len(txs)*p/parts, len(txs)*(p+1)/parts, txDepth) })
	}
	perPairTxRoots(txs, roots, 0, len(txs)/parts, txDepth)
	wg.Wait()
	return mixInLen(perPairMerkleize(roots, len(txs), listDepth), uint64(len(txs))), nil
}

// perPairTxRoots writes the roots of txs[from:to] into roots (32 bytes each, at
// the transaction's index).
func perPairTxRoots(txs [][]byte, roots []byte, from, to, depth int) {
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
		r := mixInLen(perPairMerkleize(layer, chunks, depth), uint64(len(tx)))
		copy(roots[i*32:], r[:])
	}
}
