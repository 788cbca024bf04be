package bundle

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
)

// Errors of eth_sendBundle / eth_cancelBundle validation.
var (
	ErrSendNoTxs         = errors.New("bundle missing txs")
	ErrSendTooManyTxs    = errors.New("bundle has too many txs")
	ErrSendTooLarge      = errors.New("bundle too large")
	ErrSendTxDecode      = errors.New("bundle tx is not a signed EIP-2718 transaction")
	ErrSendTxChainID     = errors.New("bundle tx has the wrong chain id")
	ErrSendBlobTx        = errors.New("bundle tx is a blob transaction")
	ErrSendDuplicateTx   = errors.New("bundle has a duplicate tx")
	ErrSendNoBlockNumber = errors.New("bundle missing blockNumber")
	ErrSendBlockPast     = errors.New("bundle blockNumber is not in the future")
	ErrSendBlockTooFar   = errors.New("bundle blockNumber is too far ahead")
	ErrSendTimestamps    = errors.New("bundle minTimestamp is after maxTimestamp")
	ErrSendRevertingHash = errors.New("bundle revertingTxHashes names a tx not in the bundle")
	ErrSendReplacementID = errors.New("bundle replacementUuid is not a UUID")
	ErrCancelMissingUUID = errors.New("cancel needs a replacementUuid")
	ErrNumberFormat      = errors.New("invalid number")
)

// SendLimits bound what ValidateSend accepts.
type SendLimits struct {
	MaxTxs         int    // txs per bundle (Flashbots: 100)
	MaxBytes       int    // total raw tx bytes (Flashbots: 300,000)
	MaxBlocksAhead uint64 // how far past the head blockNumber may be
}

// DefaultSendLimits are the Flashbots relay's limits; 256 blocks ahead.
var DefaultSendLimits = SendLimits{MaxTxs: 100, MaxBytes: 300_000, MaxBlocksAhead: 256}

// Uint64 is a number that decodes from a JSON number, a 0x-hex string or a
// decimal string: clients send blockNumber as hex (ethers) and timestamps as
// numbers, and some send everything as strings.
type Uint64 uint64

// UnmarshalJSON implements json.Unmarshaler.
func (n *Uint64) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(s) >= 2 && s[0] == '"' {
		var str string
		if err := json.Unmarshal(b, &str); err != nil {
			return fmt.Errorf("%w: %v", ErrNumberFormat, err)
		}
		s = str
		if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
			v, err := hexutil.DecodeUint64(s)
			if err != nil {
				return fmt.Errorf("%w: %q: %v", ErrNumberFormat, clipString(s), err)
			}
			*n = Uint64(v)
			return nil
		}
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: %s: expected a non-negative integer (JSON number, decimal or 0x-hex string)", ErrNumberFormat, clipString(s))
	}
	*n = Uint64(v)
	return nil
}

// SendBundleArgs is the one object in eth_sendBundle's params, as the
// Flashbots relay and @flashbots/ethers-provider-bundle use it.
type SendBundleArgs struct {
	Txs               []hexutil.Bytes `json:"txs"`
	BlockNumber       Uint64          `json:"blockNumber"`
	MinTimestamp      *Uint64         `json:"minTimestamp,omitempty"`
	MaxTimestamp      *Uint64         `json:"maxTimestamp,omitempty"`
	RevertingTxHashes []common.Hash   `json:"revertingTxHashes,omitempty"`
	ReplacementUUID   string          `json:"replacementUuid,omitempty"`
}

// CancelBundleArgs is the one object in eth_cancelBundle's params.
type CancelBundleArgs struct {
	ReplacementUUID string `json:"replacementUuid"`
}

// SendBundle is a validated eth_sendBundle bundle, valid for exactly one
// block (BlockNumber) and, when set, a timestamp window. Reverting lists the
// txs allowed to fail; any other failing tx drops the whole bundle.
type SendBundle struct {
	Hash            common.Hash
	BlockNumber     uint64
	MinTimestamp    uint64 // 0 = unset
	MaxTimestamp    uint64 // 0 = unset
	Txs             types.Transactions
	Reverting       map[common.Hash]bool
	ReplacementUUID string         // lower-case canonical form, "" = none
	Signer          common.Address // request signer, zero when unsigned
}

// CanRevert reports whether tx h may fail without dropping the bundle.
func (b *SendBundle) CanRevert(h common.Hash) bool { return b.Reverting[h] }

// ValidTime reports whether the bundle may go into a block with timestamp t.
func (b *SendBundle) ValidTime(t uint64) bool {
	return (b.MinTimestamp == 0 || t >= b.MinTimestamp) && (b.MaxTimestamp == 0 || t <= b.MaxTimestamp)
}

// ValidateSend checks eth_sendBundle args: txs present, within the limits,
// decodable, signed for chainID, no blob txs, no duplicates; blockNumber after
// head and within the limit; minTimestamp <= maxTimestamp; reverting hashes
// in the bundle; replacementUuid a UUID.
func ValidateSend(args SendBundleArgs, chainID, head uint64, lim SendLimits) (*SendBundle, error) {
	if len(args.Txs) == 0 {
		return nil, ErrSendNoTxs
	}
	if len(args.Txs) > lim.MaxTxs {
		return nil, fmt.Errorf("%w: got %d, at most %d allowed", ErrSendTooManyTxs, len(args.Txs), lim.MaxTxs)
	}
	if args.BlockNumber == 0 {
		return nil, fmt.Errorf("%w: expected the target block number, e.g. \"0x%x\"", ErrSendNoBlockNumber, head+1)
	}
	bn := uint64(args.BlockNumber)
	if bn <= head {
		return nil, fmt.Errorf("%w: blockNumber %d, head is %d", ErrSendBlockPast, bn, head)
	}
	if bn-head > lim.MaxBlocksAhead {
		return nil, fmt.Errorf("%w: blockNumber %d is %d blocks past head %d, at most %d allowed", ErrSendBlockTooFar, bn, bn-head, head, lim.MaxBlocksAhead)
	}
	b := &SendBundle{BlockNumber: bn, Reverting: map[common.Hash]bool{}}
	if args.MinTimestamp != nil {
		b.MinTimestamp = uint64(*args.MinTimestamp)
	}
	if args.MaxTimestamp != nil {
		b.MaxTimestamp = uint64(*args.MaxTimestamp)
	}
	if b.MinTimestamp != 0 && b.MaxTimestamp != 0 && b.MinTimestamp > b.MaxTimestamp {
		return nil, fmt.Errorf("%w: %d > %d", ErrSendTimestamps, b.MinTimestamp, b.MaxTimestamp)
	}
	signer := types.LatestSignerForChainID(new(big.Int).SetUint64(chainID))
	seen := make(map[common.Hash]int, len(args.Txs))
	hashes := make([]common.Hash, 0, len(args.Txs))
	total := 0
	for i, raw := range args.Txs {
		total += len(raw)
		if total > lim.MaxBytes {
			return nil, fmt.Errorf("%w: txs up to txs[%d] take %d bytes, at most %d allowed", ErrSendTooLarge, i, total, lim.MaxBytes)
		}
		tx := new(types.Transaction)
		if err := tx.UnmarshalBinary(raw); err != nil {
			return nil, fmt.Errorf("%w: txs[%d]: %v", ErrSendTxDecode, i, err)
		}
		if tx.Type() == types.BlobTxType {
			return nil, fmt.Errorf("%w: txs[%d] %s: blob txs are not accepted in bundles", ErrSendBlobTx, i, tx.Hash().Hex())
		}
		if tx.Protected() || tx.Type() != types.LegacyTxType {
			if id := tx.ChainId(); !id.IsUint64() || id.Uint64() != chainID {
				return nil, fmt.Errorf("%w: txs[%d] %s: got %s, expected %d", ErrSendTxChainID, i, tx.Hash().Hex(), id, chainID)
			}
		}
		if _, err := types.Sender(signer, tx); err != nil {
			return nil, fmt.Errorf("%w: txs[%d]: bad signature: %v", ErrSendTxDecode, i, err)
		}
		h := tx.Hash()
		if j, dup := seen[h]; dup {
			return nil, fmt.Errorf("%w: txs[%d] and txs[%d] are both %s", ErrSendDuplicateTx, j, i, h.Hex())
		}
		seen[h] = i
		hashes = append(hashes, h)
		b.Txs = append(b.Txs, tx)
	}
	for _, h := range args.RevertingTxHashes {
		if _, ok := seen[h]; !ok {
			return nil, fmt.Errorf("%w: %s", ErrSendRevertingHash, h.Hex())
		}
		b.Reverting[h] = true
	}
	if args.ReplacementUUID != "" {
		u, err := CanonicalUUID(args.ReplacementUUID)
		if err != nil {
			return nil, err
		}
		b.ReplacementUUID = u
	}
	b.Hash = HashOf(hashes)
	return b, nil
}

// CanonicalUUID checks the 8-4-4-4-12 hex form and lower-cases it.
func CanonicalUUID(s string) (string, error) {
	if len(s) != 36 {
		return "", fmt.Errorf("%w: %q: expected 36 characters like 123e4567-e89b-12d3-a456-426614174000", ErrSendReplacementID, clipString(s))
	}
	for i := 0; i < len(s); i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return "", fmt.Errorf("%w: %q: expected '-' at position %d", ErrSendReplacementID, s, i)
			}
		default:
			if _, ok := fromHexChar(s[i]); !ok {
				return "", fmt.Errorf("%w: %q: non-hex character at position %d", ErrSendReplacementID, s, i)
			}
		}
	}
	return strings.ToLower(s), nil
}
