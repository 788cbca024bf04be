package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rlp"
)

// betaQuotaSchema is migration 6: how many (bundle, slot) entries each
// signer and each client IP sent per slot (and, per IP, the bytes of the
// new bundles among them), so that the beta bundle quotas
// are counted from the database (a restart does not hand out fresh quotas,
// and relay instances sharing a PostgreSQL database share them) by summing
// a few rows per sender, not by counting entries; beta_usage keeps the
// stored bundles' bytes for the disk budget. Entries stored before count
// for their bundle's signer (their client IP was not kept).
const betaQuotaSchema = `
CREATE TABLE beta_signer_counts (
	signer {blob} NOT NULL,
	slot BIGINT NOT NULL,
	n BIGINT NOT NULL,
	PRIMARY KEY (signer, slot)
);
CREATE TABLE beta_ip_counts (
	ip TEXT NOT NULL,
	slot BIGINT NOT NULL,
	n BIGINT NOT NULL,
	bytes BIGINT NOT NULL,
	PRIMARY KEY (ip, slot)
);
INSERT INTO beta_signer_counts (signer, slot, n)
	SELECT b.signer, s.slot, COUNT(*) FROM beta_bundle_slots s JOIN beta_bundles b ON b.hash = s.hash GROUP BY b.signer, s.slot;
CREATE TABLE beta_usage (bytes BIGINT NOT NULL);
INSERT INTO beta_usage (bytes) SELECT ` + betaUsageSQL

// BetaEntryBytes is what the disk budget counts for one (bundle, slot)
// entry besides its bundle's txs: about what its row, its index entries and
// its counters take on disk, so that a bundle re-sent for many slots from
// many addresses is not free.
const BetaEntryBytes = 128

// betaUsageSQL measures the disk budget's use from the tables (128:
// BetaEntryBytes).
const betaUsageSQL = `(SELECT COALESCE(SUM(LENGTH(txs)), 0) FROM beta_bundles) + 128 * (SELECT COUNT(*) FROM beta_bundle_slots)`

// Errors of PutBetaBundleWithin's limits.
var (
	ErrBetaQuota     = errors.New("beta bundle quota exceeded")
	ErrBetaStoreFull = errors.New("beta bundle store is full")
)

// BetaQuota bounds what one client may store: the (bundle, slot) entries
// of slots from From on per signer and per client IP, and the bytes of all
// stored bundles. A zero maximum is no bound.
type BetaQuota struct {
	From         uint64 // the current slot: entries of passed slots no longer count
	IP           string // the request's client IP ("" when unknown: counted as one client)
	MaxPerSigner int    // per non-zero signer (the bundle's Signer)
	MaxPerIP     int
	// MaxBytesPerIP bounds the bytes of the bundles q.IP added to the store
	// for slots from From on, so that one address cannot spend the disk
	// budget alone.
	MaxBytesPerIP int64
	MaxBytes      int64 // stored bundles' txs (as stored, RLP-encoded), all senders together
}

// PutBetaBundle records bundle b for slot at receivedAt (unix ms), without
// quotas.
func (s *sqlStore) PutBetaBundle(ctx context.Context, b *BetaBundle, slot uint64, receivedAt int64) (bool, error) {
	return s.PutBetaBundleWithin(ctx, b, slot, receivedAt, BetaQuota{})
}

// PutBetaBundleWithin implements BetaBundles: the quotas are checked and
// the bundle written in one transaction of the group committer; on
// PostgreSQL those transactions take turns across instances (the dialect's
// betaLock), so the counts are exact whatever instance a client reaches.
func (s *sqlStore) PutBetaBundleWithin(ctx context.Context, b *BetaBundle, slot uint64, receivedAt int64, q BetaQuota) (bool, error) {
	txs, err := rlp.EncodeToBytes(b.Txs)
	if err != nil {
		return false, err
	}
	var created bool
	err = s.betaGC.submitBeta(ctx, func(ctx context.Context, w *txWriter) error {
		created = false
		res, err := w.exec(ctx, `INSERT INTO beta_bundles (hash, txs, signer, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`,
			b.Hash[:], txs, b.Signer[:], receivedAt)
		if err != nil {
			return err
		}
		newBundle, err := res.RowsAffected()
		if err != nil {
			return err
		}
		res, err = w.exec(ctx, `INSERT INTO beta_bundle_slots (hash, slot, received_at) VALUES (?, ?, ?) ON CONFLICT (hash, slot) DO NOTHING`,
			b.Hash[:], int64(slot), receivedAt)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err // sent again: nothing changes, nothing counts
		}
		// A new entry: within the quotas (counted before it) and the disk
		// budget, else the savepoint takes it back.
		added := int64(0) // bytes this entry adds: none when the bundle is stored for another slot
		if newBundle == 1 {
			added = int64(len(txs))
		}
		if err := checkBetaQuota(ctx, w, b.Signer, slot, q, added); err != nil {
			return err
		}
		if err := addBetaBytes(ctx, w, BetaEntryBytes+added, q.MaxBytes); err != nil {
			return err
		}
		if b.Signer != (common.Address{}) {
			if _, err := w.exec(ctx, `INSERT INTO beta_signer_counts (signer, slot, n) VALUES (?, ?, 1)
				ON CONFLICT (signer, slot) DO UPDATE SET n = beta_signer_counts.n + 1`, b.Signer[:], int64(slot)); err != nil {
				return err
			}
		}
		if _, err := w.exec(ctx, `INSERT INTO beta_ip_counts (ip, slot, n, bytes) VALUES (?, ?, 1, ?)
			ON CONFLICT (ip, slot) DO UPDATE SET n = beta_ip_counts.n + 1, bytes = beta_ip_counts.bytes + excluded.bytes`, q.IP, int64(slot), added); err != nil {
			return err
		}
		created = true
		return nil
	})
	if errors.Is(err, ErrBetaQuota) || errors.Is(err, ErrBetaStoreFull) {
		return false, err
	}
	if err != nil {
		return false, fmt.Errorf("store: writing beta bundle %s: %w", b.Hash.Hex(), err)
	}
	return created, nil
}

// addBetaBytes adds size to the stored bytes unless that passes max (0:
// no budget).
func addBetaBytes(ctx context.Context, w *txWriter, size, max int64) error {
	if max <= 0 {
		_, err := w.exec(ctx, `UPDATE beta_usage SET bytes = bytes + ?`, size)
		return err
	}
	res, err := w.exec(ctx, `UPDATE beta_usage SET bytes = bytes + ? WHERE bytes + ? <= ?`, size, size, max)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	var used int64
	if err := w.queryRow(ctx, `SELECT bytes FROM beta_usage`).Scan(&used); err != nil {
		return err
	}
	return fmt.Errorf("%w: %d of %d bytes used, this bundle needs %d", ErrBetaStoreFull, used, max, size)
}

// checkBetaQuota sums the entries of slots from q.From on that signer and
// q.IP hold, and the bytes q.IP added (one row per slot: at most the
// horizon's), and refuses a new entry adding added bytes past a maximum.
func checkBetaQuota(ctx context.Context, w *txWriter, signer common.Address, slot uint64, q BetaQuota, added int64) error {
	from := int64(min(q.From, slot))
	if q.MaxPerSigner > 0 && signer != (common.Address{}) {
		var n int64
		if err := w.queryRow(ctx, `SELECT COALESCE(SUM(n), 0) FROM beta_signer_counts WHERE signer = ? AND slot >= ?`, signer[:], from).Scan(&n); err != nil {
			return err
		}
		if n >= int64(q.MaxPerSigner) {
			return fmt.Errorf("%w: signer %s has %d bundles for slots from %d on, at most %d", ErrBetaQuota, signer.Hex(), n, from, q.MaxPerSigner)
		}
	}
	if q.MaxPerIP > 0 || q.MaxBytesPerIP > 0 {
		var n, bytes int64
		if err := w.queryRow(ctx, `SELECT COALESCE(SUM(n), 0), COALESCE(SUM(bytes), 0) FROM beta_ip_counts WHERE ip = ? AND slot >= ?`, q.IP, from).Scan(&n, &bytes); err != nil {
			return err
		}
		if q.MaxPerIP > 0 && n >= int64(q.MaxPerIP) {
			return fmt.Errorf("%w: %d bundles for slots from %d on from this IP address, at most %d", ErrBetaQuota, n, from, q.MaxPerIP)
		}
		if q.MaxBytesPerIP > 0 && added > 0 && bytes+added > q.MaxBytesPerIP {
			return fmt.Errorf("%w: bundles of %d bytes for slots from %d on from this IP address, this one adds %d, at most %d", ErrBetaQuota, bytes, from, added, q.MaxBytesPerIP)
		}
	}
	return nil
}

// PruneBetaBundles deletes what was sent for slots before slot (entries
// and their outcomes), then the bundles left without any slot, and reports
// how many slot entries went. The disk budget's count is measured again.
// (Beta bundle retention, eth/betapool.)
func (s *sqlStore) PruneBetaBundles(ctx context.Context, before uint64) (int64, error) {
	return s.pruneBeta(ctx, before, false)
}

// PruneExpiredBetaBundles is PruneBetaBundles for the entries without an
// outcome only (never included or missed in a delivered block): what the
// pool deletes early when the disk budget is spent.
func (s *sqlStore) PruneExpiredBetaBundles(ctx context.Context, before uint64) (int64, error) {
	return s.pruneBeta(ctx, before, true)
}

func (s *sqlStore) pruneBeta(ctx context.Context, before uint64, expiredOnly bool) (int64, error) {
	var n int64
	err := s.betaGC.submitBeta(ctx, func(ctx context.Context, w *txWriter) error {
		q := `DELETE FROM beta_bundle_slots WHERE slot < ?`
		if expiredOnly {
			q += ` AND NOT EXISTS (SELECT 1 FROM beta_outcomes o WHERE o.hash = beta_bundle_slots.hash AND o.slot = beta_bundle_slots.slot)`
		}
		res, err := w.exec(ctx, q, int64(before))
		if err != nil {
			return err
		}
		if !expiredOnly {
			for _, table := range []string{"beta_outcomes", "beta_signer_counts", "beta_ip_counts"} {
				if _, err := w.exec(ctx, `DELETE FROM `+table+` WHERE slot < ?`, int64(before)); err != nil {
					return err
				}
			}
		}
		if n, err = res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		if _, err = w.exec(ctx, `DELETE FROM beta_bundles WHERE NOT EXISTS (SELECT 1 FROM beta_bundle_slots s WHERE s.hash = beta_bundles.hash)`); err != nil {
			return err
		}
		_, err = w.exec(ctx, `UPDATE beta_usage SET bytes = `+betaUsageSQL)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: pruning beta bundles before slot %d: %w", before, err)
	}
	return n, nil
}

// BetaBundleBytes is what the disk budget counts of the stored beta
// bundles: their txs as stored and BetaEntryBytes per (bundle, slot)
// entry (eth/betapool).
func (s *sqlStore) BetaBundleBytes(ctx context.Context) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT bytes FROM beta_usage`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: measuring beta bundles: %w", err)
	}
	return n, nil
}

// OldestBetaSlot is the oldest slot with a stored beta bundle entry
// (ErrNotFound when there is none): when the disk budget is spent, room
// comes back once it passes the retention period.
func (s *sqlStore) OldestBetaSlot(ctx context.Context) (uint64, error) {
	var n sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT MIN(slot) FROM beta_bundle_slots`).Scan(&n); err != nil {
		return 0, err
	}
	if !n.Valid {
		return 0, ErrNotFound
	}
	return uint64(n.Int64), nil
}
