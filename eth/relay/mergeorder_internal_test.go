package relay

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
)

// TestMergeOrderFoldsRequests: while a merge of an auction runs, the
// requests made meanwhile wait and are served by one merge after it (not
// one each, and not by the merge that was running when they came); a
// request for another auction does not wait.
func TestMergeOrderFoldsRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		o := newMergeOrder()
		ctx := context.Background()
		k, other := auctionKey{slot: 1}, auctionKey{slot: 2}
		gate := make(chan struct{})
		var merges, running atomic.Int32
		merge := func() {
			if running.Add(1) != 1 {
				t.Error("two merges of one auction ran at once")
			}
			if merges.Add(1) == 1 {
				<-gate // the first merge runs until released
			}
			running.Add(-1)
		}
		first := make(chan struct{})
		go func() {
			o.run(ctx, k, merge)
			close(first)
		}()
		synctest.Wait() // the first merge runs
		var wg sync.WaitGroup
		var done atomic.Int32
		for range 5 {
			wg.Go(func() {
				o.run(ctx, k, merge)
				if merges.Load() < 2 {
					t.Error("a request made during a merge returned without a merge after it")
				}
				done.Add(1)
			})
		}
		o.run(ctx, other, func() {}) // another auction: not held up
		synctest.Wait()
		if done.Load() != 0 {
			t.Fatal("requests made during a merge returned before it ended")
		}
		close(gate)
		wg.Wait()
		<-first
		if n := merges.Load(); n != 2 {
			t.Fatalf("%d merges, want 2: the running one and one for the 5 requests made during it", n)
		}
		if len(o.lanes) != 0 {
			t.Fatalf("%d lanes left after every request returned", len(o.lanes))
		}
	})
}
