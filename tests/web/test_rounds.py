"""Recording rounds through the round screen: with htmx as the phone does it, without JavaScript,
and with the keypad; classic deals; what is refused, naming the player."""

from __future__ import annotations

import re

import pytest
from factories import (
    CONTRACT_1,
    CONTRACT_2,
    HTMX,
    accepted,
    board,
    follow,
    input_value,
    is_checked,
    new_game,
    post_round,
    round_form,
    rounds_stored,
    save_round,
    standings,
    text,
    totals,
)

# =============================================================== recording rounds


def test_the_round_form_shows_each_players_contract(web, balmoral):
    response = web.get(f"/games/{balmoral}/rounds/new")
    assert response.status_code == 200
    seen = text(response)
    assert "Record round 1" in seen
    assert seen.count(CONTRACT_1) == 4
    assert input_value(response, "number") == "1"


def test_a_saved_round_updates_totals_contracts_and_dealer(web, balmoral):
    shown = save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"},
                       achieved=[2])
    assert "Round 1 saved." in text(shown)
    assert totals(shown) == {"Ann": 39, "Ben": 0, "Cat": 32, "Dan": 5}
    page = board(web, balmoral)
    seen = text(page)
    assert "Round 2" in seen
    rows = standings(page)
    assert {n: r.total for n, r in rows.items()} == {"Ann": 39, "Ben": 0, "Cat": 32, "Dan": 5}
    assert CONTRACT_1 in rows["Ann"].line and CONTRACT_1 in rows["Dan"].line
    assert CONTRACT_2 in rows["Ben"].line and CONTRACT_2 in rows["Cat"].line
    # Balmoral: the winner of the round deals the next; play starts at the dealer's left.
    assert "Ben deals" in seen and "Cat plays first" in seen
    assert "deals" in rows["Ben"].line
    assert "13 cards each" in seen
    assert "Ben went out." in seen and "Ben takes the lead." in seen


def test_the_next_round_form_shows_the_levels_reached(web, balmoral):
    save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"},
               achieved=[2])
    response = web.get(f"/games/{balmoral}/rounds/new")
    assert "Record round 2" in text(response)
    assert input_value(response, "number") == "2"
    assert text(response).count(CONTRACT_2) == 2
    assert text(response).count(CONTRACT_1) == 2


def test_two_rounds_add_up_and_the_winner_deals(web, played):
    page = board(web, played)
    assert totals(page) == {"Ann": 44, "Ben": 10, "Cat": 62, "Dan": 5}
    assert all(CONTRACT_2 in row.line for row in standings(page).values())
    seen = text(page)
    assert "Round 3" in seen
    assert "Dan deals" in seen and "Ann plays first" in seen
    assert "Dan went out. Ann (to level 2) and Dan (to level 2) move up. Dan takes the lead." in seen


def test_balmoral_with_the_deal_rotating(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat"], dealer_rule="rotate")
    save_round(web, game_id, 1, went_out=2, hands={0: "K", 1: "Q"})
    seen = text(board(web, game_id))
    assert "Ben deals" in seen and "Cat plays first" in seen


def test_cards_typed_without_spaces_and_in_lower_case_are_read(web, balmoral):
    save_round(web, balmoral, 1, went_out=1, hands={0: "ak77", 2: "t,10;q 2", 3: "5"})
    assert totals(board(web, balmoral)) == {"Ann": 39, "Ben": 0, "Cat": 32, "Dan": 5}


def test_points_of_zero_are_accepted_for_a_player_with_no_cards(web, balmoral):
    save_round(web, balmoral, 1, went_out=0, hands={1: "K", 2: "Q"}, points={3: "0"})
    assert totals(board(web, balmoral))["Dan"] == 0


def test_the_same_round_posted_twice_is_stored_once(web, app, balmoral):
    fields = dict(went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"})
    save_round(web, balmoral, 1, **fields)
    # The phone's own round sent again (its answer was lost), cards in another order: saved.
    response = post_round(web, balmoral, 1, went_out=1, hands={0: "7 K a 7", 2: "2 Q 10 10"}, points={3: "5"})
    assert response.status_code == 303
    shown = follow(web, response)
    assert "Round 1 saved." in text(shown)
    assert "already recorded" not in text(shown)
    assert totals(shown) == {"Ann": 39, "Ben": 0, "Cat": 32, "Dan": 5}
    assert rounds_stored(app, balmoral) == 1


@pytest.mark.own_database
def test_a_round_sent_again_while_the_first_send_is_saving_reads_saved(web, app, balmoral, monkeypatch):
    """The phone's first send is still being written when its second (the same round, sent
    again on a bad signal) has already read the game: the second finds the round taken, and
    the scoreboard it answers with holds the round, saved, not a board without it."""
    from scorekeeper import store

    record_round = store.record_round
    first_send: list[int] = []

    def first_send_lands_meanwhile(game_id, number, record, loaded=None):
        if not first_send:
            first_send.append(number)
            with app.app_context():  # another request: a session and a transaction of its own
                record_round(game_id, number, record)
        return record_round(game_id, number, record, loaded)

    monkeypatch.setattr(store, "record_round", first_send_lands_meanwhile)
    response = post_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"},
                          headers=HTMX)
    assert first_send == [1]
    assert response.status_code == 200, text(response)
    assert "Round 1 saved." in text(response)
    assert "already recorded" not in text(response)
    assert totals(response) == {"Ann": 39, "Ben": 0, "Cat": 32, "Dan": 5}
    assert rounds_stored(app, balmoral) == 1


def test_a_different_round_posted_with_a_taken_number_shows_both_versions(web, app, balmoral):
    save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"})
    response = post_round(web, balmoral, 1, went_out=1, hands={0: "A K 7", 2: "10 10 Q 2"}, points={3: "5"},
                          headers=HTMX)
    assert response.status_code == 409
    seen = text(response)
    assert "Round 1 is already recorded, and differs from what this phone sent" in seen
    assert "Ann A K 7 7, no level A K 7, no level" in seen
    assert totals(response) == {"Ann": 39, "Ben": 0, "Cat": 32, "Dan": 5}  # the stored one stands
    assert rounds_stored(app, balmoral) == 1
    # The phone's version becomes a correction with one tap.
    body = response.get_data(as_text=True)
    form = re.search(r'<form method="post" action="([^"]+/rounds/1/edit)".*?</form>', body, re.S)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(0)))
    fields["save"] = "1"
    corrected = web.post(form.group(1), data=fields, headers=HTMX)
    assert corrected.status_code == 200
    assert "Round 1 corrected" in text(corrected)
    assert totals(corrected)["Ann"] == 32
    assert rounds_stored(app, balmoral) == 1


def test_a_round_that_skips_ahead_is_refused(web, app, balmoral):
    response = post_round(web, balmoral, 3, went_out=1, hands={0: "K", 2: "Q", 3: "J"})
    assert response.status_code == 422
    assert "Round 1 comes next, not round 3" in text(response)
    assert rounds_stored(app, balmoral) == 0


def test_a_bad_card_is_refused_naming_the_player_and_keeping_what_was_typed(web, app, balmoral):
    response = post_round(web, balmoral, 1, went_out=1, hands={0: "A X", 2: "10 10 Q 2"}, points={3: "5"},
                          achieved=[2])
    assert response.status_code == 422
    assert 'Ann: "X" is not a card' in text(response)
    assert rounds_stored(app, balmoral) == 0
    assert input_value(response, "hand-0") == "A X"
    assert input_value(response, "hand-2") == "10 10 Q 2"
    assert input_value(response, "points-3") == "5"
    assert is_checked(response, "went_out", "1")
    assert is_checked(response, "achieved-2")
    assert not is_checked(response, "achieved-3")


def test_more_cards_of_a_rank_than_the_decks_hold_is_refused_naming_the_player(web, app, balmoral):
    # Two decks hold 8 kings; Cat's hand brings the round to 9.
    response = post_round(web, balmoral, 1, went_out=1, hands={0: "K K K K K", 2: "K K K K", 3: "2"})
    assert response.status_code == 422
    seen = text(response)
    assert re.search(r"Cat: that makes 9 × K in this round, but 2 decks hold only 8 of K", seen, re.I)
    assert rounds_stored(app, balmoral) == 0
    assert input_value(response, "hand-2") == "K K K K"


def test_a_balmoral_hand_of_13_cards_is_accepted(web, balmoral):
    shown = save_round(web, balmoral, 1, went_out=1, hands={0: "2 2 3 3 4 4 5 5 6 6 7 7 8", 2: "K", 3: "Q"})
    assert totals(shown)["Ann"] == 2 + 2 + 3 + 3 + 4 + 4 + 5 + 5 + 6 + 6 + 7 + 7 + 8


def test_a_balmoral_hand_of_more_than_13_cards_is_refused(web, app, balmoral):
    response = post_round(web, balmoral, 1, went_out=1, hands={0: "2 2 3 3 4 4 5 5 6 6 7 7 8 8", 2: "K", 3: "Q"})
    assert response.status_code == 422
    assert "Ann: 14 cards left, but a hand holds at most 13" in text(response)
    assert rounds_stored(app, balmoral) == 0


def test_a_joker_is_refused_in_balmoral(web, app, balmoral):
    response = post_round(web, balmoral, 1, went_out=1, hands={0: "JK", 2: "K", 3: "Q"})
    assert response.status_code == 422
    assert "Ann: Balmoral Rummy plays without jokers" in text(response)
    assert rounds_stored(app, balmoral) == 0


def test_an_empty_hand_without_points_is_refused_for_a_player_who_did_not_go_out(web, app, balmoral):
    response = post_round(web, balmoral, 1, went_out=1, hands={0: "K", 2: "Q", 3: "   "})
    assert response.status_code == 422
    assert "Dan: no cards entered" in text(response)
    assert rounds_stored(app, balmoral) == 0


def test_nobody_went_out_is_refused(web, app, balmoral):
    response = post_round(web, balmoral, 1, hands={0: "K", 1: "5", 2: "Q", 3: "J"})
    assert response.status_code == 422
    assert "Tap the player who went out." in text(response)
    assert rounds_stored(app, balmoral) == 0


def test_cards_and_points_for_the_same_player_are_refused(web, app, balmoral):
    response = post_round(web, balmoral, 1, went_out=1, hands={0: "K", 2: "Q", 3: "J"}, points={0: "10"})
    assert response.status_code == 422
    assert "Ann: enter cards or a points total, not both." in text(response)
    assert rounds_stored(app, balmoral) == 0


@pytest.mark.parametrize(
    "points, message",
    [
        ("abc", 'Ann: points "abc" must be a whole number like 35.'),
        ("-5", 'Ann: points "-5" must be a whole number like 35.'),
        ("1", "Ann: 1 point is impossible: the lowest card scores 2."),
        ("196", "Ann: 196 points is impossible: a hand scores 0 to 195."),
    ],
)
def test_impossible_points_are_refused(web, app, balmoral, points, message):
    response = post_round(web, balmoral, 1, went_out=1, hands={2: "Q", 3: "J"}, points={0: points})
    assert response.status_code == 422
    assert message in text(response)
    assert input_value(response, "points-0") == points
    assert rounds_stored(app, balmoral) == 0


def test_a_superscript_digit_typed_as_points_is_refused_not_a_crash(web, app, balmoral):
    """Regression: "²".isdigit() is True (AZERTY keyboards have a ² key) but int("²")
    raises, so the points check crashed with a 500."""
    response = post_round(web, balmoral, 1, went_out=1, hands={2: "Q", 3: "J"}, points={0: "²"})
    assert response.status_code == 422
    assert "Ann" in text(response)
    assert rounds_stored(app, balmoral) == 0


# --------------------------------------------------------------- classic


def test_a_classic_deal_shows_the_shared_contract_and_rotates_the_deal(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat"], rules="classic")
    seen = text(web.get(f"/games/{game_id}/rounds/new"))
    assert "Deal 1: two groups" in seen
    assert "Made contract" not in seen  # no per-player contracts in classic
    save_round(web, game_id, 1, went_out=2, hands={0: "JK 2", 1: "A"})
    page = board(web, game_id)
    assert totals(page) == {"Ann": 17, "Ben": 15, "Cat": 0}
    seen = text(page)
    assert "Deal 2: one group and one sequence" in seen
    assert "Ben deals" in seen and "Cat plays first" in seen  # clockwise, whoever went out


def test_classic_deals_twelve_cards_from_deal_five(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat"], rules="classic")
    for number in range(1, 5):
        save_round(web, game_id, number, went_out=0, points={1: "10", 2: "20"})
    seen = text(board(web, game_id))
    assert "Deal 5: two groups and one sequence" in seen
    assert "12 cards each" in seen
    assert "Ben deals" in seen  # Ann, Ben, Cat, Ann dealt deals 1 to 4


def test_classic_allows_two_decks_and_one_joker_only(web, app):
    game_id = new_game(web, ["Ann", "Ben", "Cat"], rules="classic")
    response = post_round(web, game_id, 1, went_out=2, hands={0: "JK", 1: "JK"})
    assert response.status_code == 422
    assert re.search(r"Ben: that makes 2 × Joker in this round, but 1 joker in play", text(response), re.I)
    assert rounds_stored(app, game_id) == 0


# =============================================================== saving without JavaScript
# With no JavaScript (htmx not loaded) the forms post normally and must redirect (303) to
# the scoreboard.


def test_saving_a_round_without_javascript_goes_back_to_the_scoreboard(web, app, balmoral):
    """Regression: rounds.py _scoreboard called redirect() after its import was dropped for
    go(): a NameError, so a 500 on every save, correction and deletion without htmx."""
    response = post_round(web, balmoral, 1, went_out=1, hands={0: "K", 2: "Q", 3: "J"})
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{balmoral}"
    assert "Round 1 saved." in text(web.get(response.headers["Location"]))


def test_correcting_a_round_without_javascript_goes_back_to_the_scoreboard(web, played):
    """Regression: see test_saving_a_round_without_javascript_goes_back_to_the_scoreboard."""
    data = round_form(1, went_out=1, hands={0: "A", 2: "10 10 Q 2"}, points={3: "5"}, save="1")
    response = web.post(f"/games/{played}/rounds/1/edit", data=data)
    assert response.status_code == 303
    assert "Round 1 corrected" in text(web.get(response.headers["Location"]))


def test_deleting_a_round_without_javascript_goes_back_to_the_scoreboard(web, played):
    """Regression: see test_saving_a_round_without_javascript_goes_back_to_the_scoreboard."""
    response = web.post(f"/games/{played}/rounds/2/delete")
    assert response.status_code == 303
    assert "Round 2 deleted" in text(web.get(response.headers["Location"]))


# =============================================================== keypad without JavaScript


def test_a_keypad_press_adds_the_card_and_stores_nothing(web, app, balmoral):
    data = round_form(1, went_out=1, hands={0: "A", 2: "Q"}, points={3: "5"}, achieved=[2], key="0:K")
    response = web.post(f"/games/{balmoral}/rounds/new", data=data)
    assert response.status_code == 200
    assert input_value(response, "hand-0") == "A K"
    # Everything else typed so far is kept.
    assert input_value(response, "hand-2") == "Q"
    assert input_value(response, "points-3") == "5"
    assert is_checked(response, "went_out", "1")
    assert is_checked(response, "achieved-2")
    assert rounds_stored(app, balmoral) == 0


def test_keypad_presses_build_a_hand_that_can_then_be_saved(web, balmoral):
    fields = round_form(1, went_out=1, hands={2: "Q", 3: "J"})
    for key in ["0:A", "0:10", "0:K"]:
        response = web.post(f"/games/{balmoral}/rounds/new", data={**fields, "key": key})
        fields["hand-0"] = input_value(response, "hand-0")
    assert fields["hand-0"] == "A 10 K"
    response = web.post(f"/games/{balmoral}/rounds/new", data={**fields, "save": "1"}, headers=HTMX)
    assert totals(accepted(web, balmoral, response))["Ann"] == 35


def test_tapping_a_card_chip_removes_it(web, app, balmoral):
    data = round_form(1, went_out=1, hands={0: "A K 7"}, unkey="0:1")
    response = web.post(f"/games/{balmoral}/rounds/new", data=data)
    assert response.status_code == 200
    assert input_value(response, "hand-0") == "A 7"
    assert rounds_stored(app, balmoral) == 0


@pytest.mark.parametrize("key", ["9:K", "0:X", "x:K", "0", ""])
def test_a_keypad_press_that_makes_no_sense_changes_nothing(web, app, balmoral, key):
    data = round_form(1, hands={0: "A"}, key=key)
    response = web.post(f"/games/{balmoral}/rounds/new", data=data)
    assert response.status_code == 200
    assert input_value(response, "hand-0") == "A"
    assert rounds_stored(app, balmoral) == 0


def test_a_keypad_press_while_correcting_a_round_keeps_the_correction_form(web, played):
    data = round_form(1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"}, key="0:2")
    response = web.post(f"/games/{played}/rounds/1/edit", data=data)
    assert response.status_code == 200
    assert "Correct round 1" in text(response)
    assert input_value(response, "hand-0") == "A K 7 7 2"
    assert totals(board(web, played))["Ann"] == 44  # nothing saved
