"""The roster (/players/): adding, renaming and removing players; names in any script."""

from __future__ import annotations

import re

import pytest
from factories import (
    add_player,
    board,
    input_value,
    new_game,
    player_id,
    roster_names,
    save_round,
    text,
    totals,
)
from scorekeeper.web import languages

# =============================================================== roster: /players/


def test_adding_a_player_puts_them_on_the_roster(web, app):
    response = add_player(web, "Ann")
    assert response.status_code == 303
    assert response.headers["Location"] == "/players/"
    page = web.get("/players/")
    assert "Ann is on the roster." in text(page)
    assert "Ann" in roster_names(app)


@pytest.mark.parametrize("again", ["ann", "  ANN  ", "Ann"])
def test_a_name_already_on_the_roster_is_refused_ignoring_case_and_spaces(web, app, again):
    add_player(web, "Ann")
    response = add_player(web, again)
    assert response.status_code == 422
    assert '"Ann" is already on the roster' in text(response)
    assert roster_names(app) == ["Ann"]


def test_repeated_inner_spaces_count_as_one(web, app):
    add_player(web, "Ana María")
    response = add_player(web, "  ana    MARÍA ")
    assert response.status_code == 422
    assert '"Ana María" is already on the roster' in text(response)
    assert roster_names(app) == ["Ana María"]


@pytest.mark.parametrize("name", ["Zoë", "Ana María", "O'Brien", "李", "Ólafur Þór", "Дмитрий"])
def test_names_in_any_script_are_accepted_and_shown_as_typed(web, app, name):
    response = add_player(web, name)
    assert response.status_code == 303
    assert name in text(web.get("/players/"))
    assert roster_names(app) == [name]


def test_a_name_is_stored_with_spaces_tidied(web, app):
    add_player(web, "  Mary   Jane  ")
    assert roster_names(app) == ["Mary Jane"]


def test_a_name_of_40_characters_is_accepted(web, app):
    assert add_player(web, "A" * 40).status_code == 303
    assert roster_names(app) == ["A" * 40]


def test_a_name_over_40_characters_is_refused(web, app):
    response = add_player(web, "B" * 41)
    assert response.status_code == 422
    assert "longer than 40 characters" in text(response)
    assert roster_names(app) == []


@pytest.mark.parametrize("blank", ["", "   "])
def test_an_empty_name_is_refused(web, app, blank):
    response = add_player(web, blank)
    assert response.status_code == 422
    assert re.search(r"Type a name|cannot be empty", text(response))
    assert roster_names(app) == []


def test_markup_in_a_name_is_shown_as_text(web):
    add_player(web, "<b>Bold</b>")
    body = web.get("/players/").get_data(as_text=True)
    assert "<b>Bold</b>" not in body
    assert "&lt;b&gt;Bold&lt;/b&gt;" in body


def test_rename_form_shows_the_current_name(web, app):
    add_player(web, "Ann")
    response = web.get(f"/players/{player_id(app, 'Ann')}/edit")
    assert response.status_code == 200
    assert "New name for Ann" in text(response)
    assert input_value(response, f"rename-{player_id(app, 'Ann')}", attr="id") == "Ann"


def test_renaming_a_player_changes_the_name_on_their_games_too(web, app):
    game_id = new_game(web, ["Ann", "Ben"])
    save_round(web, game_id, 1, went_out=1, hands={0: "K"})
    response = web.post(f"/players/{player_id(app, 'Ann')}/edit", data={"name": "Annabel"})
    assert response.status_code == 303
    assert "Renamed to Annabel" in text(web.get("/players/"))
    scores = totals(board(web, game_id))
    assert scores == {"Annabel": 10, "Ben": 0}


def test_a_player_may_change_the_case_of_their_own_name(web, app):
    add_player(web, "ann")
    response = web.post(f"/players/{player_id(app, 'ann')}/edit", data={"name": "Ann"})
    assert response.status_code == 303
    assert roster_names(app) == ["Ann"]


def test_renaming_to_another_players_name_is_refused(web, app):
    add_player(web, "Ann")
    add_player(web, "Ben")
    response = web.post(f"/players/{player_id(app, 'Ben')}/edit", data={"name": " ann "})
    assert response.status_code == 422
    assert '"Ann" is already on the roster' in text(response)
    assert roster_names(app) == ["Ann", "Ben"]


def test_renaming_to_a_name_over_40_characters_is_refused(web, app):
    add_player(web, "Ann")
    response = web.post(f"/players/{player_id(app, 'Ann')}/edit", data={"name": "C" * 41})
    assert response.status_code == 422
    assert "longer than 40 characters" in text(response)
    assert roster_names(app) == ["Ann"]


def test_a_player_who_never_played_can_be_removed(web, app):
    add_player(web, "Ann")
    response = web.post(f"/players/{player_id(app, 'Ann')}/remove")
    assert response.status_code == 303
    assert "Removed from the roster." in text(web.get("/players/"))
    assert roster_names(app) == []


def test_a_player_who_has_played_cannot_be_removed(web, app):
    new_game(web, ["Ann", "Ben"])
    roster = web.get("/players/")
    assert "1 game" in text(roster)
    assert f"/players/{player_id(app, 'Ann')}/remove" not in roster.get_data(as_text=True)  # no Remove button
    response = web.post(f"/players/{player_id(app, 'Ann')}/remove")
    assert response.status_code == 303
    assert "Ann has played, so stays on the roster" in text(web.get("/players/"))
    assert "Ann" in roster_names(app)


def test_the_roster_counts_only_games_not_deleted_as_the_players_page_does(web, app):
    new_game(web, ["Ann", "Ben"])
    gone = new_game(web, ["Ann", "Cy"])
    new_game(web, ["Ann", "Ben"])
    assert "Ann 3 games" in text(web.get("/players/"))
    web.post(f"/games/{gone}/delete")
    roster = text(web.get("/players/"))
    assert "Ann 2 games" in roster and "Ben 2 games" in roster and "Cy 0 games" in roster
    assert "All 2 of Ann's games" in text(web.get(f"/players/{player_id(app, 'Ann')}"))


def test_a_player_whose_only_game_is_deleted_stays_on_the_roster(web, app):
    gone = new_game(web, ["Ann", "Ben"])
    web.post(f"/games/{gone}/delete")
    roster = web.get("/players/")
    assert f"/players/{player_id(app, 'Ann')}/remove" not in roster.get_data(as_text=True)  # the bin can restore it


def test_a_player_of_one_game_is_told_it_is_their_one_game_in_their_language(web, app):
    new_game(web, ["Ann", "Ben"])
    page = f"/players/{player_id(app, 'Ann')}"
    assert "Ann's one game" in text(web.get(page))
    web.set_cookie(languages.COOKIE, "fr")
    assert "La seule partie d’Ann" in text(web.get(page))  # elided before a vowel
