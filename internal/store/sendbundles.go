package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
)

// sendBundlesSchema is migration 11: the eth_sendBundle bundles the pool
// acknowledged, kept until their block passes so that a restart loses none
// whose block is still ahead, and the replacementUuids their owners
// cancelled (a replay of the send after a restart must stay refused).
// A bundle is one row per (hash, block): its request's params object as
// sent (args) and who sent it.
const sendBundlesSchema = `
CREATE TABLE send_bundles (
	hash {blob} NOT NULL,
	block BIGINT NOT NULL,
	signer {blob} NOT NULL,
	ip TEXT NOT NULL,
	received_at BIGINT NOT NULL,
	args {blob} NOT NULL,
	PRIMARY KEY (hash, block)
);
CREATE INDEX send_bundles_by_block ON send_bundles(block);
CREATE TABLE send_bundle_cancels (
	owner {blob} NOT NULL,
	uuid TEXT NOT NULL,
	up_to BIGINT NOT NULL,
	PRIMARY KEY (owner, uuid)
);
CREATE INDEX send_bundle_cancels_by_block ON send_bundle_cancels(up_to);
`

// SendBundle is a stored eth_sendBundle bundle.
type SendBundle struct {
	Hash       common.Hash
	Block      uint64
	Signer     common.Address // zero when the request was unsigned
	IP         string         // the client's IP address ("" unknown)
	ReceivedAt int64          // unix milliseconds the pool first accepted it
	Args       []byte         // the request's params object, JSON (bundle.SendBundleArgs)
}

// SendBundleKey names one stored bundle.
type SendBundleKey struct {
	Hash  common.Hash
	Block uint64
}

// SendBundleCancel is a replacementUuid its owner (a signer, or the zero
// address for unsigned requests) cancelled for blocks up to UpTo.
type SendBundleCancel struct {
	Owner common.Address
	UUID  string
	UpTo  uint64
}

// SendBundleChange is one change of the eth_sendBundle pool, committed as
// one write: bundles added (or given a new owner), bundles removed
// (cancelled, replaced, evicted), uuids cancelled, and everything for
// blocks at or below PruneTo deleted (0: nothing).
type SendBundleChange struct {
	Put     []SendBundle
	Delete  []SendBundleKey
	Cancel  []SendBundleCancel
	PruneTo uint64
}

// Empty reports whether c changes nothing.
func (c *SendBundleChange) Empty() bool {
	return len(c.Put) == 0 && len(c.Delete) == 0 && len(c.Cancel) == 0 && c.PruneTo == 0
}

// SendBundles keeps the eth_sendBundle pool durable.
type SendBundles interface {
	// QueueSendBundles queues c for the group commit and returns a
	// function that waits until it is committed. Changes queued one after
	// another commit in that order, so a caller may queue while holding
	// its own lock (keeping the store's order its memory's) and wait after
	// releasing it.
	QueueSendBundles(ctx context.Context, c SendBundleChange) (wait func() error)
	// PendingSendBundles returns the bundles and cancelled uuids for blocks
	// after head, bundles in the order they were received.
	PendingSendBundles(ctx context.Context, head uint64) ([]SendBundle, []SendBundleCancel, error)
}

// QueueSendBundles implements SendBundles.
func (s *sqlStore) QueueSendBundles(ctx context.Context, c SendBundleChange) func() error {
	if c.Empty() {
		return func() error { return nil }
	}
	wait := s.gc.queue(ctx, func(ctx context.Context, w *txWriter) error {
		if c.PruneTo > 0 {
			if _, err := w.exec(ctx, `DELETE FROM send_bundles WHERE block <= ?`, int64(c.PruneTo)); err != nil {
				return err
			}
			if _, err := w.exec(ctx, `DELETE FROM send_bundle_cancels WHERE up_to <= ?`, int64(c.PruneTo)); err != nil {
				return err
			}
		}
		for _, k := range c.Delete {
			if _, err := w.exec(ctx, `DELETE FROM send_bundles WHERE hash = ? AND block = ?`, k.Hash[:], int64(k.Block)); err != nil {
				return err
			}
		}
		for _, b := range c.Put {
			if _, err := w.exec(ctx, `INSERT INTO send_bundles (hash, block, signer, ip, received_at, args) VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT (hash, block) DO UPDATE SET signer = excluded.signer, ip = excluded.ip, args = excluded.args`,
				b.Hash[:], int64(b.Block), b.Signer[:], b.IP, b.ReceivedAt, b.Args); err != nil {
				return err
			}
		}
		for _, x := range c.Cancel {
			if _, err := w.exec(ctx, `INSERT INTO send_bundle_cancels (owner, uuid, up_to) VALUES (?, ?, ?)
				ON CONFLICT (owner, uuid) DO UPDATE SET up_to = excluded.up_to`, x.Owner[:], x.UUID, int64(x.UpTo)); err != nil {
				return err
			}
		}
		return nil
	})
	return func() error {
		if err := wait(); err != nil {
			if errors.Is(err, ErrClosed) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return err
			}
			return fmt.Errorf("store: writing eth_sendBundle bundles: %w", err)
		}
		return nil
	}
}

// PendingSendBundles implements SendBundles.
func (s *sqlStore) PendingSendBundles(ctx context.Context, head uint64) ([]SendBundle, []SendBundleCancel, error) {
	defer queryTimer.UpdateSince(time.Now())
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT hash, block, signer, ip, received_at, args FROM send_bundles WHERE block > ? ORDER BY received_at, hash`), int64(head))
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var out []SendBundle
	for rows.Next() {
		var (
			b            SendBundle
			hash, signer []byte
			block        int64
		)
		if err := rows.Scan(&hash, &block, &signer, &b.IP, &b.ReceivedAt, &b.Args); err != nil {
			return nil, nil, err
		}
		b.Hash, b.Block, b.Signer = common.BytesToHash(hash), uint64(block), common.BytesToAddress(signer)
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	crows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT owner, uuid, up_to FROM send_bundle_cancels WHERE up_to > ?`), int64(head))
	if err != nil {
		return nil, nil, err
	}
	defer crows.Close()
	var cancels []SendBundleCancel
	for crows.Next() {
		var (
			c     SendBundleCancel
			owner []byte
			upTo  int64
		)
		if err := crows.Scan(&owner, &c.UUID, &upTo); err != nil {
			return nil, nil, err
		}
		c.Owner, c.UpTo = common.BytesToAddress(owner), uint64(upTo)
		cancels = append(cancels, c)
	}
	return out, cancels, crows.Err()
}
