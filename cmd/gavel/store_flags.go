package main

import (
	"cmp"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/gavel-eth/gavel/internal/store"
)

// The database flags ([Mev.Store]).
var (
	storeURLFlag = &cli.StringFlag{
		Name:     "store.url",
		Usage:    "Database of gavel's records: empty for SQLite in <datadir>/gavel/gavel.db, or postgres://user:password@host:port/database for PostgreSQL, which several relay instances can share (one auction across them)",
		Category: "STORE",
	}
	storeMaxConnsFlag = &cli.IntFlag{
		Name:     "store.maxconns",
		Usage:    "PostgreSQL: most open connections in the pool (in use plus idle)",
		Value:    store.DefaultPostgresMaxConns,
		Category: "STORE",
	}
	storeMaxIdleFlag = &cli.IntFlag{
		Name:     "store.maxidleconns",
		Usage:    "PostgreSQL: most idle connections kept open",
		Value:    store.DefaultPostgresMaxIdleConns,
		Category: "STORE",
	}
	storeConnLifetimeFlag = &cli.DurationFlag{
		Name:     "store.connlifetime",
		Usage:    "PostgreSQL: connections older than this are closed and replaced",
		Value:    store.DefaultPostgresConnMaxLifetime,
		Category: "STORE",
	}
	storeConnectTimeoutFlag = &cli.DurationFlag{
		Name:     "store.connecttimeout",
		Usage:    "PostgreSQL: time allowed to open one connection (dial, TLS, authentication)",
		Value:    store.DefaultPostgresConnectTimeout,
		Category: "STORE",
	}
	storeStatementTimeoutFlag = &cli.DurationFlag{
		Name:     "store.statementtimeout",
		Usage:    "PostgreSQL: the server cancels a statement running longer than this (statement_timeout); the request fails with 500",
		Value:    store.DefaultPostgresStatementTimeout,
		Category: "STORE",
	}
)

// storeFlags are the database flags.
var storeFlags = []cli.Flag{storeURLFlag, storeMaxConnsFlag, storeMaxIdleFlag, storeConnLifetimeFlag, storeConnectTimeoutFlag, storeStatementTimeoutFlag}

// applyStoreFlags applies the database flags over [Mev.Store].
func applyStoreFlags(ctx *cli.Context, cfg *gavelConfig) error {
	s := &cfg.Mev.Store
	setIfGiven(ctx, storeURLFlag.Name, ctx.String, &s.URL)
	if s.URL != "" && !store.IsPostgresURL(s.URL) {
		return fmt.Errorf("%w: --store.url %q: expected empty (SQLite in the datadir) or postgres://user:password@host:port/database", errUsage, s.URL)
	}
	p := &s.Postgres
	fillFromFlag(ctx, storeMaxConnsFlag.Name, &p.MaxConns)
	if ctx.IsSet(storeMaxIdleFlag.Name) || p.MaxIdleConns == 0 {
		p.MaxIdleConns = ctx.Int(storeMaxIdleFlag.Name)
		if !ctx.IsSet(storeMaxIdleFlag.Name) {
			p.MaxIdleConns = min(p.MaxIdleConns, p.MaxConns) // the default follows a smaller pool
		}
	}
	fillFromFlag(ctx, storeConnLifetimeFlag.Name, &p.ConnMaxLifetime)
	fillFromFlag(ctx, storeConnectTimeoutFlag.Name, &p.ConnectTimeout)
	fillFromFlag(ctx, storeStatementTimeoutFlag.Name, &p.StatementTimeout)
	if p.MaxConns < 2 {
		return fmt.Errorf("%w: --store.maxconns must be at least 2: got %d", errUsage, p.MaxConns)
	}
	if p.MaxIdleConns < 0 || p.MaxIdleConns > p.MaxConns {
		return fmt.Errorf("%w: --store.maxidleconns must be 0..--store.maxconns (%d): got %d", errUsage, p.MaxConns, p.MaxIdleConns)
	}
	if err := cmp.Or( // the first refusal, in flag order
		checkPositive(storeConnLifetimeFlag.Name, p.ConnMaxLifetime),
		checkPositive(storeConnectTimeoutFlag.Name, p.ConnectTimeout),
		checkPositive(storeStatementTimeoutFlag.Name, p.StatementTimeout),
	); err != nil {
		return err
	}
	return nil
}
