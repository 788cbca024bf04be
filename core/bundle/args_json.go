package bundle

import "github.com/gavel-eth/gavel/internal/jsonargs"

// The request objects decode field by field so that a malformed value is
// named by its field and index (txs[0]: invalid hex: ...), as
// eth_callBundle's are, never by a Go type.

// UnmarshalJSON implements json.Unmarshaler.
func (a *SendBundleArgs) UnmarshalJSON(b []byte) error {
	type plain SendBundleArgs
	return jsonargs.DecodeObject(b, (*plain)(a))
}

// UnmarshalJSON implements json.Unmarshaler.
func (a *CancelBundleArgs) UnmarshalJSON(b []byte) error {
	type plain CancelBundleArgs
	return jsonargs.DecodeObject(b, (*plain)(a))
}

// UnmarshalJSON implements json.Unmarshaler.
func (a *BetaBundleArgs) UnmarshalJSON(b []byte) error {
	type plain BetaBundleArgs
	return jsonargs.DecodeObject(b, (*plain)(a))
}
