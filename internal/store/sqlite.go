package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // registers driver "sqlite"
)

// FileName is the database file gavel keeps in <datadir>/gavel/.
const FileName = "gavel.db"

// Path returns the database path for a datadir.
func Path(datadir string) string { return filepath.Join(datadir, "gavel", FileName) }

// OpenSQLite opens (creating if needed) the SQLite database at path and
// migrates it. An empty path means a fresh database in a temporary directory,
// removed on Close: that is what an in-memory dev node gets, so it behaves
// like the file-backed one (WAL, group commit) and tests exercise the same
// path.
func OpenSQLite(path string) (Store, error) {
	var tmpdir string
	if path == "" {
		d, err := os.MkdirTemp("", "gavel-store-")
		if err != nil {
			return nil, err
		}
		tmpdir, path = d, filepath.Join(d, FileName)
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "synchronous(FULL)", "busy_timeout(5000)", "foreign_keys(ON)"} {
		q.Add("_pragma", p)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	s := &sqlStore{db: db, d: sqliteDialect, tmpdir: tmpdir, quit: make(chan struct{})}
	if err := s.migrate(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("store: migrating %s: %w", path, err)
	}
	s.gc = newGroupCommitter(db, s.d)
	s.betaGC = s.gc
	return s, nil
}

// dialect holds what differs between SQLite and PostgreSQL.
type dialect struct {
	name      string
	blob      string // column type for bytes
	valueText string // column type for zero-padded decimal values: compared byte by byte
	dollarArg bool   // $1, $2 placeholders instead of ?
	// lock and unlock bracket migrations when several processes may
	// migrate one database at once ("" when only one process opens it).
	lock, unlock string
	// betaLock, run first in a group transaction holding a beta bundle
	// write, serialises those transactions across the processes sharing
	// the database, so that quota counts are exact ("" for SQLite: one
	// process, one writer).
	betaLock string
}

var sqliteDialect = dialect{name: "sqlite", blob: "BLOB", valueText: "TEXT"}

// schema renders a migration's placeholders for the dialect.
func (d dialect) schema(m string) string {
	return strings.NewReplacer("{blob}", d.blob, "{valuetext}", d.valueText).Replace(m)
}

// rebind turns ? placeholders into $n for PostgreSQL.
func (d dialect) rebind(q string) string {
	if !d.dollarArg {
		return q
	}
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// migrations are applied in order; each runs once, recorded in
// schema_version. New domains append, never edit.
var migrations = []string{
	// 1: beta bundles and user stats.
	`CREATE TABLE beta_bundles (
		hash {blob} PRIMARY KEY,
		txs {blob} NOT NULL,
		signer {blob} NOT NULL,
		created_at BIGINT NOT NULL
	);
	CREATE TABLE beta_bundle_slots (
		hash {blob} NOT NULL REFERENCES beta_bundles(hash),
		slot BIGINT NOT NULL,
		received_at BIGINT NOT NULL,
		PRIMARY KEY (hash, slot)
	);
	CREATE INDEX beta_bundle_slots_by_slot ON beta_bundle_slots(slot, received_at);
	CREATE TABLE user_stats (
		address {blob} PRIMARY KEY,
		requests BIGINT NOT NULL DEFAULT 0,
		bundles BIGINT NOT NULL DEFAULT 0,
		beta_bundles BIGINT NOT NULL DEFAULT 0,
		inclusions BIGINT NOT NULL DEFAULT 0,
		first_seen BIGINT NOT NULL,
		last_seen BIGINT NOT NULL
	);`,
	// 2: the relay (relay_sql.go).
	relaySchema,
	// 3: the beta block: what a delivered block's beta part held, and what
	// became of each paid beta bundle per slot.
	`ALTER TABLE relay_delivered ADD COLUMN alpha_block_hash {blob};
	ALTER TABLE relay_delivered ADD COLUMN beta_gas_used BIGINT NOT NULL DEFAULT 0;
	ALTER TABLE relay_delivered ADD COLUMN beta_bundle_count BIGINT NOT NULL DEFAULT 0;
	ALTER TABLE user_stats ADD COLUMN beta_included BIGINT NOT NULL DEFAULT 0;
	ALTER TABLE user_stats ADD COLUMN beta_missed BIGINT NOT NULL DEFAULT 0;
	CREATE TABLE beta_outcomes (
		hash {blob} NOT NULL,
		slot BIGINT NOT NULL,
		state TEXT NOT NULL,
		entry BIGINT NOT NULL,
		gas BIGINT NOT NULL,
		block_number BIGINT NOT NULL,
		block_hash {blob},
		tx_hashes {blob},
		total BIGINT NOT NULL,
		reason TEXT NOT NULL,
		PRIMARY KEY (hash, slot)
	);`,
	// 4: bids shared between relay instances (relay_shared.go).
	sharedBidsSchema,
	// 5: merged beta blocks shared between relay instances.
	sharedBetaSchema,
	// 6: beta bundle quotas and disk budget kept in the database (beta.go).
	betaQuotaSchema,
	// 7: beta bundle eviction for a client holding fewer bytes (beta.go).
	betaEvictSchema,
	// 8: the operator's builder statuses (relay_builders.go).
	builderStatusSchema,
	// 9: blocks the relay built (beta blocks) among the bid traces, and the
	// public record of each beta slot (beta_slots.go).
	betaSlotsSchema,
	// 10: whether a delivered block became canonical (relay_sql.go).
	canonicalSchema,
	// 11: acknowledged eth_sendBundle bundles (sendbundles.go).
	sendBundlesSchema,
	// 12: per-signer gas simulated and validator payments, all time and
	// hourly (usage.go).
	usageSchema,
	// 13: optimistic relaying: builders' collateral, demotions, pending
	// simulations (relay_optimistic.go).
	optimisticSchema,
	// 14: shared bids and merged blocks stored without
	// PostgreSQL's compression attempt (relay_shared.go).
	sharedStorageSchema,
}

// postgresOnly starts a migration statement that only PostgreSQL runs.
const postgresOnly = "{postgres only}"

type sqlStore struct {
	db *sql.DB
	d  dialect
	gc *groupCommitter
	// betaGC commits the beta bundle writes that check quotas. On
	// PostgreSQL it is a committer of its own, whose groups take the
	// instances' shared beta lock, so that the relay's writes never wait
	// for that lock; on SQLite (one process, one writer) it is gc.
	betaGC *groupCommitter
	tmpdir string

	listenCfg *pgx.ConnConfig // PostgreSQL: for the LISTEN connection of shared bids
	sharedDB  *sql.DB         // PostgreSQL: the shared bids' writes (asynchronous commit)
	quit      chan struct{}   // closed by Close: stops background goroutines
	bg        sync.WaitGroup

	closeOnce sync.Once
	closeErr  error
}

// migrate brings the schema to the newest version, one transaction per
// migration, recording the version in schema_version. On PostgreSQL an
// advisory lock serialises instances that start at the same time.
func (s *sqlStore) migrate(ctx context.Context) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if s.d.lock != "" {
		if _, err := conn.ExecContext(ctx, s.d.lock); err != nil {
			return fmt.Errorf("taking the migration lock: %w", err)
		}
		defer conn.ExecContext(context.Background(), s.d.unlock)
	}
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return err
	}
	var v int
	err = conn.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := conn.ExecContext(ctx, `INSERT INTO schema_version (version) VALUES (0)`); err != nil {
			return err
		}
	} else if err != nil {
		return err
	}
	if v > len(migrations) {
		return fmt.Errorf("database schema version %d is newer than this gavel knows (%d)", v, len(migrations))
	}
	for i := v; i < len(migrations); i++ {
		tx, err := conn.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		for _, stmt := range strings.Split(s.d.schema(migrations[i]), ";") {
			stmt, pgOnly := strings.CutPrefix(strings.TrimSpace(stmt), postgresOnly)
			if stmt == "" || (pgOnly && s.d.name != "postgres") {
				continue
			}
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				tx.Rollback()
				return fmt.Errorf("migration %d: %w", i+1, err)
			}
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE schema_version SET version = ?`), i+1); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		if i+1 > 1 {
			log.Info("Store schema migrated", "backend", s.d.name, "version", i+1)
		}
	}
	return nil
}

// SchemaVersion is the schema version the database is at.
func (s *sqlStore) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.db.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v)
	return v, err
}

// Close implements Store.
func (s *sqlStore) Close() error {
	s.closeOnce.Do(func() {
		close(s.quit)
		s.bg.Wait()
		if s.betaGC != s.gc {
			s.betaGC.close()
		}
		s.gc.close()
		if s.sharedDB != nil {
			s.sharedDB.Close()
		}
		s.closeErr = s.db.Close()
		if s.tmpdir != "" {
			if err := os.RemoveAll(s.tmpdir); err != nil {
				log.Warn("Cannot remove temporary store", "dir", s.tmpdir, "err", err)
			}
		}
	})
	return s.closeErr
}

// BetaBundle implements BetaBundles.
func (s *sqlStore) BetaBundle(ctx context.Context, hash common.Hash) (*BetaBundle, error) {
	defer queryTimer.UpdateSince(time.Now())
	var txs, signer []byte
	err := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT txs, signer FROM beta_bundles WHERE hash = ?`), hash[:]).Scan(&txs, &signer)
	gone := errors.Is(err, sql.ErrNoRows) // evicted from every slot, or never stored
	if err != nil && !gone {
		return nil, err
	}
	b := &BetaBundle{Hash: hash, Signer: common.BytesToAddress(signer)}
	if err := s.evictedSlots(ctx, b); err != nil {
		return nil, err
	}
	if gone {
		if len(b.Slots) == 0 {
			return nil, fmt.Errorf("%w: beta bundle %s", ErrNotFound, hash.Hex())
		}
		return b, nil
	}
	if err := rlp.DecodeBytes(txs, &b.Txs); err != nil {
		return nil, fmt.Errorf("stored beta bundle %s is corrupt: %w", hash.Hex(), err)
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT s.slot, s.received_at, o.state, o.entry, o.gas, o.block_number, o.block_hash, o.tx_hashes, o.total, o.reason
		FROM beta_bundle_slots s LEFT JOIN beta_outcomes o ON o.hash = s.hash AND o.slot = s.slot WHERE s.hash = ? ORDER BY s.slot`), hash[:])
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			sl                        BetaSlot
			slot                      int64
			state, reason             sql.NullString
			entry, gas, number, total sql.NullInt64
			blockHash, txHashes       []byte
		)
		if err := rows.Scan(&slot, &sl.ReceivedAt, &state, &entry, &gas, &number, &blockHash, &txHashes, &total, &reason); err != nil {
			return nil, err
		}
		sl.Slot = uint64(slot)
		if state.Valid {
			o := &BetaOutcome{Hash: hash, Slot: sl.Slot, State: state.String, Entry: uint64(entry.Int64), Gas: uint64(gas.Int64),
				BlockNumber: uint64(number.Int64), BlockHash: common.BytesToHash(blockHash), Total: uint64(total.Int64), Reason: reason.String}
			for i := 0; i+common.HashLength <= len(txHashes); i += common.HashLength {
				o.TxHashes = append(o.TxHashes, common.BytesToHash(txHashes[i:i+common.HashLength]))
			}
			sl.Outcome = o
		}
		b.Slots = append(b.Slots, sl)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(b.Slots, func(x, y BetaSlot) int { return cmp.Compare(x.Slot, y.Slot) })
	return b, nil
}

// BetaOutcomes implements BetaBundles.
func (s *sqlStore) BetaOutcomes(ctx context.Context, slot uint64) ([]BetaOutcome, error) {
	defer queryTimer.UpdateSince(time.Now())
	if err := checkInt64("slot", slot); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT hash, state, entry, gas, block_number, block_hash, tx_hashes, total, reason
		FROM beta_outcomes WHERE slot = ? ORDER BY entry, hash`), int64(slot))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []BetaOutcome{}
	for rows.Next() {
		var (
			hash, blockHash, txHashes []byte
			entry, gas, number, total int64
		)
		o := BetaOutcome{Slot: slot}
		if err := rows.Scan(&hash, &o.State, &entry, &gas, &number, &blockHash, &txHashes, &total, &o.Reason); err != nil {
			return nil, err
		}
		o.Hash, o.BlockHash = common.BytesToHash(hash), common.BytesToHash(blockHash)
		o.Entry, o.Gas, o.BlockNumber, o.Total = uint64(entry), uint64(gas), uint64(number), uint64(total)
		for i := 0; i+common.HashLength <= len(txHashes); i += common.HashLength {
			o.TxHashes = append(o.TxHashes, common.BytesToHash(txHashes[i:i+common.HashLength]))
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// evictedSlots adds to b.Slots the entries of b evicted for a client
// holding fewer bytes (beta.go).
func (s *sqlStore) evictedSlots(ctx context.Context, b *BetaBundle) error {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT slot, received_at, reason FROM beta_evictions WHERE hash = ? ORDER BY slot`), b.Hash[:])
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			sl   BetaSlot
			slot int64
		)
		if err := rows.Scan(&slot, &sl.ReceivedAt, &sl.Evicted); err != nil {
			return err
		}
		sl.Slot = uint64(slot)
		b.Slots = append(b.Slots, sl)
	}
	return rows.Err()
}

// PutBetaOutcomes implements BetaBundles.
func (s *sqlStore) PutBetaOutcomes(ctx context.Context, outs []BetaOutcome) error {
	if len(outs) == 0 {
		return nil
	}
	err := s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		for _, o := range outs {
			txs := make([]byte, 0, len(o.TxHashes)*common.HashLength)
			for _, h := range o.TxHashes {
				txs = append(txs, h[:]...)
			}
			if _, err := w.exec(ctx, `INSERT INTO beta_outcomes (hash, slot, state, entry, gas, block_number, block_hash, tx_hashes, total, reason)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash, slot) DO NOTHING`,
				o.Hash[:], int64(o.Slot), o.State, int64(o.Entry), int64(o.Gas), int64(o.BlockNumber), o.BlockHash[:], txs, int64(o.Total), o.Reason); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store: writing beta outcomes: %w", err)
	}
	return nil
}

// BetaBundlesForSlot implements BetaBundles.
func (s *sqlStore) BetaBundlesForSlot(ctx context.Context, slot uint64) ([]*BetaBundle, error) {
	defer queryTimer.UpdateSince(time.Now())
	rows, err := s.db.QueryContext(ctx, s.d.rebind(
		`SELECT b.hash, b.txs, b.signer, s.received_at FROM beta_bundle_slots s JOIN beta_bundles b ON b.hash = s.hash
		 WHERE s.slot = ? ORDER BY s.received_at, b.hash`), int64(slot))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*BetaBundle
	for rows.Next() {
		var hash, txs, signer []byte
		var at int64
		if err := rows.Scan(&hash, &txs, &signer, &at); err != nil {
			return nil, err
		}
		b := &BetaBundle{Hash: common.BytesToHash(hash), Signer: common.BytesToAddress(signer), Slots: []BetaSlot{{Slot: slot, ReceivedAt: at}}}
		if err := rlp.DecodeBytes(txs, &b.Txs); err != nil {
			return nil, fmt.Errorf("stored beta bundle %x is corrupt: %w", hash, err)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// AddUserStats implements UserStats in one transaction.
func (s *sqlStore) AddUserStats(ctx context.Context, deltas []UserStat) error {
	if len(deltas) == 0 {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	q := s.d.rebind(`INSERT INTO user_stats (address, requests, bundles, beta_bundles, inclusions, beta_included, beta_missed, first_seen, last_seen)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (address) DO UPDATE SET
			requests = user_stats.requests + excluded.requests,
			bundles = user_stats.bundles + excluded.bundles,
			beta_bundles = user_stats.beta_bundles + excluded.beta_bundles,
			inclusions = user_stats.inclusions + excluded.inclusions,
			beta_included = user_stats.beta_included + excluded.beta_included,
			beta_missed = user_stats.beta_missed + excluded.beta_missed,
			first_seen = MIN(user_stats.first_seen, excluded.first_seen),
			last_seen = MAX(user_stats.last_seen, excluded.last_seen)`)
	if s.d.dollarArg {
		q = strings.NewReplacer("MIN(", "LEAST(", "MAX(", "GREATEST(").Replace(q)
	}
	for _, d := range deltas {
		if _, err := tx.ExecContext(ctx, q, d.Address[:], int64(d.Requests), int64(d.Bundles), int64(d.BetaBundles), int64(d.Inclusions),
			int64(d.BetaIncluded), int64(d.BetaMissed), d.FirstSeen, d.LastSeen); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := s.addUsage(ctx, tx, deltas); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// UserStat implements UserStats.
func (s *sqlStore) UserStat(ctx context.Context, addr common.Address) (*UserStat, error) {
	defer queryTimer.UpdateSince(time.Now())
	u := &UserStat{Address: addr}
	var req, bun, beta, inc, binc, bmiss int64
	err := s.db.QueryRowContext(ctx, s.d.rebind(
		`SELECT requests, bundles, beta_bundles, inclusions, beta_included, beta_missed, first_seen, last_seen FROM user_stats WHERE address = ?`), addr[:]).
		Scan(&req, &bun, &beta, &inc, &binc, &bmiss, &u.FirstSeen, &u.LastSeen)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: no requests signed by %s", ErrNotFound, addr.Hex())
	}
	if err != nil {
		return nil, err
	}
	u.Requests, u.Bundles, u.BetaBundles, u.Inclusions = uint64(req), uint64(bun), uint64(beta), uint64(inc)
	u.BetaIncluded, u.BetaMissed = uint64(binc), uint64(bmiss)
	if err := s.readUsage(ctx, u); err != nil {
		return nil, err
	}
	return u, nil
}
