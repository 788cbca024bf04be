// Package contracts holds gavel's second-layer auction contracts: the Solidity
// sources (src/), the artifacts compiled from them with a pinned solc
// (artifacts/, written by `make contracts`) and the Go bindings generated from
// the artifacts with abigen (bindings/). Artifacts and bindings are committed so
// that building and testing gavel never needs Node; this package's test fails
// when they no longer match the sources.
//
// Subpackages: auction (a Go client for every role: operator, bidder, user),
// deploy (deploys the contracts, and the deterministic dev deployment) and
// simtest (an auto-committing simulated backend for tests).
package contracts
