package beacon

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// This file is the transactions root of a payload header, computed without
// the generic SSZ hasher. Each transaction is a byte list whose limit
// (MAX_BYTES_PER_TRANSACTION, 2^25 chunks on mainnet) puts its few data
// chunks under some twenty levels of zero padding: a block of a few
// hundred transactions costs tens of thousands of 64-byte hashes, and the
// relay pays them before it can serve a bid (the header it signs). The
// generic hasher spends most of that time around each hash (a digest
// written and summed per pair). Here the trees of all transactions are
// hashed together, level by level, each level one gohashtree call over
// all their pairs: with SHA extensions, AVX2 or AVX-512 (or ARM's SHA-2
// instructions) it hashes pairs back to back without the per-call set-up,
// about a third of the CPU of one sha256.Sum256 per pair. On an amd64 CPU
// without them it falls back to its portable Go SHA-256 (its
// supportedCPU check). gohashtree builds on amd64 and arm64 only: elsewhere
// hashPairs is one sha256.Sum256 per pair (txroot_pairs_other.go).
// TestTransactionsRootMatchesSSZ and
// FuzzTransactionsRoot hold the root equal to the generated hasher,
// TestTransactionsRootSmallLimits to the per-pair root in
// txroot_baseline_test.go.

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

// merkleizeChunks is SSZ merkleize(chunks, limit) of the n chunks in
// layer[:n] (which it overwrites; len(layer) is at least n rounded up to
// an even number), padded with zero chunks to 2^depth. Each level is one
// hashPairs call into half, which holds at least len(layer)/2 chunks.
func merkleizeChunks(layer, half [][32]byte, n int, depth int) [32]byte {
	if n == 0 {
		return zeroHashes[depth]
	}
	level := 0
	for n > 1 {
		if n%2 == 1 {
			layer[n] = zeroHashes[level]
			n++
		}
		hashPairs(half, layer[:n])
		n /= 2
		copy(layer, half[:n])
		level++
	}
	root := layer[0]
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
	parts := 1
	if len(txs) >= parallelTxs {
		parts = min(runtime.GOMAXPROCS(0), 4)
	}
	return transactionsRootParts(txs, maxTxs, maxBytes, parts, true)
}

// transactionsRootParts is transactionsRoot with the transactions' roots
// computed by up to parts goroutines (the caller's and parts-1 helpers)
// side by side, in batches (rootWork); with cached, the roots in
// txRootCache are taken from it and the others kept there.
func transactionsRootParts(txs [][]byte, maxTxs, maxBytes uint64, parts int, cached bool) (Root, error) {
	txDepth, listDepth, err := txRootDepths(txs, maxTxs, maxBytes)
	if err != nil {
		return Root{}, err
	}
	roots := make([][32]byte, len(txs)+len(txs)%2)
	w := rootWork{txs: txs, roots: roots, depth: txDepth, cached: cached}
	if parts > 1 {
		w.finished = make(chan struct{})
		for p := 1; p < parts; p++ {
			go w.run()
		}
	}
	w.run()
	if int(w.done.Load()) < len(txs) {
		<-w.finished // a helper is hashing the last batch it took
	}
	half := make([][32]byte, len(roots)/2)
	return mixInLen(merkleizeChunks(roots, half, len(txs), listDepth), uint64(len(txs))), nil
}

// txRootDepths checks txs against the list's limits and returns the depth
// of a transaction's tree (its byte limit in chunks) and of the list's.
func txRootDepths(txs [][]byte, maxTxs, maxBytes uint64) (txDepth, listDepth int, err error) {
	if uint64(len(txs)) > maxTxs {
		return 0, 0, fmt.Errorf("%d transactions, limit %d", len(txs), maxTxs)
	}
	txDepth, listDepth = depthOf((maxBytes+31)/32), depthOf(maxTxs)
	if txDepth >= len(zeroHashes) || listDepth >= len(zeroHashes) {
		return 0, 0, fmt.Errorf("list limits %d and %d out of range", maxTxs, maxBytes)
	}
	for i, tx := range txs {
		if uint64(len(tx)) > maxBytes {
			return 0, 0, fmt.Errorf("transaction %d: %d bytes, limit %d", i, len(tx), maxBytes)
		}
	}
	return txDepth, listDepth, nil
}

// rootBatch is how many transactions' roots a worker of
// transactionsRootParts computes at a time.
const rootBatch = 64

// rootWork is the transactions' roots shared out in batches: each worker
// takes the next batch until none is left, so that the caller never waits
// for a helper that has not started (its core busy elsewhere, the relay's
// verification of the builder's signature): it hashes every batch no
// helper took, and waits only for those a helper is hashing.
type rootWork struct {
	txs      [][]byte
	roots    [][32]byte
	depth    int
	cached   bool          // through txRootCache (cachedTxRoots)
	next     atomic.Int64  // the first transaction no worker took
	done     atomic.Int64  // how many transactions' roots are written
	finished chan struct{} // closed when done reaches len(txs) (with helpers)
}

func (w *rootWork) run() {
	n := len(w.txs)
	for {
		from := int(w.next.Add(rootBatch)) - rootBatch
		if from >= n {
			return
		}
		to := min(from+rootBatch, n)
		if w.cached {
			cachedTxRoots(w.txs, w.roots, from, to, w.depth)
		} else {
			txRoots(w.txs, w.roots, from, to, w.depth)
		}
		if int(w.done.Add(int64(to-from))) == n && w.finished != nil {
			close(w.finished)
		}
	}
}

// txScratch is txRoots' working memory, kept between calls: a block's
// chunks (some 130 KB for 650 transactions, 2 MB for a 1 MB block) would
// otherwise be allocated for every submission.
type txScratch struct {
	in, out [][32]byte
	nodes   []int
}

var txRootScratch = sync.Pool{New: func() any { return new(txScratch) }}

// grown is s with length n, reallocated if its capacity is short.
func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// txRoots writes the roots of txs[from:to] into roots[from:to]. It hashes
// level by level across all these transactions at once, so that every
// level is one gohashtree call over many pairs (the SIMD lanes filled)
// rather than a few pairs per transaction: at level l each transaction
// with nodes left has its nodes paired, an odd last one with
// zeroHashes[l], until depth; then one call mixes in every length.
func txRoots(txs [][]byte, roots [][32]byte, from, to, depth int) {
	txs = txs[from:to]
	sc := txRootScratch.Get().(*txScratch)
	defer txRootScratch.Put(sc)
	sc.nodes = grown(sc.nodes, len(txs))
	nodes := sc.nodes // each transaction's nodes at this level
	total := 0
	for i, tx := range txs {
		nodes[i] = (len(tx) + 31) / 32
		total += nodes[i] + nodes[i]%2
	}
	// in holds a level's nodes, each transaction's padded to an even count;
	// out the hashes of its pairs, contiguous. in also takes the final
	// (root, length) pairs. The level-0 chunks are zeroed first: a
	// transaction's last chunk and its padding chunk are partly or wholly
	// not written over.
	sc.in = grown(sc.in, max(total, 2*len(txs)))
	sc.out = grown(sc.out, max(total/2, len(txs)))
	in, out := sc.in, sc.out
	clear(in[:total])
	at := 0
	for i, tx := range txs {
		for j := 0; j < len(tx); j += 32 {
			copy(in[at+j/32][:], tx[j:])
		}
		at += nodes[i] + nodes[i]%2
	}
	for level := 0; level < depth; level++ {
		hashPairs(out, in[:at])
		src, dst := 0, 0
		for i, n := range nodes {
			if n == 0 {
				continue
			}
			n = (n + 1) / 2
			copy(in[dst:], out[src:src+n])
			src += n
			dst += n
			if n%2 == 1 {
				in[dst] = zeroHashes[level+1]
				dst++
			}
			nodes[i] = n
		}
		at = dst
	}
	// Every transaction with chunks now has its root at the start of its
	// two-node slot in in; those without have zeroHashes[depth]. The
	// (root, length) pairs are written from the last transaction back, so
	// that no slot is overwritten before it is read (slot k of the k-th
	// transaction with chunks lies at or before its index's pair).
	slot := 2 * len(txs)
	for _, n := range nodes {
		if n == 0 {
			slot -= 2
		}
	}
	for i := len(txs) - 1; i >= 0; i-- {
		root := zeroHashes[depth]
		if nodes[i] != 0 {
			slot -= 2
			root = in[slot]
		}
		in[2*i] = root
		in[2*i+1] = [32]byte{}
		binary.LittleEndian.PutUint64(in[2*i+1][:8], uint64(len(txs[i])))
	}
	hashPairs(roots[from:to], in[:2*len(txs)])
}
