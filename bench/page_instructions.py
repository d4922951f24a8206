"""Instructions each page of `make bench` costs in process, counted by callgrind, and the floor's.

A page's p95 against the floor's moves by a few tenths from one run of `make bench` to the
next on a shared machine (docs/performance.md); a count of instructions does not: for
comparing two versions of the read path. It seeds the small history `make bench` uses (120
games) into a new SQLite database, opens the scoreboard's edit link as the benchmark's phone
does (its session cookie), and then calls the WSGI app directly, as gunicorn would, with the
benchmark's phone headers: 50 requests to warm up, then 200 counted. Only the counted ones are
collected: they run inside the one comparison libc's ``qsort_r`` makes of two numbers, and
callgrind collects inside that function alone (``--toggle-collect``). Two endpoints at a time,
about nine minutes in all on two cores.

    .venv/bin/python -m bench.page_instructions [endpoint ...]
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import seed
from bench.common import PHONE, ROOT, SECRET

COUNTED = 200
ENDPOINTS = ["floor", "scoreboard", "history", "history-last", "player", "ratings", "file", "poll"]


def build(work: Path) -> dict:
    """The small history, and what the benchmark picks from it."""
    from sqlalchemy import func, select

    from scorekeeper import create_app

    from scorekeeper.store import access
    from scorekeeper.club.history import PER_PAGE
    from scorekeeper.store.models import Game, Round, Seat, db

    url = f"sqlite:///{work / 'pages.sqlite'}"
    env = {**os.environ, "FLASK_SQLALCHEMY_DATABASE_URI": url, "FLASK_SECRET_KEY": SECRET}
    subprocess.run([sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"], cwd=ROOT,
                   env=env, check=True, capture_output=True)
    app = create_app({"SECRET_KEY": SECRET, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        seed.seed(100, 20)  # make bench's small history: 100 finished games, 20 in progress
        rounds = func.count(Round.id)
        board = db.session.execute(
            select(Game.id).join(Round, Round.game_id == Game.id).where(Game.finished_at.is_(None))
            .group_by(Game.id).order_by(rounds.desc(), Game.id).limit(1)).scalar_one()
        key = access.issue_key(db.session.get(Game, board))
        db.session.commit()
        chosen = {
            "url": url, "board": board, "key": key, "version": db.session.get(Game, board).version,
            "player": db.session.execute(
                select(Seat.player_id).group_by(Seat.player_id)
                .order_by(func.count(Seat.id).desc(), Seat.player_id).limit(1)).scalar_one(),
            "file": db.session.scalar(select(Game.id).where(Game.finished_at.is_not(None))
                                      .order_by(Game.started_at.desc()).limit(1)),
            "last_page": max(1, -(-db.session.scalar(select(func.count(Game.id))) // PER_PAGE)),
        }
        db.session.remove()
        db.engine.dispose()
    return chosen


def environ(path: str, headers: dict[str, str]) -> dict:
    """A request as gunicorn hands it to the app."""
    path_info, _, query = path.partition("?")
    out = {"REQUEST_METHOD": "GET", "SCRIPT_NAME": "", "PATH_INFO": path_info, "QUERY_STRING": query,
           "RAW_URI": path, "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "8000", "SERVER_PROTOCOL": "HTTP/1.1",
           "REMOTE_ADDR": "127.0.0.1", "REMOTE_PORT": "50000", "HTTP_HOST": "127.0.0.1:8000",
           "wsgi.url_scheme": "http", "wsgi.errors": sys.stderr, "wsgi.multithread": False,
           "wsgi.multiprocess": True, "wsgi.run_once": False, "wsgi.version": (1, 0)}
    for name, value in headers.items():
        out["HTTP_" + name.upper().replace("-", "_")] = value
    return out


def phone_cookie(app, chosen: dict) -> str:
    """The session cookie of the phone keeping score (bench/servers.py's phone_cookie, in process)."""
    client = app.test_client()
    join = f"/games/{chosen['board']}/join"
    page = client.get(join, headers={**PHONE, "Accept-Encoding": "identity"}).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    answer = client.post(join, data={"csrf_token": token, "key": chosen["key"]},
                         headers={**PHONE, "Referer": f"http://localhost{join}"})
    assert answer.status_code in (302, 303), answer.status_code
    client.get(f"/games/{chosen['board']}", headers=PHONE)  # shows, and so clears, its message
    return "session=" + client.get_cookie("session").value


def measured(name: str, chosen: dict) -> None:
    """The program callgrind runs: one endpoint, warmed up, then counted."""
    if name == "floor":
        os.environ["FLOOR_DATABASE"] = chosen["url"].removeprefix("sqlite:///")
        from bench.floor import app

        request = environ(f"/games/{chosen['board']}", PHONE)
    else:
        from scorekeeper import create_app

        app = create_app({"SECRET_KEY": SECRET, "SQLALCHEMY_DATABASE_URI": chosen["url"], "RATELIMIT_ENABLED": False})
        phone = {**PHONE, "Cookie": phone_cookie(app, chosen)}
        board = f"/games/{chosen['board']}"
        path, extra = {
            "scoreboard": (board, {}),
            "poll": (f"{board}/live?v={chosen['version']}&watch=1", {"HX-Request": "true", "HX-Trigger": "board"}),
            "history": ("/history", {}),
            "history-last": (f"/history?page={chosen['last_page']}", {}),
            "player": (f"/players/{chosen['player']}", {}),
            "ratings": ("/ratings", {}),
            "file": (f"/games/{chosen['file']}.json", {}),
        }[name]
        request = environ(path, {**phone, **extra})
    statuses = []

    def answer() -> None:
        def start_response(status, _headers, _exc=None):
            statuses.append(status)
        body = app(dict(request, **{"wsgi.input": io.BytesIO(b"")}), start_response)
        b"".join(body)
        getattr(body, "close", lambda: None)()

    for _ in range(50):
        answer()
    assert statuses[-1].startswith(("200", "204")), (name, statuses[-1])

    def compare(_a, _b) -> int:
        for _ in range(COUNTED):
            answer()
        return 0

    libc = ctypes.CDLL("libc.so.6")
    numbers = (ctypes.c_int * 2)(1, 2)
    libc.qsort(numbers, 2, ctypes.sizeof(ctypes.c_int),
               ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(compare))


def counted(name: str, chosen_file: Path) -> int:
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          "--toggle-collect=*qsort_r*", sys.executable, "-m", "bench.page_instructions", "--measure", name, str(chosen_file)],
                         capture_output=True, text=True, cwd=ROOT)
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None or "Traceback" in run.stderr:
        raise RuntimeError(f"{name}: {run.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--measure":
        measured(sys.argv[2], json.loads(Path(sys.argv[3]).read_text()))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is missing: apt-get install -y valgrind")
    names = sys.argv[1:] or ENDPOINTS
    unknown = set(names) - set(ENDPOINTS)
    if unknown:
        sys.exit(f"unknown endpoints {sorted(unknown)}: choose from {', '.join(ENDPOINTS)}")
    work = Path(tempfile.mkdtemp(prefix="scorekeeper-page-instructions-"))
    try:
        chosen_file = work / "chosen.json"
        chosen_file.write_text(json.dumps(build(work)))
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            for name, total in zip(names, pool.map(lambda n: counted(n, chosen_file), names), strict=True):
                print(f"{name:<14}{total / COUNTED / 1e6:6.2f} million instructions a request", flush=True)
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
