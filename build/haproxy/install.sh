#!/usr/bin/env bash
# Installs Debian's HAProxy when it is missing, for build/interop/run.sh
# -relays 2 (two relay instances behind a load balancer). Prints the haproxy
# binary's path on stdout; everything else goes to stderr.
#
#   build/haproxy/install.sh        # installs haproxy when absent
#
# The package comes from the distribution (apt-get install haproxy): as root
# directly, else through sudo when it works without a password. Running it
# again with HAProxy installed changes nothing. The package's own service is
# not used: the harness starts haproxy with its own configuration.
set -euo pipefail

log() { echo "build/haproxy/install.sh: $*" >&2; }

find_haproxy() {
	local b
	for b in "${GAVEL_HAPROXY:-}" haproxy /usr/sbin/haproxy; do
		if [ -n "$b" ] && command -v "$b" >/dev/null; then command -v "$b"; return 0; fi
	done
	return 1
}

if bin=$(find_haproxy); then
	echo "$bin"
	exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
	as_root() { "$@"; }
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
	as_root() { sudo -n "$@"; }
else
	log "HAProxy is not installed, this is not root and sudo asks for a password: install the haproxy package (apt-get install haproxy), then run again"
	exit 1
fi
log "installing HAProxy from the distribution's packages"
export DEBIAN_FRONTEND=noninteractive
if ! as_root env DEBIAN_FRONTEND=noninteractive sh -c 'apt-get update -qq && apt-get install -y -qq --no-install-recommends haproxy' >&2; then
	log "apt-get install haproxy failed (see above): install the haproxy package, then run again"
	exit 1
fi
if ! bin=$(find_haproxy); then
	log "apt-get installed haproxy but no haproxy binary is on PATH or in /usr/sbin"
	exit 1
fi
echo "$bin"
