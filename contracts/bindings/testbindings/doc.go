// Package testbindings holds the generated Go bindings of the test-only
// contracts in contracts/src/test (ScriptedBidder), for tests.
package testbindings
