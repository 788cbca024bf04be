// Package conformance checks every JSON answer of gavel's relay against the
// schemas of builder-specs (the proposer API) and relay-specs (the builder
// and data APIs), field by field: required fields present and no others,
// integers as decimal strings, hex of the spec's length in lower case,
// version names, and the error body and status of each failure. The checks
// are written from the specs' type definitions; the suite runs a real relay
// (in-process chain, BLS, SQLite) behind the MEV listener on loopback HTTP.
package conformance
