"""The unchanged poll, answered before Flask (scorekeeper/web/polls.py), and everything else left to it."""

from __future__ import annotations

import doctest
from contextlib import contextmanager

from factories import ANN_BEN_CAT_DAN, new_game, save_round
from flask import request_started

from scorekeeper.web import polls


@contextmanager
def requests_flask_saw(app):
    seen: list[str] = []

    def note(sender, **extra):
        from flask import request

        seen.append(request.full_path)

    request_started.connect(note, app)
    try:
        yield seen
    finally:
        request_started.disconnect(note, app)


def test_an_unchanged_poll_is_a_bare_204_and_a_changed_one_gets_the_board(web, app):
    game_id = new_game(web, ANN_BEN_CAT_DAN)
    watcher = app.test_client()
    with requests_flask_saw(app) as seen:
        unchanged = watcher.get(f"/games/{game_id}/live?v=1&watch=1")
    assert seen == []  # answered before Flask
    assert unchanged.status_code == 204 and unchanged.data == b""
    assert unchanged.headers["Cache-Control"] == "no-cache" and "HX-Request" in unchanged.headers["Vary"]
    # Nothing of Flask's: no session started, no page headers.
    assert "Set-Cookie" not in unchanged.headers and "Content-Security-Policy" not in unchanged.headers
    save_round(web, game_id, 1, went_out=1, hands={0: "A K", 2: "Q", 3: "2"})
    with requests_flask_saw(app) as seen:
        changed = watcher.get(f"/games/{game_id}/live?v=1&watch=1")
    assert len(seen) == 1 and changed.status_code == 200 and "Content-Security-Policy" in changed.headers
    assert watcher.get(f"/games/{game_id}/live?v=2&watch=1").status_code == 204


def test_whatever_it_does_not_read_plainly_goes_on_to_flask(web, app):
    game_id = new_game(web, ANN_BEN_CAT_DAN)
    watcher = app.test_client()
    with requests_flask_saw(app) as seen:
        assert watcher.get("/games/999999/live?v=1").status_code == 404  # no such game
        assert watcher.get(f"/games/{game_id}/live?v=1&v=1").status_code == 204  # Flask's own answer
    assert len(seen) == 2
    assert "Content-Security-Policy" in watcher.get(f"/games/{game_id}/live?v=x").headers  # a board, from Flask
    assert watcher.post(f"/games/{game_id}/live?v=1").status_code in (400, 405)


def test_its_examples():
    assert doctest.testmod(polls).failed == 0
