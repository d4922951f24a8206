"""The session cookie as a guest on the table's open Wi-Fi sees it: sealed, so none of the keys
it holds can be read from it, small enough with a season's edit keys, and a forged or altered
one refused without an error."""

from __future__ import annotations

import base64
import secrets
import zlib

import pytest
from conftest import CLUB_KEY, form_token, join

GAME = {"format": "scorekeeper-game/1", "rules": "balmoral", "players": ["Ann", "Ben", "Cat"], "first_dealer": "Ben",
        "started_at": "2026-11-01T18:00:00Z", "rounds": []}


def new_games(app, count: int) -> dict[int, str]:
    """``count`` games made over the API, each with its edit key."""
    api = app.test_client()
    made = {}
    for _ in range(count):
        body = api.post("/api/games", json=GAME).get_json()
        made[body["id"]] = body["edit_key"]
    return made


def open_club_link(client) -> None:
    token = form_token(client, "/club")
    assert client.post("/club", data={"csrf_token": token, "key": CLUB_KEY}).status_code in (302, 303)


def everything_an_eavesdropper_reads(value: str) -> str:
    """All that can be made of the cookie without the server's secret: each part between the
    dots decoded from base64, and inflated when it is compressed (as Flask's signed cookie is)."""
    readable = [value]
    for part in value.lstrip(".").split("."):
        try:
            raw = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
        except ValueError:
            continue
        readable.append(raw.decode("latin-1"))
        try:
            readable.append(zlib.decompress(raw).decode("latin-1"))
        except zlib.error:
            pass
    return "\n".join(readable)


@pytest.fixture
def phone(app):
    """A phone that opened the club link and the edit links of 30 games."""
    client = app.test_client()
    keys = new_games(app, 30)
    for game_id, key in keys.items():
        assert join(client, game_id, key).status_code == 303
    open_club_link(client)
    client.get("/")  # shows (and so drops) the messages the links left
    client.keys = keys
    return client


def test_the_cookie_shows_none_of_the_keys_it_holds(phone):
    value = phone.get_cookie("session").value
    seen = everything_an_eavesdropper_reads(value)
    assert CLUB_KEY not in seen
    for key in phone.keys.values():
        assert key not in seen
    assert "edit_keys" not in seen and "club_key" not in seen
    # ... and yet the phone keeps score of every game and keeps the club.
    for game_id in phone.keys:
        assert "Only a phone that keeps score" not in phone.get(f"/games/{game_id}/delete").text
    assert phone.get("/import").status_code == 200


def test_the_cookie_of_a_phone_holding_every_key_it_may_keep_stays_under_four_kilobytes(phone):
    """A browser may drop a cookie over 4 KB, and every key with it. Sealing adds 16 bytes of
    nonce and tag to what Flask's signed (and already compressed) cookie carried: 30 edit keys,
    the club key, 10 seats' keys and the seat links of 3 games still fit, with room for the
    Restore offer and a message."""
    from scorekeeper.web import keyring

    def token() -> str:
        return secrets.token_urlsafe(32)

    with phone.session_transaction() as session:
        session[keyring.HELD] = {str(n): token() for n in range(keyring.MAX_HELD)}
        session[keyring.MADE] = {str(n): [token() for _ in range(8)] for n in range(keyring.MAX_MADE)}
    assert len(phone.get_cookie("session").value) < 3500
    assert "Only a phone that keeps score" not in phone.get(f"/games/{next(iter(phone.keys))}/delete").text


def test_a_tampered_or_forged_cookie_is_refused_without_an_error(phone, app):
    value = phone.get_cookie("session").value
    flipped = value[:40] + ("A" if value[40] != "A" else "B") + value[41:]
    game_id = next(iter(phone.keys))
    for forged in [flipped, value[:-4], value[:10], "", "!!!", "a.b.c", value + "AAAA", "é" * 20]:
        other = app.test_client()
        other.set_cookie("session", forged)
        response = other.get(f"/games/{game_id}/delete")
        assert response.status_code == 200
        assert "Only a phone that keeps score" in response.text
        assert other.get("/import").status_code == 403


def test_a_phone_with_an_old_signed_cookie_keeps_its_keys_and_gets_a_sealed_one(phone, app):
    from flask.sessions import SecureCookieSessionInterface

    game_id, key = next(iter(phone.keys.items()))
    signed = SecureCookieSessionInterface().get_signing_serializer(app).dumps(
        {"edit_keys": {str(game_id): key}, "club_key": CLUB_KEY, "_permanent": True})
    old = app.test_client()
    old.set_cookie("session", signed)
    assert "Only a phone that keeps score" not in old.get(f"/games/{game_id}/delete").text
    renewed = old.get_cookie("session").value
    assert renewed != signed and key not in everything_an_eavesdropper_reads(renewed)
    assert old.get("/import").status_code == 200  # still the keeper, on the sealed cookie


def test_the_cookie_follows_the_secret_keys(phone, app):
    value = phone.get_cookie("session").value
    game_id = next(iter(phone.keys))
    old = app.secret_key
    try:
        app.secret_key = "a new secret"
        moved = app.test_client()
        moved.set_cookie("session", value)
        assert "Only a phone that keeps score" in moved.get(f"/games/{game_id}/delete").text
        app.config["SECRET_KEY_FALLBACKS"] = [old]
        kept = app.test_client()
        kept.set_cookie("session", value)
        assert "Only a phone that keeps score" not in kept.get(f"/games/{game_id}/delete").text
    finally:
        app.secret_key = old
        app.config["SECRET_KEY_FALLBACKS"] = []
