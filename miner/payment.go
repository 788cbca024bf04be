package miner

import (
	"context"
	"crypto/ecdsa"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/chain"
)

// Payment is how a block built for a relay pays its proposer: the block's
// fee recipient is the builder's own account (Key), and a final transaction
// from it hands the proposer what the block earned plus Bonus. Without Key
// the block's fee recipient is the proposer itself, paid by the balance
// difference (no payment transaction, no bonus).
type Payment struct {
	Key   *ecdsa.PrivateKey // nil: pay by fee recipient
	To    common.Address    // the proposer's registered fee recipient
	Bonus *uint256.Int      // added to the block's earnings (nil: none)
}

// BuildPaying builds the block on parent for attrs with the builder's
// account as fee recipient and a final payment to the proposer, and returns
// the value paid. The payment pays no tip (max fee = base fee), as relays
// require of a payment transaction.
func (b *Builder) BuildPaying(ctx context.Context, parent *types.Header, attrs chain.BuildAttrs, pay Payment) (*Result, *uint256.Int, error) {
	if pay.Key == nil {
		attrs.FeeRecipient = pay.To
		var value *uint256.Int
		res, err := b.build(ctx, parent, attrs, func(bb *chain.BlockBuilder) error {
			value = bb.FeeRecipientGain()
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
		return res, value, nil
	}
	from := crypto.PubkeyToAddress(pay.Key.PublicKey)
	attrs.FeeRecipient = from
	var value *uint256.Int
	res, err := b.build(ctx, parent, attrs, func(bb *chain.BlockBuilder) error {
		value = bb.FeeRecipientGain()
		if pay.Bonus != nil {
			value.Add(value, pay.Bonus)
		}
		tx, err := types.SignTx(types.NewTx(&types.DynamicFeeTx{
			ChainID:   new(uint256.Int).SetUint64(b.chain.ChainID()).ToBig(),
			Nonce:     bb.Nonce(from),
			GasTipCap: common.Big0,
			GasFeeCap: bb.BaseFee(),
			Gas:       gparams.TxGas,
			To:        &pay.To,
			Value:     value.ToBig(),
		}), bb.Signer(), pay.Key)
		if err != nil {
			return fmt.Errorf("signing the proposer payment: %w", err)
		}
		if _, err := bb.ApplyTx(tx); err != nil {
			return fmt.Errorf("applying the proposer payment: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return res, value, nil
}
