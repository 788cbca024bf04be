#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium when it is missing, so the
# status page test (eth TestStatusPageInChromium) can open the page as a
# person does. Prints the browser's path on stdout; everything else goes to
# stderr.
#
#   build/chromium/install.sh        # installs chromium (as root) when absent
#
# The package comes from the distribution (apt-get install chromium); the test
# finds the browser on PATH or through GAVEL_CHROMIUM.
set -euo pipefail

log() { echo "build/chromium/install.sh: $*" >&2; }

find_browser() {
	local b
	for b in "${GAVEL_CHROMIUM:-}" chromium chromium-browser; do
		if [ -n "$b" ] && command -v "$b" >/dev/null; then command -v "$b"; return 0; fi
	done
	return 1
}

if browser=$(find_browser); then
	echo "$browser"
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	log "Chromium is not installed and this is not root: install the chromium package, then run again"
	exit 1
fi
log "installing Chromium from the distribution's packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
find_browser
