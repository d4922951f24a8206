"""The forms' CSRF tokens (the conftest ``client``: CSRF on), taken from the page as a browser does."""

from __future__ import annotations

import re

import pytest
from factories import (
    HTMX,
    csrf_token,
    game_form,
    games_stored,
    player_id,
    roster_names,
    round_form,
    rounds_stored,
    text,
    totals,
    went_to,
)

# =============================================================== CSRF (the conftest client: CSRF on)


def test_a_post_without_a_token_is_refused_and_stores_nothing(client, app):
    response = client.post("/players/", data={"name": "Ann"})
    assert response.status_code == 400
    assert "This form has expired" in text(response)
    assert roster_names(app) == []


def test_starting_a_game_without_a_token_is_refused(client, app):
    response = client.post("/games/new", data=game_form(["Ann", "Ben"], start="1"))
    assert response.status_code == 400
    assert games_stored(app) == 0


def test_forms_posted_with_the_pages_token_work(client, app):
    page = client.get("/players/")
    response = client.post("/players/", data={"name": "Ann", "csrf_token": csrf_token(page)})
    assert response.status_code == 303
    page = client.get("/games/new")
    data = {**game_form(["Ann", "Ben"], start="1"), "csrf_token": csrf_token(page)}
    response = client.post("/games/new", data=data)
    assert response.status_code == 303
    game_url = response.headers["Location"]
    form = client.get(f"{game_url}/rounds/new")
    data = {**round_form(1, went_out=0, hands={1: "K"}, save="1"), "csrf_token": csrf_token(form)}
    response = client.post(f"{game_url}/rounds/new", data=data, headers=HTMX)
    assert went_to(response) == game_url
    assert totals(client.get(game_url)) == {"Ann": 0, "Ben": 10}


def test_a_round_without_a_token_is_refused_and_stores_nothing(client, app):
    token = csrf_token(client.get("/games/new"))
    response = client.post("/games/new", data={**game_form(["Ann", "Ben"], start="1"), "csrf_token": token})
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    response = client.post(f"/games/{game_id}/rounds/new", data=round_form(1, went_out=0, hands={1: "K"}, save="1"))
    assert response.status_code == 400
    assert rounds_stored(app, game_id) == 0


def test_the_htmx_header_token_is_accepted(client, app):
    page = client.get("/players/")
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page.get_data(as_text=True)).group(1)
    response = client.post("/players/", data={"name": "Ann"}, headers={"X-CSRFToken": token, **HTMX})
    assert response.status_code in (200, 204, 303)
    assert went_to(response) == "/players/"
    assert roster_names(app) == ["Ann"]


@pytest.mark.parametrize("path", ["/players/{pid}/remove", "/games/{gid}/again", "/games/{gid}/rounds/1/delete"])
def test_confirmations_without_a_token_change_nothing(keeper, app, path):
    client = keeper  # the club's keeper: a removal is the keeper's
    token = csrf_token(client.get("/games/new"))
    response = client.post("/games/new", data={**game_form(["Ann", "Ben"], start="1"), "csrf_token": token})
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    client.post("/players/", data={"name": "Zed", "csrf_token": token})
    client.post(f"/games/{game_id}/rounds/new",
                data={**round_form(1, went_out=0, hands={1: "K"}, save="1"), "csrf_token": token}, headers=HTMX)
    url = path.format(pid=player_id(app, "Zed"), gid=game_id)
    assert client.post(url).status_code == 400
    assert "Zed" in roster_names(app)
    assert games_stored(app) == 1
    assert rounds_stored(app, game_id) == 1


# ============================================ over HTTPS, as a browser follows the page's policy

HTTPS = "https://scores.test"


def as_a_browser_posts_from(page, url: str) -> dict[str, str]:
    """The Origin and Referer a browser sends with a form the page at ``url`` posts to its own
    host, following the page's Referrer-Policy (the default, without one, sends both)."""
    policy = page.headers.get("Referrer-Policy", "strict-origin-when-cross-origin")
    if policy == "no-referrer":
        return {"Origin": "null"}
    return {"Origin": HTTPS, "Referer": url.split("#")[0]}


@pytest.mark.parametrize("path", ["/games/1/join", "/club"])
def test_a_key_link_posts_its_key_over_https(app, path):
    """Over HTTPS Flask-WTF wants a Referer from this host: a page that takes a key must let its
    own form send one, or no phone can open an edit link or the club link."""
    from conftest import CLUB_KEY

    client = app.test_client()
    client.environ_base["wsgi.url_scheme"] = "https"
    client.environ_base["HTTP_HOST"] = "scores.test"
    created = client.post("/api/games", json={"format": "scorekeeper-game/1", "rules": "balmoral",
                                              "players": ["Ann", "Ben"], "first_dealer": "Ann", "rounds": []},
                          base_url=HTTPS).get_json()
    key = created["edit_key"] if path.startswith("/games") else CLUB_KEY
    page = client.get(path, base_url=HTTPS)
    assert page.status_code == 200
    response = client.post(path, base_url=HTTPS, data={"csrf_token": csrf_token(page), "key": key},
                           headers=as_a_browser_posts_from(page, f"{HTTPS}{path}#key={key}"))
    assert response.status_code == 303, text(response)
    # Nothing of the key goes in that Referer: links carry it after "#".
    assert key not in as_a_browser_posts_from(page, f"{HTTPS}{path}#key={key}").get("Referer", "")
