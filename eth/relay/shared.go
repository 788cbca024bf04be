package relay

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/metrics"

	"github.com/gavel-eth/gavel/core/beacon"
	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/internal/store"
	"github.com/gavel-eth/gavel/miner"
	"github.com/gavel-eth/gavel/params"
)

// This file is one auction across relay instances that share a database
// (PostgreSQL). Each instance keeps its auctions in memory as before; the
// database carries what the others need:
//
//   - every bid an instance verified is stored (the builder's submission)
//     and announced with a notification; the others load it and put it in
//     their own auctions, so getHeader anywhere sees the best bid verified
//     anywhere;
//   - getHeader and getPayload read through to the database when an
//     auction or a block hash is unknown locally (a missed notification,
//     a restart);
//   - registrations written by one instance are announced and reloaded by
//     the others;
//   - the delivery record's per-slot uniqueness (store.ErrSlotDelivered) is
//     the equivocation guard across instances.
//
// With a beta source (Config.Beta), a bid loaded from another instance
// that becomes the top bid of its auction is executed here too, in the
// background, when this instance knows the slot's payload attributes and
// the proposer's registration: its post-state is kept and the beta block
// merged on it as for a local bid, whichever instance verified it first.
// Until then, or if it cannot be executed here, the alpha is served.

// Sharing is what the relay needs of a database several instances share
// (store.Shared implements it).
type Sharing interface {
	PutSharedBid(ctx context.Context, b *store.SharedBid) error
	SharedBid(ctx context.Context, blockHash beacon.Root) (*store.SharedBid, error)
	PutSharedBeta(ctx context.Context, b *store.SharedBeta) error
	SharedBeta(ctx context.Context, blockHash beacon.Root) (*store.SharedBeta, error)
	BestSharedBid(ctx context.Context, slot uint64, parent beacon.Root, proposer beacon.BLSPubkey) (*store.SharedBid, error)
	SharedBidsFrom(ctx context.Context, slot uint64, fn func(*store.SharedBid) error) error
	PutDeliveredLatest(ctx context.Context, d *store.DeliveredPayload) (*store.DeliveredPayload, error)
	PruneSharedBids(ctx context.Context, slot uint64) error
	RegistrationsSince(ctx context.Context, since int64, fn func(*store.Registration) error) error
	Listen(ctx context.Context, fn func(store.Notification)) error
}

// sharedReadTimeout bounds a read-through on the getHeader/getPayload path.
const sharedReadTimeout = time.Second

// registrationSlack is how far before the newest registration seen an
// instance re-reads registrations when told of new ones: it covers commits
// that finished out of order and clocks of instances a little apart.
const registrationSlack = int64(60_000)

var (
	sharedPublished   = metrics.NewRegisteredMeter("gavel/relay/shared/published", nil)
	sharedLoaded      = metrics.NewRegisteredMeter("gavel/relay/shared/loaded", nil)
	sharedReadThrough = metrics.NewRegisteredMeter("gavel/relay/shared/readthrough", nil)
	sharedErrors      = metrics.NewRegisteredMeter("gavel/relay/shared/errors", nil)
	sharedVerified    = metrics.NewRegisteredMeter("gavel/relay/shared/verified", nil)
	// sharedPropagation is the time from a bid being stored by the instance
	// that verified it to its being in this instance's auction.
	sharedPropagation = metrics.NewRegisteredTimer("gavel/relay/shared/propagation", nil)
)

// newInstanceID names this relay instance in shared bids.
func newInstanceID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// startSharing reloads nothing (New loaded the registrations) and follows
// the other instances' notifications until Close.
func (r *Relay) startSharing() {
	ctx, cancel := context.WithCancel(context.Background())
	r.stopSharing = cancel
	r.sharingDone = make(chan struct{})
	r.sharingUp = make(chan struct{})
	go func() {
		defer close(r.sharingDone)
		r.cfg.Shared.Listen(ctx, func(n store.Notification) { r.onNotification(ctx, n) })
	}()
}

// SharingUp is closed once the relay follows the other instances'
// notifications and has caught up with what they wrote before (nil without
// sharing).
func (r *Relay) SharingUp() <-chan struct{} { return r.sharingUp }

// Close waits for the blocks still being published after getPayload v2
// answered. Call it after the API stopped serving and before the store
// closes. It also stops following other instances (when sharing a
// database) and refreshing the known builders, and waits for what the
// relay still writes in the background (beta outcomes, merges of shared
// bids, pruning).
func (r *Relay) Close() {
	r.deliveries.wait()
	if r.canonical != nil {
		r.canonical.close()
	}
	r.knownBuilders.stop()
	if r.stopSharing != nil {
		r.stopSharing()
		<-r.sharingDone
	}
	r.background.Wait()
}

func (r *Relay) onNotification(ctx context.Context, n store.Notification) {
	if n.Resync {
		defer r.sharingOnce.Do(func() { close(r.sharingUp) }) // once caught up
	}
	switch {
	case n.Registrations && n.Pubkeys != nil:
		for _, pk := range n.Pubkeys {
			reg, err := r.store.Registration(ctx, pk)
			if err != nil {
				sharedErrors.Mark(1)
				log.Warn("Relay could not read a registration from the shared database", "pubkey", pk, "err", err)
				continue
			}
			r.cacheRegistration(reg)
		}
	case n.Resync:
		r.resync(ctx)
	case n.Registrations:
		if err := r.reloadRegistrations(ctx); err != nil {
			sharedErrors.Mark(1)
			log.Warn("Relay could not reload registrations from the shared database", "err", err)
		}
	case n.Demoted:
		if n.Origin != r.instance {
			r.demotedElsewhere(n.Builder, n.Slot)
		}
	case n.Origin == r.instance:
	default:
		if r.bids.byBlockHash(n.BlockHash) != nil {
			return
		}
		var err error
		if n.Bid != nil { // small enough to travel in the notification
			_, err = r.installSharedBid(n.Bid)
		} else {
			_, err = r.loadSharedBid(ctx, n.BlockHash)
		}
		if err != nil {
			sharedErrors.Mark(1)
			log.Warn("Relay could not load a bid of another instance", "block", n.BlockHash, "err", err)
		}
	}
}

// resyncAttempts is how many times a resync reads what this instance
// missed, resyncRetry the pause between tries. A resync follows a new
// notification connection, often after the database restarted: the first
// reads may take pooled connections the restart broke (each fails once),
// and what a failed resync missed would stay missing until the slot's
// next notification, perhaps none.
const (
	resyncAttempts = 10
	resyncRetry    = 100 * time.Millisecond
)

// resync re-reads the registrations, the bids of upcoming slots and the
// demotions this instance may have missed while it was not listening,
// until all three reads succeed or resyncAttempts have failed.
func (r *Relay) resync(ctx context.Context) {
	for attempt := 1; ; attempt++ {
		err := errors.Join(r.reloadRegistrations(ctx), r.catchUpBids(ctx), r.catchUpDemotions(ctx))
		if err == nil {
			return
		}
		sharedErrors.Mark(1)
		if attempt == resyncAttempts || ctx.Err() != nil {
			log.Warn("Relay could not catch up with the shared database", "attempts", attempt, "err", err)
			return
		}
		log.Debug("Relay retries catching up with the shared database", "attempt", attempt, "err", err)
		select {
		case <-time.After(resyncRetry):
		case <-ctx.Done():
			return
		}
	}
}

// catchUpBids loads the bids of upcoming slots this instance does not hold
// (notifications missed while the connection was down).
func (r *Relay) catchUpBids(ctx context.Context) error {
	return r.cfg.Shared.SharedBidsFrom(ctx, r.HeadSlot()+1, func(sb *store.SharedBid) error {
		if sb.Origin == r.instance || r.bids.byBlockHash(sb.BlockHash) != nil {
			return nil
		}
		if _, err := r.installSharedBid(sb); err != nil {
			log.Warn("Relay could not load a bid of another instance", "block", sb.BlockHash, "err", err)
		}
		return nil
	})
}

// reloadRegistrations takes registrations written since shortly before the
// newest one this instance has seen.
func (r *Relay) reloadRegistrations(ctx context.Context) error {
	since := max(r.regCursor.Load()-registrationSlack, 0)
	return r.cfg.Shared.RegistrationsSince(ctx, since, func(reg *store.Registration) error {
		r.cacheRegistration(reg)
		return nil
	})
}

// cacheRegistration keeps reg if it is newer than the cached one.
func (r *Relay) cacheRegistration(reg *store.Registration) {
	sr := reg.SignedValidatorRegistration
	r.regMu.Lock()
	if cur, ok := r.regs[sr.Message.Pubkey]; !ok || cur.Message.Timestamp < sr.Message.Timestamp {
		r.regs[sr.Message.Pubkey] = &sr
	}
	r.regMu.Unlock()
	for {
		cur := r.regCursor.Load()
		if reg.ReceivedAt <= cur || r.regCursor.CompareAndSwap(cur, reg.ReceivedAt) {
			return
		}
	}
}

// shareBid stores a bid this instance verified for the others.
func (r *Relay) shareBid(ctx context.Context, sub *beacon.Submission, b *Bid) error {
	raw, err := sub.MarshalSSZ()
	if err != nil {
		return internal("encoding the bid for other instances", err)
	}
	return r.shareBidSSZ(ctx, sub, raw, b)
}

// shareBidSSZ is shareBid with the submission's SSZ encoding at hand.
func (r *Relay) shareBidSSZ(ctx context.Context, sub *beacon.Submission, raw []byte, b *Bid) error {
	t := &b.Trace
	err := r.cfg.Shared.PutSharedBid(ctx, &store.SharedBid{
		Slot: t.Slot, ParentHash: t.ParentHash, BlockHash: t.BlockHash, ProposerPubkey: t.ProposerPubkey, BuilderPubkey: t.BuilderPubkey,
		Value: t.Value, ReceivedAt: b.ReceivedAt.UnixMicro(), Cancellable: b.Cancellable, Fork: uint8(sub.Fork),
		Submission: raw, Origin: r.instance, StoredAt: time.Now().UnixMicro(),
	})
	if err != nil {
		sharedErrors.Mark(1)
		log.Warn("Relay could not share a bid with the other instances", "slot", t.Slot, "block", t.BlockHash, "err", err)
		return internal("sharing the bid with other instances", err)
	}
	sharedPublished.Mark(1)
	return nil
}

// loadSharedBid loads the bid of blockHash from the database into this
// instance's auction; nil (and no error) when there is none.
func (r *Relay) loadSharedBid(ctx context.Context, blockHash beacon.Root) (*Bid, error) {
	sb, err := r.cfg.Shared.SharedBid(ctx, blockHash)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return r.installSharedBid(sb)
}

// installSharedBid rebuilds a bid from its shared form and puts it in its
// auction like a local one, signing its header in the background if it is
// now the top bid.
func (r *Relay) installSharedBid(sb *store.SharedBid) (*Bid, error) {
	if b := r.bids.byBlockHash(sb.BlockHash); b != nil {
		return b, nil
	}
	sub, err := beacon.DecodeSubmissionSSZ(r.cfg.Spec, params.ConsensusFork(sb.Fork), sb.Submission)
	if err != nil {
		return nil, fmt.Errorf("shared bid %s: %w", sb.BlockHash, err)
	}
	t := sub.BidTrace()
	if t.BlockHash != sb.BlockHash {
		return nil, fmt.Errorf("shared bid %s holds block %s", sb.BlockHash, t.BlockHash)
	}
	b := &Bid{
		Trace: *t, Payload: sub.Payload(), Bundle: sub.BlobsBundle(), Requests: sub.ExecutionRequests(),
		ReceivedAt: time.UnixMicro(sb.ReceivedAt), Cancellable: sb.Cancellable, value: t.Value.Uint256(),
	}
	isTop, err := r.bids.put(b)
	if errors.Is(err, ErrNewerPayload) {
		return b, nil // superseded by the builder's newer bid; still deliverable by hash
	}
	if err != nil {
		return nil, err
	}
	if isTop {
		go b.signedBid(r.cfg.Spec, r.cfg.SecretKey, r.builderDom) // as for a local bid (saveBid)
		r.background.Add(1)
		go func() {
			defer r.background.Done()
			r.verifyShared(sub, b)
		}()
		r.bidLanded(t.Slot, common.Hash(t.ParentHash)) // a getHeader here may wait for it
	}
	sharedLoaded.Mark(1)
	took := time.Since(time.UnixMicro(sb.StoredAt))
	sharedPropagation.Update(took)
	if fn := r.onShared.Load(); fn != nil {
		(*fn)(sb.BlockHash, took)
	}
	return b, nil
}

// maxSharedVerifications bounds the shared bids executed at once.
const maxSharedVerifications = 2

// verifyShared executes a bid of another instance on this instance's chain
// while it is its auction's top bid, to keep its post-state.
func (r *Relay) verifyShared(sub *beacon.Submission, b *Bid) {
	if r.cfg.Beta == nil {
		return // nothing here would use the state
	}
	r.verifySem <- struct{}{}
	defer func() { <-r.verifySem }()
	t := &b.Trace
	k := keyOf(t)
	if r.bids.best(k) != b {
		return // superseded while waiting
	}
	attrs := r.payloadAttributes(t.Slot, common.Hash(t.ParentHash))
	reg, ok := r.Registration(t.ProposerPubkey)
	if attrs == nil || !ok {
		return // nothing to check it against here: no post-state for this bid
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	in := simInputs{gasLimit: reg.Message.GasLimit}
	if sub.Fork >= params.ForkDeneb {
		root := attrs.ParentBeaconRoot
		in.parentBeaconRoot = &root
	}
	v, err := r.simulate(ctx, sub, t, sub.Payload().View(), in)
	if err != nil {
		sharedErrors.Mark(1)
		log.Warn("Relay could not execute a bid of another instance", "slot", t.Slot, "block", t.BlockHash, "err", err)
		return
	}
	b.verified.Store(v)
	if r.bids.best(k) != b { // replaced meanwhile: only the top bid keeps its state
		b.verified.Store(nil)
		return
	}
	sharedVerified.Mark(1)
	r.mergeBeta(ctx, b)
	if fn := r.onVerified.Load(); fn != nil {
		(*fn)(t.BlockHash)
	}
}

// isDuty reports whether proposer proposes slot.
func (r *Relay) isDuty(slot uint64, proposer beacon.BLSPubkey) bool {
	d, ok := r.duty(slot)
	return ok && d.Pubkey == proposer
}

// readThroughBest loads an auction's best bid from the database when this
// instance has none (getHeader).
func (r *Relay) readThroughBest(k auctionKey) (*Bid, error) {
	ctx, cancel := context.WithTimeout(context.Background(), sharedReadTimeout)
	defer cancel()
	sharedReadThrough.Mark(1)
	sb, err := r.cfg.Shared.BestSharedBid(ctx, k.slot, k.parent, k.proposer)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		sharedErrors.Mark(1)
		log.Warn("Relay could not read bids from the shared database", "slot", k.slot, "err", err)
		return nil, internal("reading the shared bids", err)
	}
	if _, err := r.installSharedBid(sb); err != nil {
		return nil, internal("loading a shared bid", err)
	}
	return r.bids.best(k), nil
}

// readThroughHash loads a bid by block hash from the database when this
// instance does not hold it (getPayload): a bid another instance verified,
// or a merged block another instance served (beta set, bid its alpha).
func (r *Relay) readThroughHash(ctx context.Context, h beacon.Root) (bid *Bid, beta *betaBid, err error) {
	ctx, cancel := context.WithTimeout(ctx, sharedReadTimeout)
	defer cancel()
	sharedReadThrough.Mark(1)
	bid, err = r.loadSharedBid(ctx, h)
	if err == nil && bid == nil {
		beta, err = r.loadSharedBeta(ctx, h)
		if beta != nil {
			bid = beta.alpha
		}
	}
	if err != nil {
		sharedErrors.Mark(1)
		log.Warn("Relay could not read a bid from the shared database", "block", h, "err", err)
		return nil, nil, internal("reading the shared bids", err)
	}
	return bid, beta, nil
}

// sharedBetaMeta is what a shared merged block carries beside the block:
// what getPayload records on delivery (the delivery record, the slot's
// beta_slots record with the settlement entries merged, the bid trace
// with the merge's time).
type sharedBetaMeta struct {
	Requests [][]byte           `json:"requests"`
	Entries  []miner.BetaEntry  `json:"entries"`
	Results  []miner.BetaResult `json:"results"`
	Bundles  int                `json:"bundles"`
	GasUsed  uint64             `json:"gasUsed"`
	MergedAt int64              `json:"mergedAt"`
}

// shareBeta stores a merged block for the other instances: getPayload on
// any of them delivers it once a proposer signed its header.
func (r *Relay) shareBeta(ctx context.Context, bb *betaBid) error {
	raw, err := chain.EncodeBlock(bb.block.BuiltBlock)
	if err != nil {
		return fmt.Errorf("encoding the merged block: %w", err)
	}
	meta, err := json.Marshal(sharedBetaMeta{
		Requests: bb.block.Requests, Entries: bb.block.Entries, Results: bb.block.Results, Bundles: bb.block.Bundles, GasUsed: bb.block.GasUsed,
		MergedAt: bb.mergedAt,
	})
	if err != nil {
		return fmt.Errorf("encoding the merged block: %w", err)
	}
	err = r.cfg.Shared.PutSharedBeta(ctx, &store.SharedBeta{
		BlockHash: bb.trace.BlockHash, Slot: bb.trace.Slot, AlphaHash: bb.alpha.Trace.BlockHash, Block: raw, Meta: meta, Origin: r.instance,
	})
	if err != nil {
		sharedErrors.Mark(1)
		return err
	}
	sharedPublished.Mark(1)
	return nil
}

// loadSharedBeta rebuilds a merged block another instance served, with its
// alpha bid (loaded too if this instance does not hold it); nil (and no
// error) when there is none.
func (r *Relay) loadSharedBeta(ctx context.Context, h beacon.Root) (*betaBid, error) {
	sb, err := r.cfg.Shared.SharedBeta(ctx, h)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	alpha := r.bids.byBlockHash(sb.AlphaHash)
	if alpha == nil {
		if alpha, err = r.loadSharedBid(ctx, sb.AlphaHash); err != nil {
			return nil, err
		}
		if alpha == nil {
			return nil, fmt.Errorf("merged block %s: its alpha %s is not in the shared bids", h, sb.AlphaHash)
		}
	}
	var meta sharedBetaMeta
	if err := json.Unmarshal(sb.Meta, &meta); err != nil {
		return nil, fmt.Errorf("merged block %s: %w", h, err)
	}
	built, err := chain.DecodeBuilt(sb.Block, meta.Requests)
	if err != nil {
		return nil, fmt.Errorf("merged block %s: %w", h, err)
	}
	bb, err := r.betaBid(alpha, &miner.BetaBlock{BuiltBlock: built, Entries: meta.Entries, Results: meta.Results, Bundles: meta.Bundles, GasUsed: meta.GasUsed})
	if err != nil {
		return nil, fmt.Errorf("merged block %s: %w", h, err)
	}
	if meta.MergedAt != 0 { // else shared by an instance that did not say
		bb.mergedAt = meta.MergedAt
	}
	if bb.trace.BlockHash != h {
		return nil, fmt.Errorf("shared merged block %s holds block %s", h, bb.trace.BlockHash)
	}
	r.bids.addBeta(bb)
	sharedLoaded.Mark(1)
	return bb, nil
}

// pruneShared deletes shared bids of slots before floor, in the background.
func (r *Relay) pruneShared(floor uint64) {
	r.background.Add(1)
	go func() {
		defer r.background.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := r.cfg.Shared.PruneSharedBids(ctx, floor); err != nil {
			log.Warn("Relay could not prune shared bids", "before", floor, "err", err)
		}
	}()
}
