"""Keeping the data safe: online backups of the live database, and restoring them.

``flask --app scorekeeper backup FILE`` copies the live SQLite database with
SQLite's online backup API (consistent while the app is writing). On another
database it writes a JSON backup of every game and club night (docs/game-format.md) instead.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from datetime import UTC, datetime
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from scorekeeper import store


def sqlite_path() -> Path | None:
    return store.live_sqlite_file()


def backup_sqlite(source: Path, target: Path) -> None:
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if target.exists():
        target.unlink()
    store.create_private(target)  # a copy of the database: as private as the database
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    dst = sqlite3.connect(target)
    try:
        with dst:
            src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")
    finally:
        dst.close()
        src.close()


def take_backup(target: Path) -> str:
    """Write a consistent copy of the live database to ``target``; say what was written."""
    path = sqlite_path()
    if path is not None:
        backup_sqlite(path, target)
        return f"SQLite copy of {path}"
    from scorekeeper.files.transfer import backup

    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(backup(), ensure_ascii=False, indent=1), encoding="utf-8")
    return "JSON backup of every game and club night (restore it with: flask games import FILE)"


@click.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path), required=False)
@click.option("--before-upgrade", is_flag=True,
              help="Only if a migration is pending: back up into instance/backups/ first.")
@with_appcontext
def backup_command(file: Path | None, before_upgrade: bool) -> None:
    """Make a consistent copy of the live database (safe while the app is in use)."""
    if before_upgrade:
        current = store.revision_now()
        if current is None or current == store.head_revision():
            return
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        file = Path(current_app.instance_path) / "backups" / f"scorekeeper-{stamp}-at-{current}.sqlite"
    if file is None:
        raise click.UsageError("give the FILE to write the backup to")
    what = take_backup(file)
    click.echo(f"Backed up to {file} ({what})")


@click.command("restore")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Replace the current database without asking.")
@with_appcontext
def restore_command(file: Path, yes: bool) -> None:
    """Put a SQLite backup back in place of the live database (stop the server first)."""
    path = sqlite_path()
    if path is None:
        click.echo("restore works on SQLite; on another database, import a JSON backup with "
                   "`flask games import FILE`", err=True)
        sys.exit(1)
    check = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
    try:
        ok = check.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        click.echo(f"{file} is not a SQLite database: {exc}", err=True)
        sys.exit(1)
    finally:
        check.close()
    if ok != "ok":
        click.echo(f"{file} fails its integrity check: {ok}", err=True)
        sys.exit(1)
    if not yes:
        click.confirm(f"Replace {path} with {file}?", abort=True)
    store.close_connections()
    backup_sqlite(file, path)
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    click.echo(f"Restored {path} from {file}")


def register(app: Flask) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
