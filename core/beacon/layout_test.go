package beacon

import (
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/params"
)

// The prefix readers agree with the full decoder on a real submission of
// every fork with its own layout.
func TestSubmissionPrefixSSZ(t *testing.T) {
	for _, v := range []struct {
		fork params.ConsensusFork
		file string
	}{
		{params.ForkCapella, "submitBlockPayloadCapella_Goerli.ssz.gz"},
		{params.ForkDeneb, "submitBlockPayloadDeneb_Goerli.ssz.gz"},
		{params.ForkElectra, "submitBlockPayloadElectra.ssz.gz"},
		{params.ForkFulu, "submitBlockPayloadFulu.ssz.gz"},
	} {
		raw := readVector(t, v.file)
		s, err := DecodeSubmissionSSZ(MainnetSpec, v.fork, raw)
		if err != nil {
			t.Fatalf("%s: %v", v.fork, err)
		}
		prefix := raw[:SubmissionPrefixLen]
		trace, err := SubmissionTraceSSZ(prefix)
		if err != nil || *trace != *s.BidTrace() {
			t.Fatalf("%s: trace from the prefix: %v", v.fork, err)
		}
		sig, err := SubmissionSignatureSSZ(v.fork, prefix)
		if err != nil || sig != s.Signature() {
			t.Fatalf("%s: signature from the prefix: %v", v.fork, err)
		}
		end := submissionSignatureOffset(v.fork) + SignatureLength
		if _, err := SubmissionSignatureSSZ(v.fork, prefix[:end-1]); !errors.Is(err, ErrInvalidSSZ) {
			t.Fatalf("%s: one byte short of the signature: %v", v.fork, err)
		}
	}
}

func TestParentRoot(t *testing.T) {
	want := Root{0xaa, 0xbb}
	var b SignedBeaconBlockBellatrix
	b.Message.ParentRoot = want
	var c SignedBeaconBlockCapella
	c.Message.ParentRoot = want
	var d SignedBlockContentsDeneb
	d.SignedBlock.Message.ParentRoot = want
	var e SignedBlockContentsElectra
	e.SignedBlock.Message.ParentRoot = want
	var f SignedBlockContentsFulu
	f.SignedBlock.Message.ParentRoot = want
	for _, sc := range []*SignedBlockContents{
		{Fork: params.ForkBellatrix, Bellatrix: &b}, {Fork: params.ForkCapella, Capella: &c},
		{Fork: params.ForkDeneb, Deneb: &d}, {Fork: params.ForkElectra, Electra: &e}, {Fork: params.ForkFulu, Fulu: &f},
	} {
		if got := sc.ParentRoot(); got != common.Hash(want) {
			t.Fatalf("%s: parent root %s", sc.Fork, got)
		}
	}
}
