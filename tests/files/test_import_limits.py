"""An import over the web ends within seconds or is refused at once, in words: a file with more
games or rounds than the server imports at once (IMPORT_MAX_GAMES, IMPORT_MAX_ROUNDS) is counted
before any game is read and refused with a 413 that names ``flask games import``, which has no
such limit; nothing is stored. The largest import the server takes is taken whole (how long it
takes, and how long it holds the write lock, is bench/import_lock.py's to measure, not a test's)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from conftest import CLUB_KEY
from factories import games_stored, text, upload_bytes

from scorekeeper.files import transfer
from scorekeeper.files.gamefile import backup_document

AUTH = {"Authorization": f"Bearer {CLUB_KEY}"}
PLAYERS = ["Ann", "Ben", "Cat", "Dev"]
CLI = "flask --app scorekeeper games import FILE"


def games(count: int, rounds: int) -> list[dict]:
    """Lawful games of Balmoral, each of ``rounds`` rounds (nobody makes a contract, so none ends)."""
    start = datetime(2024, 1, 5, 19, tzinfo=UTC)
    return [{"format": "scorekeeper-game/1", "rules": "balmoral", "players": PLAYERS, "first_dealer": "Ann",
             "started_at": (start + timedelta(minutes=i)).isoformat(),
             "rounds": [{"went_out": PLAYERS[r % 4],
                         "hands": {p: f"K Q {2 + (i + r) % 8}" for p in PLAYERS if p != PLAYERS[r % 4]}}
                        for r in range(rounds)]}
            for i in range(count)]


def test_a_backup_of_20000_games_is_refused_at_once_in_words_and_nothing_is_stored(app, web, monkeypatch):
    # Counted, not read: refused before a single game of the file is read.
    def read_files(doc):
        raise AssertionError("a game of a file over the limit was read")

    monkeypatch.setattr(transfer, "read_files", read_files)
    doc = backup_document(games(20_000, 1))
    body = json.dumps(doc)
    response = web.post("/api/import", data=body, content_type="application/json", headers=AUTH)
    assert response.status_code == 413
    message = response.get_json()["error"]["message"]
    assert "holds 20,000 games" in message and "at most 2,000 games" in message and CLI in message
    assert games_stored(app) == 0

    page = upload_bytes(web, body.encode())  # built in memory: the test client would spool it to a file
    assert page.status_code == 413
    assert "backup.json: The file holds 20,000 games; the server imports at most 2,000 games at once" in text(page)
    assert CLI in text(page) and "Nothing was stored." in text(page)
    assert games_stored(app) == 0


def test_too_many_rounds_in_all_are_refused_too(app, web):
    response = web.post("/api/import", json=backup_document(games(101, 200)), headers=AUTH)
    assert response.status_code == 413
    message = response.get_json()["error"]["message"]
    assert "holds 20,200 rounds" in message and CLI in message
    assert games_stored(app) == 0


def test_the_limits_are_configured_and_said_on_the_import_page(app, web):
    app.config.update(IMPORT_MAX_GAMES=3, IMPORT_MAX_ROUNDS=100)
    assert "At most 3 games (100 rounds) and 32 MB at once." in text(web.get("/import"))
    assert web.post("/api/import", json=backup_document(games(3, 2)), headers=AUTH).status_code == 200
    refused = web.post("/api/import", json=backup_document(games(4, 2)), headers=AUTH)
    assert refused.status_code == 413 and "holds 4 games" in refused.get_json()["error"]["message"]
    assert games_stored(app) == 3


def test_the_command_line_imports_what_the_web_refuses(app, runner, tmp_path):
    app.config.update(IMPORT_MAX_GAMES=50)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(backup_document(games(60, 1))))
    done = runner.invoke(args=["games", "import", str(path)])
    assert done.exit_code == 0, done.output
    assert games_stored(app) == 60


@pytest.mark.slow
def test_the_largest_import_the_server_takes_is_taken_whole(app, web):
    most_games, most_rounds = transfer.IMPORT_MAX_GAMES, transfer.IMPORT_MAX_ROUNDS
    doc = backup_document(games(most_games, most_rounds // most_games))
    response = web.post("/api/import", json=doc, headers=AUTH)
    assert response.status_code == 200
    assert [g["status"] for g in response.get_json()["games"]] == ["new"] * most_games
    assert games_stored(app) == most_games
