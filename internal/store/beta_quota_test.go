package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/internal/store/pgtest"
)

func betaBundle(i int, signer common.Address) *BetaBundle {
	return &BetaBundle{Hash: common.BytesToHash([]byte(fmt.Sprintf("bundle %d", i))), Txs: [][]byte{make([]byte, 100)}, Signer: signer}
}

// TestBetaQuotaSurvivesRestart: the per-signer and per-IP quotas and the
// disk budget are counted from the database, so reopening it (a restart)
// hands out no fresh quota; entries of passed slots stop counting; a
// re-send costs nothing; a refused write leaves nothing behind.
func TestBetaQuotaSurvivesRestart(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		signer := common.Address{0x51}
		q := BetaQuota{From: 10, IP: "10.0.0.1", MaxPerSigner: 3, MaxPerIP: 5}
		s := db.open(t)
		for i := 0; i < 3; i++ {
			if created, err := s.PutBetaBundleWithin(ctx, betaBundle(i, signer), 10, 1, q); err != nil || !created {
				t.Fatalf("bundle %d: %v %v", i, created, err)
			}
		}
		if created, err := s.PutBetaBundleWithin(ctx, betaBundle(0, signer), 10, 2, q); err != nil || created {
			t.Fatalf("a re-send is free and a no-op: %v %v", created, err)
		}
		s.Close()

		s = db.open(t) // the restart
		defer s.Close()
		if _, err := s.PutBetaBundleWithin(ctx, betaBundle(3, signer), 11, 1, q); !errors.Is(err, ErrBetaQuota) {
			t.Fatalf("signer over its quota after a restart: %v", err)
		}
		if _, err := s.BetaBundle(ctx, betaBundle(3, signer).Hash); !errors.Is(err, ErrNotFound) {
			t.Fatalf("a refused bundle was stored: %v", err)
		}
		// Unsigned from the same IP: 2 more fill its quota of 5.
		for i := 10; i < 12; i++ {
			if _, err := s.PutBetaBundleWithin(ctx, betaBundle(i, common.Address{}), 11, 1, q); err != nil {
				t.Fatalf("unsigned %d: %v", i, err)
			}
		}
		if _, err := s.PutBetaBundleWithin(ctx, betaBundle(12, common.Address{}), 11, 1, q); !errors.Is(err, ErrBetaQuota) {
			t.Fatalf("IP over its quota: %v", err)
		}
		// Once slots 10 and 11 pass, they no longer count.
		q.From = 12
		if _, err := s.PutBetaBundleWithin(ctx, betaBundle(4, signer), 12, 1, q); err != nil {
			t.Fatalf("after the slots passed: %v", err)
		}

		// One IP's bytes are capped: a new bundle that would pass them is
		// refused; the same bundle for another slot adds no bytes.
		big := &BetaBundle{Hash: common.Hash{0xb1}, Txs: [][]byte{make([]byte, 1000)}}
		qb := BetaQuota{From: 12, IP: "10.0.0.4", MaxBytesPerIP: 1500}
		if _, err := s.PutBetaBundleWithin(ctx, big, 12, 1, qb); err != nil {
			t.Fatal(err)
		}
		if _, err := s.PutBetaBundleWithin(ctx, big, 13, 1, qb); err != nil {
			t.Fatalf("a stored bundle for another slot: %v", err)
		}
		big2 := &BetaBundle{Hash: common.Hash{0xb2}, Txs: [][]byte{make([]byte, 1000)}}
		if _, err := s.PutBetaBundleWithin(ctx, big2, 12, 1, qb); !errors.Is(err, ErrBetaQuota) || !strings.Contains(err.Error(), "at most 1500") {
			t.Fatalf("over the IP's bytes: %v", err)
		}

		// The disk budget is the stored bytes, also counted in the database.
		used, err := s.(*sqlStore).BetaBundleBytes(ctx)
		if err != nil || used == 0 {
			t.Fatalf("bytes %d %v", used, err)
		}
		full := BetaQuota{From: 12, IP: "10.0.0.2", MaxBytes: used + 1}
		if _, err := s.PutBetaBundleWithin(ctx, betaBundle(20, common.Address{}), 12, 1, full); !errors.Is(err, ErrBetaStoreFull) {
			t.Fatalf("over the disk budget: %v", err)
		}
		if err := s.PutBetaOutcomes(ctx, []BetaOutcome{{Hash: betaBundle(0, signer).Hash, Slot: 10, State: BetaMissed}}); err != nil {
			t.Fatal(err)
		}
		// Early pruning takes the entries without an outcome only.
		if n, err := s.(*sqlStore).PruneExpiredBetaBundles(ctx, 11); err != nil || n != 2 {
			t.Fatalf("pruned expired %d %v, want 2", n, err)
		}
		if _, err := s.BetaBundle(ctx, betaBundle(0, signer).Hash); err != nil {
			t.Fatalf("the bundle with an outcome: %v", err)
		}
		if n, err := s.(*sqlStore).PruneBetaBundles(ctx, 11); err != nil || n != 1 {
			t.Fatalf("pruned %d %v, want 1", n, err)
		}
		var outcomes int
		if err := s.(*sqlStore).db.QueryRowContext(ctx, `SELECT COUNT(*) FROM beta_outcomes`).Scan(&outcomes); err != nil || outcomes != 0 {
			t.Fatalf("outcomes of pruned slots left: %d %v", outcomes, err)
		}
		after, _ := s.(*sqlStore).BetaBundleBytes(ctx)
		if after >= used {
			t.Fatalf("pruning freed nothing of the budget: %d then %d", used, after)
		}
		if _, err := s.PutBetaBundleWithin(ctx, betaBundle(20, common.Address{}), 12, 1, full); err != nil {
			t.Fatalf("after pruning: %v", err)
		}
	})
}

// TestBetaQuotaSharedByInstances: relay instances sharing one PostgreSQL
// database share the quotas, exactly, when one signer floods both at once.
func TestBetaQuotaSharedByInstances(t *testing.T) {
	db := &testDB{backend: "postgres", loc: pgtest.URL(t)} // SQLite: one process per database
	{
		ctx := context.Background()
		a, b := db.open(t), db.open(t)
		defer a.Close()
		defer b.Close()
		const quota, tries = 25, 120
		signer := common.Address{0x52}
		q := BetaQuota{From: 1, IP: "10.0.0.3", MaxPerSigner: quota, MaxPerIP: 1000}
		var accepted atomic.Int64
		var wg sync.WaitGroup
		for i := 0; i < tries; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := []Store{a, b}[i%2]
				created, err := s.PutBetaBundleWithin(ctx, betaBundle(i, signer), uint64(1+i%4), 1, q)
				switch {
				case err == nil && created:
					accepted.Add(1)
				case err != nil && !errors.Is(err, ErrBetaQuota):
					t.Errorf("bundle %d: %v", i, err)
				}
			}()
		}
		wg.Wait()
		if n := accepted.Load(); n != quota {
			t.Fatalf("%d bundles accepted across two instances, quota %d", n, quota)
		}
	}
}

// TestBetaQuotaMigration: a database written before the quotas were kept
// in it (schema 5) is migrated: its entries count for their signer, and
// its bytes for the disk budget.
func TestBetaQuotaMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "gavel", FileName)
	all := migrations
	migrations = all[:5]
	s, err := OpenSQLite(path)
	migrations = all
	if err != nil {
		t.Fatal(err)
	}
	signer := common.Address{0x53}
	for i := 0; i < 2; i++ {
		h := betaBundle(i, signer)
		if _, err := s.(*sqlStore).db.ExecContext(ctx, `INSERT INTO beta_bundles (hash, txs, signer, created_at) VALUES (?, ?, ?, 1)`, h.Hash[:], []byte{1, 2, 3}, signer[:]); err != nil {
			t.Fatal(err)
		}
		if _, err := s.(*sqlStore).db.ExecContext(ctx, `INSERT INTO beta_bundle_slots (hash, slot, received_at) VALUES (?, 7, 1)`, h.Hash[:]); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	if v, _ := s.(*sqlStore).SchemaVersion(ctx); v != len(migrations) {
		t.Fatalf("schema %d", v)
	}
	if _, err := s.PutBetaBundleWithin(ctx, betaBundle(5, signer), 7, 1, BetaQuota{From: 7, MaxPerSigner: 2}); !errors.Is(err, ErrBetaQuota) {
		t.Fatalf("entries from before the migration do not count: %v", err)
	}
	if n, err := s.(*sqlStore).BetaBundleBytes(ctx); err != nil || n != 6+2*BetaEntryBytes {
		t.Fatalf("bytes %d %v, want 6 of txs and 2 entries", n, err)
	}
}
