package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rlp"
)

// betaQuotaSchema is migration 6: each (bundle, slot) entry records who
// sent it, so that the beta bundle quotas are counted from the database (a
// restart does not hand out fresh quotas, and relay instances sharing a
// PostgreSQL database share them); beta_usage keeps the stored bundles'
// bytes for the disk budget. Entries stored before have their bundle's
// signer and no client IP.
const betaQuotaSchema = `
ALTER TABLE beta_bundle_slots ADD COLUMN signer {blob};
ALTER TABLE beta_bundle_slots ADD COLUMN client_ip TEXT;
UPDATE beta_bundle_slots SET signer = (SELECT b.signer FROM beta_bundles b WHERE b.hash = beta_bundle_slots.hash);
CREATE INDEX beta_bundle_slots_by_signer ON beta_bundle_slots(signer, slot);
CREATE INDEX beta_bundle_slots_by_ip ON beta_bundle_slots(client_ip, slot);
CREATE TABLE beta_usage (bytes BIGINT NOT NULL);
INSERT INTO beta_usage (bytes) SELECT COALESCE(SUM(LENGTH(txs)), 0) FROM beta_bundles`

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
	MaxBytes     int64 // stored bundles' txs (as stored, RLP-encoded), all senders together
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
	err = s.gc.submitBeta(ctx, func(ctx context.Context, w *txWriter) error {
		created = false
		var one int
		err := w.queryRow(ctx, `SELECT 1 FROM beta_bundle_slots WHERE hash = ? AND slot = ?`, b.Hash[:], int64(slot)).Scan(&one)
		if err == nil {
			return nil // sent again: nothing changes, nothing counts
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if err := checkBetaQuota(ctx, w, b.Signer, slot, q); err != nil {
			return err
		}
		res, err := w.exec(ctx, `INSERT INTO beta_bundles (hash, txs, signer, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING`,
			b.Hash[:], txs, b.Signer[:], receivedAt)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 1 {
			var used int64
			if err := w.queryRow(ctx, `SELECT bytes FROM beta_usage`).Scan(&used); err != nil {
				return err
			}
			if q.MaxBytes > 0 && used+int64(len(txs)) > q.MaxBytes {
				return fmt.Errorf("%w: %d of %d bytes used, this bundle needs %d", ErrBetaStoreFull, used, q.MaxBytes, len(txs))
			}
			if _, err := w.exec(ctx, `UPDATE beta_usage SET bytes = bytes + ?`, int64(len(txs))); err != nil {
				return err
			}
		}
		if _, err := w.exec(ctx, `INSERT INTO beta_bundle_slots (hash, slot, received_at, signer, client_ip) VALUES (?, ?, ?, ?, ?)`,
			b.Hash[:], int64(slot), receivedAt, b.Signer[:], q.IP); err != nil {
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

// checkBetaQuota counts the entries of slots from q.From on that signer
// and q.IP hold, and refuses a new one past either maximum.
func checkBetaQuota(ctx context.Context, w *txWriter, signer common.Address, slot uint64, q BetaQuota) error {
	from := int64(min(q.From, slot))
	if q.MaxPerSigner > 0 && signer != (common.Address{}) {
		n, err := countUpTo(ctx, w, `SELECT COUNT(*) FROM (SELECT 1 FROM beta_bundle_slots WHERE signer = ? AND slot >= ? LIMIT ?) c`, signer[:], from, q.MaxPerSigner)
		if err != nil {
			return err
		}
		if n >= q.MaxPerSigner {
			return fmt.Errorf("%w: signer %s has %d bundles for slots from %d on, at most %d", ErrBetaQuota, signer.Hex(), n, from, q.MaxPerSigner)
		}
	}
	if q.MaxPerIP > 0 {
		n, err := countUpTo(ctx, w, `SELECT COUNT(*) FROM (SELECT 1 FROM beta_bundle_slots WHERE client_ip = ? AND slot >= ? LIMIT ?) c`, q.IP, from, q.MaxPerIP)
		if err != nil {
			return err
		}
		if n >= q.MaxPerIP {
			return fmt.Errorf("%w: %d bundles for slots from %d on from this IP address, at most %d", ErrBetaQuota, n, from, q.MaxPerIP)
		}
	}
	return nil
}

// countUpTo runs a COUNT query whose last argument is its LIMIT: counting
// stops at the quota, so a check costs at most the quota's index entries.
func countUpTo(ctx context.Context, w *txWriter, query string, key any, from int64, limit int) (int, error) {
	var n int
	err := w.queryRow(ctx, query, key, from, limit).Scan(&n)
	return n, err
}

// PruneBetaBundles deletes what was sent for slots before slot (entries
// and their outcomes), then the bundles left without any slot, and reports
// how many slot entries went. The disk budget's count is measured again.
// (Beta bundle retention, eth/betapool.)
func (s *sqlStore) PruneBetaBundles(ctx context.Context, before uint64) (int64, error) {
	var n int64
	err := s.gc.submitBeta(ctx, func(ctx context.Context, w *txWriter) error {
		res, err := w.exec(ctx, `DELETE FROM beta_bundle_slots WHERE slot < ?`, int64(before))
		if err != nil {
			return err
		}
		if _, err := w.exec(ctx, `DELETE FROM beta_outcomes WHERE slot < ?`, int64(before)); err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		if _, err = w.exec(ctx, `DELETE FROM beta_bundles WHERE NOT EXISTS (SELECT 1 FROM beta_bundle_slots s WHERE s.hash = beta_bundles.hash)`); err != nil {
			return err
		}
		_, err = w.exec(ctx, `UPDATE beta_usage SET bytes = (SELECT COALESCE(SUM(LENGTH(txs)), 0) FROM beta_bundles)`)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("store: pruning beta bundles before slot %d: %w", before, err)
	}
	return n, nil
}

// BetaBundleBytes is the size of the stored beta bundles' txs as stored
// (their disk budget, eth/betapool).
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
