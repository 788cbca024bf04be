package relayapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// BenchmarkEncodeDelivered200 compares encoding a full proposer_payload_delivered
// answer (200 items) with the appenders against encoding/json over the same
// items (core/beacon's MarshalJSON, the baseline).
func BenchmarkEncodeDelivered200(b *testing.B) {
	items := make([]beacon.BidTraceV2, 200)
	for i := range items {
		items[i] = traceFromBytes([]byte{byte(i), byte(i >> 8)}).BidTraceV2
	}
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := json.Marshal(items); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("append", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			buf := make([]byte, 0, 2+len(items)*bidTraceSize)
			buf = append(buf, '[')
			for j := range items {
				if j > 0 {
					buf = append(buf, ',')
				}
				buf = appendBidTraceV2(buf, &items[j])
			}
			_ = append(buf, ']')
		}
	})
}

// BenchmarkDataAPI measures a data API query over loopback HTTP against the
// same store query without HTTP and JSON (the baseline), on a SQLite store
// holding 2,000 delivered payloads and 2,000 builder submissions.
func BenchmarkDataAPI(b *testing.B) {
	s, base := dataServer(b)
	ctx := context.Background()
	subs := make([]store.BlockSubmission, 0, 2000)
	for slot := uint64(1); slot <= 2000; slot++ {
		if _, err := s.PutDelivered(ctx, &store.DeliveredPayload{BidTraceV2: trace(slot, byte(slot), byte(slot%4), byte(slot), slot*3%1001)}); err != nil {
			b.Fatal(err)
		}
		subs = append(subs, store.BlockSubmission{BidTraceV2: trace(slot/10+1, byte(slot), byte(slot%4), 1, slot), ReceivedAt: int64(slot), SimSuccess: true})
	}
	if err := s.PutBlockSubmissions(ctx, subs); err != nil {
		b.Fatal(err)
	}
	client := &http.Client{}
	httpGet := func(b *testing.B, path string) {
		for i := 0; i < b.N; i++ {
			resp, err := client.Get(base + path)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Fatal(resp.Status)
			}
		}
	}
	b.Run("delivered-latest-200/http", func(b *testing.B) { httpGet(b, PathDataPayloadDelivered) })
	b.Run("delivered-latest-200/store", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := s.DeliveredPayloads(ctx, store.DeliveredQuery{Limit: 200}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("delivered-slot/http", func(b *testing.B) { httpGet(b, PathDataPayloadDelivered+"?slot=1000") })
	b.Run("delivered-slot/store", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := s.DeliveredPayloads(ctx, store.DeliveredQuery{Slot: 1000, Limit: 200}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("received-slot/http", func(b *testing.B) { httpGet(b, PathDataBuilderBlocks+"?slot=100") })
	b.Run("received-slot/store", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := s.BlockSubmissions(ctx, store.SubmissionQuery{Slot: 100}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
