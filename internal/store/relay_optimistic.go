package store

import (
	"context"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/gavel-eth/gavel/core/beacon"
)

// optimisticSchema is migration 13: optimistic relaying. Which builders the
// operator lets submit optimistically and against what collateral, the
// demotions of builders whose block failed its simulation after it was
// served, and the simulations still owed for bids served before them (so
// that a restarted relay resumes them or demotes the builder).
const optimisticSchema = `
	CREATE TABLE relay_builder_optimistic (
		pubkey {blob} PRIMARY KEY,
		collateral {valuetext} NOT NULL,
		demoted BOOLEAN NOT NULL,
		note TEXT NOT NULL,
		updated_at BIGINT NOT NULL
	);
	CREATE TABLE relay_builder_demotions (
		block_hash {blob} PRIMARY KEY,
		slot BIGINT NOT NULL,
		builder_pubkey {blob} NOT NULL,
		value {valuetext} NOT NULL,
		reason TEXT NOT NULL,
		demoted_at BIGINT NOT NULL
	);
	CREATE INDEX relay_builder_demotions_slot ON relay_builder_demotions(slot);
	CREATE TABLE relay_optimistic_pending (
		block_hash {blob} PRIMARY KEY,
		slot BIGINT NOT NULL,
		builder_pubkey {blob} NOT NULL,
		fork INTEGER NOT NULL,
		submission {blob} NOT NULL,
		received_at BIGINT NOT NULL,
		parent_beacon_root {blob},
		registered_gas_limit BIGINT NOT NULL
	)`

// demotionsChannel carries demotions between relay instances on PostgreSQL.
const demotionsChannel = "gavel_relay_demotions"

// OptimisticBuilder is the operator's optimistic status of one builder.
type OptimisticBuilder struct {
	Pubkey beacon.BLSPubkey
	// Collateral is what the builder has deposited with the operator, in
	// wei: its bids up to this value are served before their simulation.
	Collateral beacon.U256
	// Demoted is set when a block of the builder failed its simulation
	// after it was served; the operator re-promotes it by setting the
	// status again.
	Demoted bool
	Note    string
	// UpdatedAt is when the operator set it, unix milliseconds.
	UpdatedAt int64
}

// Demotion is a builder demoted for a block that failed its simulation
// after the relay served it optimistically.
type Demotion struct {
	Slot          uint64
	BuilderPubkey beacon.BLSPubkey
	BlockHash     beacon.Root
	// Value is the bid's value, wei.
	Value  beacon.U256
	Reason string
	// DemotedAt is unix milliseconds.
	DemotedAt int64
	// Origin names the relay instance that demoted (carried in the
	// notification only).
	Origin string
}

// ReasonPayloadMissing is the demotion reason of a header-first bid whose
// block its builder did not send before the proposer, having signed its
// header, asked for it: nothing was delivered, and the proposer is owed
// the bid's value all the same.
const ReasonPayloadMissing = "payload missing: the builder did not send the block of a header the proposer signed"

// DemotionRecord is a demotion as the data API lists it: with whether the
// block was delivered (a getPayload served it, per the delivery record).
type DemotionRecord struct {
	Demotion
	Delivered bool
}

// ProposerOwed is what the builder's collateral owes the proposer, wei:
// the bid's value when the block was delivered or when the proposer signed
// a header whose block never came (ReasonPayloadMissing), else 0.
func (d *DemotionRecord) ProposerOwed() beacon.U256 {
	if d.Delivered || d.Reason == ReasonPayloadMissing {
		return d.Value
	}
	return beacon.U256{}
}

// DemotionQuery selects demotions: of one slot (0: any), of one builder
// (nil: any), newest slot first, at most Limit.
type DemotionQuery struct {
	Slot    uint64
	Builder *beacon.BLSPubkey
	Limit   int
}

// PendingSimulation is a bid served optimistically whose simulation has
// not ended: what a restarted relay needs to run it.
type PendingSimulation struct {
	BlockHash     beacon.Root
	Slot          uint64
	BuilderPubkey beacon.BLSPubkey
	// Fork is the submission's params.ConsensusFork; Submission its SSZ.
	Fork       uint8
	Submission []byte
	// ReceivedAt is unix microseconds.
	ReceivedAt int64
	// ParentBeaconRoot (Deneb on) and RegisteredGasLimit are what the
	// simulation checks the block against besides the parent state.
	ParentBeaconRoot   *beacon.Root
	RegisteredGasLimit uint64
}

// RelayOptimistic is what the relay keeps for optimistic relaying.
type RelayOptimistic interface {
	// SetOptimisticBuilder makes b.Pubkey optimistic with b.Collateral,
	// not demoted (a re-promotion), committed when it returns.
	SetOptimisticBuilder(ctx context.Context, b OptimisticBuilder) error
	// ClearOptimisticBuilder removes a builder's optimistic status; it
	// reports whether there was one.
	ClearOptimisticBuilder(ctx context.Context, pk beacon.BLSPubkey) (bool, error)
	// OptimisticBuilders calls fn for every builder with an optimistic
	// status (demoted ones included), in pubkey order.
	OptimisticBuilders(ctx context.Context, fn func(*OptimisticBuilder) error) error
	// DemoteBuilder records d durably in one transaction: the demotion
	// (once per block hash), the builder's status demoted, its pending
	// simulation gone, and its shared bids of the slot deleted so that no
	// instance reads them through again; on PostgreSQL the other instances
	// are notified in the same transaction.
	DemoteBuilder(ctx context.Context, d Demotion) error
	// Demotions answers the builder_demotions data query.
	Demotions(ctx context.Context, q DemotionQuery) ([]DemotionRecord, error)
	// PutPendingSimulation queues the record of a simulation owed and
	// returns at once; wait returns once it is committed. Acknowledged
	// writes queued after it commit with it or after it.
	PutPendingSimulation(ctx context.Context, p *PendingSimulation) (wait func() error)
	// DeletePendingSimulation forgets the simulation of blockHash.
	DeletePendingSimulation(ctx context.Context, blockHash beacon.Root) error
	// PendingSimulations calls fn for every simulation owed.
	PendingSimulations(ctx context.Context, fn func(*PendingSimulation) error) error
}

// SetOptimisticBuilder implements RelayOptimistic.
func (s *sqlStore) SetOptimisticBuilder(ctx context.Context, b OptimisticBuilder) error {
	return s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		_, err := w.exec(ctx, `INSERT INTO relay_builder_optimistic (pubkey, collateral, demoted, note, updated_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (pubkey) DO UPDATE SET collateral = excluded.collateral, demoted = excluded.demoted, note = excluded.note, updated_at = excluded.updated_at`,
			b.Pubkey[:], encodeValue(b.Collateral), false, b.Note, b.UpdatedAt)
		if err != nil {
			return fmt.Errorf("store: optimistic status of %s: %w", b.Pubkey, err)
		}
		return nil
	})
}

// ClearOptimisticBuilder implements RelayOptimistic.
func (s *sqlStore) ClearOptimisticBuilder(ctx context.Context, pk beacon.BLSPubkey) (bool, error) {
	var found bool
	err := s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		res, err := w.exec(ctx, `DELETE FROM relay_builder_optimistic WHERE pubkey = ?`, pk[:])
		if err != nil {
			return fmt.Errorf("store: clearing the optimistic status of %s: %w", pk, err)
		}
		n, err := res.RowsAffected()
		found = n > 0
		return err
	})
	return found, err
}

// OptimisticBuilders implements RelayOptimistic.
func (s *sqlStore) OptimisticBuilders(ctx context.Context, fn func(*OptimisticBuilder) error) error {
	scan := func(sc interface{ Scan(...any) error }) (*OptimisticBuilder, error) {
		b := new(OptimisticBuilder)
		var pk []byte
		var collateral string
		if err := sc.Scan(&pk, &collateral, &b.Demoted, &b.Note, &b.UpdatedAt); err != nil {
			return nil, err
		}
		var err error
		if b.Collateral, err = decodeValue(collateral); err != nil {
			return nil, err
		}
		return b, copyExact(b.Pubkey[:], pk, "pubkey")
	}
	return eachRow(ctx, s.db, `SELECT pubkey, collateral, demoted, note, updated_at FROM relay_builder_optimistic ORDER BY pubkey`, scan, fn)
}

// DemoteBuilder implements RelayOptimistic.
func (s *sqlStore) DemoteBuilder(ctx context.Context, d Demotion) error {
	if err := checkInt64("slot", d.Slot); err != nil {
		return err
	}
	return s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		if _, err := w.exec(ctx, `INSERT INTO relay_builder_demotions (block_hash, slot, builder_pubkey, value, reason, demoted_at) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (block_hash) DO NOTHING`, d.BlockHash[:], int64(d.Slot), d.BuilderPubkey[:], encodeValue(d.Value), d.Reason, d.DemotedAt); err != nil {
			return fmt.Errorf("store: demotion of %s: %w", d.BuilderPubkey, err)
		}
		if _, err := w.exec(ctx, `UPDATE relay_builder_optimistic SET demoted = ? WHERE pubkey = ?`, true, d.BuilderPubkey[:]); err != nil {
			return fmt.Errorf("store: demotion of %s: %w", d.BuilderPubkey, err)
		}
		if _, err := w.exec(ctx, `DELETE FROM relay_optimistic_pending WHERE block_hash = ?`, d.BlockHash[:]); err != nil {
			return fmt.Errorf("store: demotion of %s: %w", d.BuilderPubkey, err)
		}
		if _, err := w.exec(ctx, `DELETE FROM relay_bids WHERE slot = ? AND builder_pubkey = ?`, int64(d.Slot), d.BuilderPubkey[:]); err != nil {
			return fmt.Errorf("store: demotion of %s: %w", d.BuilderPubkey, err)
		}
		if s.d.name != "postgres" {
			return nil
		}
		_, err := w.exec(ctx, `SELECT pg_notify('`+demotionsChannel+`', ?)`, demotionPayload(d))
		return err
	})
}

// demotionPayload is a demotion's notification: builder, slot and origin.
func demotionPayload(d Demotion) string {
	return hex.EncodeToString(d.BuilderPubkey[:]) + " " + strconv.FormatUint(d.Slot, 10) + " " + d.Origin
}

// parseDemotion reads a demotion notification (ok false when malformed).
func parseDemotion(payload string) (pk beacon.BLSPubkey, slot uint64, origin string, ok bool) {
	parts := strings.SplitN(payload, " ", 3)
	if len(parts) != 3 {
		return pk, 0, "", false
	}
	raw, err := hex.DecodeString(parts[0])
	if err != nil || len(raw) != len(pk) {
		return pk, 0, "", false
	}
	copy(pk[:], raw)
	if slot, err = strconv.ParseUint(parts[1], 10, 64); err != nil {
		return pk, 0, "", false
	}
	return pk, slot, parts[2], true
}

// Demotions implements RelayOptimistic.
func (s *sqlStore) Demotions(ctx context.Context, q DemotionQuery) ([]DemotionRecord, error) {
	var where []string
	var args []any
	if q.Slot > 1<<63-1 {
		return nil, nil // no such slot can be stored
	}
	if q.Slot != 0 {
		where, args = append(where, "m.slot = ?"), append(args, int64(q.Slot))
	}
	if q.Builder != nil {
		where, args = append(where, "m.builder_pubkey = ?"), append(args, q.Builder[:])
	}
	query := `SELECT m.block_hash, m.slot, m.builder_pubkey, m.value, m.reason, m.demoted_at, d.slot IS NOT NULL
		FROM relay_builder_demotions m LEFT JOIN relay_delivered d ON d.block_hash = m.block_hash`
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += " ORDER BY m.slot DESC, m.demoted_at DESC"
	if q.Limit > 0 {
		query += fmt.Sprintf(" LIMIT %d", q.Limit)
	}
	var out []DemotionRecord
	scan := func(sc interface{ Scan(...any) error }) (DemotionRecord, error) {
		var r DemotionRecord
		var hash, pk []byte
		var slot int64
		var value string
		if err := sc.Scan(&hash, &slot, &pk, &value, &r.Reason, &r.DemotedAt, &r.Delivered); err != nil {
			return r, err
		}
		r.Slot = uint64(slot)
		var err error
		if r.Value, err = decodeValue(value); err != nil {
			return r, err
		}
		if err := copyExact(r.BlockHash[:], hash, "block_hash"); err != nil {
			return r, err
		}
		return r, copyExact(r.BuilderPubkey[:], pk, "builder_pubkey")
	}
	err := eachRow(ctx, s.db, s.d.rebind(query), scan, func(r DemotionRecord) error {
		out = append(out, r)
		return nil
	}, args...)
	return out, err
}

// PutPendingSimulation implements RelayOptimistic.
func (s *sqlStore) PutPendingSimulation(ctx context.Context, p *PendingSimulation) (wait func() error) {
	if err := checkInt64("slot", p.Slot); err != nil {
		return func() error { return err }
	}
	var root []byte
	if p.ParentBeaconRoot != nil {
		root = p.ParentBeaconRoot[:]
	}
	return s.gc.queue(ctx, func(ctx context.Context, w *txWriter) error {
		_, err := w.exec(ctx, `INSERT INTO relay_optimistic_pending (block_hash, slot, builder_pubkey, fork, submission, received_at, parent_beacon_root, registered_gas_limit)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (block_hash) DO NOTHING`,
			p.BlockHash[:], int64(p.Slot), p.BuilderPubkey[:], int(p.Fork), p.Submission, p.ReceivedAt, root, int64(p.RegisteredGasLimit))
		if err != nil {
			return fmt.Errorf("store: pending simulation of %s: %w", p.BlockHash, err)
		}
		return nil
	})
}

// DeletePendingSimulation implements RelayOptimistic.
func (s *sqlStore) DeletePendingSimulation(ctx context.Context, blockHash beacon.Root) error {
	return s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		_, err := w.exec(ctx, `DELETE FROM relay_optimistic_pending WHERE block_hash = ?`, blockHash[:])
		return err
	})
}

// PendingSimulations implements RelayOptimistic.
func (s *sqlStore) PendingSimulations(ctx context.Context, fn func(*PendingSimulation) error) error {
	scan := func(sc interface{ Scan(...any) error }) (*PendingSimulation, error) {
		p := new(PendingSimulation)
		var hash, pk, root []byte
		var slot, fork, gas int64
		if err := sc.Scan(&hash, &slot, &pk, &fork, &p.Submission, &p.ReceivedAt, &root, &gas); err != nil {
			return nil, err
		}
		p.Slot, p.Fork, p.RegisteredGasLimit = uint64(slot), uint8(fork), uint64(gas)
		if root != nil {
			p.ParentBeaconRoot = new(beacon.Root)
			if err := copyExact(p.ParentBeaconRoot[:], root, "parent_beacon_root"); err != nil {
				return nil, err
			}
		}
		if err := copyExact(p.BlockHash[:], hash, "block_hash"); err != nil {
			return nil, err
		}
		return p, copyExact(p.BuilderPubkey[:], pk, "builder_pubkey")
	}
	return eachRow(ctx, s.db, `SELECT block_hash, slot, builder_pubkey, fork, submission, received_at, parent_beacon_root, registered_gas_limit
		FROM relay_optimistic_pending ORDER BY slot, received_at`, scan, fn)
}
