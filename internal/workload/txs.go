package workload

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/chain"
	"github.com/gavel-eth/gavel/params"
)

// Kind is a transaction type of the mix.
type Kind int

// The kinds of the mix and their shares of a mainnet-like block's txs.
const (
	Transfer      Kind = iota // plain ETH transfer to a random account: 30%
	TokenTransfer             // token transfer to a random account: 35%
	Swap                      // swap on a random pool: 35%
)

// Gas limits the generator gives each kind (what each uses: 21,000, about
// 33,000-51,000, about 66,000).
const (
	transferGas = 21_000
	tokenGas    = 80_000
	swapGas     = 200_000
)

// Bundle is one to three txs from distinct senders that go into a block
// together: a searcher's bundle, or a user's tx on its own.
type Bundle struct {
	Txs types.Transactions
	// Gas is what the bundle is expected to use (for filling a block).
	Gas uint64
}

// Gen makes signed txs of the mix, deterministically from its seed. Each
// sender is used once until all were, so a block's txs rarely share one;
// nonces count on from the parent's (Nonce) for senders used again.
type Gen struct {
	w      *Workload
	rnd    *rand.Rand
	signer types.Signer
	nonce  func(common.Address) uint64
	perm   []int
	next   int
	used   map[int]uint64
}

// NewGen starts a generator for blocks on a parent whose nonces nonce
// reads.
func (w *Workload) NewGen(seed uint64, signer types.Signer, nonce func(common.Address) uint64) *Gen {
	rnd := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	return &Gen{w: w, rnd: rnd, signer: signer, nonce: nonce, perm: rnd.Perm(len(w.Senders)), used: map[int]uint64{}}
}

func (g *Gen) sender() (int, uint64) {
	if g.next == len(g.perm) {
		g.next = 0
	}
	i := g.perm[g.next]
	g.next++
	n := g.nonce(g.w.From[i]) + g.used[i]
	g.used[i]++
	return i, n
}

// Tx is one tx of the given kind.
func (g *Gen) Tx(k Kind) *types.Transaction {
	i, nonce := g.sender()
	tip := big.NewInt(int64(1e9 + g.rnd.IntN(2e9)))
	tx := &types.DynamicFeeTx{ChainID: big.NewInt(params.DevChainID), Nonce: nonce, GasTipCap: tip, GasFeeCap: big.NewInt(50e9)}
	amount := big.NewInt(int64(1e15 + g.rnd.IntN(1e17)))
	switch k {
	case Transfer:
		to := Account(g.rnd.IntN(g.w.Size.Accounts))
		tx.To, tx.Gas, tx.Value = &to, transferGas, amount
	case TokenTransfer:
		t := g.w.Tokens[g.rnd.IntN(len(g.w.Tokens))]
		tx.To, tx.Gas, tx.Data = &t, tokenGas, TransferData(Account(g.rnd.IntN(g.w.Size.Accounts)), amount)
	case Swap:
		p := g.w.Pools[g.rnd.IntN(len(g.w.Pools))].Address
		tx.To, tx.Gas, tx.Data = &p, swapGas, SwapData(g.rnd.IntN(2) == 0, amount, big.NewInt(1))
	}
	return types.MustSignNewTx(g.w.Senders[i], g.signer, tx)
}

// Reverting is a swap that reverts: its minimum output is more than the
// pool holds.
func (g *Gen) Reverting() *types.Transaction {
	i, nonce := g.sender()
	p := g.w.Pools[g.rnd.IntN(len(g.w.Pools))].Address
	return types.MustSignNewTx(g.w.Senders[i], g.signer, &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(50e9),
		To: &p, Gas: swapGas, Data: SwapData(true, big.NewInt(1e15), new(big.Int).Mul(g.w.reserve, big.NewInt(2))),
	})
}

func (g *Gen) kind() Kind {
	switch r := g.rnd.IntN(100); {
	case r < 30:
		return Transfer
	case r < 65:
		return TokenTransfer
	default:
		return Swap
	}
}

var expectedGas = map[Kind]uint64{Transfer: 21_000, TokenTransfer: 42_000, Swap: 66_000}

// Bundle is a bundle of one to three txs of the mix.
func (g *Gen) Bundle() Bundle {
	var b Bundle
	for n := 1 + g.rnd.IntN(3); n > 0; n-- {
		k := g.kind()
		b.Txs = append(b.Txs, g.Tx(k))
		b.Gas += expectedGas[k]
	}
	return b
}

// Bundles are bundles of the mix until they are expected to use gas.
func (g *Gen) Bundles(gas uint64) []Bundle {
	var out []Bundle
	for used := uint64(0); used < gas; {
		b := g.Bundle()
		used += b.Gas
		out = append(out, b)
	}
	return out
}

// Rand is the generator's random source (for streams built on it).
func (g *Gen) Rand() *rand.Rand { return g.rnd }

// Flatten is the bundles' txs in order.
func Flatten(bs []Bundle) types.Transactions {
	var txs types.Transactions
	for _, b := range bs {
		txs = append(txs, b.Txs...)
	}
	return txs
}

// Payment is who builds a block and whom it pays: the builder's funded
// account (its coinbase, fee recipient of the block) and the proposer's fee
// recipient. Value nil pays the block's earnings plus 1 gwei.
type Payment struct {
	Builder *ecdsa.PrivateKey
	To      common.Address
	Value   *uint256.Int
}

// Built is a block built by Build with the payment it makes.
type Built struct {
	*chain.BuiltBlock
	Value *uint256.Int
	// Receipts are the block's receipts (the payment's last).
	Receipts types.Receipts
	// Skipped counts txs that did not fit or failed.
	Skipped int
}

// Build builds a block on parent from txs (in order; those that do not fit
// or fail are skipped), ending with the builder's payment to the proposer.
func Build(ctx context.Context, c *chain.Chain, parent *types.Header, a chain.BuildAttrs, txs types.Transactions, pay Payment) (*Built, error) {
	coinbase := crypto.PubkeyToAddress(pay.Builder.PublicKey)
	a.FeeRecipient = coinbase
	bb, err := c.NewBlockBuilder(ctx, parent, a)
	if err != nil {
		return nil, err
	}
	skipped := 0
	var rs types.Receipts
	for _, tx := range txs {
		if bb.GasLeft() < tx.Gas()+21_000 {
			skipped++
			continue
		}
		r, err := bb.ApplyTx(tx)
		if err != nil {
			skipped++
			continue
		}
		rs = append(rs, r)
	}
	value := pay.Value
	if value == nil {
		value = bb.FeeRecipientGain()
		value.Add(value, uint256.NewInt(1e9))
	}
	payTx := types.MustSignNewTx(pay.Builder, bb.Signer(), &types.DynamicFeeTx{
		ChainID: big.NewInt(params.DevChainID), Nonce: bb.Nonce(coinbase), GasTipCap: common.Big0, GasFeeCap: bb.BaseFee(),
		Gas: 21_000, To: &pay.To, Value: value.ToBig(),
	})
	r, err := bb.ApplyTx(payTx)
	if err != nil {
		return nil, fmt.Errorf("workload: proposer payment: %w", err)
	}
	rs = append(rs, r)
	built, err := bb.Finish()
	if err != nil {
		return nil, err
	}
	if len(built.Block.Transactions()) < 2 {
		return nil, errors.New("workload: no tx of the block applied")
	}
	return &Built{BuiltBlock: built, Value: value, Receipts: rs, Skipped: skipped}, nil
}
