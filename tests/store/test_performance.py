"""What keeps the plain path cheap: a round's answer is what a replay gives, a backup is
stored in a few statements, a deep page of history skips along an index, static files are
compressed once at the best quality, reads do not wait for writers. (HTTP's caching, 304s and
the watcher's poll: tests/web/test_caching.py.)
"""

from __future__ import annotations

import gzip
import json
import math
import re
import sqlite3
from pathlib import Path

import pytest
from conftest import ON_POSTGRES, close, make_app
from sqlalchemy import event, func, select

from scorekeeper import store

from scorekeeper.files.gamefile import game_document, read_game
from scorekeeper.store.models import RatingSummary, db

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


@pytest.mark.own_database
@SQLITE_ONLY
def test_reading_does_not_wait_for_a_writer(app, web, game):
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    writer = sqlite3.connect(path, isolation_level=None, timeout=1)
    writer.execute("BEGIN IMMEDIATE")  # another worker holds the write lock
    try:
        # A read that waited for the writer would wait for its lock, held to the end of the test,
        # until SQLite's busy timeout, and then fail: the answers say that none waited (no clock
        # read here: how long a page takes is measured by `make bench`).
        for url in ("/history", f"/games/{game[0]}", f"/games/{game[0]}/live?v=1"):
            assert web.get(url).status_code in (200, 204)
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
    # seats, rounds and hands (it was a statement per row: thousands here).
    players = {name for gf in files for name in gf.setup.players}
    # The ratings, whatever the number of games: where the new games stand, then for
    # each scope they are rated in the rows from there replaced, the games read, the players'
    # ratings and the count of games before them, and the new rows (500 a statement).
    rating = [s for s in statements if "rating_summary" in s or "coalesce(game.finished_at" in s]
    with app.app_context():
        scopes = db.session.scalar(select(func.count(func.distinct(RatingSummary.scope))))
        rows = db.session.scalar(select(func.count()).select_from(RatingSummary))
    assert scopes and len(rating) <= 2 + 4 * scopes + math.ceil(rows / 500) + scopes, (len(rating), scopes)
    # The players' sums, whatever the number of games: what the games counted for before, what
    # they count now, and each of the three tables' rows of their players read and written again.
    sums = [s for s in statements if any(part in s for part in ("player_summary", "player_level", "player_pair",
                                                                  "counted_game", "GROUP BY seat_summary.player_id"))]
    assert len(sums) <= 17, len(sums)
    assert len(statements) - len(rating) - len(sums) <= len(files) + len(players) + 21, len(statements)
    close(app)


@SQLITE_ONLY
def test_a_deep_page_of_history_skips_the_pages_before_it_along_an_index(app):
    from scorekeeper.club import history
    from scorekeeper.store.figures import summaries

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


def test_every_module_of_the_script_is_mapped_versioned_compressed_and_kept_offline(app):
    import brotli
    import rjsmin

    client = app.test_client()
    page = client.get("/").text
    imports = json.loads(re.search(r'<script type="importmap">(.*?)</script>', page, re.S).group(1))["imports"]
    modules = sorted(p.name for p in (Path(app.static_folder) / "js").glob("*.js"))
    assert sorted(plain.removeprefix("/static/js/") for plain in imports) == modules
    entry = imports.pop("/static/js/main.js")
    assert f'<script type="module" src="{entry}"></script>' in page
    # What the entry imports is fetched with the page, not one import after another; the parts
    # a page's markup asks for only where it does (tests/browser/test_modules.py).
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', page)
    assert sorted(preloaded) == sorted(imports[f"/static/js/{name}.js"] for name in ("banner", "live", "offline", "outbox"))
    worker = client.get("/sw.js").text
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", worker).group(1))
    assert {entry, *imports.values()} <= set(shell)
    for plain, url in imports.items():
        sent = client.get(url, headers={"Accept-Encoding": "br"})
        source = (Path(app.static_folder) / plain.removeprefix("/static/")).read_bytes()
        assert sent.headers["Content-Encoding"] == "br" and "immutable" in sent.headers["Cache-Control"]
        assert sent.mimetype == "text/javascript" and brotli.decompress(sent.data) == rjsmin.jsmin(source)


@pytest.mark.parametrize("accepted, sent", [("gzip, deflate, br", "br"), ("br;q=0, gzip", "gzip"), ("identity", None)])
def test_an_answer_goes_compressed_as_the_browser_takes_it(app, accepted, sent):
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


