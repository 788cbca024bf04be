package beacon

import (
	"crypto/sha256"
	"encoding/binary"
)

// BidTrace's root is computed once per submission on a relay's hot path, so it has a
// direct implementation: the nine leaves hashed with crypto/sha256 on stack buffers, zero
// subtrees taken from precomputed hashes. TestBidTraceRootMatchesGenerated and the fuzz
// targets hold it equal to the sszgen HashTreeRoot.

var zeroHash1, zeroHash2, zeroHash3 = func() (h1, h2, h3 [32]byte) {
	var buf [64]byte
	h1 = sha256.Sum256(buf[:])
	copy(buf[:32], h1[:])
	copy(buf[32:], h1[:])
	h2 = sha256.Sum256(buf[:])
	copy(buf[:32], h2[:])
	copy(buf[32:], h2[:])
	h3 = sha256.Sum256(buf[:])
	return
}()

func hashPair(a, b *[32]byte) [32]byte {
	var buf [64]byte
	copy(buf[:32], a[:])
	copy(buf[32:], b[:])
	return sha256.Sum256(buf[:])
}

func pubkeyLeaf(pk *BLSPubkey) [32]byte {
	var buf [64]byte
	copy(buf[:], pk[:])
	return sha256.Sum256(buf[:])
}

func uint64Leaf(v uint64) (leaf [32]byte) {
	binary.LittleEndian.PutUint64(leaf[:8], v)
	return leaf
}

// Root returns the BidTrace's hash-tree-root (equal to HashTreeRoot, faster).
func (b *BidTrace) Root() Root {
	var fee [32]byte
	copy(fee[:], b.ProposerFeeRecipient[:])
	l0, l1, l2 := uint64Leaf(b.Slot), [32]byte(b.ParentHash), [32]byte(b.BlockHash)
	l3, l4 := pubkeyLeaf(&b.BuilderPubkey), pubkeyLeaf(&b.ProposerPubkey)
	l6, l7, l8 := uint64Leaf(b.GasLimit), uint64Leaf(b.GasUsed), [32]byte(b.Value)
	var zero [32]byte
	// 16 leaves: 9 fields and 7 zero chunks.
	a0, a1, a2, a3, a4 := hashPair(&l0, &l1), hashPair(&l2, &l3), hashPair(&l4, &fee), hashPair(&l6, &l7), hashPair(&l8, &zero)
	b0, b1, b2 := hashPair(&a0, &a1), hashPair(&a2, &a3), hashPair(&a4, &zeroHash1)
	c0, c1 := hashPair(&b0, &b1), hashPair(&b2, &zeroHash2)
	return hashPair(&c0, &c1)
}

// SigningRoot returns the BidTrace's signing root under domain (what a builder signs).
func (b *BidTrace) SigningRoot(domain Domain) Root {
	r := b.Root()
	d := [32]byte(domain)
	return hashPair((*[32]byte)(&r), &d)
}
