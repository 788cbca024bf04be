#!/usr/bin/env bash
# make hostile: starts a `gavel --dev` on loopback in a temporary datadir,
# runs each attack of issue 14 against it with internal/hostile, prints the
# figures and stops the node. GAVEL=path picks another binary (for the
# "before" figures); ATTACKS, CONNS, SPREAD and HOLD choose the load,
# REPEAT the runs per attack, BASELINE the honest probes' time alone first, NICE the attacker's niceness (the honest
# probes stay at 0), SUSTAIN how long each hostile connection starts again
# once answered, SIGNED=true the gzip attack's bid traces signed by a
# fresh builder key of the attacker's own per connection, BUILDERS=true
# also probes honest builders' signed submissions (a known builder, its
# JSON, a high-priority one, a brand-new one: internal/hostile/builders.go);
# FLIGHT=50ms keeps the target's execution trace (GAVEL_FLIGHT) and saves
# it into FLIGHTDIR (default build/flight) whenever an honest probe takes
# longer. GAVEL_ARGS adds flags to the node (betafill: GAVEL_ARGS="--config
# scripts/hostile-betafill.toml"). BATCH is rpcflood's calls per JSON-RPC
# request (1: single calls); rpcflood also probes an honest single call
# (rpccall). ATTACKS=rpcflood CONNS=16 HOLD=10s is the batch flood of
# docs/security.md.
set -euo pipefail
GAVEL=${GAVEL:-build/bin/gavel}
ATTACKS=${ATTACKS:-"gzipstall slowlength registrations bundles"}
CONNS=${CONNS:-200}
SPREAD=${SPREAD:-1}
HOLD=${HOLD:-15s}
REPEAT=${REPEAT:-1}
NICE=${NICE:-0}
SUSTAIN=${SUSTAIN:-0s}
SIGNED=${SIGNED:-false}
BUILDERS=${BUILDERS:-false}
BASELINE=${BASELINE:-3s}
FLIGHT=${FLIGHT:-0s}
BATCH=${BATCH:-100}
PORT=${PORT:-19462}
dir=$(mktemp -d)
if [ "$FLIGHT" != 0s ]; then
  export GAVEL_FLIGHT=${FLIGHTDIR:-build/flight}
  mkdir -p "$GAVEL_FLIGHT"
fi
go build -o "$dir/hostile" ./internal/hostile
for a in $ATTACKS; do
  "$GAVEL" --dev --datadir "$dir/data-$a" --ipcdisable --authrpc.port 0 \
    --http.port $((PORT+1)) --mev.addr "127.0.0.1:$PORT" --verbosity 1 ${GAVEL_ARGS:-} >"$dir/gavel-$a.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$PORT/livez" >/dev/null && break
    sleep 0.2
  done
  sleep 4 # a few slots: caches warm, validators registered
  "$dir/hostile" -url "http://127.0.0.1:$PORT" -pid "$pid" -attack "$a" -conns "$CONNS" -spread "$SPREAD" -hold "$HOLD" -baseline "$BASELINE" -repeat "$REPEAT" -nice "$NICE" -sustain "$SUSTAIN" -signed="$SIGNED" -builders="$BUILDERS" -flight "$FLIGHT" -batch "$BATCH" -datadir "$dir/data-$a" -rpc "http://127.0.0.1:$((PORT+1))" || true
  kill -INT "$pid"; wait "$pid" || true
done
rm -rf "$dir"
