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
	// EvictFrom, when not zero, lets a new entry that finds the disk budget
	// spent take the room of the entries of slots from EvictFrom on of the
	// client IP holding the most bytes, newest first, as long as q.IP holds
	// fewer bytes than it (never an entry with an outcome): the caller sets
	// it past the slots whose auction may have settled, so no paid bundle
	// is evicted.
	EvictFrom uint64
	// Evictable lists entries of any slot the caller found unpaid
	// (BetaEvictionCandidates, checked against the L2 settlement): a new
	// entry that finds the disk budget spent takes their room first, in
	// order, each as long as it is still stored without an outcome and its
	// client IP holds more bytes than q.IP.
	Evictable []BetaEntryRef
}

// BetaEntryRef names one (bundle, slot) entry.
type BetaEntryRef struct {
	Hash common.Hash
	Slot uint64
}

// MaxBetaEvictions bounds the entries one new beta entry may evict, so
// that its transaction stays short; past it the store is full for it.
const MaxBetaEvictions = 1024

// BetaEvicted is the reason recorded for an entry evicted for a client
// holding fewer bytes (BetaQuota.EvictFrom).
const BetaEvicted = "evicted: the store was full and this client IP held the most bytes"

// betaEvictSchema is migration 7: who sent each (bundle, slot) entry and
// what it cost the disk budget, each IP's bytes (indexed by size, to find
// the largest holder without a scan), and the evicted entries (for their
// status). Entries stored before count for IP "" at BetaEntryBytes each.
const betaEvictSchema = `
ALTER TABLE beta_bundle_slots ADD COLUMN ip TEXT NOT NULL DEFAULT '';
ALTER TABLE beta_bundle_slots ADD COLUMN bytes BIGINT NOT NULL DEFAULT 128;
CREATE INDEX beta_bundle_slots_by_ip ON beta_bundle_slots(ip, received_at, slot);
CREATE TABLE beta_ip_usage (
	ip TEXT PRIMARY KEY,
	bytes BIGINT NOT NULL
);
CREATE INDEX beta_ip_usage_by_bytes ON beta_ip_usage(bytes);
INSERT INTO beta_ip_usage (ip, bytes) SELECT ip, SUM(bytes) FROM beta_bundle_slots GROUP BY ip;
CREATE TABLE beta_evictions (
	hash {blob} NOT NULL,
	slot BIGINT NOT NULL,
	received_at BIGINT NOT NULL,
	evicted_at BIGINT NOT NULL,
	reason TEXT NOT NULL,
	PRIMARY KEY (hash, slot)
)`

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
		added := int64(0) // bytes this entry adds: none when the bundle is stored for another slot
		if newBundle == 1 {
			added = int64(len(txs))
		}
		res, err = w.exec(ctx, `INSERT INTO beta_bundle_slots (hash, slot, received_at, ip, bytes) VALUES (?, ?, ?, ?, ?) ON CONFLICT (hash, slot) DO NOTHING`,
			b.Hash[:], int64(slot), receivedAt, q.IP, BetaEntryBytes+added)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err // sent again: nothing changes, nothing counts
		}
		// A new entry: within the quotas (counted before it) and the disk
		// budget, else the savepoint takes it back.
		if err := checkBetaQuota(ctx, w, b.Signer, slot, q, added); err != nil {
			return err
		}
		err = addBetaBytes(ctx, w, BetaEntryBytes+added, q.MaxBytes)
		evicting := q.EvictFrom > 0 || len(q.Evictable) > 0
		listed := q.Evictable
		for n := 0; errors.Is(err, ErrBetaStoreFull) && evicting && n < MaxBetaEvictions; n++ {
			evicted, eerr := evictBeta(ctx, w, q, &listed, receivedAt)
			if eerr != nil {
				return eerr
			}
			if !evicted {
				break // err stays ErrBetaStoreFull
			}
			err = addBetaBytes(ctx, w, BetaEntryBytes+added, q.MaxBytes)
		}
		if err != nil {
			if errors.Is(err, ErrBetaStoreFull) && evicting {
				// Report the refusal, not the evictions: the savepoint
				// takes them back with the entry.
				var used int64
				if err := w.queryRow(ctx, `SELECT bytes FROM beta_usage`).Scan(&used); err != nil {
					return err
				}
				return fmt.Errorf("%w: %d of %d bytes used, this bundle needs %d, and no entry of an IP address holding more bytes than this one may be evicted for it",
					ErrBetaStoreFull, used, q.MaxBytes, BetaEntryBytes+added)
			}
			return err
		}
		if _, err := w.exec(ctx, `DELETE FROM beta_evictions WHERE hash = ? AND slot = ?`, b.Hash[:], int64(slot)); err != nil {
			return err // sent again after an eviction: stored again
		}
		if _, err := w.exec(ctx, `INSERT INTO beta_ip_usage (ip, bytes) VALUES (?, ?)
			ON CONFLICT (ip) DO UPDATE SET bytes = beta_ip_usage.bytes + excluded.bytes`, q.IP, BetaEntryBytes+added); err != nil {
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

// evictBeta deletes one entry for a new entry of q.IP: the next of
// *listed (q.Evictable) still stored without an outcome whose client IP
// holds more bytes than q.IP; else, with q.EvictFrom set, the newest entry
// of a slot from q.EvictFrom on without an outcome of the client IP
// holding the most bytes, if q.IP holds fewer bytes than it. The entry is
// recorded in beta_evictions and its room given back. It reports whether
// it evicted one.
func evictBeta(ctx context.Context, w *txWriter, q BetaQuota, listed *[]BetaEntryRef, now int64) (bool, error) {
	var mine int64
	err := w.queryRow(ctx, `SELECT bytes FROM beta_ip_usage WHERE ip = ?`, q.IP).Scan(&mine)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, err
	}
	for len(*listed) > 0 {
		e := (*listed)[0]
		*listed = (*listed)[1:]
		var (
			ip          string
			at, entrySz int64
			theirs      int64
		)
		err := w.queryRow(ctx, `SELECT s.ip, s.received_at, s.bytes, u.bytes FROM beta_bundle_slots s JOIN beta_ip_usage u ON u.ip = s.ip
			WHERE s.hash = ? AND s.slot = ? AND NOT EXISTS (SELECT 1 FROM beta_outcomes o WHERE o.hash = s.hash AND o.slot = s.slot)`,
			e.Hash[:], int64(e.Slot)).Scan(&ip, &at, &entrySz, &theirs)
		if errors.Is(err, sql.ErrNoRows) {
			continue // gone already, or it has an outcome now
		}
		if err != nil {
			return false, err
		}
		if ip == q.IP || theirs <= mine {
			continue
		}
		return true, dropBetaEntry(ctx, w, e.Hash[:], int64(e.Slot), at, entrySz, ip, now)
	}
	if q.EvictFrom == 0 {
		return false, nil
	}
	var (
		ip      string
		largest int64
	)
	err = w.queryRow(ctx, `SELECT ip, bytes FROM beta_ip_usage ORDER BY bytes DESC LIMIT 1`).Scan(&ip, &largest)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (ip == q.IP || mine >= largest)) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var (
		hash              []byte
		slot, at, entrySz int64
	)
	err = w.queryRow(ctx, `SELECT s.hash, s.slot, s.received_at, s.bytes FROM beta_bundle_slots s WHERE s.ip = ? AND s.slot >= ?
		AND NOT EXISTS (SELECT 1 FROM beta_outcomes o WHERE o.hash = s.hash AND o.slot = s.slot)
		ORDER BY s.received_at DESC, s.slot DESC LIMIT 1`, ip, int64(q.EvictFrom)).Scan(&hash, &slot, &at, &entrySz)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil // nothing of the largest holder may go
	}
	if err != nil {
		return false, err
	}
	return true, dropBetaEntry(ctx, w, hash, slot, at, entrySz, ip, now)
}

// dropBetaEntry deletes the entry (hash, slot) of client IP ip, which cost
// entrySz bytes, records it in beta_evictions, deletes its bundle when no
// other slot holds it, and gives back the room.
func dropBetaEntry(ctx context.Context, w *txWriter, hash []byte, slot, at, entrySz int64, ip string, now int64) error {
	if _, err := w.exec(ctx, `DELETE FROM beta_bundle_slots WHERE hash = ? AND slot = ?`, hash, slot); err != nil {
		return err
	}
	if _, err := w.exec(ctx, `INSERT INTO beta_evictions (hash, slot, received_at, evicted_at, reason) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (hash, slot) DO NOTHING`, hash, slot, at, now, BetaEvicted); err != nil {
		return err
	}
	if _, err := w.exec(ctx, `UPDATE beta_ip_usage SET bytes = bytes - ? WHERE ip = ?`, entrySz, ip); err != nil {
		return err
	}
	freed := int64(BetaEntryBytes)
	var txsLen sql.NullInt64
	err := w.queryRow(ctx, `SELECT LENGTH(txs) FROM beta_bundles b WHERE hash = ?
		AND NOT EXISTS (SELECT 1 FROM beta_bundle_slots s WHERE s.hash = b.hash)`, hash).Scan(&txsLen)
	switch {
	case errors.Is(err, sql.ErrNoRows): // still stored for another slot
	case err != nil:
		return err
	default:
		if _, err := w.exec(ctx, `DELETE FROM beta_bundles WHERE hash = ?`, hash); err != nil {
			return err
		}
		freed += txsLen.Int64
	}
	_, err = w.exec(ctx, `UPDATE beta_usage SET bytes = bytes - ?`, freed)
	return err
}

// BetaEvictionCandidates returns, when client IP ip holds fewer stored
// bytes than the IP holding the most, that IP's newest entries without an
// outcome of slots from from on, until they would give back need bytes
// (an entry gives back BetaEntryBytes, and its bundle's txs once every
// entry of the bundle is listed), or MaxBetaEvictions entries: what a full
// store may evict for ip once the caller has found them unpaid (BetaQuota.Evictable). It reads outside any write,
// so that the caller can ask the L2 about them without holding the store;
// nothing when ip holds the most.
func (s *sqlStore) BetaEvictionCandidates(ctx context.Context, ip string, from uint64, need int64) ([]BetaEntryRef, error) {
	var holder string
	var largest, mine int64
	err := s.db.QueryRowContext(ctx, `SELECT ip, bytes FROM beta_ip_usage ORDER BY bytes DESC LIMIT 1`).Scan(&holder, &largest)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("store: finding the largest beta holder: %w", err)
	}
	err = s.db.QueryRowContext(ctx, s.d.rebind(`SELECT bytes FROM beta_ip_usage WHERE ip = ?`), ip).Scan(&mine)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store: reading a beta holder: %w", err)
	}
	if holder == ip || mine >= largest {
		return nil, nil
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT s.hash, s.slot,
		(SELECT COUNT(*) FROM beta_bundle_slots t WHERE t.hash = s.hash), (SELECT LENGTH(txs) FROM beta_bundles b WHERE b.hash = s.hash)
		FROM beta_bundle_slots s WHERE s.ip = ? AND s.slot >= ?
		AND NOT EXISTS (SELECT 1 FROM beta_outcomes o WHERE o.hash = s.hash AND o.slot = s.slot)
		ORDER BY s.received_at DESC, s.slot DESC LIMIT ?`), holder, int64(from), MaxBetaEvictions)
	if err != nil {
		return nil, fmt.Errorf("store: listing beta eviction candidates: %w", err)
	}
	defer rows.Close()
	var (
		out    []BetaEntryRef
		listed = map[common.Hash]int64{} // entries listed per bundle
		got    int64
	)
	for got < need && rows.Next() {
		var (
			hash    []byte
			slot, n int64
			txsLen  sql.NullInt64
		)
		if err := rows.Scan(&hash, &slot, &n, &txsLen); err != nil {
			return nil, fmt.Errorf("store: listing beta eviction candidates: %w", err)
		}
		h := common.BytesToHash(hash)
		out = append(out, BetaEntryRef{Hash: h, Slot: uint64(slot)})
		got += BetaEntryBytes
		if listed[h]++; listed[h] == n {
			got += txsLen.Int64
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: listing beta eviction candidates: %w", err)
	}
	return out, nil
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
			for _, table := range []string{"beta_outcomes", "beta_signer_counts", "beta_ip_counts", "beta_evictions"} {
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
		if _, err = w.exec(ctx, `UPDATE beta_usage SET bytes = `+betaUsageSQL); err != nil {
			return err
		}
		if _, err = w.exec(ctx, `DELETE FROM beta_ip_usage`); err != nil {
			return err
		}
		_, err = w.exec(ctx, `INSERT INTO beta_ip_usage (ip, bytes) SELECT ip, SUM(bytes) FROM beta_bundle_slots GROUP BY ip`)
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
