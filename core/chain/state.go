package chain

import (
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/state"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"
)

// HeaderByNumberOrHash resolves a block reference as JSON-RPC clients give
// it: a number, a tag (latest, pending, safe, finalized, earliest) or a hash,
// optionally required to be canonical. "pending" means the head: gavel keeps
// no pending block. A number beyond the head, an unknown hash and a tag whose
// block is not yet set (safe, finalized before the first finality) all give
// ErrUnknownBlock with a message that says which.
func (c *Chain) HeaderByNumberOrHash(ref rpc.BlockNumberOrHash) (*types.Header, error) {
	if hash, ok := ref.Hash(); ok {
		h, err := c.HeaderByHash(hash)
		if err != nil {
			return nil, err
		}
		if ref.RequireCanonical {
			if canon := c.bc.GetCanonicalHash(h.Number.Uint64()); canon != hash {
				return nil, fmt.Errorf("%w: hash %s is not canonical at number %d", ErrUnknownBlock, hash.Hex(), h.Number.Uint64())
			}
		}
		return h, nil
	}
	num, ok := ref.Number()
	if !ok {
		return nil, fmt.Errorf("%w: neither a block number nor a hash given", ErrUnknownBlock)
	}
	head := c.bc.CurrentBlock()
	var h *types.Header
	switch num {
	case rpc.LatestBlockNumber, rpc.PendingBlockNumber:
		h = head
	case rpc.SafeBlockNumber:
		if h = c.bc.CurrentSafeBlock(); h == nil {
			return nil, fmt.Errorf("%w: no safe block yet", ErrUnknownBlock)
		}
	case rpc.FinalizedBlockNumber:
		if h = c.bc.CurrentFinalBlock(); h == nil {
			return nil, fmt.Errorf("%w: no finalized block yet", ErrUnknownBlock)
		}
	case rpc.EarliestBlockNumber:
		h = c.bc.Genesis().Header()
	default:
		if num < 0 {
			return nil, fmt.Errorf("%w: unsupported block tag %d", ErrUnknownBlock, num)
		}
		if uint64(num) > head.Number.Uint64() {
			return nil, fmt.Errorf("%w: block %d is in the future (head is %d)", ErrUnknownBlock, num, head.Number.Uint64())
		}
		return c.HeaderByNumber(uint64(num))
	}
	return h, nil
}

// HasState reports whether the post-state of the block with this header is
// available (not pruned, not still being synced).
func (c *Chain) HasState(h *types.Header) bool {
	return c.bc.HasState(h.Root)
}

// stateAfter opens a private, mutable copy of the post-state of the block
// with header h. Writes to it never reach the database. A state that has left
// the live trie is read from the state history when the node keeps one
// (path scheme in archive mode), as geth's eth_call does.
func (c *Chain) stateAfter(h *types.Header) (*state.StateDB, error) {
	sdb, err := c.bc.StateAt(h.Root, h.Number, h.Time)
	if err == nil {
		return sdb, nil
	}
	sdb, herr := c.bc.HistoricState(h.Root, h.Number, h.Time)
	if herr != nil {
		return nil, fmt.Errorf("%w: block %d (%s): %v; no historic state either: %v", ErrMissingState, h.Number.Uint64(), h.Hash().Hex(), err, herr)
	}
	return sdb, nil
}

// HeadAccount reads an account's nonce and balance in the post-state of the
// head block (bundle admission checks).
func (c *Chain) HeadAccount(addr common.Address) (nonce uint64, balance *uint256.Int, err error) {
	sdb, err := c.stateAfter(c.Head())
	if err != nil {
		return 0, nil, err
	}
	return sdb.GetNonce(addr), sdb.GetBalance(addr), nil
}
