"""Rounds (``store.rounds``): recorded, corrected and deleted, each a change that moves the
game's version once with its summary; and whether a round sent again is the one stored."""

from __future__ import annotations

import pytest
from factories import a_round, start_game, version_of

from scorekeeper import store
from scorekeeper.rules import RoundError
from scorekeeper.store.rebuild import rebuild

ROUND_1 = a_round("Ann", {"Ben": "K 5", "Cat": "5"})


def test_a_round_moves_the_version_once_and_its_summary_with_it(app):
    with app.app_context():
        game_id = start_game()
        saved = store.record_round(game_id, 1, ROUND_1)
        assert saved.game.version == version_of(game_id) == 2
        assert [p.total for p in saved.state.players] == [0, 15, 5]
        assert rebuild(fix=False) == []


def test_a_number_taken_or_skipping_ahead_stores_nothing(app):
    with app.app_context():
        game_id = start_game()
        store.record_round(game_id, 1, ROUND_1)
        with pytest.raises(store.AlreadyRecorded):
            store.record_round(game_id, 1, a_round("Ben", {"Ann": "K", "Cat": "5"}))
        with pytest.raises(RoundError):
            store.record_round(game_id, 3, a_round("Ben", {"Ann": "K", "Cat": "5"}))
        assert version_of(game_id) == 2 and store.load(game_id).state.played == 1


def test_the_same_round_is_known_however_it_is_spelled(app):
    with app.app_context():
        game_id = start_game()
        store.record_round(game_id, 1, ROUND_1)
        loaded = store.load(game_id)
        # The same hands, the names typed otherwise and the cards in another order.
        assert store.same_round(loaded, 1, a_round("ann", {"ben": "5 K", "cat": "5"}))
        assert not store.same_round(loaded, 1, a_round("Ann", {"Ben": "K 6", "Cat": "5"}))
        assert not store.same_round(loaded, 2, ROUND_1)  # not stored yet
        assert not store.same_round(loaded, 1, a_round("Dan", {"Ben": "K 5", "Cat": "5"}))  # no such player


def test_a_correction_on_a_version_no_longer_stored_is_refused(app):
    with app.app_context():
        game_id = start_game()
        store.record_round(game_id, 1, ROUND_1)
        with pytest.raises(store.Conflict):
            store.replace_round(game_id, 1, a_round("Ben", {"Ann": "K", "Cat": "5"}), expected_version=1)
        corrected = store.replace_round(game_id, 1, a_round("Ben", {"Ann": "K", "Cat": "5"}), expected_version=2)
        assert version_of(game_id) == 3 and [p.total for p in corrected.state.players] == [10, 0, 5]
        assert rebuild(fix=False) == []


def test_deleting_a_round_works_the_game_out_again(app):
    with app.app_context():
        game_id = start_game()
        store.record_round(game_id, 1, ROUND_1)
        store.record_round(game_id, 2, a_round("Ben", {"Ann": "K", "Cat": "5"}))
        left = store.delete_round(game_id, 1)
        assert version_of(game_id) == 4 and left.state.played == 1
        assert [p.total for p in left.state.players] == [10, 0, 5]
        assert rebuild(fix=False) == []
