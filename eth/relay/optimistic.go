package relay

import (
	"context"
	"errors"
	"runtime"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/core/errclass"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/params"
)

// This file is optimistic relaying, as ultra sound, helix and
// mev-boost-relay do it: a builder the operator made optimistic, with a
// collateral deposited off-chain, has a submission worth at most its
// collateral served by getHeader as soon as the checks before simulation
// passed; the simulation runs right after, in the background. A failed
// simulation demotes the builder at once: its bids of the slot are
// withdrawn on every instance, its later submissions take the safe path
// (simulated before they are served) until the operator promotes it
// again, and the demotion is recorded with what the proposer is owed from
// the collateral if the block was delivered.

// ReasonSimulationLost is the demotion reason of a bid served before a
// restart whose simulation could not be run after it (its slot passed, or
// its parent state is gone).
const ReasonSimulationLost = "simulation lost at restart"

// maxOptimisticSimulations bounds the background simulations of
// optimistic bids running at once.
const maxOptimisticSimulations = 2

// maxOptimisticQueued bounds the optimistic bids waiting for or in their
// background simulation; past it, submissions take the safe path (a burst
// of submissions cannot pile up goroutines and payloads in memory).
const maxOptimisticQueued = 64

// optimisticSimulationTimeout bounds one background simulation.
const optimisticSimulationTimeout = 30 * time.Second

var (
	optimisticServed = metrics.NewRegisteredMeter("gavel/relay/optimistic/served", nil)
	// Background simulations that passed, and the bids served unverified
	// by getPayload (the collateral covers them).
	optimisticVerified    = metrics.NewRegisteredMeter("gavel/relay/optimistic/verified", nil)
	optimisticDelivered   = metrics.NewRegisteredMeter("gavel/relay/optimistic/deliveredunverified", nil)
	optimisticDemoted     = metrics.NewRegisteredMeter("gavel/relay/optimistic/demoted", nil)
	optimisticSafe        = metrics.NewRegisteredMeter("gavel/relay/optimistic/overcollateral", nil)
	optimisticSimFailures = metrics.NewRegisteredMeter("gavel/relay/optimistic/simulationerrors", nil)
)

// optimisticStatus is a builder's optimistic status as the relay holds it.
type optimisticStatus struct {
	collateral *uint256.Int
	demoted    bool
	updatedAt  int64 // when the operator set it, unix ms
}

// setOptimistic installs the optimistic statuses read from the database;
// k.mu is held. A demotion this instance knows of stands until the operator
// set the status after it.
func (k *knownBuilders) setOptimistic(m map[beacon.BLSPubkey]optimisticStatus) {
	for pk, at := range k.demotedAt {
		s, ok := m[pk]
		switch {
		case !ok:
			delete(k.demotedAt, pk)
		case s.demoted || s.updatedAt < at.UnixMilli():
			s.demoted = true
			m[pk] = s
		default:
			delete(k.demotedAt, pk) // re-promoted since
		}
	}
	k.optimistic = m
}

// collateral returns pk's collateral when it is optimistic and not demoted.
func (k *knownBuilders) collateral(pk beacon.BLSPubkey) (*uint256.Int, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	s, ok := k.optimistic[pk]
	if !ok || s.demoted {
		return nil, false
	}
	return s.collateral, true
}

// demote marks pk demoted from now on.
func (k *knownBuilders) demote(pk beacon.BLSPubkey) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.demotedAt[pk] = time.Now()
	if s, ok := k.optimistic[pk]; ok {
		s.demoted = true
		k.optimistic[pk] = s
	}
}

// simInputs is what a block is simulated against besides its parent
// state: the beacon root of its slot (Deneb on) and the gas limit the
// proposer registered.
type simInputs struct {
	parentBeaconRoot *common.Hash
	gasLimit         uint64
}

// servedOptimistically reports whether t's submission may be served before
// its simulation: its builder is optimistic, not demoted, and the bid is
// worth at most the collateral.
func (r *Relay) servedOptimistically(t *beacon.BidTrace, value *uint256.Int) bool {
	collateral, ok := r.knownBuilders.collateral(t.BuilderPubkey)
	if !ok {
		return false
	}
	if value.Cmp(collateral) > 0 {
		optimisticSafe.Mark(1)
		return false
	}
	return r.optimisticQueued.Load() < maxOptimisticQueued
}

// errDemotedInSlot: the bid's builder was demoted for its slot while the
// bid was being checked; it takes the safe path.
var errDemotedInSlot = errors.New("builder demoted for the slot")

// maxSignAhead bounds the optimistic bids whose header is being signed
// before their builder's signature verified: a submission that names an
// optimistic builder without its key costs the relay at most this many
// signings at a time on top of its signature verification; past it, a
// bid's header is signed once the signature verified.
const maxSignAhead = 2

// signAhead signs the getHeader answer of a submission that an optimistic
// builder may have served at once (its collateral covers the bid, and the
// bid can become its auction's top), on the caller's goroutine while the
// builder's signature is verified on another (SubmitRequest.Signature):
// the header's roots (their batches shared with a helper that the other
// core takes once the verification is over) and the relay's signature are
// computed beside the verification rather than after it. It returns the
// bid the submission becomes if its checks pass (nil: nothing signed). The
// signature is only served once the bid is stored, after every check.
func (r *Relay) signAhead(req SubmitRequest) *Bid {
	t := req.Submission.BidTrace()
	value := t.Value.Uint256()
	collateral, ok := r.knownBuilders.collateral(t.BuilderPubkey)
	if !ok || value.Cmp(collateral) > 0 || value.IsZero() || !r.bids.couldTop(t, value) {
		return nil
	}
	if req.Signature != nil && req.Signature.Failed() != nil {
		return nil
	}
	select {
	case r.signAheadSem <- struct{}{}:
	default:
		return nil
	}
	defer func() { <-r.signAheadSem }()
	bid := r.optimisticBid(req.Submission, req.ReceivedAt, req.Cancellations)
	bid.signedBid(r.cfg.Spec, r.cfg.SecretKey, r.builderDom)
	return bid
}

// couldTop reports whether a bid of value from t's builder would be its
// auction's top bid now.
func (s *bidStore) couldTop(t *beacon.BidTrace, value *uint256.Int) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	a := s.auctions[keyOf(t)]
	return a == nil || a.top == nil || value.Cmp(a.top.value) > 0 || a.top.Trace.BuilderPubkey == t.BuilderPubkey
}

// submitOptimistic serves a prechecked submission before its simulation:
// the bid is stored (servable once its header is signed, which signAhead
// may have started as ahead), then the pending simulation is recorded
// (durably: a restart resumes it) and the bid shared, and the simulation
// starts in the background. done is false when the submission must take
// the safe path instead.
func (r *Relay) submitOptimistic(ctx context.Context, req SubmitRequest, p *prechecked, ahead *Bid) (out SubmitOutcome, done bool, err error) {
	sub, t := req.Submission, req.Submission.BidTrace()
	if err := checkTraceGas(t, p.payload.GasLimit, p.payload.GasUsed); err != nil {
		return 0, true, err
	}
	in := p.simInputs(sub.Fork)
	bid := ahead
	if bid == nil {
		bid = r.optimisticBid(sub, req.ReceivedAt, req.Cancellations)
	}
	// The bid is served first; its record and (with other instances) its
	// share are written after: getHeader may serve the bid before they
	// are committed (a crash then loses a bid nobody could have been
	// delivered), getPayload waits for both (awaitRecorded), so no block
	// is delivered whose simulation a restart would not know it owes, or
	// that the other instances could not see. The builder is answered
	// once both are committed; a failure withdraws the bid.
	bid.recorded = make(chan struct{})
	if err := r.saveBid(bid); err != nil {
		bid.settle(err)
		if errors.Is(err, errDemotedInSlot) {
			return 0, false, nil
		}
		return 0, true, err
	}
	if r.bids.best(keyOf(t)) == bid {
		// Until its header is signed, the bid is not servable: the
		// writes and the simulation wait for the signature rather than
		// take a core from it.
		bid.signedBid(r.cfg.Spec, r.cfg.SecretKey, r.builderDom)
	}
	// The getHeader answers the bid woke run before its record is
	// written: this goroutine gives its P to them (the woken goroutine
	// runs next on it) rather than wake the store's committer first.
	runtime.Gosched()
	if err := r.recordOptimistic(ctx, req, bid, in, true); err != nil {
		return 0, true, err
	}
	return Accepted, true, nil
}

// recordOptimistic commits a served optimistic bid's pending simulation
// (durably: a restart resumes it) and, with other instances and share,
// shares the bid, then settles bid.recorded and starts the simulation in
// the background. A failure withdraws the bid.
func (r *Relay) recordOptimistic(ctx context.Context, req SubmitRequest, bid *Bid, in simInputs, share bool) error {
	sub, t := req.Submission, &bid.Trace
	raw, err := pendingSSZ(req)
	if err != nil {
		bid.settle(err)
		r.bids.drop(bid)
		return internal("encoding the submission", err)
	}
	var root *beacon.Root
	if in.parentBeaconRoot != nil {
		br := beacon.Root(*in.parentBeaconRoot)
		root = &br
	}
	wait := r.store.PutPendingSimulation(ctx, &store.PendingSimulation{
		BlockHash: t.BlockHash, Slot: t.Slot, BuilderPubkey: t.BuilderPubkey, Fork: uint8(sub.Fork), Submission: raw,
		ReceivedAt: bid.ReceivedAt.UnixMicro(), ParentBeaconRoot: root, RegisteredGasLimit: in.gasLimit,
	})
	var shareErr error
	if r.cfg.Shared != nil && share {
		shareErr = r.shareBidSSZ(ctx, sub, raw, bid)
	}
	err = wait()
	if err != nil {
		err = internal("recording the pending simulation", err)
		log.Warn("Relay withdrew an optimistic bid: its pending simulation could not be recorded", "slot", t.Slot, "block", t.BlockHash, "err", err)
	} else if shareErr != nil {
		err = shareErr // shareBidSSZ logged it
	}
	bid.settle(err)
	if err != nil {
		r.bids.drop(bid)
		return err
	}
	// The simulation starts once the bid stands: it is not run for a bid
	// withdrawn above, and it does not take the cores from the getHeader
	// answers the new bid woke.
	r.startOptimisticSimulation(sub, bid, in, false)
	optimisticServed.Mark(1)
	return nil
}

// settle ends the wait for an optimistic bid's record (awaitRecorded):
// err is why it failed, nil once committed.
func (b *Bid) settle(err error) {
	b.recordErr = err
	close(b.recorded)
}

// pendingSSZ is the SSZ encoding of req's submission for its pending
// simulation's record: the body it was decoded from when that was SSZ
// (its leading bid trace and signature are the submission's; a JSON body
// never reads as those), else the submission encoded again.
func pendingSSZ(req SubmitRequest) ([]byte, error) {
	sub := req.Submission
	if raw := req.SSZ; raw != nil {
		t, err := beacon.SubmissionTraceSSZ(raw)
		sig, serr := beacon.SubmissionSignatureSSZ(sub.Fork, raw)
		if err == nil && serr == nil && *t == *sub.BidTrace() && sig == sub.Signature() {
			return raw, nil
		}
	}
	return sub.MarshalSSZ()
}

// awaitRecorded waits until an optimistic bid's pending simulation (and,
// with other instances, the bid's share) is committed (at once for any
// other bid).
func (b *Bid) awaitRecorded(ctx context.Context) error {
	if b.recorded == nil {
		return nil
	}
	select {
	case <-b.recorded:
	case <-ctx.Done():
		return internal("waiting for the bid's pending simulation to be recorded", ctx.Err())
	}
	if b.recordErr != nil {
		if errclass.IsInternal(b.recordErr) {
			return b.recordErr // says which of the two failed
		}
		return internal("recording or sharing the optimistic bid", b.recordErr)
	}
	return nil
}

// optimisticBid is the bid of a submission served before its simulation.
func (r *Relay) optimisticBid(sub *beacon.Submission, at time.Time, cancellable bool) *Bid {
	t := sub.BidTrace()
	b := &Bid{
		Trace: *t, Payload: sub.Payload(), Bundle: sub.BlobsBundle(), Requests: sub.ExecutionRequests(),
		ReceivedAt: at, Cancellable: cancellable, value: t.Value.Uint256(), optimistic: true,
	}
	b.simulating.Store(true)
	return b
}

// startOptimisticSimulation simulates an optimistic bid in the background
// (Close waits for it).
func (r *Relay) startOptimisticSimulation(sub *beacon.Submission, bid *Bid, in simInputs, resumed bool) {
	if r.dropOptimistic.Load() {
		return // tests: the process dies before the simulation runs
	}
	r.background.Add(1)
	r.optimisticQueued.Add(1)
	go func() {
		defer r.background.Done()
		defer r.optimisticQueued.Add(-1)
		r.verifyOptimistic(sub, bid, in, resumed)
	}()
}

// verifyOptimistic runs an optimistic bid's simulation and settles it:
// verified (its state kept and the beta part merged while it is the top
// bid), or its builder demoted. A simulation the relay could not run (its
// own fault) demotes no one: the bid stays served on the collateral.
func (r *Relay) verifyOptimistic(sub *beacon.Submission, bid *Bid, in simInputs, resumed bool) {
	if gate := r.optimisticGate.Load(); gate != nil {
		<-*gate
	}
	r.optimisticSem <- struct{}{}
	defer func() { <-r.optimisticSem }()
	ctx, cancel := context.WithTimeout(context.Background(), optimisticSimulationTimeout)
	defer cancel()
	t := &bid.Trace
	start := time.Now()
	v, err := r.simulate(ctx, sub, t, sub.Payload().View(), in)
	simulationTimer.Update(time.Since(start))
	r.record(sub, t, bid.ReceivedAt, err, true)
	defer func() {
		if fn := r.onOptimistic.Load(); fn != nil {
			(*fn)(t.BlockHash, err)
		}
	}()
	switch {
	case err == nil:
		bid.verified.Store(v)
		bid.simulating.Store(false)
		if r.bids.best(keyOf(t)) != bid {
			bid.verified.Store(nil) // only the top bid keeps its state
		} else {
			r.mergeBeta(ctx, bid)
		}
		r.knownBuilders.add(t.BuilderPubkey, t.Slot)
		optimisticVerified.Mark(1)
		r.forgetPending(t.BlockHash)
	case resumed && errors.Is(err, chain.ErrUnknownParent):
		r.demote(bid, ReasonSimulationLost)
	case errclass.IsInternal(err):
		bid.simulating.Store(false)
		optimisticSimFailures.Mark(1)
		log.Error("Relay could not simulate an optimistic bid; it stays served on the builder's collateral", "slot", t.Slot, "block", t.BlockHash, "err", err)
		r.forgetPending(t.BlockHash)
	default:
		r.demote(bid, err.Error())
	}
}

// forgetPending deletes a pending simulation's record.
func (r *Relay) forgetPending(h beacon.Root) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := r.store.DeletePendingSimulation(ctx, h); err != nil {
		log.Warn("Relay could not forget a pending simulation", "block", h, "err", err)
	}
}

// demote demotes bid's builder for reason: at once here (no later
// submission of it is served before its simulation; its bids of the slot
// are withdrawn from getHeader), then durably in the database, which tells
// the other instances.
func (r *Relay) demote(bid *Bid, reason string) {
	t := &bid.Trace
	bid.simulating.Store(false)
	r.knownBuilders.demote(t.BuilderPubkey)
	r.bids.withdraw(t.Slot, t.BuilderPubkey)
	optimisticDemoted.Mark(1)
	log.Warn("Relay demoted an optimistic builder", "builder", t.BuilderPubkey, "slot", t.Slot, "block", t.BlockHash, "value", t.Value, "reason", reason)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := r.store.DemoteBuilder(ctx, store.Demotion{
		Slot: t.Slot, BuilderPubkey: t.BuilderPubkey, BlockHash: t.BlockHash, Value: t.Value, Reason: reason,
		DemotedAt: r.cfg.Now().UnixMilli(), Origin: r.instance,
	})
	if err != nil {
		log.Error("Relay could not record a builder's demotion", "builder", t.BuilderPubkey, "slot", t.Slot, "err", err)
	}
}

// demotedElsewhere applies another instance's demotion.
func (r *Relay) demotedElsewhere(pk beacon.BLSPubkey, slot uint64) {
	r.knownBuilders.demote(pk)
	r.bids.withdraw(slot, pk)
}

// catchUpDemotions applies the demotions of upcoming slots this instance
// may have missed while its notification connection was down.
func (r *Relay) catchUpDemotions(ctx context.Context) error {
	rows, err := r.store.Demotions(ctx, store.DemotionQuery{Limit: 200})
	if err != nil {
		return err
	}
	head := r.HeadSlot()
	for _, d := range rows {
		if d.Slot > head {
			r.demotedElsewhere(d.BuilderPubkey, d.Slot)
		}
	}
	return nil
}

// resumeOptimistic takes up the simulations owed for bids served before
// a restart: a bid of a slot not yet past is put back in its auction and
// simulated; one of a past slot demotes its builder (ReasonSimulationLost),
// as does one whose parent state is gone.
func (r *Relay) resumeOptimistic(ctx context.Context) error {
	var owed []*store.PendingSimulation
	if err := r.store.PendingSimulations(ctx, func(p *store.PendingSimulation) error {
		owed = append(owed, p)
		return nil
	}); err != nil {
		return err
	}
	current := r.cfg.Beacon.SlotAt(uint64(r.cfg.Now().Unix()))
	for _, p := range owed {
		sub, err := beacon.DecodeSubmissionSSZ(r.cfg.Spec, params.ConsensusFork(p.Fork), p.Submission)
		if err != nil {
			log.Error("Relay dropped an unreadable pending simulation", "block", p.BlockHash, "err", err)
			r.forgetPending(p.BlockHash)
			continue
		}
		bid := r.optimisticBid(sub, time.UnixMicro(p.ReceivedAt), false)
		if p.Slot < current {
			r.demote(bid, ReasonSimulationLost)
			continue
		}
		in := simInputs{gasLimit: p.RegisteredGasLimit}
		if p.ParentBeaconRoot != nil {
			h := common.Hash(*p.ParentBeaconRoot)
			in.parentBeaconRoot = &h
		}
		if _, err := r.bids.put(bid); err != nil {
			log.Warn("Relay could not serve a resumed optimistic bid again", "block", p.BlockHash, "err", err)
		}
		log.Info("Relay resumes the simulation of an optimistic bid", "slot", p.Slot, "block", p.BlockHash)
		r.startOptimisticSimulation(sub, bid, in, true)
	}
	return nil
}
