package beacon

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/gavel-eth/gavel/internal/testutil"
	"github.com/gavel-eth/gavel/params"
)

// Benchmarks for docs/benchmarks-core.md. Baselines run in the same invocation:
// copying the SSZ input (the floor for any decoder that owns its result), and
// encoding/json parsing the same JSON into interface values (no validation at all).
//
//	go test ./core/beacon -run '^$' -bench . -benchmem

func BenchmarkFuluSubmissionSSZDecode(b *testing.B) {
	raw := readVector(b, "submitBlockPayloadFulu.ssz.gz")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		if _, err := DecodeSubmissionSSZ(MainnetSpec, params.ForkFulu, raw); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
}

func BenchmarkFuluSubmissionSSZBaselineCopy(b *testing.B) {
	raw := readVector(b, "submitBlockPayloadFulu.ssz.gz")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		_ = bytes.Clone(raw)
	}
	testutil.ReportCPU(b, start)
}

func BenchmarkFuluSubmissionJSONDecode(b *testing.B) {
	raw := readVector(b, "submitBlockPayloadFulu.json.gz")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		if _, err := DecodeSubmissionJSON(MainnetSpec, params.ForkFulu, raw); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
}

func BenchmarkFuluSubmissionJSONBaselineStdlibAny(b *testing.B) {
	raw := readVector(b, "submitBlockPayloadFulu.json.gz")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
}

func BenchmarkFuluSubmissionSSZEncode(b *testing.B) {
	s, err := DecodeSubmissionSSZ(MainnetSpec, params.ForkFulu, readVector(b, "submitBlockPayloadFulu.ssz.gz"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		if _, err := s.MarshalSSZ(); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
}

func BenchmarkFuluSubmissionJSONEncode(b *testing.B) {
	s, err := DecodeSubmissionSSZ(MainnetSpec, params.ForkFulu, readVector(b, "submitBlockPayloadFulu.ssz.gz"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		if _, err := s.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
}

func BenchmarkBidTraceHashTreeRoot(b *testing.B) {
	s, _ := DecodeSubmissionSSZ(MainnetSpec, params.ForkFulu, readVector(b, "submitBlockPayloadFulu.ssz.gz"))
	bt := s.BidTrace()
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		if _, err := bt.HashTreeRoot(); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
}

// The direct implementation used on the hot path.
func BenchmarkBidTraceSigningRoot(b *testing.B) {
	s, _ := DecodeSubmissionSSZ(MainnetSpec, params.ForkFulu, readVector(b, "submitBlockPayloadFulu.ssz.gz"))
	bt := s.BidTrace()
	domain := BuilderDomain(params.MainnetBeaconConfig)
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		_ = bt.SigningRoot(domain)
	}
	testutil.ReportCPU(b, start)
}

// Baseline: the generic path through the sszgen hasher.
func BenchmarkBidTraceSigningRootGeneric(b *testing.B) {
	s, _ := DecodeSubmissionSSZ(MainnetSpec, params.ForkFulu, readVector(b, "submitBlockPayloadFulu.ssz.gz"))
	bt := s.BidTrace()
	domain := BuilderDomain(params.MainnetBeaconConfig)
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		if _, err := SigningRoot(bt, domain); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
}

func benchPayloadRoot(b *testing.B, fork params.ConsensusFork, name string) {
	s, err := DecodeSubmissionSSZ(MainnetSpec, fork, readVector(b, name))
	if err != nil {
		b.Fatal(err)
	}
	p := s.Payload()
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		if _, err := p.HashTreeRoot(); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
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
	s, _ := DecodeSubmissionSSZ(MainnetSpec, params.ForkDeneb, readVector(b, "submitBlockPayloadDeneb_Goerli.ssz.gz"))
	p := s.Payload()
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		if _, err := p.Header(MainnetSpec); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
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
	start := testutil.CPUTime()
	for b.Loop() {
		if err := r.VerifySignature(domain); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
}

// One verification with the public key already decompressed (a relay caches builder keys).
func BenchmarkBLSVerifyCachedPubkey(b *testing.B) {
	regs, domain := benchRegistrations(b)
	r := &regs[0]
	pk, _ := ParsePublicKey(r.Message.Pubkey)
	root, _ := SigningRoot(&r.Message, domain)
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		if err := VerifyRoot(pk, root, r.Signature); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
}

func BenchmarkRegistrations1000OneByOne(b *testing.B) {
	regs, domain := benchRegistrations(b)
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		for i := range regs {
			if err := regs[i].VerifySignature(domain); err != nil {
				b.Fatal(err)
			}
		}
	}
	testutil.ReportCPU(b, start)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(regs)), "ns/registration")
}

func BenchmarkRegistrations1000Batch(b *testing.B) {
	regs, domain := benchRegistrations(b)
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		if err := VerifyRegistrations(domain, regs); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(regs)), "ns/registration")
}

// Both ways on the same 1000 registrations, alternating within each iteration so that the
// load of this shared machine hits both alike; reports ns per registration for each and
// their ratio.
func BenchmarkRegistrations1000Interleaved(b *testing.B) {
	regs, domain := benchRegistrations(b)
	var single, batch, singleCPU, batchCPU time.Duration
	for b.Loop() {
		t0, c0 := time.Now(), testutil.CPUTime()
		for i := range regs {
			if err := regs[i].VerifySignature(domain); err != nil {
				b.Fatal(err)
			}
		}
		t1, c1 := time.Now(), testutil.CPUTime()
		if err := VerifyRegistrations(domain, regs); err != nil {
			b.Fatal(err)
		}
		single += t1.Sub(t0)
		batch += time.Since(t1)
		singleCPU += c1 - c0
		batchCPU += testutil.CPUTime() - c1
	}
	n := float64(b.N * len(regs))
	b.ReportMetric(float64(single.Nanoseconds())/n, "ns/reg-single")
	b.ReportMetric(float64(batch.Nanoseconds())/n, "ns/reg-batch")
	b.ReportMetric(float64(single)/float64(batch), "speedup")
	b.ReportMetric(float64(singleCPU.Nanoseconds())/n, "cpu-ns/reg-single")
	b.ReportMetric(float64(batchCPU.Nanoseconds())/n, "cpu-ns/reg-batch")
}

// The minimal-preset path (dynamic-ssz): the Fulu vector decoded and a real minimal
// blinded block's signing root, beside their mainnet (generated code) counterparts above
// and in BenchmarkBlindedBlockRootMainnet.
func BenchmarkFuluSubmissionSSZDecodeMinimal(b *testing.B) {
	raw := readVector(b, "submitBlockPayloadFulu.ssz.gz")
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		if _, err := DecodeSubmissionSSZ(MinimalSpec, params.ForkFulu, raw); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
}

func benchBlindedRoot(b *testing.B, blk *SignedBlindedBeaconBlock) {
	b.ReportAllocs()
	start := testutil.CPUTime()
	for b.Loop() {
		if _, err := blk.Message().HashTreeRoot(); err != nil {
			b.Fatal(err)
		}
	}
	testutil.ReportCPU(b, start)
}

func BenchmarkBlindedBlockRootMinimal(b *testing.B) {
	_, blocks := minimalSeeds(b)
	benchBlindedRoot(b, blocks[0]) // the Goerli Capella block cut to minimal sync bits
}

func BenchmarkBlindedBlockRootMainnet(b *testing.B) {
	blk, err := DecodeSignedBlindedBeaconBlockJSON(MainnetSpec, params.ForkCapella, readVector(b, "signedBlindedBeaconBlockCapella_Goerli.json.gz"))
	if err != nil {
		b.Fatal(err)
	}
	benchBlindedRoot(b, blk)
}
