package chain

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/params"
)

func vectorSubmission(t *testing.T, name string, fork params.ConsensusFork) *beacon.Submission {
	t.Helper()
	raw, err := os.ReadFile("../beacon/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := beacon.DecodeSubmissionSSZ(beacon.MainnetSpec, fork, data)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// TestVerifyBlobs checks real KZG proofs of the reference relay's Deneb
// (one proof per blob) and Fulu (128 cell proofs per blob) submissions, and
// that a flipped proof or a missing blob is caught.
func TestVerifyBlobs(t *testing.T) {
	for _, c := range []struct {
		file  string
		fork  params.ConsensusFork
		cells bool
	}{
		{"submitBlockPayloadDeneb_Goerli.ssz.gz", params.ForkDeneb, false},
		{"submitBlockPayloadFulu.ssz.gz", params.ForkFulu, true},
	} {
		b := vectorSubmission(t, c.file, c.fork).BlobsBundle()
		if len(b.Blobs) == 0 {
			t.Fatalf("%s has no blobs", c.file)
		}
		if err := VerifyBlobs(b.Commitments, b.Proofs, b.Blobs, c.cells); err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		proofs := append([]beacon.KZGProof(nil), b.Proofs...)
		proofs[len(proofs)-1][5] ^= 1
		if err := VerifyBlobs(b.Commitments, proofs, b.Blobs, c.cells); !errors.Is(err, ErrBlobsBundle) {
			t.Fatalf("%s: flipped proof: %v", c.file, err)
		}
		if err := VerifyBlobs(b.Commitments, b.Proofs, b.Blobs[1:], c.cells); !errors.Is(err, ErrBlobsBundle) {
			t.Fatalf("%s: missing blob: %v", c.file, err)
		}
		if err := VerifyBlobs(b.Commitments, b.Proofs[1:], b.Blobs, c.cells); !errors.Is(err, ErrBlobsBundle) {
			t.Fatalf("%s: missing proof: %v", c.file, err)
		}
	}
}

func TestExpectedGasLimit(t *testing.T) {
	for _, c := range []struct{ parent, registered, want uint64 }{
		{30_000_000, 30_000_000, 30_000_000},
		{30_000_000, 40_000_000, 30_029_295},
		{30_000_000, 20_000_000, 29_970_705},
		{30_000_000, 30_010_000, 30_010_000},
	} {
		if got := ExpectedGasLimit(c.parent, c.registered); got != c.want {
			t.Errorf("ExpectedGasLimit(%d, %d) = %d, want %d", c.parent, c.registered, got, c.want)
		}
	}
}
