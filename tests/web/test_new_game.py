"""Starting a game (/games/new): the rule sets, seats and dealer, what is refused."""

from __future__ import annotations

import re

import pytest
from factories import (
    ANN_BEN_CAT_DAN,
    CONTRACT_1,
    HTMX,
    add_player,
    board,
    follow,
    game_form,
    games_stored,
    input_value,
    is_checked,
    new_game,
    roster_names,
    standings,
    text,
    totals,
    went_to,
)

# =============================================================== new game: /games/new


def test_the_new_game_page_offers_both_rule_sets(web):
    response = web.get("/games/new")
    assert response.status_code == 200
    assert "Balmoral Rummy" in text(response) and "Contract Rummy (classic)" in text(response)


def test_starting_a_balmoral_game(web, app):
    response = web.post("/games/new", data=game_form(ANN_BEN_CAT_DAN, dealer=2, start="1"))
    assert response.status_code == 303
    assert re.fullmatch(r"/games/\d+", response.headers["Location"])
    page = web.get(response.headers["Location"])
    seen = text(page)
    assert "Round 1" in seen
    assert "Cat deals" in seen and "Dan plays first" in seen
    assert "13 cards each" in seen
    assert "2 decks" in seen and "joker" not in seen.lower()
    rows = standings(page)
    assert list(rows) == ANN_BEN_CAT_DAN
    assert all(row.total == 0 and CONTRACT_1 in row.line for row in rows.values())
    assert "never wraps" in seen  # RULES.md: the contract text says runs never wrap
    assert sorted(roster_names(app)) == ANN_BEN_CAT_DAN


def test_starting_a_game_with_htmx_leads_to_its_scoreboard(web, app):
    response = web.post("/games/new", data=game_form(["Ann", "Ben"], start="1"), headers=HTMX)
    assert response.status_code in (200, 204)
    assert re.fullmatch(r"/games/\d+", went_to(response))
    shown = follow(web, response)
    assert "<html" not in shown.get_data(as_text=True)
    assert totals(shown) == {"Ann": 0, "Ben": 0}
    assert games_stored(app) == 1


def test_a_new_game_uses_the_roster_spelling_of_a_known_player(web):
    add_player(web, "Zoë")
    game_id = new_game(web, ["  zoË ", "Ben"])
    assert list(totals(board(web, game_id))) == ["Zoë", "Ben"]


@pytest.mark.parametrize("names", [["Ann"], []])
def test_too_few_players_are_refused(web, app, names):
    response = web.post("/games/new", data=game_form(names, start="1"))
    assert response.status_code == 422
    assert f"Balmoral Rummy is for 2 to 8 players, not {len(names)}" in text(response)
    assert games_stored(app) == 0


def test_classic_with_two_players_is_refused(web, app):
    response = web.post("/games/new", data=game_form(["Ann", "Ben"], rules="classic", start="1"))
    assert response.status_code == 422
    assert "Contract Rummy (classic) is for 3 to 8 players, not 2" in text(response)
    assert games_stored(app) == 0


def test_the_same_name_twice_at_the_table_is_refused(web, app):
    response = web.post("/games/new", data=game_form(["Ann", "Ben", " ANN "], start="1"))
    assert response.status_code == 422
    assert "at the table twice" in text(response)
    assert "ANN" in text(response)
    assert games_stored(app) == 0


def test_a_refused_game_keeps_the_names_typed(web):
    response = web.post("/games/new", data=game_form(["Ann", "ann"], start="1"))
    assert response.status_code == 422
    assert input_value(response, "seat-0") == "Ann"
    assert input_value(response, "seat-1") == "ann"


def test_a_seat_name_over_40_characters_is_refused(web, app):
    response = web.post("/games/new", data=game_form(["Ann", "D" * 41], start="1"))
    assert response.status_code == 422
    assert "longer than 40 characters" in text(response)
    assert games_stored(app) == 0


def test_jokers_are_refused_for_balmoral(web, app):
    response = web.post("/games/new", data=game_form(["Ann", "Ben"], start="1", jokers="2"))
    assert response.status_code == 422
    assert "Balmoral Rummy plays without jokers" in text(response)
    assert games_stored(app) == 0


def test_too_few_decks_for_the_table_are_refused(web, app):
    names = ["Ann", "Ben", "Cat", "Dan", "Eve"]
    response = web.post("/games/new", data=game_form(names, start="1", decks="1"))
    assert response.status_code == 422
    assert "1 deck cannot deal 13 cards to 5 players" in text(response)
    assert games_stored(app) == 0


def test_a_classic_game_gets_the_suggested_decks_and_jokers(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat", "Dan", "Eve"], rules="classic")
    seen = text(board(web, game_id))
    assert "Deal 1: two groups" in seen
    assert "10 cards each" in seen
    assert "3 decks, 2 jokers" in seen


def test_pick_seats_a_roster_player_without_starting_a_game(web, app):
    add_player(web, "Zoë")
    response = web.post("/games/new", data={**game_form(["Ann", "Ben"]), "pick": "Zoë"})
    assert response.status_code == 200
    assert [input_value(response, f"seat-{i}") for i in range(3)] == ["Ann", "Ben", "Zoë"]
    assert 'name="pick" value="Zoë"' not in response.get_data(as_text=True)  # no longer offered
    assert games_stored(app) == 0


def test_pick_does_not_seat_someone_twice(web):
    add_player(web, "Ann")
    response = web.post("/games/new", data={**game_form(["ann", "Ben"]), "pick": "Ann"})
    assert response.status_code == 200
    assert input_value(response, "seat-0") == "ann"
    assert input_value(response, "seat-1") == "Ben"
    assert input_value(response, "seat-2") == ""


def test_up_moves_a_player_one_seat_and_the_dealer_mark_with_them(web, app):
    response = web.post("/games/new", data={**game_form(["Ann", "Ben", "Cat"], dealer=2), "up": "2"})
    assert response.status_code == 200
    assert [input_value(response, f"seat-{i}") for i in range(3)] == ["Ann", "Cat", "Ben"]
    assert is_checked(response, "dealer", "1")  # Cat still deals first
    assert games_stored(app) == 0


def test_drop_takes_a_player_off_the_table(web, app):
    response = web.post("/games/new", data={**game_form(["Ann", "Ben", "Cat"], dealer=2), "drop": "0"})
    assert response.status_code == 200
    assert [input_value(response, f"seat-{i}") for i in range(2)] == ["Ben", "Cat"]
    assert input_value(response, "seat-2") == ""
    assert is_checked(response, "dealer", "1")  # Cat still deals first
    assert games_stored(app) == 0


def test_seats_arranged_with_the_buttons_then_start_as_shown(web):
    page = web.post("/games/new", data={**game_form(["Ann", "Ben", "Cat"], dealer=0), "up": "1"})
    assert is_checked(page, "dealer", "1")  # Ann, now in the second seat, still deals first
    form = {f"seat-{i}": input_value(page, f"seat-{i}") for i in range(3)}
    response = web.post("/games/new", data={**form, "rules": "balmoral", "dealer": "1",
                                            "dealer_rule": "winner", "start": "1"})
    assert response.status_code == 303
    page = web.get(response.headers["Location"])
    assert list(totals(page)) == ["Ben", "Ann", "Cat"]
    assert "Ann deals" in text(page) and "Cat plays first" in text(page)


def test_the_chosen_dealer_deals_when_a_seat_above_was_cleared(web):
    """Regression: the dealer radio's value is the seat input's index, but blank seats were
    dropped before ``seats[dealer]`` was read, so someone else dealt."""
    # The person cleared Ben's seat (seat-1) and ticked "deals first" on Cat (seat-2).
    data = game_form(["Ann", "", "Cat", "Dan"], dealer=2, start="1")
    response = web.post("/games/new", data=data)
    assert response.status_code == 303
    assert "Cat deals" in text(web.get(response.headers["Location"]))


def test_new_game_like_an_old_one_prefills_the_table(web, balmoral):
    response = web.get(f"/games/new?like={balmoral}")
    assert response.status_code == 200
    assert [input_value(response, f"seat-{i}") for i in range(4)] == ANN_BEN_CAT_DAN
    assert is_checked(response, "dealer", "1")  # the deal moves on one seat


def test_the_seats_show_each_known_players_own_colour_as_the_game_will(web):
    first = new_game(web, ["Ann", "Ben", "Cat", "Dan"])
    board_dots = re.findall(r'<span class="dot (seat-\d)"[^>]*></span><span class="pname">(\w+)<',
                            web.get(f"/games/{first}").get_data(as_text=True))
    colours = dict((name, dot) for dot, name in board_dots)
    assert set(colours) == {"Ann", "Ben", "Cat", "Dan"}
    seating = web.post("/games/new", data=game_form(["Ann", "Ben", "Cat", "Dan", "Newt"], refresh="1"))
    dots = re.findall(r'<span class="(dot[^"]*)" id="seat-dot-(\d)"', seating.get_data(as_text=True))
    assert [cls for cls, _ in dots[:4]] == [f"dot {colours[n]}" for n in ("Ann", "Ben", "Cat", "Dan")]
    # Newt is no player yet: no colour to promise, nor for the empty seat after.
    assert [cls for cls, _ in dots[4:]] == ["dot", "dot"]
