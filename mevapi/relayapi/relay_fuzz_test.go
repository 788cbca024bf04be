package relayapi

import (
	"testing"

	"github.com/gavel-eth/gavel/params"
)

// FuzzDecodeSubmission feeds arbitrary bodies to the submission decoder in
// both encodings, with and without a fork header: it must return a
// submission or an error, never panic.
func FuzzDecodeSubmission(f *testing.F) {
	cfg := params.DevBeaconConfig(1_700_000_000, 12, [32]byte{})
	f.Add([]byte(`{"message":{"slot":"1"}}`), false, "")
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 4, 0}, true, "fulu")
	f.Add([]byte(`{"message":{"slot":"1"},"execution_payload":{}}`), true, "deneb")
	f.Fuzz(func(t *testing.T, body []byte, ssz bool, version string) {
		sub, err := DecodeSubmission(cfg, version, body, ssz)
		if err == nil && sub == nil {
			t.Fatal("nil submission without error")
		}
	})
}

// FuzzNegotiate feeds arbitrary Accept headers to the content negotiation.
func FuzzNegotiate(f *testing.F) {
	for _, s := range []string{"", "application/json", "application/octet-stream;q=1.0,application/json;q=0.9", "*/*;q=0", "text/html"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, accept string) {
		ssz, ok := negotiate(accept)
		if ssz && !ok {
			t.Fatal("ssz chosen for an unacceptable header")
		}
	})
}
