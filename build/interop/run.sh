#!/usr/bin/env bash
# make interop: gavel as execution client, relay and builder of Lodestar 1.5.1
# (installed from npm into build/interop/.cache once) on a local devnet. The
# harness is build/interop/main.go; it stops everything it started and exits
# non-zero if a check fails. Extra arguments go to it (-preset minimal|mainnet, -epochs N, -genesisdelay D, -capture FILE, -txphase D, -keep,
# -verbosity 4, -timeout 15m).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v node >/dev/null || { echo "make interop needs Node.js (node) and npm" >&2; exit 1; }
command -v npm >/dev/null || { echo "make interop needs npm" >&2; exit 1; }
exec go run ./build/interop "$@"
