package relay_test

import (
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
)

func BenchmarkZZParts(b *testing.B) {
	e, raw, zipped := benchSubmission(b, 200)
	sub := decode(b, e, zipped)
	f := *sub.Fulu
	txs := f.ExecutionPayload.Transactions
	for len(raw) < 115<<10 {
		f.ExecutionPayload.Transactions = append(f.ExecutionPayload.Transactions, txs[:50]...)
		raw, _ = (&f).MarshalSSZ()
	}
	b.Logf("%d bytes, %d txs", len(raw), len(f.ExecutionPayload.Transactions))
	big, _ := beacon.NewSubmission(e.Spec, sub.Fork, &f)
	d := beacon.BuilderDomain(e.Beacon)
	b.Run("marshal", func(b *testing.B) {
		for b.Loop() {
			big.MarshalSSZ()
		}
	})
	b.Run("decode-ssz", func(b *testing.B) {
		for b.Loop() {
			beacon.DecodeSubmissionSSZ(e.Spec, big.Fork, raw)
		}
	})
	b.Run("header", func(b *testing.B) {
		for b.Loop() {
			big.Payload().Header(e.Spec)
		}
	})
	b.Run("signedbid", func(b *testing.B) {
		for b.Loop() {
			beacon.NewSignedBuilderBid(e.Spec, big.Payload(), nil, big.ExecutionRequests(), big.BidTrace().Value, e.RelayKey, d)
		}
	})
	b.Run("sign", func(b *testing.B) {
		t := big.BidTrace()
		for b.Loop() {
			e.RelayKey.Sign(t, d)
		}
	})
	b.Run("verify", func(b *testing.B) {
		t := big.BidTrace()
		for b.Loop() {
			beacon.Verify(t.BuilderPubkey, t, d, big.Signature())
		}
	})
}
