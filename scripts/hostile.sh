#!/usr/bin/env bash
# make hostile: starts a `gavel --dev` on loopback in a temporary datadir,
# runs each attack of issues 14 and 25 against it with internal/hostile, prints the
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
# docs/security.md. REGCOPIES is the registrations attack's copies per body
# (90000, past the relay's cap: refused 413 unread; 65536 is at the cap).
#
# The floods of issue 25 (internal/hostile/floods.go): callbundle (REST
# POST /eth_callBundle), estimatebundle (REST /eth_estimateGasBundle),
# rpccallbundle (JSON-RPC eth_callBundle on the MEV listener),
# gethcallbundle (eth_callBundle on geth's HTTP JSON-RPC), ethcall (eth_call
# of an infinite loop by state override, LOOPGAS gas), dataapi
# (builder_blocks_received, RATE requests a second, DATAROWS bids per
# answer), websockets (SUBS newHeads subscriptions per connection, never
# read; the node runs with --ws on PORT+2). BUNDLETXS is the
# simulation floods' transactions per bundle, BUNDLEGAS 0 for transfers or
# the gas each transaction loops. ATTACKS=floods runs the seven. headers
# (internal/hostile/headers.go) posts header-first submissions naming an
# optimistic builder with another key's signature, from 200 addresses for 20 s.
# ATTACKS=idle is the control: no attack, the same phases (the node's own
# RSS growth and the probes' noise on this machine). Each
# reports the dev node's missed slots: the node runs with --dev.period
# PERIOD (2 s), and internal/hostile reads the block timestamps over geth's
# RPC once the run is over. Unless CONNS and HOLD are given, each attack
# has the load of its table row: 200 connections (16 for ethcall, 500 for
# websockets), 15 s (20 s for the floods); unless SPREAD is given, the
# floods' clients come from 200 addresses (a distributed attacker, past the
# per-address connection limit), the other attacks' from one.
set -euo pipefail
GAVEL=${GAVEL:-build/bin/gavel}
FLOODS="callbundle estimatebundle rpccallbundle gethcallbundle ethcall dataapi websockets"
ATTACKS=${ATTACKS:-"gzipstall slowlength registrations bundles headers floods"}
ATTACKS=${ATTACKS//floods/$FLOODS}
REPEAT=${REPEAT:-1}
NICE=${NICE:-0}
SUSTAIN=${SUSTAIN:-0s}
SIGNED=${SIGNED:-false}
BUILDERS=${BUILDERS:-false}
BASELINE=${BASELINE:-3s}
FLIGHT=${FLIGHT:-0s}
BATCH=${BATCH:-100}
PORT=${PORT:-19462}
PERIOD=${PERIOD:-2}
BUNDLETXS=${BUNDLETXS:-100}
BUNDLEGAS=${BUNDLEGAS:-0}
LOOPGAS=${LOOPGAS:-50000000}
RATE=${RATE:-1000}
DATAROWS=${DATAROWS:-175}
SUBS=${SUBS:-100}
dir=$(mktemp -d)
if [ "$FLIGHT" != 0s ]; then
  export GAVEL_FLIGHT=${FLIGHTDIR:-build/flight}
  mkdir -p "$GAVEL_FLIGHT"
fi
go build -o "$dir/hostile" ./internal/hostile
for a in $ATTACKS; do
  conns=200 hold=15s spread=1 ws=""
  case " $FLOODS headers " in *" $a "*) hold=20s spread=200 ;; esac
  case $a in
  ethcall) conns=16 ;;
  websockets) conns=500 ws="--ws --ws.addr 127.0.0.1 --ws.port $((PORT+2))" ;;
  esac
  conns=${CONNS:-$conns} hold=${HOLD:-$hold} spread=${SPREAD:-$spread}
  # shellcheck disable=SC2086 # ws and GAVEL_ARGS are lists of flags
  "$GAVEL" --dev --dev.period "$PERIOD" --datadir "$dir/data-$a" --ipcdisable --authrpc.port 0 \
    --http.port $((PORT+1)) --mev.addr "127.0.0.1:$PORT" $ws --verbosity 1 ${GAVEL_ARGS:-} >"$dir/gavel-$a.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$PORT/livez" >/dev/null && break
    sleep 0.2
  done
  sleep 4 # a few slots: caches warm, validators registered
  "$dir/hostile" -url "http://127.0.0.1:$PORT" -pid "$pid" -attack "$a" -conns "$conns" -spread "$spread" -hold "$hold" -baseline "$BASELINE" -repeat "$REPEAT" -nice "$NICE" -sustain "$SUSTAIN" -signed="$SIGNED" -builders="$BUILDERS" -flight "$FLIGHT" -batch "$BATCH" -datadir "$dir/data-$a" -rpc "http://127.0.0.1:$((PORT+1))" \
    -ws "ws://127.0.0.1:$((PORT+2))" -period "${PERIOD}s" -bundletxs "$BUNDLETXS" -bundlegas "$BUNDLEGAS" \
    -loopgas "$LOOPGAS" -rate "$RATE" -datarows "$DATAROWS" -subs "$SUBS" || true
  kill -INT "$pid"; wait "$pid" || true
done
rm -rf "$dir"
