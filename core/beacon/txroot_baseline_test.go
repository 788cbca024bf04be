package beacon

import (
	"crypto/sha256"
	"fmt"
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
// txs. The transactions' roots are computed on up to GOMAXPROCS (at most
// 4) goroutines: the relay waits for this root before it can serve a bid,
// and the other core is often idle or about to be.
func perPairTransactionsRoot(txs [][]byte, maxTxs, maxBytes uint64) (Root, error) {
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
