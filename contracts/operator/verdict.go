package operator

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/params"
)

// Verdict is what a slot's settled auction gets once the slot is over.
type Verdict struct {
	// Known is false while the slot cannot be judged yet: the operator asks
	// again on later ticks, and refunds Grace slots past Confirmations.
	Known bool
	// Payout: pay the proceeds out (true) or refund the winners (false).
	Payout bool
	// Reason says why, as logged.
	Reason string
}

// SlotAccount is the L1 node's account of what the beta merge did for a
// slot (mev_deliveredBeta): the blocks of the slot that came out of a beta
// merge, each with what became of the paid bundles pooled for it.
type SlotAccount struct {
	// Known is false while the node cannot tell (its relay has not
	// started, or the L2 could not be read).
	Known bool `json:"known"`
	// Due: a hash paid for the slot on the L2 is a bundle sent to the node
	// for the slot, so the slot owed a beta part. Paid hashes that no
	// pooled bundle has do not count: a winner cannot force a refund by
	// paying an unknown hash.
	Due bool `json:"due"`
	// Merges are the slot's merged blocks: the one the relay delivered and,
	// in --dev, the dev proposer's fallback block.
	Merges []Merge `json:"merges"`
}

// Merge is one block of a slot built by the beta merge.
type Merge struct {
	Block   common.Hash     `json:"blockHash"`
	Bundles []BundleOutcome `json:"bundles"`
}

// BundleOutcome is what became of one paid, pooled bundle in a merge.
type BundleOutcome struct {
	Hash common.Hash `json:"hash"`
	// Included are the bundle's txs in the block (a prefix of them).
	Included []common.Hash `json:"included"`
	// Reason says why the bundle stopped early or was left out.
	Reason string `json:"reason,omitempty"`
	// SellerFault: the bundle was left out because of the block or the
	// relay (no room, no beta part), not because of its own txs.
	SellerFault bool `json:"sellerFault"`
}

// Judge applies the market's refund rules to slot's canonical block (nil:
// the slot has no block) and the node's account of the slot's merges:
//
//   - no block at the slot: refund (the seller sold room in a block that
//     does not exist);
//   - the canonical block is one of the merges: refund when a paid bundle
//     was left out through the seller's fault, or when a tx the merge says
//     it included is not in the block; else pay out. A bundle that failed
//     because of its own txs (nonce used elsewhere, funds moved, fee cap,
//     tip, over its entry's gas) is the buyer's risk;
//   - the canonical block did not come out of a merge (the proposer's own
//     block, or a published block that lost its slot): refund when a beta
//     part was due, else pay out (nothing paid was left out).
func Judge(block *types.Block, acct SlotAccount) Verdict {
	if block == nil {
		return Verdict{Known: true, Reason: "the slot has no block"}
	}
	for _, m := range acct.Merges {
		if m.Block != block.Hash() {
			continue
		}
		for _, b := range m.Bundles {
			for _, tx := range b.Included {
				if block.Transaction(tx) == nil {
					return Verdict{Known: true, Reason: fmt.Sprintf("paid bundle %s: its tx %s is not in the canonical block %s", b.Hash, tx, block.Hash())}
				}
			}
			if len(b.Included) == 0 && b.SellerFault {
				return Verdict{Known: true, Reason: fmt.Sprintf("paid bundle %s left out by the seller: %s", b.Hash, b.Reason)}
			}
		}
		return Verdict{Known: true, Payout: true, Reason: fmt.Sprintf("the canonical block %s is the beta merge's", block.Hash())}
	}
	if acct.Due {
		return Verdict{Known: true, Reason: fmt.Sprintf("the canonical block %s did not come through the beta merge, and paid bundles waited for it", block.Hash())}
	}
	return Verdict{Known: true, Payout: true, Reason: fmt.Sprintf("the canonical block %s holds no beta part and none was due", block.Hash())}
}

// L1Chain reads the canonical L1 chain (an ethclient.Client).
type L1Chain interface {
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)
	BlockByNumber(ctx context.Context, number *big.Int) (*types.Block, error)
}

// Accounts gives the L1 node's account of a slot's merges.
type Accounts interface {
	Account(ctx context.Context, slot uint64) (SlotAccount, error)
}

// CanonicalDeliveries judges a slot from what the canonical L1 chain holds
// (the block at the slot's time, the txs in it) and the node's account of
// the slot's merges, not from the relay's delivery record alone: a block
// the relay published may have lost its slot to the proposer's own.
type CanonicalDeliveries struct {
	L1       L1Chain
	Clock    params.SlotClock
	Accounts Accounts
}

// Verdict implements Deliveries. The slot is judged once the L1 head has
// reached its time (the operator asks only Confirmations slots after it).
func (c CanonicalDeliveries) Verdict(ctx context.Context, slot uint64) (Verdict, error) {
	block, reached, err := BlockAtSlot(ctx, c.L1, c.Clock, slot)
	if err != nil || !reached {
		return Verdict{}, err
	}
	acct, err := c.Accounts.Account(ctx, slot)
	if err != nil || !acct.Known {
		return Verdict{}, err
	}
	return Judge(block, acct), nil
}

// BlockAtSlot returns the canonical L1 block of slot (nil when the slot
// has none); reached is false while the head is before the slot's time.
// Block times are slot times and rise with the number, so it is a binary
// search by number.
func BlockAtSlot(ctx context.Context, l1 L1Chain, clock params.SlotClock, slot uint64) (block *types.Block, reached bool, err error) {
	want := clock.SlotTime(slot)
	head, err := l1.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, false, fmt.Errorf("reading the L1 head: %w", err)
	}
	if head.Time < want {
		return nil, false, nil
	}
	lo, hi := uint64(0), head.Number.Uint64() // the first block at or after want is in [lo, hi]
	for lo < hi {
		mid := lo + (hi-lo)/2
		h, err := l1.HeaderByNumber(ctx, new(big.Int).SetUint64(mid))
		if err != nil {
			return nil, false, fmt.Errorf("reading L1 block %d: %w", mid, err)
		}
		if h.Time < want {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	b, err := l1.BlockByNumber(ctx, new(big.Int).SetUint64(lo))
	if errors.Is(err, ethereum.NotFound) {
		return nil, false, nil // reorganised under us: ask again
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading L1 block %d: %w", lo, err)
	}
	if b.Time() != want {
		return nil, true, nil // the slot was missed
	}
	return b, true, nil
}
