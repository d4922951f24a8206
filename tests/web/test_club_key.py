"""The club's keeper: who may change what belongs to the club, not to one game."""

from __future__ import annotations

import json
import stat

import pytest
from conftest import CLUB_KEY, close, form_token, make_app, make_keeper
from history_games import random_docs

from scorekeeper.web import clubkey as club
from scorekeeper.store.models import Game, db

KEEPER_ONLY = "Only the club\u2019s keeper can"
AUTH = {"Authorization": f"Bearer {CLUB_KEY}"}


def import_as_keeper(app, doc) -> list[int]:
    keeper = make_keeper(app.test_client())
    response = keeper.post("/api/import", json=doc, headers=AUTH)
    assert response.status_code == 200, response.text
    return [g["id"] for g in response.get_json()["games"]]


@pytest.fixture
def finished(app):
    """A finished game of three, and who won it."""
    [doc] = random_docs(1, seed=16, players=["Wendy", "Ann", "Ben"])
    [game_id] = import_as_keeper(app, doc)
    game = app.test_client().get(f"/api/games/{game_id}").get_json()
    assert game["result"]["finished"]
    return game_id, game["result"]["winners"]


def player_id(app, name: str) -> int:
    with app.app_context():
        from scorekeeper import store

        return store.find_player(name).id


def test_a_stranger_cannot_rename_players_to_swap_a_finished_games_winner(app, stranger, web, finished):
    game_id, winners = finished
    winner, other = winners[0], next(n for n in ("Wendy", "Ann", "Ben") if n not in winners)
    # The swap: the winner to a spare name, the other to the winner's, the spare to the other's.
    refused = stranger.post(f"/players/{player_id(app, winner)}/edit", data={"name": "Spare"})
    assert refused.status_code == 403
    assert f"{KEEPER_ONLY} rename players" in refused.text and "club link" in refused.text
    assert stranger.get(f"/players/{player_id(app, other)}/edit").status_code == 403
    assert app.test_client().get(f"/api/games/{game_id}").get_json()["result"]["winners"] == winners
    # The keeper may.
    assert web.post(f"/players/{player_id(app, winner)}/edit", data={"name": "Spare"}).status_code == 303
    assert app.test_client().get(f"/api/games/{game_id}").get_json()["result"]["winners"] == ["Spare"]


def test_a_stranger_cannot_remove_a_player(app, stranger, web):
    stranger.post("/players/", data={"name": "Zed"})  # anyone may add one (a game adds them too)
    zed = player_id(app, "Zed")
    assert stranger.post(f"/players/{zed}/remove").status_code == 403
    assert player_id(app, "Zed") == zed
    assert web.post(f"/players/{zed}/remove").status_code == 303


def test_an_anonymous_import_and_backup_are_refused(app, stranger):
    doc = random_docs(1, seed=3)[0]
    upload = stranger.post("/import", data={"file": (__import__("io").BytesIO(json.dumps(doc).encode()), "g.json")},
                           content_type="multipart/form-data")
    assert upload.status_code == 403 and f"{KEEPER_ONLY} import files" in upload.text
    assert stranger.get("/import").status_code == 403
    backup = stranger.get("/backup.json")
    assert backup.status_code == 403 and f"{KEEPER_ONLY} download the backup" in backup.text
    with app.app_context():
        assert db.session.query(Game).count() == 0


def test_the_api_takes_the_club_key_as_a_bearer_token(app, client):
    doc = random_docs(1, seed=4)[0]
    # No key at all: 401 asking for one (RFC 9110); another key: 403. The page's backup: 403.
    for headers, status in (({}, 401), ({"Authorization": "Bearer not-the-club-key"}, 403)):
        refused = client.post("/api/import", json=doc, headers=headers)
        assert refused.status_code == status
        assert KEEPER_ONLY in refused.get_json()["error"]["message"]
        if status == 401:
            assert refused.headers["WWW-Authenticate"].lower().startswith("bearer")
        assert client.get("/api/backup", headers=headers).status_code == status
        assert client.get("/backup.json", headers=headers).status_code == 403
    imported = client.post("/api/import", json=doc, headers=AUTH)
    assert imported.status_code == 200
    [game] = imported.get_json()["games"]
    assert game["status"] == "new" and len(game["edit_key"]) > 30
    again = client.post("/api/import", json=doc, headers=AUTH).get_json()["games"]
    assert again == [{"number": 1, "id": game["id"], "status": "existing"}]
    backup = client.get("/api/backup", headers=AUTH)
    assert backup.status_code == 200 and backup.headers["Cache-Control"] == "no-store"
    assert len(backup.get_json()["games"]) == 1
    assert client.get("/backup.json", headers=AUTH).status_code == 200
    # The bearer token is no cookie: the browser's session did not become the keeper.
    assert client.get("/backup.json").status_code == 403


def test_restore_is_the_keepers_or_the_games_scorekeepers_and_purge_the_keepers(app, stranger, web):
    started = stranger.post("/games/new", data={"seat-0": "Ann", "seat-1": "Ben", "rules": "balmoral",
                                                "start": "1"})
    game_id = int(started.headers["Location"].rsplit("/", 1)[1])
    assert stranger.post(f"/games/{game_id}/delete").status_code == 303
    # Whoever deleted it (it holds the edit key) may undo that ...
    assert stranger.post(f"/games/{game_id}/restore").status_code == 303
    assert stranger.post(f"/games/{game_id}/delete").status_code == 303
    # ... but not delete it for good; nor may anyone else restore it.
    purge = stranger.post(f"/games/{game_id}/purge")
    assert purge.status_code == 403 and f"{KEEPER_ONLY} delete a game for good" in purge.text
    other = app.test_client()
    app.config["WTF_CSRF_ENABLED"] = False
    refused = other.post(f"/games/{game_id}/restore")
    assert refused.status_code == 403 and f"{KEEPER_ONLY} restore a deleted game" in refused.text
    assert web.post(f"/games/{game_id}/restore").status_code == 303
    assert web.post(f"/games/{game_id}/delete").status_code == 403  # a delete is the scorekeeper's
    assert stranger.post(f"/games/{game_id}/delete").status_code == 303
    assert web.post(f"/games/{game_id}/purge").status_code == 303
    with app.app_context():
        assert db.session.get(Game, game_id) is None


def test_the_keepers_buttons_are_hidden_from_everyone_else(app, stranger, web, finished):
    for client, shown in ((stranger, False), (web, True)):
        assert ("Rename" in client.get("/players/").text) is shown
        assert ("Backup and restore" in client.get("/").text) is shown
        assert ("Backup and restore" in client.get("/history").text) is shown


def test_the_club_link_makes_a_browser_the_keeper(app, client):
    page = client.get("/club")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    token = form_token(client, "/club")
    wrong = client.post("/club", data={"csrf_token": token, "key": "nonsense"})
    assert wrong.status_code == 403 and "not the club key" in wrong.text
    assert client.get("/backup.json").status_code == 403
    right = client.post("/club", data={"csrf_token": token, "key": CLUB_KEY})
    assert right.status_code == 303
    assert client.get("/backup.json").status_code == 200
    assert "Stop being the keeper" in client.get("/club").text
    assert client.post("/club/leave", data={"csrf_token": token}).status_code == 303
    assert client.get("/backup.json").status_code == 403


@pytest.fixture
def instance_app(tmp_path, monkeypatch):
    """An app with its own instance folder and no club key set in its configuration."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    app = make_app(tmp_path, CLUB_KEY_HASH=None, WTF_CSRF_ENABLED=False)
    yield app
    close(app)


def test_flask_club_key_prints_a_link_keeps_only_the_hash_and_revokes_the_old_key(instance_app, tmp_path):
    runner = instance_app.test_cli_runner()
    nobody = instance_app.test_client()
    assert nobody.get("/backup.json").status_code == 403  # no key made yet: no keeper
    first = runner.invoke(args=["club-key", "--first", "--base-url", "http://192.168.1.5:8000",
                                "--base-url", "http://localhost:8000"])
    assert first.exit_code == 0, first.output
    links = [w for w in first.output.split() if w.startswith("http")]
    assert [link.partition("#key=")[0] for link in links] == ["http://192.168.1.5:8000/club",
                                                              "http://localhost:8000/club"]
    key = links[0].partition("#key=")[2]
    assert links[1].endswith(key) and len(key) > 30
    stored = tmp_path / "instance" / "club_key"
    assert key not in stored.read_text() and stored.read_text().strip() == club.digest(key)
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    # `make run` again: the same key stays.
    again = runner.invoke(args=["club-key", "--first"])
    assert again.exit_code == 0 and "#key=" not in again.output and "club-key" in again.output
    keeper = instance_app.test_client()
    assert keeper.post("/club", data={"key": key}).status_code == 303
    assert keeper.get("/backup.json").status_code == 200
    # A new key: the old one stops working, at once, in the running app.
    new = runner.invoke(args=["club-key"])
    new_key = new.output.split("#key=")[1].split()[0]
    assert new_key != key
    assert keeper.get("/backup.json").status_code == 403
    assert instance_app.test_client().post("/club", data={"key": key}).status_code == 403
    assert instance_app.test_client().post("/club", data={"key": new_key}).status_code == 303
