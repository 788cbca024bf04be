package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"
	"github.com/jackc/pgx/v5"

	"github.com/gavel-eth/gavel/core/beacon"
)

// sharedBidsSchema is migration 4: verified bids shared between relay
// instances on one PostgreSQL database (the table exists on SQLite too, so
// both databases have one schema history, but only PostgreSQL fills it).
const sharedBidsSchema = `
	CREATE TABLE relay_bids (
		block_hash {blob} PRIMARY KEY,
		slot BIGINT NOT NULL,
		parent_hash {blob} NOT NULL,
		proposer_pubkey {blob} NOT NULL,
		builder_pubkey {blob} NOT NULL,
		value {valuetext} NOT NULL,
		received_at BIGINT NOT NULL,
		cancellable BOOLEAN NOT NULL,
		fork INTEGER NOT NULL,
		submission {blob} NOT NULL,
		origin TEXT NOT NULL,
		stored_at BIGINT NOT NULL
	);
	CREATE INDEX relay_bids_auction ON relay_bids(slot, parent_hash, proposer_pubkey, value)`

// sharedBetaSchema is migration 5: merged (beta) blocks an instance served
// in getHeader, so that getPayload on any instance can deliver them.
const sharedBetaSchema = `
	CREATE TABLE relay_beta_bids (
		block_hash {blob} PRIMARY KEY,
		slot BIGINT NOT NULL,
		alpha_block_hash {blob} NOT NULL,
		block {blob} NOT NULL,
		meta {blob} NOT NULL,
		origin TEXT NOT NULL
	);
	CREATE INDEX relay_beta_bids_slot ON relay_beta_bids(slot)`

// sharedStorageSchema is migration 14: a shared bid's submission and a
// merged block are stored out of line without compression. PostgreSQL
// otherwise tries to compress every value over 2 KB before storing it; a
// block's transactions (signatures, hashes, addresses) rarely shrink by the
// quarter it requires, so the attempt was wasted: about 0.5 ms of the
// database server's CPU for each 24 KB bid, inside the statement a
// submission waits for and before the other instances are notified.
const sharedStorageSchema = postgresOnly + `ALTER TABLE relay_bids ALTER COLUMN submission SET STORAGE EXTERNAL;
	` + postgresOnly + `ALTER TABLE relay_beta_bids ALTER COLUMN block SET STORAGE EXTERNAL`

// Notification channels of shared relay state (PostgreSQL LISTEN/NOTIFY).
const (
	bidsChannel          = "gavel_relay_bids"
	registrationsChannel = "gavel_relay_registrations"
)

// SharedBid is a verified bid as relay instances share it: enough to rebuild
// the bid (the builder's submission, SSZ-encoded) and to order it in its
// auction without decoding.
type SharedBid struct {
	Slot           uint64
	ParentHash     beacon.Root
	BlockHash      beacon.Root
	ProposerPubkey beacon.BLSPubkey
	BuilderPubkey  beacon.BLSPubkey
	Value          beacon.U256
	// ReceivedAt is when the verifying instance received the submission,
	// unix microseconds.
	ReceivedAt  int64
	Cancellable bool
	// Fork is the submission's params.ConsensusFork.
	Fork uint8
	// Submission is the builder's submission, SSZ.
	Submission []byte
	// Origin names the instance that verified the bid.
	Origin string
	// StoredAt is when the verifying instance stored it, unix microseconds.
	StoredAt int64
}

// SharedBeta is a merged (beta) block as relay instances share it: the
// block, the alpha bid it extends (a shared bid too) and what the merge
// recorded, in encodings the relay chooses.
type SharedBeta struct {
	BlockHash beacon.Root
	Slot      uint64
	AlphaHash beacon.Root
	// Block is the merged block (the relay's encoding).
	Block []byte
	// Meta is what the merge recorded beside the block (the relay's encoding).
	Meta []byte
	// Origin names the instance that merged it.
	Origin string
}

// Notification is a change another relay instance made to shared state.
type Notification struct {
	// BlockHash is set for a new shared bid.
	BlockHash beacon.Root
	// Bid is the new shared bid itself when it was small enough to travel
	// in the notification (nil: read it by BlockHash).
	Bid *SharedBid
	// Origin is the instance that made the change.
	Origin string
	// Registrations reports that registrations were written: those of
	// Pubkeys, or any (Pubkeys nil) when too many to name.
	Registrations bool
	Pubkeys       []beacon.BLSPubkey
	// Demoted reports that instance Origin demoted builder Builder for a
	// block of Slot (its bids of the slot are withdrawn).
	Demoted bool
	Builder beacon.BLSPubkey
	Slot    uint64
	// Resync reports that the listening connection is (re-)established:
	// notifications from before it may have been missed. It is the first
	// notification Listen delivers.
	Resync bool
}

// Shared is the state relay instances on one PostgreSQL database share
// beyond the Relay records: verified bids, and notifications of new bids
// and registrations. Shared returns it for a PostgreSQL store.
type Shared interface {
	// PutSharedBid stores b and notifies the other instances (in the same
	// transaction), with b itself in the notification when it fits
	// (Notification.Bid, bidnote.go). The commit may not be flushed to disk yet when it
	// returns (see sqlStore.PutSharedBid). Storing a block hash again is a
	// no-op.
	PutSharedBid(ctx context.Context, b *SharedBid) error
	// SharedBid returns the bid of a block hash, or ErrNotFound.
	SharedBid(ctx context.Context, blockHash beacon.Root) (*SharedBid, error)
	// BestSharedBid returns the highest-value bid of an auction (ties: the
	// earliest received), or ErrNotFound.
	BestSharedBid(ctx context.Context, slot uint64, parent beacon.Root, proposer beacon.BLSPubkey) (*SharedBid, error)
	// SharedBidsFrom calls fn for every bid of slot or later (an instance
	// catching up after its notification connection was re-established).
	SharedBidsFrom(ctx context.Context, slot uint64, fn func(*SharedBid) error) error
	// PutSharedBeta stores a merged block durably (storing a block hash
	// again is a no-op). No notification: others read it when asked for it.
	PutSharedBeta(ctx context.Context, b *SharedBeta) error
	// SharedBeta returns the merged block of a block hash, or ErrNotFound.
	SharedBeta(ctx context.Context, blockHash beacon.Root) (*SharedBeta, error)
	// PutDeliveredLatest is PutDelivered that also refuses, with
	// ErrLaterDelivered, a slot older than the latest recorded: the check
	// and the insert run under one lock every instance takes, so two
	// instances cannot record slots out of order.
	PutDeliveredLatest(ctx context.Context, d *DeliveredPayload) (existing *DeliveredPayload, err error)
	// PruneSharedBids deletes the bids and merged blocks of slots before slot.
	PruneSharedBids(ctx context.Context, slot uint64) error
	// RegistrationsSince calls fn for every registration received at or
	// after since (unix ms), oldest first.
	RegistrationsSince(ctx context.Context, since int64, fn func(*Registration) error) error
	// Listen calls fn for every notification until ctx ends, reconnecting
	// when the connection is lost; each (re)connection is reported first
	// with Resync. fn runs on Listen's goroutine.
	Listen(ctx context.Context, fn func(Notification)) error
}

// SharedOf returns the shared state of st, or nil when st's database is
// not one several instances can share (SQLite).
func SharedOf(st Store) Shared {
	if s, ok := st.(*sqlStore); ok && s.d.name == "postgres" {
		return s
	}
	return nil
}

var (
	sharedPutTimer    = metrics.NewRegisteredTimer("gavel/store/sharedbids/put", nil)
	sharedLoadTimer   = metrics.NewRegisteredTimer("gavel/store/sharedbids/load", nil)
	listenReconnects  = metrics.NewRegisteredMeter("gavel/store/listen/reconnects", nil)
	notificationsSeen = metrics.NewRegisteredMeter("gavel/store/listen/notifications", nil)
)

const sharedBidCols = `block_hash, slot, parent_hash, proposer_pubkey, builder_pubkey, value, received_at, cancellable, fork, submission, origin, stored_at`

// sharedBidConns bounds the connections that write shared bids.
const sharedBidConns = 8

// PutSharedBid implements Shared.
//
// On PostgreSQL the row and its notification are one statement, committed
// asynchronously (synchronous_commit off on sharedDB's connections): the
// other instances see the bid as soon as it is committed, without the
// commit waiting for a WAL flush, which was most of a bid's propagation
// time and of a submission's extra cost over SQLite. What that gives up is
// only the bids of the last few hundred milliseconds should the database
// server itself crash (PostgreSQL flushes asynchronous commits within
// three wal_writer_delay, 600 ms by default); the transaction is never
// left half applied. A shared bid is a copy of what the instance that
// verified it holds in memory and what the builder re-sends within the
// slot (the reference relay keeps its bids in Redis, not durably at all);
// the records that must survive a crash, registrations and deliveries,
// keep synchronous commits.
func (s *sqlStore) PutSharedBid(ctx context.Context, b *SharedBid) error {
	if err := checkInt64("slot", b.Slot); err != nil {
		return err
	}
	start := time.Now()
	defer sharedPutTimer.UpdateSince(start)
	if s.sharedDB != nil {
		_, err := s.sharedDB.ExecContext(ctx, `WITH stored AS (
			INSERT INTO relay_bids (`+sharedBidCols+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
			ON CONFLICT (block_hash) DO NOTHING RETURNING 1)
			SELECT pg_notify('`+bidsChannel+`', $13) FROM stored`,
			b.BlockHash[:], int64(b.Slot), b.ParentHash[:], b.ProposerPubkey[:], b.BuilderPubkey[:], encodeValue(b.Value),
			b.ReceivedAt, b.Cancellable, int(b.Fork), b.Submission, b.Origin, b.StoredAt, bidNotePayload(b))
		if err != nil {
			return fmt.Errorf("store: sharing bid %s: %w", b.BlockHash, err)
		}
		return nil
	}
	return s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		res, err := w.exec(ctx, `INSERT INTO relay_bids (`+sharedBidCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (block_hash) DO NOTHING`,
			b.BlockHash[:], int64(b.Slot), b.ParentHash[:], b.ProposerPubkey[:], b.BuilderPubkey[:], encodeValue(b.Value),
			b.ReceivedAt, b.Cancellable, int(b.Fork), b.Submission, b.Origin, b.StoredAt)
		if err != nil {
			return fmt.Errorf("store: sharing bid %s: %w", b.BlockHash, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		_, err = w.exec(ctx, `SELECT pg_notify('`+bidsChannel+`', ?)`, bidNotePayload(b))
		return err
	})
}

func scanSharedBid(sc interface{ Scan(...any) error }) (*SharedBid, error) {
	var hash, parent, proposer, builder []byte
	var slot int64
	var value string
	var fork int
	b := new(SharedBid)
	if err := sc.Scan(&hash, &slot, &parent, &proposer, &builder, &value, &b.ReceivedAt, &b.Cancellable, &fork, &b.Submission, &b.Origin, &b.StoredAt); err != nil {
		return nil, err
	}
	for _, c := range []struct {
		dst, src []byte
		col      string
	}{{b.BlockHash[:], hash, "block_hash"}, {b.ParentHash[:], parent, "parent_hash"}, {b.ProposerPubkey[:], proposer, "proposer_pubkey"}, {b.BuilderPubkey[:], builder, "builder_pubkey"}} {
		if err := copyExact(c.dst, c.src, c.col); err != nil {
			return nil, err
		}
	}
	v, err := decodeValue(value)
	if err != nil {
		return nil, err
	}
	b.Slot, b.Value, b.Fork = uint64(slot), v, uint8(fork)
	return b, nil
}

// SharedBid implements Shared.
func (s *sqlStore) SharedBid(ctx context.Context, blockHash beacon.Root) (*SharedBid, error) {
	start := time.Now()
	defer sharedLoadTimer.UpdateSince(start)
	b, err := scanSharedBid(s.db.QueryRowContext(ctx, s.d.rebind(`SELECT `+sharedBidCols+` FROM relay_bids WHERE block_hash = ?`), blockHash[:]))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: no shared bid for block %s", ErrNotFound, blockHash)
	}
	return b, err
}

// BestSharedBid implements Shared.
func (s *sqlStore) BestSharedBid(ctx context.Context, slot uint64, parent beacon.Root, proposer beacon.BLSPubkey) (*SharedBid, error) {
	if slot > 1<<63-1 {
		return nil, fmt.Errorf("%w: no shared bid for slot %d", ErrNotFound, slot)
	}
	start := time.Now()
	defer sharedLoadTimer.UpdateSince(start)
	b, err := scanSharedBid(s.db.QueryRowContext(ctx, s.d.rebind(`SELECT `+sharedBidCols+` FROM relay_bids
		WHERE slot = ? AND parent_hash = ? AND proposer_pubkey = ? ORDER BY value DESC, received_at ASC LIMIT 1`), int64(slot), parent[:], proposer[:]))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: no shared bid for slot %d", ErrNotFound, slot)
	}
	return b, err
}

// SharedBidsFrom implements Shared.
func (s *sqlStore) SharedBidsFrom(ctx context.Context, slot uint64, fn func(*SharedBid) error) error {
	if slot > 1<<63-1 {
		return nil
	}
	return eachRow(ctx, s.db, s.d.rebind(`SELECT `+sharedBidCols+` FROM relay_bids WHERE slot >= ? ORDER BY slot, received_at`), scanSharedBid, fn, int64(slot))
}

// PruneSharedBids implements Shared.
func (s *sqlStore) PruneSharedBids(ctx context.Context, slot uint64) error {
	if slot > 1<<63-1 {
		slot = 1<<63 - 1
	}
	if _, err := s.db.ExecContext(ctx, s.d.rebind(`DELETE FROM relay_bids WHERE slot < ?`), int64(slot)); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, s.d.rebind(`DELETE FROM relay_beta_bids WHERE slot < ?`), int64(slot))
	return err
}

// ErrLaterDelivered is returned by PutDeliveredLatest when a later slot
// than the one given was recorded as delivered.
var ErrLaterDelivered = errors.New("a payload for a later slot was already delivered")

// deliveryLock is the advisory lock PutDeliveredLatest holds for its
// transaction.
const deliveryLock = 7263002

// PutDeliveredLatest implements Shared. It runs in a transaction of its own
// (not the group committer's: the lock must not wait while other writes hold
// their row locks); a delivery is once per slot.
func (s *sqlStore) PutDeliveredLatest(ctx context.Context, d *DeliveredPayload) (*DeliveredPayload, error) {
	if err := checkTrace(&d.BidTraceV2); err != nil {
		return nil, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("SELECT pg_advisory_xact_lock(%d)", deliveryLock)); err != nil {
		return nil, err
	}
	var latest sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(slot) FROM relay_delivered`).Scan(&latest); err != nil {
		return nil, err
	}
	if latest.Valid && uint64(latest.Int64) > d.Slot {
		return nil, fmt.Errorf("%w: slot %d, latest %d", ErrLaterDelivered, d.Slot, latest.Int64)
	}
	var alpha []byte
	if d.AlphaBlockHash != nil {
		alpha = d.AlphaBlockHash[:]
	}
	res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO relay_delivered (`+traceCols+`, `+deliveredCols+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (slot) DO NOTHING`),
		append(traceArgs(&d.BidTraceV2), d.DeliveredAt, alpha, int64(d.BetaGasUsed), int64(d.BetaBundleCount))...)
	if err != nil {
		return nil, fmt.Errorf("store: recording delivered payload for slot %d: %w", d.Slot, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, err
	} else if n == 0 {
		prev, err := scanDelivered(tx.QueryRowContext(ctx, s.d.rebind(`SELECT `+traceCols+`, `+deliveredRead+` FROM relay_delivered WHERE slot = ?`), int64(d.Slot)))
		if err != nil {
			return nil, fmt.Errorf("store: reading delivered payload of slot %d: %w", d.Slot, err)
		}
		return prev, fmt.Errorf("%w: slot %d, block hash %s", ErrSlotDelivered, d.Slot, prev.BlockHash)
	}
	return nil, tx.Commit()
}

// PutSharedBeta implements Shared.
func (s *sqlStore) PutSharedBeta(ctx context.Context, b *SharedBeta) error {
	if err := checkInt64("slot", b.Slot); err != nil {
		return err
	}
	start := time.Now()
	defer sharedPutTimer.UpdateSince(start)
	return s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		_, err := w.exec(ctx, `INSERT INTO relay_beta_bids (block_hash, slot, alpha_block_hash, block, meta, origin) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (block_hash) DO NOTHING`,
			b.BlockHash[:], int64(b.Slot), b.AlphaHash[:], b.Block, b.Meta, b.Origin)
		if err != nil {
			return fmt.Errorf("store: sharing merged block %s: %w", b.BlockHash, err)
		}
		return nil
	})
}

// SharedBeta implements Shared.
func (s *sqlStore) SharedBeta(ctx context.Context, blockHash beacon.Root) (*SharedBeta, error) {
	start := time.Now()
	defer sharedLoadTimer.UpdateSince(start)
	var hash, alpha []byte
	var slot int64
	b := new(SharedBeta)
	err := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT block_hash, slot, alpha_block_hash, block, meta, origin FROM relay_beta_bids WHERE block_hash = ?`), blockHash[:]).
		Scan(&hash, &slot, &alpha, &b.Block, &b.Meta, &b.Origin)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: no merged block %s", ErrNotFound, blockHash)
	}
	if err != nil {
		return nil, err
	}
	if err := copyExact(b.BlockHash[:], hash, "block_hash"); err != nil {
		return nil, err
	}
	if err := copyExact(b.AlphaHash[:], alpha, "alpha_block_hash"); err != nil {
		return nil, err
	}
	b.Slot = uint64(slot)
	return b, nil
}

// RegistrationsSince implements Shared.
func (s *sqlStore) RegistrationsSince(ctx context.Context, since int64, fn func(*Registration) error) error {
	return eachRow(ctx, s.db, s.d.rebind(`SELECT `+registrationCols+` FROM relay_registrations WHERE received_at >= ? ORDER BY received_at`), scanRegistration, fn, since)
}

// maxNotifiedPubkeys is how many pubkeys a registrations notification
// names (PostgreSQL's payload limit is 8000 bytes); beyond, it names none
// and listeners re-read recent registrations.
const maxNotifiedPubkeys = 64

// notifyRegistrations is run in PutRegistrations' transaction on
// PostgreSQL when rows were written: the payload is the changed pubkeys,
// hex, comma-separated, or empty when there are too many.
func (s *sqlStore) notifyRegistrations(ctx context.Context, w *txWriter, changed []beacon.BLSPubkey) error {
	if s.d.name != "postgres" {
		return nil
	}
	var payload string
	if len(changed) <= maxNotifiedPubkeys {
		hexes := make([]string, len(changed))
		for i := range changed {
			hexes[i] = hex.EncodeToString(changed[i][:])
		}
		payload = strings.Join(hexes, ",")
	}
	_, err := w.exec(ctx, `SELECT pg_notify('`+registrationsChannel+`', ?)`, payload)
	return err
}

// parsePubkeys reads a registrations notification's payload (nil when it
// names none, or is malformed).
func parsePubkeys(payload string) []beacon.BLSPubkey {
	if payload == "" {
		return nil
	}
	parts := strings.Split(payload, ",")
	out := make([]beacon.BLSPubkey, len(parts))
	for i, p := range parts {
		raw, err := hex.DecodeString(p)
		if err != nil || len(raw) != len(out[i]) {
			return nil
		}
		copy(out[i][:], raw)
	}
	return out
}

// Listen implements Shared. It holds one connection of its own outside the
// pool (LISTEN is per connection).
func (s *sqlStore) Listen(ctx context.Context, fn func(Notification)) error {
	if s.listenCfg == nil {
		return errors.New("store: only PostgreSQL delivers notifications")
	}
	backoff := 50 * time.Millisecond
	for {
		err := s.listen(ctx, fn)
		if ctx.Err() != nil {
			return nil
		}
		listenReconnects.Mark(1)
		log.Warn("Store lost its notification connection; reconnecting", "err", err, "retry", backoff)
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return nil
		}
		backoff = min(2*backoff, 2*time.Second)
	}
}

func (s *sqlStore) listen(ctx context.Context, fn func(Notification)) error {
	cctx, cancel := context.WithTimeout(ctx, s.listenCfg.ConnectTimeout+time.Second)
	conn, err := pgx.ConnectConfig(cctx, s.listenCfg)
	cancel()
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for _, ch := range []string{bidsChannel, registrationsChannel, demotionsChannel} {
		if _, err := conn.Exec(ctx, "LISTEN "+ch); err != nil {
			return err
		}
	}
	fn(Notification{Resync: true})
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		notificationsSeen.Mark(1)
		switch n.Channel {
		case registrationsChannel:
			fn(Notification{Registrations: true, Pubkeys: parsePubkeys(n.Payload)})
		case demotionsChannel:
			pk, slot, origin, ok := parseDemotion(n.Payload)
			if !ok {
				log.Warn("Store ignored a malformed demotion notification", "payload", n.Payload)
				continue
			}
			fn(Notification{Demoted: true, Builder: pk, Slot: slot, Origin: origin})
		case bidsChannel:
			h, origin, carried, err := parseBidNote(n.Payload)
			if err != nil {
				log.Warn("Store ignored a malformed bid notification", "payload", n.Payload, "err", err)
				continue
			}
			var bid *SharedBid
			if carried != "" {
				if bid, err = decodeCarriedBid(h, origin, carried); err != nil {
					log.Warn("Store ignored the bid carried in a notification; it is read by hash", "block", h, "err", err)
				}
			}
			fn(Notification{BlockHash: h, Origin: origin, Bid: bid})
		}
	}
}
