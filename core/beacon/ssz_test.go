package beacon

import (
	"bytes"
	"encoding/hex"
	"errors"
	"slices"
	"testing"

	"github.com/gavel-eth/gavel/params"
)

// sampleCapella returns a small valid Capella submission.
func sampleCapella() *SubmitBlockRequestCapella {
	return &SubmitBlockRequestCapella{
		Message: BidTrace{Slot: 7, GasLimit: 30_000_000, Value: U256FromUint64(5)},
		ExecutionPayload: ExecutionPayloadCapella{
			ExtraData:    []byte{1, 2},
			Transactions: [][]byte{{0x02, 0xaa}, {0x01}},
			Withdrawals:  []Withdrawal{{Index: 1, ValidatorIndex: 2, Amount: 3}},
		},
	}
}

func TestSSZRejectsMalformed(t *testing.T) {
	good, err := sampleCapella().MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeSubmissionSSZ(MainnetSpec, params.ForkCapella, good); err != nil {
		t.Fatalf("valid submission rejected: %v", err)
	}
	// Offsets of the Capella submission: message (236) | payload offset (4) | signature (96).
	badOffset := bytes.Clone(good)
	badOffset[236] = 0xff
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrInvalidSSZ},
		{"truncated fixed part", good[:100], ErrInvalidSSZ},
		{"truncated payload", good[:len(good)-1], ErrInvalidSSZ},
		{"bad payload offset", badOffset, ErrInvalidSSZ},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := DecodeSubmissionSSZ(MainnetSpec, params.ForkCapella, tt.data); !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
	// Another fork's container does not parse as this one.
	if _, err := DecodeSubmissionSSZ(MainnetSpec, params.ForkDeneb, good); err == nil {
		t.Fatal("Capella bytes decoded as a Deneb submission")
	}
	if _, err := DecodeSubmissionSSZ(MainnetSpec, params.ForkAltair, good); !errors.Is(err, ErrUnsupportedFork) {
		t.Fatalf("altair: got %v", err)
	}
}

func TestSSZLimits(t *testing.T) {
	s := sampleCapella()
	s.ExecutionPayload.ExtraData = make([]byte, 33)
	if _, err := s.MarshalSSZ(); err == nil {
		t.Fatal("33-byte extra data encoded")
	}
	s = sampleCapella()
	s.ExecutionPayload.Withdrawals = make([]Withdrawal, 17)
	if _, err := s.MarshalSSZ(); err == nil {
		t.Fatal("17 withdrawals encoded")
	}
	// Hand-build 17 withdrawals in the SSZ bytes: decoding must refuse them.
	s.ExecutionPayload.Withdrawals = make([]Withdrawal, 16)
	enc, err := s.MarshalSSZ()
	if err != nil {
		t.Fatal(err)
	}
	enc = append(enc, make([]byte, 44)...) // withdrawals are the last field of the payload, the payload the last variable part
	if _, err := DecodeSubmissionSSZ(MainnetSpec, params.ForkCapella, enc); !errors.Is(err, ErrListTooLong) && !errors.Is(err, ErrInvalidSSZ) {
		t.Fatalf("17 withdrawals decoded: %v", err)
	}
}

func TestBidTraceRoot(t *testing.T) {
	// Root of the Deneb Goerli submission's bid trace, checked by the builder signature in
	// the vector test; here we pin the SSZ layout: 236 bytes, slot first, value last (LE).
	bt := BidTrace{Slot: 1, Value: U256FromUint64(0x0102)}
	enc, _ := bt.MarshalSSZ()
	if len(enc) != 236 || enc[0] != 1 || enc[236-32] != 0x02 || enc[236-31] != 0x01 {
		t.Fatalf("BidTrace SSZ layout wrong: %d bytes, %x", len(enc), enc)
	}
	reg := ValidatorRegistration{GasLimit: 1}
	enc, _ = reg.MarshalSSZ()
	if len(enc) != 84 || enc[20] != 1 {
		t.Fatalf("ValidatorRegistration SSZ layout wrong: %x", enc)
	}
}

func TestU256(t *testing.T) {
	for _, s := range []string{"0", "1", "1000377973514716000", "115792089237316195423570985008687907853269984665640564039457584007913129639935"} {
		u, err := parseU256([]byte(s))
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if u.String() != s || u.Big().String() != s {
			t.Fatalf("%s round-trips to %s", s, u.String())
		}
		back, err := U256FromBig(u.Big())
		if err != nil || back != u {
			t.Fatalf("%s: big round trip", s)
		}
	}
	a, b := U256FromUint64(5), U256FromUint64(1<<40)
	if a.Cmp(b) != -1 || b.Cmp(a) != 1 || a.Cmp(a) != 0 || !(U256{}).IsZero() {
		t.Fatal("Cmp or IsZero wrong")
	}
	var r Root
	if err := r.UnmarshalText([]byte("0x" + hex.EncodeToString(make([]byte, 31)))); !errors.Is(err, ErrInvalidLength) {
		t.Fatalf("31-byte root: got %v", err)
	}
}

func TestBidTraceRootMatchesGenerated(t *testing.T) {
	check := func(bt *BidTrace) {
		t.Helper()
		want, err := bt.HashTreeRoot()
		if err != nil {
			t.Fatal(err)
		}
		if got := bt.Root(); got != Root(want) {
			t.Fatalf("Root %x, HashTreeRoot %x", got, want)
		}
		d := BuilderDomain(params.MainnetBeaconConfig)
		sr, _ := SigningRoot(bt, d)
		if bt.SigningRoot(d) != sr {
			t.Fatal("SigningRoot differs from the generic one")
		}
	}
	check(&BidTrace{})
	for _, name := range []string{"submitBlockPayloadCapella_Goerli.ssz.gz", "submitBlockPayloadFulu.ssz.gz"} {
		raw := readVector(t, name)
		var bt BidTrace
		if err := bt.UnmarshalSSZ(raw[:236]); err != nil {
			t.Fatal(err)
		}
		check(&bt)
	}
	rng := make([]byte, 236)
	for i := 0; i < 200; i++ {
		for j := range rng {
			rng[j] = byte(i*131 + j*7 + j*j)
		}
		var bt BidTrace
		if err := bt.UnmarshalSSZ(rng); err != nil {
			t.Fatal(err)
		}
		check(&bt)
	}
}

// TestDecodedByteListsAliasInput pins the decoding contract of the package doc:
// transactions and blobs point into the input (capacity capped, so an append
// cannot overwrite what follows), everything else is a copy.
func TestDecodedByteListsAliasInput(t *testing.T) {
	raw := readVector(t, "submitBlockPayloadDeneb_Goerli.ssz.gz")
	s, err := DecodeSubmissionSSZ(MainnetSpec, params.ForkDeneb, raw)
	if err != nil {
		t.Fatal(err)
	}
	p := s.Deneb.ExecutionPayload
	tx, blob := p.Transactions[0], s.BlobsBundle().Blobs[0]
	if cap(tx) != len(tx) {
		t.Fatalf("transaction capacity %d, want its length %d", cap(tx), len(tx))
	}
	blobs := s.BlobsBundle().Blobs
	if cap(blobs) != len(blobs) {
		t.Fatalf("blob list capacity %d, want its length %d", cap(blobs), len(blobs))
	}
	tx0, extra, value := tx[0], slices.Clone(p.ExtraData), s.BidTrace().Value
	for i := range raw {
		raw[i] ^= 0xff
	}
	if tx[0] != tx0^0xff || s.BlobsBundle().Blobs[0] == blob {
		t.Fatal("transactions and blobs do not alias the input")
	}
	if !bytes.Equal(p.ExtraData, extra) || s.BidTrace().Value != value {
		t.Fatal("extra data or bid trace changed with the input: they must be copies")
	}
}
