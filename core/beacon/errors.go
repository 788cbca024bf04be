package beacon

import "errors"

// Sentinel errors. Every error returned by this package wraps one of them, so callers can
// branch with errors.Is; the message around it says where the problem is and what was
// expected.
var (
	// ErrInvalidJSON: the input is not well-formed JSON, or a value has the wrong JSON type.
	ErrInvalidJSON = errors.New("invalid JSON")
	// ErrMissingField: a required JSON field is absent.
	ErrMissingField = errors.New("missing field")
	// ErrUnknownField: a JSON object has a field the container does not define.
	ErrUnknownField = errors.New("unknown field")
	// ErrDuplicateField: a JSON object repeats a field.
	ErrDuplicateField = errors.New("duplicate field")
	// ErrInvalidHex: a byte field is not 0x-prefixed hex of even length.
	ErrInvalidHex = errors.New("invalid hex")
	// ErrInvalidLength: a fixed-size field or vector has the wrong length.
	ErrInvalidLength = errors.New("invalid length")
	// ErrInvalidNumber: a number is not a decimal string without sign or leading zeros, or
	// does not fit its type.
	ErrInvalidNumber = errors.New("invalid number")
	// ErrListTooLong: a list or byte list exceeds its SSZ limit.
	ErrListTooLong = errors.New("list too long")
	// ErrInvalidSSZ: SSZ bytes are malformed (size, offsets, bitlist).
	ErrInvalidSSZ = errors.New("invalid SSZ")
	// ErrUnsupportedFork: the operation is not defined for the given fork.
	ErrUnsupportedFork = errors.New("unsupported fork")
	// ErrInvalidPubkey: bytes that are not a valid BLS public key.
	ErrInvalidPubkey = errors.New("invalid BLS public key")
	// ErrInvalidSignature: bytes that are not a valid BLS signature, or a signature that
	// does not verify.
	ErrInvalidSignature = errors.New("invalid BLS signature")
	// ErrInvalidSecretKey: bytes that are not a valid BLS secret key.
	ErrInvalidSecretKey = errors.New("invalid BLS secret key")
	// ErrPayloadMismatch: an execution payload does not match the header or commitments
	// it is combined with.
	ErrPayloadMismatch = errors.New("payload does not match")
)
