#!/usr/bin/env bash
# Stops the test PostgreSQL that build/pg/start.sh started and removes its
# directory: build/pg/stop.sh [--keep] [DIR] (default: $GAVEL_PG_DIR).
# With --keep the data stays, for build/pg/start.sh DIR to restart it.
set -euo pipefail
keep=
if [ "${1:-}" = --keep ]; then keep=1; shift; fi
dir=${1:-${GAVEL_PG_DIR:-}}
if [ -z "$dir" ] || [ ! -d "$dir/data" ]; then
	echo "build/pg/stop.sh: no test cluster given (pass its directory or set GAVEL_PG_DIR)" >&2
	exit 1
fi
pg_ctl=$(ls -d /usr/lib/postgresql/*/bin/pg_ctl 2>/dev/null | sort -V -r | head -1)
pg_ctl=${pg_ctl:-$(command -v pg_ctl)}
as_owner() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then as_owner() { runuser -u postgres -- "$@"; }; fi
as_owner "$pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
if [ -z "$keep" ]; then rm -rf "$dir"; fi
