"""Nothing lost, nothing doubled: the real server (its threads), a crash, upgrades, backups."""

from __future__ import annotations

import http.client
import shutil
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import ON_POSTGRES
from server import AppServer

from scorekeeper.files.gamefile import game_document, read_game

GAME = {"format": "scorekeeper-game/1", "rules": "balmoral", "players": ["Ann", "Ben", "Cat"],
        "first_dealer": "Ann", "rounds": []}


def a_round(number: int, variant: int = 0) -> dict:
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    return {"number": number, "went_out": "Ann",
            "hands": {"Ben": ranks[variant % 13], "Cat": ranks[(variant // 13) % 13]}}


SQLITE_ONLY = pytest.mark.skipif(ON_POSTGRES, reason="SQLite-specific (file copy, PRAGMA); run in the SQLite pass")


@pytest.fixture
def server(database, tmp_path):
    server = AppServer(database, tmp_path, threads=4).start()
    yield server
    server.stop()


def new_game(server: AppServer) -> tuple[int, str]:
    status, body = server.request("POST", "/api/games", GAME)
    assert status == 201, body
    return body["id"], body["edit_key"]


def rounds_of(server: AppServer, game_id: int) -> list[dict]:
    status, body = server.request("GET", f"/api/games/{game_id}")
    assert status == 200
    return body["rounds"]


def test_concurrent_writes_under_four_threads(server):
    game_id, key = new_game(server)
    with ThreadPoolExecutor(max_workers=16) as pool:
        same = list(pool.map(lambda _: server.request("POST", f"/api/games/{game_id}/rounds", a_round(1), key),
                             range(50)))
    statuses = [s for s, _ in same]
    assert all(200 <= s < 300 or s == 409 for s in statuses), statuses
    assert len(rounds_of(server, game_id)) == 1
    assert all(body == same[0][1] for s, body in same if s == 201)

    with ThreadPoolExecutor(max_workers=16) as pool:
        different = list(pool.map(
            lambda i: server.request("POST", f"/api/games/{game_id}/rounds", a_round(2, i + 1), key), range(50)))
    statuses = sorted(s for s, _ in different)
    assert statuses.count(201) == 1 and statuses.count(409) == 49, (statuses[-3:], [b for s, b in different if s not in (201, 409)])
    assert len(rounds_of(server, game_id)) == 2

    games = [new_game(server) for _ in range(20)]

    def play(game):
        gid, gkey = game
        return [server.request("POST", f"/api/games/{gid}/rounds", a_round(n, n), gkey)[0] for n in range(1, 4)]

    with ThreadPoolExecutor(max_workers=20) as pool:
        results = list(pool.map(play, games))
    assert all(s == 201 for statuses in results for s in statuses), results
    assert all(len(rounds_of(server, gid)) == 3 for gid, _ in games)


@SQLITE_ONLY
def test_a_crash_in_the_middle_of_writes_loses_no_acknowledged_round(database, tmp_path):
    server = AppServer(database, tmp_path, threads=2).start()
    games = [new_game(server) for _ in range(4)]
    acknowledged: dict[int, int] = {gid: 0 for gid, _ in games}
    stop = threading.Event()

    def writer(game):
        gid, key = game
        number = 1
        while not stop.is_set() and number <= 6:
            try:
                # Up to 30 s to answer: a writer that gave up sooner on a slow
                # machine would leave nothing acknowledged to check.
                status, _ = server.request("POST", f"/api/games/{gid}/rounds", a_round(number, number), key)
            except (OSError, http.client.HTTPException):  # the crash, a timeout, or an answer cut
                return  # short by the crash (not acknowledged): this game's writer stops
            if status == 201:
                acknowledged[gid] = number
                number += 1

    threads = [threading.Thread(target=writer, args=(g,)) for g in games]
    for t in threads:
        t.start()
    # Killed once a few rounds are in (waited for, not slept on: a slow machine may take
    # longer than a fast one to store the first), while the rest are still being sent.
    deadline = time.monotonic() + 30
    while sum(acknowledged.values()) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    server.kill()
    stop.set()
    for t in threads:
        t.join(timeout=30)
    path = database.removeprefix("sqlite:///")
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    restarted = AppServer(database, tmp_path, threads=2).start()
    try:
        assert sum(acknowledged.values()) > 0, "the crash came before any write: the test proves nothing"
        for gid, count in acknowledged.items():
            stored = len(rounds_of(restarted, gid))
            assert stored >= count, f"game {gid}: {count} acknowledged, {stored} stored"
    finally:
        restarted.stop()


@pytest.mark.slow
@SQLITE_ONLY
def test_an_online_backup_while_writing_restores_every_game(database, tmp_path, server, migrated_sqlite):
    import subprocess
    import sys

    from server import ROOT, app_env

    games = [new_game(server) for _ in range(5)]
    for gid, key in games:
        for n in range(1, 3):
            assert server.request("POST", f"/api/games/{gid}/rounds", a_round(n, n), key)[0] == 201
    target = tmp_path / "backup.sqlite"
    busy = threading.Thread(target=lambda: [server.request("POST", "/api/games", GAME) for _ in range(15)])
    busy.start()
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "scorekeeper", "backup", str(target)],
                          cwd=ROOT, env=app_env(database, tmp_path), capture_output=True, text=True)
    busy.join()
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(target) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = conn.execute("SELECT count(*) FROM round").fetchone()[0]
    assert stored == 10
    # Restore into a fresh place and read every game back through the app.
    fresh = tmp_path / "restored"
    fresh.mkdir()
    restored_url = f"sqlite:///{fresh / 'live.sqlite'}"
    shutil.copyfile(migrated_sqlite, fresh / "live.sqlite")  # as `flask db upgrade` makes it
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "scorekeeper", "restore", "--yes", str(target)],
                          cwd=ROOT, env=app_env(restored_url, fresh), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    server = AppServer(restored_url, fresh, threads=1).start()
    try:
        for gid, _ in games:
            assert len(rounds_of(server, gid)) == 2
    finally:
        server.stop()


def test_expected_results_survive_json_round_trip():
    doc = {**GAME, "rounds": [{k: v for k, v in a_round(1, 3).items() if k != "number"}]}
    state = read_game(doc).state
    assert game_document(state)["result"]["players"][1]["total"] == 5
