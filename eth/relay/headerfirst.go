package relay

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

// This file is header-first submission, helix's optimistic v2: an
// optimistic builder sends its block's header first (POST
// /relay/v1/builder/headers), which getHeader serves once the checks that
// need no payload and the builder's signature passed, and the block after,
// in an ordinary block submission. The block must be the one its header
// announced (beacon.HeaderSubmission.MatchPayload); it then takes the
// optimistic path from its record on: its pending simulation is committed,
// the bid shared with the other instances, the simulation run in the
// background. Until the block arrives the bid lives in this instance's
// memory only: getPayload waits for it (Config.BodyWait), and past that the
// builder is demoted and owes the proposer the bid's value
// (store.ReasonPayloadMissing).

var (
	headerFirstServed = metrics.NewRegisteredMeter("gavel/relay/headerfirst/served", nil)
	headerBodies      = metrics.NewRegisteredMeter("gavel/relay/headerfirst/bodies", nil)
	headerMismatch    = metrics.NewRegisteredMeter("gavel/relay/headerfirst/mismatched", nil)
	headerBodyMissing = metrics.NewRegisteredMeter("gavel/relay/headerfirst/missing", nil)
)

// HeaderRequest is a decoded header-first submission.
type HeaderRequest struct {
	Header     *beacon.HeaderSubmission
	ReceivedAt time.Time
}

// headerOnly is what a header-first bid holds until its block arrives.
type headerOnly struct {
	sub *beacon.HeaderSubmission
	in  simInputs
	// mu is held while a block submission is matched against the header
	// (and, once it matched, recorded), and by getPayload giving up on the
	// block: one at a time, so that a block that does not match, which
	// anyone may send, only delays the true one.
	mu     sync.Mutex
	gaveUp bool // guarded by mu
	// arrived is closed once the block is the bid's (Payload, Bundle and
	// Requests set, recorded made).
	arrived chan struct{}
}

// hasBody reports whether the bid's block is in: always for a bid that
// was not submitted header first.
func (b *Bid) hasBody() bool {
	if b.awaiting == nil {
		return true
	}
	select {
	case <-b.awaiting.arrived:
		return true
	default:
		return false
	}
}

// SubmitHeader runs a header-first submission through the checks that need
// no payload, in Submit's order, and serves it as its builder's bid: only
// an optimistic builder's, within its collateral (ErrHeaderNotOptimistic).
func (r *Relay) SubmitHeader(ctx context.Context, req HeaderRequest) (out SubmitOutcome, err error) {
	start := time.Now()
	h := req.Header
	t, hdr := h.BidTrace(), h.Header()
	defer func() {
		countSubmission(out, err)
		log.Debug("Relay took a header submission", "slot", t.Slot, "block", t.BlockHash, "builder", t.BuilderPubkey,
			"value", t.Value, "outcome", out, "err", err, "took", time.Since(start))
	}()
	if err := r.checkBuilderBlocked(t); err != nil {
		return 0, err
	}
	if want := r.cfg.Beacon.ForkAtSlot(t.Slot); h.Fork != want {
		return 0, withMessage(ErrWrongFork, "not %s payload", want)
	}
	if err := r.checkPastSlot(t); err != nil {
		return 0, err
	}
	if err := r.checkTimestamp(t, hdr.Timestamp); err != nil {
		return 0, err
	}
	reg, err := r.checkDutyAndFeeRecipient(t)
	if err != nil {
		return 0, err
	}
	if t.Value.IsZero() {
		return Dropped, nil
	}
	if r.bids.byBlockHash(t.BlockHash) != nil {
		// The block, or its header, is in already: the header would
		// only replace it by a bid awaiting a block that came.
		return Dropped, nil
	}
	if err := r.checkBetaRoom(t); err != nil {
		return 0, err
	}
	if err := checkHashes(t, hdr.BlockHash, hdr.ParentHash); err != nil {
		return 0, err
	}
	attrs, err := r.checkPayloadAttributes(t, hdr.PrevRandao, true, func() (beacon.Root, error) { return hdr.WithdrawalsRoot, nil })
	if err != nil {
		return 0, err
	}
	if err := checkTraceGas(t, hdr.GasLimit, hdr.GasUsed); err != nil {
		return 0, err
	}
	value := t.Value.Uint256()
	if err := r.checkHeaderFirst(t, value); err != nil {
		return 0, err
	}
	p := &prechecked{reg: reg, attrs: attrs, value: value}
	bid := &Bid{
		Trace: *t, ReceivedAt: req.ReceivedAt, value: value, optimistic: true,
		awaiting: &headerOnly{sub: h, in: p.simInputs(h.Fork), arrived: make(chan struct{})},
	}
	bid.simulating.Store(true)
	// The answer getHeader serves is signed on the other core during the
	// verification's final exponentiation (within signAheadSem's bound,
	// as signAhead: a header naming an optimistic builder without its key
	// costs at most that many signings at a time).
	var sign func()
	signed := false
	if r.bids.couldTop(t, value) {
		select {
		case r.signAheadSem <- struct{}{}:
			sign = func() {
				defer func() { <-r.signAheadSem }()
				signed = true
				bid.signedBid(r.cfg.Spec, r.cfg.SecretKey, r.builderDom)
			}
		default:
		}
	}
	err = r.verifyBuilderBeside(t, h.Signature(), sign)
	if sign != nil && !signed {
		<-r.signAheadSem // the signature did not decode: sign never ran
	}
	if err != nil {
		return 0, err
	}
	below, err := r.checkFloor(t, value, false)
	if err != nil {
		return 0, err
	}
	if below {
		return BelowFloor, nil
	}
	if err := r.saveBid(bid); err != nil {
		if errors.Is(err, errDemotedInSlot) {
			return 0, detail(ErrHeaderNotOptimistic, ": builder %s was demoted for slot %d", t.BuilderPubkey, t.Slot)
		}
		return 0, err
	}
	// The getHeader answers the bid woke run next, on this goroutine's P.
	runtime.Gosched()
	headerFirstServed.Mark(1)
	return Accepted, nil
}

// verifyBuilderBeside is checkBuilderSignature for a header submission:
// the verification split over this goroutine and another (steered onto the
// other core for a builder the relay knows), which runs beside once its
// part is done (beacon.VerifyRootBeside).
func (r *Relay) verifyBuilderBeside(t *beacon.BidTrace, sig beacon.BLSSignature, beside func()) error {
	pk, err := r.builderKey(t.BuilderPubkey)
	if err != nil {
		return builderSignatureError(err)
	}
	var start func(func())
	if !r.cfg.SteerDisabled && r.KnownBuilder(t.BuilderPubkey, t.Slot) {
		start = steer
	}
	if err := beacon.VerifyRootBeside(pk, t.SigningRoot(r.builderDom), sig, start, beside); err != nil {
		return builderSignatureError(err)
	}
	r.keepBuilderKey(t.BuilderPubkey, pk)
	return nil
}

// checkHeaderFirst: a header is taken only from an optimistic builder, not
// demoted, for a value within its collateral, while the background
// simulations have room.
func (r *Relay) checkHeaderFirst(t *beacon.BidTrace, value *uint256.Int) error {
	collateral, ok := r.knownBuilders.collateral(t.BuilderPubkey)
	switch {
	case !ok:
		return detail(ErrHeaderNotOptimistic, ": builder %s is not optimistic (or was demoted); send the full block to the blocks endpoint", t.BuilderPubkey)
	case value.Cmp(collateral) > 0:
		optimisticSafe.Mark(1)
		return detail(ErrHeaderNotOptimistic, ": value %s is over the builder's collateral %s; send the full block to the blocks endpoint", value.Dec(), collateral.Dec())
	case r.optimisticQueued.Load() >= maxOptimisticQueued:
		return detail(ErrHeaderNotOptimistic, ": the relay has %d optimistic bids awaiting simulation; send the full block to the blocks endpoint", maxOptimisticQueued)
	}
	return nil
}

// CheckHeaderTrace runs, on a header submission's bid trace, CheckBidTrace
// and the header-first rule (an optimistic builder within its collateral):
// the builder API runs it before it starts the signature's verification, so
// that a header naming a builder that may not send one costs no BLS check.
func (r *Relay) CheckHeaderTrace(t *beacon.BidTrace, fork params.ConsensusFork) error {
	if err := r.CheckBidTrace(t, fork); err != nil {
		return err
	}
	return r.checkHeaderFirst(t, t.Value.Uint256())
}

// takeBody makes a block submission the block of the header-first bid it
// completes: it must be the block the header announced (else
// ErrBodyMismatch, and the bid keeps waiting: the body of a submission is
// not signed, so a mismatch proves nothing against the builder). Its
// trace and signature are the header's, verified then, so they are not
// verified again. Then the bid takes the optimistic path from its record
// on (recordOptimistic).
func (r *Relay) takeBody(ctx context.Context, req SubmitRequest, bid *Bid) (SubmitOutcome, error) {
	w := bid.awaiting
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.gaveUp:
		return 0, detail(ErrPayloadMissing, ": a proposer asked for block %s before it came; its builder was demoted", bid.Trace.BlockHash)
	case bid.hasBody():
		return Dropped, nil // the same block, taken meanwhile
	}
	sub := req.Submission
	if err := w.sub.MatchPayload(sub); err != nil {
		headerMismatch.Mark(1)
		return 0, fmt.Errorf("%w: %w", ErrBodyMismatch, err)
	}
	bid.Payload, bid.Bundle, bid.Requests = sub.Payload(), sub.BlobsBundle(), sub.ExecutionRequests()
	bid.recorded = make(chan struct{})
	close(w.arrived)
	headerBodies.Mark(1)
	// The block of a builder demoted for the slot since its header was
	// served is still taken (a proposer may have signed the header), and
	// its simulation owed recorded, but it is not shared: another
	// instance would serve it.
	share := !r.bids.demotedFor(bid.Trace.Slot, bid.Trace.BuilderPubkey)
	if err := r.recordOptimistic(ctx, req, bid, w.in, share); err != nil {
		return 0, err
	}
	return Accepted, nil
}

// demotedFor reports whether builder was demoted for slot.
func (s *bidStore) demotedFor(slot uint64, builder beacon.BLSPubkey) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.demoted[slotBuilder{slot, builder}]
	return ok
}

// awaitingBody returns the header-first bid of block h whose block has not
// arrived, or nil.
func (s *bidStore) awaitingBody(h beacon.Root) *Bid {
	b := s.byBlockHash(h)
	if b == nil || b.hasBody() {
		return nil
	}
	return b
}

// awaitBody waits, for getPayload, until a header-first bid's block is in,
// at most Config.BodyWait. Past it the builder is demoted: the proposer
// signed a header whose block never came, and is owed the bid's value.
func (r *Relay) awaitBody(ctx context.Context, bid *Bid) error {
	if bid.hasBody() {
		return nil
	}
	w := bid.awaiting
	t := time.NewTimer(r.cfg.BodyWait)
	defer t.Stop()
	select {
	case <-w.arrived:
		return nil
	case <-ctx.Done():
		return internal("waiting for the block of a header-first bid", ctx.Err())
	case <-t.C:
	}
	// Gives up unless a block being matched right now turns out to be
	// the one.
	w.mu.Lock()
	if bid.hasBody() {
		w.mu.Unlock()
		return nil
	}
	first := !w.gaveUp
	w.gaveUp = true
	w.mu.Unlock()
	if first {
		headerBodyMissing.Mark(1)
		r.demote(bid, store.ReasonPayloadMissing)
	}
	return detail(ErrPayloadMissing, ": block %s, waited %s", bid.Trace.BlockHash, r.cfg.BodyWait)
}
