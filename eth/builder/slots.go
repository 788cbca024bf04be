package builder

import (
	"context"
	"errors"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/log"

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

// Proposer lookups of a slot run at once; the first build waits for them
// at most lookupGrace (a slow external relay never delays the others: it
// gets the slot's block when its answer comes), and each gives up after
// lookupTimeout.
const (
	lookupGrace   = 50 * time.Millisecond
	lookupTimeout = 2 * time.Second
)

// lookup is one relay's answer about the slot's proposer.
type lookup struct {
	r   Relay
	p   Proposer
	ok  bool
	err error
}

// slotRelays are the relays of a slot grouped by proposer registration:
// relays that agree on it get the same submission.
type slotRelays struct {
	groups map[Proposer][]Relay
	order  []Proposer
	best   map[Proposer]*Built // last submitted block per group
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
	select { // arrivals before the slot are in its first build
	case <-b.kick:
	default:
	}

	found := make(chan lookup, len(b.relays))
	lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	for _, r := range b.relays {
		go func(r Relay) {
			p, ok, err := r.Proposer(lctx, a.slot)
			found <- lookup{r: r, p: p, ok: ok, err: err}
		}(r)
	}
	pending := len(b.relays)
	sr := &slotRelays{groups: map[Proposer][]Relay{}, best: map[Proposer]*Built{}}
	grace := time.NewTimer(lookupGrace)
	defer grace.Stop()
wait:
	for pending > 0 {
		select {
		case l := <-found:
			pending--
			sr.add(ctx, b, a.slot, l)
		case <-grace.C:
			break wait
		case <-ctx.Done():
			return
		}
	}
	b.buildFor(ctx, a, job, sr, sr.order)

	var closes <-chan time.Time
	if b.cfg.SlotOpen >= 0 {
		end := time.Unix(int64(b.cfg.Beacon.SlotTime(a.slot)), 0).Add(b.cfg.SlotOpen)
		left := end.Sub(b.cfg.Now())
		if left <= 0 && pending == 0 {
			return
		}
		timer := time.NewTimer(max(left, 0))
		defer timer.Stop()
		closes = timer.C
	}
	for builds := 1; builds < b.cfg.MaxBuilds; {
		var late <-chan lookup
		if pending > 0 {
			late = found
		}
		select {
		case <-ctx.Done():
			return
		case <-closes:
			return
		case l := <-late:
			// A relay that answered after the first build: a proposer
			// nobody built for yet gets a build now; a known one, the
			// block already built.
			pending--
			if p, isNew := sr.add(ctx, b, a.slot, l); isNew {
				b.buildFor(ctx, a, job, sr, []Proposer{p})
			}
			continue
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
		b.buildFor(ctx, a, job, sr, sr.order)
		builds++
	}
}

// add files a relay's lookup under its proposer. A relay joining a group
// that already has a block gets that block now. It reports the proposer and
// whether it is a new group.
func (sr *slotRelays) add(ctx context.Context, b *Builder, slot uint64, l lookup) (Proposer, bool) {
	if l.err != nil {
		log.Warn("Builder could not learn the slot's proposer", "relay", l.r.Name(), "slot", slot, "err", l.err)
		return Proposer{}, false
	}
	if !l.ok {
		log.Debug("No registered proposer for the slot", "relay", l.r.Name(), "slot", slot)
		return Proposer{}, false
	}
	_, known := sr.groups[l.p]
	sr.groups[l.p] = append(sr.groups[l.p], l.r)
	if !known {
		sr.order = append(sr.order, l.p)
		return l.p, true
	}
	if built := sr.best[l.p]; built != nil {
		b.Submit(ctx, built, l.r)
	}
	return l.p, false
}

// buildFor builds the block of each of ps and submits it to the group's
// relays when it bids more than the group's last submission.
func (b *Builder) buildFor(ctx context.Context, a slotAttrs, job Job, sr *slotRelays, ps []Proposer) {
	for _, p := range ps {
		j := job // the proposer's relays keep its beta gas free
		j.Reserve = max(job.Reserve, p.BetaGas)
		built, err := b.Build(ctx, j, p)
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
		prev := sr.best[p]
		if prev != nil && built.Value.Cmp(prev.Value) <= 0 {
			continue // no better than what the relays have
		}
		if prev == nil {
			firstBidTimer.UpdateSince(a.at)
		}
		b.Submit(ctx, built, sr.groups[p]...)
		sr.best[p] = built
	}
}
