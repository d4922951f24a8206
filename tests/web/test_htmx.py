"""htmx: a fragment for htmx, the whole page otherwise; where a change leads."""

from __future__ import annotations

import pytest
from factories import (
    HTMX,
    follow,
    player_id,
    post_round,
    rounds_stored,
    save_round,
    text,
    totals,
    went_to,
)

# =============================================================== htmx


def test_an_htmx_request_gets_a_fragment_and_a_normal_one_a_page(web, played):
    full = web.get(f"/games/{played}")
    part = web.get(f"/games/{played}", headers=HTMX)
    assert full.status_code == part.status_code == 200
    assert "<html" in full.get_data(as_text=True)
    assert "<html" not in part.get_data(as_text=True)
    assert "<body" not in part.get_data(as_text=True)
    assert totals(part) == totals(full)


def test_a_boosted_request_gets_the_full_page(web, balmoral):
    response = web.get(f"/games/{balmoral}", headers={"HX-Request": "true", "HX-Boosted": "true"})
    assert "<html" in response.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/", "/players/", "/games/new", "/games/{id}", "/games/{id}/rounds/new",
                                  "/games/{id}/rounds/1/edit", "/games/{id}/rounds/1/delete", "/games/999"])
@pytest.mark.parametrize("htmx", [False, True])
def test_every_response_varies_on_hx_request(web, played, path, htmx):
    headers = {"HX-Request": "true"} if htmx else {}
    response = web.get(path.format(id=played), headers=headers)
    assert "HX-Request" in response.headers.get("Vary", "")
    assert ("<html" in response.get_data(as_text=True)) is not htmx


def test_an_htmx_save_leads_to_the_scoreboard_fragment(web, balmoral):
    response = post_round(web, balmoral, 1, went_out=1, hands={0: "K", 2: "Q", 3: "J"}, headers=HTMX)
    assert response.status_code in (200, 204)  # the scoreboard itself, or where htmx is to fetch it
    assert went_to(response) == f"/games/{balmoral}"
    assert "HX-Request" in response.headers["Vary"]
    shown = follow(web, response)
    assert "<html" not in shown.get_data(as_text=True)
    assert "Round 1 saved." in text(shown)
    assert totals(shown) == {"Ann": 10, "Ben": 0, "Cat": 10, "Dan": 10}


def test_an_htmx_refusal_answers_with_the_form_fragment(web, balmoral):
    response = post_round(web, balmoral, 1, went_out=1, hands={0: "A X", 2: "Q", 3: "J"}, headers=HTMX)
    assert response.status_code == 422
    assert "<html" not in response.get_data(as_text=True)
    assert 'Ann: "X" is not a card' in text(response)


def test_an_htmx_double_post_gets_the_scoreboard_saved(web, app, balmoral):
    fields = dict(went_out=1, hands={0: "K", 2: "Q", 3: "J"})
    save_round(web, balmoral, 1, **fields)
    response = post_round(web, balmoral, 1, headers=HTMX, **fields)
    assert response.status_code == 200
    assert "<html" not in response.get_data(as_text=True)
    assert "Round 1 saved." in text(response)
    assert "another tap or phone" not in text(response)
    assert rounds_stored(app, balmoral) == 1


def test_the_pages_answer_htmx_with_a_fragment(web, app, four):
    for url in ("/history", f"/games/{four[0]}/story", f"/players/{player_id(app, 'Ann')}", "/import"):
        response = web.get(url, headers={"HX-Request": "true"})
        assert response.status_code == 200
        assert "<html" not in response.get_data(as_text=True)
        assert "<html" in web.get(url).get_data(as_text=True)
