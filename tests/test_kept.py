"""Pages kept rendered (scorekeeper/web/kept.py): never shown after a change, whichever app server
made it, and never one browser's page shown to another."""

from __future__ import annotations

import pytest
from conftest import CLUB_KEY, database_url, make_keeper
from factories import ANN_BEN_CAT_DAN, new_game, save_round, text, totals
from sqlalchemy import select

from scorekeeper import store
from scorekeeper.app import create_app
from scorekeeper.web.clubkey import digest
from scorekeeper.store.database import club_version
from scorekeeper.store.models import Player, db


@pytest.fixture
def other_server(app, tmp_path):
    """A second app on the same database, as a second app server behind a proxy would be."""
    other = create_app({**{k: app.config[k] for k in ("SQLALCHEMY_DATABASE_URI", "SECRET_KEY", "USE_CDN")},
                        "TESTING": True, "CHECK_SCHEMA": False, "RATELIMIT_ENABLED": False,
                        "WTF_CSRF_ENABLED": False, "CLUB_KEY_HASH": digest(CLUB_KEY)})
    assert other.config["SQLALCHEMY_DATABASE_URI"] == database_url(tmp_path)
    yield other
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


def kept_pages(app) -> int:
    return len(app.extensions.get("scorekeeper.kept", {}).get("pages", ()))


def test_a_round_recorded_through_one_server_shows_at_once_on_the_other(web, app, other_server):
    game_id = new_game(web, ANN_BEN_CAT_DAN)
    there = other_server.test_client()
    before = there.get(f"/games/{game_id}/watch")
    assert kept_pages(other_server) == 1 and there.get(f"/games/{game_id}/watch").data == before.data
    save_round(web, game_id, 1, went_out=1, hands={0: "A K", 2: "Q", 3: "2"})
    after = there.get(f"/games/{game_id}/watch")
    assert totals(after) == {"Ann": 25, "Ben": 0, "Cat": 10, "Dan": 2}


def test_the_history_and_a_players_page_follow_a_change_made_elsewhere(web, app, other_server):
    game_id = new_game(web, ANN_BEN_CAT_DAN)
    there = make_keeper(other_server.test_client())
    with app.app_context():
        ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
    assert "Ann" in text(there.get("/history")) and "Ann" in text(there.get(f"/players/{ann}"))
    assert kept_pages(other_server) == 2
    with app.app_context():
        store.rename_player(ann, "Annabel")
    assert "Annabel" in text(there.get("/history")) and "Annabel" in text(there.get(f"/players/{ann}"))
    # A game deleted here is gone from the history there.
    web.post(f"/games/{game_id}/delete", data={})
    with app.app_context():
        assert store.get_game(game_id).deleted_at is not None
    assert f"/games/{game_id}/story" not in there.get("/history").get_data(as_text=True)


def test_the_clubs_version_moves_on_with_every_change_and_only_then(web, app):
    with app.app_context():
        start = club_version()
    game_id = new_game(web, ANN_BEN_CAT_DAN)
    web.get("/history")
    web.get(f"/games/{game_id}")
    with app.app_context():
        created = club_version()
    assert created > start
    save_round(web, game_id, 1, went_out=1, hands={0: "A K", 2: "Q", 3: "2"})
    with app.app_context():
        assert club_version() == created + 1
    web.get("/history")
    web.get(f"/games/{game_id}/watch")
    with app.app_context():
        assert club_version() == created + 1  # reading changes nothing


def test_each_browser_gets_its_own_form_token_in_a_kept_page(app, other_server):
    web = app.test_client()
    first = web.get("/history")
    second = app.test_client().get("/history")
    assert kept_pages(app) == 1
    token = 'name="csrf_token" value="'
    if token in first.get_data(as_text=True):
        mine = first.get_data(as_text=True).split(token)[1].split('"')[0]
        theirs = second.get_data(as_text=True).split(token)[1].split('"')[0]
        assert mine != theirs and "\x00" not in theirs


def test_only_the_keeper_sees_the_keepers_buttons_on_a_kept_history(app):
    keeper = make_keeper(app.test_client())
    stranger = app.test_client()
    assert "Backup and restore" in text(keeper.get("/history"))
    assert "Backup and restore" not in text(stranger.get("/history"))
    assert "Backup and restore" in text(keeper.get("/history"))


def test_a_page_with_a_message_is_not_kept_nor_served_from_the_kept_ones(web, app):
    game_id = new_game(web, ANN_BEN_CAT_DAN)
    web.get(f"/games/{game_id}")
    kept = kept_pages(app)
    with web.session_transaction() as session:
        session["_flashes"] = [("ok", "Saved, as you asked.")]
    shown = web.get(f"/games/{game_id}")
    assert "Saved, as you asked." in text(shown) and kept_pages(app) == kept
    assert "Saved, as you asked." not in text(web.get(f"/games/{game_id}"))


def test_a_look_up_leaves_its_connection_as_the_sessions_expect_it(app):
    """The look-ups of versions read outside any transaction (on PostgreSQL in autocommit, one
    round trip), and hand their connection back as sessions use it: a session's change that
    fails still rolls back whole."""
    with app.app_context():
        engine = db.engine
        before = club_version()
        for _ in range(engine.pool.size() + 2):  # every pooled connection lent once
            assert club_version() == before
        connection = engine.raw_connection()
        try:
            assert getattr(connection.driver_connection, "autocommit", False) in (False, -1)
        finally:
            connection.close()
        player = Player(name="Zed", name_key="zed")
        db.session.add(player)
        db.session.flush()
        db.session.rollback()
        assert db.session.scalar(select(Player.id).where(Player.name == "Zed")) is None
        assert club_version() == before


@pytest.mark.parametrize("accepted, sent", [
    ("gzip, deflate, br", "br"), ("br;q=0, gzip", "gzip"), ("identity", None), ("br;q=0", None),
    ("gzip;q=0, br;q=0", None), ("identity, br;q=0.5", None), ("*", "br"),
])
def test_a_kept_page_goes_compressed_as_the_browser_asks(web, app, monkeypatch, accepted, sent):
    """A kept page is sent in the encoding the browser prefers, q-values and all (none when it
    refuses them all), compressed by the kept layer (kept.packed), never by Flask-Compress;
    the same page freshly rendered, kept, and compressed again from the kept one; with the
    encoding after its ETag and Accept-Encoding in its Vary; the 304 comes for that ETag."""
    import gzip

    import brotli
    import flask_compress.flask_compress

    def not_here(*_args):
        raise AssertionError("a kept page went through Flask-Compress")

    monkeypatch.setattr(flask_compress.flask_compress, "_compress_data", not_here)

    def opened(response) -> bytes:
        encoding = response.headers.get("Content-Encoding")
        assert encoding == sent
        return {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[encoding](response.data)

    game_id = new_game(web, ANN_BEN_CAT_DAN)
    headers = {"Accept-Encoding": accepted}
    first = web.get(f"/games/{game_id}", headers=headers)
    again = web.get(f"/games/{game_id}", headers=headers)
    packed = app.extensions["scorekeeper.kept"]["packed"]
    assert len(packed) == (1 if sent else 0)
    packed.clear()  # compressed again, from the page kept with its hole for the form token
    anew = web.get(f"/games/{game_id}", headers=headers)
    assert kept_pages(app) == 1 and opened(first) == opened(again) == opened(anew) and b"Ann" in opened(anew)
    assert "Accept-Encoding" in again.headers["Vary"]
    assert again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["ETag"].endswith(f':{sent}"') if sent else ":" not in again.headers["ETag"]
    assert web.get(f"/games/{game_id}", headers={**headers, "If-None-Match": again.headers["ETag"]}).status_code == 304
    history = [web.get("/history", headers=headers) for _ in range(2)]
    assert opened(history[0]) == opened(history[1]) and b"Ann" in opened(history[1])
