package relay_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/eth/relay"
	"github.com/gavel-eth/gavel/eth/relay/relaytest"
	"github.com/gavel-eth/gavel/mevapi/relayapi"
)

// benchSubmission is a 200-transfer block (200 senders) plus the payment,
// submitted as SSZ+gzip.
func benchSubmission(b *testing.B, transfers int) (*relaytest.Env, []byte, []byte) {
	e := relaytest.New(b, relaytest.Options{Senders: transfers})
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
	sub, err := relayapi.DecodeSubmission(e.Beacon, "fulu", raw, true)
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
		var t beacon.BidTrace
		if err := t.UnmarshalSSZ(prefix[:236]); err != nil {
			b.Fatal(err)
		}
		var sig beacon.BLSSignature
		copy(sig[:], prefix[248:344])
		early = e.Relay.StartSignatureCheck(&t, sig)
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	sub, err := relayapi.DecodeSubmission(e.Beacon, "fulu", raw, true)
	if err != nil {
		b.Fatal(err)
	}
	e.Relay.Prechecks(relay.SubmitRequest{Submission: sub, ReceivedAt: e.Clock.Now(), Signature: early})
}

// BenchmarkSubmission splits the handling of a 200-transfer block submitted
// as SSZ+gzip into its parts, beside the floors they are compared with: one
// BLS verification, and geth processing the same block (Process +
// ValidateState).
func BenchmarkSubmission(b *testing.B) {
	e, raw, zipped := benchSubmission(b, 200)
	b.Logf("submission: %d bytes SSZ, %d bytes SSZ+gzip", len(raw), len(zipped))
	sub := decode(b, e, zipped)

	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(zipped)))
		for b.Loop() {
			decode(b, e, zipped)
		}
	})
	b.Run("signature", func(b *testing.B) {
		d := beacon.BuilderDomain(e.Beacon)
		for b.Loop() {
			if err := sub.VerifySignature(d); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("bls-verify-floor", func(b *testing.B) {
		d := beacon.BuilderDomain(e.Beacon)
		t := sub.BidTrace()
		for b.Loop() {
			if err := beacon.Verify(t.BuilderPubkey, t, d, sub.Signature()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("checks", func(b *testing.B) {
		req := relay.SubmitRequest{Submission: sub, ReceivedAt: e.Clock.Now()}
		for b.Loop() {
			if err := e.Relay.Checks(req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("all-but-simulation", func(b *testing.B) {
		for b.Loop() {
			pipeline(b, e, zipped, true)
		}
	})
	b.Run("simulation", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			p := builderPayload(e, decode(b, e, zipped)) // cold sender caches
			b.StartTimer()
			if _, err := e.Chain.ValidatePayload(context.Background(), p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("geth-process-floor", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			p := builderPayload(e, decode(b, e, zipped))
			block, err := chain.BlockFromPayload(p.Payload, p.VersionedHashes, p.ParentBeaconRoot, p.Requests)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if err := e.Chain.ProcessBlock(context.Background(), block); err != nil {
				b.Fatal(err)
			}
		}
	})
	at := e.Clock.Now() // shared by every run of the sub-benchmark: newer each time
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			at = at.Add(time.Millisecond)
			s := decode(b, e, zipped)
			if out, err := e.Relay.Submit(context.Background(), relay.SubmitRequest{Submission: s, Cancellations: true, ReceivedAt: at}); err != nil || out != relay.Accepted {
				b.Fatal(out, err)
			}
		}
	})
}

// cpuTime is the process's CPU time so far (user and system): on a shared
// machine it shows the work of an operation apart from the time it waited
// for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports CPU nanoseconds per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
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
		start := cpuTime()
		for b.Loop() {
			decode(b, e, zipped)
		}
		reportCPU(b, start)
	})
	b.Run("decode-ssz-only", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		start := cpuTime()
		for b.Loop() {
			if _, err := relayapi.DecodeSubmission(e.Beacon, "fulu", raw, true); err != nil {
				b.Fatal(err)
			}
		}
		reportCPU(b, start)
	})
	b.Run("signature", func(b *testing.B) {
		start := cpuTime()
		for b.Loop() {
			big.VerifySignature(d) // the padded payload's trace is unchanged: valid
		}
		reportCPU(b, start)
	})
	b.Run("all-but-simulation-ssz", func(b *testing.B) {
		start := cpuTime()
		for b.Loop() {
			pipeline(b, e, raw, false)
		}
		reportCPU(b, start)
	})
	b.Run("all-but-simulation-ssz+gzip", func(b *testing.B) {
		start := cpuTime()
		for b.Loop() {
			pipeline(b, e, zipped, true)
		}
		reportCPU(b, start)
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
