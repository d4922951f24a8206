"""The deploy's daily backup (deploy/backup.sh: the app's JSON backup and pg_dump, two weeks
kept) and its restore (deploy/restore.sh), on the stack's PostgreSQL with the deploy's settings."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from server import ROOT

GAME = {"format": "scorekeeper-game/1", "rules": "balmoral", "players": ["Ann", "Ben"], "first_dealer": "Ann",
        "rounds": [{"went_out": "Ben", "hands": {"Ann": "K 9"}}]}
DAY = 24 * 3600


def deploy_script(stack, name: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, **stack.state["env"]}
    return subprocess.run(["sh", str(ROOT / "deploy" / name), *args], env=env, capture_output=True, text=True,
                          timeout=120)


def test_the_daily_backup_keeps_two_weeks_and_its_restore_puts_the_games_back(stack):
    client = stack.https()
    assert client.request("POST", "/api/games", GAME)[0] == 201
    folder = Path(stack.state["env"]["SCOREKEEPER_BACKUPS"])
    folder.mkdir(parents=True, exist_ok=True)
    # Yesterday's and older backups: those older than two weeks go.
    kept, gone = folder / "scorekeeper-13-days.dump", folder / "scorekeeper-15-days.dump"
    for path, days in ((kept, 13), (gone, 15)):
        path.write_bytes(b"old")
        os.utime(path, (time.time() - days * DAY - 60, time.time() - days * DAY - 60))
    done = deploy_script(stack, "backup.sh")
    assert done.returncode == 0, done.stderr
    assert kept.exists() and not gone.exists()
    (dump,) = folder.glob("scorekeeper-20*.dump")
    (backup,) = folder.glob("scorekeeper-20*.json")
    assert [g["players"] for g in json.loads(backup.read_text())["games"]] == [["Ann", "Ben"]]
    # A game after the backup, then the backup put back: the database is as it was then.
    assert client.request("POST", "/api/games", {**GAME, "players": ["Cat", "Dev"], "first_dealer": "Cat",
                                                 "rounds": [{"went_out": "Dev", "hands": {"Cat": "A"}}]})[0] == 201
    restored = deploy_script(stack, "restore.sh", str(dump))
    assert restored.returncode == 0, restored.stderr
    status, _, game = client.request("GET", "/api/games/1")
    assert status == 200 and game["players"] == ["Ann", "Ben"] and len(game["rounds"]) == 1
    assert client.request("GET", "/api/games/2")[0] == 404
    # And a file that is no backup changes nothing.
    broken = folder / "broken.dump"
    broken.write_bytes(b"not a dump")
    assert deploy_script(stack, "restore.sh", str(broken)).returncode != 0
    assert client.request("GET", "/api/games/1")[0] == 200
