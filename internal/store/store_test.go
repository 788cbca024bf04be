package store

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/internal/store/pgtest"
)

func open(t testing.TB, path string) Store {
	t.Helper()
	s, err := OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func openSQLite(t testing.TB) Store { return open(t, "") }

// testDB is one database of a backend: every open returns a new handle on
// the same database (a restart, or another relay instance).
type testDB struct {
	backend string
	loc     string // SQLite file or PostgreSQL URL
}

func (d *testDB) open(t testing.TB) Store {
	t.Helper()
	var s Store
	var err error
	if d.backend == "postgres" {
		s, err = OpenPostgres(d.loc, PostgresConfig{})
	} else {
		s, err = OpenSQLite(d.loc)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// backends runs fn once on a new SQLite database and once on a new
// PostgreSQL database (skipped, saying how to run it, without a test
// server: pgtest).
func backends(t *testing.T, fn func(t *testing.T, db *testDB)) {
	t.Run("sqlite", func(t *testing.T) {
		fn(t, &testDB{backend: "sqlite", loc: filepath.Join(t.TempDir(), "gavel", FileName)})
	})
	t.Run("postgres", func(t *testing.T) {
		fn(t, &testDB{backend: "postgres", loc: pgtest.URL(t)})
	})
}

func TestBetaBundlesDurableAndIdempotent(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		b := &BetaBundle{Hash: common.Hash{1}, Txs: [][]byte{{2, 1}, {2, 2}}, Signer: common.Address{7}}
		if created, err := s.PutBetaBundle(ctx, b, 10, 1000); err != nil || !created {
			t.Fatalf("first put: %v %v", created, err)
		}
		if created, err := s.PutBetaBundle(ctx, b, 10, 2000); err != nil || created {
			t.Fatalf("re-send: created=%v err=%v, want a no-op", created, err)
		}
		if created, err := s.PutBetaBundle(ctx, b, 12, 3000); err != nil || !created {
			t.Fatalf("other slot: %v %v", created, err)
		}
		other := &BetaBundle{Hash: common.Hash{2}, Txs: [][]byte{{2, 9}}}
		if _, err := s.PutBetaBundle(ctx, other, 10, 1500); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.PutBetaBundle(ctx, b, 13, 1); !errors.Is(err, ErrClosed) {
			t.Fatalf("put after close: %v", err)
		}

		// Reopen: everything acknowledged is there.
		s = db.open(t)
		defer s.Close()
		got, err := s.BetaBundle(ctx, b.Hash)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Txs) != 2 || got.Txs[1][1] != 2 || got.Signer != b.Signer {
			t.Fatalf("bundle %+v", got)
		}
		if len(got.Slots) != 2 || got.Slots[0] != (BetaSlot{Slot: 10, ReceivedAt: 1000}) || got.Slots[1] != (BetaSlot{Slot: 12, ReceivedAt: 3000}) {
			t.Fatalf("slots %+v", got.Slots)
		}
		list, err := s.BetaBundlesForSlot(ctx, 10)
		if err != nil || len(list) != 2 || list[0].Hash != b.Hash || list[1].Hash != other.Hash {
			t.Fatalf("slot 10: %v %+v", err, list)
		}
		if list, _ := s.BetaBundlesForSlot(ctx, 11); len(list) != 0 {
			t.Fatalf("slot 11: %+v", list)
		}
		if _, err := s.BetaBundle(ctx, common.Hash{3}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown: %v", err)
		}
	})
}

// Writes queued while a commit is in progress share the next commit: 199
// bundles arriving while the committer is held up by one write go to the
// database in one transaction.
func TestConcurrentPutsShareCommits(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		gc := s.(*sqlStore).betaGC // the committer of beta bundle writes
		started, release := make(chan struct{}), make(chan struct{})
		go gc.submit(ctx, func(context.Context, *txWriter) error {
			close(started)
			<-release
			return nil
		})
		<-started
		before := commitMeter.Snapshot().Count()
		const writers = 199
		var wg sync.WaitGroup
		for i := 0; i < writers; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				b := &BetaBundle{Hash: common.Hash{byte(i), byte(i >> 8)}, Txs: [][]byte{{byte(i)}}}
				if _, err := s.PutBetaBundle(ctx, b, 5, int64(i)); err != nil {
					t.Error(err)
				}
			}(i)
		}
		for len(gc.reqs) < writers { // every writer queued behind the held commit
			runtime.Gosched()
		}
		close(release)
		wg.Wait()
		if commits := commitMeter.Snapshot().Count() - before; commits != 1 {
			t.Fatalf("%d writes took %d commits, want 1", writers, commits)
		}
		list, err := s.BetaBundlesForSlot(ctx, 5)
		if err != nil || len(list) != writers {
			t.Fatalf("%d bundles, err %v", len(list), err)
		}
	})
}

func TestUserStats(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		a := common.Address{1}
		if _, err := s.UserStat(ctx, a); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown: %v", err)
		}
		if err := s.AddUserStats(ctx, []UserStat{{Address: a, SignerStats: bundle.SignerStats{Requests: 2, BetaBundles: 1, FirstSeen: 100, LastSeen: 200}}}); err != nil {
			t.Fatal(err)
		}
		if err := s.AddUserStats(ctx, []UserStat{{Address: a, SignerStats: bundle.SignerStats{Requests: 1, Bundles: 1, Inclusions: 1, FirstSeen: 150, LastSeen: 300}}}); err != nil {
			t.Fatal(err)
		}
		u, err := s.UserStat(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		want := UserStat{Address: a, SignerStats: bundle.SignerStats{Requests: 3, Bundles: 1, BetaBundles: 1, Inclusions: 1, FirstSeen: 100, LastSeen: 300}}
		if !reflect.DeepEqual(*u, want) {
			t.Fatalf("got %+v, want %+v", *u, want)
		}
	})
}

func TestRebind(t *testing.T) {
	d := dialect{dollarArg: true}
	if got := d.rebind("a = ? AND b = ?"); got != "a = $1 AND b = $2" {
		t.Fatal(got)
	}
}

// BenchmarkPutBetaBundle compares one writer (a commit per bundle) with 64
// concurrent writers sharing group commits; both durable (synchronous=FULL).
func BenchmarkPutBetaBundle(b *testing.B) {
	for _, par := range []int{1, 64} {
		b.Run(map[int]string{1: "serial", 64: "parallel64"}[par], func(b *testing.B) {
			s := open(b, filepath.Join(b.TempDir(), FileName))
			defer s.Close()
			ctx := context.Background()
			var mu sync.Mutex
			n := 0
			b.SetParallelism(par)
			if par == 1 {
				for i := 0; b.Loop(); i++ {
					h := common.BigToHash(common.Big1).Bytes()
					h[0], h[1], h[2] = byte(i), byte(i>>8), byte(i>>16)
					if _, err := s.PutBetaBundle(ctx, &BetaBundle{Hash: common.BytesToHash(h), Txs: [][]byte{make([]byte, 120)}}, 1, 1); err != nil {
						b.Fatal(err)
					}
				}
				return
			}
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					mu.Lock()
					n++
					i := n
					mu.Unlock()
					var h common.Hash
					h[0], h[1], h[2], h[3] = byte(i), byte(i>>8), byte(i>>16), byte(i>>24)
					if _, err := s.PutBetaBundle(ctx, &BetaBundle{Hash: h, Txs: [][]byte{make([]byte, 120)}}, 1, 1); err != nil {
						b.Error(err)
					}
				}
			})
		})
	}
}

func TestStatsBuffer(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		buf := NewStatsBuffer(s, time.Hour)
		a := common.Address{5}
		buf.Add(a, bundle.StatRequest)
		buf.Add(a, bundle.StatRequest)
		buf.Add(a, bundle.StatBetaBundle)
		buf.Add(common.Address{}, bundle.StatRequest) // unsigned: ignored
		u, err := buf.Get(ctx, a)
		if err != nil || u.Requests != 2 || u.BetaBundles != 1 {
			t.Fatalf("pending: %+v %v", u, err)
		}
		if err := buf.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		buf.Add(a, bundle.StatInclusion)
		if u, _ := buf.Get(ctx, a); u.Requests != 2 || u.Inclusions != 1 {
			t.Fatalf("stored+pending: %+v", u)
		}
		buf.Close()
		s.Close()
		s = db.open(t)
		defer s.Close()
		if u, err := s.UserStat(ctx, a); err != nil || u.Requests != 2 || u.Inclusions != 1 || u.BetaBundles != 1 {
			t.Fatalf("after restart: %+v %v", u, err)
		}
		if _, err := NewStatsBuffer(s, time.Hour).Get(ctx, common.Address{9}); !errors.Is(err, ErrNotFound) {
			t.Fatalf("unknown: %v", err)
		}
	})
}

// TestDurabilitySettings checks what "committed" means here: WAL journal and
// an fsync at every commit (synchronous=FULL) on every pooled connection.
func TestDurabilitySettings(t *testing.T) {
	s := openSQLite(t).(*sqlStore)
	defer s.Close()
	ctx := context.Background()
	for i := 0; i < 3; i++ { // several connections of the pool
		conn, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		var mode string
		var sync int
		if err := conn.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
			t.Fatalf("journal_mode %q %v", mode, err)
		}
		if err := conn.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil || sync != 2 {
			t.Fatalf("synchronous %d (2 = FULL) %v", sync, err)
		}
	}
}

// TestGroupIsolatesFailures mixes failing writes among good ones: each
// failing write is rolled back alone (its savepoint), the rest commit,
// however the writes were grouped.
func TestGroupIsolatesFailures(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t).(*sqlStore)
		defer s.Close()
		var wg sync.WaitGroup
		errs := make([]error, 100)
		for i := 0; i < 100; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				h := common.Hash{byte(i), 0xee}
				errs[i] = s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
					if _, err := w.exec(ctx, `INSERT INTO beta_bundles (hash, txs, signer, created_at) VALUES (?, ?, ?, ?)`, h[:], []byte{0xc0}, make([]byte, 20), 1); err != nil {
						return err
					}
					if i%10 == 0 { // written, then failing: must leave nothing
						return errors.New("boom")
					}
					return nil
				})
			}(i)
		}
		wg.Wait()
		for i, err := range errs {
			_, getErr := s.BetaBundle(ctx, common.Hash{byte(i), 0xee})
			if i%10 == 0 {
				if err == nil || !errors.Is(getErr, ErrNotFound) {
					t.Fatalf("write %d: err %v, stored: %v", i, err, getErr == nil)
				}
			} else if err != nil || getErr != nil {
				t.Fatalf("write %d: %v / %v", i, err, getErr)
			}
		}
	})
}
