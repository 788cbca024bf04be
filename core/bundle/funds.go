package bundle

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"

	"github.com/gavel-eth/gavel/core/errclass"
)

// Accounts reads the head state for the admission checks of bundles and
// beta bundles (core/chain.Chain).
type Accounts interface {
	Head() *types.Header
	HeadAccount(addr common.Address) (nonce uint64, balance *uint256.Int, err error)
}

// Errors of CheckFunds: the tx could not run on the head state as it is.
var (
	ErrNonceTooLow       = errors.New("tx nonce is below its sender's account nonce")
	ErrInsufficientFunds = errors.New("tx sender cannot pay for it")
	ErrFeeCapTooLow      = errors.New("tx max fee per gas is below any base fee its block can have")
)

// CheckFunds is the cheap admission check of a bundle's first tx against
// the head state, so that an account without funds cannot fill a pool or
// a store: the tx (what names it in errors, such as "txs[0]") must have a
// nonce at least its sender's, a sender holding its gas at its max fee
// plus its value, and a max fee no lower than the lowest base fee a block
// blocks blocks after the head can have (MinBaseFee). Only the first tx
// is checked: later txs may be paid for by earlier ones (a sponsor
// funding a fresh account is a common bundle). A failed state read is an
// internal fault.
func CheckFunds(a Accounts, tx *types.Transaction, what string, blocks uint64) error {
	from, err := types.Sender(types.LatestSignerForChainID(tx.ChainId()), tx)
	if err != nil {
		return fmt.Errorf("%w: %s %s: bad signature: %v", ErrSendTxDecode, what, tx.Hash().Hex(), err)
	}
	nonce, balance, err := a.HeadAccount(from)
	if err != nil {
		return errclass.Internal(fmt.Errorf("reading the head state: %w", err))
	}
	if tx.Nonce() < nonce {
		return fmt.Errorf("%w: %s %s has nonce %d, %s is at %d", ErrNonceTooLow, what, tx.Hash().Hex(), tx.Nonce(), from.Hex(), nonce)
	}
	cost, overflow := uint256.FromBig(tx.Cost())
	if overflow || balance.Cmp(cost) < 0 {
		return fmt.Errorf("%w: %s %s costs up to %s wei (gas limit x max fee + value), %s holds %s wei", ErrInsufficientFunds, what, tx.Hash().Hex(), tx.Cost(), from.Hex(), balance)
	}
	if floor := MinBaseFee(a.Head(), blocks); floor != nil && tx.GasFeeCap().Cmp(floor) < 0 {
		return fmt.Errorf("%w: %s %s has max fee %s wei: the head's base fee is %s wei, and its block, %d block(s) after the head, has a base fee of at least %s wei (it falls by at most 1/8 a block)",
			ErrFeeCapTooLow, what, tx.Hash().Hex(), tx.GasFeeCap(), a.Head().BaseFee, blocks, floor)
	}
	return nil
}

// MinBaseFee is the lowest base fee a block blocks blocks after head can
// have: the base fee falls by at most an eighth a block (EIP-1559), and
// below 8 wei it can reach 0. Nil when head has no base fee.
func MinBaseFee(head *types.Header, blocks uint64) *big.Int {
	if head == nil || head.BaseFee == nil {
		return nil
	}
	floor := new(big.Int).Set(head.BaseFee)
	for i := uint64(0); i < blocks && floor.Sign() > 0; i++ {
		floor.Sub(floor, new(big.Int).Rsh(floor, 3))
		if floor.Cmp(big.NewInt(8)) < 0 {
			floor.SetInt64(0)
		}
	}
	return floor
}
