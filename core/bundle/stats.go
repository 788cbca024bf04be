package bundle

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// StatKind names a per-signer counter: something a searcher's signed
// requests did. The pools count them; the store keeps the totals.
type StatKind int

// The per-signer counters.
const (
	StatRequest      StatKind = iota // a signed request reached the MEV listener
	StatBundle                       // eth_sendBundle accepted a bundle
	StatBetaBundle                   // mev_sendBetaBundle stored a beta bundle
	StatInclusion                    // a bundle landed in a block this node built
	StatBetaIncluded                 // a paid beta bundle was in its slot's delivered block
	StatBetaMissed                   // a paid beta bundle was left out of its slot's delivered block
)

// SignerStats are the counters of one signer, as mev_getUserStats reports
// them.
type SignerStats struct {
	Requests    uint64
	Bundles     uint64 // eth_sendBundle bundles accepted
	BetaBundles uint64 // mev_sendBetaBundle bundles accepted
	Inclusions  uint64 // eth_sendBundle bundles included on chain
	// BetaIncluded and BetaMissed count paid beta bundles (per slot) that
	// were in a delivered block, whole or a prefix, and those that were not.
	BetaIncluded uint64
	BetaMissed   uint64
	FirstSeen    int64 // unix milliseconds
	LastSeen     int64 // unix milliseconds
	// AllTime, Last7d and Last1d are what the signer's bundles cost in
	// simulation and paid the validator, over all time, the last 168 hours
	// and the last 24 hours (whole hours: an hour's amounts leave a window
	// together).
	AllTime, Last7d, Last1d Usage
}

// Usage is what a signer's bundles cost and paid: the gas its simulations
// used, and the wei its included bundles paid the block's fee recipient.
type Usage struct {
	GasSimulated uint64
	// ValidatorPayments is in wei; nil is zero.
	ValidatorPayments *big.Int
}

// Add adds o to u.
func (u *Usage) Add(o Usage) {
	u.GasSimulated += o.GasSimulated
	if o.ValidatorPayments != nil && o.ValidatorPayments.Sign() != 0 {
		if u.ValidatorPayments == nil {
			u.ValidatorPayments = new(big.Int)
		}
		u.ValidatorPayments = new(big.Int).Add(u.ValidatorPayments, o.ValidatorPayments)
	}
}

// Payments returns ValidatorPayments, zero for nil.
func (u Usage) Payments() *big.Int {
	if u.ValidatorPayments == nil {
		return new(big.Int)
	}
	return u.ValidatorPayments
}

// UsageCounter counts what a signer's bundles cost and paid (the store's
// StatsBuffer). The zero address is not counted.
type UsageCounter interface {
	AddUsage(addr common.Address, u Usage)
}
