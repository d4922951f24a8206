"""`make bench-rounds`: recording a round, measured alone, as `make bench` measures it.

`make bench` takes twenty minutes; this takes about one. It seeds a small history on SQLite,
serves Scorekeeper as `make run` does (``flask serve``), and records rounds through the API in
turns with the write floor's bare commits (:func:`record_rounds`, the same function and
figures as `make bench`), ``--repeat`` times, printing each time the rounds a second, the
floor's commits a second and their ratio (a diagnostic: at least 0.1x). For trying a change to
the write path: this machine's speed drifts by a fifth or more within minutes, so compare runs
made one after the other, in turns, not a figure with one from another hour.
On SQLite; with ``--postgres``, on a throw-away PostgreSQL server started as `make bench`
starts it (or the one TEST_DATABASE_URL names).

    .venv/bin/python -m bench.rounds [--repeat 3] [--threads 4] [--postgres]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from scorekeeper.serving import THREADS as SERVED_THREADS  # what `make run` serves with

from bench.common import BENCH
from bench.databases import Database, PostgreSQL, SQLite, build, start_postgres, stop_postgres
from bench.measure import ensure_wrk, record_rounds
from bench.servers import Server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="measurements, one after the other")
    parser.add_argument("--threads", type=int, default=SERVED_THREADS)
    parser.add_argument("--games", type=int, default=100, help="finished games in the history")
    parser.add_argument("--postgres", action="store_true", help="on PostgreSQL rather than SQLite")
    opts = parser.parse_args()
    # What record_rounds reads of make bench's options, at make bench's defaults.
    bench = argparse.Namespace(threads=opts.threads, connections=4, duration=10, warmup=2, pairs=5,
                               round_games=400)
    wrk_bin = ensure_wrk()
    server, holder = None, None
    if opts.postgres:
        server = os.environ.get("TEST_DATABASE_URL")
        if not server:
            server, holder = start_postgres(int(os.environ.get("PGPORT_BENCH", "5498")))
        if not server:
            sys.exit("no PostgreSQL server could be started")
    try:
        measure(opts, bench, wrk_bin, PostgreSQL(server) if server else SQLite())
    finally:
        stop_postgres(holder)


def measure(opts: argparse.Namespace, bench: argparse.Namespace, wrk_bin: str, system) -> None:
    with tempfile.TemporaryDirectory(prefix="scorekeeper-rounds-") as work:
        db = Database("small", system, Path(work) / "small", opts.games, 20)
        build(db, processes=2)
        app = Server("scorekeeper", "scorekeeper", db, opts.threads)
        try:
            app.ready("/api/openapi.json")
            for _ in range(opts.repeat):
                floor, rounds = record_rounds(app, db, bench, wrk_bin, BENCH / "wrk" / "rounds.lua")
                print(f"record a round: {rounds.rps:.0f}/s (p50 {rounds.p50:.1f} ms, p95 {rounds.p95:.1f} ms), "
                      f"write floor {floor.rps:.0f} commits/s: {rounds.rps / floor.rps:.3f}x (diagnostic ≥ 0.1x); "
                      f"{rounds.note}", flush=True)
        finally:
            app.stop()


if __name__ == "__main__":
    main()
