package beacon

import (
	"bytes"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/gavel-eth/gavel/params"
)

// Fuzz targets for every decoder. Each checks that the decoder never panics, that it
// allocates no more than a bound proportional to the input, and that whatever it accepts
// re-encodes to something it accepts again with the same meaning (SSZ: byte-identical).
//
//	go test ./core/beacon -run '^$' -fuzz FuzzSubmissionSSZ -fuzztime 30s

// Allocation bounds: SSZ decoding allocates at most a slice header per 4 input bytes
// (offsets) plus copies; JSON at most a slice header per 3 input bytes with doubling
// growth. The constant covers fixed-size containers and, for JSON, the first growth step
// of a blob list (4 blobs).
const (
	sszAllocPerByte  = 10
	jsonAllocPerByte = 20
	allocConstant    = 1 << 20
)

func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func checkAlloc(t *testing.T, what string, n uint64, inputLen int, perByte uint64) {
	if limit := perByte*uint64(inputLen) + allocConstant; n > limit {
		t.Fatalf("%s: %d bytes allocated for %d input bytes (limit %d)", what, n, inputLen, limit)
	}
}

// forkFrom picks a fork from a fuzzed byte.
func forkFrom(b byte, forks ...params.ConsensusFork) params.ConsensusFork {
	return forks[int(b)%len(forks)]
}

var submissionForks = []params.ConsensusFork{params.ForkBellatrix, params.ForkCapella, params.ForkDeneb, params.ForkElectra, params.ForkFulu}

func seedSubmissions(f *testing.F, ext string) {
	for i, name := range []string{"submitBlockPayloadCapella_Goerli", "submitBlockPayloadDeneb_Goerli", "submitBlockPayloadElectra", "submitBlockPayloadFulu"} {
		f.Add(byte(i+1), readVector(f, name+ext))
	}
	s, _ := sampleCapella().MarshalSSZ()
	if ext == ".json.gz" {
		s, _ = MarshalJSONCompact(sampleCapella())
	}
	f.Add(byte(1), s)
	f.Add(byte(0), []byte{})
}

func FuzzSubmissionSSZ(f *testing.F) {
	seedSubmissions(f, ".ssz.gz")
	f.Fuzz(func(t *testing.T, forkByte byte, data []byte) {
		fork := forkFrom(forkByte, submissionForks...)
		var s *Submission
		var err error
		n := allocated(func() { s, err = DecodeSubmissionSSZ(MainnetSpec, fork, data) })
		checkAlloc(t, "DecodeSubmissionSSZ", n, len(data), sszAllocPerByte)
		if err != nil {
			return
		}
		if r, _ := s.BidTrace().HashTreeRoot(); s.BidTrace().Root() != Root(r) {
			t.Fatal("BidTrace.Root differs from HashTreeRoot")
		}
		// The prefix readers agree with the full decoder.
		if trace, err := SubmissionTraceSSZ(data); err != nil || *trace != *s.BidTrace() {
			t.Fatalf("trace from the prefix differs: %v", err)
		}
		if sig, err := SubmissionSignatureSSZ(fork, data); err != nil || sig != s.Signature() {
			t.Fatalf("signature from the prefix differs: %v", err)
		}
		out, err := s.MarshalSSZ()
		if err != nil {
			t.Fatalf("accepted submission does not encode: %v", err)
		}
		if !bytes.Equal(out, data) {
			t.Fatal("SSZ re-encoding differs from the accepted input")
		}
		js, err := s.MarshalJSON()
		if err != nil {
			t.Fatalf("accepted submission does not encode as JSON: %v", err)
		}
		back, err := DecodeSubmissionJSON(MainnetSpec, fork, js)
		if err != nil {
			t.Fatalf("own JSON rejected: %v", err)
		}
		if r1, r2 := root(t, s.container()), root(t, back.container()); r1 != r2 {
			t.Fatal("JSON round trip changed the submission")
		}
	})
}

func FuzzSubmissionJSON(f *testing.F) {
	seedSubmissions(f, ".json.gz")
	f.Add(byte(2), readVector(f, "submitBlockPayload.json.gz"))
	f.Fuzz(func(t *testing.T, forkByte byte, data []byte) {
		fork := forkFrom(forkByte, submissionForks...)
		var s *Submission
		var err error
		n := allocated(func() { s, err = DecodeSubmissionJSON(MainnetSpec, fork, data) })
		checkAlloc(t, "DecodeSubmissionJSON", n, len(data), jsonAllocPerByte)
		_, _ = SubmissionSlotJSON(data)
		if err != nil {
			return
		}
		checkJSONStable(t, s.container(), func() any { _, c, _ := newSubmissionContainer(fork); return c })
	})
}

func FuzzBuilderBidSSZ(f *testing.F) {
	f.Add(byte(1), readVector(f, "getHeaderResponseCapella_Mainnet.ssz"))
	f.Add(byte(2), readVector(f, "getHeaderResponseDeneb_Goerli.ssz"))
	forks := []params.ConsensusFork{params.ForkBellatrix, params.ForkCapella, params.ForkDeneb, params.ForkElectra}
	f.Fuzz(func(t *testing.T, forkByte byte, data []byte) {
		fork := forkFrom(forkByte, forks...)
		var b *SignedBuilderBid
		var err error
		n := allocated(func() { b, err = DecodeSignedBuilderBidSSZ(MainnetSpec, fork, data) })
		checkAlloc(t, "DecodeSignedBuilderBidSSZ", n, len(data), sszAllocPerByte)
		if err != nil {
			return
		}
		if out, err := b.MarshalSSZ(); err != nil || !bytes.Equal(out, data) {
			t.Fatalf("SSZ re-encoding differs: %v", err)
		}
	})
}

func FuzzBuilderBidJSON(f *testing.F) {
	for i, name := range []string{"getHeaderResponseCapella_Mainnet.ssz", "getHeaderResponseDeneb_Goerli.ssz"} {
		b, err := DecodeSignedBuilderBidSSZ(MainnetSpec, params.ForkCapella+params.ConsensusFork(i), readVector(f, name))
		if err != nil {
			f.Fatal(err)
		}
		js, _ := b.MarshalJSON()
		f.Add(byte(i+1), js)
	}
	forks := []params.ConsensusFork{params.ForkBellatrix, params.ForkCapella, params.ForkDeneb, params.ForkElectra}
	f.Fuzz(func(t *testing.T, forkByte byte, data []byte) {
		fork := forkFrom(forkByte, forks...)
		var b *SignedBuilderBid
		var err error
		n := allocated(func() { b, err = DecodeSignedBuilderBidJSON(MainnetSpec, fork, data) })
		checkAlloc(t, "DecodeSignedBuilderBidJSON", n, len(data), jsonAllocPerByte)
		if err != nil {
			return
		}
		checkJSONStable(t, b.container(), func() any { _, c, _ := newBidContainer(fork); return c })
	})
}

var blindedForks = []params.ConsensusFork{params.ForkBellatrix, params.ForkCapella, params.ForkDeneb, params.ForkElectra}

func FuzzBlindedBlockSSZ(f *testing.F) {
	for i, name := range []string{"signedBlindedBeaconBlockCapella_Goerli.json.gz", "signedBlindedBeaconBlockDeneb_Goerli.json.gz"} {
		b, err := DecodeSignedBlindedBeaconBlockJSON(MainnetSpec, params.ForkCapella+params.ConsensusFork(i), readVector(f, name))
		if err != nil {
			f.Fatal(err)
		}
		enc, _ := b.MarshalSSZ()
		f.Add(byte(i+1), enc)
	}
	f.Fuzz(func(t *testing.T, forkByte byte, data []byte) {
		fork := forkFrom(forkByte, blindedForks...)
		var b *SignedBlindedBeaconBlock
		var err error
		n := allocated(func() { b, err = DecodeSignedBlindedBeaconBlockSSZ(MainnetSpec, fork, data) })
		checkAlloc(t, "DecodeSignedBlindedBeaconBlockSSZ", n, len(data), sszAllocPerByte)
		slot, slotErr := BlindedBlockSlotSSZ(data)
		if err != nil {
			return
		}
		if slotErr != nil || slot != b.Slot() {
			t.Fatalf("BlindedBlockSlotSSZ = %d, %v; the decoded block's slot is %d", slot, slotErr, b.Slot())
		}
		if out, err := b.MarshalSSZ(); err != nil || !bytes.Equal(out, data) {
			t.Fatalf("SSZ re-encoding differs: %v", err)
		}
	})
}

func FuzzBlindedBlockJSON(f *testing.F) {
	f.Add(byte(1), readVector(f, "signedBlindedBeaconBlockCapella_Goerli.json.gz"))
	f.Add(byte(2), readVector(f, "signedBlindedBeaconBlockDeneb_Goerli.json.gz"))
	f.Fuzz(func(t *testing.T, forkByte byte, data []byte) {
		fork := forkFrom(forkByte, blindedForks...)
		var b *SignedBlindedBeaconBlock
		var err error
		n := allocated(func() { b, err = DecodeSignedBlindedBeaconBlockJSON(MainnetSpec, fork, data) })
		checkAlloc(t, "DecodeSignedBlindedBeaconBlockJSON", n, len(data), jsonAllocPerByte)
		if err != nil {
			return
		}
		checkJSONStable(t, b.container(), func() any { _, c, _ := newBlindedContainer(fork); return c })
	})
}

func FuzzRegistrationsSSZ(f *testing.F) {
	regs, err := DecodeRegistrationsJSON(readVector(f, "valreg1.json"))
	if err != nil {
		f.Fatal(err)
	}
	enc, _ := EncodeRegistrationsSSZ(regs[:3])
	f.Add(enc)
	enc, _ = EncodeRegistrationsSSZ([]SignedValidatorRegistration{regs[0], regs[1], regs[0], regs[0]})
	f.Add(enc)
	f.Fuzz(func(t *testing.T, data []byte) {
		var regs []SignedValidatorRegistration
		var err error
		n := allocated(func() { regs, err = DecodeRegistrationsSSZ(data) })
		checkAlloc(t, "DecodeRegistrationsSSZ", n, len(data), sszAllocPerByte)
		if err != nil {
			return
		}
		if out, err := EncodeRegistrationsSSZ(regs); err != nil || !bytes.Equal(out, data) {
			t.Fatalf("SSZ re-encoding differs: %v", err)
		}
		// The unique decoder gives the same entries less the exact copies.
		unique, total, err := DecodeRegistrationsSSZUnique(data)
		if err != nil || total != len(regs) {
			t.Fatalf("unique decoder: %v, %d entries counted, want %d", err, total, len(regs))
		}
		var want []SignedValidatorRegistration
		for i := range regs {
			if !slices.Contains(want, regs[i]) {
				want = append(want, regs[i])
			}
		}
		if !slices.Equal(unique, want) {
			t.Fatalf("unique decoder: %d entries, want %d", len(unique), len(want))
		}
	})
}

// TestDecodeRegistrationsUnique: exact copies are left out in the order of
// first appearance, counted in the total, and cost no allocation: 90,000
// copies of one registration (16.2 MB) allocate a few KiB, not the 16 MB a
// full decode does.
func TestDecodeRegistrationsUnique(t *testing.T) {
	regs, err := DecodeRegistrationsJSON(readVector(t, "valreg1.json"))
	if err != nil || len(regs) < 3 {
		t.Fatalf("vector: %v, %d registrations", err, len(regs))
	}
	a, b, c := regs[0], regs[1], regs[2]
	list := []SignedValidatorRegistration{a, b, a, a, c, b}
	enc, _ := EncodeRegistrationsSSZ(list)
	got, total, err := DecodeRegistrationsSSZUnique(enc)
	if err != nil || total != len(list) || !slices.Equal(got, []SignedValidatorRegistration{a, b, c}) {
		t.Fatalf("got %d entries of %d (%v), want a, b, c of 6", len(got), total, err)
	}
	copies := make([]SignedValidatorRegistration, 90_000)
	for i := range copies {
		copies[i] = a
	}
	enc, _ = EncodeRegistrationsSSZ(copies)
	n := allocated(func() { got, total, err = DecodeRegistrationsSSZUnique(enc) })
	if err != nil || total != 90_000 || len(got) != 1 {
		t.Fatalf("90,000 copies: %d entries of %d (%v)", len(got), total, err)
	}
	if n > 1<<20 {
		t.Fatalf("90,000 copies (%d bytes) allocated %d bytes decoding, want under 1 MiB", len(enc), n)
	}
}

func FuzzRegistrationsJSON(f *testing.F) {
	f.Add(readVector(f, "valreg0.json"))
	f.Add(readVector(f, "valreg1.json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var regs []SignedValidatorRegistration
		var err error
		n := allocated(func() { regs, err = DecodeRegistrationsJSON(data) })
		checkAlloc(t, "DecodeRegistrationsJSON", n, len(data), jsonAllocPerByte)
		if err != nil {
			return
		}
		out, err := EncodeRegistrationsJSON(regs)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeRegistrationsJSON(out)
		if err != nil || !reflect.DeepEqual(back, regs) {
			t.Fatalf("JSON round trip: %v", err)
		}
	})
}

func root(t *testing.T, c Container) [32]byte {
	t.Helper()
	r, err := c.HashTreeRoot()
	if err != nil {
		t.Fatalf("accepted value has no root: %v", err)
	}
	return r
}

// checkJSONStable encodes an accepted value, decodes the encoding into a fresh container
// and checks the value is unchanged and encodes identically.
func checkJSONStable(t *testing.T, v any, fresh func() any) {
	t.Helper()
	out, err := MarshalJSONCompact(v)
	if err != nil {
		t.Fatalf("accepted value does not encode: %v", err)
	}
	w := fresh()
	if err := UnmarshalJSONStrict(out, w); err != nil {
		t.Fatalf("own encoding rejected: %v\n%s", err, out)
	}
	out2, err := MarshalJSONCompact(w)
	if err != nil || !bytes.Equal(out, out2) {
		t.Fatalf("encoding not stable: %v", err)
	}
	if c, ok := v.(Container); ok {
		if _, err := c.MarshalSSZ(); err != nil {
			t.Fatalf("JSON-accepted value does not encode as SSZ: %v", err)
		}
	}
}

func FuzzExecutionRequestsFromEngine(f *testing.F) {
	r := &ExecutionRequests{Deposits: []DepositRequest{{Amount: 1}}, Consolidations: []ConsolidationRequest{{}}}
	enc, _ := r.EngineRequests()
	f.Add(enc[0], enc[1], byte(2))
	f.Fuzz(func(t *testing.T, a, b []byte, n byte) {
		in := [][]byte{a, b}[:int(n)%3]
		var got *ExecutionRequests
		var err error
		total := len(a) + len(b)
		alloc := allocated(func() { got, err = ExecutionRequestsFromEngine(in) })
		checkAlloc(t, "ExecutionRequestsFromEngine", alloc, total, sszAllocPerByte)
		if err != nil {
			return
		}
		out, err := got.EngineRequests()
		if err != nil {
			t.Fatalf("accepted requests do not encode: %v", err)
		}
		if !reflect.DeepEqual(out, in) && !(len(out) == 0 && len(in) == 0) {
			t.Fatal("engine form does not round-trip")
		}
	})
}

// FuzzSubmissionPrefixJSON: the JSON prefix reader never panics, and what
// it reads from a prefix it reads the same from the whole input (more bytes
// never change what the first ones said).
func FuzzSubmissionPrefixJSON(f *testing.F) {
	seedSubmissions(f, ".json.gz")
	f.Add(byte(0), readVector(f, "submitBlockPayload.json.gz"))
	f.Add(byte(0), []byte(`{"signature":"0x00","message":{}}`))
	f.Fuzz(func(t *testing.T, cut byte, data []byte) {
		n := len(data) * int(cut) / 255
		pt, ps, perr := SubmissionPrefixJSON(data[:n])
		ft, fs, ferr := SubmissionPrefixJSON(data)
		if perr != nil {
			if ferr == nil {
				t.Fatalf("prefix refused (%v), whole input not", perr)
			}
			return
		}
		if pt != nil && (ferr != nil || ft == nil || *ft != *pt) {
			t.Fatalf("trace from the prefix %v, from the whole input %v (%v)", pt, ft, ferr)
		}
		if ps != nil && (ferr != nil || fs == nil || *fs != *ps) {
			t.Fatalf("signature from the prefix %v, from the whole input %v (%v)", ps, fs, ferr)
		}
	})
}

var headerSubmissionForks = []params.ConsensusFork{params.ForkDeneb, params.ForkElectra, params.ForkFulu}

func FuzzHeaderSubmission(f *testing.F) {
	for i, v := range headerVectors {
		sub, err := DecodeSubmissionSSZ(MainnetSpec, v.fork, readVector(f, v.name+".ssz.gz"))
		if err != nil {
			f.Fatal(err)
		}
		h, err := NewHeaderSubmission(sub)
		if err != nil {
			f.Fatal(err)
		}
		raw, _ := h.MarshalSSZ()
		js, _ := h.MarshalJSON()
		f.Add(byte(i), false, raw)
		f.Add(byte(i), true, js)
	}
	f.Add(byte(0), false, []byte{})
	f.Fuzz(func(t *testing.T, forkByte byte, isJSON bool, data []byte) {
		fork := forkFrom(forkByte, headerSubmissionForks...)
		var h *HeaderSubmission
		var err error
		if isJSON {
			n := allocated(func() { h, err = DecodeHeaderSubmissionJSON(MainnetSpec, fork, data) })
			checkAlloc(t, "DecodeHeaderSubmissionJSON", n, len(data), jsonAllocPerByte)
		} else {
			n := allocated(func() { h, err = DecodeHeaderSubmissionSSZ(MainnetSpec, fork, data) })
			checkAlloc(t, "DecodeHeaderSubmissionSSZ", n, len(data), sszAllocPerByte)
		}
		if err != nil {
			return
		}
		out, err := h.MarshalSSZ()
		if err != nil {
			t.Fatalf("accepted header submission does not encode: %v", err)
		}
		if !isJSON {
			if !bytes.Equal(out, data) {
				t.Fatal("SSZ re-encoding differs from the accepted input")
			}
			if slot, err := HeaderSubmissionSlotSSZ(data); err != nil || slot != h.BidTrace().Slot {
				t.Fatalf("slot from the prefix: %d, %v", slot, err)
			}
		}
		back, err := DecodeHeaderSubmissionSSZ(MainnetSpec, fork, out)
		if err != nil {
			t.Fatalf("own SSZ rejected: %v", err)
		}
		if r1, r2 := root(t, h.container()), root(t, back.container()); r1 != r2 {
			t.Fatal("SSZ round trip changed the header submission")
		}
	})
}
