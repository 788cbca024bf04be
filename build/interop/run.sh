#!/usr/bin/env bash
# make interop: gavel as execution client, relay and builder of Lodestar 1.5.1
# (installed from npm into build/interop/.cache once) on a local devnet. The
# harness is build/interop/main.go; it stops everything it started and exits
# non-zero if a check fails. Extra arguments go to it (-preset minimal|mainnet, -epochs N, -genesisdelay D, -capture FILE, -txphase D, -keep,
# -verbosity 4, -timeout 15m, -relays 2).
#
# build/interop/run.sh -relays 2 runs the README's two-instance template
# instead (build/interop/multi.go): two gavel nodes, each with its own
# Lodestar, one PostgreSQL (build/pg/start.sh), HAProxy in front
# (build/haproxy/install.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v node >/dev/null || { echo "make interop needs Node.js (node) and npm" >&2; exit 1; }
command -v npm >/dev/null || { echo "make interop needs npm" >&2; exit 1; }
exec go run ./build/interop "$@"
