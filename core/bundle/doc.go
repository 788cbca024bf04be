// Package bundle holds gavel's bundle rules: the bundle type and its hash,
// the request limits, and the simulation of a bundle on a block's state
// (eth_callBundle) and the per-transaction gas estimate of a bundle
// (eth_estimateGasBundle). It decides; the API packages only parse and
// encode. Execution itself goes through core/chain.
package bundle
