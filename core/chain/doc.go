// Package chain is gavel's one adapter over go-ethereum's fast-moving APIs:
// the dev genesis, state at a block, applying transactions, assembling blocks,
// validating payloads and calling the engine API. The rest of gavel talks to
// geth through this package, so a geth upgrade touches this package only.
package chain
