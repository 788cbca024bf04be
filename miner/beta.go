package miner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/metrics"

	"github.com/gavel-eth/gavel/core/chain"
)

var (
	betaMergeTimer = metrics.NewRegisteredTimer("gavel/miner/beta/merge", nil)
	betaTxsMeter   = metrics.NewRegisteredMeter("gavel/miner/beta/txs", nil)
)

// BetaEntry is one paid entry of a slot's settlement (SettlementHouse
// queryBundles): a gas budget shared by its bundle hashes, in listed order.
type BetaEntry struct {
	Gas    uint64
	Hashes []common.Hash
	// L2Block is the number of the L2 block the entry was read at (0:
	// unknown); it is not part of what was paid.
	L2Block uint64
}

// Reasons a paid beta bundle lands partly or not at all (BetaResult.Reason).
const (
	ReasonNotPooled   = "not in the beta pool for this slot"
	ReasonDuplicate   = "hash already paid in an earlier entry"
	ReasonNoGas       = "entry has no gas"
	ReasonEntryBudget = "entry gas budget used up"
	ReasonBlockFull   = "block gas used up"
	ReasonInvalid     = "invalid on the state it met"
	ReasonTip         = "pays a priority fee (beta txs pay through L2)"
)

// BetaResult is what became of one paid bundle hash in the beta block.
type BetaResult struct {
	Hash     common.Hash
	Entry    int    // index of the settlement entry that paid it
	EntryGas uint64 // that entry's gas budget
	// Included are the hashes of the bundle's txs in the block: a prefix of
	// its txs (k of Total).
	Included []common.Hash
	Total    int
	GasUsed  uint64
	// Reason says why the bundle stopped before its end ("" when whole).
	Reason string
	// Err is the failing tx's error when Reason is ReasonInvalid.
	Err string
}

// BetaBlock is a merged block: alpha with the beta txs appended.
type BetaBlock struct {
	*chain.BuiltBlock
	Entries []BetaEntry  // the settlement the block was merged from
	Results []BetaResult // one per paid hash, in settlement order
	Bundles int          // bundles with at least one tx in the block
	GasUsed uint64       // gas used by the beta txs
}

// ErrNoBeta means nothing paid could be appended: the alpha block is served
// as it is. BuildBeta returns it with the results (and no block) so that
// the reasons can be recorded.
var ErrNoBeta = errors.New("no beta transactions to append")

// BuildBeta appends the paid beta bundles to a verified alpha block (on the
// state it kept, alpha is not executed again) by DESIGN section 8's rules:
// entries in settlement order; an entry's gas budget shared by its hashes in
// listed order; each bundle's txs in listed order; the first tx whose gas
// limit is over the entry's remaining budget or the block's gas left, or
// that is invalid on the state it meets, ends its bundle, so a bundle lands
// as a prefix. Budgets are charged the gas a tx used. A hash paid twice
// counts once (its first entry), a hash not in pool is skipped, an entry
// without gas pays for nothing. Beta txs come after alpha's last tx (its
// proposer payment), so they cannot change what alpha paid. It returns
// ErrNoBeta, with the results and no block, when no tx was appended.
func BuildBeta(ctx context.Context, c *chain.Chain, alpha *chain.VerifiedPayload, entries []BetaEntry, pool map[common.Hash]types.Transactions) (*BetaBlock, error) {
	start := time.Now()
	bb, err := c.ContinueBlock(ctx, alpha)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		for _, h := range e.Hashes {
			if txs, ok := pool[h]; ok {
				bb.RecoverSenders(txs)
			}
		}
	}
	out := &BetaBlock{Entries: entries}
	seen := make(map[common.Hash]bool)
	for i, e := range entries {
		budget := e.Gas
		for _, h := range e.Hashes {
			r := BetaResult{Hash: h, Entry: i, EntryGas: e.Gas}
			txs, pooled := pool[h]
			r.Total = len(txs)
			switch {
			case seen[h]:
				r.Reason = ReasonDuplicate
			case !pooled:
				r.Reason = ReasonNotPooled
			case e.Gas == 0:
				r.Reason = ReasonNoGas
			}
			if r.Reason != "" {
				out.Results = append(out.Results, r)
				continue
			}
			seen[h] = true
			for _, tx := range txs {
				if tx.GasTipCap().Sign() != 0 {
					r.Reason = ReasonTip
					break
				}
				if tx.Gas() > budget {
					r.Reason = ReasonEntryBudget
					break
				}
				if tx.Gas() > bb.GasLeft() {
					r.Reason = ReasonBlockFull
					break
				}
				rc, err := bb.ApplyTx(tx)
				if errors.Is(err, chain.ErrBlockFull) {
					r.Reason = ReasonBlockFull
					break
				}
				if err != nil {
					r.Reason, r.Err = ReasonInvalid, err.Error()
					break
				}
				budget -= rc.GasUsed
				r.GasUsed += rc.GasUsed
				r.Included = append(r.Included, tx.Hash())
			}
			if len(r.Included) > 0 {
				out.Bundles++
				out.GasUsed += r.GasUsed
			}
			out.Results = append(out.Results, r)
		}
	}
	if out.Bundles == 0 {
		return out, ErrNoBeta
	}
	built, err := bb.Finish()
	if err != nil {
		return nil, fmt.Errorf("assembling the beta block: %w", err)
	}
	out.BuiltBlock = built
	betaMergeTimer.UpdateSince(start)
	betaTxsMeter.Mark(int64(built.Block.Transactions().Len() - alpha.Block.Transactions().Len()))
	return out, nil
}
