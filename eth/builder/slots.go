package builder

import (
	"context"
	"errors"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/log"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/chain"
)

// This file is the builder on a live chain: each slot's payload attributes
// start a slot run that builds on the attributes' head, submits to every
// relay that has a registered proposer for the slot, and rebuilds while the
// slot is open when bundles or transactions arrive (debounced, at most
// MaxBuilds per slot), submitting again only what pays more.

// HeaderSource finds the parent block of a slot (core/chain.Chain).
type HeaderSource interface {
	HeaderByHash(hash common.Hash) (*types.Header, error)
}

// slotAttrs is one payload-attributes set for a slot on a head.
type slotAttrs struct {
	slot  uint64
	head  common.Hash
	attrs chain.PayloadAttributes
	at    time.Time
}

// Live sets what the builder needs on a live chain: the chain's headers and
// the relays to submit to. Call it before Start.
func (b *Builder) Live(headers HeaderSource, relays ...Relay) {
	b.headers, b.relays = headers, relays
}

// Start implements node.Lifecycle: it starts the slot loop.
func (b *Builder) Start() error {
	if b.headers == nil || len(b.relays) == 0 {
		return errors.New("builder: Live (headers and relays) must be set before Start")
	}
	ctx, cancel := context.WithCancel(context.Background())
	b.stop, b.done = cancel, make(chan struct{})
	go b.loop(ctx)
	return nil
}

// Stop implements node.Lifecycle: it ends the slot loop and the slot run
// in progress.
func (b *Builder) Stop() error {
	if b.stop != nil {
		b.stop()
		<-b.done
	}
	return nil
}

// OnAttributes hands the builder the payload attributes of slot's block on
// head (from the engine API's forkchoiceUpdated or a beacon node's
// payload_attributes event). The same (slot, head) twice is built once. It
// never blocks: when the loop is behind, the attributes are dropped.
func (b *Builder) OnAttributes(slot uint64, head common.Hash, a chain.PayloadAttributes) {
	select {
	case b.attrsCh <- slotAttrs{slot: slot, head: head, attrs: a, at: time.Now()}:
	default:
		log.Warn("Builder is behind: payload attributes dropped", "slot", slot, "head", head)
	}
}

// Kick tells the builder that better blocks may be possible (a new bundle,
// new transactions): the open slot is rebuilt after the debounce. It never
// blocks.
func (b *Builder) Kick() {
	select {
	case b.kick <- struct{}{}:
	default:
	}
}

// loop runs one slot at a time: new attributes for a later slot, or for
// the same slot on another head, end the run in progress.
func (b *Builder) loop(ctx context.Context) {
	defer close(b.done)
	var run *slotRun
	defer func() { run.end() }()
	for {
		select {
		case <-ctx.Done():
			return
		case a := <-b.attrsCh:
			if run != nil && (a.slot < run.a.slot || (a.slot == run.a.slot && a.head == run.a.head)) {
				continue
			}
			run.end()
			run = b.startRun(ctx, a)
		}
	}
}

// slotRun is one slot's build-and-submit run.
type slotRun struct {
	a      slotAttrs
	cancel context.CancelFunc
	ended  chan struct{}
}

func (b *Builder) startRun(ctx context.Context, a slotAttrs) *slotRun {
	runCtx, cancel := context.WithCancel(ctx)
	r := &slotRun{a: a, cancel: cancel, ended: make(chan struct{})}
	go func() {
		defer close(r.ended)
		b.runSlot(runCtx, a)
	}()
	return r
}

// end cancels the run and waits for it (no-op on nil).
func (r *slotRun) end() {
	if r != nil {
		r.cancel()
		<-r.ended
	}
}

// runSlot builds and submits the slot's block, then rebuilds on kicks
// until the slot closes, the run is cancelled or MaxBuilds is reached.
func (b *Builder) runSlot(ctx context.Context, a slotAttrs) {
	parent, err := b.headers.HeaderByHash(a.head)
	if err != nil {
		log.Warn("Builder cannot build on an unknown head", "slot", a.slot, "head", a.head, "err", err)
		return
	}
	job := Job{Slot: a.slot, Parent: parent, Attrs: a.attrs}
	// One build per distinct proposer registration: relays that agree on it
	// get the same submission.
	groups := map[Proposer][]Relay{}
	var order []Proposer
	for _, r := range b.relays {
		p, ok, err := r.Proposer(ctx, a.slot)
		if err != nil {
			log.Warn("Builder could not learn the slot's proposer", "relay", r.Name(), "slot", a.slot, "err", err)
			continue
		}
		if !ok {
			log.Debug("No registered proposer for the slot", "relay", r.Name(), "slot", a.slot)
			continue
		}
		if _, seen := groups[p]; !seen {
			order = append(order, p)
		}
		groups[p] = append(groups[p], r)
	}
	if len(order) == 0 {
		return
	}
	best := map[Proposer]*uint256.Int{}
	build := func() {
		for _, p := range order {
			built, err := b.Build(ctx, job, p)
			if err != nil {
				if ctx.Err() == nil {
					log.Warn("Builder could not build", "slot", a.slot, "err", err)
				}
				continue
			}
			if built.Value.IsZero() {
				log.Debug("Builder has nothing to bid", "slot", a.slot)
				continue
			}
			if prev := best[p]; prev != nil && built.Value.Cmp(prev) <= 0 {
				continue // no better than what the relays have
			}
			if prev := best[p]; prev == nil {
				firstBidTimer.UpdateSince(a.at)
			}
			if err := b.Submit(ctx, built, groups[p]...); err == nil || best[p] == nil {
				best[p] = built.Value
			}
		}
	}
	build()
	var closes <-chan time.Time
	if b.cfg.SlotOpen >= 0 {
		end := time.Unix(int64(b.cfg.Beacon.SlotTime(a.slot)), 0).Add(b.cfg.SlotOpen)
		left := end.Sub(b.cfg.Now())
		if left <= 0 {
			return
		}
		timer := time.NewTimer(left)
		defer timer.Stop()
		closes = timer.C
	}
	for builds := 1; builds < b.cfg.MaxBuilds; builds++ {
		select {
		case <-ctx.Done():
			return
		case <-closes:
			return
		case <-b.kick:
		}
		debounce := time.NewTimer(b.cfg.Debounce)
		select {
		case <-ctx.Done():
			debounce.Stop()
			return
		case <-debounce.C:
		}
		select { // kicks during the debounce are served by this build
		case <-b.kick:
		default:
		}
		rebuildsMeter.Mark(1)
		build()
	}
}
