package store

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/gavel-eth/gavel/core/beacon"
)

// A shared bid's notification names its block hash and the instance that
// stored it. When the whole bid fits in a notification it is carried too,
// so that the other instances install it without reading it back: one
// round trip less between a bid's commit and its being served anywhere.
// Bids that do not fit (PostgreSQL refuses payloads of 8000 bytes or more)
// are read by hash as before.
//
// Payload: hex(block hash) " " origin [" " base64(bid)], where bid is the
// fixed fields below followed by the submission. A listener that knows
// only the first two fields reads the bid by hash, as it always did.

// maxNotifyPayload is the longest notification payload gavel sends
// (PostgreSQL's limit is 8000 bytes, shorter than that).
const maxNotifyPayload = 7999

// bidNoteFixed is the length of a carried bid's fields before the
// submission: slot, parent hash, proposer, builder, value, received at,
// stored at, cancellable, fork.
const bidNoteFixed = 8 + 32 + 48 + 48 + 32 + 8 + 8 + 1 + 1

var errBidNote = errors.New("malformed bid notification")

// bidNotePayload returns the notification of b: with the bid when it fits.
func bidNotePayload(b *SharedBid) string {
	head := hex.EncodeToString(b.BlockHash[:]) + " " + b.Origin
	if len(head)+1+base64.RawStdEncoding.EncodedLen(bidNoteFixed+len(b.Submission)) > maxNotifyPayload {
		return head
	}
	raw := make([]byte, bidNoteFixed, bidNoteFixed+len(b.Submission))
	binary.BigEndian.PutUint64(raw[0:], b.Slot)
	copy(raw[8:], b.ParentHash[:])
	copy(raw[40:], b.ProposerPubkey[:])
	copy(raw[88:], b.BuilderPubkey[:])
	copy(raw[136:], b.Value[:])
	binary.BigEndian.PutUint64(raw[168:], uint64(b.ReceivedAt))
	binary.BigEndian.PutUint64(raw[176:], uint64(b.StoredAt))
	if b.Cancellable {
		raw[184] = 1
	}
	raw[185] = b.Fork
	raw = append(raw, b.Submission...)
	return head + " " + base64.RawStdEncoding.EncodeToString(raw)
}

// parseBidNote reads a bid notification: the block hash, the origin and
// the carried bid, still encoded ("" when none).
func parseBidNote(payload string) (hash beacon.Root, origin, carried string, err error) {
	h, rest, _ := strings.Cut(payload, " ")
	origin, carried, _ = strings.Cut(rest, " ")
	raw, err := hex.DecodeString(h)
	if err != nil || len(raw) != len(hash) {
		return hash, "", "", fmt.Errorf("%w: block hash %q: expected 32 bytes of hex", errBidNote, h)
	}
	copy(hash[:], raw)
	return hash, origin, carried, nil
}

// decodeCarriedBid decodes the bid a notification of hash from origin
// carried.
func decodeCarriedBid(hash beacon.Root, origin, carried string) (*SharedBid, error) {
	raw, err := base64.RawStdEncoding.DecodeString(carried)
	if err != nil {
		return nil, fmt.Errorf("%w: carried bid: %v", errBidNote, err)
	}
	if len(raw) < bidNoteFixed {
		return nil, fmt.Errorf("%w: carried bid of %d bytes, expected at least %d", errBidNote, len(raw), bidNoteFixed)
	}
	if raw[184] > 1 {
		return nil, fmt.Errorf("%w: cancellable flag %d, expected 0 or 1", errBidNote, raw[184])
	}
	bid := &SharedBid{
		Slot: binary.BigEndian.Uint64(raw[0:]), BlockHash: hash,
		ReceivedAt: int64(binary.BigEndian.Uint64(raw[168:])), StoredAt: int64(binary.BigEndian.Uint64(raw[176:])),
		Cancellable: raw[184] == 1, Fork: raw[185], Submission: raw[bidNoteFixed:], Origin: origin,
	}
	copy(bid.ParentHash[:], raw[8:])
	copy(bid.ProposerPubkey[:], raw[40:])
	copy(bid.BuilderPubkey[:], raw[88:])
	copy(bid.Value[:], raw[136:])
	return bid, nil
}
