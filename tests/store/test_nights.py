"""Club nights (``store.nights``): opened with a key, players checked in (new names join the
roster), late and early, games tied to a night once, a player at one table at a time, and a night
closed once."""

from __future__ import annotations

import random
from datetime import date
from itertools import combinations

import pytest
from conftest import ON_POSTGRES
from factories import a_round, finish, start_game, version_of

from scorekeeper import store
from scorekeeper.rules import SeatingRefused, meetings
from scorekeeper.store.changes import finish_games
from scorekeeper.store.database import writing
from scorekeeper.store.nights import add_night_game

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


@writing()
def join_night(night_id, game_id, round_number, table):
    """A game tied to a night as a restore ties the games it finds already here."""
    add_night_game(night_id, game_id, round_number, table)
    finish_games([game_id])


def test_a_game_joins_a_night_once_and_its_version_moves(app):
    with app.app_context():
        first, _ = store.open_night("balmoral", THURSDAY)
        second, _ = store.open_night("balmoral", THURSDAY)
        game_id = start_game(("Ann", "Ben", "Cat"))
        join_night(first.id, game_id, 1, 1)
        assert version_of(game_id) == 2 and store.night_of(game_id) == first.id
        assert store.night_games(first.id) == [store.NightTable(game_id, 1, 1, False)]
        with pytest.raises(store.NightRefused, match=f"Game {game_id} is already played at a night"):
            join_night(second.id, game_id, 1, 1)
        assert store.night_games(second.id) == []


def test_a_player_at_a_table_still_playing_cannot_sit_at_another(app):
    with app.app_context():
        night, _ = store.open_night("balmoral", THURSDAY)
        join_night(night.id, start_game(("Ann", "Ben", "Cat")), 1, 1)
        other = start_game(("Dan", "Ben", "Eve"))
        with pytest.raises(store.NightRefused, match="Ben is already playing at table 1"):
            join_night(night.id, other, 1, 2)
        assert store.night_of(other) is None


def test_a_game_in_the_bin_is_no_longer_among_the_nights(app):
    with app.app_context():
        night, _ = store.open_night("balmoral", THURSDAY)
        game_id = start_game()
        join_night(night.id, game_id, 1, 1)
        store.delete_game(game_id)
        assert store.night_games(night.id) == []


# ------------------------------------------------------------------ tables drawn and started


def a_night_of(names, rules="balmoral"):
    night, _key = store.open_night(rules, THURSDAY)
    store.check_in(night.id, names)
    return night.id


ELEVEN = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim"]


def test_the_players_here_are_drawn_into_tables_that_wait_until_started(app):
    with app.app_context():
        night_id = a_night_of(ELEVEN)
        store.leave_night(night_id, store.find_player("Kim").id)
        tables = store.draw_night(night_id, random.Random(1))
        assert [len(t.names) for t in tables] == [4, 3, 3]
        assert sorted(n for t in tables for n in t.names) == ELEVEN[:-1]
        assert store.drawn_tables(store.get_night(night_id)) == (1, tables)
        assert store.night_games(night_id) == []


def test_a_redraw_replaces_the_tables_not_yet_started(app):
    with app.app_context():
        night_id = a_night_of(ELEVEN)
        first = store.draw_night(night_id, random.Random(1))
        again = store.draw_night(night_id, random.Random(2))
        assert first != again and store.drawn_tables(store.get_night(night_id))[1] == again


def test_a_table_starts_with_one_tap_tied_to_the_night_with_its_seat_links(app):
    with app.app_context():
        night_id = a_night_of(ELEVEN)
        drawn = store.draw_night(night_id, random.Random(1))
        started = store.start_table(night_id, 2, random.Random(5))
        game = store.load(started.game.id)
        assert list(game.state.setup.players) == drawn[1].names and game.state.setup.rules.key == "balmoral"
        assert game.state.setup.first_dealer in drawn[1].names
        assert store.night_games(night_id) == [store.NightTable(started.game.id, 1, 2, False)]
        assert len(started.seat_keys) == 4
        assert [store.seat_of(started.game.id, k).name for k in started.seat_keys] == drawn[1].names
        assert store.key_matches(store.peek(started.game.id), started.key)
        # Started: no longer waiting, no longer redrawn; the others wait and are drawn again alone.
        assert [t.table for t in store.drawn_tables(store.get_night(night_id))[1]] == [1, 3]
        redrawn = store.draw_night(night_id, random.Random(9))
        assert not set(drawn[1].names) & {n for t in redrawn for n in t.names}
        assert [t.table for t in redrawn] == [1, 3]  # round 1 still: its table 2 is playing
        with pytest.raises(store.NightRefused, match="Table 2 is already playing: game"):
            store.start_table(night_id, 2, random.Random(5))


def test_too_few_players_for_a_table_are_refused_clearly_and_nothing_drawn(app):
    with app.app_context():
        night_id = a_night_of(["Ann"])
        with pytest.raises(SeatingRefused, match=r"cannot seat everyone present \(1\)"):
            store.draw_night(night_id, random.Random(1))
        assert store.drawn_tables(store.get_night(night_id)) == (0, [])


def test_the_second_round_seats_fewer_players_who_met_in_the_first(app):
    with app.app_context():
        night_id = a_night_of(ELEVEN[:9])
        first = store.draw_night(night_id, random.Random(4))
        for t in first:
            store.start_table(night_id, t.table, random.Random(0))
        met = {frozenset(pair) for t in first for pair in combinations(t.names, 2)}
        for t in store.night_games(night_id):
            finish(t.game_id)
        second = store.draw_night(night_id, random.Random(4))
        assert store.drawn_tables(store.get_night(night_id))[0] == 2
        assert meetings([t.names for t in second], met) == 0  # 3 tables of 3 from 3 of 3: all new


# The JSON backup (PostgreSQL's) keeps the nights too: tests/files/test_nightfile.py.
@pytest.mark.skipif(ON_POSTGRES, reason="the SQLite backup is a copy of the database; run in the SQLite pass")
def test_a_sqlite_backup_keeps_the_nights_and_a_restore_brings_them_back(fresh_app, tmp_path):
    """The club's SQLite backup is the whole database: its nights, their players and their games
    come back with a restore."""
    runner = fresh_app.test_cli_runner()
    with fresh_app.app_context():
        night_id = a_night_of(ELEVEN[:7])
        store.draw_night(night_id, random.Random(1))
        game_id = store.start_table(night_id, 1, random.Random(1)).game.id
    target = tmp_path / "backup.sqlite"
    done = runner.invoke(args=["backup", str(target)])
    assert done.exit_code == 0, done.output
    with fresh_app.app_context():
        store.close_night(night_id)
    done = runner.invoke(args=["restore", "--yes", str(target)])
    assert done.exit_code == 0, done.output
    with fresh_app.app_context():
        assert store.get_night(night_id).closed_at is None
        assert [c.name for c in store.checked_in(night_id)] == sorted(ELEVEN[:7])
        assert [t.game_id for t in store.night_games(night_id)] == [game_id]
        assert [t.table for t in store.drawn_tables(store.get_night(night_id))[1]] == [2]


def test_a_table_with_a_player_gone_home_since_the_draw_waits_for_a_redraw(app):
    with app.app_context():
        night_id = a_night_of(ELEVEN[:6])
        drawn = store.draw_night(night_id, random.Random(1))
        store.leave_night(night_id, drawn[0].player_ids[0])
        with pytest.raises(store.NightRefused, match=f"{drawn[0].names[0]} has gone home since the draw"):
            store.start_table(night_id, 1, random.Random(1))
        assert store.night_games(night_id) == []
        store.start_table(night_id, 2, random.Random(1))  # the other table plays


def test_a_purged_game_leaves_its_night(app):
    with app.app_context():
        night, _ = store.open_night("balmoral", THURSDAY)
        game_id = start_game()
        join_night(night.id, game_id, 1, 1)
        store.delete_game(game_id)
        store.purge_game(game_id)
        assert store.night_of(game_id) is None


def test_a_tables_seat_keys_are_made_from_the_nights_key_until_new_links_are_made(app):
    with app.app_context():
        night, key = store.open_night("balmoral", THURSDAY)
        store.check_in(night.id, ELEVEN[:4])
        store.draw_night(night.id, random.Random(1))
        started = store.start_table(night.id, 1, random.Random(1), key)
        game_id = started.game.id
        assert store.table_seat_keys(game_id, key) == started.seat_keys
        assert [store.seat_of(game_id, k).position for k in started.seat_keys] == [0, 1, 2, 3]
        assert store.table_seat_keys(game_id, key + "x") is None
        store.make_seat_keys(game_id)
        assert store.table_seat_keys(game_id, key) is None


def test_a_table_started_without_the_nights_key_has_random_seat_keys(app):
    with app.app_context():
        night, key = store.open_night("balmoral", THURSDAY)
        store.check_in(night.id, ELEVEN[:4])
        store.draw_night(night.id, random.Random(1))
        started = store.start_table(night.id, 1, random.Random(1))
        assert all(store.seat_of(started.game.id, k) for k in started.seat_keys)
        assert store.table_seat_keys(started.game.id, key) is None


def test_the_last_rounds_winners_sit_together_when_the_club_asks(app):
    with app.app_context():
        night_id = a_night_of(ELEVEN[:12])
        for t in store.draw_night(night_id, random.Random(4)):
            store.start_table(night_id, t.table, random.Random(0))
        for t in store.night_games(night_id):
            finish(t.game_id)  # the first seated goes out every round: the table's winner
        winners = {store.load(t.game_id).state.setup.players[0] for t in store.night_games(night_id)}
        assert len(winners) == 3
        second = store.draw_night(night_id, random.Random(4), winners_together=True)
        assert winners <= set(second[0].names)
        # Asked again without: a redraw of the same round, drawn as usual.
        plain = store.draw_night(night_id, random.Random(4))
        assert store.drawn_tables(store.get_night(night_id))[0] == 2
        assert sorted(n for t in plain for n in t.names) == sorted(ELEVEN)


def test_a_nights_version_moves_with_its_draw_its_games_their_rounds_and_its_close(app):
    with app.app_context():
        assert store.night_version(999) is None
        night, _key = store.open_night("balmoral", THURSDAY)
        store.check_in(night.id, ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"])
        seen = [store.night_version(night.id)]
        # The names of the players checked in (a preset's name never changes: no name of its own).
        assert seen[0] == store.NightVersion(False, None, (), "Ann\nBen\nCat\nDan\nEve\nFay", None)
        store.draw_night(night.id, random.Random(1))
        store.start_table(night.id, 1, random.Random(1))
        seen.append(store.night_version(night.id))
        game_id = store.night_games(night.id)[0].game_id
        players = store.load(game_id).state.setup.players
        store.record_round(game_id, 1, a_round(players[0], {name: "K" for name in players[1:]}))
        seen.append(store.night_version(night.id))
        assert seen[-1].games == ((game_id, version_of(game_id)),)
        store.close_night(night.id)
        seen.append(store.night_version(night.id))
        assert seen[-1].closed and len(set(seen)) == len(seen)
        # A game in the bin is no longer the night's.
        store.delete_game(game_id)
        assert store.night_version(night.id).games == ()
