"""The table load model: how many card tables one server holds, against the floor.

A table is a game in progress with six phones on it. Each phone polls the board every 2 s as
htmx does (``GET /games/ID/live?v=VERSION``: 204 while nothing changed, the board's fragment
once something did, after which it polls with the new version). Every 3 minutes the phone
keeping score records a round through the round screen, as the page's script sends it (the
form page for its token and session, then ``POST /games/ID/rounds/new`` with the form's
fields), and the six phones fetch the board again (``GET /games/ID``). Every 10 minutes one
phone of the table opens the history or a player's page. Each table starts at a random moment
of each of these periods, and each phone's timer drifts a little, so requests spread over time
as real phones' do.

The first three tables are one club night's, made as its keeper makes them (the night opened,
twelve players checked in, drawn to three tables and each started), and one big screen on the
club's wall polls the night as its page does: ``GET /nights/ID/screen/live?v=TAG`` every 2 s,
204 while nothing changed; after a round at one of the night's tables, the screen's fragment,
whose new tag it polls with next. Its requests are a kind of their own ("big screen") and count
in the 95th percentile like every other.

The server is started as `make run` starts it (``flask serve``: waitress, the same threads) on a
seeded history. The number of tables is raised (doubled, then bisected) to find the most that
the server holds with the 95th percentile of every request within 100 ms and no error, each
number held for a measured window after a short settling. The same is done for the floor app
(bench/floor.py) answering the same paths and methods, each with one query by primary key and
a small template (the big screen's too). The headline is the app's tables against the floor's.

The client is one asyncio loop speaking HTTP/1.1 over plain sockets, a new connection for each
request (a phone's poll two seconds after the last often finds its connection gone; a new one
is the costlier case). It shares the machine with the
server; its own CPU time and how late its timers fire are printed beside the figures.

    .venv/bin/python -m bench.table_load [--postgres] [--threads 4] [--games 10000] [--window 15]
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import re
import resource
import ssl
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from scorekeeper.serving import THREADS as SERVED_THREADS  # what `make run` serves with

from bench.common import PHONE, decoded, say
from bench.databases import Database, PostgreSQL, SQLite, app_context, build, start_postgres, stop_postgres
from bench.servers import Server

POLL_EVERY = 2.0        # htmx's "every 2s" on the board
ROUND_EVERY = 180.0     # a round every 3 minutes
PAGE_EVERY = 600.0      # a history or player page per table every 10 minutes
TYPING = (5.0, 20.0)    # seconds between opening the round screen and saving it
PHONES = 6
P95_MS = 100.0          # a number of tables is held with p95 <= 100 ms and no error
TABLES = 0.7            # target: the app holds at least 0.7x the floor's tables
#: Target: recording a round under the load model, at the most tables held, in the app's own time
#: (the access log's), p95 within 15x the floor's round at the floor's most tables held (one UPDATE
#: and a small template), each with a round every second beside its tables. Both are timed from a
#: worker thread taking the request, so both include the turns a thread waits for the one
#: process's other threads, a turn after each statement: the app's round sends ten (it reads and
#: replays the game, writes the round, its hands and the summary) where the floor's sends three,
#: and replays the game besides. 15x as for a page worked out anew (bench/targets.py ANEW): a
#: round is the write path's work done anew. The phone waits longer: every request first waits
#: its turn for the server, about as long as an empty one does, and that wait is what the tables
#: held bound (both are printed).
ROUND = 15.0
NAMES = ("Ann", "Ben", "Cat", "Dev")
STARTING_ROUNDS = 4     # each table's game has this many rounds when the model starts
PROBE_EVERY = 1.0       # seconds between the extra rounds recorded while the most tables held run
PROBE_GAMES = 8         # games of their own for those rounds (a game holds at most 25)
#: The club night the first tables play at: twelve players checked in, drawn to three tables of four.
CLUB = ("Eve", "Fay", "Gus", "Hal", "Ida", "Jon", "Kim", "Lou", "Max", "Ned", "Oli", "Pam")
SCREEN_POLL = {"HX-Request": "true", "HX-Trigger": "screen", "HX-Target": "screen"}  # what htmx sends
KINDS = ("unchanged poll", "changed poll", "board", "round screen", "round", "history or player", "big screen")


# ============================================================ the tables


@dataclass
class Table:
    game_id: int
    cookie: str            # the session of the phone keeping score (its edit key)
    players: list[int]     # the players' ids, for their pages
    night: int | None = None  # the club night the table plays at, if any (its big screen polls it)


def hand_round(number: int) -> tuple[str, dict[str, str]]:
    """Round ``number`` as every table plays it: the players go out in turn, the three others
    hold "K Q 7 5 3" (the same rounds bench/wrk/rounds.lua records through the API)."""
    out = NAMES[(number - 1) % len(NAMES)]
    return out, {name: "K Q 7 5 3" for name in NAMES if name != out}


def seated_round(number: int, names: list[str] | tuple[str, ...]):
    """:func:`hand_round` as a record of the game whose seats are ``names`` (in seat order)."""
    from scorekeeper.rules import RoundRecord, parse_hand

    out, hands = hand_round(number)
    at = dict(zip(NAMES, names, strict=True))
    return RoundRecord.create(at[out], {at[n]: parse_hand(h) for n, h in hands.items()}, {}, {at[out]})


def make_tables(db: Database, count: int) -> list[Table]:
    """``count`` tables stored through the store (:func:`seat_tables`) on the bench database."""
    with app_context(db) as app:
        return seat_tables(app, count)


def seat_tables(app, count: int) -> list[Table]:
    """``count`` tables of Balmoral games of four players, each STARTING_ROUNDS rounds in, each
    with the session cookie of a phone that keeps its score (made by the app's own session and
    edit-key code). The first three are one club night's, made as its keeper makes them (the
    night opened, CLUB's twelve checked in, drawn to tables of four, each table started and
    played to STARTING_ROUNDS through the store); the others are imported games of their own.
    In ``app``'s app context."""
    from flask import session
    from sqlalchemy import select

    from scorekeeper import store
    from scorekeeper.rules import BALMORAL, GameSetup, advance, start
    from scorekeeper.store.imports import GameFile
    from scorekeeper.store.models import Player
    from scorekeeper.store.models import db as sqla
    from scorekeeper.web import keyring

    signer = app.session_interface.get_signing_serializer(app)

    def table(game_id: int, key: str, players: list[int], night: int | None = None) -> Table:
        with app.test_request_context():
            keyring.remember(game_id, key)
            return Table(game_id, f"session={signer.dumps(dict(session))}", players, night)

    rng = random.Random(7)
    night, _ = store.open_night(BALMORAL.key, date.today())
    store.check_in(night.id, CLUB)
    tables = []
    for drawn in store.draw_night(night.id, rng)[:count]:
        started = store.start_table(night.id, drawn.table, rng)
        for number in range(1, STARTING_ROUNDS + 1):
            store.record_round(started.game.id, number, seated_round(number, drawn.names))
        tables.append(table(started.game.id, started.key, drawn.player_ids, night.id))

    setup = GameSetup.create(BALMORAL, list(NAMES), first_dealer=NAMES[0])
    state, records = start(setup), []
    for number in range(1, STARTING_ROUNDS + 1):
        records.append(seated_round(number, NAMES))
        state = advance(state, records[-1])
    keys: list[str] = []
    ids = store.import_games([GameFile(setup, tuple(records), state, None, None)] * (count - len(tables)), keys=keys)
    players = list(sqla.session.scalars(select(Player.id).where(Player.name.in_(NAMES))))
    tables += [table(game_id, key, players) for game_id, key in zip(ids, keys, strict=True)]
    return tables


def versions(db: Database, tables: list[Table]) -> dict[int, int]:
    """Each table's game version as the database holds it now: what its phones poll with."""
    from sqlalchemy import bindparam, create_engine, text
    from sqlalchemy.pool import NullPool

    query = text("SELECT id, version FROM game WHERE id IN :ids").bindparams(bindparam("ids", expanding=True))
    engine = create_engine(db.url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return dict(conn.execute(query, {"ids": [t.game_id for t in tables]}).all())
    finally:
        engine.dispose()


# ============================================================ the phones


@dataclass
class Step:
    tables: int
    seconds: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    errors: int = 0
    first_error: str = ""
    late_ms: list[float] = field(default_factory=list)  # how late the client's timers fired
    cpu: float = 0.0  # the client's CPU seconds during the window
    stopped_early: bool = False
    log_span: tuple[int, int] = (0, 0)  # the window's lines in the server's access log, in bytes
    screen: list[tuple[int, float]] = field(default_factory=list)  # the big screen's polls: status, ms

    @property
    def all(self) -> list[float]:
        return sorted(x for values in self.latencies.values() for x in values)

    @property
    def requests(self) -> int:
        return sum(len(v) for v in self.latencies.values())

    @property
    def p95(self) -> float:
        return percentile(self.all, 95)

    @property
    def held(self) -> bool:
        return not self.errors and not self.stopped_early and self.p95 <= P95_MS


def percentile(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(len(ordered) * p / 100) - 1)]


class Phones:
    """Every phone of every active table, on one asyncio loop, against one server."""

    def __init__(self, port: int, tables: list[Table], start_versions: dict[int, int],
                 log: Path | None = None, tls: ssl.SSLContext | None = None, host: str | None = None) -> None:
        self.port = port
        # Through HTTPS (bench/stack_load.py: Caddy in front): the context trusting its root,
        # and the name it answers to, which connects to 127.0.0.1 all the same.
        self.tls = tls
        self.host = host or "127.0.0.1"
        self.log = log  # the server's access log: its lines of each measured window are marked
        self.tables = tables
        self.versions = start_versions
        self.running: dict[int, list[asyncio.Task]] = {}
        self.step: Step | None = None
        self.in_flight: dict[int, tuple[float, str]] = {}
        self.rng = random.Random(7)
        # One big screen polls the night the first tables play at, from the first number held on.
        self.night = next((t.night for t in tables if t.night is not None), None)
        self.on_the_wall: asyncio.Task | None = None
        self.overloaded = False  # the last number run was not held
        self.seen: dict[int, list[int]] = {}  # by game: the version each phone's board shows
        self.cookies: dict[int, list[str]] = {}  # by game: each phone's session cookie

    # ---------------------------------------------------------------- HTTP

    async def request(self, kind: str, method: str, path: str, headers: dict[str, str],
                      body: bytes = b"") -> tuple[int, dict[str, str], bytes]:
        """One request on a new connection (the costlier case: see the module's note), timed
        from before the connection is opened to the answer's last byte."""
        started = time.perf_counter()
        token = id(asyncio.current_task())
        self.in_flight[token] = (started, kind)
        # Connection: close, since this connection serves one request: an answer of unknown length
        # then ends where the server closes, not in chunks on a connection kept alive.
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Connection: close",
                 *(f"{k}: {v}" for k, v in headers.items())]
        if method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        writer = None
        try:
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation
            # (an answer arriving as its table is stopped), and the phone would poll on.
            async with asyncio.timeout(10):
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, ssl=self.tls, server_hostname=self.host if self.tls else None)
                writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
                status, answer, content = await self.answer(reader)
        except (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError,
                IndexError) as error:
            self._count(kind, started, f"{method} {path}: {type(error).__name__} {error}")
            raise Failed from error
        finally:
            self.in_flight.pop(token, None)
            if writer is not None:
                writer.close()
        expected = (200, 204) if kind in ("unchanged poll", "changed poll", "big screen") else (200,)
        kind = "changed poll" if kind == "unchanged poll" and status == 200 else kind
        self._count(kind, started, "" if status in expected else f"{method} {path}: HTTP {status}")
        if status not in expected:
            raise Failed
        return status, answer, content

    @staticmethod
    async def answer(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
        """An HTTP/1.1 answer: its status, headers and body."""
        head = await reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        answer: dict[str, str] = {}
        for line in header_lines:
            if ":" in line:
                name, value = line.split(":", 1)
                answer[name.strip().title()] = value.strip()
        if "Content-Length" in answer:
            return status, answer, await reader.readexactly(int(answer["Content-Length"]))
        if status in (204, 304):
            return status, answer, b""
        return status, answer, await reader.read()  # the answer ends where the server closes

    def _count(self, kind: str, started: float, error: str) -> None:
        step = self.step
        if step is None:
            return
        if error:
            step.errors += 1
            step.first_error = step.first_error or error
        else:
            step.latencies[kind].append((time.perf_counter() - started) * 1000)

    async def until(self, moment: float) -> None:
        """Sleep until ``moment`` (perf_counter), noting how late the loop woke."""
        await asyncio.sleep(max(0.0, moment - time.perf_counter()))
        if self.step is not None:
            self.step.late_ms.append(max(0.0, time.perf_counter() - moment) * 1000)

    # ---------------------------------------------------------------- a table

    def start(self, table: Table) -> None:
        """The table's phones at work, as they were when it stopped: the board each shows and the
        cookies each keeps (a table started again with the versions it began with would see
        every round since as new, and six boards at once would come back from each)."""
        cookies = self.cookies.setdefault(table.game_id, [table.cookie] + [""] * (PHONES - 1))
        # The version each phone's board shows.
        seen = self.seen.setdefault(table.game_id, [self.versions[table.game_id]] * PHONES)
        tasks = [asyncio.create_task(self.phone(table, seat, cookies, seen)) for seat in range(PHONES)]
        tasks.append(asyncio.create_task(self.keeper(table, cookies, seen)))
        tasks.append(asyncio.create_task(self.pages(table, cookies)))
        self.running[table.game_id] = tasks

    def stop(self, table: Table) -> None:
        for task in self.running.pop(table.game_id, []):
            task.cancel()

    def headers(self, cookie: str, **more: str) -> dict[str, str]:
        headers = dict(PHONE, **more)
        if cookie:
            headers["Cookie"] = cookie
        return headers

    def referer(self, path: str) -> str:
        """The page a phone's form is sent from, as its browser names it (the app's pages say
        same-origin): over HTTPS the form's protection asks for it, and refuses a form without."""
        return f"{'https' if self.tls else 'http'}://{self.host}:{self.port}{path}"

    def keep_cookie(self, cookies: list[str], seat: int, answer: dict[str, str]) -> None:
        given = answer.get("Set-Cookie", "")
        if given.startswith("session="):
            cookies[seat] = given.split(";", 1)[0]

    async def phone(self, table: Table, seat: int, cookies: list[str], seen: list[int]) -> None:
        """One phone's board: a poll every 2 s (none while one is unanswered, as htmx does)."""
        game = table.game_id
        watch = "" if seat == 0 else "&watch=1"
        at = time.perf_counter() + self.rng.uniform(0, POLL_EVERY)
        while game in self.running:
            await self.until(at)
            at += POLL_EVERY * self.rng.uniform(0.98, 1.02)
            path = f"/games/{game}/live?v={seen[seat]}{watch}"
            try:
                status, answer, body = await self.request(
                    "unchanged poll", "GET", path, self.headers(cookies[seat], **{"HX-Request": "true",
                                                                                  "HX-Trigger": "board"}))
            except Failed:
                continue
            if status == 200:
                shown(seen, seat, body, answer)
            while at < time.perf_counter():
                at += POLL_EVERY

    async def screen(self, night: int) -> None:
        """The night's big screen on the club's wall: its page once, then its poll every 2 s with
        the tag the last answer showed, as htmx swaps the fragment in (204 while nothing changed;
        after a round at one of the night's tables, the fragment, with the new tag)."""
        tag = ""
        at = time.perf_counter() + self.rng.uniform(0, POLL_EVERY)
        while True:
            await self.until(at)
            at += POLL_EVERY * self.rng.uniform(0.98, 1.02)
            started = time.perf_counter()
            try:
                if tag:
                    status, answer, body = await self.request(
                        "big screen", "GET", f"/nights/{night}/screen/live?v={tag}", self.headers("", **SCREEN_POLL))
                    if self.step is not None:
                        self.step.screen.append((status, (time.perf_counter() - started) * 1000))
                else:
                    status, answer, body = await self.request("big screen", "GET", f"/nights/{night}/screen",
                                                              self.headers(""))
            except Failed:
                continue
            if status == 200:
                tag = screen_tag(body, answer) or tag
            while at < time.perf_counter():
                at += POLL_EVERY

    async def keeper(self, table: Table, cookies: list[str], seen: list[int]) -> None:
        """A round every 3 minutes through the round screen, then every phone's board again."""
        game = table.game_id
        at = time.perf_counter() + self.rng.uniform(0, ROUND_EVERY)
        while game in self.running:
            await self.until(at)
            at += ROUND_EVERY
            try:
                _, answer, body = await self.request("round screen", "GET", f"/games/{game}/rounds/new",
                                                     self.headers(cookies[0]))
                self.keep_cookie(cookies, 0, answer)
                token, number, version = read_form(decoded(body, answer))
            except (Failed, AttributeError):
                continue
            await asyncio.sleep(self.rng.uniform(*TYPING))
            try:
                _, answer, _ = await self.request(
                    "round", "POST", f"/games/{game}/rounds/new",
                    self.headers(cookies[0], **{"HX-Request": "true", "X-CSRFToken": token,
                                                "Referer": self.referer(f"/games/{game}/rounds/new"),
                                                "Content-Type": "application/x-www-form-urlencoded"}),
                    round_form(token, version, number))
                self.keep_cookie(cookies, 0, answer)
            except Failed:
                continue
            await asyncio.gather(*(self.board(game, seat, cookies, seen) for seat in range(PHONES)))

    async def board(self, game: int, seat: int, cookies: list[str], seen: list[int]) -> None:
        await asyncio.sleep(self.rng.uniform(0, POLL_EVERY))
        try:
            _, answer, body = await self.request("board", "GET", f"/games/{game}", self.headers(cookies[seat]))
            self.keep_cookie(cookies, seat, answer)
            shown(seen, seat, body, answer)
        except Failed:
            pass

    async def pages(self, table: Table, cookies: list[str]) -> None:
        """The history, or a player's page, every 10 minutes, from one of the table's phones."""
        at = time.perf_counter() + self.rng.uniform(0, PAGE_EVERY)
        while table.game_id in self.running:
            await self.until(at)
            at += PAGE_EVERY
            seat = self.rng.randrange(PHONES)
            path = "/history" if self.rng.random() < 0.5 else f"/players/{self.rng.choice(table.players)}"
            try:
                _, answer, _ = await self.request("history or player", "GET", path, self.headers(cookies[seat]))
                self.keep_cookie(cookies, seat, answer)
            except Failed:
                pass

    # ---------------------------------------------------------------- a number of tables

    async def hold(self, count: int, settle: float, window: float) -> Step:
        """``count`` tables running (started or stopped to get there), ``settle`` seconds, then
        a measured window, stopped as soon as it cannot be held any more: an error, or more
        answers slower than 100 ms than the 5 % that p95 allows of the window's requests."""
        if self.overloaded:
            for table in self.tables:
                self.stop(table)
            await self.quiet()
        for table in self.tables[:count]:
            if table.game_id not in self.running:
                self.start(table)
        for table in self.tables[count:]:
            self.stop(table)
        if self.night is not None and self.on_the_wall is None:
            self.on_the_wall = asyncio.create_task(self.screen(self.night))
        await self.drained()
        await asyncio.sleep(settle)
        step = Step(count)
        expected = (count * PHONES + (self.on_the_wall is not None)) * window / POLL_EVERY
        self.step = step
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        logged = self.log.stat().st_size if self.log else 0
        started = time.perf_counter()
        end = started + window
        while time.perf_counter() < end:
            await asyncio.sleep(0.25)
            now = time.perf_counter()
            stuck = sum(1 for t, _ in self.in_flight.values() if (now - t) * 1000 > P95_MS)
            slow = sum(1 for v in step.latencies.values() for x in v if x > P95_MS) + stuck
            if step.errors or slow > 0.05 * expected:
                step.stopped_early = True
                break
        step.seconds = time.perf_counter() - started
        # Answers still awaited when the window closes count, as slow as they are so far.
        now = time.perf_counter()
        for t, kind in list(self.in_flight.values()):
            step.latencies[kind].append((now - t) * 1000)
        used = resource.getrusage(resource.RUSAGE_SELF)
        step.cpu = (used.ru_utime + used.ru_stime) - (cpu.ru_utime + cpu.ru_stime)
        step.log_span = (logged, self.log.stat().st_size if self.log else 0)
        self.step = None
        self.overloaded = not step.held
        return step

    async def quiet(self, budget: float = 60.0) -> None:
        """Until the server answers a poll promptly again, every table stopped. After a number
        not held its queue still holds the requests of phones that gave up waiting: it works
        through them all the same, and a window begun before would measure that backlog rather
        than the number of tables it runs (a number well under the most held was then not held)."""
        table = self.tables[0]
        deadline = time.perf_counter() + budget
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            try:
                await self.request("unchanged poll", "GET", f"/games/{table.game_id}/live?v={self.versions[table.game_id]}",
                                   self.headers("", **{"HX-Request": "true", "HX-Trigger": "board"}))
            except Failed:
                pass
            if time.perf_counter() - started < P95_MS / 1000 / 4:
                return
            await asyncio.sleep(0.25)

    async def drained(self, budget: float = 20.0) -> None:
        """Wait for the answers still awaited (after an overloaded step) before settling anew."""
        deadline = time.perf_counter() + budget
        while time.perf_counter() < deadline and any(
                (time.perf_counter() - t) > 0.5 for t, _ in self.in_flight.values()):
            await asyncio.sleep(0.25)

    async def probe(self, tables: list[Table], seconds: float) -> None:
        """Rounds recorded one a second, each in the next of ``tables`` (games no phone runs):
        a window of N tables holds only N/12 of the model's own rounds, too few for a p95."""
        cookies = [table.cookie for table in tables]
        end = time.perf_counter() + seconds
        at = time.perf_counter()
        turn = 0
        while at < end:
            await self.until(at)
            at += PROBE_EVERY
            seat, game = turn % len(tables), tables[turn % len(tables)].game_id
            turn += 1
            try:
                _, answer, body = await self.request("round screen", "GET", f"/games/{game}/rounds/new",
                                                     self.headers(cookies[seat]))
                self.keep_cookie(cookies, seat, answer)
                token, number, version = read_form(decoded(body, answer))
                _, answer, _ = await self.request(
                    "round", "POST", f"/games/{game}/rounds/new",
                    self.headers(cookies[seat], **{"HX-Request": "true", "X-CSRFToken": token,
                                                   "Referer": self.referer(f"/games/{game}/rounds/new"),
                                                   "Content-Type": "application/x-www-form-urlencoded"}),
                    round_form(token, version, number))
                self.keep_cookie(cookies, seat, answer)
            except (Failed, AttributeError):
                continue

    async def close(self) -> None:
        tasks = [task for tasks in self.running.values() for task in tasks]
        if self.on_the_wall is not None:
            tasks.append(self.on_the_wall)
            self.on_the_wall = None
        self.running.clear()
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=15)


def screen_tag(body: bytes, answer: dict[str, str]) -> str:
    """The tag a big screen (its page or its poll's fragment) shows: its poll asks with it next."""
    found = re.search(r"screen/live\?v=([\w.-]+)", decoded(body, answer))
    return found.group(1) if found else ""


def shown(seen: list[int], seat: int, body: bytes, answer: dict[str, str]) -> None:
    """The version a board (a page or the poll's fragment) shows: its poll asks with it next."""
    found = re.search(r"live\?v=(\d+)", decoded(body, answer))
    if found:
        seen[seat] = max(seen[seat], int(found.group(1)))


class Failed(Exception):
    """A request that failed or was answered with an unexpected status (counted already)."""


def read_form(page: str) -> tuple[str, int, str]:
    """The round screen's form token, round number and game version, from its page."""
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    number = int(re.search(r'name="number" value="(\d+)"', page).group(1))
    return token, number, re.search(r'name="version" value="(\d+)"', page).group(1)


def round_form(token: str, version: str, number: int) -> bytes:
    """The fields the round screen's script sends (static/js/outbox.js, ``enqueue``): the form's
    fields as FormData lists them, less the selected seat, and ``save``. The player who went
    out sends the hidden "made contract" (their box is locked); the others' hands were typed."""
    out, hands = hand_round(number)
    fields = [("csrf_token", token), ("version", version), ("number", str(number))]
    for seat, name in enumerate(NAMES):
        if name == out:
            fields += [("went_out", str(seat)), (f"achieved-{seat}", "on")]
        fields += [(f"hand-{seat}", hands.get(name, "")), (f"points-{seat}", "")]
    fields.append(("save", "1"))
    return urllib.parse.urlencode(fields).encode()


# ============================================================ the search


#: An access log line's request, its status and the app's own time on it (scorekeeper.serving.AccessLog).
LOGGED = re.compile(r'"(\w+) (\S+)" (\d{3}) \S+ ([0-9.]+)ms$')
ROUND_SAVED = ("POST", re.compile(r"/games/\d+/rounds/new"), "200")
POLL_UNCHANGED = ("GET", re.compile(r"/games/\d+/live"), "204")


def times_in_app(log: Path | None, spans: list[tuple[int, int]], wanted: tuple[str, re.Pattern, str]) -> list[float]:
    """The app's own time (ms) on each request of a kind (method, path, status) that the
    server's access log has in its byte ``spans``."""
    if log is None:
        return []
    method, path, status = wanted
    found = []
    with open(log, "rb") as f:
        for start, end in spans:
            f.seek(start)
            for line in f.read(end - start).decode(errors="replace").splitlines():
                logged = LOGGED.search(line)
                if logged and (logged[1], logged[3]) == (method, status) and path.fullmatch(logged[2]):
                    found.append(float(logged[4]))
    return found


@dataclass
class Search:
    server: str
    held: int = 0
    steps: list[Step] = field(default_factory=list)
    ceiling: bool = False  # held every table there was: the figure is a lower bound
    log: Path | None = None  # the server's access log

    @property
    def at_most_held(self) -> list[Step]:
        """The measured windows at the most tables held: the window that held them and the one
        run again with a round every second beside them, held or not. Not a settling, which
        after a number not held still meets that number's backlog; not a smaller number, whose
        rounds flatter the figure."""
        return [s for s in self.steps if s.tables == self.held]

    @property
    def round_times(self) -> list[float]:
        """How long the phone keeping score waited for each round saved there."""
        return [ms for s in self.at_most_held for ms in s.latencies["round"]]

    def in_app(self, wanted: tuple[str, re.Pattern, str]) -> list[float]:
        """The app's own time on each request of a kind saved there (the access log's)."""
        return times_in_app(self.log, [s.log_span for s in self.at_most_held], wanted)

    @property
    def unchanged_polls(self) -> list[float]:
        """How long a phone waited for each unchanged poll there: a request of almost no work."""
        return [ms for s in self.at_most_held for ms in s.latencies["unchanged poll"]]

    @property
    def best(self) -> Step | None:
        passed = [s for s in self.steps if s.held and s.tables == self.held]
        return passed[-1] if passed else None

    def kind_p95(self, kind: str) -> float:
        """A kind of request's p95 over every window held (rounds are few in one window)."""
        return percentile([x for s in self.steps if s.held for x in s.latencies[kind]], 95)

    def kind_count(self, kind: str) -> int:
        return sum(len(s.latencies[kind]) for s in self.steps if s.held)

    def screen_polls(self, status: int) -> list[float]:
        """How long the big screen waited for each of its polls answered ``status`` (204:
        nothing changed; 200: the fragment after a change) over every window held."""
        return [ms for s in self.steps if s.held for answered, ms in s.screen if answered == status]


async def search(name: str, port: int, tables: list[Table], start_versions: dict[int, int], first: int,
                 settle: float, window: float, precision: float = 1.05, rounds: bool = False,
                 log: Path | None = None, tls: ssl.SSLContext | None = None, host: str | None = None) -> Search:
    """The most tables held: doubled from ``first`` (or halved) until one number is held and
    one is not, then bisected (geometrically) until they are within ``precision`` of each other.
    With ``rounds``, the most held run once more while rounds are recorded one a second
    (:meth:`Phones.probe`) in the last PROBE_GAMES of ``tables``, which no table runs."""
    probes, tables = tables[-PROBE_GAMES:], tables[:-PROBE_GAMES]
    phones = Phones(port, tables, start_versions, log, tls, host)
    found = Search(name, log=log)
    held, failed = 0, None
    count = max(1, min(first, len(tables)))
    try:
        while True:
            step = await phones.hold(count, settle, window)
            found.steps.append(step)
            say(f"  {name}: {count:4d} tables: " + describe(step))
            if step.held:
                held = max(held, count)
            else:
                failed = count if failed is None else min(failed, count)
            if failed is None:
                if count >= len(tables):
                    found.ceiling = True
                    break
                count = min(len(tables), count * 2)
            elif held == 0:
                if count == 1:
                    break
                count = max(1, count // 2)
            elif failed / held <= precision or failed - held <= 1:
                break
            else:
                count = round(math.sqrt(held * failed))
                count = min(max(count, held + 1), failed - 1)
        if rounds and held:
            recording = asyncio.create_task(phones.probe(probes, settle + window))
            step = await phones.hold(held, settle, window)
            await recording
            found.steps.append(step)
            say(f"  {name}: {held:4d} tables again, a round recorded every {PROBE_EVERY:g} s beside them: "
                    + describe(step))
    finally:
        await phones.close()
    found.held = held
    return found


def describe(step: Step) -> str:
    late = percentile(step.late_ms, 95)
    rate = step.requests / step.seconds if step.seconds else 0.0
    verdict = "held" if step.held else "NOT held" + (" (stopped early)" if step.stopped_early else "")
    error = f", first: {step.first_error}" if step.first_error else ""
    return (f"{verdict}: {step.requests} requests in {step.seconds:.1f} s ({rate:.0f}/s), p95 {step.p95:.1f} ms, "
            f"{step.errors} errors{error}; client: {100 * step.cpu / max(step.seconds, 1e-9):.0f} % CPU, "
            f"timers p95 {late:.1f} ms late")


# ============================================================ one database


def model(db: Database, threads: int, settle: float = 3.0, window: float = 15.0,
          max_tables: int = 1024) -> dict:
    """The load model on one seeded database: the app, then the floor, each served alone.
    Returns the two searches and the targets' verdicts; prints the table."""
    say("")
    say(f"== table load model on the {db.title} history: {PHONES} phones a table polling every "
            f"{POLL_EVERY:g} s, a round every {ROUND_EVERY / 60:g} min through the round screen, a history or "
            f"player page every {PAGE_EVERY / 60:g} min, the first {len(CLUB) // len(NAMES)} tables a club night's "
            f"with its big screen polling; {settle:g} s settling + {window:g} s measured per number; "
            f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    tables = make_tables(db, max_tables)
    results: dict[str, Search] = {}
    for name, target, ready in (("Scorekeeper", "scorekeeper", "/api/openapi.json"),
                                ("floor", "bench.floor:app", f"/games/{tables[0].game_id}")):
        server = Server(f"table-load-{name.lower()}", target, db, threads)
        try:
            server.ready(ready)
            first = (results["Scorekeeper"].held or 16) if results else 16
            results[name] = asyncio.run(search(name, server.port, tables, versions(db, tables), first,
                                               settle, window, rounds=True,
                                               log=server.log_path))
        finally:
            server.stop()
    say(f"  (load average {os.getloadavg()[0]:.2f} at the end)")
    report(db, results["Scorekeeper"], results["floor"])
    return {"app": results["Scorekeeper"], "floor": results["floor"],
            "verdicts": verdicts(db.title, results["Scorekeeper"], results["floor"])}


def report(db: Database, app: Search, floor: Search) -> None:
    say("")
    say(f"{'server':<14}{'tables held':>12}{'req/s':>8}{'p95 ms':>8}  "
            + "".join(f"{k + ' p95':>22}" for k in KINDS))
    for found in (app, floor):
        best = found.best
        rate = best.requests / best.seconds if best else 0.0
        held = f"{'≥ ' if found.ceiling else ''}{found.held}"
        kinds = "".join(f"{found.kind_p95(k):13.1f} ({found.kind_count(k):5d})" for k in KINDS)
        say(f"{found.server:<14}{held:>12}{rate:8.0f}{(best.p95 if best else 0):8.1f}  {kinds}")
    say("  (each kind's p95 in ms over every window held, with its number of requests)")
    for found in (app, floor):
        same, changed = found.screen_polls(204), found.screen_polls(200)
        say(f"  {found.server}'s big screen over the windows held: {len(same)} polls unchanged (204), "
                f"p95 {percentile(same, 95):.1f} ms; {len(changed)} after a change (the fragment), "
                f"p95 {percentile(changed, 95):.1f} ms")
    worked, polls = app.in_app(ROUND_SAVED), app.in_app(POLL_UNCHANGED)
    say(f"  recording a round at {app.held} tables, {len(worked)} rounds: p95 {percentile(worked, 95):.1f} ms "
            f"the app's own time (its access log), {percentile(app.round_times, 95):.1f} ms as the phone waited; "
            f"an unchanged poll there: {percentile(polls, 95):.1f} ms the app's, {percentile(app.unchanged_polls, 95):.1f} ms "
            "as the phones waited (the rest is every request's wait for the server's turn, which the tables "
            f"held keep within {P95_MS:g} ms)")
    floor_rounds = floor.in_app(ROUND_SAVED)
    say(f"  the floor's round at {floor.held} tables, {len(floor_rounds)} rounds: p95 {percentile(floor_rounds, 95):.1f} ms "
        "its own time")
    if floor.held:
        say(f"  headline: Scorekeeper holds {app.held} tables, the floor {floor.held}: "
                f"{app.held / floor.held:.3f}x (target ≥ {TABLES}x)")


def verdicts(title: str, app: Search, floor: Search) -> list[tuple[bool | None, str]]:
    ratio = app.held / floor.held if floor.held else 0.0
    worked, floors = app.in_app(ROUND_SAVED), floor.in_app(ROUND_SAVED)
    ours, theirs = percentile(worked, 95), percentile(floors, 95)
    return [
        (ratio >= TABLES, f"{title}: table load model: {app.held} tables held, the floor {floor.held}"
                          f"{' (every table there was)' if floor.ceiling else ''}: {ratio:.3f}x (≥ {TABLES}x)"),
        (ours <= ROUND * theirs if worked and floors else None,
         f"{title}: recording a round under the load model: p95 {ours:.1f} ms of the app's own time over "
         f"{len(worked)} rounds with {app.held} tables running, the floor's {theirs:.1f} ms over {len(floors)} at "
         f"{floor.held}: {ours / theirs if theirs else float('inf'):.2f}x (≤ {ROUND:g}x); the phone waited "
         f"{percentile(app.round_times, 95):.1f} ms, an unchanged poll's {percentile(app.unchanged_polls, 95):.1f} ms"),
    ]


# ============================================================ alone


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=int(os.environ.get("THREADS", SERVED_THREADS)))
    parser.add_argument("--games", type=int, default=10_000, help="finished games in the history")
    parser.add_argument("--window", type=float, default=15.0, help="seconds measured per number of tables")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds before each window")
    parser.add_argument("--max-tables", type=int, default=1024)
    parser.add_argument("--postgres", action="store_true", help="on PostgreSQL rather than SQLite")
    opts = parser.parse_args()
    server, holder = None, None
    if opts.postgres:
        server = os.environ.get("TEST_DATABASE_URL")
        if not server:
            server, holder = start_postgres(int(os.environ.get("PGPORT_BENCH", "5498")))
        if not server:
            say("no PostgreSQL server could be started")
            return 2
    system = PostgreSQL(server) if server else SQLite()
    db = None
    try:
        with tempfile.TemporaryDirectory(prefix="scorekeeper-tables-") as work:
            db = Database("large", system, Path(work) / "large", opts.games, 20)
            build(db, processes=min(2, os.cpu_count() or 1))
            say(f"Seeded {db.title}: {db.games:,} games in {db.seconds:.0f} s")
            done = model(db, opts.threads, opts.settle, opts.window, opts.max_tables)
            say("")
            for ok, text in done["verdicts"]:
                say(f"{'NOTE' if ok is None else 'PASS' if ok else 'FAIL'}  {text}")
    finally:
        if db is not None and db.url:
            system.drop(db.url)
        stop_postgres(holder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
