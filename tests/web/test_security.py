"""What a guest on the table's Wi-Fi meets: headers, cookies, CSRF, error pages without internals, edit keys kept hashed, an access log without keys."""

from __future__ import annotations

import logging
import re
import pytest
from conftest import join
from sqlalchemy import text
from scorekeeper import create_app
from scorekeeper.store.models import db


GAMES = [
    {
        "format": "scorekeeper-game/1", "rules": "balmoral", "players": ["Ann", "Ben", "Cat"], "first_dealer": "Ben",
        "started_at": "2026-11-01T18:00:00Z",
        "rounds": [{"went_out": "Ann", "hands": {"Ben": "A K", "Cat": "2 3"}, "achieved": ["Cat"]}] * 7,
    },
    {
        "format": "scorekeeper-game/1", "rules": "classic", "players": ["Dev", "Eve", "Fay", "Gus", "Hal"],
        "first_dealer": "Eve", "started_at": "2026-11-02T18:00:00Z",
        "rounds": [{"went_out": "Dev", "hands": {"Eve": "JK 10", "Fay": ""}, "points": {"Gus": 35, "Hal": 0}}] * 3,
    },
]


def test_security_headers_on_pages_and_api(client):
    for url in ["/", "/games/new", "/api/openapi.json", "/no-such-page"]:
        headers = client.get(url).headers
        csp = headers["Content-Security-Policy"]
        script_src = re.search(r"script-src ([^;]+)", csp).group(1)
        assert "unsafe-inline" not in script_src and "unsafe-eval" not in script_src
        assert "frame-ancestors 'none'" in csp
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"


def test_session_cookie_flags(app):
    created = app.test_client()
    key = created.post("/api/games", json=GAMES[0]).get_json()["edit_key"]
    plain = created.get("/games/1/join")
    set_cookie = plain.headers["Set-Cookie"]
    assert "HttpOnly" in set_cookie and "SameSite=Lax" in set_cookie and "Secure" not in set_cookie
    secure = app.test_client().get("/games/1/join", base_url="https://table.example")
    assert "Secure" in secure.headers["Set-Cookie"]


def test_the_session_cookie_follows_the_secret_keys(app):
    from itsdangerous import BadSignature

    sessions = app.session_interface
    cookie = sessions.get_signing_serializer(app).dumps({"csrf_token": "t"})
    old = app.secret_key
    try:
        app.secret_key = "a new secret"
        renewed = sessions.get_signing_serializer(app)
        with pytest.raises(BadSignature):
            renewed.loads(cookie)  # a cookie signed with the old key no longer reads
        app.config["SECRET_KEY_FALLBACKS"] = [old]
        assert sessions.get_signing_serializer(app).loads(cookie) == {"csrf_token": "t"}
    finally:
        app.secret_key = old
        app.config["SECRET_KEY_FALLBACKS"] = []


def test_missing_or_wrong_csrf_token_is_a_friendly_400(client):
    for data in ({}, {"csrf_token": "forged"}):
        response = client.post("/players/", data={"name": "Zed", **data})
        assert response.status_code == 400
        assert "This form has expired" in response.text and "nothing was saved" in response.text
    assert "Zed" not in client.get("/players/").text


def test_error_pages_show_no_traceback(fresh_app):
    app = fresh_app  # a route of its own: added before the app's first request
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/explode")
    def explode():
        raise RuntimeError("secret internals")

    response = app.test_client().get("/explode")
    assert response.status_code == 500
    assert "Traceback" not in response.text and "secret internals" not in response.text
    assert "may not have been saved; every round saved before it is kept" in response.text


def test_the_cdn_script_carries_its_integrity_hash(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "s", "USE_CDN": True,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'cdn.sqlite'}"})
    with app.app_context():
        db.create_all()
    page = app.test_client().get("/").text
    tag = re.search(r'<script src="https://cdn[^"]+htmx[^"]+"[^>]*>', page).group(0)
    assert 'integrity="sha384-' in tag and 'crossorigin="anonymous"' in tag
    assert "cdn.jsdelivr.net" in app.test_client().get("/").headers["Content-Security-Policy"]


def test_edit_keys_are_stored_hashed_and_compared_in_constant_time(app, client):
    import inspect

    from scorekeeper.store import access

    key = client.post("/api/games", json=GAMES[0]).get_json()["edit_key"]
    with app.app_context():
        stored = db.session.execute(text("SELECT edit_key_hash FROM game")).scalar()
    assert key not in stored and len(stored) == 64
    assert "compare_digest" in inspect.getsource(access.key_matches)


def test_the_served_access_log_never_records_query_strings():
    """Edit keys travel in a join link's query string: the access log writes the path only."""
    from scorekeeper.serving import AccessLog

    def answer(environ, start_response):
        start_response("200 OK", [("Content-Length", "2")])
        return [b"ok"]

    environ = {"REMOTE_ADDR": "10.0.0.7", "REQUEST_METHOD": "GET", "PATH_INFO": "/games/3/join",
               "QUERY_STRING": "key=the-edit-key", "HTTP_REFERER": "http://x/?key=the-edit-key"}
    lines: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())
    log = logging.getLogger("scorekeeper.access")
    log.addHandler(handler)
    # (A migration test before this one may have run alembic's logging set-up, which disables
    # every logger it does not name.)
    # setLevel, not the attribute: it also forgets the logger's cached answers.
    level, disabled, log.disabled = log.level, log.disabled, False
    log.setLevel(logging.INFO)
    try:
        AccessLog(answer)(environ, lambda status, headers, exc_info=None: None)
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
        log.disabled = disabled
    [line] = lines
    assert '"GET /games/3/join" 200 2 ' in line and line.startswith("10.0.0.7 ")
    assert "the-edit-key" not in line and "key=" not in line


def test_a_watchers_refusal_leads_back_to_the_game_it_watches(web, stranger):
    from factories import new_game, post_round, text

    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    refused = post_round(stranger, game_id, 1, went_out=0, hands={1: "A", 2: "K"})
    assert refused.status_code == 403
    assert f'<a class="button" href="/games/{game_id}/watch">Back to the game</a>' in refused.get_data(as_text=True)
    assert "Back to the games" not in text(refused)
    # A page that is no game still leads to the games.
    assert "Back to the games" in text(stranger.get(f"/games/{game_id + 1}"))
