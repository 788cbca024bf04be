package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/gavel-eth/gavel/internal/defaults"
)

// PostgresConfig tunes the PostgreSQL connection pool. Zero fields take the
// defaults below.
type PostgresConfig struct {
	// MaxConns bounds the open connections (in use plus idle).
	MaxConns int
	// MaxIdleConns bounds the idle connections kept open.
	MaxIdleConns int
	// ConnMaxLifetime closes connections older than this.
	ConnMaxLifetime time.Duration
	// ConnectTimeout bounds dialling and authenticating one connection.
	ConnectTimeout time.Duration
	// StatementTimeout makes the server cancel a statement that runs longer
	// (PostgreSQL's statement_timeout).
	StatementTimeout time.Duration
}

// Defaults of PostgresConfig.
const (
	DefaultPostgresMaxConns         = 32
	DefaultPostgresMaxIdleConns     = 16
	DefaultPostgresConnMaxLifetime  = 30 * time.Minute
	DefaultPostgresConnectTimeout   = 5 * time.Second
	DefaultPostgresStatementTimeout = 10 * time.Second
)

func (c *PostgresConfig) withDefaults() PostgresConfig {
	out := *c
	defaults.Set(&out.MaxConns, DefaultPostgresMaxConns)
	defaults.Set(&out.MaxIdleConns, min(DefaultPostgresMaxIdleConns, out.MaxConns))
	defaults.Set(&out.ConnMaxLifetime, DefaultPostgresConnMaxLifetime)
	defaults.Set(&out.ConnectTimeout, DefaultPostgresConnectTimeout)
	defaults.Set(&out.StatementTimeout, DefaultPostgresStatementTimeout)
	return out
}

// ErrBadURL is returned for a --store.url gavel cannot use.
var ErrBadURL = errors.New("invalid store URL")

// IsPostgresURL reports whether url names a PostgreSQL database.
func IsPostgresURL(url string) bool {
	return strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")
}

var postgresDialect = dialect{
	name: "postgres", blob: "BYTEA", valueText: `TEXT COLLATE "C"`, dollarArg: true,
	// Several instances may start at once: one migrates, the others wait.
	lock: "SELECT pg_advisory_lock(7263001)", unlock: "SELECT pg_advisory_unlock(7263001)",
	// Beta bundle writes of all instances take turns (quotas, beta.go).
	betaLock: "SELECT pg_advisory_xact_lock(7263002)",
}

// Pool metrics of the PostgreSQL backend, sampled every second.
var (
	poolOpenGauge  = metrics.NewRegisteredGauge("gavel/store/pool/open", nil)
	poolInUseGauge = metrics.NewRegisteredGauge("gavel/store/pool/inuse", nil)
	poolIdleGauge  = metrics.NewRegisteredGauge("gavel/store/pool/idle", nil)
	poolWaitGauge  = metrics.NewRegisteredGauge("gavel/store/pool/waitcount", nil)
	poolWaitMs     = metrics.NewRegisteredGauge("gavel/store/pool/waitms", nil)
)

// OpenPostgres connects to the PostgreSQL database at url
// (postgres://user:password@host:port/database?sslmode=...) and migrates it.
// Several gavel instances may share the database.
func OpenPostgres(url string, cfg PostgresConfig) (Store, error) {
	if !IsPostgresURL(url) {
		return nil, fmt.Errorf("%w: %q: expected postgres://user:password@host:port/database", ErrBadURL, url)
	}
	cfg = cfg.withDefaults()
	pc, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadURL, err)
	}
	pc.ConnectTimeout = cfg.ConnectTimeout
	if pc.RuntimeParams == nil {
		pc.RuntimeParams = map[string]string{}
	}
	if _, ok := pc.RuntimeParams["statement_timeout"]; !ok {
		pc.RuntimeParams["statement_timeout"] = fmt.Sprint(cfg.StatementTimeout.Milliseconds())
	}
	pc.RuntimeParams["application_name"] = "gavel"
	db := stdlib.OpenDB(*pc)
	db.SetMaxOpenConns(cfg.MaxConns)
	db.SetMaxIdleConns(cfg.MaxIdleConns)
	db.SetConnMaxLifetime(cfg.ConnMaxLifetime)
	ctx, cancel := context.WithTimeout(context.Background(), cfg.ConnectTimeout+cfg.StatementTimeout)
	defer cancel()
	s := &sqlStore{db: db, d: postgresDialect, listenCfg: pc, quit: make(chan struct{})}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: migrating PostgreSQL database %s/%s: %w", pc.Host, pc.Database, err)
	}
	// Shared bids are written on connections of their own whose commits do
	// not wait for the WAL to reach the disk (relay_shared.go).
	spc := pc.Copy()
	spc.RuntimeParams["synchronous_commit"] = "off"
	spc.RuntimeParams["application_name"] = "gavel-shared-bids"
	s.sharedDB = stdlib.OpenDB(*spc)
	s.sharedDB.SetMaxOpenConns(min(cfg.MaxConns, sharedBidConns))
	s.sharedDB.SetMaxIdleConns(min(cfg.MaxIdleConns, sharedBidConns))
	s.sharedDB.SetConnMaxLifetime(cfg.ConnMaxLifetime)
	s.gc = newGroupCommitter(db, s.d)
	s.betaGC = newGroupCommitter(db, s.d)
	s.bg.Add(1)
	go s.samplePool()
	log.Info("Store opened", "backend", "postgres", "host", pc.Host, "port", pc.Port, "database", pc.Database, "maxconns", cfg.MaxConns)
	return s, nil
}

// samplePool updates the pool gauges until Close.
func (s *sqlStore) samplePool() {
	defer s.bg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		st := s.db.Stats()
		poolOpenGauge.Update(int64(st.OpenConnections))
		poolInUseGauge.Update(int64(st.InUse))
		poolIdleGauge.Update(int64(st.Idle))
		poolWaitGauge.Update(st.WaitCount)
		poolWaitMs.Update(st.WaitDuration.Milliseconds())
		select {
		case <-t.C:
		case <-s.quit:
			return
		}
	}
}

// Config selects and tunes a backend.
type Config struct {
	// URL is a postgres:// URL; empty means SQLite at Path.
	URL string `toml:",omitempty"`
	// Path is the SQLite file ("" for a temporary one removed on Close);
	// the node sets it from its datadir.
	Path string `toml:"-"`
	// Postgres tunes the PostgreSQL pool.
	Postgres PostgresConfig
}

// Open opens the backend cfg names: PostgreSQL when URL is set, else SQLite.
func Open(cfg Config) (Store, error) {
	switch {
	case cfg.URL == "":
		return OpenSQLite(cfg.Path)
	case IsPostgresURL(cfg.URL):
		return OpenPostgres(cfg.URL, cfg.Postgres)
	default:
		return nil, fmt.Errorf("%w: %q: expected empty (SQLite in the datadir) or postgres://user:password@host:port/database", ErrBadURL, cfg.URL)
	}
}

// Backend names the database behind a store: "sqlite" or "postgres".
func (s *sqlStore) Backend() string { return s.d.name }

// Ping checks that the database answers (for /readyz).
func (s *sqlStore) Ping(ctx context.Context) error {
	var one int
	return s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}
