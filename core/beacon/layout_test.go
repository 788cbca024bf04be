package beacon

import (
	"bytes"
	"encoding/json"
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

// The JSON prefix reader finds the trace and the signature when they come
// first (the reference relay's own partial vector, submitBlockPayload.json,
// sends the signature first; the full ones send it last, after the
// payload), and agrees with the full
// decoder.
func TestSubmissionPrefixJSON(t *testing.T) {
	for _, v := range []struct {
		fork params.ConsensusFork
		file string
	}{
		{params.ForkCapella, "submitBlockPayloadCapella_Goerli.json.gz"},
		{params.ForkDeneb, "submitBlockPayloadDeneb_Goerli.json.gz"},
		{params.ForkElectra, "submitBlockPayloadElectra.json.gz"},
		{params.ForkFulu, "submitBlockPayloadFulu.json.gz"},
	} {
		raw := readVector(t, v.file)
		s, err := DecodeSubmissionJSON(MainnetSpec, v.fork, raw)
		if err != nil {
			t.Fatalf("%s: %v", v.fork, err)
		}
		trace, sig, err := SubmissionPrefixJSON(raw[:SubmissionPrefixJSONLen])
		if err != nil || trace == nil || *trace != *s.BidTrace() || sig != nil {
			t.Fatalf("%s as sent (signature last): %v %v %v, want the trace and no signature", v.fork, trace, sig, err)
		}
		// The same submission with the signature right after the message.
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(raw, &fields); err != nil {
			t.Fatal(err)
		}
		reordered := []byte(`{ "message": ` + string(fields["message"]) + `,` + "\n\t" + `"signature":` + string(fields["signature"]))
		for k, f := range fields {
			if k != "message" && k != "signature" {
				reordered = append(reordered, `, "`+k+`": `+string(f)...)
			}
		}
		reordered = append(reordered, '}')
		if _, err := DecodeSubmissionJSON(MainnetSpec, v.fork, reordered); err != nil {
			t.Fatalf("%s: reordered: %v", v.fork, err)
		}
		trace, sig, err = SubmissionPrefixJSON(reordered[:SubmissionPrefixJSONLen])
		if err != nil || trace == nil || *trace != *s.BidTrace() || sig == nil || *sig != s.Signature() {
			t.Fatalf("%s signature first: %v %v %v, want the trace and the signature", v.fork, trace, sig, err)
		}
		end := bytes.Index(reordered, []byte(`"signature"`)) + len(`"signature":`) + 2*SignatureLength + 3
		if _, sig, _ := SubmissionPrefixJSON(reordered[:end-1]); sig != nil {
			t.Fatalf("%s: a signature read from a prefix one byte short of it", v.fork)
		}
		bad := bytes.Replace(reordered[:SubmissionPrefixJSONLen], []byte(`"signature":"0x`), []byte(`"signature":"0xzz`), 1)
		if _, _, err := SubmissionPrefixJSON(bad); err == nil {
			t.Fatalf("%s: a malformed signature in the prefix was not refused", v.fork)
		}
	}
}

// MarshalJSONSignatureFirst puts the signature where SubmissionPrefixJSON
// finds it, and the result decodes to the same submission, on every fork.
func TestMarshalJSONSignatureFirst(t *testing.T) {
	for _, v := range []struct {
		fork params.ConsensusFork
		file string
	}{
		{params.ForkCapella, "submitBlockPayloadCapella_Goerli.ssz.gz"},
		{params.ForkDeneb, "submitBlockPayloadDeneb_Goerli.ssz.gz"},
		{params.ForkElectra, "submitBlockPayloadElectra.ssz.gz"},
		{params.ForkFulu, "submitBlockPayloadFulu.ssz.gz"},
	} {
		s, err := DecodeSubmissionSSZ(MainnetSpec, v.fork, readVector(t, v.file))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := s.MarshalJSONSignatureFirst()
		if err != nil {
			t.Fatal(err)
		}
		trace, sig, err := SubmissionPrefixJSON(raw[:SubmissionPrefixJSONLen])
		if err != nil || trace == nil || *trace != *s.BidTrace() || sig == nil || *sig != s.Signature() {
			t.Fatalf("%s: prefix: %v %v %v", v.fork, trace, sig, err)
		}
		back, err := DecodeSubmissionJSON(MainnetSpec, v.fork, raw)
		if err != nil {
			t.Fatalf("%s: %v", v.fork, err)
		}
		a, _ := s.MarshalSSZ()
		b, _ := back.MarshalSSZ()
		if !bytes.Equal(a, b) {
			t.Fatalf("%s: the reordered JSON decodes to another submission", v.fork)
		}
	}
}
