package bundle

import "math/big"

// DropReason says why an eth_sendBundle bundle is not in its target block.
type DropReason string

// Why a bundle was left out.
const (
	// DropNonce: a tx's nonce was not its sender's next one (already used,
	// or a gap).
	DropNonce DropReason = "nonce"
	// DropRevert: a tx reverted and is not in revertingTxHashes.
	DropRevert DropReason = "revert not allowed"
	// DropFee: a tx's fee cap is below the block's base fee.
	DropFee DropReason = "fee"
	// DropFunds: a sender cannot pay for gas and value.
	DropFunds DropReason = "funds"
	// DropOutbid: the bundle was valid at the top of the block but no longer
	// after bundles paying more per gas were applied (they touch the same
	// state).
	DropOutbid DropReason = "outbid"
	// DropBlockFull: no room left in the block.
	DropBlockFull DropReason = "block full"
	// DropInvalid: a tx failed for another reason (the error says which).
	DropInvalid DropReason = "invalid"
	// DropTimestamp: the block's timestamp is outside minTimestamp..maxTimestamp.
	DropTimestamp DropReason = "timestamp"
	// DropNotConsidered: the target block was built without this node's
	// builder looking at the bundle (another builder's block, or the bundle
	// arrived too late).
	DropNotConsidered DropReason = "not considered"
	// DropBlockNotChosen: the bundle was in a block this node built, but
	// another block became canonical.
	DropBlockNotChosen DropReason = "block not chosen"
	// DropCancelled: eth_cancelBundle removed it.
	DropCancelled DropReason = "cancelled"
	// DropReplaced: a later bundle with the same replacementUuid replaced it.
	DropReplaced DropReason = "replaced"
	// DropEvicted: the pool (or its block) was full and a bundle paying more
	// per gas took its place.
	DropEvicted DropReason = "evicted"
)

// Consideration is what a block builder did with one bundle for one block.
type Consideration struct {
	Bundle *SendBundle
	// Simulated is true when the bundle ran without error at the top of the
	// block.
	Simulated bool
	// GasUsed is the gas of its top-of-block simulation, when Simulated.
	GasUsed uint64
	// Included is true when the bundle is in the built block.
	Included bool
	// Paid is what the bundle paid the block's fee recipient in the built
	// block (priority fees plus direct payments), when Included.
	Paid *big.Int
	// Reason and Err say why it is not, when Included is false.
	Reason DropReason
	Err    error
}
