"""Instructions a round recorded through the API costs, in process, counted by callgrind.

A count of instructions is the same whatever else the machine is doing, where rounds a second
over HTTP move by a factor of two within minutes on a shared machine (docs/performance.md):
for comparing two versions of the write path. It records rounds in 20 Balmoral games of four
players through Flask's test client (its own work included), twice under
``valgrind --tool=callgrind``: up to round 2 of each, then up to round 20; the difference over
the 360 rounds between is the figure. About two minutes.

    .venv/bin/python -m bench.round_instructions
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import ROOT

NAMES = ["Ann", "Ben", "Cat", "Dev"]
GAMES = 20


def record(last_round: int) -> None:
    """The measured program: a new database, 20 games, rounds 1 to ``last_round`` of each."""
    from scorekeeper import create_app, store
    from scorekeeper.store.imports import GameFile
    from scorekeeper.rules import BALMORAL, GameSetup, start

    work = Path(tempfile.mkdtemp(prefix="scorekeeper-instructions-"))
    url = f"sqlite:///{work / 'rounds.sqlite'}"
    env = {**os.environ, "FLASK_SQLALCHEMY_DATABASE_URI": url, "FLASK_SECRET_KEY": "x" * 40}
    subprocess.run([sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"], cwd=ROOT,
                   env=env, check=True, capture_output=True)
    app = create_app({"SECRET_KEY": "x" * 40, "SQLALCHEMY_DATABASE_URI": url, "RATELIMIT_ENABLED": False})
    setup = GameSetup.create(BALMORAL, NAMES, first_dealer="Ann")
    keys: list[str] = []
    with app.app_context():
        ids = store.import_games([GameFile(setup, (), start(setup), None, None) for _ in range(GAMES)], keys=keys)
    client = app.test_client()
    for number in range(1, last_round + 1):
        out = (number - 1) % 4
        body = {"number": number, "went_out": NAMES[out], "achieved": [],
                "hands": {p: "K Q 7 5 3" for i, p in enumerate(NAMES) if i != out}}
        for game_id, key in zip(ids, keys, strict=True):
            answer = client.post(f"/api/games/{game_id}/rounds", json=body,
                                 headers={"Authorization": f"Bearer {key}", "Accept": "application/json"})
            assert answer.status_code == 201, answer.data[:300]
    shutil.rmtree(work)


def counted(last_round: int) -> int:
    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/callgrind.out",
                              sys.executable, "-m", "bench.round_instructions", "--record", str(last_round)],
                             capture_output=True, text=True, check=True, cwd=ROOT)
    return int(re.search(r"Collected : (\d+)", run.stderr).group(1))


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--record":
        record(int(sys.argv[2]))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is missing: apt-get install -y valgrind")
    few, many = counted(2), counted(20)
    print(f"{(many - few) / (GAMES * 18) / 1e6:.2f} million instructions a round recorded "
          f"(rounds 3 to 20 of {GAMES} games, in process)")


if __name__ == "__main__":
    main()
