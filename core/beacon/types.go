package beacon

import (
	"fmt"
	"math/big"

	"github.com/holiman/uint256"
)

// Sizes of the fixed-size consensus types.
const (
	RootLength          = 32
	AddressLength       = 20
	PubkeyLength        = 48
	SignatureLength     = 96
	BloomLength         = 256
	KZGCommitmentLength = 48
	KZGProofLength      = 48
	BlobLength          = 131072 // FIELD_ELEMENTS_PER_BLOB * BYTES_PER_FIELD_ELEMENT
)

// Limits of the mainnet preset used by the containers (SSZ list limits): the static
// `ssz-max`/`ssz-size` tags and the generated code. A chain on another preset has its own
// values in a Spec (spec.go), which the `dynssz-*` tags name.
const (
	MaxExtraDataBytes           = 32
	MaxTransactionsPerPayload   = 1 << 20
	MaxBytesPerTransaction      = 1 << 30
	MaxWithdrawalsPerPayload    = 16
	MaxBlobCommitmentsPerBlock  = 4096
	CellsPerExtBlob             = 128  // cell proofs per blob from Fulu on
	FieldElementsPerExtBlob     = 8192 // Fulu proofs limit = this * MaxBlobCommitmentsPerBlock
	MaxDepositRequests          = 8192
	MaxWithdrawalRequests       = 16
	MaxConsolidationRequests    = 2
	MaxValidatorsPerCommittee   = 2048
	MaxCommitteesPerSlot        = 64
	MaxProposerSlashings        = 16
	MaxAttesterSlashings        = 2
	MaxAttesterSlashingsElectra = 1
	MaxAttestations             = 128
	MaxAttestationsElectra      = 8
	MaxDeposits                 = 16
	MaxVoluntaryExits           = 16
	MaxBLSToExecutionChanges    = 16
	DepositProofLength          = 33 // DEPOSIT_CONTRACT_TREE_DEPTH + 1
)

// Root is a 32-byte hash: block hashes, state roots, hash-tree-roots.
type Root [RootLength]byte

// Address is a 20-byte execution-layer address.
type Address [AddressLength]byte

// BLSPubkey is a compressed BLS12-381 G1 public key.
type BLSPubkey [PubkeyLength]byte

// BLSSignature is a compressed BLS12-381 G2 signature.
type BLSSignature [SignatureLength]byte

// Bloom is an execution-layer logs bloom.
type Bloom [BloomLength]byte

// KZGCommitment is a KZG commitment to a blob.
type KZGCommitment [KZGCommitmentLength]byte

// KZGProof is a KZG proof (a blob proof before Fulu, a cell proof from Fulu on).
type KZGProof [KZGProofLength]byte

// Blob is one EIP-4844 blob.
type Blob [BlobLength]byte

// U256 is an unsigned 256-bit integer in SSZ byte order (little-endian). Its JSON form is a
// decimal string, as in the beacon API.
type U256 [32]byte

// String returns the 0x-prefixed hex form.
func (r Root) String() string { return hexString(r[:]) }

// String returns the 0x-prefixed hex form.
func (a Address) String() string { return hexString(a[:]) }

// String returns the 0x-prefixed hex form.
func (p BLSPubkey) String() string { return hexString(p[:]) }

// String returns the 0x-prefixed hex form.
func (s BLSSignature) String() string { return hexString(s[:]) }

// String returns the 0x-prefixed hex form.
func (c KZGCommitment) String() string { return hexString(c[:]) }

// MarshalText implements encoding.TextMarshaler (0x hex).
func (r Root) MarshalText() ([]byte, error) { return []byte(hexString(r[:])), nil }

// UnmarshalText parses exactly 32 bytes of 0x-prefixed hex.
func (r *Root) UnmarshalText(b []byte) error { return decodeHexFixed(r[:], b) }

// MarshalText implements encoding.TextMarshaler (0x hex).
func (a Address) MarshalText() ([]byte, error) { return []byte(hexString(a[:])), nil }

// UnmarshalText parses exactly 20 bytes of 0x-prefixed hex.
func (a *Address) UnmarshalText(b []byte) error { return decodeHexFixed(a[:], b) }

// MarshalText implements encoding.TextMarshaler (0x hex).
func (p BLSPubkey) MarshalText() ([]byte, error) { return []byte(hexString(p[:])), nil }

// UnmarshalText parses exactly 48 bytes of 0x-prefixed hex.
func (p *BLSPubkey) UnmarshalText(b []byte) error { return decodeHexFixed(p[:], b) }

// MarshalText implements encoding.TextMarshaler (0x hex).
func (s BLSSignature) MarshalText() ([]byte, error) { return []byte(hexString(s[:])), nil }

// UnmarshalText parses exactly 96 bytes of 0x-prefixed hex.
func (s *BLSSignature) UnmarshalText(b []byte) error { return decodeHexFixed(s[:], b) }

// Uint256 returns the value as a holiman/uint256 integer.
func (u U256) Uint256() *uint256.Int {
	var be [32]byte
	for i := range u {
		be[31-i] = u[i]
	}
	return new(uint256.Int).SetBytes32(be[:])
}

// Big returns the value as a big.Int.
func (u U256) Big() *big.Int { return u.Uint256().ToBig() }

// String returns the decimal form.
func (u U256) String() string { return u.Uint256().Dec() }

// IsZero reports whether the value is 0.
func (u U256) IsZero() bool { return u == U256{} }

// Cmp compares u and v as integers and returns -1, 0 or +1.
func (u U256) Cmp(v U256) int {
	for i := 31; i >= 0; i-- {
		if u[i] != v[i] {
			if u[i] < v[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// U256FromUint256 converts a holiman/uint256 integer.
func U256FromUint256(x *uint256.Int) (u U256) {
	be := x.Bytes32()
	for i := range be {
		u[31-i] = be[i]
	}
	return u
}

// U256FromBig converts a big.Int; it fails for negative values and values of 2^256 or more.
func U256FromBig(x *big.Int) (U256, error) {
	v, overflow := uint256.FromBig(x)
	if overflow || x.Sign() < 0 {
		return U256{}, fmt.Errorf("%w: %s does not fit uint256", ErrInvalidNumber, x)
	}
	return U256FromUint256(v), nil
}

// U256FromUint64 converts a uint64.
func U256FromUint64(x uint64) U256 { return U256FromUint256(uint256.NewInt(x)) }

// MarshalText implements encoding.TextMarshaler (decimal).
func (u U256) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses a decimal string without sign or leading zeros.
func (u *U256) UnmarshalText(b []byte) error {
	v, err := parseU256(b)
	if err != nil {
		return err
	}
	*u = v
	return nil
}

func hexString(b []byte) string { return string(appendHexDigits(make([]byte, 0, 2+2*len(b)), b)) }
