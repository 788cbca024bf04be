// Package store is gavel's persistence behind one interface. The embedded
// backend is SQLite (modernc.org/sqlite, pure Go) in the datadir; the same
// SQL, rebound for `$n` placeholders, is meant to run on PostgreSQL when
// several relay instances share state.
//
// The Store interface is a union of small per-domain interfaces (BetaBundles,
// UserStats, ...). A new domain, such as the relay's registrations, bid
// traces and delivered payloads, adds its own interface, its tables as a new
// migration and its methods on sqlStore; nothing existing changes.
//
// Acknowledged writes are durable when the call returns: committed with
// synchronous=FULL. Beta bundles go through a group committer so many
// concurrent callers share one fsync.
package store

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"

	"github.com/gavel-eth/gavel/core/bundle"
)

// ErrNotFound is returned when a record does not exist.
var ErrNotFound = errors.New("not found")

// ErrClosed is returned by calls after Close.
var ErrClosed = errors.New("store closed")

// Store is everything gavel persists.
type Store interface {
	BetaBundles
	UserStats
	Relay
	SendBundles
	// Ping checks that the database answers (/readyz).
	Ping(ctx context.Context) error
	// Backend names the database: "sqlite" or "postgres".
	Backend() string
	// Close flushes pending writes and closes the database.
	Close() error
}

// BetaBundle is a stored beta bundle: its hash, its raw signed txs and who
// sent it. A bundle may be bought for several slots; those live in Slots.
type BetaBundle struct {
	Hash   common.Hash
	Txs    [][]byte       // raw EIP-2718 txs in bundle order
	Signer common.Address // zero when the request was unsigned
	Slots  []BetaSlot     // ascending by slot; filled by reads
}

// BetaSlot is one slot a beta bundle was sent for.
type BetaSlot struct {
	Slot       uint64
	ReceivedAt int64 // unix milliseconds of the first send for this slot
	// Outcome is what became of the bundle in the slot's block, once the
	// block was delivered (nil before, or when it was never paid).
	Outcome *BetaOutcome
	// Evicted is why the entry was deleted before its slot (BetaEvicted);
	// such an entry has no Outcome.
	Evicted string
}

// BetaOutcome states of a paid beta bundle in a delivered slot.
const (
	BetaIncluded = "included" // some or all of its txs are in the block
	BetaMissed   = "missed"   // paid, but none of its txs are in the block
)

// BetaOutcome is what became of one paid beta bundle in a slot's delivered
// block.
type BetaOutcome struct {
	Hash        common.Hash
	Slot        uint64
	State       string // BetaIncluded or BetaMissed
	Entry       uint64 // settlement entry that paid it
	Gas         uint64 // gas budget of that entry
	BlockNumber uint64
	BlockHash   common.Hash
	TxHashes    []common.Hash // the included txs: a prefix of the bundle
	Total       uint64        // txs in the bundle
	Reason      string        // why the bundle stopped early or was missed
}

// BetaBundles stores mev_sendBetaBundle submissions.
type BetaBundles interface {
	// PutBetaBundle records bundle b for slot at receivedAt (unix ms).
	// Re-sending the same (hash, slot) is a no-op that reports created=false;
	// the same hash for another slot adds that slot. It returns once the
	// write is committed.
	PutBetaBundle(ctx context.Context, b *BetaBundle, slot uint64, receivedAt int64) (created bool, err error)
	// PutBetaBundleWithin is PutBetaBundle within q: a new entry past a
	// quota fails with ErrBetaQuota, one past the disk budget with
	// ErrBetaStoreFull, and nothing is written. b.Signer and q.IP are
	// recorded with the entry: the counts come from the database.
	PutBetaBundleWithin(ctx context.Context, b *BetaBundle, slot uint64, receivedAt int64, q BetaQuota) (created bool, err error)
	// BetaBundle returns the bundle with its slots, or ErrNotFound.
	BetaBundle(ctx context.Context, hash common.Hash) (*BetaBundle, error)
	// BetaBundlesForSlot returns the bundles sent for slot (Slots holds only
	// that slot), in the order they were first received.
	BetaBundlesForSlot(ctx context.Context, slot uint64) ([]*BetaBundle, error)
	// PutBetaOutcomes records what became of paid bundles in a delivered
	// slot; an outcome already recorded for a (hash, slot) is kept.
	PutBetaOutcomes(ctx context.Context, outs []BetaOutcome) error
	// BetaOutcomes returns the outcomes recorded for slot, by settlement
	// entry.
	BetaOutcomes(ctx context.Context, slot uint64) ([]BetaOutcome, error)
}

// UserStat is what gavel knows about one request signer: its address and
// its counters.
type UserStat struct {
	Address common.Address
	bundle.SignerStats
}

// UserStats stores per-signer counters. Writers add deltas (counters are
// added, FirstSeen keeps the minimum, LastSeen the maximum).
type UserStats interface {
	AddUserStats(ctx context.Context, deltas []UserStat) error
	UserStat(ctx context.Context, addr common.Address) (*UserStat, error)
}
