"""`make bench`: how fast Scorekeeper answers, against a floor, on a small and a large history,
on SQLite and on PostgreSQL.

For each database system, and on it for each of two databases (a small history and a large
one, seeded through the app's own store), this script serves Scorekeeper exactly as `make run`
does (``flask serve``: waitress), and beside it, with the same server settings, a bare Flask app
(bench/floor.py) whose one route renders a small template after one primary-key query on the
same database: the floor that no page of ours can beat. Both histories are served at once. It
drives each endpoint with wrk on loopback (a warm-up, then a bounded measurement in turns with
the floor, and with the same endpoint on the other history) and prints requests per second
and p50/p95/p99 latency, each as a ratio to the floor; then the growth from the small to the
large history; the table load model on the large history (bench/table_load.py: the most card
tables the server holds against the most the floor holds); the transferred sizes of the
scoreboard and the round screen, the taps needed to record a round, and every target with
PASS or FAIL (the per-page ratios to the floor as NOTE: diagnostics), for each database
system. Nothing is asserted: the figures are the point (docs/performance.md).

PostgreSQL: the server that --postgres-url or TEST_DATABASE_URL names (the benchmark makes
its own databases on it), or else a throw-away one that scripts/with-postgres.sh starts on
loopback, as `make test-postgres` does. If none can be had, the run says so and goes on with
SQLite alone.

    .venv/bin/python bench/run.py [--threads 4] [--duration 6] [--quick] [--databases sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
ARTIFACTS = ROOT / "test-artifacts"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))

import page_weight  # noqa: E402 (bench/page_weight.py)

from scorekeeper.serving import THREADS as SERVED_THREADS  # noqa: E402 (what `make run` serves with)

#: Requests sent at once when a first or a warm answer is timed: as many as the cores, as two
#: phones' polls may arrive together.
AT_ONCE = 2
#: A phone's request headers.
PHONE = {
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "Accept-Encoding": "gzip, deflate, br",
    "Accept-Language": "en-GB,en;q=0.9",
    "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/126.0 Mobile Safari/537.36",
}
SECRET = "benchmark-secret-key"

# Targets: reported, never asserted.
POLL = 1.0              # an unchanged poll at least the floor's req/s
FIRST = 2.0             # a fresh server's first answer within 2x a warm one working the page anew
ANEW_MS = 50.0          # every page worked out anew (just after a round) within 50 ms, large history
FRESH_STARTS = 5        # a first answer: the median over this many fresh starts of the server
IDLE = 0.3              # seconds the server idles before each warm answer timed, as before a first
OWN_ASSETS_KB = 15.0    # our own CSS and JavaScript, compressed
PAGE_KB = 60.0          # a whole page with htmx, compressed
# Diagnostics, printed as NOTE beside the targets: each page against the floor by wrk. A table
# never sends wrk's load (bench/table_load.py models what it sends, and its figures are targets).
PAGE_P95 = 2.0          # a page's p95 within 2x the floor's
PAGE_RPS = 0.5          # and at least half the floor's throughput
POLL_P95 = 1.2          # an unchanged poll's p95 within 1.2x the floor's
GROWTH = 1.2            # no page more than 1.2x slower on the large history
ROUNDS = 0.1            # recording a round at least 0.1x the write floor's bare commits


def say(text: str = "") -> None:
    print(text, flush=True)


# ============================================================ tools


def ensure_wrk() -> str:
    """wrk from Debian's packages: installed when missing and we are root, else explained."""
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        say("wrk is missing: installing Debian's package wrk")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "wrk"], check=True, env=env, stdout=subprocess.DEVNULL)
        found = shutil.which("wrk")
        if found:
            return found
    say("The benchmark needs the load generator wrk. Install it with:\n    sudo apt-get install -y wrk")
    sys.exit(2)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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


# ============================================================ database systems


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


# ============================================================ databases


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
    import seed

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


# ============================================================ servers


class Server:
    """``flask --app TARGET serve``, as `make run` ends (TARGET ``scorekeeper``, or the floor's
    ``bench.floor:app``, which has the same command): its access log and errors in ``log_path``."""

    def __init__(self, name: str, target: str, db: Database, threads: int) -> None:
        self.name = name
        self.port = free_port()
        self.log_path = db.instance / f"{name}.log"
        self.log = open(self.log_path, "ab")  # noqa: SIM115 (closed in stop)
        self.command = [sys.executable, "-m", "flask", "--app", target, "serve", "--host", "127.0.0.1",
                        "--port", str(self.port), "--threads", str(threads)]
        self.env = app_env(db)
        self.process = self._start()
        self.boot = 2.0  # seconds the server takes to start, measured by wait()

    def _start(self) -> subprocess.Popen:
        self.started = time.monotonic()
        return subprocess.Popen(self.command, cwd=ROOT, env=self.env, stdout=self.log, stderr=self.log,
                                start_new_session=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait(self, path: str) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited; see {self.log.name}")
            try:
                with urllib.request.urlopen(self.base + path, timeout=5):
                    # It answers; its threads and the app's start-up work may still be settling
                    # (the static files' compression). A first answer timed now would include
                    # that: give it the time it took to start, at least 2 s.
                    self.boot = max(2.0, time.monotonic() - self.started)
                    time.sleep(self.boot)
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not start; see {self.log.name}")

    def restart(self, path: str) -> None:
        """A new server process in place of the old one, on the same port: nothing kept."""
        self._end()
        self.process = self._start()
        self.wait(path)

    def stop(self) -> None:
        self._end()
        self.log.close()

    def _end(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fetch(url: str, headers: dict[str, str] | None = None, data: bytes | None = None
          ) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers or {}, data=data, method="POST" if data else "GET")
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def phone_cookie(app: Server, db: Database) -> str:
    """The session cookie of the phone keeping score: it opened the game's edit link (whose page
    posts the key, with the page's form token), and its browser followed the redirect to the
    scoreboard (which shows, and so clears, the message "This phone can now keep score")."""
    join = f"{app.base}/games/{db.board_game}/join"
    status, headers, body = fetch(join, PHONE)
    cookie = headers.get("Set-Cookie", "").split(";", 1)[0]
    token = re.search(r'name="csrf_token" value="([^"]+)"', decoded(body, headers))
    if status != 200 or not cookie.startswith("session=") or token is None:
        raise RuntimeError(f"the edit link's page gave no session or form (HTTP {status})")
    form = urllib.parse.urlencode({"csrf_token": token.group(1), "key": db.board_key}).encode()
    status, headers, _ = fetch(join, {**PHONE, "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded",
                                      "Referer": join}, form)
    cookie = headers.get("Set-Cookie", cookie).split(";", 1)[0]
    if status not in (302, 303):
        raise RuntimeError(f"the edit link did not give a session (HTTP {status})")
    status, headers, body = fetch(f"{app.base}/games/{db.board_game}", {**PHONE, "Cookie": cookie})
    if status != 200 or "keep score" not in decoded(body, headers):
        raise RuntimeError(f"the scoreboard after the edit link: HTTP {status}")
    return headers.get("Set-Cookie", cookie).split(";", 1)[0]


def statuses(log: Path, since: int, pattern: str) -> dict[str, int]:
    """How the server answered the requests matching ``pattern`` in its access log, from byte
    ``since`` on: {status: count}."""
    counts: dict[str, int] = {}
    with open(log, "rb") as f:
        f.seek(since)
        for line in f.read().decode(errors="replace").splitlines():
            found = re.search(r'"(\w+ \S+)" (\d{3}) ', line)
            if found and re.fullmatch(pattern, found.group(1)):
                counts[found.group(2)] = counts.get(found.group(2), 0) + 1
    return counts


# ============================================================ load


@dataclass
class Figures:
    name: str
    rps: float
    p50: float
    p95: float
    p99: float
    requests: int
    errors: int
    kind: str = "floor"  # floor, write floor, page, poll, file, api
    note: str = ""
    #: The floor measured in turns with this endpoint (each endpoint is compared with its own:
    #: the machine's speed drifts over minutes, more on a shared machine).
    floor: Figures | None = None


@dataclass
class Endpoint:
    name: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    expect: int = 200
    kind: str = "page"  # page, poll, api, file


def wrk(wrk_bin: str, url: str, seconds: float, connections: int, headers: dict[str, str],
        script: Path, args: list[str] | None = None) -> dict:
    command = [wrk_bin, f"-t{connections}", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--timeout", "10s",
               "-s", str(script)]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    command.append(url)
    if args:
        command += ["--", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("BENCH ")), None)
    if line is None:
        raise RuntimeError(f"wrk gave no figures:\n{done.stdout}\n{done.stderr}")
    figures = json.loads(line[6:])
    statuses = re.search(r"Non-2xx or 3xx responses: (\d+)", done.stdout)
    figures["non2xx"] = int(statuses.group(1)) if statuses else 0
    return figures


def measure_paired(wrk_bin: str, pairs: list[tuple[Endpoint, str, str]], opts: argparse.Namespace,
                   script: Path) -> list[tuple[Figures, Figures]]:
    """One endpoint on each history (its URL, and its floor's URL on the same database), all in
    turns: a warm-up of each, then ``opts.pairs`` turns in which each history's floor and
    endpoint run one slice each, the histories' order swapped from one turn to the next; the
    slices add up to ``opts.duration`` per endpoint. A machine whose speed drifts (other work
    on it, CPU clocks) then slows the floor and the endpoint alike, and the small and the large
    history alike: the ratios between them are the app's own. Returns (floor, endpoint) figures
    for each history, in the order given."""
    seconds = max(1.0, opts.duration / opts.pairs)
    for endpoint, url, floor_url in pairs:
        wrk(wrk_bin, floor_url, opts.warmup, opts.connections, PHONE, script)
        wrk(wrk_bin, url, opts.warmup, opts.connections, endpoint.headers, script)
    floors: list[list[dict]] = [[] for _ in pairs]
    ours: list[list[dict]] = [[] for _ in pairs]
    for turn in range(opts.pairs):
        order = range(len(pairs)) if turn % 2 == 0 else reversed(range(len(pairs)))
        for i in order:
            endpoint, url, floor_url = pairs[i]
            floors[i].append(wrk(wrk_bin, floor_url, seconds, opts.connections, PHONE, script))
            ours[i].append(wrk(wrk_bin, url, seconds, opts.connections, endpoint.headers, script))
    return [(combine("floor (bare Flask, 1 query)", floors[i]), combine(pairs[i][0].name, ours[i]))
            for i in range(len(pairs))]


def measure_rounds(wrk_bin: str, db: Database, url: str, opts: argparse.Namespace, script: Path,
                   games_file: Path, warm_file: Path) -> tuple[Figures, Figures]:
    """Recording rounds and the write floor in turns, as a page and the read floor are: a
    warm-up on games of its own, then ``opts.pairs`` turns of the write floor's bare commits
    and of rounds recorded through the API. A disk or a machine whose speed drifts then slows
    both alike. Each turn of rounds goes on in the same games where the last one stopped."""
    seconds = max(2.0, opts.duration / opts.pairs)
    wrk(wrk_bin, url, opts.warmup, opts.connections, {}, script, [str(warm_file), str(opts.connections)])
    floors, ours = [], []
    for turn in range(opts.pairs):
        floors.append(db.system.write_floor(db.instance, seconds / 2))
        at = going_on(db, games_file, db.instance / f"round-games-turn-{turn}.txt")
        ours.append(wrk(wrk_bin, url, seconds, opts.connections, {}, script, [str(at), str(opts.connections)]))
    return combine_commits(floors), combine("record a round (API)", ours)


def combine_commits(turns: list[Figures]) -> Figures:
    """The write floor's figures from its turns: the rate over all of them, each latency
    percentile the median of the turns'."""
    seconds = sum(f.requests / f.rps for f in turns if f.rps)
    requests = sum(f.requests for f in turns)
    first = turns[0]
    combined = Figures(first.name, requests / seconds if seconds else 0.0,
                       statistics.median(f.p50 for f in turns), statistics.median(f.p95 for f in turns),
                       statistics.median(f.p99 for f in turns), requests, 0, kind=first.kind)
    combined.note = first.note
    return combined


def combine(name: str, slices: list[dict]) -> Figures:
    """One endpoint's figures from its wrk runs: the throughput over all of them, and each
    latency percentile the median of the runs' (one slow slice moves it less than a mean)."""
    seconds = sum(f["duration_us"] for f in slices) / 1e6
    requests = sum(f["requests"] for f in slices)
    kinds = ("connect", "read", "write", "timeout", "non2xx")
    counts = {k: sum(f[k] for f in slices) for k in kinds}
    errors = sum(counts.values())

    def ms(key: str) -> float:
        return statistics.median(f[key] for f in slices) / 1000

    figures = Figures(name, requests / seconds, ms("p50"), ms("p95"), ms("p99"), requests, errors)
    if errors:
        figures.note = "errors: " + ", ".join(f"{k} {counts[k]}" for k in kinds if counts[k])
    return figures


def check_status(app: Server, endpoint: Endpoint) -> None:
    status, _, body = fetch(app.base + endpoint.path, {**PHONE, **endpoint.headers})
    if status != endpoint.expect:
        raise RuntimeError(f"{endpoint.name}: {endpoint.path} answered {status}, not {endpoint.expect}: {body[:300]!r}")


def prime(url: str, headers: dict[str, str], at_once: int = AT_ONCE, budget: float = 120) -> float:
    """Warm the server up: ``at_once`` requests at a time, until a whole round of them is quick.
    Returns the slowest of the first ones (a fresh server's first answer)."""
    from concurrent.futures import ThreadPoolExecutor

    def timed(_):
        started = time.perf_counter()
        fetch(url, headers)
        return time.perf_counter() - started

    deadline = time.monotonic() + budget
    quick_rounds = 0
    with ThreadPoolExecutor(at_once * 2) as pool:
        first = max(pool.map(timed, range(at_once)))
        while time.monotonic() < deadline and quick_rounds < 3:
            answers = list(pool.map(timed, range(at_once * 2)))
            quick_rounds = quick_rounds + 1 if max(answers) < 0.1 else 0
    return first


def warm_answer(url: str, headers: dict[str, str], changes: ChangesKept | None, at_once: int = AT_ONCE,
                times: int = 5) -> float:
    """A warm server's answer, timed as :func:`prime` times a first one: ``at_once`` requests at
    once, the slower of them, after the server idled (IDLE) as a fresh one has; the median of
    a few such turns (nothing else running), in seconds.
    (Timed one request at a time instead, the warm answer left out what answering two at once
    costs on two cores, which the first answer pays: about 0.5 ms of the poll's 1.5.)

    With ``changes``, each request follows a change that puts the page kept for it out of date,
    as a recorded round does (:class:`ChangesKept`): the warm worker then works the page out and
    renders it anew, which a fresh worker has to do too. A fresh worker's first answer is held
    against that, so that the target measures what starting costs (templates to compile, a
    history to replay), not the kept page itself (a fraction of a millisecond)."""
    from concurrent.futures import ThreadPoolExecutor

    def timed(_):
        started = time.perf_counter()
        fetch(url, headers)
        return time.perf_counter() - started

    answers = []
    with ThreadPoolExecutor(at_once) as pool:
        for _ in range(times):
            if changes is not None:
                changes.move_on()
            # Idle first, as a fresh worker is before its first answer (and a phone's poll every
            # 2 s finds it): on this machine a worker woken from even 50 ms of idling answers an
            # unchanged poll in about 1.7 ms, one kept busy in 0.6 ms, and the first answers were
            # held against the busy figure.
            time.sleep(IDLE)
            answers.append(max(pool.map(timed, range(at_once))))
    if changes is not None:
        changes.put_back()
    return statistics.median(answers)


class ChangesKept:
    """Moves on the versions of the games the benchmark shows, as a change to the database
    would (a phone's ETag then no longer holds), and puts them back afterwards (the watch poll
    is measured against the version it was given). Nothing else in the database changes, so
    every page stays the same."""

    def __init__(self, url: str, game_ids: list[int]) -> None:
        from sqlalchemy import create_engine

        self.engine = create_engine(url)
        self.game_ids = sorted(set(game_ids))
        with self.engine.connect() as conn:
            self.versions = dict(conn.exec_driver_sql(
                f"SELECT id, version FROM game WHERE id IN ({', '.join(map(str, self.game_ids))})").all())

    def move_on(self) -> None:
        with self.engine.begin() as conn:
            conn.exec_driver_sql(f"UPDATE game SET version = version + 1 WHERE id IN ({', '.join(map(str, self.game_ids))})")

    def put_back(self) -> None:
        with self.engine.begin() as conn:
            for game_id, version in self.versions.items():
                conn.exec_driver_sql(f"UPDATE game SET version = {int(version)} WHERE id = {int(game_id)}")
        self.engine.dispose()


def endpoints_of(app: Server, db: Database) -> list[Endpoint]:
    """What a phone asks of one history, with the session cookies its browser keeps: the phone
    keeping score (its edit key; its form token) and a phone watching."""
    keeper = {**PHONE, "Cookie": phone_cookie(app, db)}
    watcher = {**PHONE, "Cookie": watcher_cookie(app, db)}
    poll = {**watcher, "HX-Request": "true", "HX-Trigger": "board",
            "HX-Current-URL": f"{app.base}/games/{db.board_game}/watch"}
    return [
        Endpoint("scoreboard page", f"/games/{db.board_game}", keeper),
        Endpoint("unchanged watch poll", f"/games/{db.board_game}/live?v={db.board_version}&watch=1", poll,
                 204, "poll"),
        Endpoint("history page 1", "/history", keeper),
        Endpoint(f"history page {db.last_page} (last)", f"/history?page={db.last_page}", keeper),
        Endpoint(f"player page ({db.player_games} games)", f"/players/{db.player}", keeper),
        Endpoint("ratings leaderboard", "/ratings", keeper),
        Endpoint("game file download", f"/games/{db.file_game}.json", keeper, 200, "file"),
    ]


def run_histories(dbs: list[Database], opts: argparse.Namespace, wrk_bin: str) -> dict[str, dict]:
    """Both histories of one database system served at once, each by Scorekeeper and by its
    floor, and every endpoint measured on both in turns (:func:`measure_paired`): the growth
    from the small history to the large one is then taken from figures of the same minutes.
    What cannot run in turns goes one history after the other: before the turns, a fresh
    worker's first answers; after them, warm answers, recording rounds and a page just after a
    round. Returns each history's figures by its label."""
    report = BENCH / "wrk" / "report.lua"
    rounds_script = BENCH / "wrk" / "rounds.lua"
    apps: dict[str, Server] = {}
    floors: dict[str, Server] = {}
    runs: dict[str, dict] = {db.label: {"results": [], "cold": {}, "warm": {}, "changed": {}} for db in dbs}
    try:
        for db in dbs:
            apps[db.label] = Server(f"scorekeeper-{db.label}", "scorekeeper", db, opts.threads)
            floors[db.label] = Server(f"floor-{db.label}", "bench.floor:app", db, opts.threads)
        for db in dbs:
            apps[db.label].wait("/api/openapi.json")
            floors[db.label].wait(f"/games/{db.board_game}")
        endpoints = {db.label: endpoints_of(apps[db.label], db) for db in dbs}
        for db in dbs:
            runs[db.label]["cold"] = first_answers(apps[db.label], endpoints[db.label])
        floor_urls = {db.label: f"{floors[db.label].base}/games/{db.board_game}" for db in dbs}
        for db in dbs:
            prime(floor_urls[db.label], PHONE)
        measured: dict[str, list[Figures]] = {db.label: [] for db in dbs}
        for at in range(len(endpoints[dbs[0].label])):
            pairs = [(endpoints[db.label][at], apps[db.label].base + endpoints[db.label][at].path,
                      floor_urls[db.label]) for db in dbs]
            for db, (floor, figures) in zip(dbs, measure_paired(wrk_bin, pairs, opts, report), strict=True):
                figures.kind = endpoints[db.label][at].kind
                figures.floor = floor
                measured[db.label].append(figures)
        for db in dbs:
            run, app, results = runs[db.label], apps[db.label], measured[db.label]
            # Warm answers once every endpoint has had its load, before the rounds change the history.
            for endpoint in endpoints[db.label]:
                changes = None if endpoint.kind == "poll" else ChangesKept(db.url, [db.board_game, db.file_game])
                run["warm"][endpoint.name] = warm_answer(app.base + endpoint.path, endpoint.headers, changes)
            # The floor's row: the run with the median throughput of those measured.
            paired = [f.floor for f in results]
            results.insert(0, sorted(paired, key=lambda f: f.rps)[len(paired) // 2])
            results[0].note = (f"median of {len(paired)} runs, each in turns with one endpoint: "
                               + ", ".join(f"{f.rps:.0f}" for f in paired) + " req/s")
            results += record_rounds(app, db, opts, wrk_bin, rounds_script)
            run["results"] = results
            keeper = endpoints[db.label][0].headers  # the scoreboard's: the phone keeping score
            run["changed"] = after_a_round(app, db, endpoints[db.label], keeper)
    finally:
        for server in [*apps.values(), *floors.values()]:
            server.stop()
    return runs


def first_answers(app: Server, endpoints: list[Endpoint]) -> dict[str, float]:
    """A fresh server's first answer to each endpoint, in seconds: one request is a few
    milliseconds on a machine whose speed varies from moment to moment, so the median over
    FRESH_STARTS fresh starts of the server."""
    firsts: dict[str, list[float]] = {endpoint.name: [] for endpoint in endpoints}
    for start in range(FRESH_STARTS):
        if start:
            app.restart("/api/openapi.json")
        for endpoint in endpoints:
            check_status(app, endpoint)
            firsts[endpoint.name].append(prime(app.base + endpoint.path, endpoint.headers))
    return {name: statistics.median(times) for name, times in firsts.items()}


def record_rounds(app: Server, db: Database, opts: argparse.Namespace, wrk_bin: str,
                  script: Path) -> list[Figures]:
    """Rounds recorded through the API in new games, in turns with the write floor: the write
    floor's figures and the rounds', checked against what the database holds afterwards. Last
    of a history's measures: it adds games and rounds to the history."""
    games_file = db.instance / "round-games.txt"
    warm_file = db.instance / "round-games-warm.txt"
    add_round_games(db, opts.round_games, games_file)
    add_round_games(db, max(opts.round_games // 4, opts.connections * 2), warm_file)
    before = rounds_in(db, games_file)
    logged = app.log_path.stat().st_size
    writes, figures = measure_rounds(wrk_bin, db, app.base + "/api/games/0/rounds", opts, script,
                                     games_file, warm_file)
    stored = rounds_in(db, games_file) - before
    answers = statuses(app.log_path, logged, r"POST /api/games/\d+/rounds")
    figures.kind = "api"
    figures.floor = writes
    figures.note = "; ".join(filter(None, [
        f"{stored} rounds stored for {figures.requests} answers",
        "answers (warm-up too): " + ", ".join(f"{n} × {code}" for code, n in sorted(answers.items())),
        figures.note]))
    # Each turn may end with a round sent on every connection, stored but not answered.
    if not figures.requests <= stored <= figures.requests + opts.connections * opts.pairs:
        figures.errors += abs(stored - figures.requests)
    return [writes, figures]


def watcher_cookie(app: Server, db: Database) -> str:
    """The session cookie of a phone that opened the watch link (its form token, no edit key)."""
    _, headers, _ = fetch(f"{app.base}/games/{db.board_game}/watch", PHONE)
    return headers.get("Set-Cookie", "").split(";", 1)[0]


def after_a_round(app: Server, db: Database, endpoints: list[Endpoint], keeper: dict[str, str],
                  rounds: int = 5) -> dict[str, float]:
    """Each page once, just after a round was recorded (in a game of its own, through the API):
    what a page costs when nothing kept can be used. The median of a few, in milliseconds."""
    games_file = db.instance / "changed-game.txt"
    add_round_games(db, 1, games_file)
    game_id, key, *names = games_file.read_text().split()
    timings: dict[str, list[float]] = {}
    for number in range(1, rounds + 1):
        out = names[(number - 1) % 4]
        body = json.dumps({"number": number, "went_out": out,
                           "hands": {n: "K Q 7 5 3" for n in names if n != out}}).encode()
        request = urllib.request.Request(f"{app.base}/api/games/{game_id}/rounds", data=body, method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "Authorization": f"Bearer {key}"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 201
        pages = [("scoreboard page", f"/games/{game_id}"),
                 ("changed watch poll (sends the board)", f"/games/{game_id}/live?v={number}&watch=1")]
        pages += [(e.name, e.path) for e in endpoints if e.kind != "poll" and not e.path.startswith("/games/")]
        pages.append(("game file download", f"/games/{game_id}.json"))
        for name, path in pages:
            started = time.perf_counter()
            status, _, _ = fetch(app.base + path, keeper)
            timings.setdefault(name, []).append((time.perf_counter() - started) * 1000)
            assert status == 200, (path, status)
    return {name: sorted(values)[len(values) // 2] for name, values in timings.items()}


# ============================================================ sizes


def transfer_sizes(db: Database, opts: argparse.Namespace) -> dict:
    """Bytes on the wire (compressed as a phone accepts it) of the scoreboard and the round
    screen: the page itself, and the page with our CSS and scripts (bench/page_weight.py: what
    the page fetches as it loads), with and without htmx."""
    app = Server("scorekeeper-sizes", "scorekeeper", db, opts.threads)
    try:
        app.wait("/api/openapi.json")
        cookie = phone_cookie(app, db)
        sizes: dict = {"encoding": None}
        asset_sizes: dict[str, int] = {}
        for label, path in (("scoreboard", f"/games/{db.board_game}"),
                            ("round screen", f"/games/{db.board_game}/rounds/new")):
            status, headers, body = fetch(app.base + path, {**PHONE, "Cookie": cookie})
            if status != 200:
                raise RuntimeError(f"{path}: HTTP {status}")
            sizes["encoding"] = headers.get("Content-Encoding", "identity")
            html = decoded(body, headers)
            _, fheaders, fragment = fetch(app.base + path, {**PHONE, "Cookie": cookie, "HX-Request": "true"})

            def asset(url: str) -> tuple[bytes, str]:
                _, aheaders, body = fetch(app.base + url, PHONE)
                return body, decoded(body, aheaders)

            # Every file the page fetches as it loads: its tags, and the modules these import.
            page_assets = page_weight.own_assets(html, asset)
            asset_sizes.update(page_assets)
            own = page_weight.ours(page_assets)
            vendor = sum(page_assets.values()) - own
            if vendor == 0:  # htmx from the CDN: count the same file, as served locally
                from scorekeeper.app import HTMX_VERSION

                _, _, asset = fetch(f"{app.base}/static/vendor/htmx-{HTMX_VERSION}.min.js", PHONE)
                vendor = len(asset)
                asset_sizes[f"/static/vendor/htmx-{HTMX_VERSION}.min.js"] = vendor
            sizes[label] = {
                "html": len(body), "html_plain": len(html.encode()), "fragment": len(fragment),
                "own_assets": own, "htmx": vendor,
                "without_htmx": len(body) + own, "with_htmx": len(body) + own + vendor,
            }
        sizes["assets"] = asset_sizes
        return sizes
    finally:
        app.stop()


def decoded(body: bytes, headers: dict[str, str]) -> str:
    encoding = headers.get("Content-Encoding", "")
    if encoding == "br":
        import brotli

        body = brotli.decompress(body)
    elif encoding == "gzip":
        import gzip

        body = gzip.decompress(body)
    return body.decode("utf-8")


# ============================================================ taps


def taps(opts: argparse.Namespace) -> dict | None:
    """The taps to record a round, from the browser test (run here when Chromium is there)."""
    result = ARTIFACTS / "taps.json"
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not opts.no_browser and Path(chromium).exists():
        if result.exists():
            result.unlink()
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:warnings", "-p", "no:cacheprovider",
                        "tests/browser/test_taps.py"], cwd=ROOT, capture_output=True, timeout=300)
    elif not opts.no_browser and not result.exists():
        say(f"(No Chromium at {chromium}: `sudo apt-get install -y chromium` to count the taps.)")
    elif result.exists():
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(result.stat().st_mtime))
        say(f"(Taps not counted in this run: the figure is the last browser test's, {result} of {when}.)")
    if result.exists():
        return json.loads(result.read_text())
    return None


# ============================================================ report


def ms(x: float) -> str:
    return f"{x:7.2f}"


def table(db: Database, run: dict) -> None:
    results: list[Figures] = run["results"]
    say(f"{'endpoint':<34}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}   "
        f"{'req/s ÷ floor':>13}{'p95 ÷ floor':>12}{'errors':>8}")
    for f in results:
        against = f.floor
        rel = f"{f.rps / against.rps:13.2f}{f.p95 / against.p95:12.2f}" if against else f"{'':13}{'':12}"
        mark = " (÷ write floor)" if f.kind == "api" else ""
        say(f"{f.name:<34}{f.rps:8.0f}{ms(f.p50):>9}{ms(f.p95):>9}{ms(f.p99):>9}   {rel}{f.errors:8d}{mark}")
    for f in results:
        if f.note:
            say(f"  ({f.name}: {f.note})")
    say(f"first answer of a fresh server (nothing kept yet; median of {FRESH_STARTS} fresh starts) and of warm ones "
        f"working the page out anew (median of 5, each after {IDLE:g} s idle), each timed as {AT_ONCE} requests at once, the slower; "
        "and one answer just after a round was recorded:")
    for name, seconds in run["cold"].items():
        say(f"  {name:<38} first {seconds * 1000:8.1f} ms   warm {run['warm'][name] * 1000:6.1f} ms")
    for name, millis in run["changed"].items():
        say(f"  {name:<38} after a round {millis:6.1f} ms")


Verdict = tuple[bool | None, str]


def database_verdicts(system: str, small: dict, large: dict) -> list[Verdict]:
    """The targets of one database system, each line named after it: met (True), not met
    (False), or a diagnostic figure (None).

    Each endpoint is held against the floor measured in turns with it."""
    out: list[Verdict] = []
    for label, run in (("small", small), ("large", large)):
        results: list[Figures] = run["results"]
        title = f"{system} {label}"
        read_floor = results[0]
        for f in results[1:]:
            floor = f.floor
            if floor is None:
                continue
            if f.kind == "poll":
                out.append((f.rps >= POLL * floor.rps, f"{title}: {f.name}: req/s {f.rps / floor.rps:.2f}x the "
                                                       f"floor's (≥ {POLL:g}x)"))
                out.append((None, f"{title}: {f.name}: p95 {f.p95 / floor.p95:.2f}x the floor's (diagnostic: ≤ {POLL_P95}x)"))
            elif f.kind == "api":
                # A durable write waits for the disk (or the server's log): held against the
                # write floor's bare commits, and shown against the read floor too.
                out.append((None, f"{title}: {f.name}: {f.rps:.0f} req/s, p95 {f.p95:.1f} ms: "
                                  f"{f.rps / floor.rps:.3f}x the write floor's bare commit rate (diagnostic: ≥ {ROUNDS}x), "
                                  f"{f.rps / read_floor.rps:.2f}x the read floor's req/s"))
            else:
                out.append((None, f"{title}: {f.name}: p95 {f.p95 / floor.p95:.2f}x the floor (diagnostic: ≤ {PAGE_P95}x), "
                                  f"req/s {f.rps / floor.rps:.2f}x (diagnostic: ≥ {PAGE_RPS}x)"))
            if f.errors:
                out.append((False, f"{title}: {f.name}: {f.errors} failed or unexpected answers"))
        out += first_answer_verdicts(title, run)
    for name, millis in large["changed"].items():
        out.append((millis <= ANEW_MS, f"{system} large: worked out anew just after a round: {name}: "
                                       f"{millis:.1f} ms (≤ {ANEW_MS:g} ms)"))
    for s, big in zip(small["results"], large["results"], strict=True):
        if s.floor is None or big.floor is None:
            continue
        out.append((None, f"{system}: growth: {_base(s.name)}: {growth(s, big):.2f}x slower on the large history "
                          f"(diagnostic: ≤ {GROWTH}x; worse of req/s and p50, each against its floor)"))
    return out


def first_answer_verdicts(title: str, run: dict) -> list[Verdict]:
    """A fresh worker's first answer within FIRST times a warm one, for every endpoint: a page
    that a new worker has to work up (a replay of the history, caches to fill) fails it."""
    out: list[Verdict] = []
    for name, first in run["cold"].items():
        warm = run["warm"][name]
        out.append((first <= FIRST * warm, f"{title}: first answer: {name}: first {first * 1000:.1f} ms, "
                                           f"warm {warm * 1000:.1f} ms (≤ {FIRST:g}x)"))
    return out


def shared_verdicts(sizes: dict, tapped: dict | None) -> list[Verdict]:
    """The targets that do not depend on the database: the pages' weight, the taps."""
    out: list[Verdict] = []
    own = sizes["scoreboard"]["own_assets"] / 1024
    out.append((own < OWN_ASSETS_KB,
                f"size: our own CSS and JavaScript {own:.1f} KB compressed (< {OWN_ASSETS_KB:.0f} KB)"))
    for label in ("scoreboard", "round screen"):
        whole = sizes[label]["with_htmx"] / 1024
        out.append((whole < PAGE_KB, f"size: the {label} with htmx {whole:.1f} KB compressed (< {PAGE_KB:.0f} KB)"))
    if tapped:
        ok = tapped["taps"] <= tapped["goal"]
        out.append((ok, f"taps: {tapped['taps']} to record the round (goal ≤ {tapped['goal']})"))
        eight = tapped.get("rounds", {}).get("eight cards")
        if eight:
            ok = eight["taps"] <= eight["goal"]
            out.append((ok, f"taps: {eight['taps']} to record a round of eight-card hands (goal ≤ {eight['goal']})"))
    return out


def growth(small: Figures, large: Figures) -> float:
    """How much slower an endpoint is on the large history: the worse of throughput and median
    latency, each taken relative to the floor measured beside it (so that the machine getting
    busier, or quieter, between the two runs does not count as the app's doing)."""
    if not (large.rps and small.p50 and small.floor and large.floor):
        return float("inf")
    rps = (small.rps / small.floor.rps) / (large.rps / large.floor.rps)
    p50 = (large.p50 / large.floor.p50) / (small.p50 / small.floor.p50)
    return max(rps, p50)


def _base(name: str) -> str:
    return re.sub(r" \(.*\)$", "", re.sub(r"page \d+ \(last\)", "last page", name))


def parse_options() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=int(os.environ.get("THREADS", SERVED_THREADS)))
    parser.add_argument("--connections", type=int, default=4, help="wrk connections (one thread each)")
    parser.add_argument("--duration", type=float, default=10, help="seconds measured per endpoint")
    parser.add_argument("--warmup", type=float, default=2, help="seconds of warm-up per endpoint")
    parser.add_argument("--pairs", type=int, default=5,
                        help="turns of floor and endpoint the measured seconds are cut into")
    parser.add_argument("--large", type=int, default=10_000, help="finished games in the large history")
    parser.add_argument("--small", type=int, default=100, help="finished games in the small history")
    parser.add_argument("--in-progress", type=int, default=20)
    parser.add_argument("--round-games", type=int, default=400, help="new games to record rounds in")
    parser.add_argument("--databases", default="sqlite,postgresql",
                        help="the database systems to bench, in this order (sqlite, postgresql)")
    test_url = os.environ.get("TEST_DATABASE_URL", "")
    parser.add_argument("--postgres-url", default=test_url if test_url.startswith("postgresql") else None,
                        help="a PostgreSQL server to make the bench databases on (default: TEST_DATABASE_URL "
                             "if it names one, else a throw-away server from scripts/with-postgres.sh)")
    # Not 5499, where `make test-postgres` starts its own: both can run at once.
    parser.add_argument("--postgres-port", type=int, default=int(os.environ.get("PGPORT_BENCH", 5498)),
                        help="the loopback port of the throw-away PostgreSQL server")
    parser.add_argument("--no-table-load", action="store_true", help="leave out the table load model")
    parser.add_argument("--table-window", type=float, default=15.0,
                        help="table load model: seconds measured per number of tables")
    parser.add_argument("--table-settle", type=float, default=3.0,
                        help="table load model: seconds before each window")
    parser.add_argument("--max-tables", type=int, default=1024, help="table load model: the most tables tried")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 2,000 games, 2 s per endpoint, 5 s per number of tables")
    parser.add_argument("--no-browser", action="store_true", help="do not run the taps test")
    parser.add_argument("--keep", action="store_true", help="keep the temporary databases")
    parser.add_argument("--json", type=Path, default=ARTIFACTS / "bench.json", help="write the figures here too")
    opts = parser.parse_args()
    if opts.pairs < 1 or opts.duration <= 0:
        parser.error("--pairs must be 1 or more and --duration above 0")
    opts.databases = [name.strip().lower() for name in opts.databases.split(",") if name.strip()]
    if not opts.databases or set(opts.databases) - {"sqlite", "postgresql"}:
        parser.error("--databases takes sqlite, postgresql or both, separated by a comma")
    if opts.quick:
        opts.large, opts.duration, opts.warmup = 2000, 2, 1
        opts.table_window, opts.table_settle = 5.0, 2.0
    return opts


def loudly(text: str) -> None:
    """A warning nobody scrolling past the figures can miss."""
    say("!" * 100)
    say(f"!! {text}")
    say("!" * 100)


def bench_system(system: SQLite | PostgreSQL, work: Path, opts: argparse.Namespace, wrk_bin: str,
                 made: list[Database]) -> dict:
    """Seed the small and the large history on one database system, bench both, print their
    tables and the growth between them. Every database made is added to ``made`` (to drop)."""
    histories = {label: Database(label, system, work / system.key / label, games, opts.in_progress)
                 for label, games in (("small", opts.small), ("large", opts.large))}
    for db in histories.values():
        made.append(db)
        build(db, processes=min(2, os.cpu_count() or 1))
        say(f"Seeded the {db.title} history through the store: {db.finished:,} finished games and "
            f"{db.in_progress} in progress ({db.games:,} games, {db.system.size_mb(db.url):.1f} MB) "
            f"in {db.seconds:.1f} s")
    runs = run_histories(list(histories.values()), opts, wrk_bin)
    for db in histories.values():
        say("")
        say(f"== {db.title} history: {db.games:,} games; scoreboard of game {db.board_game}, "
            f"player {db.player}, file of game {db.file_game}")
        table(db, runs[db.label])
    growth_table(system.name, runs["small"]["results"], runs["large"]["results"])
    load = None
    if not opts.no_table_load:
        import table_load

        load = table_load.model(histories["large"], opts.threads, opts.table_settle,
                                opts.table_window, opts.max_tables)
    return {"system": system, "histories": histories, "runs": runs, "load": load}


def growth_table(system: str, small: list[Figures], large: list[Figures]) -> None:
    say("")
    say(f"== {system}: growth from the small to the large history (large ÷ small; then each against its floor)")
    say(f"{'endpoint':<34}{'req/s':>8}{'p50':>8}{'p95':>8}   {'slower, against the floor':>26}")
    for s, big in zip(small, large, strict=True):
        vs = f"{growth(s, big):26.2f}" if s.floor and big.floor else ""
        say(f"{_base(s.name):<34}{big.rps / s.rps:8.2f}{big.p50 / s.p50:8.2f}{big.p95 / s.p95:8.2f}   {vs}")


def sizes_table(sizes: dict, db: Database) -> None:
    say("")
    say(f"== transferred sizes (bytes on the wire, {sizes['encoding']} as a phone accepts it; "
        f"from the {db.title} history)")
    say(f"{'':<16}{'page':>8}{'htmx fragment':>15}{'+ our CSS/JS':>14}{'+ htmx':>10}")
    for label in ("scoreboard", "round screen"):
        s = sizes[label]
        say(f"{label:<16}{s['html']:8,}{s['fragment']:15,}{s['without_htmx']:14,}{s['with_htmx']:10,}")
    say("assets: " + ", ".join(f"{Path(u).name} {n:,}" for u, n in sizes["assets"].items()))


def taps_table(tapped: dict | None) -> None:
    say("")
    if not tapped:
        say("== taps: not counted (no Chromium)")
        return
    say(f"== taps to record a four-player round with three hands of five cards: {tapped['taps']} "
        f"(goal: {tapped['cards']} cards + {tapped['players']} players + 2 = {tapped['goal']})")
    say("   " + ", ".join(f"{k} {v}" for k, v in tapped["breakdown"].items()))
    eight = tapped.get("rounds", {}).get("eight cards")
    if eight:
        say(f"== taps for three hands of eight cards: {eight['taps']} (goal {eight['goal']}); "
            + ", ".join(f"{k} {v}" for k, v in eight["breakdown"].items()))


def figures_json(opts: argparse.Namespace, load: tuple, benched: list[dict], missing: dict[str, str],
                 sizes: dict | None, tapped: dict | None, checks: list[Verdict]) -> dict:
    """Everything printed, by database system and history."""
    import table_load

    def system(done: dict) -> dict:
        runs = done["runs"]
        return {
            "histories": {db.label: {"games": db.games, "player_games": db.player_games,
                                     "seeded_s": db.seconds} for db in done["histories"].values()},
            "figures": {label: [{**vars(f), "floor": vars(f.floor) if f.floor else None} for f in run["results"]]
                        for label, run in runs.items()},
            "first_answers_s": {label: run["cold"] for label, run in runs.items()},
            "warm_answers_s": {label: run["warm"] for label, run in runs.items()},
            "after_a_round_ms": {label: run["changed"] for label, run in runs.items()},
            "table_load": None if done["load"] is None else {
                name: {"held": found.held, "every_table_held": found.ceiling,
                       "steps": [{"tables": st.tables, "held": st.held, "requests": st.requests,
                                  "seconds": st.seconds, "p95_ms": st.p95, "errors": st.errors}
                                 for st in found.steps],
                       "round_p95_ms": table_load.percentile(found.round_times, 95),
                       "round_in_app_p95_ms": table_load.percentile(found.in_app(table_load.ROUND_SAVED), 95)}
                for name, found in (("app", done["load"]["app"]), ("floor", done["load"]["floor"]))},
        }

    return {
        "threads": opts.threads, "connections": opts.connections, "duration": opts.duration,
        "load_before": load, "databases": {done["system"].name: system(done) for done in benched},
        "not_measured": missing, "sizes": sizes, "taps": tapped,
        "targets": [{"ok": ok, "text": t} for ok, t in checks],
    }


def main() -> int:
    opts = parse_options()
    wrk_bin = ensure_wrk()
    began = time.monotonic()
    load = os.getloadavg()
    say(f"Scorekeeper benchmark: flask serve --threads {opts.threads} (waitress)")
    say(f"wrk {opts.connections} connections on loopback, {opts.warmup:g} s warm-up + {opts.duration:g} s "
        f"per endpoint, in {opts.pairs} turns with the floor and with the other history; {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}; "
        f"load average {load[0]:.2f} before the run")
    if load[0] > 0.75 * (os.cpu_count() or 1):
        say("WARNING: the machine is busy: the figures will be lower and noisier than on a quiet machine.")
    work = Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    holder = None
    made: list[Database] = []
    benched: list[dict] = []
    #: Database systems asked for but not measured, and why: said loudly, never left out quietly.
    missing: dict[str, str] = {}
    try:
        systems: list[SQLite | PostgreSQL] = []
        for name in opts.databases:
            if name == "sqlite":
                systems.append(SQLite())
                continue
            url = opts.postgres_url
            if url is None:
                url, holder = start_postgres(opts.postgres_port)
            if url is None:
                missing["PostgreSQL"] = (f"the server could not be started (scripts/with-postgres.sh, "
                                         f"port {opts.postgres_port})")
                loudly(f"PostgreSQL NOT benchmarked: {missing['PostgreSQL']}. The run goes on without it.")
            else:
                systems.append(PostgreSQL(url))
        for system in systems:
            say("")
            say(f"======== {system.name}")
            try:
                benched.append(bench_system(system, work, opts, wrk_bin, made))
            except Exception as error:  # noqa: BLE001 (the other system's figures still count)
                import traceback

                traceback.print_exc()
                missing[system.name] = f"the run failed: {error}"
                loudly(f"{system.name} NOT benchmarked: {missing[system.name]}")
        if not benched:
            loudly("Nothing was benchmarked.")
            return 1
        # Sizes and taps do not depend on the database: measured once, on the first one benched.
        sizes_from = benched[0]["histories"]["large"]
        sizes = transfer_sizes(sizes_from, opts)
        sizes_table(sizes, sizes_from)
        tapped = taps(opts)
        taps_table(tapped)
        checks: list[Verdict] = []
        for done in benched:
            checks += database_verdicts(done["system"].name, done["runs"]["small"], done["runs"]["large"])
            if done["load"] is not None:
                checks += done["load"]["verdicts"]
        checks += shared_verdicts(sizes, tapped)
        say("")
        say("== targets")
        for ok, text in checks:
            say(f"{'NOTE' if ok is None else 'PASS' if ok else 'FAIL'}  {text}")
        held = [ok for ok, _ in checks if ok is not None]
        on = " and ".join(done["system"].name for done in benched)
        say(f"{sum(held)} of {len(held)} targets met on {on}; the whole run took {time.monotonic() - began:.0f} s.")
        import speed_lines

        lines, code = speed_lines.total()
        say(f"Speed-only code: {lines} lines, {code} of them code (bench/speed_lines.py names the pieces).")
        for name, why in missing.items():
            loudly(f"{name} NOT benchmarked: {why}")
        if opts.json:
            opts.json.parent.mkdir(exist_ok=True)
            opts.json.write_text(json.dumps(figures_json(opts, load, benched, missing, sizes, tapped, checks),
                                            indent=2))
    finally:
        if opts.keep:
            gone = " (PostgreSQL's go with its throw-away server)" if holder else ""
            say(f"(databases kept{gone}: {', '.join(db.url for db in made)})")
        else:
            for db in made:
                if db.url:
                    db.system.drop(db.url)
            shutil.rmtree(work, ignore_errors=True)
        stop_postgres(holder)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
