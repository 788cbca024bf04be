package beacon

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gavel-eth/gavel/internal/testutil"
)

// genericTransactionsRoot is the transactions root by the generated SSZ
// hasher, which transactionsRoot must match.
func genericTransactionsRoot(t testing.TB, txs [][]byte) Root {
	t.Helper()
	r, err := (&Transactions{Transactions: txs}).HashTreeRoot()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestTransactionsRootMatchesSSZ(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	lengths := []int{0, 1, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 1000, 4096, 4097}
	cases := [][][]byte{nil, {}, {{}}, {{}, {}}}
	for _, n := range lengths {
		cases = append(cases, [][]byte{make([]byte, n)})
	}
	oneChunk := make([][]byte, 70)
	mixed := make([][]byte, 130)
	for i := range oneChunk {
		oneChunk[i] = []byte{byte(i), 1}
	}
	for i := range mixed {
		// empty transactions between others shift every later
		// transaction's nodes in the shared level layout
		mixed[i] = make([]byte, []int{0, 0, 1, 32, 33, 0, 64, 65, 0, 200}[i%10])
		for j := range mixed[i] {
			mixed[i][j] = byte(i + j)
		}
	}
	cases = append(cases, oneChunk, mixed, make([][]byte, 70))
	for _, count := range []int{1, 2, 3, 5, 8, 9, 17, 200, 651} {
		txs := make([][]byte, count)
		for i := range txs {
			var n int
			if rng.IntN(4) == 0 {
				n = lengths[rng.IntN(len(lengths))]
			} else {
				n = rng.IntN(600)
			}
			txs[i] = make([]byte, n)
			for j := range txs[i] {
				txs[i][j] = byte(rng.Uint32())
			}
		}
		cases = append(cases, txs)
	}
	for i, txs := range cases {
		got, err := TransactionsRoot(MainnetSpec, txs)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if want := genericTransactionsRoot(t, txs); got != want {
			t.Fatalf("case %d (%d txs): root %x, generated hasher %x", i, len(txs), got, want)
		}
		for parts := 1; parts <= 3; parts++ {
			if got, _ := transactionsRootParts(txs, 1<<20, 1<<30, parts, parts == 3); got != genericTransactionsRoot(t, txs) {
				t.Fatalf("case %d (%d txs) in %d parts: root %x", i, len(txs), parts, got)
			}
		}
	}
}

// TestTransactionsRootSmallLimits holds the level-by-level root equal to
// the per-pair one under limits the generated hasher does not take: a
// byte limit of one chunk (no levels) or a few, a list limit of one.
func TestTransactionsRootSmallLimits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, maxBytes := range []uint64{0, 1, 32, 33, 64, 65, 100, 128, 129} {
		for _, maxTxs := range []uint64{1, 2, 3, 7, 64, 100} {
			for range 5 {
				txs := make([][]byte, rng.IntN(int(maxTxs)+1))
				for i := range txs {
					txs[i] = make([]byte, rng.IntN(int(maxBytes)+1))
					for j := range txs[i] {
						txs[i][j] = byte(rng.Uint32())
					}
				}
				got, err := transactionsRoot(txs, maxTxs, maxBytes)
				if err != nil {
					t.Fatal(err)
				}
				want, err := perPairTransactionsRoot(txs, maxTxs, maxBytes)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("limits %d txs, %d bytes, %d txs: root %x, per pair %x", maxTxs, maxBytes, len(txs), got, want)
				}
			}
		}
	}
}

func TestTransactionsRootLimits(t *testing.T) {
	if _, err := transactionsRoot(make([][]byte, 5), 4, 1<<30); err == nil {
		t.Fatal("5 transactions under a limit of 4: no error")
	}
	if _, err := transactionsRoot([][]byte{make([]byte, 65)}, 4, 64); err == nil {
		t.Fatal("a 65-byte transaction under a limit of 64: no error")
	}
	if _, err := transactionsRoot(make([][]byte, 4), 4, 64); err != nil {
		t.Fatalf("at the limits: %v", err)
	}
}

// FuzzTransactionsRoot splits the input into transactions at its 0xff
// bytes and compares the root with the generated hasher's.
func FuzzTransactionsRoot(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0xff})
	f.Add(make([]byte, 33))
	f.Add(append(make([]byte, 64), 0xff, 1, 2, 3, 0xff, 0xff))
	f.Fuzz(func(t *testing.T, in []byte) {
		var txs [][]byte
		start := 0
		for i, c := range in {
			if c == 0xff {
				txs = append(txs, in[start:i])
				start = i + 1
			}
		}
		txs = append(txs, in[start:])
		got, err := TransactionsRoot(MainnetSpec, txs)
		if err != nil {
			t.Fatal(err)
		}
		if want := genericTransactionsRoot(t, txs); got != want {
			t.Fatalf("%d txs: root %x, generated hasher %x", len(txs), got, want)
		}
	})
}

// BenchmarkTransactionsRoot compares, in the same run, the per-pair root
// (one sha256.Sum256 per pair, each transaction's tree on its own; the
// baseline) with the level-by-level gohashtree root in one part and in
// two, for a typical block (650 txs of 177 bytes) and a 1 MB block of
// small transactions (9,045 of 116 bytes).
//
//	go test ./core/beacon -run '^$' -bench TransactionsRoot -benchtime 200x -count 3
func BenchmarkTransactionsRoot(b *testing.B) {
	maxTxs, maxBytes := MainnetSpec.Value("MAX_TRANSACTIONS_PER_PAYLOAD"), MainnetSpec.Value("MAX_BYTES_PER_TRANSACTION")
	for _, block := range []struct{ txs, size int }{{650, 177}, {9045, 116}} {
		txs := make([][]byte, block.txs)
		for i := range txs {
			txs[i] = make([]byte, block.size)
			for j := range txs[i] {
				txs[i][j] = byte(i*7 + j)
			}
		}
		want := genericTransactionsRoot(b, txs)
		for _, c := range []struct {
			name string
			root func() (Root, error)
		}{
			{"perpair", func() (Root, error) { return perPairTransactionsRoot(txs, maxTxs, maxBytes) }},
			{"levels-1part", func() (Root, error) { return transactionsRootParts(txs, maxTxs, maxBytes, 1, false) }},
			{"levels-2parts", func() (Root, error) { return transactionsRootParts(txs, maxTxs, maxBytes, 2, false) }},
			// Every transaction seen before (a builder's next block):
			// each root from the cache.
			{"cached", func() (Root, error) { return transactionsRootParts(txs, maxTxs, maxBytes, 2, true) }},
		} {
			b.Run(fmt.Sprintf("%dtxs/%s", block.txs, c.name), func(b *testing.B) {
				b.ReportAllocs()
				start := testutil.CPUTime()
				for b.Loop() {
					if r, err := c.root(); err != nil || r != want {
						b.Fatalf("root %x, %v; want %x", r, err, want)
					}
				}
				testutil.ReportCPU(b, start)
			})
		}
	}
}

// TestTxRootCache: roots taken from the cache of transaction roots are
// the roots of exactly those bytes, under exactly that limit: a block that
// repeats most of an earlier one's transactions (some changed by a byte,
// one longer, new ones, another order) has the generated hasher's root,
// and the same transactions under a smaller byte limit the per-pair root.
func TestTxRootCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tx := func(n int) []byte {
		b := make([]byte, n)
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		return b
	}
	a := make([][]byte, 150)
	for i := range a {
		a[i] = tx(1 + rng.IntN(64))
	}
	if got, _ := TransactionsRoot(MainnetSpec, a); got != genericTransactionsRoot(t, a) {
		t.Fatal("first block: root differs from the generated hasher's")
	}
	b := slices.Clone(a)
	b[3] = slices.Clone(a[3])
	b[3][0] ^= 1
	b[10] = append(slices.Clone(a[10]), 0)
	b = append(b, tx(200), tx(5000))
	b[20], b[90] = b[90], b[20]
	for range 2 { // misses, then hits
		if got, _ := TransactionsRoot(MainnetSpec, b); got != genericTransactionsRoot(t, b) {
			t.Fatal("a block repeating most transactions: root differs from the generated hasher's")
		}
	}
	got, err := transactionsRoot(a, 1<<10, 64)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := perPairTransactionsRoot(a, 1<<10, 64); got != want {
		t.Fatal("cached transactions under a 64-byte limit: root of the mainnet limit's depth")
	}
}

// TestTxRootCacheGenerations: a full generation becomes the older one,
// whose entries stay found (and are kept again in the newer when found)
// until the next turnover drops them; an entry is found only by its
// exact bytes and depth, also when another transaction has its hash.
func TestTxRootCacheGenerations(t *testing.T) {
	c := newRootCache(8)
	keep := func(tx string, depth int) {
		c.keepLocked(txKey([]byte(tx)), []byte(tx), [32]byte{byte(depth)}, depth)
	}
	found := func(tx string, depth int) bool {
		r, ok := c.lookupLocked(txKey([]byte(tx)), []byte(tx), depth)
		if ok && r != [32]byte{byte(depth)} {
			t.Fatalf("%s: root %x, want the one kept", tx, r[:1])
		}
		return ok
	}
	keep("aaaa", 1)
	keep("bbbb", 2)
	keep("cccc", 3) // turns over
	if _, ok := c.old.find(txKey([]byte("aaaa")), []byte("aaaa"), 1); !ok || len(c.cur.index) != 1 || c.cur.nbytes != 4 {
		t.Fatalf("after the first turnover: old %v, cur %v (%d bytes)", c.old.index, c.cur.index, c.cur.nbytes)
	}
	if found("aaaa", 2) || found("aaab", 1) {
		t.Fatal("found under another depth or by other bytes")
	}
	keep("dddd", 4)
	keep("eeee", 5) // turns over again
	if found("aaaa", 1) {
		t.Fatal("an entry outlived two turnovers")
	}
	if !found("cccc", 3) {
		t.Fatal("the newer generation was dropped at the turnover")
	}
	// Another transaction under the hash of one kept: a miss, not its root.
	key := txKey([]byte("eeee"))
	if _, ok := c.cur.find(key, []byte("ffff"), 5); ok {
		t.Fatal("a transaction found by another's hash")
	}
	c.cur.put(key, []byte("ffff"), [32]byte{6}, 5)
	if found("eeee", 5) {
		t.Fatal("found after another transaction of its hash replaced it")
	}
}

// TestKeepTransactionRoots: roots kept ahead (from the node's pool) are
// found by a later block, which still has the generated hasher's root;
// transactions over the cache's bound are not kept.
func TestKeepTransactionRoots(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	pooled := make([][]byte, 100)
	for i := range pooled {
		pooled[i] = make([]byte, 1+rng.IntN(400))
		for j := range pooled[i] {
			pooled[i][j] = byte(rng.Uint32())
		}
	}
	big := make([]byte, maxCachedTx+1)
	big[0] = 0x02
	for _, tx := range pooled {
		if TransactionRootKept(MainnetSpec, tx) {
			t.Fatal("a transaction's root cached before it was kept")
		}
	}
	KeepTransactionRoots(MainnetSpec, append(slices.Clone(pooled), big))
	for i, tx := range pooled {
		if !TransactionRootKept(MainnetSpec, tx) {
			t.Fatalf("transaction %d: root not kept", i)
		}
	}
	if TransactionRootKept(MainnetSpec, big) {
		t.Fatal("a transaction over the cache's bound was kept")
	}
	block := append(slices.Clone(pooled[10:70]), []byte{1, 2, 3}, pooled[5])
	if got, _ := TransactionsRoot(MainnetSpec, block); got != genericTransactionsRoot(t, block) {
		t.Fatal("a block of kept transactions: root differs from the generated hasher's")
	}
}
