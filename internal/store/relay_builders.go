package store

import (
	"context"
	"fmt"

	"github.com/gavel-eth/gavel/core/beacon"
)

// builderStatusSchema is migration 8: what the relay's operator decided
// about a builder (high priority or blocked), shared by every relay
// instance on the database and kept over restarts.
const builderStatusSchema = `
	CREATE TABLE relay_builder_status (
		pubkey {blob} PRIMARY KEY,
		status TEXT NOT NULL,
		note TEXT NOT NULL,
		updated_at BIGINT NOT NULL
	)`

// Builder statuses an operator can set (BuilderStatus.Status).
const (
	// BuilderHighPriority: the builder's submissions, once their signature
	// verified, may use the body budget's reserve even without a recent
	// accepted bid (a new builder the operator vouches for).
	BuilderHighPriority = "high-priority"
	// BuilderBlocked: the builder's submissions are refused from their
	// first bytes.
	BuilderBlocked = "blocked"
)

// ErrBadBuilderStatus is returned for a status other than
// BuilderHighPriority and BuilderBlocked.
var ErrBadBuilderStatus = fmt.Errorf("unknown builder status: expected %q or %q", BuilderHighPriority, BuilderBlocked)

// BuilderStatus is an operator's decision about one builder.
type BuilderStatus struct {
	Pubkey beacon.BLSPubkey
	Status string // BuilderHighPriority or BuilderBlocked
	Note   string // free text: who asked, why
	// UpdatedAt is when it was set, unix milliseconds.
	UpdatedAt int64
}

// RelayBuilders is what the relay keeps about builders: their recent
// accepted bids (read from the bid traces) and the operator's statuses.
type RelayBuilders interface {
	// RecentBuilders calls fn with every builder that has a bid trace of
	// slot from or later whose verification passed, and the latest such
	// slot (at most limit builders, latest slots first; 0 means no limit).
	RecentBuilders(ctx context.Context, from uint64, limit int, fn func(pk beacon.BLSPubkey, slot uint64) error) error
	// SetBuilderStatus records s (replacing the builder's status), committed
	// when it returns; s.Status must be BuilderHighPriority or
	// BuilderBlocked (ErrBadBuilderStatus).
	SetBuilderStatus(ctx context.Context, s BuilderStatus) error
	// ClearBuilderStatus removes the builder's status; it reports whether
	// there was one.
	ClearBuilderStatus(ctx context.Context, pk beacon.BLSPubkey) (bool, error)
	// BuilderStatuses calls fn for every builder with a status, in pubkey
	// order.
	BuilderStatuses(ctx context.Context, fn func(*BuilderStatus) error) error
}

// RecentBuilders implements RelayBuilders.
func (s *sqlStore) RecentBuilders(ctx context.Context, from uint64, limit int, fn func(pk beacon.BLSPubkey, slot uint64) error) error {
	if from > 1<<63-1 {
		return nil
	}
	// A signed row is a block the relay built itself (a beta block), not a
	// builder's bid.
	q := `SELECT builder_pubkey, MAX(slot) FROM relay_submissions WHERE slot >= ? AND sim_success = ? AND signature IS NULL GROUP BY builder_pubkey ORDER BY MAX(slot) DESC`
	if limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", limit)
	}
	type recent struct {
		pk   beacon.BLSPubkey
		slot uint64
	}
	scan := func(sc interface{ Scan(...any) error }) (recent, error) {
		var r recent
		var pk []byte
		var slot int64
		if err := sc.Scan(&pk, &slot); err != nil {
			return r, err
		}
		r.slot = uint64(slot)
		return r, copyExact(r.pk[:], pk, "builder_pubkey")
	}
	return eachRow(ctx, s.db, s.d.rebind(q), scan, func(r recent) error { return fn(r.pk, r.slot) }, int64(from), true)
}

// SetBuilderStatus implements RelayBuilders.
func (s *sqlStore) SetBuilderStatus(ctx context.Context, b BuilderStatus) error {
	if b.Status != BuilderHighPriority && b.Status != BuilderBlocked {
		return fmt.Errorf("%w: got %q", ErrBadBuilderStatus, b.Status)
	}
	return s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		_, err := w.exec(ctx, `INSERT INTO relay_builder_status (pubkey, status, note, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (pubkey) DO UPDATE SET status = excluded.status, note = excluded.note, updated_at = excluded.updated_at`,
			b.Pubkey[:], b.Status, b.Note, b.UpdatedAt)
		if err != nil {
			return fmt.Errorf("store: builder status of %s: %w", b.Pubkey, err)
		}
		return nil
	})
}

// ClearBuilderStatus implements RelayBuilders.
func (s *sqlStore) ClearBuilderStatus(ctx context.Context, pk beacon.BLSPubkey) (bool, error) {
	var found bool
	err := s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		res, err := w.exec(ctx, `DELETE FROM relay_builder_status WHERE pubkey = ?`, pk[:])
		if err != nil {
			return fmt.Errorf("store: clearing the builder status of %s: %w", pk, err)
		}
		n, err := res.RowsAffected()
		found = n > 0
		return err
	})
	return found, err
}

// BuilderStatuses implements RelayBuilders.
func (s *sqlStore) BuilderStatuses(ctx context.Context, fn func(*BuilderStatus) error) error {
	scan := func(sc interface{ Scan(...any) error }) (*BuilderStatus, error) {
		b := new(BuilderStatus)
		var pk []byte
		if err := sc.Scan(&pk, &b.Status, &b.Note, &b.UpdatedAt); err != nil {
			return nil, err
		}
		return b, copyExact(b.Pubkey[:], pk, "pubkey")
	}
	return eachRow(ctx, s.db, `SELECT pubkey, status, note, updated_at FROM relay_builder_status ORDER BY pubkey`, scan, fn)
}
