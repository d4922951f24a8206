"""Limits: per-address rate limits with Retry-After, and the size of an import,
checked before anything reads the body."""

from __future__ import annotations

import io
import json
import re
import time
from types import SimpleNamespace

import pytest
from conftest import CLUB_KEY, close, form_token, make_app, make_keeper
from factories import HTMX, upload_bytes
from limits import parse_many
from history_games import random_docs

from scorekeeper.web import limits
from sqlalchemy import select

from scorekeeper.store.models import Game, SentHand, db

AUTH = {"Authorization": f"Bearer {CLUB_KEY}"}
GERMAN = {"Accept-Language": "de"}


@pytest.fixture
def limited(tmp_path):
    """An app with its limits on (the other tests' apps have them off)."""
    app = make_app(tmp_path, RATELIMIT_ENABLED=True, WTF_CSRF_ENABLED=False)
    yield app
    close(app)


def test_the_third_import_in_a_minute_is_a_429_with_retry_after(limited):
    keeper = make_keeper(limited.test_client())
    body = json.dumps(random_docs(1, seed=5)[0]).encode()
    assert upload_bytes(keeper, body).status_code == 200
    assert upload_bytes(keeper, body).status_code == 200
    third = upload_bytes(keeper, body)
    assert third.status_code == 429
    assert int(third.headers["Retry-After"]) > 0
    assert "Too many requests" in third.text
    assert "At most 2 imports a minute from one address: try again in a minute." in " ".join(third.text.split())
    # The API's import counts with the web's: the same act from the same address.
    api = keeper.post("/api/import", json=random_docs(1, seed=5)[0], headers=AUTH)
    assert api.status_code == 429 and "Retry-After" in api.headers
    assert api.get_json()["error"]["message"] == "2 per 1 minute"  # the API's words are the limiter's
    # Another address is not held back.
    elsewhere = make_keeper(limited.test_client())
    response = elsewhere.post("/import", data={"file": (io.BytesIO(body), "b.json")},
                              content_type="multipart/form-data", environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert response.status_code == 200


def test_a_limit_met_is_said_in_the_readers_words(limited):
    """The page a person meets a limit on names it in their language, with a plural of their
    own: never the limiter's "2 per 1 minute"."""
    keeper = make_keeper(limited.test_client())
    statuses = [keeper.get("/backup.json", headers=GERMAN).status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]
    page = keeper.get("/backup.json", headers=GERMAN)
    assert page.status_code == 429 and 'lang="de"' in page.text
    words = " ".join(page.text.split())
    assert "Höchstens 4 Sicherungen pro Minute von einer Adresse: versuche es in einer Minute noch einmal." in words
    assert "per 1 minute" not in words
    client = limited.test_client()
    for n in range(10):
        client.post("/players/", data={"name": f"Player {n}"})
    refused = client.post("/players/", data={"name": "One more"}, headers={**HTMX, "Accept-Language": "fi"})
    assert refused.status_code == 429
    assert "Enintään 10 uutta pelaajaa minuutissa yhdestä osoitteesta" in " ".join(refused.text.split())


@pytest.mark.parametrize("lang", ["en", "de", "es", "fr", "fi"])
def test_every_limit_is_said_in_words_in_every_language(app, lang):
    """Each limit of LIMITS, each of its windows: what it counts and how often, with the plural
    of the reader's language; an hour's limit says how long is left of it."""
    seen = set()
    for endpoint, (limit, _methods, scope) in limits.LIMITS.items():
        for item in parse_many(limit):
            with app.test_request_context(headers={"Accept-Language": lang}):
                words = limits.limit_words(SimpleNamespace(limit=item, reset_at=time.time() + 37 * 60 + 5), scope)
            assert str(item.amount) in words and "per 1" not in words and "%(" not in words, (endpoint, words)
            seen.add(words)
    assert len(seen) == 9  # four things counted by the minute and by the hour, hands sent by the minute
    if lang == "en":
        assert "At most 10 new games a minute from one address: try again in a minute. Nothing was changed." in seen
        assert "At most 60 new players an hour from one address: try again in 38 minutes. Nothing was changed." in seen
        assert "At most 2 imports a minute from one address: try again in a minute. Nothing was changed." in seen
        assert "At most 30 backups an hour from one address: try again in 38 minutes. Nothing was changed." in seen
    with app.test_request_context(headers={"Accept-Language": lang}):
        soon = limits.limit_words(SimpleNamespace(limit=parse_many("1 per 5 minutes")[0], reset_at=time.time() + 20),
                                  "imports")
        later = limits.limit_words(SimpleNamespace(limit=parse_many("3 per day")[0], reset_at=time.time() + 5 * 3600),
                                   None)
    if lang == "en":
        assert soon == "At most 1 import every 5 minutes from one address: try again in a minute. Nothing was changed."
        assert later == "At most 3 requests a day from one address: try again in 5 hours. Nothing was changed."


def test_backups_are_limited(limited):
    keeper = make_keeper(limited.test_client())
    statuses = [keeper.get("/backup.json").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 200, 429]


def test_starting_games_is_limited_but_arranging_the_seats_is_not(limited):
    client = limited.test_client()
    seats = {"seat-0": "Ann", "seat-1": "Ben", "rules": "balmoral"}
    for _ in range(30):  # taps that arrange the table post the form too: never counted
        assert client.post("/games/new", data={**seats, "up": "1"}).status_code == 200
    started = [client.post("/games/new", data={**seats, "start": "1"}).status_code for _ in range(11)]
    assert started == [303] * 10 + [429]
    with limited.app_context():
        assert db.session.query(Game).count() == 10
    assert client.post("/api/games", json={"format": "scorekeeper-game/1", "rules": "balmoral",
                                           "players": ["Ann", "Ben"], "first_dealer": "Ann",
                                           "rounds": []}).status_code == 429


def test_adding_players_is_limited_as_starting_games_is(limited):
    client = limited.test_client()
    added = [client.post("/players/", data={"name": f"Player {n}"}).status_code for n in range(11)]
    assert added == [303] * 10 + [429]
    assert "Retry-After" in client.post("/players/", data={"name": "One more"}).headers
    # A budget of its own: the table can still start its game.
    seats = {"seat-0": "Ann", "seat-1": "Ben", "rules": "balmoral", "start": "1"}
    assert client.post("/games/new", data=seats).status_code == 303


def test_api_writes_are_limited(limited):
    client = limited.test_client()
    statuses = [client.delete("/api/games/999/rounds/1").status_code for _ in range(121)]
    assert statuses[:120] == [404] * 120 and statuses[120] == 429
    assert client.get("/api/games/999").status_code == 404  # reads are not limited


def test_hands_sent_from_a_players_phone_are_limited_as_the_apis_writes_are(limited):
    """The seat's web form is no way around the API's limit; its keypad's taps write nothing and
    are not counted, so a phone without JavaScript still enters its hand."""
    keeper = limited.test_client()
    game = keeper.post("/games/new", data={"seat-0": "Ann", "seat-1": "Ben", "rules": "balmoral", "start": "1"})
    game_id = int(game.headers["Location"].rsplit("/", 1)[1])
    assert keeper.post(f"/games/{game_id}/seat-links").status_code == 303
    key = re.search(r'/games/\d+/seat#key=([^"]+)"', keeper.get(f"/games/{game_id}/share").text).group(1)
    ann = limited.test_client()
    ann.post(f"/games/{game_id}/seat", data={"key": key})
    # Were taps counted, these would leave fewer than 120 sends to the minute.
    for _ in range(5):
        assert ann.post(f"/games/{game_id}/hand", data={"number": "1", "key": "K"}).status_code == 200
    sent = [ann.post(f"/games/{game_id}/hand", data={"number": "1", "send": "1", "hand-0": "K" if n % 2 else "Q"})
            .status_code for n in range(121)]
    assert sent == [303] * 120 + [429]
    flagged = ann.post(f"/games/{game_id}/hand/flag", data={"number": "1"}, headers={"Accept-Language": "en"})
    assert flagged.status_code == 429
    assert "At most 120 hands sent a minute from one address" in " ".join(flagged.text.split())
    with limited.app_context():
        assert db.session.scalar(select(SentHand.revision)) == 120


@pytest.mark.parametrize("url", ["/games/new", "/players/", "/games/1/rounds/new", "/games/1/hand", "/club"])
def test_a_form_of_too_many_fields_or_bytes_is_refused_before_it_is_read(app, client, url, monkeypatch):
    """Anyone's form, the form token unchecked yet: a flood of empty fields, or one field of
    more bytes than any form of the app sends, is a 413 without a field of it being read."""
    read = []
    monkeypatch.setattr(limits, "parse_qsl", lambda *args, **kwargs: read.append(1) or [])
    flood = client.post(url, data="&" * 100_000, content_type="application/x-www-form-urlencoded")
    assert flood.status_code == 413 and "Too large" in flood.text
    large = client.post(url, data="name=" + "x" * (limits.MAX_FORM_MEMORY_SIZE + 1),
                        content_type="application/x-www-form-urlencoded")
    assert large.status_code == 413
    assert read == []
    multipart = client.post(url, data={f"f{n}": "" for n in range(limits.MAX_FORM_PARTS + 1)},
                            content_type="multipart/form-data")
    assert multipart.status_code == 413


def test_the_largest_form_of_the_app_is_within_the_limits():
    """A house rule set with every contract, bonus and row of decks it may have."""
    from scorekeeper.rules.documents import MAX_BONUSES, MAX_PLAYERS, MAX_STAGES
    assert 20 + 2 * MAX_STAGES + 2 * 20 + 3 * MAX_PLAYERS + 3 * MAX_BONUSES < limits.MAX_FORM_PARTS


def test_limits_are_generous_enough_for_a_table():
    """The numbers docs/running.md gives, and the reasons: a table starts a game every half hour."""
    assert limits.NEW_GAMES == "10 per minute; 60 per hour"
    assert limits.IMPORTS == "2 per minute; 20 per hour"
    assert limits.BACKUPS == "4 per minute; 30 per hour"
    assert limits.API_WRITES == "120 per minute"


def seven_megabyte_backup() -> bytes:
    """A real backup of a few games, spaced out to 7 MB (JSON allows any whitespace)."""
    doc = json.dumps({"format": "scorekeeper-backup/1", "games": random_docs(3, seed=8)})
    return (doc[:-1] + " " * (7 * 1024 * 1024) + "}").encode()


def test_a_7_mb_import_by_the_keeper_is_accepted_with_the_form_token_checked(app):
    # CSRF on: the check that once read the form (and so capped it at 2 MiB) before the view.
    keeper = make_keeper(app.test_client())
    token = form_token(keeper, "/import")
    body = seven_megabyte_backup()
    assert len(body) > 7 * 1024 * 1024
    response = upload_bytes(keeper, body, csrf_token=token)
    assert response.status_code == 200, response.text[:500]
    assert "3 games imported" in " ".join(response.text.split())


def test_an_import_over_the_limit_is_a_clear_413_before_the_body_is_read(app):
    keeper = make_keeper(app.test_client())
    token = form_token(keeper, "/import")
    app.config["IMPORT_MAX_BYTES"] = 5 * 1024 * 1024
    response = upload_bytes(keeper, seven_megabyte_backup(), csrf_token=token)
    assert response.status_code == 413
    assert "the most this page takes is 5 MB" in response.text and "flask --app scorekeeper games import" in response.text

    class Unread(io.BytesIO):
        def read(self, *args):  # noqa: ARG002
            raise AssertionError("the body was read")

    forty = {"CONTENT_LENGTH": str(40 * 1024 * 1024)}  # announced; the test client would count the stream
    announced = keeper.post("/import", input_stream=Unread(b""), content_type="multipart/form-data; boundary=x",
                            environ_overrides=forty)
    assert announced.status_code == 413 and "40.0 MB" in announced.text
    # A stranger's upload is refused for who sent it, before its size is looked at.
    assert app.test_client().post("/import", input_stream=Unread(b""), content_type="multipart/form-data; boundary=x",
                                  environ_overrides=forty).status_code == 403
