#!/usr/bin/env bash
# Starts a throw-away PostgreSQL server for gavel's tests and prints the
# shell lines that point the tests at it:
#
#   eval "$(build/pg/start.sh)"     # sets GAVEL_TEST_POSTGRES and GAVEL_PG_DIR
#   make test                       # now also runs the PostgreSQL tests
#   build/pg/stop.sh                # stops it and removes its directory
#
# build/pg/start.sh DIR starts a cluster that build/pg/stop.sh --keep DIR
# stopped, on its old port (tests that restart the database use it).
#
# PostgreSQL comes from the distribution's packages (apt-get install
# postgresql, when run as root and no server binaries are found). The cluster
# lives in a new temporary directory, is owned by an unprivileged user (the
# postgres system user when run as root, else the caller), listens on
# 127.0.0.1 only, on a free port, and trusts local connections: it is for
# tests, never for data that matters. Everything but the two export lines
# goes to stderr.
set -euo pipefail

log() { echo "build/pg/start.sh: $*" >&2; }

find_bindir() {
	local d
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		if [ -x "$d/pg_ctl" ] && [ -x "$d/initdb" ]; then echo "$d"; return 0; fi
	done
	if command -v pg_ctl >/dev/null && command -v initdb >/dev/null; then
		dirname "$(command -v pg_ctl)"; return 0
	fi
	return 1
}

if ! bindir=$(find_bindir); then
	if [ "$(id -u)" -ne 0 ]; then
		log "PostgreSQL is not installed and this is not root: install the postgresql package, then run again"
		exit 1
	fi
	log "installing PostgreSQL from the distribution's packages"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq postgresql >&2
	bindir=$(find_bindir)
fi

as_owner() { "$@"; }
if [ "$(id -u)" -eq 0 ]; then
	id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
	as_owner() { runuser -u postgres -- "$@"; }
fi
pgopts() { echo "-c listen_addresses=127.0.0.1 -p $1 -k $dir -c max_connections=200"; }

if [ $# -ge 1 ]; then
	# Restart a stopped cluster on its port.
	dir=$1
	port=$(cat "$dir/port")
	as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 -o "$(pgopts "$port")" start >/dev/null
	exit 0
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/gavel-pg.XXXXXX")
if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
chmod 700 "$dir"

as_owner "$bindir/initdb" -D "$dir/data" -U gavel -A trust -E UTF8 --no-sync >"$dir/initdb.log" 2>&1 || {
	cat "$dir/initdb.log" >&2; exit 1; }

# A free port: try random ones until the server starts on one.
started=
for _ in $(seq 1 20); do
	port=$((20000 + RANDOM % 30000))
	if as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
		-o "$(pgopts "$port")" start >/dev/null 2>&1; then
		started=1; break
	fi
done
if [ -z "$started" ]; then
	log "PostgreSQL did not start; its log:"; cat "$dir/server.log" >&2; exit 1
fi
as_owner "$bindir/createdb" -h 127.0.0.1 -p "$port" -U gavel gavel
echo "$port" | as_owner tee "$dir/port" >/dev/null

url="postgres://gavel@127.0.0.1:$port/gavel?sslmode=disable"
log "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') listening on 127.0.0.1:$port (data in $dir)"
echo "export GAVEL_TEST_POSTGRES='$url'"
echo "export GAVEL_PG_DIR='$dir'"
