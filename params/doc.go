// Package params holds gavel's network constants: chain ids, the dev chain's
// accounts and defaults, and (in beacon*.go) the consensus-layer constants of
// each supported network.
package params
