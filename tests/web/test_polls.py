"""The unchanged poll answered before Flask (scorekeeper/web/polls.py): the same answer as the
view's, after one query, and everything else left to Flask. The poll reads what is committed,
so these tests commit for real (``own_database``)."""

from __future__ import annotations

import pytest
from factories import counted, text
from flask import request_started
from sqlalchemy import event
from werkzeug.test import Client

from scorekeeper import store
from scorekeeper.store.database import ONE_STATEMENT
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


def test_an_unchanged_poll_is_answered_before_flask_after_one_query(app, web, game, flask_requests):
    with counted() as statements:
        poll = web.get(f"/games/{game}/live?v=1&watch=1", headers=WATCHER)
    assert poll.status_code == 204 and poll.data == b""
    # The query alone: no BEGIN sent before it (on PostgreSQL the driver sends none in autocommit).
    assert len(statements) == 1 and "game.version" in statements[0], statements
    assert flask_requests == []


def test_the_polls_query_runs_outside_a_transaction(app):
    with app.app_context():
        version = store.VersionReader()
    engine = version.engine
    modes = []

    def note(conn, cursor, statement, parameters, context, executemany):
        dbapi = conn.connection.dbapi_connection  # as it is when the statement goes
        modes.append((conn.get_execution_options(),
                      dbapi.in_transaction if conn.dialect.name == "sqlite" else not dbapi.autocommit))

    event.listen(engine, "before_cursor_execute", note)
    try:
        assert version(1) is None
    finally:
        event.remove(engine, "before_cursor_execute", note)
        version.close()
    (options, in_transaction), = modes
    assert not in_transaction
    if engine.dialect.name == "sqlite":
        assert options.get(ONE_STATEMENT)
    else:
        # In autocommit from the connection's start, not set and reset on each use.
        assert "isolation_level" not in options


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
    answers it on the app's connections (or says in words that the database is away)."""
    from sqlalchemy.exc import OperationalError

    class Closed:
        def connect(self):
            raise OperationalError("SELECT game.version ...", {}, Exception("terminating connection due to "
                                                                            "administrator command"))

    monkeypatch.setattr(app.extensions["scorekeeper_polls"].version, "engine", Closed())
    poll = web.get(f"/games/{game}/live?v=1&watch=1", headers=WATCHER)
    assert poll.status_code == 204
    assert flask_requests == [f"/games/{game}/live?v=1&watch=1"]
