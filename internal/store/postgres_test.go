package store

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/internal/store/pgtest"
)

// TestMigrationsVersioned checks that a new database is migrated to the
// newest version, that reopening applies nothing again, and that several
// instances opening one PostgreSQL database at once migrate it once.
func TestMigrationsVersioned(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		n := 1
		if db.backend == "postgres" {
			n = 4 // instances starting together
		}
		stores := make([]Store, n)
		var wg sync.WaitGroup
		for i := range stores {
			wg.Add(1)
			go func() { defer wg.Done(); stores[i] = db.open(t) }()
		}
		wg.Wait()
		for _, s := range stores {
			v, err := s.(*sqlStore).SchemaVersion(ctx)
			if err != nil || v != len(migrations) {
				t.Fatalf("schema version %d (%v), want %d", v, err, len(migrations))
			}
			s.Close()
		}
		s := db.open(t)
		defer s.Close()
		var rows int
		if err := s.(*sqlStore).db.QueryRowContext(ctx, "SELECT COUNT(*) FROM schema_version").Scan(&rows); err != nil || rows != 1 {
			t.Fatalf("schema_version rows %d (%v), want 1", rows, err)
		}
	})
}

// TestPostgresOutageSurvived stops the database server under a store and
// starts it again: writes fail while it is down (an error, never an
// acknowledgement), nothing acknowledged before is lost, and the same store
// works again afterwards without being reopened.
func TestPostgresOutageSurvived(t *testing.T) {
	srv := pgtest.StartServer(t)
	ctx := context.Background()
	s, err := OpenPostgres(srv.URL, PostgresConfig{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b := &BetaBundle{Hash: common.Hash{1}, Txs: [][]byte{{2, 1}}}
	if _, err := s.PutBetaBundle(ctx, b, 5, 1000); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PutRegistrations(ctx, []Registration{reg(1, 1, 100)}); err != nil {
		t.Fatal(err)
	}

	srv.Stop()
	if _, err := s.PutBetaBundle(ctx, &BetaBundle{Hash: common.Hash{2}, Txs: [][]byte{{2, 2}}}, 5, 1001); err == nil {
		t.Fatal("write acknowledged while the database was down")
	}
	if err := s.(*sqlStore).Ping(ctx); err == nil {
		t.Fatal("ping answered while the database was down")
	}
	srv.Start()

	// Connections cut by the restart fail once each; then writes go through.
	var werr error
	for i := 0; i < 20; i++ {
		if _, werr = s.PutBetaBundle(ctx, &BetaBundle{Hash: common.Hash{3}, Txs: [][]byte{{2, 3}}}, 6, 1002); werr == nil {
			break
		}
	}
	if werr != nil {
		t.Fatalf("store did not recover after the database came back: %v", werr)
	}
	for _, h := range []common.Hash{{1}, {3}} {
		if _, err := s.BetaBundle(ctx, h); err != nil {
			t.Fatalf("bundle %x after the outage: %v", h[:1], err)
		}
	}
	if _, err := s.BetaBundle(ctx, common.Hash{2}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the write refused during the outage is there: %v", err)
	}
	if _, err := s.Registration(ctx, pubkey(1)); err != nil {
		t.Fatalf("registration after the outage: %v", err)
	}
}
