package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/beacon"
)

// betaSlotsSchema is migration 9. A beta block is a block the relay built:
// its bid trace sits among the builders' in relay_submissions with the
// relay's signature and the alpha it was merged from. beta_slots is the
// public record of each delivered beta slot: the settlement the merge read
// (entries as JSON, with the L2 block it was read at), the alpha, the
// merged block and what became of each paid hash (JSON), so that a bidder
// can compare it with the L2 and the L1 block.
const betaSlotsSchema = `
	ALTER TABLE relay_submissions ADD COLUMN signature {blob};
	ALTER TABLE relay_submissions ADD COLUMN alpha_block_hash {blob};
	ALTER TABLE relay_submissions ADD COLUMN alpha_builder_pubkey {blob};
	CREATE TABLE beta_slots (
		slot BIGINT PRIMARY KEY,
		l2_block BIGINT NOT NULL,
		entries TEXT NOT NULL,
		alpha_block_hash {blob} NOT NULL,
		alpha_builder_pubkey {blob} NOT NULL,
		alpha_value {valuetext} NOT NULL,
		block_hash {blob},
		bundles TEXT NOT NULL,
		recorded_at BIGINT NOT NULL
	)`

// BetaSlotEntry is one settlement entry as the relay read it: the gas
// budget paid and the bundle hashes it pays for, in listed order.
type BetaSlotEntry struct {
	Gas    uint64        `json:"gas"`
	Hashes []common.Hash `json:"hashes"`
}

// BetaSlotBundle is what became of one paid hash in a beta slot's
// delivered block.
type BetaSlotBundle struct {
	Hash  common.Hash `json:"hash"`
	Entry uint64      `json:"entry"` // settlement entry that paid it
	State string      `json:"state"` // BetaIncluded or BetaMissed
	// TxHashes are the bundle's txs in the block (a prefix: k of Total);
	// Total is 0 when the bundle was never sent to the relay.
	TxHashes []common.Hash `json:"tx_hashes"`
	Total    uint64        `json:"total"`
	Reason   string        `json:"reason"` // why it stopped early or was missed ("" when whole)
}

// BetaSlotRecord is the public record of one delivered beta slot.
type BetaSlotRecord struct {
	Slot uint64
	// L2Block is the L2 block the settlement was read at (0: unknown).
	L2Block uint64
	Entries []BetaSlotEntry
	// The alpha: the builder's block the beta part was appended to.
	AlphaBlockHash     beacon.Root
	AlphaBuilderPubkey beacon.BLSPubkey
	AlphaValue         beacon.U256
	// BlockHash is the merged block; nil when nothing could be appended and
	// the alpha was delivered as it was.
	BlockHash *beacon.Root
	Bundles   []BetaSlotBundle // one per paid hash, in settlement order
	// RecordedAt is when the relay recorded it, unix milliseconds.
	RecordedAt int64
	// Canonical is whether the delivered block became canonical (nil:
	// unknown); it is the delivered-payload record's, joined on read.
	Canonical *bool
}

// BetaSlotQuery filters beta slot records, newest slot first. Zero fields
// do not filter.
type BetaSlotQuery struct {
	Slot   uint64 // exactly this slot
	Cursor uint64 // slots at or below this one
	Limit  uint64 // at most this many; 0 means no limit
}

// BetaSlots stores the public record of delivered beta slots.
type BetaSlots interface {
	// PutBetaSlot records r, committed when it returns; a slot already
	// recorded keeps its first record (a slot is delivered once).
	PutBetaSlot(ctx context.Context, r *BetaSlotRecord) error
	// BetaSlots answers the beta_slots data query.
	BetaSlots(ctx context.Context, q BetaSlotQuery) ([]BetaSlotRecord, error)
}

// PutBetaSlot implements BetaSlots.
func (s *sqlStore) PutBetaSlot(ctx context.Context, r *BetaSlotRecord) error {
	if err := checkInt64("slot", r.Slot); err != nil {
		return err
	}
	if err := checkInt64("l2_block", r.L2Block); err != nil {
		return err
	}
	entries, err := json.Marshal(nonNil(r.Entries))
	if err != nil {
		return err
	}
	bundles, err := json.Marshal(nonNil(r.Bundles))
	if err != nil {
		return err
	}
	var block []byte
	if r.BlockHash != nil {
		block = r.BlockHash[:]
	}
	return s.gc.submit(ctx, func(ctx context.Context, w *txWriter) error {
		_, err := w.exec(ctx, `INSERT INTO beta_slots (`+betaSlotCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (slot) DO NOTHING`,
			int64(r.Slot), int64(r.L2Block), string(entries), r.AlphaBlockHash[:], r.AlphaBuilderPubkey[:], encodeValue(r.AlphaValue),
			block, string(bundles), r.RecordedAt)
		if err != nil {
			return fmt.Errorf("store: recording beta slot %d: %w", r.Slot, err)
		}
		return nil
	})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

const betaSlotCols = `slot, l2_block, entries, alpha_block_hash, alpha_builder_pubkey, alpha_value, block_hash, bundles, recorded_at`

// betaSlotColsB are betaSlotCols of the beta_slots table aliased b.
const betaSlotColsB = `b.slot, b.l2_block, b.entries, b.alpha_block_hash, b.alpha_builder_pubkey, b.alpha_value, b.block_hash, b.bundles, b.recorded_at`

// BetaSlots implements BetaSlots.
func (s *sqlStore) BetaSlots(ctx context.Context, q BetaSlotQuery) ([]BetaSlotRecord, error) {
	defer queryTimer.UpdateSince(time.Now())
	var w where
	w.addUint("b.slot = ?", q.Slot)
	if q.Cursor > 0 && q.Cursor <= 1<<63-1 {
		w.add("b.slot <= ?", int64(q.Cursor))
	}
	// The delivered record's canonical flag is joined on read: it is set
	// after the slot, once the relay checked its chain (relay_sql.go).
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT `+betaSlotColsB+`, d.canonical FROM beta_slots b LEFT JOIN relay_delivered d ON d.slot = b.slot`+w.String()+` ORDER BY b.slot DESC`+limitClause(q.Limit)), w.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []BetaSlotRecord{}
	for rows.Next() {
		r, err := scanBetaSlot(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, *r)
	}
	return out, rows.Err()
}

func scanBetaSlot(sc interface{ Scan(...any) error }) (*BetaSlotRecord, error) {
	var (
		slot, l2, at            int64
		entries, bundles, value string
		alpha, builder, block   []byte
		canonical               sql.NullInt64
	)
	if err := sc.Scan(&slot, &l2, &entries, &alpha, &builder, &value, &block, &bundles, &at, &canonical); err != nil {
		return nil, err
	}
	r := &BetaSlotRecord{Slot: uint64(slot), L2Block: uint64(l2), RecordedAt: at}
	if canonical.Valid {
		c := canonical.Int64 != 0
		r.Canonical = &c
	}
	if err := copyExact(r.AlphaBlockHash[:], alpha, "alpha_block_hash"); err != nil {
		return nil, err
	}
	if err := copyExact(r.AlphaBuilderPubkey[:], builder, "alpha_builder_pubkey"); err != nil {
		return nil, err
	}
	if len(block) > 0 {
		r.BlockHash = new(beacon.Root)
		if err := copyExact(r.BlockHash[:], block, "block_hash"); err != nil {
			return nil, err
		}
	}
	var err error
	if r.AlphaValue, err = decodeValue(value); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(entries), &r.Entries); err != nil {
		return nil, fmt.Errorf("store: corrupt entries of beta slot %d: %w", slot, err)
	}
	if err := json.Unmarshal([]byte(bundles), &r.Bundles); err != nil {
		return nil, fmt.Errorf("store: corrupt bundles of beta slot %d: %w", slot, err)
	}
	return r, nil
}

// relayBuiltCols are the relay_submissions columns of a block the relay
// built (BlockSubmission.Signature and the alpha's), NULL on submissions.
const relayBuiltCols = `signature, alpha_block_hash, alpha_builder_pubkey`

func relayBuiltArgs(b *BlockSubmission) []any {
	var sig, alpha, builder []byte
	if b.Signature != nil {
		sig = b.Signature[:]
	}
	if b.AlphaBlockHash != nil {
		alpha = b.AlphaBlockHash[:]
	}
	if b.AlphaBuilderPubkey != nil {
		builder = b.AlphaBuilderPubkey[:]
	}
	return []any{sig, alpha, builder}
}

// relayBuiltScan holds the scan targets of relayBuiltCols.
type relayBuiltScan struct{ sig, alpha, builder []byte }

func (rb *relayBuiltScan) fill(b *BlockSubmission) error {
	if len(rb.sig) > 0 {
		b.Signature = new(beacon.BLSSignature)
		if err := copyExact(b.Signature[:], rb.sig, "signature"); err != nil {
			return err
		}
	}
	if len(rb.alpha) > 0 {
		b.AlphaBlockHash = new(beacon.Root)
		if err := copyExact(b.AlphaBlockHash[:], rb.alpha, "alpha_block_hash"); err != nil {
			return err
		}
	}
	if len(rb.builder) > 0 {
		b.AlphaBuilderPubkey = new(beacon.BLSPubkey)
		if err := copyExact(b.AlphaBuilderPubkey[:], rb.builder, "alpha_builder_pubkey"); err != nil {
			return err
		}
	}
	return nil
}
