package bundlepool

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/log"

	"github.com/gavel-eth/gavel/core/bundle"
	"github.com/gavel-eth/gavel/internal/store"
)

// Store keeps the pool durable: the store's SendBundles.
type Store interface {
	QueueSendBundles(ctx context.Context, c store.SendBundleChange) (wait func() error)
	PendingSendBundles(ctx context.Context, head uint64) ([]store.SendBundle, []store.SendBundleCancel, error)
}

// Persist makes the pool durable on st: it loads the bundles and cancelled
// uuids st holds for blocks after the head, then commits every change to
// st; an accepted bundle or a cancellation before the call that made it
// returns. Call it once, before the pool is used.
//
// A restart therefore loses no acknowledged bundle whose block is still
// ahead. Bundles are reloaded as they were accepted (owner, client IP,
// uuid, arrival order), without the admission check against the head
// state: they passed it when they came, and a bundle that no longer fits
// its block is dropped when the block is built, as before the restart.
func (p *Pool) Persist(ctx context.Context, st Store) error {
	bundles, cancels, err := st.PendingSendBundles(ctx, p.head())
	if err != nil {
		return fmt.Errorf("reading eth_sendBundle bundles: %w", err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.store = st
	for _, c := range cancels {
		k := uuidKey{c.Owner, c.UUID}
		p.cancelled[k] = max(p.cancelled[k], c.UpTo)
	}
	lim := bundle.SendLimits{MaxTxs: p.cfg.MaxTxs, MaxBytes: p.cfg.MaxBytes, MaxBlocksAhead: p.cfg.MaxBlocksAhead}
	head, loaded := p.head(), 0
	for _, r := range bundles {
		var args bundle.SendBundleArgs
		if err := json.Unmarshal(r.Args, &args); err != nil {
			log.Warn("Stored eth_sendBundle bundle does not decode, dropped", "hash", r.Hash, "block", r.Block, "err", err)
			p.unsavedRm = append(p.unsavedRm, store.SendBundleKey{Hash: r.Hash, Block: r.Block})
			continue
		}
		b, err := bundle.ValidateSend(args, p.chainID, head, lim)
		if err != nil || b.Hash != r.Hash {
			log.Debug("Stored eth_sendBundle bundle no longer valid, dropped", "hash", r.Hash, "block", r.Block, "err", err)
			p.unsavedRm = append(p.unsavedRm, store.SendBundleKey{Hash: r.Hash, Block: r.Block})
			continue
		}
		b.Signer = r.Signer
		if p.byBlock[b.BlockNumber][b.Hash] != nil {
			continue
		}
		size := 0
		for _, raw := range args.Txs {
			size += len(raw)
		}
		p.insertLocked(b, &entry{ip: r.IP, bytes: size, score: tipPerGas(b.Txs[0]), args: r.Args, received: r.ReceivedAt})
		if st := p.status[statusKey{b.Hash, b.BlockNumber}]; st != nil {
			st.ReceivedAt = time.UnixMilli(r.ReceivedAt)
		}
		loaded++
	}
	if loaded > 0 || len(cancels) > 0 {
		log.Info("Reloaded eth_sendBundle bundles", "bundles", loaded, "cancelled", len(cancels), "head", head)
	}
	p.journalLocked(nil, nil)
	return nil
}

// journalLocked queues to the store the pool's changes since the last
// call: added (nil: none) with its entry e, the bundles removed and uuids
// cancelled meanwhile, and the prune. Queued under p.mu, the store's order
// is the pool's; the caller waits after unlocking.
func (p *Pool) journalLocked(added *bundle.SendBundle, e *entry) (wait func() error) {
	if p.store == nil {
		return func() error { return nil }
	}
	c := store.SendBundleChange{Cancel: p.unsavedCx, PruneTo: p.pruneTo}
	for _, k := range p.unsavedRm {
		if k.Block > p.pruneTo { // else the prune deletes it
			c.Delete = append(c.Delete, k)
		}
	}
	if added != nil {
		c.Put = []store.SendBundle{{Hash: added.Hash, Block: added.BlockNumber, Signer: added.Signer, IP: e.ip, ReceivedAt: e.received, Args: e.args}}
	}
	p.unsavedRm, p.unsavedCx, p.pruneTo = nil, nil, 0
	return p.store.QueueSendBundles(context.Background(), c)
}

// compile-time check: the store keeps the pool.
var _ Store = (store.Store)(nil)
