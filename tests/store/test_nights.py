"""Club nights (``store.nights``): opened with a key, players checked in (new names join the
roster), late and early, games tied to a night once, a player at one table at a time, and a night
closed once."""

from __future__ import annotations

from datetime import date

import pytest
from factories import start_game, version_of

from scorekeeper import store

THURSDAY = date(2026, 12, 3)


def test_a_night_is_opened_under_a_rule_set_and_run_by_its_key(app):
    with app.app_context():
        night, key = store.open_night("balmoral", THURSDAY)
        night = store.get_night(night.id)
        assert night.rules == "balmoral" and night.held_on == THURSDAY and night.closed_at is None
        assert store.night_key_matches(night, key)
        assert not store.night_key_matches(night, key + "x") and not store.night_key_matches(night, None)
        assert [n.id for n in store.list_nights()] == [night.id]


def test_a_night_under_an_unknown_rule_set_is_refused_and_nothing_stored(app):
    with app.app_context():
        with pytest.raises(store.NotFound):
            store.open_night("no-such-rules", THURSDAY)
        assert store.list_nights() == []


def test_roster_names_and_new_names_are_checked_in_and_a_new_name_joins_the_roster(app):
    with app.app_context():
        store.add_player("Ann")
        night, _key = store.open_night("balmoral", THURSDAY)
        store.check_in(night.id, ["ann ", "Zoe"])
        assert [(c.name, c.here) for c in store.checked_in(night.id)] == [("Ann", True), ("Zoe", True)]
        assert store.find_player("Zoe") is not None


def test_a_bad_name_is_refused_naming_the_field_and_nothing_is_checked_in(app):
    with app.app_context():
        night, _key = store.open_night("balmoral", THURSDAY)
        with pytest.raises(store.PlayerNameError, match="name"):
            store.check_in(night.id, ["Ann", "   "])
        assert store.checked_in(night.id) == [] and store.find_player("Ann") is None


def test_an_early_leaver_is_no_longer_here_and_a_late_arrival_comes_back(app):
    with app.app_context():
        night, _key = store.open_night("balmoral", THURSDAY)
        ann, ben = store.check_in(night.id, ["Ann", "Ben"])
        store.leave_night(night.id, ann.id)
        assert [(c.name, c.here) for c in store.checked_in(night.id)] == [("Ann", False), ("Ben", True)]
        store.check_in(night.id, ["Cat", "Ann"])
        assert {c.name: c.here for c in store.checked_in(night.id)} == {"Ann": True, "Ben": True, "Cat": True}
        with pytest.raises(store.NotFound):
            store.leave_night(night.id, 10_000)


def test_a_night_closed_twice_is_refused_clearly_and_a_closed_night_takes_nobody(app):
    with app.app_context():
        night, _key = store.open_night("balmoral", THURSDAY)
        store.close_night(night.id)
        assert store.get_night(night.id).closed_at is not None
        with pytest.raises(store.NightRefused, match="2026-12-03 is closed"):
            store.close_night(night.id)
        with pytest.raises(store.NightRefused):
            store.check_in(night.id, ["Ann"])
        assert store.checked_in(night.id) == []


def test_a_game_joins_a_night_once_and_its_version_moves(app):
    with app.app_context():
        first, _ = store.open_night("balmoral", THURSDAY)
        second, _ = store.open_night("balmoral", THURSDAY)
        game_id = start_game(("Ann", "Ben", "Cat"))
        store.join_night(first.id, game_id, 1, 1)
        assert version_of(game_id) == 2 and store.night_of(game_id) == first.id
        assert store.night_games(first.id) == [store.NightTable(game_id, 1, 1, False)]
        with pytest.raises(store.NightRefused, match=f"Game {game_id} is already played at a night"):
            store.join_night(second.id, game_id, 1, 1)
        assert store.night_games(second.id) == []


def test_a_player_at_a_table_still_playing_cannot_sit_at_another(app):
    with app.app_context():
        night, _ = store.open_night("balmoral", THURSDAY)
        store.join_night(night.id, start_game(("Ann", "Ben", "Cat")), 1, 1)
        other = start_game(("Dan", "Ben", "Eve"))
        with pytest.raises(store.NightRefused, match="Ben is already playing at table 1"):
            store.join_night(night.id, other, 1, 2)
        assert store.night_of(other) is None


def test_a_game_in_the_bin_is_no_longer_among_the_nights(app):
    with app.app_context():
        night, _ = store.open_night("balmoral", THURSDAY)
        game_id = start_game()
        store.join_night(night.id, game_id, 1, 1)
        store.delete_game(game_id)
        assert store.night_games(night.id) == []
