package beacon

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gavel-eth/gavel/params"
)

// Vectors in testdata/ are real relay traffic recorded on mainnet, Goerli and devnets
// (copied from the project's shared test data). Every file is used by at least one test
// below; TestEveryVectorIsUsed keeps it that way.

// kurtosisGenesisForkVersion is the genesis fork version of devnets started with the
// ethereum-package (kurtosis) defaults; the Electra and Fulu submission vectors come from
// such a devnet (prefunded fee recipient 0x8943...a776, slots 58 and 130).
var kurtosisGenesisForkVersion = params.ForkVersion{0x10, 0x00, 0x00, 0x38}

func readVector(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return b
}

var usedVectors = map[string]bool{}

func useVector(t testing.TB, name string) []byte {
	usedVectors[name] = true
	return readVector(t, name)
}

// sszCodec is what sszgen generates for every container.
type sszCodec interface {
	MarshalSSZ() ([]byte, error)
	UnmarshalSSZ([]byte) error
	HashTreeRoot() ([32]byte, error)
}

// checkSSZRoundTrip decodes an SSZ vector and checks that it re-encodes byte-identically.
func checkSSZRoundTrip(t *testing.T, name string, v sszCodec) {
	t.Helper()
	raw := useVector(t, name)
	if err := v.UnmarshalSSZ(raw); err != nil {
		t.Fatalf("%s: decode: %v", name, err)
	}
	out, err := v.MarshalSSZ()
	if err != nil {
		t.Fatalf("%s: encode: %v", name, err)
	}
	if !bytes.Equal(out, raw) {
		t.Fatalf("%s: SSZ re-encoding differs (%d vs %d bytes)", name, len(out), len(raw))
	}
}

// checkJSONRoundTrip decodes a JSON vector strictly and checks that re-encoding gives the
// input in compact form (hex compared case-insensitively: the vectors use checksummed
// addresses, gavel writes lower case).
func checkJSONRoundTrip(t *testing.T, name string, raw []byte, v any) {
	t.Helper()
	if err := UnmarshalJSONStrict(raw, v); err != nil {
		t.Fatalf("%s: decode: %v", name, err)
	}
	out, err := MarshalJSONCompact(v)
	if err != nil {
		t.Fatalf("%s: encode: %v", name, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		t.Fatal(err)
	}
	want := bytes.ToLower(compact.Bytes())
	if !bytes.Equal(out, want) {
		i := 0
		for i < len(out) && i < len(want) && out[i] == want[i] {
			i++
		}
		lo := max(0, i-80)
		t.Fatalf("%s: JSON re-encoding differs at byte %d:\n got %s\nwant %s", name, i,
			out[lo:min(len(out), i+80)], want[lo:min(len(want), i+80)])
	}
}

type versioned[T any] struct {
	Version string `json:"version"`
	Data    T      `json:"data"`
}

func TestSubmissionVectors(t *testing.T) {
	tests := []struct {
		name    string
		fork    params.ConsensusFork
		builder Domain
		json    any
		ssz     sszCodec
	}{
		{"submitBlockPayloadCapella_Goerli", params.ForkCapella, BuilderDomain(params.GoerliBeaconConfig), new(SubmitBlockRequestCapella), new(SubmitBlockRequestCapella)},
		{"submitBlockPayloadDeneb_Goerli", params.ForkDeneb, BuilderDomain(params.GoerliBeaconConfig), new(SubmitBlockRequestDeneb), new(SubmitBlockRequestDeneb)},
		{"submitBlockPayloadElectra", params.ForkElectra, ComputeDomain(DomainApplicationBuilder, kurtosisGenesisForkVersion, Root{}), new(SubmitBlockRequestElectra), new(SubmitBlockRequestElectra)},
		{"submitBlockPayloadFulu", params.ForkFulu, ComputeDomain(DomainApplicationBuilder, kurtosisGenesisForkVersion, Root{}), new(SubmitBlockRequestFulu), new(SubmitBlockRequestFulu)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkSSZRoundTrip(t, tt.name+".ssz.gz", tt.ssz)
			checkJSONRoundTrip(t, tt.name+".json.gz", useVector(t, tt.name+".json.gz"), tt.json)
			if !reflect.DeepEqual(tt.json, tt.ssz) {
				t.Fatal("JSON and SSZ vectors decode to different values")
			}
			sub, err := NewSubmission(tt.fork, tt.ssz)
			if err != nil {
				t.Fatal(err)
			}
			if err := sub.VerifySignature(tt.builder); err != nil {
				t.Fatalf("builder signature: %v", err)
			}
			flipped := *sub.BidTrace()
			flipped.GasUsed ^= 1
			if err := Verify(flipped.BuilderPubkey, &flipped, tt.builder, sub.Signature()); err == nil {
				t.Fatal("signature verifies over a modified bid trace")
			}
			sig := sub.Signature()
			sig[len(sig)-1] ^= 1
			if err := Verify(sub.BidTrace().BuilderPubkey, sub.BidTrace(), tt.builder, sig); err == nil {
				t.Fatal("modified signature verifies")
			}
		})
	}
}
