package beacon

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gavel-eth/gavel/params"
)

// Fuzz targets for the minimal-preset decoders (dynamic-ssz and the JSON codec with the
// preset's sizes): no panic, bounded allocation, and whatever decodes re-encodes to the
// same bytes (SSZ) or to JSON that decodes to the same value.
//
//	go test ./core/beacon -run '^$' -fuzz FuzzMinimalBlindedBlockSSZ -fuzztime 30s

// minimalSeeds are minimal-preset blinded blocks: the Goerli vectors with their sync
// committee bits cut to 4 bytes, an Electra block, and the block Lodestar signed.
func minimalSeeds(tb testing.TB) (forks []params.ConsensusFork, blocks []*SignedBlindedBeaconBlock) {
	for i, name := range []string{"signedBlindedBeaconBlockCapella_Goerli.json.gz", "signedBlindedBeaconBlockDeneb_Goerli.json.gz"} {
		fork := params.ForkCapella + params.ConsensusFork(i)
		b, err := DecodeSignedBlindedBeaconBlockJSON(MainnetSpec, fork, readVector(tb, name))
		if err != nil {
			tb.Fatal(err)
		}
		if b.Capella != nil {
			b.Capella.Message.Body.SyncAggregate.SyncCommitteeBits = b.Capella.Message.Body.SyncAggregate.SyncCommitteeBits[:4]
		} else {
			b.Deneb.Message.Body.SyncAggregate.SyncCommitteeBits = b.Deneb.Message.Body.SyncAggregate.SyncCommitteeBits[:4]
		}
		b.spec = MinimalSpec
		forks, blocks = append(forks, fork), append(blocks, b)
	}
	var e SignedBlindedBeaconBlockElectra = *minimalBlockTB(tb, MinimalSpec)
	eb, err := NewSignedBlindedBeaconBlock(MinimalSpec, params.ForkElectra, &e)
	if err != nil {
		tb.Fatal(err)
	}
	forks, blocks = append(forks, params.ForkElectra), append(blocks, eb)
	var capture struct {
		Block json.RawMessage `json:"signed_blinded_block"`
	}
	if err := json.Unmarshal(readVector(tb, "lodestarMinimalBlindedCapella.json"), &capture); err != nil {
		tb.Fatal(err)
	}
	lb, err := DecodeSignedBlindedBeaconBlockJSON(MinimalSpec, params.ForkCapella, capture.Block)
	if err != nil {
		tb.Fatal(err)
	}
	forks, blocks = append(forks, params.ForkCapella), append(blocks, lb)
	return forks, blocks
}

func FuzzMinimalBlindedBlockSSZ(f *testing.F) {
	forks, blocks := minimalSeeds(f)
	for i, b := range blocks {
		enc, err := b.MarshalSSZ()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(byte(forks[i]-params.ForkBellatrix), enc)
	}
	f.Fuzz(func(t *testing.T, forkByte byte, data []byte) {
		fork := forkFrom(forkByte, blindedForks...)
		var b *SignedBlindedBeaconBlock
		var err error
		n := allocated(func() { b, err = DecodeSignedBlindedBeaconBlockSSZ(MinimalSpec, fork, data) })
		checkAlloc(t, "DecodeSignedBlindedBeaconBlockSSZ(minimal)", n, len(data), sszAllocPerByte)
		if err != nil {
			return
		}
		if out, err := b.MarshalSSZ(); err != nil || !bytes.Equal(out, data) {
			t.Fatalf("SSZ re-encoding differs: %v", err)
		}
		if _, err := b.Message().HashTreeRoot(); err != nil {
			t.Fatalf("a decoded block does not hash: %v", err)
		}
	})
}

func FuzzMinimalBlindedBlockJSON(f *testing.F) {
	forks, blocks := minimalSeeds(f)
	for i, b := range blocks {
		enc, err := b.MarshalJSON()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(byte(forks[i]-params.ForkBellatrix), enc)
	}
	f.Fuzz(func(t *testing.T, forkByte byte, data []byte) {
		fork := forkFrom(forkByte, blindedForks...)
		var b *SignedBlindedBeaconBlock
		var err error
		n := allocated(func() { b, err = DecodeSignedBlindedBeaconBlockJSON(MinimalSpec, fork, data) })
		checkAlloc(t, "DecodeSignedBlindedBeaconBlockJSON(minimal)", n, len(data), jsonAllocPerByte)
		if err != nil {
			return
		}
		enc, err := b.MarshalJSON()
		if err != nil {
			t.Fatalf("a decoded block does not encode: %v", err)
		}
		again, err := DecodeSignedBlindedBeaconBlockJSON(MinimalSpec, fork, enc)
		if err != nil {
			t.Fatalf("re-encoded JSON does not decode: %v", err)
		}
		r1, err1 := b.Message().HashTreeRoot()
		r2, err2 := again.Message().HashTreeRoot()
		if err1 != nil || err2 != nil || r1 != r2 {
			t.Fatalf("JSON round trip changed the root: %v %v", err1, err2)
		}
	})
}

func FuzzMinimalSubmissionSSZ(f *testing.F) {
	for i, name := range []string{"submitBlockPayloadCapella_Goerli", "submitBlockPayloadDeneb_Goerli", "submitBlockPayloadElectra", "submitBlockPayloadFulu"} {
		f.Add(byte(i+1), readVector(f, name+".ssz.gz"))
	}
	s, _ := MinimalSpec.MarshalSSZ(sampleCapella())
	f.Add(byte(1), s)
	f.Fuzz(func(t *testing.T, forkByte byte, data []byte) {
		fork := forkFrom(forkByte, submissionForks...)
		var sub *Submission
		var err error
		n := allocated(func() { sub, err = DecodeSubmissionSSZ(MinimalSpec, fork, data) })
		checkAlloc(t, "DecodeSubmissionSSZ(minimal)", n, len(data), sszAllocPerByte)
		if err != nil {
			return
		}
		if out, err := sub.MarshalSSZ(); err != nil || !bytes.Equal(out, data) {
			t.Fatalf("SSZ re-encoding differs: %v", err)
		}
		if _, err := sub.Payload().Header(MinimalSpec); err != nil {
			t.Fatalf("a decoded payload has no header: %v", err)
		}
	})
}
