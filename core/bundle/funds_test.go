package bundle

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/holiman/uint256"
)

// headState is a head block and one account's nonce and balance.
type headState struct {
	head    *types.Header
	nonce   uint64
	balance *uint256.Int
}

func (h headState) Head() *types.Header { return h.head }
func (h headState) HeadAccount(common.Address) (uint64, *uint256.Int, error) {
	return h.nonce, h.balance, nil
}

// TestCheckFunds: one case per rule, each one past its bound, and the
// base fee floor a number of blocks after the head.
func TestCheckFunds(t *testing.T) {
	key, _ := crypto.GenerateKey()
	signer := types.LatestSignerForChainID(big.NewInt(1))
	tx := func(nonce uint64, feeCap int64) *types.Transaction {
		return types.MustSignNewTx(key, signer, &types.DynamicFeeTx{ChainID: big.NewInt(1), Nonce: nonce, GasFeeCap: big.NewInt(feeCap), Gas: 21000, To: &common.Address{1}, Value: big.NewInt(5)})
	}
	st := headState{head: &types.Header{Number: big.NewInt(10), BaseFee: big.NewInt(800)}, nonce: 3, balance: uint256.NewInt(21000*800 + 5)}
	for _, c := range []struct {
		name   string
		tx     *types.Transaction
		blocks uint64
		want   error
		msg    string
	}{
		{"at the account's nonce, paid for exactly", tx(3, 800), 1, nil, ""},
		{"nonce one below", tx(2, 800), 1, ErrNonceTooLow, "has nonce 2"},
		{"one wei short", tx(3, 801), 1, ErrInsufficientFunds, "costs up to 16821005 wei"},
		{"max fee below the next block's least base fee", tx(3, 699), 1, ErrFeeCapTooLow, "has max fee 699 wei: the head's base fee is 800 wei, and its block, 1 block(s) after the head, has a base fee of at least 700 wei"},
		{"two blocks ahead: 613 wei at least", tx(3, 613), 2, nil, ""},
		{"two blocks ahead, one wei below", tx(3, 612), 2, ErrFeeCapTooLow, "2 block(s) after the head, has a base fee of at least 613 wei"},
	} {
		err := CheckFunds(st, c.tx, "txs[0]", c.blocks)
		if !errors.Is(err, c.want) || c.want == nil && err != nil || err != nil && !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %v (%q)", c.name, err, c.want, c.msg)
		}
	}
}
