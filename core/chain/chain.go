package chain

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth"
	gparams "github.com/ethereum/go-ethereum/params"
)

// ErrUnknownBlock is returned when a block number or hash is not in the
// local chain.
var ErrUnknownBlock = errors.New("unknown block")

// ErrMissingState is returned when a block is known but its state has been
// pruned or is not yet available.
var ErrMissingState = errors.New("state not available")

// Chain is gavel's handle on the local chain: headers, state and the engine.
// It wraps geth's *core.BlockChain (and, in a full node, *eth.Ethereum for
// the transaction pool) so that callers never import geth's core packages.
type Chain struct {
	bc  *core.BlockChain
	eth *eth.Ethereum // nil when built from a bare BlockChain
}

// New wraps a running geth Ethereum service.
func New(backend *eth.Ethereum) *Chain {
	return &Chain{bc: backend.BlockChain(), eth: backend}
}

// FromBlockChain wraps a bare geth BlockChain (tests, tools); pool-related
// methods are unavailable on it.
func FromBlockChain(bc *core.BlockChain) *Chain {
	return &Chain{bc: bc}
}

// Config returns the chain's fork configuration.
func (c *Chain) Config() *gparams.ChainConfig { return c.bc.Config() }

// ChainID returns the chain id transactions must be signed for.
func (c *Chain) ChainID() uint64 { return c.bc.Config().ChainID.Uint64() }

// Head returns the header of the current head block.
func (c *Chain) Head() *types.Header { return c.bc.CurrentBlock() }

// Genesis returns the genesis header.
func (c *Chain) Genesis() *types.Header { return c.bc.Genesis().Header() }

// HeaderByNumber returns the canonical header at n, or ErrUnknownBlock.
func (c *Chain) HeaderByNumber(n uint64) (*types.Header, error) {
	h := c.bc.GetHeaderByNumber(n)
	if h == nil {
		return nil, fmt.Errorf("%w: number %d (head is %d)", ErrUnknownBlock, n, c.bc.CurrentBlock().Number.Uint64())
	}
	return h, nil
}

// CanonicalHash returns the hash of the canonical block at n; ok is false
// when the chain has no block at n yet.
func (c *Chain) CanonicalHash(n uint64) (hash common.Hash, ok bool) {
	hash = c.bc.GetCanonicalHash(n)
	return hash, hash != (common.Hash{})
}

// HeaderByHash returns the header with the given hash, or ErrUnknownBlock.
func (c *Chain) HeaderByHash(hash common.Hash) (*types.Header, error) {
	h := c.bc.GetHeaderByHash(hash)
	if h == nil {
		return nil, fmt.Errorf("%w: hash %s", ErrUnknownBlock, hash.Hex())
	}
	return h, nil
}

// BlockByNumber returns the canonical block at n, or ErrUnknownBlock.
func (c *Chain) BlockByNumber(n uint64) (*types.Block, error) {
	b := c.bc.GetBlockByNumber(n)
	if b == nil {
		return nil, fmt.Errorf("%w: number %d", ErrUnknownBlock, n)
	}
	return b, nil
}

// NotifyNewTxs calls fn (which must not block) whenever transactions enter
// the transaction pool, until stop is called. It is a no-op without a pool.
func (c *Chain) NotifyNewTxs(fn func()) (stop func()) {
	return c.subscribeTxs(func(types.Transactions) { fn() })
}

// NotifyPooledTxs calls fn with the transactions that enter the
// transaction pool, each in its consensus encoding (as an execution
// payload carries it), from one goroutine, until stop is called. fn should
// not block for long: the pool's events queue behind it. It is a no-op
// without a pool.
func (c *Chain) NotifyPooledTxs(fn func(encoded [][]byte)) (stop func()) {
	return c.subscribeTxs(func(txs types.Transactions) {
		encoded := make([][]byte, 0, len(txs))
		for _, tx := range txs {
			if b, err := tx.MarshalBinary(); err == nil {
				encoded = append(encoded, b)
			}
		}
		fn(encoded)
	})
}

// subscribeTxs calls fn with each batch of transactions entering the pool.
func (c *Chain) subscribeTxs(fn func(types.Transactions)) (stop func()) {
	if c.eth == nil {
		return func() {}
	}
	ch := make(chan core.NewTxsEvent, 16)
	sub := c.eth.TxPool().SubscribeTransactions(ch, false)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case ev := <-ch:
				fn(ev.Txs)
			case <-sub.Err():
				return
			}
		}
	}()
	return func() {
		sub.Unsubscribe()
		<-done
	}
}
