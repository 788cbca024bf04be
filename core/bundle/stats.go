package bundle

// StatKind names a per-signer counter: something a searcher's signed
// requests did. The pools count them; the store keeps the totals.
type StatKind int

// The per-signer counters.
const (
	StatRequest    StatKind = iota // a signed request reached the MEV listener
	StatBundle                     // eth_sendBundle accepted a bundle
	StatBetaBundle                 // mev_sendBetaBundle stored a beta bundle
	StatInclusion                  // a bundle landed in a block this node built
)
