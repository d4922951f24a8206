"""Names that are what they look like: one way of writing each letter (NFC), and no
name that shows nothing."""

from __future__ import annotations

import pytest

from scorekeeper.store.models import Player, db

PRECOMPOSED = "Mar\u00eda"  # í as one character
DECOMPOSED = "Mari\u0301a"  # i and a combining acute accent: looks the same
GAME = {"format": "scorekeeper-game/1", "rules": "balmoral", "first_dealer": "Ben", "rounds": []}


def roster(app) -> list[str]:
    with app.app_context():
        return [p.name for p in db.session.query(Player).order_by(Player.id)]


def test_the_two_marias_are_one_player_from_the_form(app, web):
    assert web.post("/players/", data={"name": PRECOMPOSED}).status_code == 303
    refused = web.post("/players/", data={"name": DECOMPOSED})
    assert refused.status_code == 422 and "already on the roster" in refused.text
    assert roster(app) == [PRECOMPOSED]


def test_the_two_marias_are_one_player_from_the_api_and_files(app, client):
    first = client.post("/api/games", json={**GAME, "players": [DECOMPOSED, "Ben"]})
    assert first.status_code == 201
    # Stored as written once, in NFC.
    assert client.get(f"/api/games/{first.get_json()['id']}").get_json()["players"][0] == PRECOMPOSED
    second = client.post("/api/games", json={**GAME, "players": [PRECOMPOSED, "Ben"]})
    assert second.status_code == 201
    assert roster(app) == [PRECOMPOSED, "Ben"]
    # At one table, they are one person twice.
    twice = client.post("/api/games", json={**GAME, "players": [PRECOMPOSED, DECOMPOSED, "Ben"]})
    assert twice.status_code == 422 and "twice" in twice.get_json()["error"]["message"]
    # A round names the player either way.
    game_id = second.get_json()["id"]
    key = second.get_json()["edit_key"]
    recorded = client.post(f"/api/games/{game_id}/rounds", headers={"Authorization": f"Bearer {key}"},
                           json={"number": 1, "went_out": DECOMPOSED, "hands": {"Ben": "K"}})
    assert recorded.status_code == 201, recorded.text


@pytest.mark.parametrize("name", ["\u3164", "\u2800", "\u200d", "\u3164 \u2800", "\u115f\u1160", "\ufe0f", "\u2800\u200d\u3164"])
def test_a_name_that_shows_nothing_is_refused_with_a_message_that_says_so(app, web, client, name):
    form = web.post("/players/", data={"name": name})
    assert form.status_code == 422 and "shows nothing" in form.text and "invisible" in form.text
    api = client.post("/api/games", json={**GAME, "players": [name, "Ben"], "first_dealer": "Ben"})
    assert api.status_code == 422
    assert "shows nothing" in api.get_json()["error"]["message"] and api.get_json()["error"]["field"] == "players"
    new_game = web.post("/games/new", data={"seat-0": name, "seat-1": "Ben", "seat-2": "Cat", "rules": "balmoral",
                                            "start": "1"})
    assert new_game.status_code == 422 and "shows nothing" in new_game.text
    assert roster(app) == []


def test_a_name_with_a_filler_is_the_name_without_it(app, web):
    """ "Ann" and "Ann" followed by U+3164 look the same: the second is Ann again."""
    web.post("/players/", data={"name": "Ann"})
    refused = web.post("/players/", data={"name": "Ann\u3164"})
    assert refused.status_code == 422 and "already on the roster" in refused.text
