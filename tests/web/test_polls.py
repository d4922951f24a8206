"""The unchanged poll answered before Flask (scorekeeper/web/polls.py): the same answer as the
view's, after one query, and everything else left to Flask. The poll reads what is committed,
so these tests commit for real (``own_database``)."""

from __future__ import annotations

import pytest
from factories import counted, text
from flask import request_started
from werkzeug.test import Client

from scorekeeper import store
from scorekeeper.web import polls

pytestmark = pytest.mark.own_database

GAME = {"format": "scorekeeper-game/1", "rules": "balmoral", "players": ["Ann", "Ben", "Cat", "Dev"],
        "first_dealer": "Ann", "rounds": []}
WATCHER = {"HX-Request": "true"}


@pytest.fixture
def game(web):
    return web.post("/api/games", json=GAME).get_json()["id"]


@pytest.fixture
def flask_requests(app):
    """The requests that reached Flask meanwhile."""
    seen: list[str] = []

    def note(sender, **_):
        from flask import request

        seen.append(request.full_path)

    request_started.connect(note, app)
    yield seen
    request_started.disconnect(note, app)


def test_an_unchanged_poll_is_answered_before_flask_after_one_query(app, web, game, flask_requests, monkeypatch):
    reader = app.extensions["scorekeeper_polls"].version
    read, reads = reader.read, []
    monkeypatch.setattr(reader, "read", lambda connection, game_id: reads.append(game_id) or read(connection, game_id))
    with counted() as statements:
        poll = web.get(f"/games/{game}/live?v=1&watch=1", headers=WATCHER)
    assert poll.status_code == 204 and poll.data == b""
    # The driver's one read, nothing through SQLAlchemy's execution (its BEGIN, or Flask's queries).
    assert reads == [game] and statements == [], statements
    assert flask_requests == []


def test_the_polls_query_runs_outside_a_transaction(app):
    """The read alone, sent by the driver: no BEGIN before it, and no transaction left open after
    it, which the pool would end with a ROLLBACK (a second trip to the database)."""
    with app.app_context():
        version = store.VersionReader()
    connection = version.engine.raw_connection()
    driver = connection.dbapi_connection
    on_sqlite = version.engine.dialect.name == "sqlite"
    sent: list[str] = []
    if on_sqlite:
        driver.set_trace_callback(sent.append)
    try:
        assert version.read(connection, 1) is None
        if on_sqlite:
            open_after = driver.in_transaction
        else:
            from psycopg.pq import TransactionStatus

            open_after = driver.info.transaction_status != TransactionStatus.IDLE
    finally:
        if on_sqlite:
            driver.set_trace_callback(None)
        connection.close()
        version.close()
    assert not open_after
    if on_sqlite:
        assert len(sent) == 1 and sent[0].startswith("SELECT game.version")
    else:
        assert driver.autocommit  # from the connection's start, not set and reset on each use


def test_it_answers_as_the_view_does(app, web, game):
    ahead = web.get(f"/games/{game}/live?v=1&watch=1", headers=WATCHER)
    # The view itself, behind the middleware: Flask's own WSGI app.
    view = Client(app.wsgi_app.wsgi_app).get(f"/games/{game}/live?v=1&watch=1", headers=WATCHER)
    assert (ahead.status_code, ahead.data) == (view.status_code, view.data) == (204, b"")
    assert sorted(ahead.headers.items()) == sorted(view.headers.items())


def test_everything_else_goes_on_to_flask(web, game, flask_requests):
    changed = web.get(f"/games/{game}/live?v=0&watch=1", headers=WATCHER)
    assert changed.status_code == 200 and "Round 1" in text(changed)
    assert web.get("/games/999999/live?v=1").status_code == 404
    for query in ("v=x", "v=1&v=1", "watch=1", "v=%201", "v=1234567890"):
        assert web.get(f"/games/{game}/live?{query}", headers=WATCHER).status_code in (200, 204), query
    assert web.post(f"/games/{game}/live?v=1").status_code in (400, 405)
    assert len(flask_requests) == 8


@pytest.mark.parametrize("query, seen", [("v=12&watch=1", 12), ("watch=1&v=3", 3), ("watch=1", None),
                                         ("v=1&v=2", None), ("v=x", None), ("v=", None), ("v=\u0661", None),
                                         ("v=1234567890", None)])
def test_the_version_a_phone_shows_is_read_plainly_or_not_at_all(query, seen):
    assert polls.seen_version(query) == seen


def test_a_connection_the_database_closed_hands_the_poll_to_flask(app, web, game, flask_requests, monkeypatch):
    """PostgreSQL restarted: the poll's own connection is gone. The poll is not a 500: Flask
    answers it on the app's connections (or says in words that the database is away), and the
    pool lets the dead connection go."""
    reader = app.extensions["scorekeeper_polls"].version
    gone = reader.failures[-1]("terminating connection due to administrator command")
    let_go = []

    class Dead:
        def cursor(self):
            raise gone

        def invalidate(self):
            let_go.append("invalidated")

        def close(self):
            let_go.append("closed")

    class Restarted:
        dialect = reader.engine.dialect

        def raw_connection(self):
            return Dead()

    monkeypatch.setattr(reader, "engine", Restarted())
    poll = web.get(f"/games/{game}/live?v=1&watch=1", headers=WATCHER)
    assert poll.status_code == 204 and let_go == ["invalidated", "closed"]
    assert flask_requests == [f"/games/{game}/live?v=1&watch=1"]
