package bundle

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Errors of beta-bundle validation, one per rule. ValidateBeta wraps them
// with the detail (which tx, what was found, what was expected).
var (
	ErrBetaNoTxs       = errors.New("beta bundle has no txs")
	ErrBetaTooManyTxs  = errors.New("beta bundle has too many txs")
	ErrBetaTooLarge    = errors.New("beta bundle too large")
	ErrBetaTxHex       = errors.New("beta bundle tx is not 0x-prefixed hex")
	ErrBetaTxDecode    = errors.New("beta bundle tx is not a signed EIP-2718 transaction")
	ErrBetaTxChainID   = errors.New("beta bundle tx has the wrong chain id")
	ErrBetaBlobTx      = errors.New("beta bundle tx is a blob transaction")
	ErrBetaTxType      = errors.New("beta bundle tx has an unsupported type")
	ErrBetaPriorityFee = errors.New("beta bundle tx has a non-zero maxPriorityFeePerGas")
	ErrBetaDuplicateTx = errors.New("beta bundle has a duplicate tx")
	ErrBetaSlotMissing = errors.New("beta bundle slot missing")
	ErrBetaSlotFormat  = errors.New("beta bundle slot is not a decimal string")
	ErrBetaSlotPast    = errors.New("beta bundle slot is in the past")
	ErrBetaSlotTooFar  = errors.New("beta bundle slot is beyond the horizon")
	ErrBetaGasTooLow   = errors.New("beta bundle tx gas limit is below its intrinsic gas")
	ErrBetaGasTooHigh  = errors.New("beta bundle gas exceeds the beta capacity of its slot")
)

// BetaLimits bound what ValidateBeta accepts. The zero value is not useful;
// start from DefaultBetaLimits.
type BetaLimits struct {
	MaxTxs   int    // txs per bundle (default 100)
	MaxBytes int    // total raw tx bytes per bundle (default 1 MiB)
	Horizon  uint64 // how many slots ahead of the current one a bundle may target
	// MinGas, when set, is the least gas a tx can use (intrinsic gas and
	// calldata floor, core/chain.Chain.MinTxGas): a tx whose gas limit is
	// below it can never be included, so it is refused.
	MinGas func(tx *types.Transaction, from common.Address) (uint64, error)
	// MaxTxGas, when set, is the highest gas limit one tx may have under
	// the active fork (EIP-7825, core/chain.Chain.MaxTxGas; 0: no cap): a
	// tx above it can never be included, so it is refused.
	MaxTxGas func() uint64
}

// DefaultBetaLimits are DESIGN section 12's limits; the horizon of 128 slots
// (25.6 minutes at 12 s) covers an auction sold two epochs ahead with room
// to spare.
var DefaultBetaLimits = BetaLimits{MaxTxs: 100, MaxBytes: 1 << 20, Horizon: 128}

// BetaBundleArgs is the one object in mev_sendBetaBundle's params. Fields are
// kept as raw strings so that each malformed value gets its own error rather
// than a generic JSON one.
type BetaBundleArgs struct {
	Txs  []string `json:"txs"`
	Slot *string  `json:"slot"`
}

// BetaBundle is a validated beta bundle: signed L1 transactions with zero
// priority fee, bought for one beacon slot. The slot is not part of Hash, so
// the same bundle sent for several slots has one hash.
type BetaBundle struct {
	Hash common.Hash
	Slot uint64
	Txs  types.Transactions
	Raw  [][]byte // the txs as sent, for storage
	// Gas is the sum of the txs' gas limits (saturating at MaxUint64):
	// what the bundle needs of the slot's beta capacity to be included
	// whole (checked by the pool, which knows the slot's beta_gas).
	Gas uint64
}

// ValidateBeta checks args against DESIGN section 6, in this order: tx count,
// each tx (hex, size, decoding, type, chain id, priority fee, signature,
// duplicates), then the slot against currentSlot and the horizon. chainID is
// the L1 chain id the txs must be signed for.
func ValidateBeta(args BetaBundleArgs, chainID uint64, currentSlot uint64, lim BetaLimits) (*BetaBundle, error) {
	if len(args.Txs) == 0 {
		return nil, fmt.Errorf("%w: expected 1 to %d signed transactions in \"txs\"", ErrBetaNoTxs, lim.MaxTxs)
	}
	if len(args.Txs) > lim.MaxTxs {
		return nil, fmt.Errorf("%w: got %d, at most %d allowed", ErrBetaTooManyTxs, len(args.Txs), lim.MaxTxs)
	}
	b := &BetaBundle{Txs: make(types.Transactions, 0, len(args.Txs)), Raw: make([][]byte, 0, len(args.Txs))}
	signer := types.LatestSignerForChainID(new(big.Int).SetUint64(chainID))
	seen := make(map[common.Hash]int, len(args.Txs))
	hashes := make([]common.Hash, 0, len(args.Txs))
	total := 0
	var gas uint64
	for i, s := range args.Txs {
		raw, err := decodeHexTx(s)
		if err != nil {
			return nil, fmt.Errorf("%w: txs[%d]: %v", ErrBetaTxHex, i, err)
		}
		total += len(raw)
		if total > lim.MaxBytes {
			return nil, fmt.Errorf("%w: txs up to txs[%d] take %d bytes, at most %d allowed", ErrBetaTooLarge, i, total, lim.MaxBytes)
		}
		tx := new(types.Transaction)
		if err := tx.UnmarshalBinary(raw); err != nil {
			return nil, fmt.Errorf("%w: txs[%d]: %v", ErrBetaTxDecode, i, err)
		}
		if err := checkBetaTx(tx, chainID); err != nil {
			return nil, fmt.Errorf("%w (txs[%d] %s)", err, i, tx.Hash().Hex())
		}
		from, err := types.Sender(signer, tx)
		if err != nil {
			return nil, fmt.Errorf("%w: txs[%d]: bad signature: %v", ErrBetaTxDecode, i, err)
		}
		if lim.MinGas != nil {
			least, err := lim.MinGas(tx, from)
			if err != nil {
				return nil, fmt.Errorf("%w: txs[%d] %s: %v", ErrBetaGasTooLow, i, tx.Hash().Hex(), err)
			}
			if tx.Gas() < least {
				return nil, fmt.Errorf("%w: txs[%d] %s has gas limit %d, its calldata and access list alone need %d", ErrBetaGasTooLow, i, tx.Hash().Hex(), tx.Gas(), least)
			}
		}
		if lim.MaxTxGas != nil {
			if most := lim.MaxTxGas(); most > 0 && tx.Gas() > most {
				return nil, fmt.Errorf("%w: txs[%d] %s has gas limit %d, the active fork allows at most %d per tx (EIP-7825)", ErrBetaGasTooHigh, i, tx.Hash().Hex(), tx.Gas(), most)
			}
		}
		if gas += tx.Gas(); gas < tx.Gas() {
			gas = math.MaxUint64 // saturates: over any capacity
		}
		h := tx.Hash()
		if j, dup := seen[h]; dup {
			return nil, fmt.Errorf("%w: txs[%d] and txs[%d] are both %s", ErrBetaDuplicateTx, j, i, h.Hex())
		}
		seen[h] = i
		hashes = append(hashes, h)
		b.Txs = append(b.Txs, tx)
		b.Raw = append(b.Raw, raw)
	}
	slot, err := ParseBetaSlot(args.Slot)
	if err != nil {
		return nil, err
	}
	if err := CheckBetaSlot(slot, currentSlot, lim.Horizon); err != nil {
		return nil, err
	}
	b.Slot = slot
	b.Gas = gas
	b.Hash = HashOf(hashes)
	return b, nil
}

// checkBetaTx applies the per-transaction rules: type 2 or 4, the L1 chain
// id, and a zero tip (the tip is paid through the L2 bid).
func checkBetaTx(tx *types.Transaction, chainID uint64) error {
	switch tx.Type() {
	case types.DynamicFeeTxType, types.SetCodeTxType:
	case types.BlobTxType:
		return fmt.Errorf("%w: blob txs (type 3) cannot go into a beta bundle", ErrBetaBlobTx)
	default:
		return fmt.Errorf("%w: got type %d, expected 2 (EIP-1559) or 4 (EIP-7702)", ErrBetaTxType, tx.Type())
	}
	if id := tx.ChainId(); !id.IsUint64() || id.Uint64() != chainID {
		return fmt.Errorf("%w: got %s, expected %d", ErrBetaTxChainID, id, chainID)
	}
	if tip := tx.GasTipCap(); tip.Sign() != 0 {
		return fmt.Errorf("%w: got %s wei, expected 0 (the tip is paid through the L2 bid)", ErrBetaPriorityFee, tip)
	}
	return nil
}

// ParseBetaSlot parses the slot of a beta bundle: a decimal string matching
// ^[0-9]+$ that fits in a uint64.
func ParseBetaSlot(s *string) (uint64, error) {
	if s == nil {
		return 0, fmt.Errorf("%w: expected \"slot\": a decimal string such as \"12345\"", ErrBetaSlotMissing)
	}
	v := *s
	if v == "" {
		return 0, fmt.Errorf("%w: got an empty string, expected digits such as \"12345\"", ErrBetaSlotFormat)
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, fmt.Errorf("%w: got %q, expected digits only (^[0-9]+$), no 0x, sign or spaces", ErrBetaSlotFormat, clipString(v))
		}
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q does not fit in 64 bits", ErrBetaSlotFormat, clipString(v))
	}
	return n, nil
}

// CheckBetaSlot rejects a slot before current or more than horizon ahead.
func CheckBetaSlot(slot, current, horizon uint64) error {
	if slot < current {
		return fmt.Errorf("%w: slot %d, current slot is %d", ErrBetaSlotPast, slot, current)
	}
	if slot-current > horizon {
		return fmt.Errorf("%w: slot %d is %d slots ahead of the current slot %d, at most %d allowed", ErrBetaSlotTooFar, slot, slot-current, current, horizon)
	}
	return nil
}

// decodeHexTx decodes ^0x[0-9a-fA-F]+$ with an even number of digits.
func decodeHexTx(s string) ([]byte, error) {
	if len(s) < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return nil, fmt.Errorf("expected 0x-prefixed hex, got %q", clipString(s))
	}
	body := s[2:]
	if len(body) == 0 {
		return nil, errors.New("expected hex digits after 0x, got none")
	}
	if len(body)%2 == 1 {
		return nil, fmt.Errorf("odd number of hex digits (%d)", len(body))
	}
	out := make([]byte, len(body)/2)
	for i := 0; i < len(out); i++ {
		hi, ok1 := fromHexChar(body[2*i])
		lo, ok2 := fromHexChar(body[2*i+1])
		if !ok1 || !ok2 {
			bad := 2 * i
			if ok1 {
				bad++
			}
			return nil, fmt.Errorf("invalid hex character %q at offset %d", body[bad], bad+2)
		}
		out[i] = hi<<4 | lo
	}
	return out, nil
}

func fromHexChar(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func clipString(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
