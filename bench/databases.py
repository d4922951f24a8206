"""The databases the benchmark runs on: SQLite or PostgreSQL, each with its write floor (bare
commits); a history seeded through the app's own store (bench/seed.py) and what the endpoints
use found in it; games made for recording rounds."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench import seed
from bench.common import ROOT, SECRET, Figures, say

def app_env(db: Database) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        FLASK_SQLALCHEMY_DATABASE_URI=db.url,
        FLASK_SECRET_KEY=SECRET,
        SCOREKEEPER_INSTANCE=str(db.instance),
        FLOOR_DATABASE=db.system.floor_target(db.url),
        # wrk sends thousands of requests a second from one address, far past the per-address
        # limits a table never meets (scorekeeper/web/limits.py): the benchmark measures the app.
        FLASK_RATELIMIT_ENABLED="false",
        # The table load model's hundreds of phones all come from loopback's one address: the
        # cap of sockets by address (scorekeeper/serving.py) is a guest's, not a table's.
        FLASK_CONNECTIONS_PER_ADDRESS="0",
    )
    return env


class SQLite:
    """Databases as files in the run's folder, each beside its instance folder."""

    name = "SQLite"
    key = "sqlite"

    def create(self, instance: Path) -> str:
        return f"sqlite:///{instance / 'bench.sqlite'}"

    def floor_target(self, url: str) -> str:
        return url.removeprefix("sqlite:///")

    def size_mb(self, url: str) -> float:
        return Path(self.floor_target(url)).stat().st_size / 1e6

    def drop(self, url: str) -> None:
        pass  # the file goes with the run's folder

    def write_floor(self, directory: Path, seconds: float) -> Figures:
        """A bare loop of one-row SQLite commits with the app's settings (WAL, synchronous=FULL:
        every commit waits for the disk), one at a time as SQLite takes them."""
        conn = sqlite3.connect(directory / "write-floor.sqlite", isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, x TEXT)")

        def commit() -> None:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO t (x) VALUES (?)", ("K Q 7 5 3",))
            conn.execute("COMMIT")

        try:
            return commit_loop("write floor (bare SQLite commit)", commit, seconds)
        finally:
            conn.close()


class PostgreSQL:
    """Databases made with CREATE DATABASE on one server, named after the history they hold."""

    name = "PostgreSQL"
    key = "postgresql"
    PREFIX = "scorekeeper_bench_"

    def __init__(self, server_url: str) -> None:
        from sqlalchemy.engine import make_url

        #: The server's URL as SQLAlchemy takes it (postgresql+psycopg://...), any database on it.
        self.server = make_url(server_url).set(drivername="postgresql+psycopg")

    def _url(self, name: str) -> str:
        return self.server.set(database=name).render_as_string(hide_password=False)

    def floor_target(self, url: str) -> str:
        """The URL as psycopg takes it: the floor reads with psycopg itself, not SQLAlchemy."""
        from sqlalchemy.engine import make_url

        return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)

    def _admin(self):
        """A connection to the server for CREATE and DROP DATABASE (which refuse a transaction)."""
        import psycopg

        return psycopg.connect(self.floor_target(self.server.render_as_string(hide_password=False)),
                               autocommit=True)

    def _new_database(self, name: str) -> str:
        # Dropped first: a run with --keep, on a server that outlived it, left one behind.
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self._url(name)

    def create(self, instance: Path) -> str:
        return self._new_database(self.PREFIX + instance.name)

    def size_mb(self, url: str) -> float:
        import psycopg

        with psycopg.connect(self.floor_target(url)) as conn:
            return conn.execute("SELECT pg_database_size(current_database())").fetchone()[0] / 1e6

    def drop(self, url: str) -> None:
        from sqlalchemy.engine import make_url

        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')

    def write_floor(self, directory: Path, seconds: float) -> Figures:
        """A bare loop of one-row commits with psycopg, in a database of its own on the same
        server, one at a time. The server's own durability settings apply (the throw-away one
        runs with fsync=off: the note says so)."""
        import psycopg

        url = self._new_database(self.PREFIX + "write_floor")
        conn = psycopg.connect(self.floor_target(url))
        try:
            conn.execute("CREATE TABLE t (id serial PRIMARY KEY, x text)")
            conn.commit()
            fsync = conn.execute("SHOW fsync").fetchone()[0]
            conn.commit()

            def commit() -> None:
                conn.execute("INSERT INTO t (x) VALUES (%s)", ("K Q 7 5 3",))
                conn.commit()

            figures = commit_loop("write floor (bare PostgreSQL commit)", commit, seconds)
        finally:
            conn.close()
            self.drop(url)
        if fsync != "on":
            figures.note = f"the server runs with fsync={fsync}: a commit does not wait for the disk"
        return figures


def commit_loop(name: str, commit, seconds: float) -> Figures:
    """The floor of a durable write: ``commit`` (one row, one transaction) over and over for
    ``seconds``. No round can be recorded faster than a commit."""
    latencies = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        started = time.perf_counter()
        commit()
        latencies.append((time.perf_counter() - started) * 1000)
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(len(latencies) * p / 100))]

    return Figures(name, len(latencies) / seconds, pct(50), pct(95), pct(99), len(latencies), 0, kind="write floor")


def start_postgres(port: int) -> tuple[str | None, subprocess.Popen | None]:
    """A throw-away PostgreSQL server on loopback, started by scripts/with-postgres.sh as
    `make test-postgres` starts it: (its URL, the process holding it), or (None, None).

    The script stops the server when its command ends; the command here is a Python that
    prints the URL and then waits for its standard input to close, so the server lives until
    :func:`stop_postgres` (or until this process dies, which closes the pipe too)."""
    hold = "import os, sys; print(os.environ['TEST_DATABASE_URL'], flush=True); sys.stdin.read()"
    holder = subprocess.Popen(["bash", str(ROOT / "scripts" / "with-postgres.sh"), sys.executable, "-c", hold],
                              cwd=ROOT, env=dict(os.environ, PGPORT_TEST=str(port)),
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for line in holder.stdout:
        if line.startswith("postgresql"):
            return line.strip(), holder
        say(line.rstrip())  # the script's own words: the server's version, an install
    holder.wait()
    return None, None


def stop_postgres(holder: subprocess.Popen | None) -> None:
    if holder is not None:
        holder.stdin.close()
        holder.wait(timeout=60)


@dataclass
class Database:
    label: str  # small, large
    system: SQLite | PostgreSQL
    instance: Path  # the app's instance folder: secret key, server logs, the bench's game lists
    finished: int
    in_progress: int
    url: str = ""
    #: What the endpoints use, found once the history is stored.
    board_game: int = 0
    board_key: str = ""
    board_version: int = 0
    file_game: int = 0
    player: int = 0
    player_games: int = 0
    last_page: int = 1
    games: int = 0
    seconds: float = 0.0

    @property
    def title(self) -> str:
        """How headings and targets name it: "SQLite small", "PostgreSQL large"."""
        return f"{self.system.name} {self.label}"


def build(db: Database, processes: int) -> None:
    """Make a new database, migrate it as `make run` does, then store the history through the store."""
    db.instance.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    db.url = db.system.create(db.instance)
    subprocess.run([sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
                   cwd=ROOT, env=app_env(db), check=True, capture_output=True)
    with app_context(db) as app:
        seed.seed(db.finished, db.in_progress, processes=processes)
        _choose(db, app)
    db.seconds = time.monotonic() - started


@contextmanager
def app_context(db: Database) -> Iterator:
    """Scorekeeper on a bench database, in this process; its connections are closed afterwards
    (a PostgreSQL database with a connection open cannot be dropped)."""
    from scorekeeper import create_app
    from scorekeeper.store.models import db as sqla

    app = create_app({"SECRET_KEY": SECRET, "SQLALCHEMY_DATABASE_URI": db.url})
    with app.app_context():
        try:
            yield app
        finally:
            sqla.session.remove()
            sqla.engine.dispose()


def _choose(db: Database, app) -> None:
    """The scoreboard of the game in progress with the most rounds, the file of the newest
    finished game, the busiest player, the last page of the history."""
    from sqlalchemy import func, select

    from scorekeeper.store import access
    from scorekeeper.club import history
    from scorekeeper.store.models import Game, Round, Seat
    from scorekeeper.store.models import db as sqla

    rounds = func.count(Round.id)
    board = sqla.session.execute(
        select(Game.id, rounds).join(Round, Round.game_id == Game.id).where(Game.finished_at.is_(None))
        .group_by(Game.id).order_by(rounds.desc(), Game.id).limit(1)
    ).one()
    db.board_game = board[0]
    # A fresh edit key for the scoreboard's game: the benchmark's phone keeps score for it.
    game = sqla.session.get(Game, db.board_game)
    db.board_key = access.issue_key(game)
    sqla.session.commit()
    db.board_version = sqla.session.get(Game, db.board_game).version
    db.file_game = sqla.session.scalar(
        select(Game.id).where(Game.finished_at.is_not(None)).order_by(Game.started_at.desc()).limit(1))
    busiest = sqla.session.execute(
        select(Seat.player_id, func.count(Seat.id)).group_by(Seat.player_id)
        .order_by(func.count(Seat.id).desc(), Seat.player_id).limit(1)).one()
    db.player, db.player_games = busiest
    db.games = sqla.session.scalar(select(func.count(Game.id)))
    db.last_page = max(1, -(-db.games // history.PER_PAGE))


def add_round_games(db: Database, count: int, path: Path) -> None:
    """Games with no rounds yet, for recording rounds through the API: "id key names" lines."""
    from scorekeeper import store
    from scorekeeper.store.imports import GameFile
    from scorekeeper.rules import BALMORAL, GameSetup, start

    names = ["Ann", "Ben", "Cat", "Dev"]
    setup = GameSetup.create(BALMORAL, names, first_dealer="Ann")
    with app_context(db):
        keys: list[str] = []
        files = [GameFile(setup, (), start(setup), None, None) for _ in range(count)]
        ids = store.import_games(files, keys=keys)
    path.write_text("".join(f"{i} {k} {' '.join(names)}\n" for i, k in zip(ids, keys, strict=True)))


def rounds_in(db: Database, games_file: Path) -> int:
    """How many rounds the games listed in ``games_file`` hold, read afresh from the database."""
    return sum(rounds_of(db, games_file).values())


def rounds_of(db: Database, games_file: Path) -> dict[int, int]:
    """How many rounds each game listed in ``games_file`` holds, read afresh from the database."""
    from sqlalchemy import bindparam, create_engine, text
    from sqlalchemy.pool import NullPool

    ids = [int(line.split()[0]) for line in games_file.read_text().splitlines()]
    query = text("SELECT game_id, count(*) FROM round WHERE game_id IN :ids GROUP BY game_id").bindparams(
        bindparam("ids", expanding=True))
    engine = create_engine(db.url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            held = dict(conn.execute(query, {"ids": ids}).all())
    finally:
        engine.dispose()
    return {game_id: held.get(game_id, 0) for game_id in ids}


def going_on(db: Database, games_file: Path, path: Path) -> Path:
    """``games_file`` with each game's next round added (rounds.lua's sixth field), written to
    ``path``: the next turn of recording rounds goes on where the last one stopped."""
    held = rounds_of(db, games_file)
    lines = games_file.read_text().splitlines()
    path.write_text("".join(f"{line} {held[int(line.split()[0])] + 1}\n" for line in lines))
    return path
