"""Issues 7 and 13: what the speed-ups keep true.

Nothing is kept in a process: a page is never stale after a change, whoever made it (this
process, or another worker on the same database); a phone that holds the current version of a
board is answered 304 after one query by primary key; page and fragment never share an ETag;
reads do not wait for writers.
"""

from __future__ import annotations

import gzip
import json
import math
import re
import sqlite3
import time
from pathlib import Path

import pytest
from conftest import ON_POSTGRES, close, join, make_app, make_keeper
from factories import text
from sqlalchemy import event, func, select

from scorekeeper import create_app, store

from scorekeeper.web import kept
from scorekeeper.files.gamefile import game_document, read_game
from scorekeeper.store.models import Game, Player, RatingSummary, db

SQLITE_ONLY = pytest.mark.skipif(ON_POSTGRES, reason="SQLite's data_version and locking")

PLAYERS = ["Ann", "Ben", "Cat", "Dev"]
GAME = {"format": "scorekeeper-game/1", "rules": "balmoral", "players": PLAYERS, "first_dealer": "Ann", "rounds": []}


def a_round(number: int) -> dict:
    out = PLAYERS[(number - 1) % 4]
    return {"number": number, "went_out": out, "hands": {n: "K Q 7 5 3" for n in PLAYERS if n != out}}


@pytest.fixture
def game(web):
    body = web.post("/api/games", json=GAME).get_json()
    return body["id"], {"Authorization": f"Bearer {body['edit_key']}"}


@pytest.fixture
def other_worker(app, tmp_path):
    """A second app on the same database, as a second gunicorn worker would be."""
    other = create_app({"TESTING": True, "SECRET_KEY": "test", "USE_CDN": False, "CHECK_SCHEMA": False,
                        "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                        "WTF_CSRF_ENABLED": False, "CLUB_KEY_HASH": app.config["CLUB_KEY_HASH"]})
    yield other
    close(other)


def test_a_kept_scoreboard_is_not_served_once_another_worker_records_a_round(web, game, other_worker):
    game_id, auth = game
    assert "Round 1" in text(web.get(f"/games/{game_id}"))
    assert "Round 1" in text(web.get(f"/games/{game_id}"))  # kept
    recorded = other_worker.test_client().post(f"/api/games/{game_id}/rounds", json=a_round(1), headers=auth)
    assert recorded.status_code == 201
    board = text(web.get(f"/games/{game_id}"))
    assert "Round 2" in board and "Ann went out" in board


def test_history_and_player_pages_follow_changes_made_by_another_worker(app, web, game, other_worker):
    game_id, auth = game
    with app.app_context():
        ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
    for _ in range(2):  # the second is served kept
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


def test_the_state_answered_after_a_round_is_what_a_replay_of_the_stored_rows_gives(app, web, game):
    game_id, auth = game
    for number in range(1, 10):
        assert web.post(f"/api/games/{game_id}/rounds", json=a_round(number), headers=auth).status_code == 201
    web.put(f"/api/games/{game_id}/rounds/3", json={"went_out": "Cat", "hands": {"Ann": "2", "Ben": "3", "Dev": "A"}},
            headers=auth)
    web.delete(f"/api/games/{game_id}/rounds/9", headers=auth)
    with app.app_context():
        fresh = store.load(game_id)
    answered = web.post(f"/api/games/{game_id}/rounds", json=a_round(9), headers=auth).get_json()
    with app.app_context():
        stored = store.load(game_id)
        last = stored.state.rounds[-1]
        assert answered["penalties"] == dict(zip(stored.state.setup.players, last.penalties, strict=True))
        assert answered["dealer"] == last.dealer and answered["cards_dealt"] == last.cards_dealt
        assert len(stored.state.rounds) == len(fresh.state.rounds) + 1


def test_a_kept_page_carries_each_browsers_own_form_token(app):
    first, second = app.test_client(), app.test_client()
    pages = [client.get("/history").get_data(as_text=True) for client in (first, second, first)]
    tokens = [re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1) for page in pages]
    assert tokens[0] != tokens[1]
    for name, client, token in (("Zed", first, tokens[2]), ("Zoe", second, tokens[1])):
        added = client.post("/players/", data={"name": name, "csrf_token": token})
        assert added.status_code in (200, 303), added.status_code


def test_a_page_showing_a_message_is_not_kept(web, game):
    game_id, auth = game
    web.post(f"/api/games/{game_id}/rounds", json=a_round(1), headers=auth)
    join(web, game_id, auth["Authorization"].split()[1])
    assert "This phone can now keep score" in web.get(f"/games/{game_id}").get_data(as_text=True)
    assert "This phone can now keep score" not in web.get(f"/games/{game_id}").get_data(as_text=True)


@SQLITE_ONLY
def test_reading_does_not_wait_for_a_writer(app, web, game):
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    writer = sqlite3.connect(path, isolation_level=None, timeout=1)
    writer.execute("BEGIN IMMEDIATE")  # another worker holds the write lock
    try:
        started = time.monotonic()
        for url in ("/history", f"/games/{game[0]}", f"/games/{game[0]}/live?v=1"):
            assert web.get(url).status_code in (200, 204)
        assert time.monotonic() - started < 5
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_importing_a_name_spelt_otherwise_than_on_the_roster(app):
    with app.app_context():
        store.add_player("ann")
        gf = read_game({**GAME, "players": ["Ann", "Ben"], "first_dealer": "Ann",
                        "rounds": [{"went_out": "Ann", "hands": {"Ben": "K"}}]})
        (game_id,) = store.import_games([gf])
        state = store.load(game_id).state
        assert [(p.name, p.total) for p in state.players] == [("ann", 0), ("Ben", 10)]


def test_a_backup_of_many_games_is_stored_in_a_few_statements(tmp_path):
    from history_games import random_docs

    from scorekeeper.files.gamefile import backup_document, read_document

    files = read_document(backup_document(random_docs(120, seed=21)))
    app = make_app(tmp_path, "bulk.sqlite")
    with app.app_context():
        engine = db.engine
    statements: list[str] = []
    listener = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", listener)
    try:
        with app.app_context():
            ids = store.import_games(files)
    finally:
        event.remove(engine, "before_cursor_execute", listener)
    with app.app_context():
        for gid, gf in zip(ids, files, strict=True):
            assert game_document(store.load(gid).state) == game_document(gf.state)
    # A row per game and per new player (their ids are needed), and a handful for all the
    # seats, rounds and hands (it was a statement per row: thousands here), and the club's version.
    players = {name for gf in files for name in gf.setup.players}
    # The ratings (issue 15), whatever the number of games: where the new games stand, then for
    # each scope they are rated in the rows from there replaced, the games read, the players'
    # ratings before them, and the new rows (500 a statement).
    rating = [s for s in statements if "rating_summary" in s or "coalesce(game.finished_at" in s]
    with app.app_context():
        scopes = db.session.scalar(select(func.count(func.distinct(RatingSummary.scope))))
        rows = db.session.scalar(select(func.count()).select_from(RatingSummary))
    assert scopes and len(rating) <= 2 + 3 * scopes + math.ceil(rows / 500) + scopes, (len(rating), scopes)
    assert len(statements) - len(rating) <= len(files) + len(players) + 21, len(statements)
    assert sum("UPDATE club_version" in s for s in statements) == 1
    close(app)


@SQLITE_ONLY
def test_a_deep_page_of_history_skips_the_pages_before_it_along_an_index(app):
    from scorekeeper.club import history
    from scorekeeper.store import summaries

    captured: list[str] = []
    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", lambda *args: captured.append(args[2]))
        filters = history.HistoryFilter()
        summaries.read(filters.where(), filters.order(), limit=20, offset=400)
        page = next(sql for sql in captured if "LIMIT" in sql)
        plan = " ".join(str(row[-1]) for row in db.session.connection().exec_driver_sql(
            "EXPLAIN QUERY PLAN " + page, (20, 400)))
    # The page's ids are found in the index, the skipped games with them (no table row is read
    # for a skipped game); summaries.read then reads the twenty rows by id.
    assert "COVERING INDEX ix_game_deleted_at_started_at" in plan, plan


def test_static_files_are_compressed_once_at_the_best_quality(app):
    import brotli
    import rcssmin

    from scorekeeper.web.assets import static_version

    client = app.test_client()
    with app.test_request_context():
        version = static_version(app, "app.css")
    url = f"/static/app.css?v={version}"
    first = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    source = (Path(app.static_folder) / "app.css").read_bytes()
    minified = rcssmin.cssmin(source)  # without its comments and spaces: what a phone gets
    assert first.headers["Content-Encoding"] == "br"
    assert brotli.decompress(first.data) == minified and len(minified) < len(source)
    assert len(first.data) < len(source) / 4
    assert "immutable" in first.headers["Cache-Control"] and "Accept-Encoding" in first.headers["Vary"]
    again = client.get(url, headers={"Accept-Encoding": "br", "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    with client.get(url) as plain:  # the file itself, streamed: closed with the response, as a server does
        assert "Content-Encoding" not in plain.headers and plain.data == source
    # The client's q-values count: br refused, gzip it is.
    refused = client.get(url, headers={"Accept-Encoding": "br;q=0, gzip"})
    assert refused.headers["Content-Encoding"] == "gzip" and gzip.decompress(refused.data) == minified


@pytest.mark.parametrize("accepted, sent", [
    ("gzip, deflate, br", "br"), ("br;q=0, gzip", "gzip"), ("br;q=0", None), ("gzip;q=0, br;q=0", None),
])
def test_an_answer_not_kept_goes_compressed_only_as_the_browser_takes_it(app, accepted, sent):
    # Flask-Compress on its own would send brotli to "br;q=0" (assets.init_app).
    import brotli

    answer = app.test_client().get("/api/openapi.json", headers={"Accept-Encoding": accepted})
    assert answer.status_code == 200 and answer.headers.get("Content-Encoding") == sent
    assert "Accept-Encoding" in answer.headers["Vary"]
    body = {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[sent](answer.data)
    assert json.loads(body)["openapi"].startswith("3.")


def test_a_stored_hand_read_quickly_is_the_hand_read_slowly():
    from scorekeeper.rules import parse_hand

    # Stored hands ("K Q 7 7") take a quick path; commas take the general one.
    for stored, canonical in (("", ""), ("K", "K"), ("2 10 JK", "JK 10 2"), ("7 A 7 Q", "A Q 7 7")):
        quick, slow = parse_hand(stored), parse_hand(stored.replace(" ", ","))
        assert quick == slow and quick.canonical == canonical


def test_a_board_the_phone_holds_is_answered_304_after_one_query(app, web, game):
    from factories import counted

    game_id, auth = game
    for url in (f"/games/{game_id}", f"/games/{game_id}/watch"):
        first = web.get(url)
        assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
        with counted(app) as statements:
            again = web.get(url, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""
        assert [s for s in statements if "FROM game" in s] and len(statements) <= 2, statements  # (BEGIN, SELECT)
    etag = web.get(f"/games/{game_id}").headers["ETag"]
    web.post(f"/api/games/{game_id}/rounds", json=a_round(1), headers=auth)
    changed = web.get(f"/games/{game_id}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_a_phone_revalidating_a_compressed_board_gets_304_after_one_query(app, web, game):
    """A phone accepts brotli: the board it got was compressed, with an ETag of its own
    ("...:br"), and that is the one it sends back. It gets its 304 from the version alone,
    not from a page worked out (or served from the kept pages) and compressed first; and
    the 304 names the validator the phone holds."""
    from factories import counted

    game_id, auth = game
    phone = {"Accept-Encoding": "gzip, deflate, br"}
    first = web.get(f"/games/{game_id}", headers=phone)
    assert first.headers["Content-Encoding"] == "br" and first.headers["ETag"].endswith(':br"')
    with app.app_context():
        kept.of_app("pages", kept.PAGES_KEPT).clear()  # nothing to serve it from: a 304 must not need it
    with counted(app) as statements:
        again = web.get(f"/games/{game_id}", headers={**phone, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == first.headers["ETag"]
    assert [s for s in statements if "FROM game" in s] and len(statements) <= 2, statements
    # The API's document too; and its compressed ETag sent back as If-Match still guards a change.
    document = web.get(f"/api/games/{game_id}", headers=phone)
    assert document.headers["Content-Encoding"] == "br" and document.headers["ETag"].endswith(':br"')
    with counted(app) as statements:
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


def test_an_unchanged_poll_is_answered_after_one_query(app, web, game):
    from factories import counted

    game_id, _ = game
    with counted(app) as statements:
        poll = web.get(f"/games/{game_id}/live?v=1&watch=1", headers={"HX-Request": "true"})
    assert poll.status_code == 204 and poll.headers["Cache-Control"] == "no-cache"
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 1, statements
    assert web.get(f"/games/{game_id}/live?v=0&watch=1", headers={"HX-Request": "true"}).status_code == 200
    assert web.get("/games/999999/live?v=1").status_code == 404


def test_the_api_answers_304_for_the_version_the_client_holds_after_one_query(app, web, game):
    from factories import counted

    game_id, _ = game
    etag = web.get(f"/api/games/{game_id}").headers["ETag"]
    with counted(app) as statements:
        again = web.get(f"/api/games/{game_id}", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert len([s for s in statements if s.lstrip().upper().startswith("SELECT")]) == 1, statements
