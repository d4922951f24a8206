#!/bin/sh
# The daily backup (scorekeeper-backup.timer), as the scorekeeper user, with the settings of
# /etc/scorekeeper/scorekeeper.env: the app's own backup (every game and club night as JSON, which
# `flask games import` takes on any server) and PostgreSQL's whole database (pg_dump, which
# deploy/restore.sh puts back). Files older than SCOREKEEPER_BACKUP_DAYS (14) go.
set -eu
dir="${SCOREKEEPER_BACKUPS:-/var/backups/scorekeeper}"
days="${SCOREKEEPER_BACKUP_DAYS:-14}"
flask="${SCOREKEEPER_FLASK:-/opt/scorekeeper/venv/bin/flask}"
# The database's address as libpq reads it: SQLAlchemy's without the driver's name.
database=$(printf %s "$FLASK_SQLALCHEMY_DATABASE_URI" | sed 's/^postgresql+psycopg:/postgresql:/')
stamp=$(date -u +%Y-%m-%dT%H%M%SZ)
mkdir -p "$dir"
# Each file under another name until it is whole: a backup cut short is never taken for one.
"$flask" --app scorekeeper backup "$dir/.scorekeeper-$stamp.json"
mv "$dir/.scorekeeper-$stamp.json" "$dir/scorekeeper-$stamp.json"
pg_dump --format=custom --dbname="$database" --file="$dir/.scorekeeper-$stamp.dump"
mv "$dir/.scorekeeper-$stamp.dump" "$dir/scorekeeper-$stamp.dump"
find "$dir" -maxdepth 1 -name 'scorekeeper-*' -mtime +"$((days - 1))" -delete
echo "Backed up to $dir/scorekeeper-$stamp.json and $dir/scorekeeper-$stamp.dump"
