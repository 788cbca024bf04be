package beacon

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gavel-eth/gavel/params"
)

// Benchmarks for docs/benchmarks.md. Baselines run in the same invocation:
// copying the SSZ input (the floor for any decoder that owns its result), and
// encoding/json parsing the same JSON into interface values (no validation at all).
//
//	go test ./core/beacon -run '^$' -bench . -benchmem

func BenchmarkFuluSubmissionSSZDecode(b *testing.B) {
	raw := readVector(b, "submitBlockPayloadFulu.ssz.gz")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeSubmissionSSZ(params.ForkFulu, raw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFuluSubmissionSSZBaselineCopy(b *testing.B) {
	raw := readVector(b, "submitBlockPayloadFulu.ssz.gz")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		_ = bytes.Clone(raw)
	}
}

func BenchmarkFuluSubmissionJSONDecode(b *testing.B) {
	raw := readVector(b, "submitBlockPayloadFulu.json.gz")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeSubmissionJSON(params.ForkFulu, raw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFuluSubmissionJSONBaselineStdlibAny(b *testing.B) {
	raw := readVector(b, "submitBlockPayloadFulu.json.gz")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFuluSubmissionSSZEncode(b *testing.B) {
	s, err := DecodeSubmissionSSZ(params.ForkFulu, readVector(b, "submitBlockPayloadFulu.ssz.gz"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.MarshalSSZ(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFuluSubmissionJSONEncode(b *testing.B) {
	s, err := DecodeSubmissionSSZ(params.ForkFulu, readVector(b, "submitBlockPayloadFulu.ssz.gz"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBidTraceHashTreeRoot(b *testing.B) {
	s, _ := DecodeSubmissionSSZ(params.ForkFulu, readVector(b, "submitBlockPayloadFulu.ssz.gz"))
	bt := s.BidTrace()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bt.HashTreeRoot(); err != nil {
			b.Fatal(err)
		}
	}
}

// The direct implementation used on the hot path.
func BenchmarkBidTraceSigningRoot(b *testing.B) {
	s, _ := DecodeSubmissionSSZ(params.ForkFulu, readVector(b, "submitBlockPayloadFulu.ssz.gz"))
	bt := s.BidTrace()
	domain := BuilderDomain(params.MainnetBeaconConfig)
	b.ReportAllocs()
	for b.Loop() {
		_ = bt.SigningRoot(domain)
	}
}

// Baseline: the generic path through the sszgen hasher.
func BenchmarkBidTraceSigningRootGeneric(b *testing.B) {
	s, _ := DecodeSubmissionSSZ(params.ForkFulu, readVector(b, "submitBlockPayloadFulu.ssz.gz"))
	bt := s.BidTrace()
	domain := BuilderDomain(params.MainnetBeaconConfig)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SigningRoot(bt, domain); err != nil {
			b.Fatal(err)
		}
	}
}

func benchPayloadRoot(b *testing.B, fork params.ConsensusFork, name string) {
	s, err := DecodeSubmissionSSZ(fork, readVector(b, name))
	if err != nil {
		b.Fatal(err)
	}
	p := s.Payload()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.HashTreeRoot(); err != nil {
			b.Fatal(err)
		}
	}
}

// 374 transactions, 16 withdrawals.
func BenchmarkPayloadHashTreeRootDeneb374Tx(b *testing.B) {
	benchPayloadRoot(b, params.ForkDeneb, "submitBlockPayloadDeneb_Goerli.ssz.gz")
}

// The Fulu vector's payload: 10 transactions.
func BenchmarkPayloadHashTreeRootFulu10Tx(b *testing.B) {
	benchPayloadRoot(b, params.ForkFulu, "submitBlockPayloadFulu.ssz.gz")
}

func BenchmarkPayloadHeaderFromPayloadDeneb374Tx(b *testing.B) {
	s, _ := DecodeSubmissionSSZ(params.ForkDeneb, readVector(b, "submitBlockPayloadDeneb_Goerli.ssz.gz"))
	p := s.Payload()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Header(); err != nil {
			b.Fatal(err)
		}
	}
}

func benchRegistrations(b *testing.B) ([]SignedValidatorRegistration, Domain) {
	regs, err := DecodeRegistrationsJSON(readVector(b, "valreg2.json.gz"))
	if err != nil {
		b.Fatal(err)
	}
	return regs[:1000], ComputeDomain(DomainApplicationBuilder, kilnGenesisForkVersion, Root{})
}

// One verification from the wire form: pubkey decompression and validation, signing
// root, signature decompression and subgroup check, pairing check.
func BenchmarkBLSVerify(b *testing.B) {
	regs, domain := benchRegistrations(b)
	r := &regs[0]
	b.ReportAllocs()
	for b.Loop() {
		if err := r.VerifySignature(domain); err != nil {
			b.Fatal(err)
		}
	}
}

// One verification with the public key already decompressed (a relay caches builder keys).
func BenchmarkBLSVerifyCachedPubkey(b *testing.B) {
	regs, domain := benchRegistrations(b)
	r := &regs[0]
	pk, _ := ParsePublicKey(r.Message.Pubkey)
	root, _ := SigningRoot(&r.Message, domain)
	b.ReportAllocs()
	for b.Loop() {
		if err := VerifyRoot(pk, root, r.Signature); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRegistrations1000OneByOne(b *testing.B) {
	regs, domain := benchRegistrations(b)
	b.ReportAllocs()
	for b.Loop() {
		for i := range regs {
			if err := regs[i].VerifySignature(domain); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(regs)), "ns/registration")
}

func BenchmarkRegistrations1000Batch(b *testing.B) {
	regs, domain := benchRegistrations(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := VerifyRegistrations(domain, regs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(regs)), "ns/registration")
}
