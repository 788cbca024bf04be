package relay

import (
	"context"
	"sync"
)

// mergeOrder runs the beta merges of each auction one at a time and folds
// requests together: a merge reads the auction's top bid and paid set when
// it starts, so every request made before that start is served by it, and
// a request made while a merge runs (a new top bid, a changed paid set)
// gets a merge of its own after it. No request is lost and none waits for
// more than the merge running and its own.
type mergeOrder struct {
	mu    sync.Mutex
	lanes map[auctionKey]*mergeLane
}

// mergeLane is one auction's queue.
type mergeLane struct {
	turn  chan struct{} // holds a token while a merge runs
	asked uint64        // requests made
	done  uint64        // requests served by merges that have ended
	users int           // requests not returned yet; the lane goes at 0
}

func newMergeOrder() *mergeOrder { return &mergeOrder{lanes: make(map[auctionKey]*mergeLane)} }

// run returns once a merge of auction k that started after this call has
// ended: merge itself, or one another caller started meanwhile. It gives up
// waiting when ctx ends.
func (o *mergeOrder) run(ctx context.Context, k auctionKey, merge func()) {
	o.mu.Lock()
	l := o.lanes[k]
	if l == nil {
		l = &mergeLane{turn: make(chan struct{}, 1)}
		o.lanes[k] = l
	}
	l.asked++
	ticket := l.asked
	l.users++
	o.mu.Unlock()
	defer func() {
		o.mu.Lock()
		if l.users--; l.users == 0 {
			delete(o.lanes, k)
		}
		o.mu.Unlock()
	}()

	select {
	case l.turn <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-l.turn }()
	o.mu.Lock()
	if l.done >= ticket {
		o.mu.Unlock()
		return // a merge that started after this request has ended
	}
	covered := l.asked
	o.mu.Unlock()
	merge()
	o.mu.Lock()
	l.done = covered
	o.mu.Unlock()
}
