package bundle

import (
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// Sentinel errors. Every error the package returns wraps one of them, with a
// message that says what was wrong and what was expected.
var (
	// ErrNoTxs: the bundle has no transactions.
	ErrNoTxs = errors.New("bundle missing txs")
	// ErrTooManyTxs: more transactions than Config.MaxTxs.
	ErrTooManyTxs = errors.New("too many txs in bundle")
	// ErrTooLarge: the raw transactions together exceed Config.MaxBytes.
	ErrTooLarge = errors.New("bundle too large")
	// ErrBadTx: a transaction does not decode as a signed EIP-2718 envelope.
	ErrBadTx = errors.New("undecodable tx")
	// ErrWrongChain: a transaction is signed for another chain.
	ErrWrongChain = errors.New("tx for another chain")
	// ErrNoBlockNumber: the target block number is missing or zero.
	ErrNoBlockNumber = errors.New("bundle missing blockNumber")
	// ErrUnknownStateBlock: the state block does not exist here (unknown
	// hash, number past the head, non-canonical hash when canonical was
	// required).
	ErrUnknownStateBlock = errors.New("unknown state block")
	// ErrStateUnavailable: the state block is known but its state is not
	// (pruned).
	ErrStateUnavailable = errors.New("state not available")
	// ErrBadTimeout: the requested timeout is not positive or above
	// Config.MaxTimeout.
	ErrBadTimeout = errors.New("invalid timeout")
	// ErrBadGasLimit: the gasLimit override is above twice the state
	// block's gas limit.
	ErrBadGasLimit = errors.New("invalid gasLimit")
	// ErrTimeout: the simulation ran past its timeout. No partial result
	// is ever returned.
	ErrTimeout = errors.New("bundle simulation timed out")
	// ErrCancelled: the caller went away before the simulation finished.
	ErrCancelled = errors.New("bundle simulation cancelled")
	// ErrInvalidTx: a transaction could not be in a block at all (nonce,
	// funds, fee cap below base fee, block gas...); the whole simulation
	// fails and the message names the transaction.
	ErrInvalidTx = errors.New("invalid tx in bundle")
	// ErrBadCall: a call object of eth_estimateGasBundle is malformed.
	ErrBadCall = errors.New("invalid call in bundle")
)

// Config holds the limits of bundle simulation. The zero value of a field
// means its default.
type Config struct {
	// MaxTxs is the most transactions a bundle may hold (default 100,
	// the Flashbots relay's limit).
	MaxTxs int
	// MaxBytes bounds the summed size of the raw transactions (default
	// 1 MiB).
	MaxBytes int
	// DefaultTimeout applies when a request gives none (default 5 s).
	DefaultTimeout time.Duration
	// MaxTimeout is the largest timeout a request may ask for (default
	// 10 s); larger ones are refused, not silently lowered.
	MaxTimeout time.Duration
	// SenderCache is how many transaction senders (by tx hash) to keep
	// between requests, saving an ecrecover per known tx (default 16384;
	// negative turns the cache off).
	SenderCache int
}

// Defaults of Config.
const (
	DefaultMaxTxs      = 100
	DefaultMaxBytes    = 1 << 20
	DefaultTimeout     = 5 * time.Second
	DefaultMaxTimeout  = 10 * time.Second
	DefaultSenderCache = 16384
)

// WithDefaults returns c with every zero field set to its default.
func (c Config) WithDefaults() Config {
	if c.MaxTxs <= 0 {
		c.MaxTxs = DefaultMaxTxs
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.MaxTimeout <= 0 {
		c.MaxTimeout = DefaultMaxTimeout
	}
	if c.SenderCache == 0 {
		c.SenderCache = DefaultSenderCache
	}
	if c.DefaultTimeout <= 0 {
		c.DefaultTimeout = min(DefaultTimeout, c.MaxTimeout)
	}
	return c
}

// Hash returns the bundle hash of txs: keccak256 of the concatenated 32-byte
// transaction hashes, in bundle order. A one-tx bundle still hashes once, so
// its hash differs from the tx hash.
func Hash(txs []*types.Transaction) common.Hash {
	buf := make([]byte, 0, len(txs)*common.HashLength)
	for _, tx := range txs {
		h := tx.Hash()
		buf = append(buf, h[:]...)
	}
	return crypto.Keccak256Hash(buf)
}

// HashOf is Hash for transaction hashes already computed.
func HashOf(hashes []common.Hash) common.Hash {
	buf := make([]byte, 0, len(hashes)*common.HashLength)
	for _, h := range hashes {
		buf = append(buf, h[:]...)
	}
	return crypto.Keccak256Hash(buf)
}

// CheckSize applies the count and byte limits to raw transactions, before
// anything is decoded.
func (c Config) CheckSize(raw [][]byte) error {
	c = c.WithDefaults()
	if len(raw) == 0 {
		return ErrNoTxs
	}
	if len(raw) > c.MaxTxs {
		return fmt.Errorf("%w: %d txs, at most %d allowed", ErrTooManyTxs, len(raw), c.MaxTxs)
	}
	total := 0
	for _, r := range raw {
		total += len(r)
	}
	if total > c.MaxBytes {
		return fmt.Errorf("%w: %d bytes of txs, at most %d allowed", ErrTooLarge, total, c.MaxBytes)
	}
	return nil
}

// DecodeTxs checks the limits and decodes raw signed transactions,
// refusing any signed for a chain other than chainID. Unprotected legacy
// transactions (no chain id) are accepted, as the chain accepts them.
func (c Config) DecodeTxs(raw [][]byte, chainID uint64) ([]*types.Transaction, error) {
	if err := c.CheckSize(raw); err != nil {
		return nil, err
	}
	txs := make([]*types.Transaction, len(raw))
	for i, r := range raw {
		tx, err := DecodeTx(i, r, chainID)
		if err != nil {
			return nil, err
		}
		txs[i] = tx
	}
	return txs, nil
}

// DecodeTx decodes the raw signed transaction at position i of a bundle
// (the position only names it in errors), refusing another chain's.
func DecodeTx(i int, raw []byte, chainID uint64) (*types.Transaction, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("%w: tx %d is empty, expected a signed EIP-2718 transaction", ErrBadTx, i)
	}
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(raw); err != nil {
		return nil, fmt.Errorf("%w: tx %d: %v (expected a signed EIP-2718 transaction)", ErrBadTx, i, err)
	}
	id := tx.ChainId()
	if tx.Protected() && (id == nil || id.Cmp(new(big.Int).SetUint64(chainID)) != 0) {
		return nil, fmt.Errorf("%w: tx %d (%s) has chain id %v, expected %d", ErrWrongChain, i, tx.Hash().Hex(), id, chainID)
	}
	return tx, nil
}
