"""HTTP's own caching, and nothing kept in a process: every page is worked out from the
database when asked, so a change made through one app server shows at once through another on
the same database; a phone that holds the current version of a board (or of the API's game)
is answered 304 after one query by primary key, a watcher's unchanged poll 204; a page and its
htmx fragment never share an ETag."""

from __future__ import annotations

import re

import pytest
from conftest import close, join, make_keeper
from factories import counted, text
from sqlalchemy import select
from werkzeug.test import Client

from scorekeeper import create_app, store
from scorekeeper.store.models import Game, Player, db

PLAYERS = ["Ann", "Ben", "Cat", "Dev"]
GAME = {"format": "scorekeeper-game/1", "rules": "balmoral", "players": PLAYERS, "first_dealer": "Ann", "rounds": []}
WATCHER = {"HX-Request": "true"}


def a_round(number: int) -> dict:
    out = PLAYERS[(number - 1) % 4]
    return {"number": number, "went_out": out, "hands": {n: "K Q 7 5 3" for n in PLAYERS if n != out}}


@pytest.fixture
def game(web):
    body = web.post("/api/games", json=GAME).get_json()
    return body["id"], {"Authorization": f"Bearer {body['edit_key']}"}


@pytest.fixture
def other_worker(app):
    """A second app on the same database, as a second gunicorn worker (or app server) would be."""
    other = create_app({"TESTING": True, "SECRET_KEY": "test", "USE_CDN": False, "CHECK_SCHEMA": False,
                        "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                        "WTF_CSRF_ENABLED": False, "CLUB_KEY_HASH": app.config["CLUB_KEY_HASH"]})
    yield other
    close(other)


# ================================================================ two servers, one database

@pytest.mark.own_database
def test_a_round_recorded_through_one_server_shows_at_once_on_the_other(web, game, other_worker):
    game_id, auth = game
    there = other_worker.test_client()
    for _ in range(2):
        assert "Round 1" in text(there.get(f"/games/{game_id}/watch"))
    assert web.post(f"/api/games/{game_id}/rounds", json=a_round(1), headers=auth).status_code == 201
    board = there.get(f"/games/{game_id}/watch")
    assert "Round 2" in text(board) and "Ann went out" in text(board)


@pytest.mark.own_database
def test_a_watchers_poll_on_one_server_sees_a_round_recorded_through_the_other(web, game, other_worker):
    game_id, auth = game
    there = other_worker.test_client()
    assert there.get(f"/games/{game_id}/live?v=1&watch=1", headers=WATCHER).status_code == 204
    web.post(f"/api/games/{game_id}/rounds", json=a_round(1), headers=auth)
    changed = there.get(f"/games/{game_id}/live?v=1&watch=1", headers=WATCHER)
    assert changed.status_code == 200 and "Ann went out" in text(changed)
    assert there.get(f"/games/{game_id}/live?v=2&watch=1", headers=WATCHER).status_code == 204


@pytest.mark.own_database
def test_history_and_player_pages_follow_changes_made_by_another_worker(app, web, game, other_worker):
    game_id, auth = game
    with app.app_context():
        ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
    for _ in range(2):
        assert "1 game" in text(web.get("/history"))
        assert "Games won 0 of 0" in text(web.get(f"/players/{ann}"))
    elsewhere = make_keeper(other_worker.test_client())
    elsewhere.post("/api/games", json=GAME)
    for number in range(1, 8):  # the players go out in turn: Ann in rounds 1 and 5
        elsewhere.post(f"/api/games/{game_id}/rounds", json=a_round(number), headers=auth)
    assert "2 games" in text(web.get("/history"))
    page = text(web.get(f"/players/{ann}"))
    assert "Went out 2 of 7 rounds" in page
    elsewhere.post(f"/players/{ann}/edit", data={"name": "Annie"})
    assert "Annie" in text(web.get(f"/players/{ann}"))
    assert "Annie" in text(web.get("/history"))
    assert "Annie" in text(web.get(f"/games/{game_id}"))
    # A game deleted there is gone from the history here.
    with other_worker.app_context():
        store.delete_game(game_id)
    assert f"/games/{game_id}/story" not in web.get("/history").get_data(as_text=True)


# ================================================================ what each browser sees

def test_each_browser_gets_its_own_form_token(app):
    first, second = app.test_client(), app.test_client()
    pages = [client.get("/history").get_data(as_text=True) for client in (first, second, first)]
    tokens = [re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1) for page in pages]
    assert tokens[0] != tokens[1]
    for name, client, token in (("Zed", first, tokens[2]), ("Zoe", second, tokens[1])):
        added = client.post("/players/", data={"name": name, "csrf_token": token})
        assert added.status_code in (200, 303), added.status_code


def test_only_the_keeper_sees_the_keepers_buttons_on_the_history(app):
    keeper = make_keeper(app.test_client())
    stranger = app.test_client()
    assert "Backup and restore" in text(keeper.get("/history"))
    assert "Backup and restore" not in text(stranger.get("/history"))
    assert "Backup and restore" in text(keeper.get("/history"))


def test_a_message_is_shown_once(web, game):
    game_id, auth = game
    web.post(f"/api/games/{game_id}/rounds", json=a_round(1), headers=auth)
    join(web, game_id, auth["Authorization"].split()[1])
    shown = web.get(f"/games/{game_id}")
    assert "This phone can now keep score" in shown.get_data(as_text=True) and "ETag" not in shown.headers
    again = web.get(f"/games/{game_id}")
    assert "This phone can now keep score" not in again.get_data(as_text=True)
    # A reload holding what the last page without the message was sent with: 304.
    assert web.get(f"/games/{game_id}", headers={"If-None-Match": again.headers["ETag"]}).status_code == 304


# ================================================================ validators

@pytest.mark.own_database
def test_a_board_the_phone_holds_is_answered_304_after_one_query(app, web, game):
    game_id, auth = game
    for url in (f"/games/{game_id}", f"/games/{game_id}/watch"):
        first = web.get(url)
        assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
        with counted() as statements:
            again = web.get(url, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""
        assert [s for s in statements if "FROM game" in s] and len(statements) <= 2, statements  # (BEGIN, SELECT)
    etag = web.get(f"/games/{game_id}").headers["ETag"]
    web.post(f"/api/games/{game_id}/rounds", json=a_round(1), headers=auth)
    changed = web.get(f"/games/{game_id}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


@pytest.mark.own_database
def test_a_phone_revalidating_a_compressed_board_gets_304_after_one_query(app, web, game):
    """A phone accepts brotli: the board it got was compressed, with an ETag of its own
    ("...:br", Flask-Compress's), and that is the one it sends back. It gets its 304 from the
    version alone, not from a page worked out and compressed first; and the 304 names the
    validator the phone holds."""
    game_id, auth = game
    phone = {"Accept-Encoding": "gzip, deflate, br"}
    first = web.get(f"/games/{game_id}", headers=phone)
    assert first.headers["Content-Encoding"] == "br" and first.headers["ETag"].endswith(':br"')
    with counted() as statements:
        again = web.get(f"/games/{game_id}", headers={**phone, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == first.headers["ETag"]
    assert [s for s in statements if "FROM game" in s] and len(statements) <= 2, statements
    # The API's document too; and its compressed ETag sent back as If-Match still guards a change.
    document = web.get(f"/api/games/{game_id}", headers=phone)
    assert document.headers["Content-Encoding"] == "br" and document.headers["ETag"].endswith(':br"')
    with counted() as statements:
        held = web.get(f"/api/games/{game_id}", headers={**phone, "If-None-Match": document.headers["ETag"]})
    assert held.status_code == 304 and len(statements) <= 2, statements
    assert web.post(f"/api/games/{game_id}/rounds", json=a_round(1), headers=auth).status_code == 201
    stale = web.delete(f"/api/games/{game_id}/rounds/1", headers={**auth, "If-Match": document.headers["ETag"]})
    assert stale.status_code == 412
    changed = web.get(f"/games/{game_id}", headers={**phone, "If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]


def test_a_page_and_its_fragment_never_share_an_etag(web, game):
    game_id, _ = game
    page = web.get(f"/games/{game_id}")
    fragment = web.get(f"/games/{game_id}", headers={"HX-Request": "true"})
    assert page.headers["ETag"] != fragment.headers["ETag"]
    assert "HX-Request" in page.headers["Vary"] and "HX-Request" in fragment.headers["Vary"]
    # The page's validator does not make the fragment 304, nor the other way round.
    assert web.get(f"/games/{game_id}", headers={"HX-Request": "true", "If-None-Match": page.headers["ETag"]}
                   ).status_code == 200
    assert web.get(f"/games/{game_id}", headers={"If-None-Match": fragment.headers["ETag"]}).status_code == 200


def test_deleting_and_restoring_a_game_changes_its_etag(app, web, game):
    game_id, _ = game
    before = web.get(f"/games/{game_id}").headers["ETag"]
    with app.app_context():
        store.delete_game(game_id)
    deleted = web.get(f"/games/{game_id}", headers={"If-None-Match": before})
    assert deleted.status_code == 200 and deleted.headers["ETag"] != before
    with app.app_context():
        store.restore_game(game_id)
    assert web.get(f"/games/{game_id}", headers={"If-None-Match": deleted.headers["ETag"]}).status_code == 200


def test_a_rename_changes_every_game_of_the_player(app, web, game):
    game_id, _ = game
    before = web.get(f"/api/games/{game_id}")
    etag = before.headers["ETag"]
    with app.app_context():
        ben = db.session.scalar(select(Player.id).where(Player.name == "Ben"))
        version = db.session.get(Game, game_id).version
        store.rename_player(ben, "Benedict")
    with app.app_context():
        assert db.session.get(Game, game_id).version == version + 1
    assert web.get(f"/api/games/{game_id}", headers={"If-None-Match": etag}).status_code == 200
    assert web.get(f"/api/games/{game_id}").get_json()["players"][1] == "Benedict"


def test_an_unchanged_poll_is_answered_204_after_one_query(app, web, game):
    game_id, _ = game
    # The view itself (the same answer comes before Flask for a committed game: test_polls.py).
    view = Client(app.wsgi_app.wsgi_app)
    with counted() as statements:
        poll = view.get(f"/games/{game_id}/live?v=1&watch=1", headers=WATCHER)
    assert poll.status_code == 204 and poll.data == b"" and poll.headers["Cache-Control"] == "no-cache"
    assert "HX-Request" in poll.headers["Vary"]
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 1, statements
    assert web.get(f"/games/{game_id}/live?v=0&watch=1", headers=WATCHER).status_code == 200
    assert "Content-Security-Policy" in web.get(f"/games/{game_id}/live?v=x&watch=1", headers=WATCHER).headers
    assert web.get("/games/999999/live?v=1").status_code == 404
    # Only ASCII digits name a version: "١" (Arabic-Indic one), " 1" and "+1" are none, and get the board.
    for odd in ("\u0661", "%201", "%2B1"):
        assert web.get(f"/games/{game_id}/live?v={odd}&watch=1", headers=WATCHER).status_code == 200, odd
    assert web.post(f"/games/{game_id}/live?v=1").status_code in (400, 405)


def test_the_api_answers_304_for_the_version_the_client_holds_after_one_query(app, web, game):
    game_id, _ = game
    etag = web.get(f"/api/games/{game_id}").headers["ETag"]
    with counted() as statements:
        again = web.get(f"/api/games/{game_id}", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 1, statements
