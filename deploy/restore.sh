#!/bin/sh
# Put a backup of PostgreSQL (deploy/backup.sh's .dump) back, in place of everything in the
# database, in one transaction: a dump that cannot be read changes nothing. Stop the app
# servers first (docs/running.md, "On the internet"); as the scorekeeper user:
#   restore.sh /var/backups/scorekeeper/scorekeeper-2026-12-06T043000Z.dump
set -eu
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    echo "Which backup? restore.sh FILE.dump (they are in ${SCOREKEEPER_BACKUPS:-/var/backups/scorekeeper})" >&2
    exit 2
fi
flask="${SCOREKEEPER_FLASK:-/opt/scorekeeper/venv/bin/flask}"
database=$(printf %s "$FLASK_SQLALCHEMY_DATABASE_URI" | sed 's/^postgresql+psycopg:/postgresql:/')
pg_restore --clean --if-exists --no-owner --single-transaction --exit-on-error --dbname="$database" "$1"
# A backup from an older version: its schema brought up to this one, its summaries worked out again.
"$flask" --app scorekeeper db upgrade
"$flask" --app scorekeeper games rebuild --if-stale
echo "Restored $1"
