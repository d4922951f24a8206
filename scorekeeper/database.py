"""Database engine set-up: SQLite pragmas for safe writes, and migrations."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask_migrate import Migrate
from sqlalchemy import event
from sqlalchemy.engine import Engine

from .models import db

migrate = Migrate()
MIGRATIONS = Path(__file__).parent / "migrations"


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # Let SQLAlchemy's "BEGIN" through instead of pysqlite's implicit transactions,
    # so that writes take the lock at the start (BEGIN IMMEDIATE, below).
    dbapi_connection.isolation_level = None
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA busy_timeout=15000")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _sqlite_begin(conn) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE")


def init_app(app: Flask) -> None:
    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS), render_as_batch=True)
    with app.app_context():
        engine: Engine = db.engine
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
            event.listen(engine, "begin", _sqlite_begin)
    if app.config.get("CHECK_SCHEMA", True):
        check_schema(app)


class DatabaseTooNew(RuntimeError):
    """The database was upgraded by a newer Scorekeeper than this one."""


def known_revisions() -> set[str]:
    from alembic.script import ScriptDirectory

    return {script.revision for script in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The migration the database is at (None for a database Alembic never touched)."""
    from sqlalchemy import inspect, text

    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def check_schema(app: Flask) -> None:
    """Refuse to start against a database that a newer version of the app has upgraded."""
    with app.app_context():
        revision = current_revision(db.engine)
        where = db.engine.url.render_as_string(hide_password=True)
    if revision is not None and revision not in known_revisions():
        raise DatabaseTooNew(
            f"The database {where} is at migration {revision}, "
            f"which this version of Scorekeeper does not know (its newest is {head_revision()}): "
            "it was upgraded by a newer Scorekeeper. Run that version, or restore a backup taken before "
            "the upgrade (instance/backups/)."
        )
