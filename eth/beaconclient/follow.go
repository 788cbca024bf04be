package beaconclient

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/log"
	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/params"
)

// Handlers receive what Follow learns from the beacon nodes. Each handler
// is called from one goroutine at a time; nil handlers are skipped.
type Handlers struct {
	// Head gets every new head slot, increasing.
	Head func(slot uint64)
	// Duties gets the proposer duties of the head's epoch and the next one,
	// whenever they are (re)loaded: at start, at every epoch's first and
	// middle slot, as the reference relay's housekeeper does.
	Duties func(duties []ProposerDuty)
	// Validators gets the known (active or pending) validators by index: at
	// start and at slots 4 and 20 of every epoch.
	Validators func(byIndex map[uint64]beacon.BLSPubkey)
	// PayloadAttributes gets each (slot, parent) attributes event once.
	PayloadAttributes func(ev PayloadAttributesEvent)
}

// Follow keeps a relay up to date with the beacon chain until ctx ends:
// it reads the best node's head, loads duties and known validators, then
// follows head and payload_attributes events on every node, reloading
// duties and validators as the chain moves. Until a node answers the first
// sync-status request it keeps asking (Retry). It returns ctx's error.
func (c *Client) Follow(ctx context.Context, cfg *params.BeaconConfig, allowSyncing bool, h Handlers) error {
	if cfg == nil || cfg.SlotsPerEpoch == 0 {
		return errors.New("beacon client: Follow needs the network's beacon config (slots per epoch)")
	}
	var st *SyncStatus
	err := c.Retry(ctx, "sync status", func(ctx context.Context) (err error) {
		st, err = c.BestSyncStatus(ctx, allowSyncing)
		return err
	})
	if err != nil {
		return err
	}
	f := &follower{c: c, cfg: cfg, h: h, dutiesKick: make(chan uint64, 1), validatorsKick: make(chan struct{}, 1)}
	f.head(st.HeadSlot, true)

	var wg sync.WaitGroup
	run := func(fn func()) { wg.Add(1); go func() { defer wg.Done(); fn() }() }
	run(func() { f.dutiesLoop(ctx) })
	run(func() { f.validatorsLoop(ctx) })
	run(func() { c.FollowHead(ctx, func(e HeadEvent) { f.head(e.Slot, false) }) })
	if h.PayloadAttributes != nil {
		run(func() { c.FollowPayloadAttributes(ctx, h.PayloadAttributes) })
	}
	wg.Wait()
	return ctx.Err()
}

// Retry calls f until it succeeds, ctx ends, or f fails with an error that
// matches one of fatal. The pause between calls starts at Options.RetryDelay
// and doubles up to MaxRetryDelay. The first failure is logged as a warning
// naming what is awaited, later ones every 30 s, and the first success
// after failures at info level: an execution client is normally started
// before its beacon node, so waiting is the normal start.
func (c *Client) Retry(ctx context.Context, what string, f func(context.Context) error, fatal ...error) error {
	delay := c.opts.RetryDelay
	var failures int
	var lastLog time.Time
	for {
		err := f(ctx)
		if err == nil {
			if failures > 0 {
				log.Info("Beacon node answered", "what", what, "attempts", failures+1)
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		for _, fe := range fatal {
			if errors.Is(err, fe) {
				return err
			}
		}
		failures++
		if failures == 1 || time.Since(lastLog) >= 30*time.Second {
			log.Warn("Waiting for a beacon node", "what", what, "nodes", c.Nodes(), "attempts", failures, "err", err)
			lastLog = time.Now()
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, c.opts.MaxRetryDelay)
	}
}

type follower struct {
	c   *Client
	cfg *params.BeaconConfig
	h   Handlers

	mu       sync.Mutex
	lastHead uint64

	dutiesKick     chan uint64 // head slot whose epochs to load
	relabelWarned  bool        // epochDuties warned (dutiesLoop only)
	validatorsKick chan struct{}
}

// head handles a new head slot: forwards it and schedules reloads.
func (f *follower) head(slot uint64, first bool) {
	f.mu.Lock()
	if !first && slot <= f.lastHead {
		f.mu.Unlock()
		return
	}
	f.lastHead = slot
	f.mu.Unlock()
	log.Debug("Beacon head", "slot", slot)
	if f.h.Head != nil {
		f.h.Head(slot)
	}
	spe := f.cfg.SlotsPerEpoch
	pos := slot % spe
	if first || pos == 0 || pos == spe/2 {
		kick(f.dutiesKick, slot)
	}
	if first || pos == 4 || pos == 20 {
		kick(f.validatorsKick, struct{}{})
	}
}

// kick queues v, replacing a queued value not yet taken.
func kick[T any](ch chan T, v T) {
	for {
		select {
		case ch <- v:
			return
		default:
		}
		select {
		case <-ch:
		default:
		}
	}
}

func (f *follower) dutiesLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case slot := <-f.dutiesKick:
			epoch := slot / f.cfg.SlotsPerEpoch
			var all []ProposerDuty
			var err error
			for _, e := range []uint64{epoch, epoch + 1} {
				var d []ProposerDuty
				if d, _, err = f.c.ProposerDuties(ctx, e); err != nil {
					break
				}
				all = append(all, f.epochDuties(e, d)...)
			}
			if err != nil {
				log.Warn("Cannot load proposer duties", "epoch", epoch, "err", err)
				continue
			}
			log.Debug("Loaded proposer duties", "head", slot, "epochs", []uint64{epoch, epoch + 1}, "duties", len(all))
			if f.h.Duties != nil {
				f.h.Duties(all)
			}
		}
	}
}

// epochDuties returns the duties of epoch from a node's answer. Lodestar
// before 1.6 labels the next epoch's proposers with the slots of the
// current epoch (it starts counting at its state's epoch): an answer of one
// whole epoch of consecutive slots of another epoch is re-labelled by
// position, with a warning once. Other duties outside epoch are dropped.
func (f *follower) epochDuties(epoch uint64, d []ProposerDuty) []ProposerDuty {
	spe := f.cfg.SlotsPerEpoch
	start := epoch * spe
	if uint64(len(d)) == spe && d[0].Slot%spe == 0 && d[0].Slot != start {
		consecutive := true
		for i := range d {
			consecutive = consecutive && d[i].Slot == d[0].Slot+uint64(i)
		}
		if consecutive {
			if !f.relabelWarned {
				f.relabelWarned = true
				log.Warn("Beacon node labels the proposer duties of an epoch with another epoch's slots (Lodestar 1.5 does for the next epoch); re-labelled by position",
					"epoch", epoch, "firstSlot", d[0].Slot, "want", start)
			}
			out := make([]ProposerDuty, len(d))
			for i := range d {
				out[i] = d[i]
				out[i].Slot = start + uint64(i)
			}
			return out
		}
	}
	out := d[:0:0]
	for _, x := range d {
		if x.Slot/spe == epoch {
			out = append(out, x)
		}
	}
	return out
}

func (f *follower) validatorsLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-f.validatorsKick:
			vals, err := f.c.Validators(ctx)
			if err != nil {
				log.Warn("Cannot load known validators", "err", err)
				continue
			}
			if len(vals) == 0 {
				log.Warn("The beacon nodes know no active or pending validators: every registration will be refused (not a known validator)", "nodes", f.c.Nodes())
			} else {
				log.Info("Loaded known validators", "count", len(vals))
			}
			if f.h.Validators != nil {
				f.h.Validators(vals)
			}
		}
	}
}
