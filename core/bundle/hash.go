package bundle

import (
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// Hash returns the bundle hash of a list of transaction hashes: keccak256 of
// the 32-byte hashes concatenated in bundle order, as Flashbots' builder,
// rbuilder and ethers' generateBundleHash compute it. A one-transaction
// bundle is still hashed once, so its hash differs from the tx hash.
func Hash(txHashes []common.Hash) common.Hash {
	buf := make([]byte, 0, len(txHashes)*common.HashLength)
	for _, h := range txHashes {
		buf = append(buf, h[:]...)
	}
	return crypto.Keccak256Hash(buf)
}
