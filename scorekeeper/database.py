"""Database engine set-up: SQLite pragmas for safe writes, read and write transactions,
and migrations."""

from __future__ import annotations

import fcntl
import itertools
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from flask import Flask
from flask_migrate import Migrate
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from .models import db

migrate = Migrate()
MIGRATIONS = Path(__file__).parent / "migrations"

#: Set while a store function changes the database (see :func:`writing`).
_writing: ContextVar[bool] = ContextVar("scorekeeper_writing", default=False)


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
    # A write takes the write lock at its start (BEGIN IMMEDIATE): two workers never both read
    # a game and then both try to write it, which SQLite refuses ("database is locked").
    # A read takes no lock at all (WAL: readers never wait for each other or for a writer).
    conn.info["generation"] = changes.generation
    if conn.get_execution_options().get(_SINGLE_READ):
        return  # one statement: SQLite runs it in a transaction of its own
    conn.exec_driver_sql("BEGIN IMMEDIATE" if _writing.get() else "BEGIN")


_SINGLE_READ = "scorekeeper_single_read"


def read_one(statement, params: dict) -> Any:
    """The first column of the first row of one read, on a connection of the pool and outside
    the request's session: no session, no transaction to begin and roll back, no ORM. For
    the answers that must cost least (a watcher's poll); anything reading more than one
    statement needs the session's transaction (one snapshot for all its reads)."""
    with db.engine.connect() as connection:
        return connection.execution_options(**{_SINGLE_READ: True}).scalar(statement, params)


def read_row(statement, params: dict) -> Any:
    """Like :func:`read_one`, the first row (None if none)."""
    with db.engine.connect() as connection:
        return connection.execution_options(**{_SINGLE_READ: True}).execute(statement, params).first()


@contextmanager
def writing() -> Iterator[None]:
    """Around every change: its transaction is a write transaction from the first statement.

    A read transaction still open in this request (the view looked the game up first) is
    ended before, so that the write starts afresh with the lock and reads what it changes
    under it. Store functions use it; nothing else needs to.
    """
    if _writing.get():
        yield
        return
    if db.session().in_transaction():
        db.session.commit()  # a read: nothing to write, it only lets the snapshot go
    token = _writing.set(True)
    try:
        with _writers.turn(db.engine):
            yield
    finally:
        _writing.reset(token)


class _Writers:
    """Writers of this app's SQLite file take turns here first, then take SQLite's lock.

    SQLite makes a second writer wait by polling: it sleeps 1, 2, 5, 10, 15... ms between
    tries, so a round recorded while another commits waits tens of milliseconds longer than
    the commit takes. Here the next writer (another thread, or another gunicorn worker: the
    lock is on a file beside the database) wakes the moment the last one is done. Anything
    that writes without it (the command line) still meets SQLite's own lock.
    """

    def __init__(self) -> None:
        self._threads = threading.Lock()

    @contextmanager
    def turn(self, engine: Engine) -> Iterator[None]:
        path = engine.url.database if engine.dialect.name == "sqlite" else None
        if not path or path == ":memory:" or path.startswith("file:"):
            yield
            return
        # The lock file is opened for each turn and closed after it (a few microseconds beside
        # the commit's fsync): nothing stays open when the app or its engine goes, and a forked
        # worker never shares an open file, and so a lock, with its parent. 0600, as the
        # database beside it.
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
        with self._threads, os.fdopen(os.open(path + "-writers.lock", flags, 0o600), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)


_writers = _Writers()


class Changes:
    """Tells cheaply whether the database may have changed since a moment: a number, the
    *generation*, that moves on whenever this process commits, and, on SQLite, whenever
    another process has committed (``PRAGMA data_version``). Caches of derived figures keep
    the generation they were worked out at; an equal generation later means nothing changed.
    """

    def __init__(self) -> None:
        self._counter = itertools.count(1)
        self._lock = threading.Lock()
        self.generation = next(self._counter)

    def bump(self) -> None:
        with self._lock:
            self.generation = next(self._counter)

    def current(self) -> int | None:
        """The generation that figures read now belong to, or None when unknown.

        Inside a read transaction, figures worked out in it are valid for the returned
        generation: the one current when the transaction began (before its snapshot was
        taken), unless a change has shown up since, in which case nothing may be trusted to
        it (None). Outside a transaction (the cheap way, for a view that looks up a kept page
        before reading anything), the check takes a connection of its own, and what this
        request reads afterwards is at least as new as the generation returned.
        On SQLite the pragma takes the snapshot when it is a transaction's first statement,
        so it may come first or after other reads. Other databases: always None.
        """
        session = db.session()
        if session.in_transaction():
            connection = session.connection()
            if connection.dialect.name != "sqlite":
                return None
            return self._check(connection.connection.driver_connection, connection.info)
        engine = db.engine
        if engine.dialect.name != "sqlite":
            return None
        # One pragma, on a connection of the pool but without SQLAlchemy's statement machinery
        # (this runs for every history and player page, before anything else is read).
        pooled = engine.raw_connection()
        try:
            pooled.info["generation"] = self.generation  # what the begin event records
            return self._check(pooled.driver_connection, pooled.info)
        finally:
            pooled.close()

    def _check(self, sqlite_connection, info: dict) -> int | None:
        seen = sqlite_connection.execute("PRAGMA data_version").fetchone()[0]
        if info.get("data_version") != seen:
            info["data_version"] = seen
            self.bump()
        began = info.get("generation")
        return began if began == self.generation else None


changes = Changes()


@event.listens_for(Session, "after_commit")
def _committed(_session) -> None:
    # A commit of this process: another pooled connection would see it through data_version,
    # but the connection that made it does not.
    changes.bump()


def init_app(app: Flask) -> None:
    path = sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"])
    if path is not None:
        # Made 0600 before SQLite opens it: SQLite makes its -wal and -shm files with the same mode.
        from .security import create_private

        create_private(path)
    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS), render_as_batch=True)
    with app.app_context():
        engine: Engine = db.engine
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
            event.listen(engine, "begin", _sqlite_begin)
    if app.config.get("CHECK_SCHEMA", True):
        check_schema(app)


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL (None for another database, or one in memory)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:" \
            or parsed.database.startswith("file:"):
        return None
    return Path(parsed.database)


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
        refused = revision is not None and revision not in known_revisions()
        if refused:
            db.engine.dispose()  # the app will not start: its pooled connection closes now, not when collected
    if refused:
        raise DatabaseTooNew(
            f"The database {where} is at migration {revision}, "
            f"which this version of Scorekeeper does not know (its newest is {head_revision()}): "
            "it was upgraded by a newer Scorekeeper. Run that version, or restore a backup taken before "
            "the upgrade (instance/backups/)."
        )
