package auctioncli

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/gavel-eth/gavel/contracts/auction"
)

// accountState is what judge reads of the L1 state after the slot's block.
type accountState interface {
	NonceAt(ctx context.Context, account common.Address, blockNumber *big.Int) (uint64, error)
	BalanceAt(ctx context.Context, account common.Address, blockNumber *big.Int) (*big.Int, error)
}

// verifyInput is what `auction verify` read: the slot's settlement on the
// L2, the bundles the L1 node had for the slot and the slot's L1 block.
type verifyInput struct {
	slot, l2Block uint64
	entries       []auction.Bundle
	// pooled holds each paid hash's txs, nil when the L1 node never got the
	// bundle for the slot.
	pooled   map[common.Hash][]*types.Transaction
	block    *types.Block // nil: the slot has no block (missed)
	receipts []*types.Receipt
	signer   types.Signer
	state    accountState
}

// bundleVerdict is what verify says of one paid hash.
type bundleVerdict struct {
	hash  common.Hash
	entry int
	what  string
	fault bool // the seller's failure: the slot is not honored
}

// verdict is verify's answer for a slot.
type verdict struct {
	in      *verifyInput
	bundles []bundleVerdict
	order   string // why the beta txs' placement is wrong ("" when right)
	honored bool
	summary string
}

// judge applies the beta block's rules (docs/beta-rules.md) to what was read: the
// paid entries in settlement order, each entry's gas budget shared by its
// hashes in listed order, each bundle a prefix of its txs, all of them the
// block's last txs in that order. A bundle is excused when what cut it
// short is its buyer's: never sent to the relay, no gas paid, a budget too
// small, a tip, a fee cap below the base fee, or its sender's own nonce or
// funds.
func judge(ctx context.Context, in *verifyInput) (*verdict, error) {
	v := &verdict{in: in}
	index := map[common.Hash]int{}
	if in.block != nil {
		for i, tx := range in.block.Transactions() {
			index[tx.Hash()] = i
		}
	}
	var positions []int // block indices of the beta txs found, in settlement order
	seen := map[common.Hash]bool{}
	due := 0
	for i, en := range in.entries {
		budget := entryGas(en.AmountOfGas)
		for _, h := range en.BundleHashes {
			bv := bundleVerdict{hash: h, entry: i}
			txs := in.pooled[h]
			switch {
			case seen[h]:
				bv.what = "paid again: counted at its first entry"
			case txs == nil:
				bv.what = fmt.Sprintf("not pooled: the L1 node never got this bundle for slot %d (the buyer's side)", in.slot)
			case entryGas(en.AmountOfGas) == 0:
				bv.what = "its entry pays no gas"
			case in.block == nil:
				seen[h] = true
				due++
				bv.what, bv.fault = fmt.Sprintf("not in any block: slot %d has no L1 block (missed)", in.slot), true
			default:
				seen[h] = true
				due++
				var err error
				if bv.what, bv.fault, err = v.walk(ctx, txs, index, &budget, &positions); err != nil {
					return nil, err
				}
			}
			v.bundles = append(v.bundles, bv)
		}
	}
	if in.block != nil && len(positions) > 0 {
		last := len(in.block.Transactions()) - 1
		for k, p := range positions {
			if want := last - (len(positions) - 1 - k); p != want {
				v.order = fmt.Sprintf("out of order: the paid txs are at block positions %v; in settlement order as the block's last txs they would be %d..%d", positions, last-len(positions)+1, last)
				break
			}
		}
	}
	faults := 0
	for _, b := range v.bundles {
		if b.fault {
			faults++
		}
	}
	switch {
	case due == 0:
		v.honored, v.summary = true, "nothing was due: no paid bundle was sent to the relay for the slot"
	case faults > 0:
		v.summary = fmt.Sprintf("%d of %d paid bundles due were not honored", faults, due)
	case v.order != "":
		v.summary = v.order
	default:
		v.honored, v.summary = true, fmt.Sprintf("each of the %d paid bundle(s) due is in the block as paid, in settlement order after the alpha, or was stopped on its buyer's side", due)
	}
	return v, nil
}

// entryGas is an entry's gas budget (capped: no block holds more).
func entryGas(x *big.Int) uint64 {
	if x == nil || x.Sign() <= 0 {
		return 0
	}
	if !x.IsUint64() || x.Uint64() > math.MaxInt64 {
		return math.MaxInt64
	}
	return x.Uint64()
}

// walk finds a pooled bundle's txs in the block: a prefix of them, charged
// to the entry's budget; at the first tx missing it says why.
func (v *verdict) walk(ctx context.Context, txs []*types.Transaction, index map[common.Hash]int, budget *uint64, positions *[]int) (string, bool, error) {
	in := v.in
	var at []int
	reverted := 0
	for k, tx := range txs {
		i, ok := index[tx.Hash()]
		if !ok {
			for j := k + 1; j < len(txs); j++ {
				if _, later := index[txs[j].Hash()]; later {
					return fmt.Sprintf("out of order: tx %d is in the block though tx %d is not", j, k), true, nil
				}
			}
			why, fault, err := v.whyNot(ctx, tx, *budget)
			if err != nil {
				return "", false, err
			}
			head := fmt.Sprintf("included %d of %d%s; tx %d not in the block: %s", k, len(txs), positionsText(at), k, why)
			if k == 0 {
				head = fmt.Sprintf("not in the block (0 of %d): %s", len(txs), why)
			}
			return head, fault, nil
		}
		at = append(at, i)
		*positions = append(*positions, i)
		used := in.receipts[i].GasUsed
		*budget -= min(used, *budget)
		if in.receipts[i].Status != types.ReceiptStatusSuccessful {
			reverted++
		}
	}
	what := fmt.Sprintf("included %d of %d%s", len(txs), len(txs), positionsText(at))
	if reverted > 0 {
		what += fmt.Sprintf(" (%d reverted: their own logic)", reverted)
	}
	return what, false, nil
}

func positionsText(at []int) string {
	switch len(at) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" at tx index %d", at[0])
	}
	return fmt.Sprintf(" at tx indexes %d..%d", at[0], at[len(at)-1])
}

// whyNot says why tx, the first of its bundle missing from the block, is
// not there, and whether that is the seller's failure. The state read is
// the block's end: where the beta part would have met it.
func (v *verdict) whyNot(ctx context.Context, tx *types.Transaction, budget uint64) (string, bool, error) {
	b := v.in.block
	if tx.GasTipCap().Sign() != 0 {
		return "it pays a priority fee (beta txs pay through the L2): the buyer's side", false, nil
	}
	if tx.Gas() > budget {
		return fmt.Sprintf("the entry's gas budget is used up (the tx's gas limit is %d, %d left): the buyer's side", tx.Gas(), budget), false, nil
	}
	if bf := b.BaseFee(); bf != nil && tx.GasFeeCap().Cmp(bf) < 0 {
		return fmt.Sprintf("its fee cap %s is below the block's base fee %s: the buyer's side", tx.GasFeeCap(), bf), false, nil
	}
	from, err := types.Sender(v.in.signer, tx)
	if err != nil {
		return fmt.Sprintf("its signature does not recover for this chain (%v): the buyer's side", err), false, nil
	}
	nonce, err := v.in.state.NonceAt(ctx, from, b.Number())
	if err != nil {
		return "", false, fmt.Errorf("reading the nonce of %s at L1 block %d: %w", from, b.NumberU64(), err)
	}
	if tx.Nonce() < nonce {
		return fmt.Sprintf("tx failed for its own sender: nonce %d of %s was used elsewhere (its next nonce after the block is %d): the buyer's side", tx.Nonce(), from, nonce), false, nil
	}
	if tx.Nonce() > nonce {
		return fmt.Sprintf("tx failed for its own sender: nonce %d of %s leaves a gap (its next nonce after the block is %d): the buyer's side", tx.Nonce(), from, nonce), false, nil
	}
	balance, err := v.in.state.BalanceAt(ctx, from, b.Number())
	if err != nil {
		return "", false, fmt.Errorf("reading the balance of %s at L1 block %d: %w", from, b.NumberU64(), err)
	}
	cost := new(big.Int).Mul(new(big.Int).SetUint64(tx.Gas()), tx.GasFeeCap())
	cost.Add(cost, tx.Value())
	if balance.Cmp(cost) < 0 {
		return fmt.Sprintf("tx failed for its own sender: %s holds %s wei, the tx may cost %s: the buyer's side", from, balance, cost), false, nil
	}
	if left := b.GasLimit() - b.GasUsed(); tx.Gas() > left {
		return fmt.Sprintf("the block's gas is used up (%d left, the tx's gas limit is %d)", left, tx.Gas()), true, nil
	}
	return "left out: it was valid where the beta part would have met it", true, nil
}

// print writes the verdict entry by entry.
func (v *verdict) print(e *env) {
	in := v.in
	if in.block == nil {
		e.printf("slot %d: no L1 block (missed)\n", in.slot)
	} else {
		e.printf("slot %d: L1 block %d %s, %d txs\n", in.slot, in.block.NumberU64(), in.block.Hash(), len(in.block.Transactions()))
	}
	e.printf("settlement of slot %d read on the L2 at block %d: %d entries\n", in.slot, in.l2Block, len(in.entries))
	k := 0
	for i, en := range in.entries {
		e.printf("entry %d: %d gas for %d bundle hash(es)\n", i, entryGas(en.AmountOfGas), len(en.BundleHashes))
		for ; k < len(v.bundles) && v.bundles[k].entry == i; k++ {
			b := v.bundles[k]
			mark := "ok"
			if b.fault {
				mark = "NOT HONORED"
			}
			e.printf("  %s  %s: %s\n", b.hash, mark, b.what)
		}
	}
	if v.order != "" {
		e.printf("NOT HONORED: %s\n", v.order)
	}
	if v.honored {
		e.printf("slot %d honored: %s\n", in.slot, v.summary)
	} else {
		e.printf("slot %d NOT honored: %s\n", in.slot, v.summary)
	}
}
