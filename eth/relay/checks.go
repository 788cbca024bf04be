package relay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/log"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/internal/beside"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

// This file is the builder submission pipeline: Submit runs the checks in
// the reference relay's order, each a function below in that same order
// with its own sentinel error (errors.go).

// SubmitRequest is a decoded block submission.
type SubmitRequest struct {
	Submission *beacon.Submission
	// Cancellations is the builder's ?cancellations=1 opt-in.
	Cancellations bool
	ReceivedAt    time.Time
	// DecodedAt is when the body was read and decoded (zero when unknown);
	// the submission's log line shows DecodedAt - ReceivedAt as "decode".
	DecodedAt time.Time
	// Signature, if set, is the builder signature's verification started
	// while the body was still being read (StartSignatureCheck); the
	// signature check waits for it instead of verifying again.
	Signature *SignatureCheck
	// SSZ, if set, is the body the submission was decoded from, when it
	// was SSZ: an optimistic bid's pending simulation records these bytes
	// rather than encoding the submission again. The relay keeps the
	// slice while the submission is its bid.
	SSZ []byte
}

// SignatureCheck is a builder signature verification running in the
// background.
type SignatureCheck struct {
	trace beacon.BidTrace
	sig   beacon.BLSSignature
	done  chan struct{}
	err   error
	v     *beacon.Verification // nil when the key did not parse
}

// Help runs the verification's next part (the root's hash to the curve)
// on the caller when the verification's goroutine has not begun it: a
// handler calls it once it has read the body.
func (c *SignatureCheck) Help() {
	if c.v != nil {
		c.v.Help()
	}
}

// StartSignatureCheck starts verifying a builder's signature over trace, so
// that it overlaps with decoding the rest of the submission. The result is
// used only for a submission whose trace and signature are these. The
// verification runs on a goroutine of its own (beacon.VerifyRootAsync);
// the caller's goroutine checks the signature's encoding and subgroup
// (0.1 ms) and decompresses the builder's key when it is not cached.
func (r *Relay) StartSignatureCheck(trace *beacon.BidTrace, sig beacon.BLSSignature) *SignatureCheck {
	c := &SignatureCheck{trace: *trace, sig: sig, done: make(chan struct{})}
	pk, err := r.builderKey(c.trace.BuilderPubkey)
	if err != nil {
		c.err = err
		close(c.done)
		return c
	}
	// A known builder's verification is steered onto another core at
	// once (internal/beside): a plain go statement left it queued behind
	// the busy handler for a millisecond or two in a third of the
	// submissions. Others' start plainly: a stranger's flood does not get
	// to move the node's threads.
	var start func(func())
	if !r.cfg.SteerDisabled && r.KnownBuilder(c.trace.BuilderPubkey, c.trace.Slot) {
		start = steer
	}
	c.v = beacon.VerifyRootAsync(pk, c.trace.SigningRoot(r.builderDom), sig, start, func(err error) {
		if err == nil {
			r.keepBuilderKey(c.trace.BuilderPubkey, pk)
		}
		c.err = err
		close(c.done)
	})
	return c
}

// steer starts a known builder's verification (beside.Go; tests count
// its calls).
var steer = beside.Go

// maxBuilderKeys bounds the cache of parsed builder public keys.
const maxBuilderKeys = 4096

// verifyBuilder checks a builder's signature over a bid trace. Parsed
// public keys of builders whose signatures verified are cached: parsing
// (decompression and the subgroup check) is a good part of a verification.
func (r *Relay) verifyBuilder(t *beacon.BidTrace, sig beacon.BLSSignature) error {
	pk, err := r.builderKey(t.BuilderPubkey)
	if err != nil {
		return err
	}
	if err := beacon.VerifyRoot(pk, t.SigningRoot(r.builderDom), sig); err != nil {
		return err
	}
	r.keepBuilderKey(t.BuilderPubkey, pk)
	return nil
}

// builderKey returns a builder's parsed public key, from the cache when a
// signature of it verified before.
func (r *Relay) builderKey(b beacon.BLSPubkey) (*beacon.PublicKey, error) {
	if v, ok := r.builderKeys.Load(b); ok {
		return v.(*beacon.PublicKey), nil
	}
	return beacon.ParsePublicKey(b)
}

// keepBuilderKey caches the parsed key of a builder whose signature
// verified, while the cache has room.
func (r *Relay) keepBuilderKey(b beacon.BLSPubkey, pk *beacon.PublicKey) {
	if r.builderKeyCount.Load() < maxBuilderKeys {
		if _, loaded := r.builderKeys.LoadOrStore(b, pk); !loaded {
			r.builderKeyCount.Add(1)
		}
	}
}

// SubmitOutcome is what became of a submission that was not rejected.
type SubmitOutcome int

// Outcomes of Submit.
const (
	// Accepted: verified and stored (200, empty body).
	Accepted SubmitOutcome = iota
	// Dropped: a zero value or no transactions; nothing to do (200, empty).
	Dropped
	// BelowFloor: at or below the auction's floor, not simulated (202).
	BelowFloor
)

// Submit runs a builder's block submission through every check and, if it
// passes, makes it the builder's latest bid in its auction.
func (r *Relay) Submit(ctx context.Context, req SubmitRequest) (out SubmitOutcome, err error) {
	var st stageTimes
	start := time.Now()
	defer func() {
		countSubmission(out, err)
		st.total = time.Since(start)
		logSubmission(req, out, err, st)
	}()
	// The block of a header-first bid completes it (headerfirst.go).
	if bid := r.bids.awaitingBody(req.Submission.BidTrace().BlockHash); bid != nil {
		return r.takeBody(ctx, req, bid)
	}
	// An optimistic builder's bid has its getHeader answer signed once
	// the cheap checks passed, while its builder's signature is verified
	// (optimistic.go).
	var ahead *Bid
	p, outcome, err := r.precheck(req, func() { ahead = r.signAhead(req) })
	st.checks = time.Since(start)
	if err != nil || outcome != Accepted {
		return outcome, err
	}
	sub, t := req.Submission, req.Submission.BidTrace()
	// 9b. A bid of an optimistic builder within its collateral is served
	// now and simulated in the background (optimistic.go).
	if r.servedOptimistically(t, p.value) {
		if out, done, err := r.submitOptimistic(ctx, req, p, ahead); done {
			return out, err
		}
	}
	simStart := time.Now()
	verified, err := r.simulate(ctx, sub, t, p.payload, p.simInputs(sub.Fork))
	st.simulation = time.Since(simStart)
	simulationTimer.Update(st.simulation)
	r.record(sub, t, req.ReceivedAt, err, false)
	if err != nil {
		return 0, err
	}
	bid := &Bid{
		Trace: *t, Payload: sub.Payload(), Bundle: sub.BlobsBundle(), Requests: sub.ExecutionRequests(),
		ReceivedAt: req.ReceivedAt, Cancellable: req.Cancellations, value: p.value,
	}
	bid.verified.Store(verified)
	if r.cfg.Shared != nil {
		// Shared first: a bid the other instances cannot see is not kept
		// here either, so the builder's retry is verified and shared again
		// rather than found at the floor.
		if err := r.shareBid(ctx, sub, bid); err != nil {
			return 0, err
		}
	}
	if err := r.saveBid(bid); err != nil {
		return 0, err
	}
	r.knownBuilders.add(t.BuilderPubkey, t.Slot)
	// 12. The beta block is merged now, while the builder waits, so that
	// getHeader stays a lookup.
	if r.bids.best(keyOf(&bid.Trace)) == bid {
		r.mergeBeta(context.WithoutCancel(ctx), bid)
	}
	return Accepted, nil
}

// prechecked is what the checks before simulation found out.
type prechecked struct {
	payload *beacon.ExecutionPayloadDeneb
	reg     *beacon.SignedValidatorRegistration
	attrs   *PayloadAttributes
	value   *uint256.Int
}

// simInputs is what the simulation checks the block against.
func (p *prechecked) simInputs(fork params.ConsensusFork) simInputs {
	in := simInputs{gasLimit: p.reg.Message.GasLimit}
	if fork >= params.ForkDeneb {
		root := p.attrs.ParentBeaconRoot
		in.parentBeaconRoot = &root
	}
	return in
}

// precheck runs checks 1 to 9, in order; beforeSignature (when set) runs
// once the checks before the builder signature's (8) passed.
func (r *Relay) precheck(req SubmitRequest, beforeSignature func()) (*prechecked, SubmitOutcome, error) {
	sub := req.Submission
	t := sub.BidTrace()
	payload := sub.Payload().View()

	if err := r.checkCancellations(req.Cancellations); err != nil {
		return nil, 0, err
	}
	if err := r.checkBuilderBlocked(t); err != nil {
		return nil, 0, err
	}
	if err := r.checkFork(sub); err != nil {
		return nil, 0, err
	}
	if err := r.checkPastSlot(t); err != nil {
		return nil, 0, err
	}
	if err := r.checkTimestamp(t, payload.Timestamp); err != nil {
		return nil, 0, err
	}
	reg, err := r.checkDutyAndFeeRecipient(t)
	if err != nil {
		return nil, 0, err
	}
	if t.Value.IsZero() || len(payload.Transactions) == 0 {
		return nil, Dropped, nil
	}
	if err := r.checkBetaRoom(t); err != nil {
		return nil, 0, err
	}
	if err := checkHashes(t, payload.BlockHash, payload.ParentHash); err != nil {
		return nil, 0, err
	}
	attrs, err := r.checkPayloadAttributes(t, payload.PrevRandao, sub.Fork >= params.ForkCapella, func() (beacon.Root, error) {
		return beacon.WithdrawalsRoot(r.cfg.Spec, payload.Withdrawals)
	})
	if err != nil {
		return nil, 0, err
	}
	if beforeSignature != nil {
		beforeSignature()
	}
	if err := r.checkBuilderSignature(t, sub.Signature(), req.Signature); err != nil {
		return nil, 0, err
	}
	value := t.Value.Uint256()
	below, err := r.checkFloor(t, value, req.Cancellations)
	if err != nil {
		return nil, 0, err
	}
	if below {
		return nil, BelowFloor, nil
	}
	return &prechecked{payload: payload, reg: reg, attrs: attrs, value: value}, Accepted, nil
}

// 1. checkCancellations refuses the cancellations opt-in when the operator
// turned cancellations off. Handlers call CheckCancellations before they
// read the body, as the reference relay does.
func (r *Relay) checkCancellations(requested bool) error {
	if requested && r.cfg.CancellationsDisabled {
		return ErrCancellationsDisabled
	}
	return nil
}

// CheckCancellations is the first check, for handlers to run before
// reading the body.
func (r *Relay) CheckCancellations(requested bool) error { return r.checkCancellations(requested) }

// 2. checkFork: the payload's fork must be the fork of its slot.
func (r *Relay) checkFork(sub *beacon.Submission) error {
	want := r.cfg.Beacon.ForkAtSlot(sub.BidTrace().Slot)
	if sub.Fork != want {
		return withMessage(ErrWrongFork, "not %s payload", want)
	}
	return nil
}

// CheckBidTrace runs, on a submission's bid trace alone, the checks that
// need no payload: whether the operator blocked the builder, the fork of
// the slot (fork is the submission's, from its
// Eth-Consensus-Version header or its slot), the past slot, and the slot's
// duty and fee recipient. The builder API runs it on the message, read
// before the payload is decoded (for SSZ, before the rest of the body is
// even read), so a submission that cannot win costs no decoding; Submit
// runs every check again. A submission failing both the timestamp and the
// duty check hears about the duty here, where the reference relay (which
// decodes first) would name the timestamp.
func (r *Relay) CheckBidTrace(t *beacon.BidTrace, fork params.ConsensusFork) error {
	if err := r.checkBuilderBlocked(t); err != nil {
		return err
	}
	if want := r.cfg.Beacon.ForkAtSlot(t.Slot); fork != want {
		return withMessage(ErrWrongFork, "not %s payload", want)
	}
	if err := r.checkPastSlot(t); err != nil {
		return err
	}
	_, err := r.checkDutyAndFeeRecipient(t)
	return err
}

// 3. checkPastSlot: the slot must be after the head's.
func (r *Relay) checkPastSlot(t *beacon.BidTrace) error {
	if t.Slot <= r.HeadSlot() {
		return ErrPastSlot
	}
	return nil
}

// 4. checkTimestamp: the payload's timestamp must be its slot's start.
func (r *Relay) checkTimestamp(t *beacon.BidTrace, timestamp uint64) error {
	if want := r.cfg.Beacon.SlotTime(t.Slot); timestamp != want {
		return fmt.Errorf("%w. got %d, expected %d", ErrTimestamp, timestamp, want)
	}
	return nil
}

// 5. checkDutyAndFeeRecipient: the slot must have a registered proposer,
// the bid must name it, and its fee recipient must be the registered one.
// It returns the registration (whose gas limit simulation enforces).
func (r *Relay) checkDutyAndFeeRecipient(t *beacon.BidTrace) (*beacon.SignedValidatorRegistration, error) {
	duty, ok := r.duty(t.Slot)
	if !ok {
		return nil, ErrNoDuty
	}
	reg, ok := r.Registration(duty.Pubkey)
	if !ok {
		return nil, ErrNoDuty
	}
	if t.ProposerPubkey != duty.Pubkey {
		return nil, fmt.Errorf("%w: got %s, expected %s", ErrProposerMismatch, t.ProposerPubkey, duty.Pubkey)
	}
	if t.ProposerFeeRecipient != reg.Message.FeeRecipient {
		return nil, ErrFeeRecipient
	}
	return reg, nil
}

// 5b. checkBetaRoom: the block must leave the slot's beta_gas (the gas
// the L2 auction sold for the beta block) of its gas limit unused. Not a
// check of the reference relay; it runs as soon as the duty is known. The
// trace's gas figures are checked against the payload in simulation. The
// beta_gas is the beta service's last read, from memory: while it was never
// read nothing is reserved.
func (r *Relay) checkBetaRoom(t *beacon.BidTrace) error {
	need, known := r.BetaGas(t.Slot)
	if !known || need == 0 {
		return nil
	}
	if t.GasUsed > t.GasLimit || t.GasLimit-t.GasUsed < need {
		left := uint64(0)
		if t.GasUsed <= t.GasLimit {
			left = t.GasLimit - t.GasUsed
		}
		return detail(ErrBetaRoom, ": gas used %d of limit %d leaves %d, expected at least beta_gas %d for slot %d", t.GasUsed, t.GasLimit, left, need, t.Slot)
	}
	return nil
}

// 6. checkHashes: the bid trace's block and parent hash must be the
// payload's.
func checkHashes(t *beacon.BidTrace, blockHash, parentHash beacon.Root) error {
	if t.BlockHash != blockHash {
		return ErrBlockHash
	}
	if t.ParentHash != parentHash {
		return ErrParentHash
	}
	return nil
}

// 7. checkPayloadAttributes: prevRandao and (Capella on, withdrawals)
// the withdrawals root must be those the beacon chain fixed for the slot on
// this parent.
func (r *Relay) checkPayloadAttributes(t *beacon.BidTrace, prevRandao beacon.Root, withdrawals bool, withdrawalsRoot func() (beacon.Root, error)) (*PayloadAttributes, error) {
	attrs := r.payloadAttributes(t.Slot, common.Hash(t.ParentHash))
	if attrs == nil {
		return nil, ErrNoPayloadAttributes
	}
	if common.Hash(prevRandao) != attrs.PrevRandao {
		return nil, fmt.Errorf("%w - got: %s, expected: %s", ErrPrevRandao, prevRandao, attrs.PrevRandao.Hex())
	}
	if withdrawals {
		root, err := withdrawalsRoot()
		if err != nil {
			return nil, fmt.Errorf("%w - could not compute withdrawals root: %v", ErrWithdrawalsRoot, err)
		}
		if root != attrs.withdrawalsRoot {
			return nil, fmt.Errorf("%w - got: %s, expected: %s", ErrWithdrawalsRoot, root, attrs.withdrawalsRoot)
		}
	}
	return attrs, nil
}

// 8. checkBuilderSignature: the builder's BLS signature over the bid trace
// (the result of an early check if it was for this trace and signature).
func (r *Relay) checkBuilderSignature(t *beacon.BidTrace, sig beacon.BLSSignature, early *SignatureCheck) error {
	var err error
	if early != nil && early.trace == *t && early.sig == sig {
		<-early.done
		err = early.err
	} else {
		err = r.verifyBuilder(t, sig)
	}
	return builderSignatureError(err)
}

// builderSignatureError is Submit's error for a failed signature
// verification (nil for none).
func builderSignatureError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, beacon.ErrInvalidPubkey):
		return fmt.Errorf("%w: failed verifying builder signature: %v", ErrBuilderSignature, err)
	}
	return ErrBuilderSignature
}

// Done is closed once the verification has finished.
func (c *SignatureCheck) Done() <-chan struct{} { return c.done }

// Failed reports, without waiting, a verification that has already failed,
// as the error Submit would return for it (ErrBuilderSignature); nil while it
// runs or once it passed. The listener stops reading a submission whose
// signature failed: an unsigned client cannot make it inflate and hold
// megabytes.
func (c *SignatureCheck) Failed() error {
	select {
	case <-c.done:
		return builderSignatureError(c.err)
	default:
		return nil
	}
}

// 9. checkFloor: nothing more for a slot already delivered; a bid at or
// below the floor is not simulated (with cancellations: strictly below, and
// it withdraws the builder's previous bid).
func (r *Relay) checkFloor(t *beacon.BidTrace, value *uint256.Int, cancellable bool) (below bool, err error) {
	if r.deliveries.slotDelivered(t.Slot) {
		return false, ErrSlotDelivered
	}
	return r.bids.floorCheck(t, value, cancellable), nil
}

// 10. simulate verifies the block in process on its parent's state: the
// bid trace against the payload, then (core/chain) the gas-limit rule
// against the registration, block hash and versioned hashes, header and
// body, execution and state root, proposer payment; then the blobs bundle
// against the commitments with KZG proofs.
func (r *Relay) simulate(ctx context.Context, sub *beacon.Submission, t *beacon.BidTrace, p *beacon.ExecutionPayloadDeneb, in simInputs) (*chain.VerifiedPayload, error) {
	if err := checkTraceGas(t, p.GasLimit, p.GasUsed); err != nil {
		return nil, err
	}
	bp := &chain.BuilderPayload{
		Payload:              sub.Payload().ToExecutableData(),
		RegisteredGasLimit:   in.gasLimit,
		ProposerFeeRecipient: common.Address(t.ProposerFeeRecipient),
		Value:                t.Value.Uint256(),
		// Only a bid that can become the top keeps its state for the
		// beta block: the others would drop it at once.
		KeepState: r.mayBeTop(t),
		Prefixes:  r.prefixes,
	}
	bundle := sub.BlobsBundle()
	if sub.Fork >= params.ForkDeneb {
		bp.VersionedHashes = chain.VersionedHashes(bundle.Commitments)
		bp.ParentBeaconRoot = in.parentBeaconRoot
	}
	if reqs := sub.ExecutionRequests(); reqs != nil {
		var err error
		if bp.Requests, err = reqs.EngineRequests(); err != nil {
			return nil, fmt.Errorf("%w: execution requests: %v", ErrSimulation, err)
		}
	}
	v, err := r.chain.ValidatePayload(ctx, bp)
	if err != nil {
		return nil, simulationError(err)
	}
	if bundle != nil {
		if err := chain.VerifyBlobs(bundle.Commitments, bundle.Proofs, bundle.Blobs, sub.Fork >= params.ForkFulu); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBlobs, strings.TrimPrefix(err.Error(), chain.ErrBlobsBundle.Error()+": "))
		}
	}
	return v, nil
}

// checkTraceGas: the bid trace's gas limit and gas used must be the
// payload's (the first step of simulation, cheap enough to run before an
// optimistic bid is served).
func checkTraceGas(t *beacon.BidTrace, gasLimit, gasUsed uint64) error {
	if t.GasLimit != gasLimit {
		return fmt.Errorf("%w: block gas limit mismatch: got %d, expected %d", ErrBidTrace, t.GasLimit, gasLimit)
	}
	if t.GasUsed != gasUsed {
		return fmt.Errorf("%w: block gas used mismatch: got %d, expected %d", ErrBidTrace, t.GasUsed, gasUsed)
	}
	return nil
}

// simulationError keeps core/chain's sentinel in the chain and marks it as a
// simulation failure (400), unless the chain could not run it at all.
func simulationError(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return internal("simulation", err)
	}
	return fmt.Errorf("%w: %w", ErrSimulation, err)
}

// 11. saveBid makes the bid its builder's latest (with cancellations only if
// no newer submission of the builder got there first) and, if it is now the
// top bid, signs its getHeader answer in the background.
func (r *Relay) saveBid(b *Bid) error {
	isTop, err := r.bids.put(b)
	if err != nil {
		return err
	}
	if isTop {
		go b.signedBid(r.cfg.Spec, r.cfg.SecretKey, r.builderDom)
		r.bidLanded(b.Trace.Slot, common.Hash(b.Trace.ParentHash))
	}
	return nil
}

// record hands the simulated submission's bid trace to the data API's
// writer; optimistic says it was served before its simulation.
func (r *Relay) record(sub *beacon.Submission, t *beacon.BidTrace, at time.Time, simErr error, optimistic bool) {
	if r.recorder == nil {
		return
	}
	s := store.BlockSubmission{
		BidTraceV2: beacon.BidTraceV2{BidTrace: *t, BlockNumber: sub.Payload().View().BlockNumber, NumTx: uint64(len(sub.Payload().View().Transactions))},
		ReceivedAt: at.UnixMilli(),
		SimSuccess: simErr == nil,
		Optimistic: optimistic,
	}
	if simErr != nil {
		s.SimError = simErr.Error()
	}
	if !r.recorder.Add(s) {
		log.Warn("Relay dropped a bid trace: writer queue full", "slot", t.Slot, "block", t.BlockHash)
	}
}
