#!/bin/sh
# `make stack` and its tests run Debian's Caddy, Redis and PostgreSQL, and the tests trust
# Caddy's root certificate in an NSS database (certutil, libnss3-tools). Install what is
# missing when we can; otherwise stop with the command to run.
missing=""
command -v caddy >/dev/null 2>&1 || missing="$missing caddy"
command -v redis-server >/dev/null 2>&1 || missing="$missing redis-server"
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$missing postgresql"
command -v certutil >/dev/null 2>&1 || missing="$missing libnss3-tools"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's packages:$missing"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null && exit 0
fi
echo "make stack needs Debian's packages:$missing. Install them with:" >&2
echo "    sudo apt-get install -y$missing" >&2
exit 1
