// Package bundleapi is the API surface of bundle simulation:
// eth_callBundle and eth_estimateGasBundle as a JSON-RPC service (for
// geth's HTTP/WS/IPC servers and the MEV listener's dispatcher) and as the
// REST handlers POST /eth_callBundle and POST /eth_estimateGasBundle. It
// parses requests and encodes results; core/bundle decides.
package bundleapi
