package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
)

// relaySchema is migration 2: the relay's tables. Column types are chosen to
// mean the same on SQLite and PostgreSQL: BIGINT for slots, numbers and unix
// milliseconds; {blob} (BLOB / BYTEA) for hashes, pubkeys, addresses and
// signatures, so filters compare bytes, never letter case; {valuetext} (TEXT,
// with the byte-wise "C" collation on PostgreSQL) for values.
//
// Values (wei, up to 2^256-1) are stored as 78-digit zero-padded decimal text:
// readable, exact, and ordered numerically by a plain text index on both
// databases, which order_by=value needs.
const relaySchema = `
	CREATE TABLE relay_registrations (
		pubkey {blob} PRIMARY KEY,
		fee_recipient {blob} NOT NULL,
		gas_limit BIGINT NOT NULL,
		timestamp BIGINT NOT NULL,
		signature {blob} NOT NULL,
		received_at BIGINT NOT NULL
	);
	CREATE TABLE relay_delivered (
		slot BIGINT PRIMARY KEY,
		parent_hash {blob} NOT NULL,
		block_hash {blob} NOT NULL,
		builder_pubkey {blob} NOT NULL,
		proposer_pubkey {blob} NOT NULL,
		proposer_fee_recipient {blob} NOT NULL,
		gas_limit BIGINT NOT NULL,
		gas_used BIGINT NOT NULL,
		value {valuetext} NOT NULL,
		block_number BIGINT NOT NULL,
		num_tx BIGINT NOT NULL,
		delivered_at BIGINT NOT NULL
	);
	CREATE INDEX relay_delivered_block_hash ON relay_delivered(block_hash);
	CREATE INDEX relay_delivered_block_number ON relay_delivered(block_number);
	CREATE INDEX relay_delivered_proposer ON relay_delivered(proposer_pubkey, slot);
	CREATE INDEX relay_delivered_builder ON relay_delivered(builder_pubkey, slot);
	CREATE INDEX relay_delivered_value ON relay_delivered(value, slot);
	CREATE TABLE relay_submissions (
		slot BIGINT NOT NULL,
		parent_hash {blob} NOT NULL,
		block_hash {blob} NOT NULL,
		builder_pubkey {blob} NOT NULL,
		proposer_pubkey {blob} NOT NULL,
		proposer_fee_recipient {blob} NOT NULL,
		gas_limit BIGINT NOT NULL,
		gas_used BIGINT NOT NULL,
		value {valuetext} NOT NULL,
		block_number BIGINT NOT NULL,
		num_tx BIGINT NOT NULL,
		received_at BIGINT NOT NULL,
		sim_success BOOLEAN NOT NULL,
		sim_error TEXT NOT NULL,
		optimistic BOOLEAN NOT NULL,
		PRIMARY KEY (block_hash, builder_pubkey, received_at)
	);
	CREATE INDEX relay_submissions_slot ON relay_submissions(slot, received_at);
	CREATE INDEX relay_submissions_block_number ON relay_submissions(block_number);
	CREATE INDEX relay_submissions_builder ON relay_submissions(builder_pubkey, slot)`

// valueDigits is the width of a stored value: 2^256-1 has 78 decimal digits.
const valueDigits = 78

// encodeValue renders v as fixed-width decimal text (see relaySchema).
func encodeValue(v beacon.U256) string {
	s := v.String()
	return strings.Repeat("0", valueDigits-len(s)) + s
}

// decodeValue parses a stored value.
func decodeValue(s string) (beacon.U256, error) {
	x, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return beacon.U256{}, fmt.Errorf("stored value %q is not a decimal number", s)
	}
	return beacon.U256FromBig(x)
}

// checkInt64 rejects numbers the BIGINT columns cannot hold. Slots, gas and
// block numbers never get there on a real chain; a hostile request might.
func checkInt64(name string, v uint64) error {
	if v > 1<<63-1 {
		return fmt.Errorf("store: %s %d is out of range (at most 2^63-1)", name, v)
	}
	return nil
}

func checkTrace(t *beacon.BidTraceV2) error {
	for _, f := range []struct {
		n string
		v uint64
	}{{"slot", t.Slot}, {"gas_limit", t.GasLimit}, {"gas_used", t.GasUsed}, {"block_number", t.BlockNumber}, {"num_tx", t.NumTx}} {
		if err := checkInt64(f.n, f.v); err != nil {
			return err
		}
	}
	return nil
}

// PutRegistrations implements Relay.
func (s *sqlStore) PutRegistrations(ctx context.Context, regs []Registration) (int, error) {
	if len(regs) == 0 {
		return 0, nil
	}
	for i := range regs {
		m := &regs[i].Message
		if err := checkInt64("gas_limit", m.GasLimit); err != nil {
			return 0, err
		}
		if err := checkInt64("timestamp", m.Timestamp); err != nil {
			return 0, err
		}
	}
	written := 0
	err := s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		written = 0
		var changed []beacon.BLSPubkey
		for i := range regs {
			r := &regs[i]
			m := &r.Message
			res, err := w.exec(ctx, upsertRegistration, m.Pubkey[:], m.FeeRecipient[:], int64(m.GasLimit), int64(m.Timestamp), r.Signature[:], r.ReceivedAt)
			if err != nil {
				return fmt.Errorf("store: registration of %s: %w", m.Pubkey, err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			written += int(n)
			if n > 0 {
				changed = append(changed, m.Pubkey)
			}
		}
		if written > 0 {
			return s.notifyRegistrations(ctx, w, changed)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return written, nil
}

// upsertRegistration replaces a stored registration only with a strictly
// newer one.
const upsertRegistration = `INSERT INTO relay_registrations
	(pubkey, fee_recipient, gas_limit, timestamp, signature, received_at) VALUES (?, ?, ?, ?, ?, ?)
	ON CONFLICT (pubkey) DO UPDATE SET
		fee_recipient = excluded.fee_recipient, gas_limit = excluded.gas_limit,
		timestamp = excluded.timestamp, signature = excluded.signature, received_at = excluded.received_at
	WHERE excluded.timestamp > relay_registrations.timestamp`

const registrationCols = `pubkey, fee_recipient, gas_limit, timestamp, signature, received_at`

func scanRegistration(sc interface{ Scan(...any) error }) (*Registration, error) {
	var pk, fr, sig []byte
	var gas, ts int64
	r := new(Registration)
	if err := sc.Scan(&pk, &fr, &gas, &ts, &sig, &r.ReceivedAt); err != nil {
		return nil, err
	}
	m := &r.Message
	if err := copyExact(m.Pubkey[:], pk, "pubkey"); err != nil {
		return nil, err
	}
	if err := copyExact(m.FeeRecipient[:], fr, "fee_recipient"); err != nil {
		return nil, err
	}
	if err := copyExact(r.Signature[:], sig, "signature"); err != nil {
		return nil, err
	}
	m.GasLimit, m.Timestamp = uint64(gas), uint64(ts)
	return r, nil
}

// copyExact copies a stored fixed-size byte column, refusing a corrupt length.
func copyExact(dst, src []byte, col string) error {
	if len(src) != len(dst) {
		return fmt.Errorf("store: corrupt %s column: %d bytes, expected %d", col, len(src), len(dst))
	}
	copy(dst, src)
	return nil
}

// Registration implements Relay.
func (s *sqlStore) Registration(ctx context.Context, pubkey beacon.BLSPubkey) (*Registration, error) {
	defer queryTimer.UpdateSince(time.Now())
	row := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT `+registrationCols+` FROM relay_registrations WHERE pubkey = ?`), pubkey[:])
	r, err := scanRegistration(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: no registration for validator %s", ErrNotFound, pubkey)
	}
	return r, err
}

// ForEachRegistration implements Relay.
func (s *sqlStore) ForEachRegistration(ctx context.Context, fn func(*Registration) error) error {
	return eachRow(ctx, s.db, `SELECT `+registrationCols+` FROM relay_registrations ORDER BY pubkey`, scanRegistration, fn)
}

// eachRow runs query and hands every row, as scan reads it, to fn; the
// first error of the query, a scan or fn ends it.
func eachRow[T any](ctx context.Context, db *sql.DB, query string, scan func(interface{ Scan(...any) error }) (T, error), fn func(T) error, args ...any) error {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return err
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	return rows.Err()
}

const traceCols = `slot, parent_hash, block_hash, builder_pubkey, proposer_pubkey, proposer_fee_recipient,
	gas_limit, gas_used, value, block_number, num_tx`

func traceArgs(t *beacon.BidTraceV2) []any {
	return []any{int64(t.Slot), t.ParentHash[:], t.BlockHash[:], t.BuilderPubkey[:], t.ProposerPubkey[:],
		t.ProposerFeeRecipient[:], int64(t.GasLimit), int64(t.GasUsed), encodeValue(t.Value), int64(t.BlockNumber), int64(t.NumTx)}
}

// traceScan holds the scan targets of traceCols.
type traceScan struct {
	slot, gasLimit, gasUsed, number, numTx int64
	parent, hash, builder, proposer, fee   []byte
	value                                  string
}

func (ts *traceScan) dest() []any {
	return []any{&ts.slot, &ts.parent, &ts.hash, &ts.builder, &ts.proposer, &ts.fee,
		&ts.gasLimit, &ts.gasUsed, &ts.value, &ts.number, &ts.numTx}
}

func (ts *traceScan) trace() (beacon.BidTraceV2, error) {
	var t beacon.BidTraceV2
	for _, c := range []struct {
		dst, src []byte
		col      string
	}{
		{t.ParentHash[:], ts.parent, "parent_hash"}, {t.BlockHash[:], ts.hash, "block_hash"},
		{t.BuilderPubkey[:], ts.builder, "builder_pubkey"}, {t.ProposerPubkey[:], ts.proposer, "proposer_pubkey"},
		{t.ProposerFeeRecipient[:], ts.fee, "proposer_fee_recipient"},
	} {
		if err := copyExact(c.dst, c.src, c.col); err != nil {
			return t, err
		}
	}
	v, err := decodeValue(ts.value)
	if err != nil {
		return t, err
	}
	t.Slot, t.GasLimit, t.GasUsed, t.Value = uint64(ts.slot), uint64(ts.gasLimit), uint64(ts.gasUsed), v
	t.BlockNumber, t.NumTx = uint64(ts.number), uint64(ts.numTx)
	return t, nil
}

// deliveredCols are the delivered-payload columns after the trace that a
// delivery writes; deliveredRead adds those set later.
const (
	deliveredCols = `delivered_at, alpha_block_hash, beta_gas_used, beta_bundle_count`
	deliveredRead = deliveredCols + `, canonical`
)

func scanDelivered(sc interface{ Scan(...any) error }) (*DeliveredPayload, error) {
	var (
		ts           traceScan
		alpha        []byte
		gas, bundles int64
		canonical    sql.NullInt64
	)
	d := new(DeliveredPayload)
	if err := sc.Scan(append(ts.dest(), &d.DeliveredAt, &alpha, &gas, &bundles, &canonical)...); err != nil {
		return nil, err
	}
	if canonical.Valid {
		c := canonical.Int64 != 0
		d.Canonical = &c
	}
	t, err := ts.trace()
	if err != nil {
		return nil, err
	}
	d.BidTraceV2 = t
	if len(alpha) > 0 {
		var h beacon.Root
		if err := copyExact(h[:], alpha, "alpha_block_hash"); err != nil {
			return nil, err
		}
		d.AlphaBlockHash = &h
	}
	d.BetaGasUsed, d.BetaBundleCount = uint64(gas), uint64(bundles)
	return d, nil
}

// PutDelivered implements Relay.
func (s *sqlStore) PutDelivered(ctx context.Context, d *DeliveredPayload) (*DeliveredPayload, error) {
	if err := checkTrace(&d.BidTraceV2); err != nil {
		return nil, err
	}
	var prev *DeliveredPayload
	err := s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		prev = nil
		var alpha []byte
		if d.AlphaBlockHash != nil {
			alpha = d.AlphaBlockHash[:]
		}
		res, err := w.exec(ctx, `INSERT INTO relay_delivered (`+traceCols+`, `+deliveredCols+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (slot) DO NOTHING`,
			append(traceArgs(&d.BidTraceV2), d.DeliveredAt, alpha, int64(d.BetaGasUsed), int64(d.BetaBundleCount))...)
		if err != nil {
			return fmt.Errorf("store: recording delivered payload for slot %d: %w", d.Slot, err)
		}
		n, err := res.RowsAffected()
		if err != nil || n == 1 {
			return err
		}
		prev, err = scanDelivered(w.tx.QueryRowContext(ctx, s.d.rebind(`SELECT `+traceCols+`, `+deliveredRead+` FROM relay_delivered WHERE slot = ?`), int64(d.Slot)))
		if err != nil {
			return fmt.Errorf("store: reading delivered payload of slot %d: %w", d.Slot, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if prev != nil {
		return prev, fmt.Errorf("%w: slot %d, block hash %s", ErrSlotDelivered, d.Slot, prev.BlockHash)
	}
	return nil, nil
}

// Delivered implements Relay.
func (s *sqlStore) Delivered(ctx context.Context, slot uint64) (*DeliveredPayload, error) {
	defer queryTimer.UpdateSince(time.Now())
	if slot > 1<<63-1 {
		return nil, fmt.Errorf("%w: no payload delivered for slot %d", ErrNotFound, slot)
	}
	d, err := scanDelivered(s.db.QueryRowContext(ctx, s.d.rebind(`SELECT `+traceCols+`, `+deliveredRead+` FROM relay_delivered WHERE slot = ?`), int64(slot)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: no payload delivered for slot %d", ErrNotFound, slot)
	}
	return d, err
}

// LatestDeliveredSlot implements Relay.
func (s *sqlStore) LatestDeliveredSlot(ctx context.Context) (uint64, bool, error) {
	defer queryTimer.UpdateSince(time.Now())
	var slot sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT MAX(slot) FROM relay_delivered`).Scan(&slot); err != nil {
		return 0, false, err
	}
	return uint64(slot.Int64), slot.Valid, nil
}

// where accumulates SQL conditions and their arguments.
type where struct {
	conds []string
	args  []any
}

func (w *where) add(cond string, arg any) {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, arg)
}

// addUint adds cond for a non-zero filter value that fits the column; a
// filter beyond BIGINT matches nothing.
func (w *where) addUint(cond string, v uint64) {
	switch {
	case v == 0:
	case v > 1<<63-1:
		w.conds = append(w.conds, "1 = 0")
	default:
		w.add(cond, int64(v))
	}
}

// String renders the WHERE clause ("" without conditions).
func (w *where) String() string {
	if len(w.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(w.conds, " AND ")
}

func limitClause(n uint64) string {
	if n == 0 || n > 1<<63-1 {
		return ""
	}
	return fmt.Sprintf(" LIMIT %d", n)
}

// DeliveredPayloads implements Relay.
func (s *sqlStore) DeliveredPayloads(ctx context.Context, q DeliveredQuery) ([]DeliveredPayload, error) {
	defer queryTimer.UpdateSince(time.Now())
	var w where
	w.addUint("slot = ?", q.Slot)
	if q.Cursor > 0 && q.Cursor <= 1<<63-1 {
		w.add("slot <= ?", int64(q.Cursor))
	}
	w.addUint("block_number = ?", q.BlockNumber)
	if q.BlockHash != nil {
		w.add("block_hash = ?", q.BlockHash[:])
	}
	if q.ProposerPubkey != nil {
		w.add("proposer_pubkey = ?", q.ProposerPubkey[:])
	}
	if q.BuilderPubkey != nil {
		w.add("builder_pubkey = ?", q.BuilderPubkey[:])
	}
	order := " ORDER BY slot DESC"
	switch q.Order {
	case OrderValueAsc:
		order = " ORDER BY value ASC, slot ASC" // both directions follow the (value, slot) index
	case OrderValueDesc:
		order = " ORDER BY value DESC, slot DESC"
	}
	return s.queryDelivered(ctx, w.String()+order+limitClause(q.Limit), w.args...)
}

// queryDelivered reads the delivered records that the clause after FROM
// relay_delivered selects.
func (s *sqlStore) queryDelivered(ctx context.Context, clause string, args ...any) ([]DeliveredPayload, error) {
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT `+traceCols+`, `+deliveredRead+` FROM relay_delivered`+clause), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []DeliveredPayload{}
	for rows.Next() {
		d, err := scanDelivered(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *d)
	}
	return out, rows.Err()
}

// PutBlockSubmissions implements Relay.
func (s *sqlStore) PutBlockSubmissions(ctx context.Context, subs []BlockSubmission) error {
	if len(subs) == 0 {
		return nil
	}
	for i := range subs {
		if err := checkTrace(&subs[i].BidTraceV2); err != nil {
			return err
		}
	}
	return s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		for i := range subs {
			b := &subs[i]
			args := append(traceArgs(&b.BidTraceV2), b.ReceivedAt, b.SimSuccess, b.SimError, b.Optimistic)
			if _, err := w.exec(ctx, insertSubmission, append(args, relayBuiltArgs(b)...)...); err != nil {
				return fmt.Errorf("store: block submission %s: %w", b.BlockHash, err)
			}
		}
		return nil
	})
}

const insertSubmission = `INSERT INTO relay_submissions (` + traceCols + `, received_at, sim_success, sim_error, optimistic, ` + relayBuiltCols + `)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (block_hash, builder_pubkey, received_at) DO NOTHING`

// BlockSubmissions implements Relay.
func (s *sqlStore) BlockSubmissions(ctx context.Context, q SubmissionQuery) ([]BlockSubmission, error) {
	defer queryTimer.UpdateSince(time.Now())
	var w where
	w.conds = append(w.conds, "(sim_success OR optimistic)")
	w.addUint("slot = ?", q.Slot)
	w.addUint("block_number = ?", q.BlockNumber)
	if q.BlockHash != nil {
		w.add("block_hash = ?", q.BlockHash[:])
	}
	if q.BuilderPubkey != nil {
		w.add("builder_pubkey = ?", q.BuilderPubkey[:])
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT `+traceCols+`, received_at, sim_success, sim_error, optimistic, `+relayBuiltCols+` FROM relay_submissions`+
		w.String()+" ORDER BY slot DESC, received_at DESC"+limitClause(q.Limit)), w.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []BlockSubmission{}
	for rows.Next() {
		var ts traceScan
		var rb relayBuiltScan
		var b BlockSubmission
		if err := rows.Scan(append(ts.dest(), &b.ReceivedAt, &b.SimSuccess, &b.SimError, &b.Optimistic, &rb.sig, &rb.alpha, &rb.builder)...); err != nil {
			return nil, err
		}
		if b.BidTraceV2, err = ts.trace(); err != nil {
			return nil, err
		}
		if err := rb.fill(&b); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// canonicalSchema is migration 10: whether a delivered block became
// canonical (NULL until the relay checked its chain past the slot), and
// the outcomes of a slot found by slot, for the auction operator's account.
const canonicalSchema = `ALTER TABLE relay_delivered ADD COLUMN canonical BIGINT;
	CREATE INDEX relay_delivered_unchecked ON relay_delivered(slot) WHERE canonical IS NULL;
	CREATE INDEX beta_outcomes_by_slot ON beta_outcomes(slot);`

// DeliveredUnchecked implements Relay.
func (s *sqlStore) DeliveredUnchecked(ctx context.Context, upTo uint64, limit int) ([]DeliveredPayload, error) {
	defer queryTimer.UpdateSince(time.Now())
	upTo = min(upTo, 1<<63-1)
	return s.queryDelivered(ctx, ` WHERE canonical IS NULL AND slot <= ? ORDER BY slot`+limitClause(uint64(max(limit, 0))), int64(upTo))
}

// SetDeliveredCanonical implements Relay.
func (s *sqlStore) SetDeliveredCanonical(ctx context.Context, slot uint64, blockHash beacon.Root, canonical bool) error {
	if err := checkInt64("slot", slot); err != nil {
		return err
	}
	v := int64(0)
	if canonical {
		v = 1
	}
	return s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		_, err := w.exec(ctx, `UPDATE relay_delivered SET canonical = ? WHERE slot = ? AND block_hash = ?`, v, int64(slot), blockHash[:])
		return err
	})
}
