"""Database engine set-up: SQLite pragmas for safe writes, read and write transactions,
and migrations."""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from flask import Flask
from flask_migrate import Migrate
from sqlalchemy import Select, bindparam, event, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from scorekeeper.store.models import ClubVersion, db

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
    conn.exec_driver_sql("BEGIN IMMEDIATE" if _writing.get() else "BEGIN")


def read_row(statement: Select, params: dict[str, Any]) -> tuple | None:
    """The first row of one small read, straight on a connection of the pool (None if none).

    For the look-ups that decide whether anything needs reading at all: a watcher's poll, a
    board's ETag, the version a kept page is kept under. Through the session the same query
    costs about 400 microseconds (its transaction begun and ended, the statement looked up in
    SQLAlchemy's caches, the result typed); here about 30, as in the benchmark's bare Flask
    floor. One statement is one snapshot; anything that reads more than one needs the
    session's transaction. Values come back as the driver gives them (no type conversion):
    use it for integers and strings.
    """
    return read_row_on(db.engine, statement, params)


def read_row_on(engine: Engine, statement: Select, params: dict[str, Any]) -> tuple | None:
    """:func:`read_row` on the given engine (outside an app context: the poll's middleware)."""
    with unlocked(engine) as connection:
        rows = read_rows_on(engine, connection, statement, params, first=True)
    return rows[0] if rows else None


@contextmanager
def unlocked(engine: Engine) -> Iterator[Any]:
    """A connection of the pool as the driver gives it, outside any transaction: each statement
    sent on it sees the database as it is when it starts.

    On PostgreSQL the driver would wrap the statements in a transaction: a BEGIN first, and the
    pool's ROLLBACK when the connection goes back, two round trips to the server more. In
    autocommit there are none (the pool's rollback has no transaction to end, and psycopg sends
    nothing for it). SQLite's connections already send no BEGIN of their own (_sqlite_pragmas).
    """
    connection = engine.raw_connection()
    driver = connection.driver_connection if engine.dialect.name == "postgresql" else None
    try:
        if driver is not None:
            driver.autocommit = True
        yield connection
    finally:
        if driver is not None and not driver.closed:
            driver.autocommit = False  # as the pool lends it to sessions
        connection.close()  # back to the pool


def read_rows_on(engine: Engine, connection: Any, statement: Select, params: dict[str, Any],
                 first: bool = False) -> list[tuple]:
    """The rows of ``statement`` (only the first, with ``first``), sent straight on a database
    connection of ``engine`` (in its transaction, if it has one), compiled once.

    :func:`read_row` sends its one statement so; so does recording a round for the two that
    read its game (its row; its seats with their summary), and for the two more that read its
    rounds and hands when its summary cannot be taken up: through SQLAlchemy's execution those
    four cost about half a millisecond more a round, most of it a row object made of each hand
    (measured in process)."""
    sql, order = _compiled(engine, statement)
    values = tuple(params[name] for name in order) if order is not None else params
    cursor = connection.cursor()
    try:
        if engine.dispatch.before_cursor_execute:
            # Whoever listens for the statements sent (the tests that count queries) sees this one too.
            engine.dispatch.before_cursor_execute(None, cursor, sql, values, None, False)
        cursor.execute(sql, values)
        if first:
            row = cursor.fetchone()
            return [] if row is None else [tuple(row)]
        return [tuple(row) for row in cursor.fetchall()]
    finally:
        cursor.close()


def read_one(statement: Select, params: dict[str, Any]) -> Any:
    """The first column of :func:`read_row`'s row (None if no row)."""
    row = read_row(statement, params)
    return None if row is None else row[0]


def read_one_on(engine: Engine, statement: Select, params: dict[str, Any]) -> Any:
    """:func:`read_one` on the given engine."""
    row = read_row_on(engine, statement, params)
    return None if row is None else row[0]


def send(statement: Any, values: dict[str, Any] | list[dict[str, Any]],
         session: Session | None = None) -> tuple[int, tuple | None]:
    """One statement of a change, sent straight on the database connection under the session's
    write transaction, compiled once for the columns given; each value made ready by its
    column's type, as SQLAlchemy would (a time as SQLite stores it). A list is sent as one
    ``executemany``. The rows it changed, and the first row it gave back (``RETURNING``).

    For the statements every recorded round waits for, inside SQLite's one writer at a time:
    through SQLAlchemy's execution each costs about 40 microseconds more (measured in process),
    for six statements a round. Pass only statements made once, at module level. ``session``:
    another session than the request's (a commit's own, moving the club's version on)."""
    session = session or db.session()
    connection = session.connection()
    engine = connection.engine
    many = isinstance(values, list)
    rows = values if many else [values]
    sql, order, ready = _compiled_change(engine, statement, tuple(rows[0]), many)
    params = [ready(row) for row in rows]
    if order is not None:
        params = [tuple(row[name] for name in order) for row in params]
    cursor = connection.connection.cursor()
    try:
        if engine.dispatch.before_cursor_execute:
            engine.dispatch.before_cursor_execute(None, cursor, sql, params if many else params[0], None, many)
        if many:
            cursor.executemany(sql, params)
        else:
            cursor.execute(sql, params[0])
        returned = cursor.fetchone() if cursor.description else None
        changed = cursor.rowcount
    except engine.dialect.dbapi.Error as exc:
        # As SQLAlchemy's execution raises it (a round number taken: IntegrityError).
        raise DBAPIError.instance(sql, params, exc, engine.dialect.dbapi.Error) from exc
    finally:
        cursor.close()
    session.info["changed"] = True  # the club's version moves on with the commit
    return changed, None if returned is None else tuple(returned)


_changes: dict[tuple, tuple[str, tuple[str, ...] | None, Any]] = {}


def _compiled_change(engine: Engine, statement: Any, keys: tuple[str, ...], many: bool):
    """:func:`send`'s statement compiled for these columns and this database (once), the order
    of its parameters (None for a driver that takes them by name), and a function making a
    row's values ready for the driver (the statement's own constants added)."""
    dialect = engine.dialect
    key = (id(statement), dialect.name, keys, many)
    found = _changes.get(key)
    if found is None:
        compiled = statement.compile(dialect=dialect, column_keys=list(keys), for_executemany=many)
        constants = {name: bind.value for name, bind in compiled.binds.items() if name not in keys}
        processors = {}
        for name, bind in compiled.binds.items():
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                processors[name] = process

        def ready(row: dict[str, Any]) -> dict[str, Any]:
            out = {**constants, **row}
            for name, process in processors.items():
                if name in out:
                    out[name] = process(out[name])
            return out

        order = tuple(compiled.positiontup) if compiled.positional else None
        found = _changes[key] = (compiled.string, order, ready)
    return found


#: Compiled once per statement and database. Keyed by the statement's identity: pass only
#: statements made once, at module level (``store._PEEK``, ``store.VERSION_OF``, ``_READ``).
_statements: dict[tuple[int, str], tuple[str, tuple[str, ...] | None]] = {}


def _compiled(engine: Engine, statement: Select) -> tuple[str, tuple[str, ...] | None]:
    """The SQL of a statement for this database, compiled once, and the order of its parameters
    (None for a driver that takes them by name)."""
    dialect = engine.dialect
    key = (id(statement), dialect.name)
    found = _statements.get(key)
    if found is None:
        compiled = statement.compile(dialect=dialect)
        order = tuple(compiled.positiontup) if compiled.positional else None
        found = _statements[key] = (compiled.string, order)
    return found


@contextmanager
def writing() -> Iterator[None]:
    """Around every change: its transaction is a write transaction from the first statement.

    A read transaction still open in this request (the view looked the game up first) is
    ended before, so that the write starts afresh with the lock and reads what it changes
    under it. Store functions use it; nothing else needs to. (On PostgreSQL every transaction
    is the same; the store's version checks and unique keys catch a concurrent change.)
    """
    if _writing.get():
        yield
        return
    let_go()
    token = _writing.set(True)
    try:
        with _writers.turn(db.engine):
            yield
    except BaseException:
        # A change refused or failed half way leaves nothing behind, and lets the write lock go
        # at once: what the request reads next is read afresh.
        db.session.rollback()
        raise
    finally:
        _writing.reset(token)


def let_go() -> None:
    """End this request's transaction, if one is open, so that what is read next sees every
    change committed since (on SQLite a read transaction keeps the snapshot of its first read).
    It commits: call it only where the session holds no change of its own (after reads, or
    inside a write before anything was sent), when it just lets the snapshot and any lock go."""
    if db.session().in_transaction():
        db.session.commit()


class _Writers:
    """Writers of one SQLite file take turns here first, then take SQLite's own lock.

    SQLite makes a second writer wait by polling: it sleeps 1, 2, 5, 10 ms and more between
    tries, so a round recorded while another commits waits longer than the commit takes. Here
    the next writer (another thread, or another app worker: the lock is on a file beside the
    database) wakes the moment the last one is done. Kept because recording a round on SQLite
    misses its target without it (`docs/architecture.md`). It is only a queue: SQLite's lock
    still keeps writers apart, and anything that writes without the queue (the command line)
    meets that lock as before. PostgreSQL takes row locks and needs no queue.
    """

    def __init__(self) -> None:
        self._threads = threading.Lock()

    @contextmanager
    def turn(self, engine: Engine) -> Iterator[None]:
        path = engine.url.database if engine.dialect.name == "sqlite" else None
        if not path or path == ":memory:" or path.startswith("file:"):
            yield
            return
        # Opened for each turn and closed after it (microseconds beside the commit's fsync):
        # a forked worker never shares an open file, and so a lock, with its parent. 0600, as
        # the database beside it.
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT
        with self._threads, os.fdopen(os.open(f"{path}-writers.lock", flags, 0o600), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)


_writers = _Writers()


# ================================================================ the club's version


@event.listens_for(Session, "do_orm_execute")
def _statement(state) -> None:
    if state.is_insert or state.is_update or state.is_delete:
        state.session.info["changed"] = True


@event.listens_for(Session, "after_flush")
def _flushed(session, _context) -> None:
    session.info["changed"] = True


@event.listens_for(Session, "before_commit")
def _move_club_version_on(session) -> None:
    """A transaction that changed anything moves the club's version on, before it commits: the
    change and the new number are seen together or not at all, by every app server."""
    if session.info.pop("changed", False) or session.new or session.dirty or session.deleted:
        send(_BUMP, {}, session)
    session.info.pop("changed", None)


@event.listens_for(Session, "after_rollback")
def _rolled_back(session) -> None:
    session.info.pop("changed", None)


# On the table rather than the mapped class, and sent as it is (:func:`send`): every write runs
# it, and the ORM's path for an UPDATE costs a quarter of a millisecond more than the statement
# (0.3 ms against 0.06, measured), SQLAlchemy's Core execution about 40 microseconds more.
_CLUB = ClubVersion.__table__
_BUMP = update(_CLUB).where(_CLUB.c.id == 1).values(version=_CLUB.c.version + 1)
_READ = select(ClubVersion.version).where(ClubVersion.id == bindparam("id"))


def club_version() -> int | None:
    """The club's version now (one query by primary key); None for a database without the row."""
    return read_one(_READ, {"id": 1})


def init_app(app: Flask) -> None:
    path = sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"])
    if path is not None:
        # Made 0600 before SQLite opens it: SQLite makes its -wal and -shm files with the same mode.
        from scorekeeper.store.private import create_private

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
