package relayapi

import (
	"bytes"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
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
		sub, err := DecodeSubmission(cfg, beacon.MainnetSpec, version, body, ssz)
		if err == nil && sub == nil {
			t.Fatal("nil submission without error")
		}
	})
}

// FuzzDecodeHeaderSubmission is FuzzDecodeSubmission for header-first
// submissions.
func FuzzDecodeHeaderSubmission(f *testing.F) {
	cfg := params.DevBeaconConfig(1_700_000_000, 12, [32]byte{})
	f.Add([]byte(`{"message":{"bid_trace":{"slot":"1"}}}`), false, "")
	f.Add(append([]byte{100, 0, 0, 0}, make([]byte, 110)...), true, "")
	f.Add([]byte(`{"message":{}}`), true, "electra")
	f.Fuzz(func(t *testing.T, body []byte, ssz bool, version string) {
		h, err := DecodeHeaderSubmission(cfg, beacon.MainnetSpec, version, body, ssz)
		if err == nil && (h == nil || h.Fork < params.ForkDeneb) {
			t.Fatalf("accepted %v without a Deneb or later header submission", h)
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

// FuzzReadSubmission feeds arbitrary bodies, announced lengths and limits to
// the body reader, plain and gzipped: it must return the body itself (plain,
// within the limit, announced length right or unknown) or an error, never
// panic or return more than the limit.
func FuzzReadSubmission(f *testing.F) {
	f.Add([]byte("hello"), false, int64(5), int64(100))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0}, true, int64(-1), int64(10))
	f.Add(make([]byte, 400), false, int64(-1), int64(399))
	f.Fuzz(func(t *testing.T, body []byte, gzipped bool, size, limit int64) {
		limit = limit&0xfffff + 1
		var prefix []byte
		out, err := ReadSubmission(bytes.NewReader(body), gzipped, size, limit, func(p []byte) error { prefix = bytes.Clone(p); return nil })
		if err != nil {
			return
		}
		if int64(len(out)) > limit {
			t.Fatalf("%d bytes returned, limit %d", len(out), limit)
		}
		if prefix != nil && !bytes.Equal(prefix, out[:len(prefix)]) {
			t.Fatal("prefix is not the start of the body")
		}
		if !gzipped && !bytes.Equal(out, body) {
			t.Fatal("plain body changed")
		}
		if !gzipped && size >= 0 && size != int64(len(body)) {
			t.Fatalf("body of %d bytes accepted with announced length %d", len(body), size)
		}
	})
}
