package relay

import (
	"errors"
	"fmt"

	"github.com/gavel-eth/gavel/core/errclass"
)

// Sentinel errors of the relay. Each is what a caller sees as the message
// of a 400 answer, with details appended where the reference relay appends
// them. The relay's own failures are marked errclass.Internal where they
// arise (a 500 with details only in the log); every other error is the
// caller's (400).
var (
	// Submission checks, in the order they run (checks.go).
	ErrCancellationsDisabled = errors.New("cancellations are disabled")
	ErrBuilderBlocked        = errors.New("builder is blocked")                   // message: "builder <pubkey> is blocked by the relay's operator"
	ErrWrongFork             = errors.New("payload fork does not match the slot") // message: "not <fork> payload"
	ErrPastSlot              = errors.New("submission for past slot")
	ErrTimestamp             = errors.New("incorrect timestamp")
	ErrNoDuty                = errors.New("could not find slot duty")
	ErrProposerMismatch      = errors.New("proposer pubkey does not match the slot duty")
	ErrFeeRecipient          = errors.New("fee recipient does not match")
	ErrBetaRoom              = errors.New("block leaves no room for the beta block")
	ErrBlockHash             = errors.New("blockHash mismatch")
	ErrParentHash            = errors.New("parentHash mismatch")
	ErrNoPayloadAttributes   = errors.New("payload attributes not (yet) known")
	ErrPrevRandao            = errors.New("incorrect prev_randao")
	ErrWithdrawalsRoot       = errors.New("incorrect withdrawals root")
	ErrBuilderSignature      = errors.New("invalid signature")
	ErrSlotDelivered         = errors.New("payload for this slot was already delivered")
	ErrBidTrace              = errors.New("bid trace does not match the payload")
	ErrBlobs                 = errors.New("invalid blobs bundle")
	ErrSimulation            = errors.New("simulation failed")
	ErrNewerPayload          = errors.New("already using a newer payload")
	// Header-first submissions (headerfirst.go).
	ErrHeaderNotOptimistic = errors.New("header submissions are taken only from optimistic builders within their collateral")
	ErrHeaderCancellations = errors.New("header submissions cannot be cancellable: send ?cancellations=1 with full blocks only")
	ErrBodyMismatch        = errors.New("block does not match its header submission")

	// Payload attributes from the consensus client (SetForkchoiceAttributes).
	ErrAttributesTimestamp = errors.New("payload attributes timestamp is not the start of a slot")

	// Registrations (POST /eth/v1/builder/validators).
	ErrTimestampTooEarly   = errors.New("timestamp too early")
	ErrTimestampTooLate    = errors.New("timestamp too far in the future")
	ErrUnknownValidator    = errors.New("not a known validator")
	ErrValidatorSignature  = errors.New("failed to verify validator signature")
	ErrEmptyRegistrations  = errors.New("empty request")
	ErrTooManyRegistration = errors.New("too many registrations")
	// ErrRegistrationRate is the per-IP cap on BLS checks: 429.
	ErrRegistrationRate = errors.New("registration verification rate exceeded for this IP address")

	// getHeader.
	ErrSlotTooOld = errors.New("slot is too old")

	// getPayload.
	ErrConsensusVersion     = errors.New("error checking payload and header version")
	ErrProposerIndex        = errors.New("not the expected proposer index")
	ErrUnknownProposerIndex = errors.New("could not match proposer index to pubkey")
	ErrPayloadSignature     = errors.New("could not verify payload signature")
	ErrUnknownPayload       = errors.New("no execution payload for this request")
	ErrEquivocation         = errors.New("another payload for this slot was already delivered")
	ErrHeaderMismatch       = errors.New("invalid execution payload header")
	ErrPublish              = errors.New("failed to publish block")
	ErrTooLate              = errors.New("sent too late")
	// ErrPayloadMissing: the builder of a header-first bid did not send its
	// block in time (Config.BodyWait); it is demoted and owes the proposer
	// the bid's value.
	ErrPayloadMissing = errors.New("the builder did not send the block of this header in time")

	// ErrInternal marks a failure that is the relay's fault (storage, ...):
	// 500 internal server error.
	ErrInternal = errors.New("internal error")
)

// detail wraps a sentinel with details in the reference relay's format,
// "<sentinel> - <details>" or, with sep ". ", "<sentinel>. <details>".
func detail(sentinel error, format string, args ...any) error {
	return fmt.Errorf("%w"+format, append([]any{sentinel}, args...)...)
}

// internal marks a failure of the relay itself (errclass.Internal).
func internal(what string, err error) error {
	return errclass.Internal(fmt.Errorf("%w: %s: %w", ErrInternal, what, err))
}

// messageError is a failure whose message is given in full (the reference
// relay's exact wording) while it still matches its sentinel.
type messageError struct {
	sentinel error
	msg      string
}

func (e *messageError) Error() string { return e.msg }
func (e *messageError) Unwrap() error { return e.sentinel }

// withMessage returns an error matching sentinel whose message is exactly
// the formatted text.
func withMessage(sentinel error, format string, args ...any) error {
	return &messageError{sentinel: sentinel, msg: fmt.Sprintf(format, args...)}
}
