"""Database engine set-up: SQLite pragmas for safe writes, read and write transactions,
and migrations."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from flask_migrate import Migrate
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine

from scorekeeper.store.models import db

if TYPE_CHECKING:  # the app is handed in: the store imports nothing of Flask's requests
    from flask import Flask

migrate = Migrate()
MIGRATIONS = Path(__file__).parent / "migrations"

#: Set while a store function changes the database (see :func:`writing`).
_writing: ContextVar[bool] = ContextVar("scorekeeper_writing", default=False)


def in_writing() -> bool:
    """Whether this thread is inside a :func:`writing` block (holding the write lock)."""
    return _writing.get()


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


def one_statement_engine() -> Engine:
    """An engine on the app's database whose connections, used through the driver itself
    (``raw_connection``), run each statement as a transaction of its own, with no BEGIN: for a
    read of what is committed, outside a request. Made in the app's context.

    On SQLite it is the app's own engine: its connections leave transactions to SQLAlchemy
    (``_sqlite_pragmas``), so a statement the driver sends alone is its own. On PostgreSQL it is
    an engine of its own whose connections are in autocommit from the start: the app engine's
    would begin a transaction with the read, and end it with a ROLLBACK when the connection goes
    back to the pool, a second trip to the database. Its connections go with ``dispose()``.
    """
    if db.engine.dialect.name == "sqlite":
        return db.engine
    return create_engine(db.engine.url, isolation_level="AUTOCOMMIT")


@contextmanager
def writing() -> Iterator[None]:
    """Around every change: its transaction is a write transaction from the first statement.

    On SQLite a read transaction still open in this request (the view looked the game up
    first) is ended before (it holds no change of its own), so that the write starts afresh
    with the lock (BEGIN IMMEDIATE) and reads what it changes under it: a read transaction
    keeps the snapshot of its first read. On PostgreSQL every statement reads what is committed
    when it runs, and the store's version checks, row locks and unique keys catch a concurrent
    change: the transaction goes on into the write, saving the trips of a COMMIT and a BEGIN,
    and only the rows read before are expired, as a commit would, so that the write reads them
    afresh. A change refused or failed half way is rolled back at once. Store functions use
    it; nothing else needs to.
    """
    if _writing.get():
        yield
        return
    session = db.session()
    if session.in_transaction():
        if session.get_bind().dialect.name == "sqlite":
            session.commit()
        else:
            session.flush()  # (a change made before goes with the write, as SQLite's commit keeps it)
            session.expire_all()
    token = _writing.set(True)
    try:
        yield
    except BaseException:
        # Nothing of it is left behind, and the write lock goes at once: what the request
        # reads next is read afresh.
        db.session.rollback()
        raise
    finally:
        _writing.reset(token)


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


def live_sqlite_file() -> Path | None:
    """The file of the app's SQLite database (None on another database, or one in memory):
    what ``flask backup`` copies and ``flask restore`` replaces."""
    url = db.engine.url
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database)


def revision_now() -> str | None:
    """The migration the app's database is at (None for a database Alembic never touched)."""
    return current_revision(db.engine)


def close_connections() -> None:
    """Let every pooled connection to the app's database go (before its file is replaced)."""
    db.engine.dispose()


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
