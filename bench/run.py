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

    .venv/bin/python -m bench.run [--threads 4] [--duration 6] [--quick] [--databases sqlite,postgresql]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request
from pathlib import Path

from scorekeeper.serving import THREADS as SERVED_THREADS  # what `make run` serves with

from bench import lighthouse, page_weight, report, speed_lines, table_load, targets
from bench.common import ARTIFACTS, BENCH, PHONE, ROOT, Figures, decoded, fetch, loudly, say
from bench.databases import Database, PostgreSQL, SQLite, add_round_games, build, start_postgres, stop_postgres
from bench.measure import (FRESH_STARTS, ChangesKept, Endpoint, check_status, ensure_wrk, measure_paired, prime,
                           record_rounds, warm_answer)
from bench.servers import Server, phone_cookie, watcher_cookie
from bench.targets import FLOOR_ANEW



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
    report_script = BENCH / "wrk" / "report.lua"
    rounds_script = BENCH / "wrk" / "rounds.lua"
    apps: dict[str, Server] = {}
    floors: dict[str, Server] = {}
    runs: dict[str, dict] = {db.label: {"results": [], "cold": {}, "warm": {}, "changed": {}} for db in dbs}
    try:
        for db in dbs:
            apps[db.label] = Server(f"scorekeeper-{db.label}", "scorekeeper", db, opts.threads)
            floors[db.label] = Server(f"floor-{db.label}", "bench.floor:app", db, opts.threads)
        for db in dbs:
            apps[db.label].ready("/api/openapi.json")
            floors[db.label].ready(f"/games/{db.board_game}")
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
            for db, (floor, figures) in zip(dbs, measure_paired(wrk_bin, pairs, opts, report_script), strict=True):
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
            run["changed"] = after_a_round(app, floors[db.label], db, endpoints[db.label], keeper)
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


def after_a_round(app: Server, floor: Server, db: Database, endpoints: list[Endpoint], keeper: dict[str, str],
                  rounds: int = 5) -> dict[str, float]:
    """Each page once, just after a round was recorded (in a game of its own, through the API):
    what a page costs when nothing kept can be used; and the floor's page of the same game,
    fetched just before and just after them (the floor keeps nothing: each of its answers is
    worked out anew), under FLOOR_ANEW. The median of each, in milliseconds: the targets hold
    each page against the floor's, timed in the same moments by the same client."""
    games_file = db.instance / "changed-game.txt"
    add_round_games(db, 1, games_file)
    game_id, key, *names = games_file.read_text().split()
    timings: dict[str, list[float]] = {FLOOR_ANEW: []}

    def timed(url: str, headers: dict[str, str]) -> float:
        started = time.perf_counter()
        status, _, _ = fetch(url, headers)
        assert status == 200, (url, status)
        return (time.perf_counter() - started) * 1000

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
        timings[FLOOR_ANEW].append(timed(f"{floor.base}/games/{game_id}", PHONE))
        for name, path in pages:
            timings.setdefault(name, []).append(timed(app.base + path, keeper))
        timings[FLOOR_ANEW].append(timed(f"{floor.base}/games/{game_id}", PHONE))
    return {name: statistics.median(values) for name, values in timings.items()}


def transfer_sizes(db: Database, opts: argparse.Namespace) -> dict:
    """Bytes on the wire (compressed as a phone accepts it) of the scoreboard and the round
    screen: the page itself, and the page with our CSS and scripts (bench/page_weight.py: what
    the page fetches as it loads), with and without htmx."""
    app = Server("scorekeeper-sizes", "scorekeeper", db, opts.threads)
    try:
        app.ready("/api/openapi.json")
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


def taps(opts: argparse.Namespace) -> dict | None:
    """The taps to record a round, from the browser test (run here when Chromium is there)."""
    result = ARTIFACTS / "taps.json"
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
    if not opts.no_browser and Path(chromium).exists():
        if result.exists():
            result.unlink()
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:warnings", "-p", "no:cacheprovider",
                        "tests/browser/test_taps.py"], cwd=ROOT, capture_output=True, timeout=300)
    elif not opts.no_browser and not result.exists():
        say(f"(No Chromium at {chromium}: `sudo apt-get install -y chromium-headless-shell` to count the taps.)")
    elif result.exists():
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(result.stat().st_mtime))
        say(f"(Taps not counted in this run: the figure is the last browser test's, {result} of {when}.)")
    if result.exists():
        return json.loads(result.read_text())
    return None


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
    parser.add_argument("--no-browser", action="store_true", help="do not run the taps test nor Lighthouse")
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
        report.table(db, runs[db.label])
    report.growth_table(system.name, runs["small"]["results"], runs["large"]["results"])
    load = None
    if not opts.no_table_load:
        load = table_load.model(histories["large"], opts.threads, opts.table_settle,
                                opts.table_window, opts.max_tables)
    return {"system": system, "histories": histories, "runs": runs, "load": load}


def figures_json(opts: argparse.Namespace, load: tuple, benched: list[dict], missing: dict[str, str],
                 sizes: dict | None, tapped: dict | None, scored: dict | None,
                 checks: list[targets.Verdict]) -> dict:
    """Everything printed, by database system and history."""
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
        "not_measured": missing, "sizes": sizes, "taps": tapped, "lighthouse": scored,
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
                traceback.print_exc()
                missing[system.name] = f"the run failed: {error}"
                loudly(f"{system.name} NOT benchmarked: {missing[system.name]}")
        if not benched:
            loudly("Nothing was benchmarked.")
            return 1
        # Sizes and taps do not depend on the database: measured once, on the first one benched.
        sizes_from = benched[0]["histories"]["large"]
        sizes = transfer_sizes(sizes_from, opts)
        report.sizes_table(sizes, sizes_from)
        tapped = taps(opts)
        report.taps_table(tapped)
        scored = None if opts.no_browser else lighthouse.performance(sizes_from, opts.threads)
        report.lighthouse_table(scored)
        checks: list[targets.Verdict] = []
        for done in benched:
            checks += targets.database_verdicts(done["system"].name, done["runs"]["small"], done["runs"]["large"])
            if done["load"] is not None:
                checks += done["load"]["verdicts"]
        checks += targets.shared_verdicts(sizes, tapped, scored)
        say("")
        say("== targets")
        for ok, text in checks:
            say(f"{'NOTE' if ok is None else 'PASS' if ok else 'FAIL'}  {text}")
        held = [ok for ok, _ in checks if ok is not None]
        on = " and ".join(done["system"].name for done in benched)
        say(f"{sum(held)} of {len(held)} targets met on {on}; the whole run took {time.monotonic() - began:.0f} s.")
        lines, code = speed_lines.total()
        say(f"Speed-only code: {lines} lines, {code} of them code (bench/speed_lines.py names the pieces).")
        for name, why in missing.items():
            loudly(f"{name} NOT benchmarked: {why}")
        if opts.json:
            opts.json.parent.mkdir(exist_ok=True)
            opts.json.write_text(json.dumps(figures_json(opts, load, benched, missing, sizes, tapped, scored, checks),
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
