package relay

import (
	"context"
	"sync"
	"time"

	"github.com/gavel-eth/gavel/core/beacon"
)

// Checks runs the submission checks before simulation except the builder
// signature (benchmarks time the signature apart): the request carries a
// signature check already settled as passed.
func (r *Relay) Checks(req SubmitRequest) error {
	passed := &SignatureCheck{trace: *req.Submission.BidTrace(), sig: req.Submission.Signature(), done: make(chan struct{})}
	close(passed.done)
	req.Signature = passed
	_, _, err := r.precheck(req, nil)
	return err
}

// Prechecks runs every check before simulation, the builder signature
// included (using req.Signature when set).
func (r *Relay) Prechecks(req SubmitRequest) error {
	_, _, err := r.precheck(req, nil)
	return err
}

// RegistrationsVerified is how many registration signatures the relay has
// handed to BLS verification (a process-wide meter).
func RegistrationsVerified() int64 { return registrationsVerified.Snapshot().Count() }

// OnSharedBid sets a function called when a bid verified by another
// instance is installed in this relay's auctions, with the time since the
// other instance stored it.
func (r *Relay) OnSharedBid(fn func(beacon.Root, time.Duration)) { r.onShared.Store(&fn) }

// OnSharedVerified sets a function called when a bid of another instance
// was executed on this relay's chain (its post-state kept).
func (r *Relay) OnSharedVerified(fn func(beacon.Root)) { r.onVerified.Store(&fn) }

// OnMerged sets a function called when a merged block of paid-set
// generation gen becomes what getHeader serves for its auction.
func (r *Relay) OnMerged(fn func(slot, gen uint64, block beacon.Root)) { r.onMerged.Store(&fn) }

// WaitBackground waits for the relay's background work (merges of shared
// bids, outcomes): call it once no request or notification is coming.
func (r *Relay) WaitBackground() { r.background.Wait() }

// HeaderWaits is how many getHeaders of this relay waited for a bid in
// flight.
func (r *Relay) HeaderWaits() int64 { return r.headerWaits.Load() }

// BuildsInFlight is how many (slot, parent) pairs have a build in flight
// that getHeader would wait for.
func (r *Relay) BuildsInFlight() int { return r.waits.inFlight() }

// OnHeaderWait sets a function called with the slot when a getHeader
// starts waiting for a bid in flight.
func (r *Relay) OnHeaderWait(fn func(slot uint64)) { r.onWait.Store(&fn) }

// ProposerEquivocations is how many second beacon blocks were signed over a
// payload already delivered (a process-wide meter).
func ProposerEquivocations() int64 { return proposerEquivocations.Snapshot().Count() }

// CheckCanonical runs the canonical check of delivered records for head at
// once (the relay runs it in the background on every head slot).
func (r *Relay) CheckCanonical(head uint64) error {
	return r.canonical.check(context.Background(), head)
}

// ReloadBuilders reads the known builders and the operator's statuses
// (optimistic ones included) from the store now, as the refresher does at
// each head slot.
func (r *Relay) ReloadBuilders() error {
	return r.knownBuilders.load(context.Background(), r.store, r.HeadSlot())
}

// OnOptimisticSimulated sets a function called when the background
// simulation of an optimistic bid ended, with its error.
func (r *Relay) OnOptimisticSimulated(fn func(beacon.Root, error)) { r.onOptimistic.Store(&fn) }

// DropOptimisticSimulations makes the relay serve optimistic bids without
// ever simulating them, as a process that dies right after serving.
func (r *Relay) DropOptimisticSimulations() { r.dropOptimistic.Store(true) }

// HoldOptimisticSimulations makes background simulations of optimistic
// bids wait until the returned function is called (once or more; the
// test's cleanup calls it too, so that Close never waits on a held one).
func (r *Relay) HoldOptimisticSimulations() (release func()) {
	gate := make(chan struct{})
	r.optimisticGate.Store(&gate)
	var once sync.Once
	return func() { once.Do(func() { close(gate) }) }
}

// MaxOptimisticQueued is how many optimistic bids may wait for their
// background simulation before submissions take the safe path.
const MaxOptimisticQueued = maxOptimisticQueued

// SetSteer replaces how a known builder's verification is started until
// the returned function restores it.
func SetSteer(f func(func())) (restore func()) {
	old := steer
	steer = f
	return func() { steer = old }
}
