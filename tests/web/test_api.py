"""The JSON API and edit rights: who may change a game, and how it is watched."""

import re

import pytest
from conftest import join
from factories import csrf_token, rounds_stored
from sqlalchemy import func, select

from scorekeeper.store.models import Game, db

GAME = {
    "format": "scorekeeper-game/1",
    "rules": "balmoral",
    "players": ["Ann", "Ben", "Cat"],
    "first_dealer": "Ann",
    "rounds": [],
}
ROUND = {"number": 1, "went_out": "Ann", "hands": {"Ben": "K", "Cat": "2"}, "achieved": ["Cat"]}


@pytest.fixture
def created(client):
    response = client.post("/api/games", json=GAME)
    assert response.status_code == 201
    body = response.get_json()
    return body["id"], {"Authorization": f"Bearer {body['edit_key']}"}


def test_create_answers_id_key_and_links(client):
    body = client.post("/api/games", json=GAME).get_json()
    assert body["id"] == 1 and len(body["edit_key"]) >= 40
    assert body["watch_url"].endswith("/games/1/watch")
    assert body["edit_url"].endswith(f"/games/1/join#key={body['edit_key']}")
    game = client.get("/api/games/1").get_json()
    assert game["players"] == ["Ann", "Ben", "Cat"] and game["result"]["next"]["dealer"] == "Ann"


def test_the_same_round_twice_is_stored_once_and_answered_alike(app, client, created):
    game_id, auth = created
    first = client.post(f"/api/games/{game_id}/rounds", json=ROUND, headers=auth)
    again = client.post(f"/api/games/{game_id}/rounds", json={**ROUND, "went_out": "ann"}, headers=auth)
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    assert first.get_json()["penalties"] == {"Ann": 0, "Ben": 10, "Cat": 2}
    assert rounds_stored(app) == 1


def test_a_different_round_with_a_taken_number_is_a_conflict(app, client, created):
    game_id, auth = created
    client.post(f"/api/games/{game_id}/rounds", json=ROUND, headers=auth)
    other = client.post(f"/api/games/{game_id}/rounds", json={**ROUND, "hands": {"Ben": "Q", "Cat": "3"}}, headers=auth)
    assert other.status_code == 409
    body = other.get_json()
    assert body["error"]["field"] == "number"
    assert body["game"]["result"]["players"][1]["total"] == 10
    assert rounds_stored(app) == 1


def test_a_number_that_skips_ahead_is_refused(app, client, created):
    game_id, auth = created
    response = client.post(f"/api/games/{game_id}/rounds", json={**ROUND, "number": 3}, headers=auth)
    assert response.status_code == 422
    assert response.get_json()["error"]["field"] == "number"
    assert "round 1 comes next" in response.get_json()["error"]["message"]
    assert rounds_stored(app) == 0


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({**ROUND, "hands": {"Ben": "K X", "Cat": "2"}}, 422, "hands"),
        ({**ROUND, "surprise": True}, 422, "surprise"),
        ({**ROUND, "number": "1"}, 422, "number"),
        ({**ROUND, "number": True}, 422, "number"),
        ({**ROUND, "number": 10**12}, 422, "number"),
        ({**ROUND, "went_out": 7}, 422, "went_out"),
        ({**ROUND, "points": {"Ben": 10**9}, "hands": {"Cat": "2"}}, 422, "points"),
        ({**ROUND, "points": {"Ben": -3}, "hands": {"Cat": "2"}}, 422, "points"),
        ({**ROUND, "hands": {"Ben": "K K K K K K K K K", "Cat": "2"}}, 422, "hands"),
        ({**ROUND, "hands": {"Ben": "<script>alert(1)</script>", "Cat": "2"}}, 422, "hands"),
        ([1, 2], 422, None),
    ],
)
def test_bad_rounds_are_refused_with_the_field_named(app, client, created, body, status, field):
    game_id, auth = created
    response = client.post(f"/api/games/{game_id}/rounds", json=body, headers=auth)
    assert response.status_code == status
    error = response.get_json()["error"]
    if field:
        assert error.get("field") == field, error
    assert rounds_stored(app) == 0


def test_malformed_json_and_wrong_type(client, created):
    game_id, auth = created
    broken = client.post(f"/api/games/{game_id}/rounds", data="{not json",
                         headers={**auth, "Content-Type": "application/json"})
    assert broken.status_code == 400 and "not valid JSON" in broken.get_json()["error"]["message"]
    text = client.post(f"/api/games/{game_id}/rounds", data="x", headers={**auth, "Content-Type": "text/plain"})
    assert text.status_code == 415


def test_create_refuses_bad_game_files(app, client):
    bad = client.post("/api/games", json={**GAME, "players": ["Ann"]})
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "players"
    bad = client.post("/api/games", json={**GAME, "rules": "gin"})
    assert bad.status_code == 422 and bad.get_json()["error"]["field"] == "rules"
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0


@pytest.mark.parametrize(("auth", "status"), [({}, 401), ({"Authorization": "Basic abc"}, 401),
                                            ({"Authorization": "Bearer wrong"}, 403)])
def test_without_the_key_nothing_changes_through_the_api(app, client, created, auth, status):
    game_id, good = created
    client.post(f"/api/games/{game_id}/rounds", json=ROUND, headers=good)
    answers = (client.post(f"/api/games/{game_id}/rounds", json={**ROUND, "number": 2}, headers=auth),
               client.put(f"/api/games/{game_id}/rounds/1", json=ROUND, headers=auth),
               client.delete(f"/api/games/{game_id}/rounds/1", headers=auth))
    for answer in answers:
        assert answer.status_code == status
        assert "edit key" in answer.get_json()["error"]["message"]
        # No key: say which kind of credentials to send; a wrong key: sending it again won't help.
        assert ("WWW-Authenticate" in answer.headers) == (status == 401)
    assert rounds_stored(app) == 1


def test_put_and_delete_correct_rounds_with_the_rules(client, created):
    game_id, auth = created
    for n in range(1, 4):
        client.post(f"/api/games/{game_id}/rounds", json={**ROUND, "number": n}, headers=auth)
    fixed = client.put(f"/api/games/{game_id}/rounds/1", json={"went_out": "Ben", "hands": {"Ann": "A", "Cat": "2"}},
                       headers=auth)
    assert fixed.status_code == 200 and fixed.get_json()["penalties"]["Ann"] == 15
    game = client.get(f"/api/games/{game_id}").get_json()
    assert [r["dealer"] for r in game["result"]["rounds"]] == ["Ann", "Ben", "Ann"]
    etag = client.get(f"/api/games/{game_id}").headers["ETag"]
    stale = client.delete(f"/api/games/{game_id}/rounds/1", headers={**auth, "If-Match": '"api-g1-v1"'})
    assert stale.status_code == 412
    # A tag that names no version of this game is refused as stale, changing nothing: one that
    # was never given, another game's, one of another form, one of too many digits.
    for odd in ('"api-g1-v999"', f'"api-g{game_id + 1}-v{etag.strip(chr(34)).rpartition("-v")[2]}"', '"nonsense"',
                '"api-g1-v12345678901"', '""'):
        refused = client.put(f"/api/games/{game_id}/rounds/1", json=ROUND, headers={**auth, "If-Match": odd})
        assert refused.status_code == 412, (odd, refused.get_json())
    assert client.get(f"/api/games/{game_id}").headers["ETag"] == etag
    gone = client.delete(f"/api/games/{game_id}/rounds/1", headers={**auth, "If-Match": etag})
    assert gone.status_code == 200 and len(gone.get_json()["rounds"]) == 2
    assert client.put(f"/api/games/{game_id}/rounds/9", json=ROUND, headers=auth).status_code == 404


def test_get_is_conditional_and_unknown_is_json_404(client, created):
    game_id, _ = created
    first = client.get(f"/api/games/{game_id}")
    assert client.get(f"/api/games/{game_id}", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    missing = client.get("/api/games/99")
    assert missing.status_code == 404 and missing.is_json
    assert client.get("/api/nowhere").is_json


def test_openapi_document_lists_every_operation(client):
    doc = client.get("/api/openapi.json").get_json()
    operations = {op["operationId"] for path in doc["paths"].values() for op in path.values()}
    assert operations == {"createGame", "getGame", "recordRound", "replaceRound", "deleteRound", "importFiles",
                          "backup", "ratings", "rulesets", "saveRuleset", "makeSeatLinks", "sentHands", "sendHand",
                          "flagRound", "nights", "getNight"}


def linked_operations(doc: dict, answer: dict) -> set[str]:
    """The operations an answer links to, each link written in place or named among the components."""
    links = [doc["components"]["links"][link["$ref"].removeprefix("#/components/links/")] if "$ref" in link
             else link for link in answer["links"].values()]
    return {link["operationId"] for link in links}


def test_a_created_game_links_to_itself_and_its_rounds(client, created):
    doc = client.get("/api/openapi.json").get_json()
    assert linked_operations(doc, doc["paths"]["/api/games"]["post"]["responses"]["201"]) == {"getGame", "recordRound"}
    rounds = {"getGame", "replaceRound", "deleteRound"}
    assert linked_operations(doc, doc["paths"]["/api/games/{game_id}/rounds"]["post"]["responses"]["201"]) == rounds
    assert linked_operations(doc, doc["paths"]["/api/games/{game_id}/rounds/{number}"]["put"]["responses"]["200"]) == rounds


@pytest.mark.parametrize(("method", "path", "allowed"), [
    ("PATCH", "/api/games", {"POST", "OPTIONS"}),
    ("DELETE", "/api/games/1", {"GET", "HEAD", "OPTIONS"}),
    ("GET", "/api/games/1/rounds", {"POST", "OPTIONS"}),
    ("POST", "/api/games/1/rounds/1", {"PUT", "DELETE", "OPTIONS"}),
    ("PUT", "/", {"GET", "HEAD", "OPTIONS"}),
])
def test_a_method_not_allowed_says_which_are(client, created, method, path, allowed):
    # RFC 9110: a 405 carries Allow. The answer stays JSON under /api/ and a page elsewhere.
    response = client.open(path, method=method)
    assert response.status_code == 405
    assert set(response.headers["Allow"].split(", ")) == allowed
    assert response.mimetype == ("application/json" if path.startswith("/api/") else "text/html")


# ----------------------------------------------------------------- HTML edit rights


def csrf(client, url="/players/"):
    return csrf_token(client.get(url))


def test_a_watching_browser_cannot_change_a_game_through_the_forms(app, client, created):
    game_id, auth = created
    client.post(f"/api/games/{game_id}/rounds", json=ROUND, headers=auth)
    token = csrf(client)
    board = client.get(f"/games/{game_id}")
    assert "Record round" not in board.text and "only the scorekeeper can change it" in board.text
    form = {"csrf_token": token, "number": "2", "went_out": "0", "hand-1": "K", "hand-2": "2", "save": "1"}
    assert client.get(f"/games/{game_id}/rounds/new").status_code == 403
    assert client.post(f"/games/{game_id}/rounds/new", data=form).status_code == 403
    assert client.post(f"/games/{game_id}/rounds/1/edit", data=form).status_code == 403
    assert client.post(f"/games/{game_id}/rounds/1/delete", data={"csrf_token": token}).status_code == 403
    assert client.post(f"/games/{game_id}/key", data={"csrf_token": token}).status_code == 403
    assert rounds_stored(app) == 1


def test_join_link_hands_over_and_a_new_key_revokes_it(app, client):
    create = client.post("/api/games", json=GAME).get_json()
    game_id, key = create["id"], create["edit_key"]
    assert join(client, game_id, "nonsense").status_code == 403
    joined = join(client, game_id, key, follow_redirects=True)
    assert "can now keep score" in joined.text and "Record round 1" in joined.text
    # Another phone joins with the same link, then the first makes a new key.
    other = app.test_client()
    join(other, game_id, key)
    assert other.get(f"/games/{game_id}/rounds/new").status_code == 200
    share = client.get(f"/games/{game_id}/share")
    assert "<svg" in share.text and f"/games/{game_id}/watch" in share.text
    token = csrf(client)
    client.post(f"/games/{game_id}/key", data={"csrf_token": token})
    assert client.get(f"/games/{game_id}/rounds/new").status_code == 200
    assert other.get(f"/games/{game_id}/rounds/new").status_code == 403
    assert client.post(f"/api/games/{game_id}/rounds", json=ROUND,
                       headers={"Authorization": f"Bearer {key}"}).status_code == 403


def test_unchanged_poll_is_204_and_a_change_sends_the_board(client, created):
    game_id, auth = created
    board = client.get(f"/games/{game_id}/watch")
    version = int(re.search(r"/live\?v=(\d+)&", board.text).group(1))
    poll = client.get(f"/games/{game_id}/live?v={version}&watch=1", headers={"HX-Request": "true"})
    assert poll.status_code == 204 and poll.data == b""
    client.post(f"/api/games/{game_id}/rounds", json=ROUND, headers=auth)
    poll = client.get(f"/games/{game_id}/live?v={version}&watch=1", headers={"HX-Request": "true"})
    assert poll.status_code == 200 and "Ben went out" not in poll.text and "Ann went out" in poll.text
    assert f"v={version + 1}" in poll.text and "<html" not in poll.text
