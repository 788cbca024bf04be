package store

import (
	"context"
	"runtime"
	"testing"
	"time"
)

func TestSubmissionBufferWritesOnClose(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		defer s.Close()
		// A long interval: only Close writes.
		b := NewSubmissionBuffer(s, time.Hour, 1000, 0)
		for i := range 300 {
			if !b.Add(BlockSubmission{BidTraceV2: trace(uint64(i+1), byte(i), 9, 1, 1), ReceivedAt: int64(i), SimSuccess: true}) {
				t.Fatal("Add refused below the limit")
			}
		}
		if q, _ := b.Pending(); q != 300 {
			t.Fatalf("pending %d", q)
		}
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := s.BlockSubmissions(ctx, SubmissionQuery{})
		if err != nil || len(got) != 300 {
			t.Fatalf("stored %d, %v", len(got), err)
		}
	})
}

func TestSubmissionBufferBoundedAndRetries(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		ctx := context.Background()
		s := db.open(t)
		b := NewSubmissionBuffer(s, time.Hour, 1000, 3)
		defer b.Close()
		for i := range 5 {
			b.Add(BlockSubmission{BidTraceV2: trace(uint64(i+1), byte(i), 9, 1, 1), SimSuccess: true})
		}
		if q, d := b.Pending(); q != 3 || d != 2 {
			t.Fatalf("pending %d dropped %d, want 3 and 2", q, d)
		}
		// A failing write (closed database) keeps the traces for the next flush.
		s.Close()
		if err := b.Flush(ctx); err == nil {
			t.Fatal("flush to a closed store succeeded")
		}
		if q, _ := b.Pending(); q != 3 {
			t.Fatalf("after a failed flush %d pending, want 3", q)
		}
	})
}

func TestSubmissionBufferFlushesFullBatch(t *testing.T) {
	backends(t, func(t *testing.T, db *testDB) {
		s := db.open(t)
		defer s.Close()
		// The interval never fires during the test: only a full batch can start a flush.
		b := NewSubmissionBuffer(s, time.Hour, 10, 0)
		defer b.Close()
		for i := range 10 {
			b.Add(BlockSubmission{BidTraceV2: trace(uint64(i+1), byte(i), 9, 1, 1), SimSuccess: true})
		}
		deadline := time.Now().Add(20 * time.Second)
		for q, _ := b.Pending(); q != 0; q, _ = b.Pending() {
			if time.Now().After(deadline) {
				t.Fatalf("a full batch of 10 was not flushed: %d pending", q)
			}
			runtime.Gosched()
		}
	})
}
