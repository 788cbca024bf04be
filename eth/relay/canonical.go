package relay

import (
	"context"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
)

// DefaultCanonicalDepth is how many slots after its slot a delivered block
// is checked against the relay's chain: by then the proposer's beacon block
// has been attested or orphaned, and the execution chain has followed.
const DefaultCanonicalDepth = 2

var deliveredNotCanonical = metrics.NewRegisteredMeter("gavel/relay/delivered/noncanonical", nil)

// CanonicalChain is what the relay reads of its chain to tell whether a
// block it delivered became canonical (core/chain.Chain).
type CanonicalChain interface {
	// CanonicalHash returns the hash of the canonical block at n; ok is
	// false when the chain has no block at n yet.
	CanonicalHash(n uint64) (hash common.Hash, ok bool)
}

// canonicalMarker sets the Canonical field of delivered records once the
// head is CanonicalDepth slots past them: a published block can still lose
// its slot (the proposer's own block won, or its beacon block was
// orphaned), and the data API and the auction operator must not take a
// delivery for a block of the chain. It runs in the background, kicked by
// each new head slot, so the head event never waits on the database.
type canonicalMarker struct {
	chain CanonicalChain
	st    store.Relay
	depth uint64

	kick chan uint64 // the newest head slot not checked yet
	stop context.CancelFunc
	done sync.WaitGroup
}

// canonicalBatch bounds the records one check reads: a database migrated
// with many unchecked records catches up a batch per head.
const canonicalBatch = 64

func newCanonicalMarker(c CanonicalChain, st store.Relay, depth uint64) *canonicalMarker {
	ctx, cancel := context.WithCancel(context.Background())
	m := &canonicalMarker{chain: c, st: st, depth: depth, kick: make(chan uint64, 1), stop: cancel}
	m.done.Add(1)
	go m.loop(ctx)
	return m
}

// headAt tells the marker about a new head slot; it never blocks.
func (m *canonicalMarker) headAt(slot uint64) {
	for {
		select {
		case m.kick <- slot:
			return
		default:
		}
		select {
		case old := <-m.kick: // replace a pending older head
			slot = max(slot, old)
		default:
		}
	}
}

func (m *canonicalMarker) loop(ctx context.Context) {
	defer m.done.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case head := <-m.kick:
			cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			if err := m.check(cctx, head); err != nil && ctx.Err() == nil {
				log.Warn("Relay could not check its delivered blocks against the chain", "head", head, "err", err)
			}
			cancel()
		}
	}
}

// check marks the unchecked delivered records of slots up to head-depth:
// canonical when the chain's block at the record's number is the delivered
// block, not canonical when it is another one. A record whose number the
// chain has not reached yet stays unknown.
func (m *canonicalMarker) check(ctx context.Context, head uint64) error {
	if head < m.depth {
		return nil
	}
	recs, err := m.st.DeliveredUnchecked(ctx, head-m.depth, canonicalBatch)
	if err != nil {
		return err
	}
	for _, rec := range recs {
		h, ok := m.chain.CanonicalHash(rec.BlockNumber)
		if !ok {
			return nil // the chain is behind: the next head tries again
		}
		canonical := beacon.Root(h) == rec.BlockHash
		if err := m.st.SetDeliveredCanonical(ctx, rec.Slot, rec.BlockHash, canonical); err != nil {
			return err
		}
		if !canonical {
			deliveredNotCanonical.Mark(1)
			log.Warn("Relay delivered a block that did not become canonical", "slot", rec.Slot, "number", rec.BlockNumber,
				"delivered", rec.BlockHash, "canonical", h)
		}
	}
	return nil
}

// close stops the marker and waits for a check in progress.
func (m *canonicalMarker) close() {
	m.stop()
	m.done.Wait()
}
