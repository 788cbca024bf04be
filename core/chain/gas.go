package chain

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	gparams "github.com/ethereum/go-ethereum/params"
	"github.com/holiman/uint256"
)

// nextRules are the rules of the block after the head.
func (c *Chain) nextRules() gparams.Rules {
	h := c.Head()
	return c.Config().Rules(new(big.Int).Add(h.Number, common.Big1), true, h.Time+1)
}

// MinTxGas is the least gas tx can use under the rules of the block after
// the head: its intrinsic gas (base, calldata, access list, authorizations,
// init code) and, where EIP-7623 applies, the calldata floor. A tx whose gas
// limit is below it can never be included. from is the tx's sender.
func (c *Chain) MinTxGas(tx *types.Transaction, from common.Address) (uint64, error) {
	rules := c.nextRules()
	value, _ := uint256.FromBig(tx.Value())
	gas, err := core.IntrinsicGas(tx.Data(), tx.AccessList(), tx.SetCodeAuthorizations(), from, tx.To(), value, rules)
	if err != nil {
		return 0, err
	}
	if rules.IsPrague {
		floor, err := core.FloorDataGas(rules, from, tx.To(), value, tx.Data(), tx.AccessList())
		if err != nil {
			return 0, err
		}
		gas = max(gas, floor)
	}
	return gas, nil
}

// MaxTxGas is the highest gas limit one tx may have under the rules of the
// block after the head, as geth's state transition checks it: EIP-7825's
// cap (2^24) from Osaka on, EIP-8037's total cap from Amsterdam on; 0
// before Osaka (no cap but the block's gas limit).
func (c *Chain) MaxTxGas() uint64 {
	switch rules := c.nextRules(); {
	case rules.IsAmsterdam:
		return gparams.MaxTxTotalGas
	case rules.IsOsaka:
		return gparams.MaxTxGas
	}
	return 0
}
