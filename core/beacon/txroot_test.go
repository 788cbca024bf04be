package beacon

import (
	"math/rand/v2"
	"testing"
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
