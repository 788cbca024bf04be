package beacon

import (
	"bytes"
	"hash/maphash"
	"sync"
)

// txRootCache holds the roots of the transactions hashed lately, by their
// bytes: a builder's successive blocks of a slot repeat most of their
// transactions, and so do the blocks of builders who take them from the
// same mempool, while a transaction's root costs some thirty 64-byte
// hashes (its chunks, then one per level of zero padding). It keeps two
// generations: once the newer holds txRootCacheBytes of transactions it
// becomes the older and the older is dropped; a hit in the older is kept
// in the newer. A transaction is found only by its exact bytes (each
// entry keeps a copy they are compared with), so a cached root is the
// root of those bytes.
//
// An entry is found by a 64-bit hash of the transaction (maphash, seeded
// afresh by each process) and its copy lies in the generation's arena:
// a block of never-seen transactions pays a hash and a probe of a map
// without pointers for each, not a string allocated and a map of 80,000
// strings grown, which cost 0.3-0.7 ms of a 650-transaction block's path
// to its bid. Two transactions of the same hash share one entry, the
// latest kept; the other is hashed again when it comes.
var txRootCache = newRootCache(txRootCacheBytes)

// rootCache is txRootCache's type.
type rootCache struct {
	sync.Mutex
	cur, old *rootGen
	limit    int // bytes of one generation
}

func newRootCache(limit int) *rootCache {
	return &rootCache{cur: newRootGen(), old: newRootGen(), limit: limit}
}

// rootGen is one generation of the cache: its entries and the arena of
// their transactions' bytes.
type rootGen struct {
	index  map[uint64]rootEntry
	arena  [][]byte // chunks of arenaChunk bytes, the last being filled
	nbytes int      // bytes of transactions kept
}

func newRootGen() *rootGen { return &rootGen{index: map[uint64]rootEntry{}} }

// rootEntry is a transaction's root under a byte-list limit of 2^depth
// chunks, with where its bytes lie in the arena.
type rootEntry struct {
	root       [32]byte
	chunk, off uint32
	n          uint32
	depth      uint8
}

// arenaChunk is the size of an arena's chunks: a generation takes some
// sixteen, each allocated as the last fills (maxCachedTx fits many times).
const arenaChunk = 1 << 20

// txRootCacheBytes bounds the transaction bytes of one generation of
// txRootCache (two are kept): about 80,000 mainnet transactions.
const txRootCacheBytes = 16 << 20

// maxCachedTx is the largest transaction whose root is cached: larger ones
// are rare and would take much of the cache each.
const maxCachedTx = 4 << 10

// txKeySeed seeds the hash entries are found by.
var txKeySeed = maphash.MakeSeed()

// txKey is the hash tx is found by.
func txKey(tx []byte) uint64 { return maphash.Bytes(txKeySeed, tx) }

// find returns the entry for tx (of hash key) under depth.
func (g *rootGen) find(key uint64, tx []byte, depth int) (rootEntry, bool) {
	e, ok := g.index[key]
	if !ok || int(e.depth) != depth || int(e.n) != len(tx) || !bytes.Equal(g.arena[e.chunk][e.off:e.off+e.n], tx) {
		return rootEntry{}, false
	}
	return e, true
}

// put copies tx into the arena and enters its root.
func (g *rootGen) put(key uint64, tx []byte, root [32]byte, depth int) {
	last := len(g.arena) - 1
	if last < 0 || len(g.arena[last])+len(tx) > cap(g.arena[last]) {
		g.arena = append(g.arena, make([]byte, 0, max(arenaChunk, len(tx))))
		last++
	}
	off := len(g.arena[last])
	g.arena[last] = append(g.arena[last], tx...)
	g.index[key] = rootEntry{root: root, chunk: uint32(last), off: uint32(off), n: uint32(len(tx)), depth: uint8(depth)}
	g.nbytes += len(tx)
}

// lookupLocked returns tx's root under depth, keeping a hit in the older
// generation in the newer.
func (c *rootCache) lookupLocked(key uint64, tx []byte, depth int) ([32]byte, bool) {
	if e, ok := c.cur.find(key, tx, depth); ok {
		return e.root, true
	}
	if e, ok := c.old.find(key, tx, depth); ok {
		c.keepLocked(key, tx, e.root, depth)
		return e.root, true
	}
	return [32]byte{}, false
}

// keepLocked puts tx's root into the newer generation, turning the
// generations over when it is full.
func (c *rootCache) keepLocked(key uint64, tx []byte, root [32]byte, depth int) {
	if c.cur.nbytes+len(tx) > c.limit {
		c.old, c.cur = c.cur, newRootGen()
	}
	c.cur.put(key, tx, root, depth)
}

// cachedTxRoots is txRoots with the roots found in txRootCache taken from
// it and the others hashed (together, as txRoots does) and cached.
func cachedTxRoots(txs [][]byte, roots [][32]byte, from, to, depth int) {
	keys := make([]uint64, to-from)
	for i := range keys {
		keys[i] = txKey(txs[from+i])
	}
	missed := make([]int, to-from) // indexes into txs of the roots not cached
	missTxs := make([][]byte, to-from)
	m := 0
	c := txRootCache
	c.Lock()
	for i := from; i < to; i++ {
		if r, ok := c.lookupLocked(keys[i-from], txs[i], depth); ok {
			roots[i] = r
			continue
		}
		missed[m], missTxs[m] = i, txs[i]
		m++
	}
	c.Unlock()
	if m == 0 {
		return
	}
	missRoots := make([][32]byte, m)
	txRoots(missTxs[:m], missRoots, 0, m, depth)
	c.Lock()
	for k := 0; k < m; k++ {
		roots[missed[k]] = missRoots[k]
		if len(missTxs[k]) <= maxCachedTx {
			c.keepLocked(keys[missed[k]-from], missTxs[k], missRoots[k], depth)
		}
	}
	c.Unlock()
}

// KeepTransactionRoots computes the roots of txs (transactions in their
// consensus encoding, as a payload carries them) under spec's byte limit
// and keeps them in the cache of transaction roots (txRootCache), so that
// a block carrying them later finds them there. The relay feeds it the
// transactions entering the node's pool: a block of public transactions
// then costs its header's root a lookup each instead of some thirty hashes
// on the path to its bid. Transactions already cached, over maxCachedTx or
// over the spec's limit are skipped.
func KeepTransactionRoots(spec *Spec, txs [][]byte) {
	maxBytes, depth := txLimit(spec)
	if depth >= len(zeroHashes) {
		return
	}
	keep := make([][]byte, 0, len(txs))
	for _, tx := range txs {
		if len(tx) <= maxCachedTx && uint64(len(tx)) <= maxBytes {
			keep = append(keep, tx)
		}
	}
	roots := make([][32]byte, min(len(keep), rootBatch))
	for from := 0; from < len(keep); from += rootBatch {
		to := min(from+rootBatch, len(keep))
		cachedTxRoots(keep[from:to], roots, 0, to-from, depth)
	}
}

// TransactionRootKept reports whether the cache of transaction roots holds
// tx's root under spec's byte limit.
func TransactionRootKept(spec *Spec, tx []byte) bool {
	_, depth := txLimit(spec)
	key := txKey(tx)
	c := txRootCache
	c.Lock()
	defer c.Unlock()
	if _, ok := c.cur.find(key, tx, depth); ok {
		return true
	}
	_, ok := c.old.find(key, tx, depth)
	return ok
}

// txLimit is spec's byte limit of a transaction and the depth of its
// tree (the limit in chunks), under which txRootCache keys its roots.
func txLimit(spec *Spec) (maxBytes uint64, depth int) {
	maxBytes = spec.Value("MAX_BYTES_PER_TRANSACTION")
	return maxBytes, depthOf((maxBytes + 31) / 32)
}
