package bundle

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
}
