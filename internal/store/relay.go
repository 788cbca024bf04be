package store

import (
	"context"
	"errors"

	"github.com/gavel-eth/gavel/core/beacon"
)

// ErrSlotDelivered is returned by PutDelivered when a payload was already
// recorded as delivered for the slot. The database enforces it (the slot is
// the primary key), so it holds across relay instances sharing one database:
// it is the equivocation guard's last line of defence.
var ErrSlotDelivered = errors.New("payload for this slot was already delivered")

// Registration is a validator registration as the relay accepted it.
type Registration struct {
	beacon.SignedValidatorRegistration
	// ReceivedAt is when the relay accepted it, unix milliseconds.
	ReceivedAt int64
}

// DeliveredPayload is a payload the relay handed to a proposer (getPayload).
// Its BidTraceV2 is what the proposer_payload_delivered data query returns.
type DeliveredPayload struct {
	beacon.BidTraceV2
	// DeliveredAt is when the relay answered getPayload, unix milliseconds.
	DeliveredAt int64
	// AlphaBlockHash is the builder's block the delivered block was merged
	// from when beta txs were appended to it (nil: delivered as submitted).
	AlphaBlockHash *beacon.Root
	// BetaGasUsed and BetaBundleCount are the gas and the number of beta
	// bundles the delivered block's beta part holds.
	BetaGasUsed     uint64
	BetaBundleCount uint64
	// Canonical says whether the delivered block became the canonical
	// block at its number, as the relay's chain held it some slots later;
	// nil while unknown (not checked yet).
	Canonical *bool
}

// BlockSubmission is one builder submission (a bid trace) and the outcome
// of its verification. The builder_blocks_received data query returns those
// that passed verification or were accepted optimistically.
type BlockSubmission struct {
	beacon.BidTraceV2
	// ReceivedAt is when the submission arrived, unix milliseconds.
	ReceivedAt int64
	// SimSuccess reports that verification (simulation) passed.
	SimSuccess bool
	// SimError is the verification error when SimSuccess is false.
	SimError string
	// Optimistic reports that the bid was accepted before verification ended.
	Optimistic bool
	// Signature, AlphaBlockHash and AlphaBuilderPubkey are set on a block
	// the relay built itself (a beta block, BidTrace.BuilderPubkey the
	// relay's): its signature over the BidTrace with the builder domain,
	// and the builder's block it was merged from. Nil on submissions.
	Signature          *beacon.BLSSignature
	AlphaBlockHash     *beacon.Root
	AlphaBuilderPubkey *beacon.BLSPubkey
}

// WithTimestamp returns the data API form of s.
func (s *BlockSubmission) WithTimestamp() beacon.BidTraceV2WithTimestamp {
	return beacon.BidTraceV2WithTimestamp{
		BidTraceV2:           s.BidTraceV2,
		Timestamp:            uint64(s.ReceivedAt / 1000),
		TimestampMs:          uint64(s.ReceivedAt),
		OptimisticSubmission: s.Optimistic,
	}
}

// DeliveredOrder is the order of a delivered-payloads query.
type DeliveredOrder int

// The orders of the proposer_payload_delivered data query.
const (
	OrderSlotDesc  DeliveredOrder = iota // newest slot first (the default)
	OrderValueAsc                        // order_by=value
	OrderValueDesc                       // order_by=-value
)

// DeliveredQuery filters delivered payloads. Zero fields do not filter,
// as in the reference relay (slot 0 and cursor 0 mean "any").
type DeliveredQuery struct {
	Slot           uint64            // exactly this slot
	Cursor         uint64            // slots at or below this one
	BlockNumber    uint64            // exactly this block number
	BlockHash      *beacon.Root      // exactly this block hash
	ProposerPubkey *beacon.BLSPubkey // exactly this proposer
	BuilderPubkey  *beacon.BLSPubkey // exactly this builder
	Order          DeliveredOrder
	Limit          uint64 // at most this many rows; 0 means no limit
}

// SubmissionQuery filters block submissions. Only submissions that passed
// verification or were accepted optimistically are returned, newest slot
// first, then latest received first. Zero fields do not filter.
type SubmissionQuery struct {
	Slot          uint64
	BlockNumber   uint64
	BlockHash     *beacon.Root
	BuilderPubkey *beacon.BLSPubkey
	Limit         uint64 // at most this many rows; 0 means no limit
}

// Relay stores the relay's durable state: validator registrations,
// delivered payloads and builder submissions (bid traces).
type Relay interface {
	// PutRegistrations upserts regs all or none, committed when it returns
	// (concurrent calls share a commit through the group committer). A
	// registration replaces the stored one for its pubkey only if its
	// timestamp is strictly newer; older or equal ones are skipped. It
	// returns how many rows were inserted or replaced.
	PutRegistrations(ctx context.Context, regs []Registration) (written int, err error)
	// Registration returns the stored registration of pubkey, or ErrNotFound.
	Registration(ctx context.Context, pubkey beacon.BLSPubkey) (*Registration, error)
	// ForEachRegistration calls fn for every stored registration (in pubkey
	// order), stopping at fn's first error; it is how a restarted relay
	// reloads its registrations.
	ForEachRegistration(ctx context.Context, fn func(*Registration) error) error

	// PutDelivered records d durably before it returns. If a payload is
	// already recorded for d's slot it returns that record and an error
	// wrapping ErrSlotDelivered; the caller decides whether it is the same
	// payload (same block hash) or an equivocation.
	PutDelivered(ctx context.Context, d *DeliveredPayload) (existing *DeliveredPayload, err error)
	// Delivered returns the payload delivered for slot, or ErrNotFound.
	Delivered(ctx context.Context, slot uint64) (*DeliveredPayload, error)
	// LatestDeliveredSlot returns the highest slot with a delivered payload;
	// ok is false when none was delivered yet.
	LatestDeliveredSlot(ctx context.Context) (slot uint64, ok bool, err error)
	// DeliveredPayloads answers the proposer_payload_delivered data query.
	DeliveredPayloads(ctx context.Context, q DeliveredQuery) ([]DeliveredPayload, error)
	// DeliveredUnchecked returns, by slot, at most limit delivered records
	// of slots up to upTo whose Canonical is not known yet (0: no limit).
	DeliveredUnchecked(ctx context.Context, upTo uint64, limit int) ([]DeliveredPayload, error)
	// SetDeliveredCanonical records whether slot's delivered block,
	// blockHash, became canonical (a record of another block is left as
	// it is).
	SetDeliveredCanonical(ctx context.Context, slot uint64, blockHash beacon.Root, canonical bool) error

	// PutBlockSubmissions writes submissions all or none. Writing the
	// same (block hash, builder, received time) again is a no-op. Bid traces
	// are not acknowledged writes: callers batch them (see SubmissionBuffer).
	PutBlockSubmissions(ctx context.Context, subs []BlockSubmission) error
	// BlockSubmissions answers the builder_blocks_received data query.
	BlockSubmissions(ctx context.Context, q SubmissionQuery) ([]BlockSubmission, error)

	RelayBuilders
	RelayOptimistic
	BetaSlots
}
