package relaystatus

import (
	"sync"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// bidSlotsKept is how many slots of bid counts the counter holds: the
// widest builders' window it can answer.
const bidSlotsKept = 256

// Recorder receives the bid traces of verified submissions
// (eth/relay.SubmissionRecorder).
type Recorder interface {
	Add(s store.BlockSubmission) bool
}

// BidCounter counts the builders' verified submissions per slot as the
// relay records them, so the builders' table needs no query over the bid
// traces (thousands per slot on mainnet). It counts what this instance
// received: with several instances sharing a database each counts its own.
type BidCounter struct {
	mu     sync.Mutex
	slots  map[uint64]map[beacon.BLSPubkey]uint64
	newest uint64
}

// NewBidCounter returns an empty counter.
func NewBidCounter() *BidCounter {
	return &BidCounter{slots: make(map[uint64]map[beacon.BLSPubkey]uint64)}
}

// Tee returns a recorder that counts each submission and hands it on to
// next (nil: count only).
func (c *BidCounter) Tee(next Recorder) Recorder { return tee{c, next} }

type tee struct {
	c    *BidCounter
	next Recorder
}

// Add implements Recorder.
func (t tee) Add(s store.BlockSubmission) bool {
	if s.SimSuccess || s.Optimistic {
		t.c.count(s.Slot, s.BuilderPubkey)
	}
	if t.next == nil {
		return true
	}
	return t.next.Add(s)
}

func (c *BidCounter) count(slot uint64, pk beacon.BLSPubkey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.newest >= bidSlotsKept && slot <= c.newest-bidSlotsKept {
		return // long past: outside every window
	}
	m := c.slots[slot]
	if m == nil {
		m = make(map[beacon.BLSPubkey]uint64)
		c.slots[slot] = m
	}
	m[pk]++
	if slot > c.newest {
		c.newest = slot
		if slot >= bidSlotsKept {
			for s := range c.slots {
				if s <= slot-bidSlotsKept {
					delete(c.slots, s)
				}
			}
		}
	}
}

// Since returns each builder's bids for slots from from on.
func (c *BidCounter) Since(from uint64) map[beacon.BLSPubkey]uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[beacon.BLSPubkey]uint64)
	for s, m := range c.slots {
		if s < from {
			continue
		}
		for pk, n := range m {
			out[pk] += n
		}
	}
	return out
}
