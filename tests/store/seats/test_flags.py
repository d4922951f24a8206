""""That's not my hand" (``store.seats.flags``): a word on a saved round, shown on the board, so a
change to the game; one flag a round and seat; a correction answers it."""

from __future__ import annotations

import pytest
from factories import a_round, start_game, version_of

from scorekeeper import store


@pytest.fixture
def game_id(app):
    with app.app_context():
        game_id = start_game()
        store.make_seat_keys(game_id)  # only a seat link says a word
        store.record_round(game_id, 1, a_round("Ann", {"Ben": "K", "Cat": "5"}))
        return game_id


def test_a_flag_moves_the_version_once_and_a_second_one_keeps_one_flag(app, game_id):
    with app.app_context():
        before = version_of(game_id)
        store.flag_round(game_id, 1, 2)
        store.flag_round(game_id, 1, 2)
        assert version_of(game_id) == before + 1
        assert store.flags_of(store.load(game_id)) == [store.Flag(1, 2, "Cat")]


def test_dismissing_a_flag_moves_the_version_and_a_correction_answers_it(app, game_id):
    with app.app_context():
        store.flag_round(game_id, 1, 1)
        flagged = version_of(game_id)
        store.dismiss_flag(game_id, 1, 1)
        store.dismiss_flag(game_id, 1, 1)  # gone already: nothing changes
        assert version_of(game_id) == flagged + 1 and store.flags_of(store.load(game_id)) == []
        store.flag_round(game_id, 1, 1)
        store.replace_round(game_id, 1, a_round("Ann", {"Ben": "Q", "Cat": "5"}))
        assert store.flags_of(store.load(game_id)) == []


def test_a_game_in_the_bin_takes_no_word(app, game_id):
    with app.app_context():
        store.delete_game(game_id)
        with pytest.raises(store.InBin):
            store.flag_round(game_id, 1, 1)
