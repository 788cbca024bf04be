// Package auction is the Go client of gavel's second-layer gas auction: it
// reads auction state and sends the transactions of each role (owner: bidder
// registry; operator: open, settle, payout, refund; bidder: wrap, bid; user:
// pay gas tokens for bundle hashes) to any L2 JSON-RPC endpoint, waits for them
// to be mined and turns the contracts' custom errors into RevertErrors named
// after the Solidity error.
package auction
