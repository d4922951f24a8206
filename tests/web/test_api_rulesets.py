"""The API's rule sets: listed with their documents, saved by the club's
keeper with the same checks as everywhere, and games started with a key or a whole document."""

import pytest
from conftest import CLUB_KEY
from factories import upload

from scorekeeper.store.models import Game, db
from scorekeeper.rules import LIVERPOOL, PRESET_DOCUMENTS, document_text, parse_ruleset

KEEPER = {"Authorization": f"Bearer {CLUB_KEY}"}
FAMILY = {**PRESET_DOCUMENTS["liverpool"], "name": "Family Liverpool",
          "values": {**PRESET_DOCUMENTS["liverpool"]["values"], "A": 20}}


def new_game(rules, **more):
    return {"format": "scorekeeper-game/2", "rules": rules, "players": ["Ann", "Ben", "Cat"], "first_dealer": "Ann",
            "rounds": [], **more}


def test_the_presets_are_listed_with_their_documents(client):
    body = client.get("/api/rulesets").get_json()
    assert [r["key"] for r in body["rulesets"]] == ["balmoral", "classic", "liverpool", "shanghai", "phase10"]
    liverpool = body["rulesets"][2]
    assert liverpool["preset"] is True and liverpool["name"] == "Liverpool Rummy"
    assert liverpool["document"] == dict(PRESET_DOCUMENTS["liverpool"])
    assert liverpool["summary"] == LIVERPOOL.summary and "Perfect cut −50" in liverpool["summary"]


def test_the_keeper_saves_a_house_rule_set_and_a_game_starts_from_its_key(client, app):
    saved = client.post("/api/rulesets", json=FAMILY, headers=KEEPER)
    assert saved.status_code == 201, saved.get_json()
    body = saved.get_json()
    assert body["key"] == "house-1" and body["preset"] is False and body["document"]["values"]["A"] == 20
    assert [r["key"] for r in client.get("/api/rulesets").get_json()["rulesets"]][-1] == "house-1"
    created = client.post("/api/games", json=new_game("house-1"))
    assert created.status_code == 201, created.get_json()
    game = client.get(f"/api/games/{created.get_json()['id']}").get_json()
    assert game["rules"]["name"] == "Family Liverpool" and game["jokers"] == 4
    with app.app_context():
        stored = db.session.get(Game, created.get_json()["id"])
        # The key it came from, and its own copy of the rules.
        assert stored.rules == "house-1"
        assert stored.rules_document == document_text(parse_ruleset(FAMILY))


def test_a_game_starts_from_a_whole_document_or_a_preset_key(client, app):
    by_document = client.post("/api/games", json=new_game(FAMILY))
    by_key = client.post("/api/games", json=new_game("shanghai"))
    assert by_document.status_code == by_key.status_code == 201
    with app.app_context():
        assert db.session.get(Game, by_document.get_json()["id"]).rules == "imported"
        assert db.session.get(Game, by_key.get_json()["id"]).rules == "shanghai"
    game = client.get(f"/api/games/{by_key.get_json()['id']}").get_json()
    assert game["format"] == "scorekeeper-game/2" and game["rules"]["name"] == "Shanghai Rummy"


def test_refusals_name_the_field(client):
    no_two = {k: v for k, v in FAMILY["values"].items() if k != "2"}
    refused = client.post("/api/rulesets", json={**FAMILY, "values": no_two}, headers=KEEPER)
    assert refused.status_code == 422
    body = refused.get_json()
    assert body["error"] == {"message": "values: no value for 2", "field": "values"}
    assert body["problems"] == [{"field": "values", "message": "no value for 2", "rank": "2"}]
    taken = client.post("/api/rulesets", json={**FAMILY, "name": "liverpool rummy"}, headers=KEEPER)
    assert taken.status_code == 422 and taken.get_json()["error"]["field"] == "name"
    assert "another rule set is called \u201cliverpool rummy\u201d (as \u201cLiverpool Rummy\u201d)" \
        in taken.get_json()["error"]["message"]
    unknown = client.post("/api/games", json=new_game("house-9"))
    assert unknown.status_code == 422
    assert unknown.get_json()["error"] == {"message": "no house rule set 9 (the house rule sets: GET /api/rulesets)",
                                           "field": "rules"}
    # A version 1 file names balmoral or classic only.
    v1 = client.post("/api/games", json={**new_game("liverpool"), "format": "scorekeeper-game/1"})
    assert v1.status_code == 422 and v1.get_json()["error"]["field"] == "rules"
    bad_doc = client.post("/api/games", json=new_game({**FAMILY, "winner": "highest"}))
    assert bad_doc.status_code == 422
    assert bad_doc.get_json()["error"]["message"].startswith('rules: winner: must be "lowest" or "lowest-finisher"')


def test_only_the_keeper_saves_house_rule_sets(client):
    assert client.post("/api/rulesets", json=FAMILY).status_code == 401
    assert client.post("/api/rulesets", json=FAMILY, headers={"Authorization": "Bearer nope"}).status_code == 403
    assert len(client.get("/api/rulesets").get_json()["rulesets"]) == 5


HALF = "\ud800"  # half a character: no file, database or page can hold it


def _with_half_character(field: str) -> dict:
    """FAMILY with a lone surrogate in one of its texts."""
    if field == "contract":
        return {**FAMILY, "stages": [{**FAMILY["stages"][0], "contract": "2 sets " + HALF}, *FAMILY["stages"][1:]]}
    if field == "label":
        return {**FAMILY, "bonuses": [{**FAMILY["bonuses"][0], "label": "Cut " + HALF}]}
    return {**FAMILY, field: f"Family {HALF}"}


@pytest.mark.parametrize("field", ["name", "stage_name", "note", "contract", "label"])
def test_half_a_character_in_any_text_of_a_rule_set_is_refused_in_words(client, app, field):
    saved = client.post("/api/rulesets", json=_with_half_character(field), headers=KEEPER)
    assert saved.status_code == 422, saved.get_data(as_text=True)
    assert "half" in saved.get_json()["error"]["message"]
    started = client.post("/api/games", json=new_game(_with_half_character(field)))
    assert started.status_code == 422, started.get_data(as_text=True)
    assert started.get_json()["error"]["field"] == "rules"
    with app.app_context():
        assert db.session.query(Game).count() == 0


@pytest.mark.parametrize("name", ["\u3164", "\u2800", "\u200b", "Family \u202eLiverpool", "\u200bFamily\u200e"])
def test_a_rule_sets_name_follows_the_same_rule_as_a_players(client, name):
    refused = client.post("/api/rulesets", json={**FAMILY, "name": name}, headers=KEEPER)
    assert refused.status_code == 422
    assert refused.get_json()["error"]["field"] == "name"


def test_a_game_file_whose_rules_hold_half_a_character_is_refused_on_import(web, app):
    response = upload(web, new_game(_with_half_character("note")))
    assert response.status_code == 422
    assert "half" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(Game).count() == 0
