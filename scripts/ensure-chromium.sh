#!/bin/sh
# The browser tests drive Debian's Chromium: its headless shell (package chromium-headless-shell)
# by default; the stack's tests the whole browser (`ensure-chromium.sh chromium`), for its
# screen wake lock. Install the package when we can; otherwise stop with the command to run
# (never skip the browser tests silently).
PACKAGE="${1:-chromium-headless-shell}"
CHROMIUM="${CHROMIUM:-/usr/bin/$PACKAGE}"
if [ -x "$CHROMIUM" ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Chromium is missing: installing Debian's package $PACKAGE"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$PACKAGE" >/dev/null && exit 0
fi
echo "The browser tests need Chromium at $CHROMIUM. Install it with:" >&2
echo "    sudo apt-get install -y $PACKAGE" >&2
echo "(or set CHROMIUM to its path)" >&2
exit 1
