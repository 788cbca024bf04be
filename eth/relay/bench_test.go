package relay_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/internal/testutil"
	"github.com/gavel-eth/gavel/mevapi"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
	"github.com/gavel-eth/gavel/params"
)

// benchSubmission is a 200-transfer block (200 senders) plus the payment,
// submitted as SSZ+gzip. The relay verifies every block in full: "full"
// submits the same block again and again, which incremental verification
// would find entirely in its prefix states.
func benchSubmission(b *testing.B, transfers int) (*relaytest.Env, []byte, []byte) {
	e := relaytest.New(b, relaytest.Options{Senders: transfers, Configure: func(c *relay.Config) { c.PrefixBlocks = -1 }})
	e.RegisterAll()
	sub := e.Submission(e.BuildBlock(1, transfers, nil))
	raw, err := sub.MarshalSSZ()
	if err != nil {
		b.Fatal(err)
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(raw)
	w.Close()
	return e, raw, z.Bytes()
}

func decode(b *testing.B, e *relaytest.Env, zipped []byte) *beacon.Submission {
	raw, err := relayapi.ReadSubmission(bytes.NewReader(zipped), true, int64(len(zipped)), relayapi.DefaultMaxSubmissionBytes, nil)
	if err != nil {
		b.Fatal(err)
	}
	sub, err := relayapi.DecodeSubmission(e.Beacon, beacon.MainnetSpec, "fulu", raw, true)
	if err != nil {
		b.Fatal(err)
	}
	return sub
}

func builderPayload(e *relaytest.Env, sub *beacon.Submission) *chain.BuilderPayload {
	t := sub.BidTrace()
	root := common.Hash{}
	attrs := e.Attrs(t.Slot)
	root = attrs.ParentBeaconRoot
	reqs, _ := sub.ExecutionRequests().EngineRequests()
	return &chain.BuilderPayload{
		Payload: sub.Payload().ToExecutableData(), VersionedHashes: chain.VersionedHashes(sub.BlobsBundle().Commitments),
		ParentBeaconRoot: &root, Requests: reqs, RegisteredGasLimit: relaytest.GasLimit,
		ProposerFeeRecipient: common.Address(t.ProposerFeeRecipient), Value: t.Value.Uint256(),
	}
}

// pipeline is what the handler does before simulation: read (gunzip) with
// the signature verified in the background from the first bytes, decode,
// run the checks, wait for the signature.
func pipeline(b *testing.B, e *relaytest.Env, body []byte, gzipped bool) {
	var early *relay.SignatureCheck
	raw, err := relayapi.ReadSubmission(bytes.NewReader(body), gzipped, int64(len(body)), relayapi.DefaultMaxSubmissionBytes, func(prefix []byte) error {
		t, err := beacon.SubmissionTraceSSZ(prefix)
		if err != nil {
			b.Fatal(err)
		}
		sig, err := beacon.SubmissionSignatureSSZ(params.ForkFulu, prefix)
		if err != nil {
			b.Fatal(err)
		}
		early = e.Relay.StartSignatureCheck(t, sig)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	sub, err := relayapi.DecodeSubmission(e.Beacon, beacon.MainnetSpec, "fulu", raw, true)
	if err != nil {
		b.Fatal(err)
	}
	if err := e.Relay.Prechecks(relay.SubmitRequest{Submission: sub, ReceivedAt: e.Clock.Now(), Signature: early}); err != nil {
		b.Fatal(err)
	}
	// Nothing keeps the submission: its body is reused, as the handler
	// reuses the body of one the relay does not keep.
	mevapi.ReleaseBody(raw)
}

// BenchmarkSubmission splits the handling of a 200-transfer block submitted
// as SSZ+gzip into its parts, beside the floor the pre-simulation work is
// compared with: one BLS verification. Simulation against geth's own import
// path is core/chain's BenchmarkValidatePayload. Every part reports its CPU
// time per op beside the wall time.
func BenchmarkSubmission(b *testing.B) {
	e, raw, zipped := benchSubmission(b, 200)
	b.Logf("submission: %d bytes SSZ, %d bytes SSZ+gzip", len(raw), len(zipped))
	sub := decode(b, e, zipped)

	b.Run("decode", func(b *testing.B) {
		defer testutil.ReportCPU(b, testutil.CPUTime())
		b.SetBytes(int64(len(zipped)))
		for b.Loop() {
			decode(b, e, zipped)
		}
	})
	b.Run("signature", func(b *testing.B) {
		defer testutil.ReportCPU(b, testutil.CPUTime())
		d := beacon.BuilderDomain(e.Beacon)
		for b.Loop() {
			if err := sub.VerifySignature(d); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bls-verify-floor", func(b *testing.B) {
		defer testutil.ReportCPU(b, testutil.CPUTime())
		d := beacon.BuilderDomain(e.Beacon)
		t := sub.BidTrace()
		for b.Loop() {
			if err := beacon.Verify(t.BuilderPubkey, t, d, sub.Signature()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("checks", func(b *testing.B) {
		defer testutil.ReportCPU(b, testutil.CPUTime())
		req := relay.SubmitRequest{Submission: sub, ReceivedAt: e.Clock.Now()}
		for b.Loop() {
			if err := e.Relay.Checks(req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("all-but-simulation", func(b *testing.B) {
		defer testutil.ReportCPU(b, testutil.CPUTime())
		for b.Loop() {
			pipeline(b, e, zipped, true)
		}
	})
	b.Run("simulation", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			b.StopTimer()
			p := builderPayload(e, decode(b, e, zipped)) // cold sender caches
			b.StartTimer()
			c0 := testutil.CPUTime()
			if _, err := e.Chain.ValidatePayload(context.Background(), p); err != nil {
				b.Fatal(err)
			}
			cpu += testutil.CPUTime() - c0
		}
		b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
	})
	at := e.Clock.Now() // shared by every run of the sub-benchmark: newer each time
	b.Run("full", func(b *testing.B) {
		defer testutil.ReportCPU(b, testutil.CPUTime())
		for b.Loop() {
			at = at.Add(time.Millisecond)
			s := decode(b, e, zipped)
			if out, err := e.Relay.Submit(context.Background(), relay.SubmitRequest{Submission: s, Cancellations: true, ReceivedAt: at}); err != nil || out != relay.Accepted {
				b.Fatal(out, err)
			}
		}
	})
}

// BenchmarkLargeSubmission is the decode, signature and checks path of a
// 1 MB submission (a block of many transfers with large calldata is not
// needed: the payload's size is what decoding and hashing pay for).
func BenchmarkLargeSubmission(b *testing.B) {
	e, raw, zipped := benchSubmission(b, 200)
	// Pad the payload to about 1 MB with extra copies of the transactions:
	// decoding and the checks do not execute them.
	sub := decode(b, e, zipped)
	f := *sub.Fulu
	txs := f.ExecutionPayload.Transactions
	for len(raw) < 1<<20 {
		f.ExecutionPayload.Transactions = append(f.ExecutionPayload.Transactions, txs...)
		raw, _ = (&f).MarshalSSZ()
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(raw)
	w.Close()
	zipped = z.Bytes()
	b.Logf("large submission: %d bytes SSZ, %d bytes SSZ+gzip", len(raw), len(zipped))
	big := decode(b, e, zipped)
	d := beacon.BuilderDomain(e.Beacon)
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(zipped)))
		start := testutil.CPUTime()
		for b.Loop() {
			decode(b, e, zipped)
		}
		testutil.ReportCPU(b, start)
	})
	b.Run("decode-ssz-only", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		start := testutil.CPUTime()
		for b.Loop() {
			if _, err := relayapi.DecodeSubmission(e.Beacon, beacon.MainnetSpec, "fulu", raw, true); err != nil {
				b.Fatal(err)
			}
		}
		testutil.ReportCPU(b, start)
	})
	b.Run("signature", func(b *testing.B) {
		start := testutil.CPUTime()
		for b.Loop() {
			big.VerifySignature(d) // the padded payload's trace is unchanged: valid
		}
		testutil.ReportCPU(b, start)
	})
	b.Run("all-but-simulation-ssz", func(b *testing.B) {
		start := testutil.CPUTime()
		for b.Loop() {
			pipeline(b, e, raw, false)
		}
		testutil.ReportCPU(b, start)
	})
	b.Run("all-but-simulation-ssz+gzip", func(b *testing.B) {
		start := testutil.CPUTime()
		for b.Loop() {
			pipeline(b, e, zipped, true)
		}
		testutil.ReportCPU(b, start)
	})
	// paired runs one verification and the SSZ+gzip path in every
	// iteration and reports the median of their ratios: on a shared
	// machine the load changes from one millisecond to the next, and the
	// two halves of a pair see about the same. The ratio of the fastest
	// of each is what the two cores give when nothing else takes them.
	b.Run("paired", func(b *testing.B) {
		var bls, path []time.Duration
		var ratios []float64
		for b.Loop() {
			t0 := time.Now()
			big.VerifySignature(d)
			t1 := time.Now()
			pipeline(b, e, zipped, true)
			t2 := time.Now()
			bls, path = append(bls, t1.Sub(t0)), append(path, t2.Sub(t1))
			ratios = append(ratios, float64(t2.Sub(t1))/float64(t1.Sub(t0)))
		}
		slices.Sort(bls)
		slices.Sort(path)
		slices.Sort(ratios)
		b.ReportMetric(float64(bls[len(bls)/2]), "bls-p50-ns")
		b.ReportMetric(float64(path[len(path)/2]), "ssz+gzip-p50-ns")
		b.ReportMetric(ratios[len(ratios)/2], "ssz+gzip/bls-p50")
		b.ReportMetric(float64(path[0])/float64(bls[0]), "ssz+gzip/bls-fastest")
	})
	b.Run("checks", func(b *testing.B) {
		req := relay.SubmitRequest{Submission: big, ReceivedAt: e.Clock.Now()}
		for b.Loop() {
			// The hash checks fail on the padded payload only after
			// everything else ran; what is measured is the work until then.
			e.Relay.Checks(req)
		}
	})
}
