#!/bin/sh
# The browser tests drive Debian's Chromium. Install it when we can; otherwise
# stop with the command to run (never skip the browser tests silently).
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Chromium is missing: installing Debian's package chromium"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null && exit 0
fi
echo "The browser tests need Chromium at $CHROMIUM. Install it with:" >&2
echo "    sudo apt-get install -y chromium" >&2
echo "(or set CHROMIUM to its path)" >&2
exit 1
