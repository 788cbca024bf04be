package beacon

import (
	"crypto/rand"
	"fmt"
	"runtime"
	"sync/atomic"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/gavel-eth/gavel/params"
)

// BLS signatures here follow the Ethereum consensus layer: min-pk (48-byte G1 public keys,
// 96-byte G2 signatures), proof-of-possession ciphersuite.

// dst is the hash-to-curve domain separation tag of the PoP ciphersuite.
var dst = []byte("BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_")

// DomainType selects what a signature is for.
type DomainType [4]byte

// Domain types used by a relay.
var (
	DomainBeaconProposer     = DomainType{0x00, 0x00, 0x00, 0x00}
	DomainApplicationBuilder = DomainType{0x00, 0x00, 0x00, 0x01}
)

// Domain is a 32-byte signing domain: the domain type followed by 28 bytes of the fork data
// root.
type Domain [32]byte

// ComputeDomain returns compute_domain(domainType, forkVersion, genesisValidatorsRoot).
func ComputeDomain(domainType DomainType, forkVersion params.ForkVersion, genesisValidatorsRoot Root) Domain {
	fd := ForkData{CurrentVersion: forkVersion, GenesisValidatorsRoot: genesisValidatorsRoot}
	root, _ := fd.HashTreeRoot() // fixed-size container: cannot fail
	var d Domain
	copy(d[:4], domainType[:])
	copy(d[4:], root[:28])
	return d
}

// BuilderDomain returns DOMAIN_APPLICATION_BUILDER for a network: the genesis fork version
// and a zero genesis validators root, whatever the current fork. Builders sign bid traces,
// relays sign builder bids and validators sign registrations with it.
func BuilderDomain(cfg *params.BeaconConfig) Domain {
	return ComputeDomain(DomainApplicationBuilder, cfg.GenesisForkVersion, Root{})
}

// ProposerDomain returns DOMAIN_BEACON_PROPOSER for blocks of fork on a network: the fork's
// version and the network's genesis validators root.
func ProposerDomain(cfg *params.BeaconConfig, fork params.ConsensusFork) (Domain, error) {
	v, err := cfg.ForkVersion(fork)
	if err != nil {
		return Domain{}, fmt.Errorf("%w: %v", ErrUnsupportedFork, err)
	}
	return ComputeDomain(DomainBeaconProposer, v, cfg.GenesisValidatorsRoot), nil
}

// Hashable is a container with an SSZ hash-tree-root.
type Hashable interface {
	HashTreeRoot() ([32]byte, error)
}

// SigningRoot returns compute_signing_root(obj, domain): the root of SigningData{obj's
// hash-tree-root, domain}, which is what the BLS signature signs.
func SigningRoot(obj Hashable, domain Domain) (Root, error) {
	objRoot, err := obj.HashTreeRoot()
	if err != nil {
		return Root{}, fmt.Errorf("%w: hash tree root: %v", ErrInvalidSSZ, err)
	}
	return signingRootOf(objRoot, domain), nil
}

func signingRootOf(objRoot [32]byte, domain Domain) Root {
	sd := SigningData{ObjectRoot: objRoot, Domain: Root(domain)}
	r, _ := sd.HashTreeRoot() // fixed-size container: cannot fail
	return r
}

// SecretKey is a BLS secret key.
type SecretKey struct {
	sk     blst.SecretKey
	pubkey BLSPubkey
}

// SecretKeyFromBytes parses a 32-byte big-endian secret key.
func SecretKeyFromBytes(b []byte) (*SecretKey, error) {
	if len(b) != 32 {
		return nil, fmt.Errorf("%w: got %d bytes, expected 32", ErrInvalidSecretKey, len(b))
	}
	sk := new(blst.SecretKey).Deserialize(b)
	if sk == nil {
		return nil, fmt.Errorf("%w: not a scalar in range 1..r-1", ErrInvalidSecretKey)
	}
	return newSecretKey(sk), nil
}

// GenerateSecretKey creates a random secret key.
func GenerateSecretKey() (*SecretKey, error) {
	var ikm [32]byte
	if _, err := rand.Read(ikm[:]); err != nil {
		return nil, err
	}
	return DeriveSecretKey(ikm[:])
}

// DeriveSecretKey derives a secret key from at least 32 bytes of key material with the
// EIP-2333 KeyGen; the same material always gives the same key (dev validators use it).
func DeriveSecretKey(ikm []byte) (*SecretKey, error) {
	if len(ikm) < 32 {
		return nil, fmt.Errorf("%w: key material must be at least 32 bytes, got %d", ErrInvalidSecretKey, len(ikm))
	}
	sk := blst.KeyGen(ikm)
	if sk == nil {
		return nil, ErrInvalidSecretKey
	}
	return newSecretKey(sk), nil
}

func newSecretKey(sk *blst.SecretKey) *SecretKey {
	k := &SecretKey{sk: *sk}
	copy(k.pubkey[:], new(blst.P1Affine).From(sk).Compress())
	return k
}

// PublicKey returns the compressed public key.
func (k *SecretKey) PublicKey() BLSPubkey { return k.pubkey }

// Bytes returns the 32-byte big-endian secret key.
func (k *SecretKey) Bytes() []byte { return k.sk.Serialize() }

// SignRoot signs a 32-byte signing root.
func (k *SecretKey) SignRoot(root Root) BLSSignature {
	var out BLSSignature
	copy(out[:], new(blst.P2Affine).Sign(&k.sk, root[:], dst).Compress())
	return out
}

// Sign signs obj under domain.
func (k *SecretKey) Sign(obj Hashable, domain Domain) (BLSSignature, error) {
	root, err := SigningRoot(obj, domain)
	if err != nil {
		return BLSSignature{}, err
	}
	return k.SignRoot(root), nil
}

// PublicKey is a decompressed, validated BLS public key. Decompression costs about as much
// as a third of a verification, so callers that verify many signatures of one key (a relay
// and its builders) keep the PublicKey.
type PublicKey struct {
	p blst.P1Affine
}

// ParsePublicKey decompresses and validates a public key (on the curve, in the subgroup,
// not the identity).
func ParsePublicKey(b BLSPubkey) (*PublicKey, error) {
	p := new(blst.P1Affine).Uncompress(b[:])
	if p == nil {
		return nil, fmt.Errorf("%w: %s is not a compressed G1 point", ErrInvalidPubkey, b)
	}
	if !p.KeyValidate() {
		return nil, fmt.Errorf("%w: %s is the identity or outside the subgroup", ErrInvalidPubkey, b)
	}
	return &PublicKey{p: *p}, nil
}

func parseSignature(s BLSSignature) (*blst.P2Affine, error) {
	sig := new(blst.P2Affine).Uncompress(s[:])
	if sig == nil {
		return nil, fmt.Errorf("%w: not a compressed G2 point", ErrInvalidSignature)
	}
	return sig, nil
}

// VerifyRoot checks sig over a signing root with pk.
func VerifyRoot(pk *PublicKey, root Root, sig BLSSignature) error {
	s, err := parseSignature(sig)
	if err != nil {
		return err
	}
	if !s.Verify(true, &pk.p, false, root[:], dst) {
		return fmt.Errorf("%w: signature does not verify for %x", ErrInvalidSignature, pk.p.Compress())
	}
	return nil
}

// Verify checks that sig is pubkey's signature over obj under domain.
func Verify(pubkey BLSPubkey, obj Hashable, domain Domain, sig BLSSignature) error {
	pk, err := ParsePublicKey(pubkey)
	if err != nil {
		return err
	}
	root, err := SigningRoot(obj, domain)
	if err != nil {
		return err
	}
	return VerifyRoot(pk, root, sig)
}

// SignatureSet is one (public key, signing root, signature) triple for batch verification.
type SignatureSet struct {
	Pubkey    BLSPubkey
	Root      Root
	Signature BLSSignature
}

// BatchError reports the first set that failed in a batch verification.
type BatchError struct {
	Index int
	Err   error
}

// Error implements error.
func (e *BatchError) Error() string { return fmt.Sprintf("signature set %d: %v", e.Index, e.Err) }

// Unwrap returns the underlying error (wrapping ErrInvalidSignature or ErrInvalidPubkey).
func (e *BatchError) Unwrap() error { return e.Err }

// batchChunk is how many sets a worker takes at a time.
const batchChunk = 16

// firstBatch is the size of the first combined check of VerifyBatch; each
// following one doubles.
const firstBatch = 64

// VerifyBatch checks many signature sets at once, in order, failing fast.
// Sets are combined with random 64-bit weights into multi-pairing checks, which cost
// roughly one Miller loop per set and a single final exponentiation instead of two Miller
// loops and a final exponentiation per set; decompression, subgroup checks, hashing to the
// curve and Miller loops are spread over GOMAXPROCS goroutines. The checks cover 64 sets,
// then 128, 256, ...: a bad set among the first ones stops the work early, and the extra
// final exponentiations cost little. When a check fails, bisection (combined checks of
// halves) finds the first bad set in about 2·size Miller loops, and a *BatchError names it
// so a caller can reject exactly that entry; every set before it verified.
func VerifyBatch(sets []SignatureSet) error {
	for start, size := 0, firstBatch; start < len(sets); start, size = start+size, size*2 {
		end := min(start+size, len(sets))
		ok, err := batchHolds(sets[start:end])
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		lo, hi := start, end // [lo, hi) holds a bad set; [start, lo) verified
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if ok, err := batchHolds(sets[lo:mid]); err != nil {
				return err
			} else if ok {
				lo = mid
			} else {
				hi = mid
			}
		}
		pk, err := ParsePublicKey(sets[lo].Pubkey)
		if err != nil {
			return &BatchError{Index: lo, Err: err}
		}
		if err := VerifyRoot(pk, sets[lo].Root, sets[lo].Signature); err != nil {
			return &BatchError{Index: lo, Err: err}
		}
		// Unreachable in theory: a single set's weighted check fails only if it is bad.
		return &BatchError{Index: lo, Err: fmt.Errorf("%w: batch check failed although the set verifies", ErrInvalidSignature)}
	}
	return nil
}

// batchHolds runs one combined check over sets: true when every set verifies (up to the
// negligible chance of random weights cancelling a bad one).
func batchHolds(sets []SignatureSet) (bool, error) {
	n := len(sets)
	if n == 0 {
		return true, nil
	}
	weights := make([]byte, 8*n)
	if _, err := rand.Read(weights); err != nil {
		return false, err
	}
	workers := min(runtime.GOMAXPROCS(0), (n+batchChunk-1)/batchChunk)
	var next atomic.Int64
	var failed atomic.Bool
	results := make(chan blst.Pairing, workers)
	for w := 0; w < workers; w++ {
		go func() {
			ctx := blst.PairingCtx(true, dst)
			var pk blst.P1Affine
			var scalar blst.Scalar
			var sc [32]byte
			for !failed.Load() {
				start := int(next.Add(batchChunk)) - batchChunk
				if start >= n {
					break
				}
				for i := start; i < min(start+batchChunk, n) && !failed.Load(); i++ {
					set := &sets[i]
					if pk.Uncompress(set.Pubkey[:]) == nil || !pk.KeyValidate() {
						failed.Store(true)
						break
					}
					sig := new(blst.P2Affine).Uncompress(set.Signature[:])
					if sig == nil {
						failed.Store(true)
						break
					}
					copy(sc[:8], weights[8*i:8*i+8])
					sc[0] |= 1 // never zero
					scalar.FromLEndian(sc[:])
					if blst.PairingMulNAggregatePkInG1(ctx, &pk, false, sig, true, &scalar, 64, set.Root[:]) != 0 {
						failed.Store(true)
						break
					}
				}
			}
			if failed.Load() {
				results <- nil
				return
			}
			blst.PairingCommit(ctx)
			results <- ctx
		}()
	}
	var acc blst.Pairing
	for w := 0; w < workers; w++ {
		ctx := <-results
		switch {
		case ctx == nil:
		case acc == nil:
			acc = ctx
		case blst.PairingMerge(acc, ctx) != 0:
			failed.Store(true)
		}
	}
	return !failed.Load() && acc != nil && blst.PairingFinalVerify(acc), nil
}
