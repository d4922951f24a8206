#!/usr/bin/env bash
# Run a command against a throw-away PostgreSQL server on loopback:
#   scripts/with-postgres.sh COMMAND...
# Installs Debian's postgresql when it is missing, starts a cluster in a temporary
# folder, exports TEST_DATABASE_URL for the command, and always stops the server.
set -euo pipefail
PORT="${PGPORT_TEST:-5499}"

initdb_bin=$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$initdb_bin" ]; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        echo "PostgreSQL is missing: installing Debian's package postgresql"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
        initdb_bin=$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)
    else
        echo "PostgreSQL is needed: sudo apt-get install -y postgresql" >&2
        exit 1
    fi
fi
bin=$(dirname "$initdb_bin")
dir=$(mktemp -d)
chown postgres: "$dir" 2>/dev/null || true
as_pg() { if [ "$(id -u)" = "0" ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
# Set before the server starts: a start that fails (its port taken) leaves no folder behind.
stop() { as_pg "$bin/pg_ctl -D $dir/data -m immediate stop >/dev/null 2>&1" || true; rm -rf "$dir"; }
trap stop EXIT
as_pg "$bin/initdb -D $dir/data -U postgres --auth=trust -E UTF8 >/dev/null"
as_pg "$bin/pg_ctl -D $dir/data -o '-p $PORT -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200' -l $dir/pg.log -w start >/dev/null" \
    || { cat "$dir/pg.log" >&2; exit 1; }  # why, before the folder goes
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$PORT"
export TEST_DATABASE_URL="postgresql+psycopg://postgres@127.0.0.1:$PORT/postgres"
"$@"
