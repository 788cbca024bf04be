package chain

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"
)

// MinTxGas is the least gas tx can use under the rules of the block after
// the head: its intrinsic gas (base, calldata, access list, authorizations,
// init code) and, where EIP-7623 applies, the calldata floor. A tx whose gas
// limit is below it can never be included. from is the tx's sender.
func (c *Chain) MinTxGas(tx *types.Transaction, from common.Address) (uint64, error) {
	h := c.Head()
	rules := c.Config().Rules(new(big.Int).Add(h.Number, common.Big1), true, h.Time+1)
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
