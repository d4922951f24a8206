"""How the benchmark measures: wrk on an endpoint in turns with its floor, rounds recorded in
turns with the write floor's bare commits, and a server's first and warm answers."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import PHONE, Figures, fetch, say, statuses
from bench.databases import Database, add_round_games, going_on, rounds_in
from bench.servers import Server

FRESH_STARTS = 5        # a first answer: the median over this many fresh starts of the server
#: Requests sent at once when a first or a warm answer is timed: as many as the cores, as two
#: phones' polls may arrive together.
AT_ONCE = 2


WARM = 1.2              # warmed up: no round of answers 1.2x faster than the fastest before it
IDLE = 0.3              # seconds the server idles before each warm answer timed, as before a first


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


def check_status(app: Server, endpoint: Endpoint) -> None:
    status, _, body = fetch(app.base + endpoint.path, {**PHONE, **endpoint.headers})
    if status != endpoint.expect:
        raise RuntimeError(f"{endpoint.name}: {endpoint.path} answered {status}, not {endpoint.expect}: {body[:300]!r}")


def prime(url: str, headers: dict[str, str], at_once: int = AT_ONCE, budget: float = 120) -> float:
    """Warm the server up: ``at_once`` requests at a time, until it stops getting faster (three
    rounds running none of which beat the fastest before it by WARM times), or ``budget`` seconds.
    Returns the slowest of the first ones (a fresh server's first answer).

    Warm is judged against the page's own answers, not a fixed time: a page that takes 100 ms
    on a busy machine never got under a fixed 0.1 s, and every fresh start of the server then
    spent the whole budget on it."""
    def timed(_):
        started = time.perf_counter()
        fetch(url, headers)
        return time.perf_counter() - started

    deadline = time.monotonic() + budget
    steady, fastest = 0, float("inf")
    with ThreadPoolExecutor(at_once * 2) as pool:
        first = max(pool.map(timed, range(at_once)))
        while time.monotonic() < deadline and steady < 3:
            slowest = max(pool.map(timed, range(at_once * 2)))
            steady = steady + 1 if slowest * WARM >= fastest else 0
            fastest = min(fastest, slowest)
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
