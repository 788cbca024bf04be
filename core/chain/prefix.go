package chain

import (
	"runtime"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"
)

// PrefixCache lets ValidatePayload verify a block by executing only what it
// does not share with a block verified before. A builder resubmits its
// block for a slot many times as transactions arrive; successive blocks
// share the parent, the block environment and usually a prefix of
// transactions. For each verified block the cache keeps copies of the state
// at a few points between its transactions; a block with the same parent
// and environment starts from the last point within the prefix it shares.
// After that point, a transaction an earlier block of the same environment
// executed is replayed from its record (replay.go) when nothing it read has
// changed, and executed otherwise.
// The block's state root is computed in the final state of a kept block,
// setting there only the values that differ (endstate.go); the parent
// state's values read by a block are kept for the next blocks on the same
// parent (parentreads.go). A point's tries are hashed only when a block
// starting from it has no end state to hash in, the first time: hashing
// every point costs a first verification about a quarter more CPU on the
// workload's blocks (internal/workload). A block starting from a hashed
// point hashes only the changes after it, and the points it records
// inherit those hashes.
//
// Memory is bounded by the number of blocks kept (the least recently used
// goes first) and the number of points per block; a point is a copy of the
// block's state changes up to it, a block's records hold the accounts and
// slots its transactions reached, its end state is its final state with
// the trie nodes its hashing resolved. Points below a reused one are shared
// between blocks, not copied. Safe for concurrent use.
type PrefixCache struct {
	blocks, points int
	// senders of transactions seen in earlier blocks: a resubmitted block
	// recovers only the senders of its new transactions.
	senders *SenderCache

	mu       sync.Mutex
	entries  []*prefixEntry // least recently used first
	reads    []rootReads    // parent states' reads (parentreads.go), least recently used first
	hits     uint64
	misses   uint64
	skipped  uint64 // transactions not executed thanks to a point
	replayed uint64 // transactions applied from a record (replay.go)
	redone   uint64 // verifications with replays that failed and were redone in full
	rehashed uint64 // state roots computed in an earlier block's final state
}

// DefaultPrefixBlocks and DefaultPrefixPoints size a relay's PrefixCache: a
// few builders' latest blocks of the auctions open at once, each with a
// point about every seventh of its transactions.
const (
	DefaultPrefixBlocks = 8
	DefaultPrefixPoints = 6
)

// NewPrefixCache keeps points of at most blocks blocks, at most points
// points each (values below 1 mean 1).
func NewPrefixCache(blocks, points int) *PrefixCache {
	blocks = max(blocks, 1)
	return &PrefixCache{blocks: blocks, points: max(points, 1), senders: NewSenderCache(blocks * prefixSendersPerBlock)}
}

// prefixSendersPerBlock is the sender cache's room per block kept: a full
// block of plain transfers.
const prefixSendersPerBlock = 2048

// PrefixStats are a PrefixCache's counters.
type PrefixStats struct {
	// Hits and Misses count verifications that started from a point and
	// those that started from the parent.
	Hits, Misses uint64
	// Skipped counts the transactions not executed thanks to a point.
	Skipped uint64
	// Replayed counts the transactions after the point whose recorded
	// writes were applied instead of executing them (replay.go).
	Replayed uint64
	// Redone counts verifications that replayed transactions, failed and
	// were done again in full. For valid blocks it stays 0: a replay gives
	// what executing gives.
	Redone uint64
	// Rehashed counts the verifications whose state root was computed in
	// an earlier block's final state, setting only what differs
	// (endstate.go).
	Rehashed uint64
	// Blocks and Points are what the cache holds now.
	Blocks, Points int
}

// Stats returns the cache's counters.
func (pc *PrefixCache) Stats() PrefixStats {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	s := PrefixStats{Hits: pc.hits, Misses: pc.misses, Skipped: pc.skipped, Replayed: pc.replayed, Redone: pc.redone, Rehashed: pc.rehashed, Blocks: len(pc.entries)}
	seen := map[*prefixPoint]bool{}
	for _, e := range pc.entries {
		for _, p := range e.points {
			if !seen[p] {
				seen[p] = true
				s.Points++
			}
		}
	}
	return s
}

// prefixEnv is everything of a block that execution depends on besides its
// transactions: two blocks with the same env and the same first n
// transactions have the same state after them.
type prefixEnv struct {
	parent        common.Hash
	number        uint64
	time          uint64
	coinbase      common.Address
	random        common.Hash
	gasLimit      uint64
	baseFee       string
	beaconRoot    common.Hash
	excessBlobGas uint64
}

func envOf(h *types.Header) prefixEnv {
	e := prefixEnv{parent: h.ParentHash, number: h.Number.Uint64(), time: h.Time, coinbase: h.Coinbase, random: h.MixDigest, gasLimit: h.GasLimit}
	if h.BaseFee != nil {
		e.baseFee = h.BaseFee.String()
	}
	if h.ParentBeaconRoot != nil {
		e.beaconRoot = *h.ParentBeaconRoot
	}
	if h.ExcessBlobGas != nil {
		e.excessBlobGas = *h.ExcessBlobGas
	}
	return e
}

// prefixPoint is the state after a block's first n transactions. Nothing
// in it is modified but its tries' hashes (under mu): a block continuing
// from it works on a copy.
type prefixPoint struct {
	n        int
	mu       sync.Mutex
	hashed   bool
	state    *state.StateDB
	gas      *core.GasPool
	receipts types.Receipts // the first n; their block hash is the recording block's
}

type prefixEntry struct {
	env    prefixEnv
	txs    []common.Hash
	points []*prefixPoint // ascending n
	// records of the block's transactions that can be replayed, by hash;
	// never modified once the entry is kept.
	records map[common.Hash]*txRecord
	// writes are the block's writes by ranges of transactions, ascending,
	// the first from 0, one starting at every point's n (endstate.go); nil
	// when not known.
	writes []*writeSet
	// end is the block's final state with its tries hashed, until a block
	// starting from one of this one's points takes it (under the cache's
	// lock): it is modified in place.
	end *state.StateDB
}

// prefixRun is one verification's use of the cache: the point it starts
// from and the points it records.
type prefixRun struct {
	cache *PrefixCache
	// known holds the senders the cache knew, by tx index (zero: unknown).
	known   []common.Address
	isKnown []bool
	env     prefixEnv
	txs     []common.Hash
	start   *prefixPoint
	shared  []*prefixPoint // the matched block's points up to start
	every   int
	points  []*prefixPoint
	// sources are the records of the kept blocks of the same env, the most
	// recently used first; recs are this block's, by tx index.
	sources  []map[common.Hash]*txRecord
	recs     []*txRecord
	replayed int
	// end is the final state of the block the start point is taken from
	// (nil: none), to compute this block's state root in; endWrites are
	// that block's writes from the start point on. inherited are its
	// writes before the start point, which this block shares, and writes
	// this block's own from there.
	end       *state.StateDB
	endWrites []*writeSet
	inherited []*writeSet
	writes    []*writeSet
	// inheritedAfter are the inherited sets that reach past the end
	// state's boundary.
	inheritedAfter []*writeSet
	src            *prefixEntry
	startHashed    bool       // the copy of the start point has hashed tries
	diff           *stateDiff // set when the state root was computed in end
}

// begin finds the best point for block: the one with the most transactions
// within the longest prefix block shares with a kept block of its env.
func (pc *PrefixCache) begin(block *types.Block) *prefixRun {
	txs := block.Transactions()
	run := &prefixRun{cache: pc, env: envOf(block.Header()), txs: txHashes(txs)}
	run.every = max(1, (len(txs)+pc.points)/(pc.points+1))
	pc.mu.Lock()
	defer pc.mu.Unlock()
	best := -1
	for i := len(pc.entries) - 1; i >= 0; i-- {
		if e := pc.entries[i]; e.env == run.env && e.records != nil {
			run.sources = append(run.sources, e.records)
		}
	}
	run.recs = make([]*txRecord, len(txs))
	same := make([]int, len(pc.entries))
	for i, e := range pc.entries {
		if e.env != run.env {
			continue
		}
		for same[i] < len(e.txs) && same[i] < len(run.txs) && e.txs[same[i]] == run.txs[same[i]] {
			same[i]++
		}
		for k := len(e.points) - 1; k >= 0; k-- {
			if p := e.points[k]; p.n <= same[i] {
				if run.start == nil || p.n > run.start.n {
					run.start, run.shared, best = p, e.points[:k+1], i
				}
				break
			}
		}
	}
	from := 0
	if best >= 0 {
		from = run.start.n
		run.inherited = pc.entries[best].writesBefore(from)
	} else {
		run.inherited = []*writeSet{}
	}
	run.takeEnd(pc.entries, same)
	if best >= 0 {
		pc.touch(best)
		pc.hits++
		pc.skipped += uint64(run.start.n)
	} else {
		pc.misses++
	}
	run.writes = []*writeSet{newWriteSet(from)}
	return run
}

// mostlyIn reports whether at least half of the block's transactions are
// among those e recorded.
func (r *prefixRun) mostlyIn(e *prefixEntry) bool {
	n := 0
	for _, h := range r.txs {
		if e.records[h] != nil {
			n++
		}
	}
	return 2*n >= len(r.txs)
}

// writesBefore returns e's write sets of its first n transactions, when
// they end at n; nil if not.
func (e *prefixEntry) writesBefore(n int) []*writeSet {
	k := e.boundary(n)
	if k < 0 {
		return nil
	}
	return e.writes[:k:k]
}

// boundary returns the index of e's write set starting at n, or -1.
func (e *prefixEntry) boundary(n int) int {
	for k, w := range e.writes {
		if w.from == n {
			return k
		}
	}
	return -1
}

// takeEnd takes the final state of the kept block of the env that shares
// the most transactions with this one up to one of its write sets'
// boundaries (same[i] is what entries[i] shares). This block's writes
// from that boundary on must be known: its own from its start point, and
// those it inherits before (the transactions it did not execute). Called
// with the cache's lock held, after start and inherited are set.
func (r *prefixRun) takeEnd(entries []*prefixEntry, same []int) {
	start := 0
	if r.start != nil {
		start = r.start.n
	}
	var (
		src *prefixEntry
		at  = -1
		k   int
	)
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if e.env != r.env || e.end == nil || e.writes == nil {
			continue
		}
		if r.start == nil && !r.mostlyIn(e) {
			// A block that shares no prefix and few transactions with e
			// ends in a state far from e's: setting in e's end state
			// everything either wrote would cost more than hashing its
			// own.
			continue
		}
		for j := len(e.writes) - 1; j >= 0; j-- {
			n := e.writes[j].from
			if n > same[i] || n <= at {
				continue
			}
			if n < start && r.inherited == nil {
				continue
			}
			src, at, k = e, n, j
			break
		}
	}
	if src == nil {
		return
	}
	// The inherited sets that reach past at.
	var mine []*writeSet
	for j, w := range r.inherited {
		if j+1 == len(r.inherited) || r.inherited[j+1].from > at {
			mine = append(mine, w)
		}
	}
	r.src, r.end, r.endWrites, r.inheritedAfter = src, src.end, src.writes[k:], mine
	src.end = nil
}

// minParallelHashes is the number of transactions from which their hashes
// are computed on every core: a block's hashes are about a tenth of a
// resubmitted block's verification, before anything else can start.
const minParallelHashes = 64

// txHashes returns the hashes of txs (each tx keeps its own).
func txHashes(txs types.Transactions) []common.Hash {
	hashes := make([]common.Hash, len(txs))
	workers := min(runtime.GOMAXPROCS(0), len(txs)/minParallelHashes+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(txs); i += workers {
				hashes[i] = txs[i].Hash()
			}
		}()
	}
	wg.Wait()
	return hashes
}

func (pc *PrefixCache) touch(i int) {
	e := pc.entries[i]
	copy(pc.entries[i:], pc.entries[i+1:])
	pc.entries[len(pc.entries)-1] = e
}

// unknownSenders looks up the senders of txs from index from on and
// returns the txs whose sender must be recovered.
func (r *prefixRun) unknownSenders(txs types.Transactions, from int) types.Transactions {
	r.known, r.isKnown = make([]common.Address, len(txs)), make([]bool, len(txs))
	var missing types.Transactions
	for i := from; i < len(txs); i++ {
		if a, ok := r.cache.senders.c.Get(r.txs[i]); ok {
			r.known[i], r.isKnown[i] = a, true
		} else {
			missing = append(missing, txs[i])
		}
	}
	return missing
}

// signer is the signer for tx i: one that answers the cached sender when
// the cache knew it.
func (r *prefixRun) signer(i int, s types.Signer) types.Signer {
	if r != nil && r.isKnown != nil && r.isKnown[i] {
		return knownSender{Signer: s, from: r.known[i]}
	}
	return s
}

// learn records tx i's sender for the next blocks.
func (r *prefixRun) learn(i int, from common.Address) {
	if r != nil && r.isKnown != nil && !r.isKnown[i] {
		r.cache.senders.c.Add(r.txs[i], from)
	}
}

// redo counts a verification done again in full.
func (pc *PrefixCache) redo() {
	pc.mu.Lock()
	pc.redone++
	pc.mu.Unlock()
}

// lookup returns a record of tx i from an earlier block, or nil.
func (r *prefixRun) lookup(i int) *txRecord {
	if r == nil {
		return nil
	}
	for _, m := range r.sources {
		if rec := m[r.txs[i]]; rec != nil {
			return rec
		}
	}
	return nil
}

// due reports whether a point is recorded after n of total transactions.
func (r *prefixRun) due(n, total int) bool {
	return n < total && n%r.every == 0 && (r.start == nil || n > r.start.n)
}

func (r *prefixRun) record(n int, sdb *state.StateDB, gp *core.GasPool, receipts types.Receipts) {
	r.points = append(r.points, &prefixPoint{n: n, state: sdb.Copy(), gas: gp.Snapshot(), receipts: receipts[:n:n]})
	r.writes = append(r.writes, newWriteSet(n))
}

// current is the write set of the transactions being executed now.
func (r *prefixRun) current() *writeSet {
	if r == nil {
		return nil
	}
	return r.writes[len(r.writes)-1]
}

// hashIn returns the state to compute the block's state root in: the end
// state taken at begin with sdb's values set where the two can differ, or
// sdb itself. sdb is the block's final state, finalised here.
func (r *prefixRun) hashIn(sdb *state.StateDB, rules gparams.Rules) *state.StateDB {
	if r == nil || r.end == nil {
		return sdb
	}
	sdb.Finalise(rules)
	r.diff = diffStates(r.end, sdb, r.endWrites, r.inheritedAfter, r.writes)
	if r.diff == nil || len(r.diff.accounts)+len(r.diff.slots) > r.pending() {
		// Hashing the differences would cost more than hashing the block's
		// own state: the end state goes back to its block.
		r.diff = nil
		r.abort()
		return sdb
	}
	r.diff.apply(r.end, false)
	return r.end
}

// pending is about how many accounts and slots hashing the block's own
// state would insert into its tries: what it wrote after its start point,
// and before it too when the point was not hashed.
func (r *prefixRun) pending() int {
	n := 0
	sets := r.writes
	if !r.startHashed {
		sets = append(append([]*writeSet(nil), r.inherited...), sets...)
	}
	for _, w := range sets {
		n += len(w.accounts) + len(w.slots)
	}
	return n
}

// abort gives the end state taken at begin back to its block, as it was,
// when this block is refused.
func (r *prefixRun) abort() {
	if r == nil || r.end == nil {
		return
	}
	if r.diff != nil {
		r.diff.apply(r.end, true)
	}
	r.cache.mu.Lock()
	if r.src.end == nil {
		r.src.end = r.end
	}
	r.cache.mu.Unlock()
	r.end, r.diff = nil, nil
}

// finish keeps the verified block's points: those it shared, then its own,
// and its final state end, hashed, for the next block to take.
func (r *prefixRun) finish(end *state.StateDB) {
	pts := append(append([]*prefixPoint(nil), r.shared...), r.points...)
	if len(pts) > r.cache.points {
		// Every point of the shared run plus our own may exceed the bound:
		// keep an even spread.
		keep := make([]*prefixPoint, 0, r.cache.points)
		step := float64(len(pts)) / float64(r.cache.points)
		for i := 0; i < r.cache.points; i++ {
			keep = append(keep, pts[int(float64(i)*step)])
		}
		pts = keep
	}
	rehashed := uint64(0)
	if r.diff != nil {
		rehashed = 1
	}
	if len(pts) == 0 {
		r.cache.mu.Lock()
		r.cache.replayed += uint64(r.replayed)
		r.cache.rehashed += rehashed
		r.cache.mu.Unlock()
		return
	}
	from := 0
	if r.start != nil {
		from = r.start.n
	}
	recs := make(map[common.Hash]*txRecord, len(r.txs))
	for i, h := range r.txs {
		rec := r.recs[i]
		if i < from {
			rec = r.lookup(i)
		}
		if rec != nil {
			recs[h] = rec
		}
	}
	pc := r.cache
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.replayed += uint64(r.replayed)
	pc.rehashed += rehashed
	var writes []*writeSet
	if r.start == nil || r.inherited != nil {
		writes = append(append([]*writeSet(nil), r.inherited...), r.writes...)
	}
	pc.entries = append(pc.entries, &prefixEntry{env: r.env, txs: r.txs, points: pts, records: recs, writes: writes, end: end})
	if len(pc.entries) > pc.blocks {
		pc.entries[0] = nil
		pc.entries = pc.entries[1:]
	}
}

// stateCopy returns a copy of the point's state to continue from, and
// whether its tries are hashed. With
// hash, the point's tries are hashed first (once per point): a later
// IntermediateRoot on the copy walks only the paths changed after the point,
// and the trie nodes the hashing resolved from the database stay resolved in
// every copy. A block that computes its state root in an earlier block's
// final state (endstate.go) does not hash its own, and copies the point
// unhashed, which is cheaper: a hashed trie is copied node by node.
func (p *prefixPoint) stateCopy(rules gparams.Rules, hash bool) (*state.StateDB, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if hash && !p.hashed {
		p.state.IntermediateRoot(rules)
		p.hashed = true
	}
	return p.state.Copy(), p.hashed
}

// receiptsFor copies the point's receipts for the block with this hash
// (receipts and logs name their block), returning them and their logs.
func (p *prefixPoint) receiptsFor(hash common.Hash, capacity int) (types.Receipts, []*types.Log) {
	rs := make(types.Receipts, 0, capacity)
	var logs []*types.Log
	for _, r := range p.receipts {
		cp := *r
		cp.BlockHash = hash
		if len(r.Logs) > 0 {
			cp.Logs = make([]*types.Log, len(r.Logs))
			for i, l := range r.Logs {
				lc := *l
				lc.BlockHash = hash
				cp.Logs[i] = &lc
			}
			logs = append(logs, cp.Logs...)
		}
		rs = append(rs, &cp)
	}
	return rs, logs
}
