"""A club night's standings (``club.nights``): place points fair between tables of different
sizes, ties sharing their places, then the penalty relative to each table; games in progress
counted as they stand and marked."""

from __future__ import annotations

import random
from datetime import date
from fractions import Fraction

from factories import a_round
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import store
from scorekeeper.club.nights import GameResult, SeatResult, night_standings, place_points, standings


def game(game_id, *seats, finished=True, rounds=3):
    """Seats as (name, total, place); a player's id is their initial's code."""
    return GameResult(game_id, finished, tuple(SeatResult(ord(name[0]), name, total, place)
                                               for name, total, place in seats), rounds)


def test_the_winner_of_a_table_of_three_and_of_four_score_alike_and_the_last_nothing():
    four = game(1, ("Ann", 10, 1), ("Ben", 20, 2), ("Cat", 30, 3), ("Dan", 40, 4))
    three = game(2, ("Eve", 5, 1), ("Fay", 50, 2), ("Gus", 90, 3))
    by_name = {s.name: s for s in standings([four, three])}
    assert by_name["Ann"].points == by_name["Eve"].points == 1
    assert by_name["Dan"].points == by_name["Gus"].points == 0
    assert by_name["Ben"].points == Fraction(2, 3) and by_name["Fay"].points == Fraction(1, 2)
    # Equal points: the lower penalty against the table's average ranks first (Eve 5 - 48⅓).
    assert [s.name for s in standings([four, three])][:2] == ["Eve", "Ann"]
    assert by_name["Ann"].relative == -15 and by_name["Eve"].rank == 1 and by_name["Ann"].rank == 2


def test_players_tied_at_a_table_share_the_average_of_their_places():
    tied = game(1, ("Ann", 10, 1), ("Ben", 10, 1), ("Cat", 30, 3), ("Dan", 40, 4))
    lines = standings([tied])
    assert [(s.name, s.rank, s.points, s.tied) for s in lines[:2]] == [
        ("Ann", 1, Fraction(5, 6), True), ("Ben", 1, Fraction(5, 6), True)]
    assert lines[2].rank == 3 and not lines[2].tied


def test_a_game_in_progress_counts_as_it_stands_and_is_marked():
    lines = standings([game(1, ("Ann", 10, 1), ("Ben", 20, 2), ("Cat", 30, 3), finished=False),
                       game(2, ("Ann", 0, 1), ("Dan", 5, 2), ("Eve", 6, 3))])
    by_name = {s.name: s for s in lines}
    assert by_name["Ann"].points == 2 and by_name["Ann"].games == 2 and by_name["Ann"].playing
    assert not by_name["Dan"].playing and lines[0].name == "Ann"


def test_a_table_started_with_no_round_yet_gives_no_places():
    # All tied first at 0 would hand each half a point over the players of a table still waiting.
    lines = standings([game(1, ("Ann", 0, 1), ("Ben", 0, 1), ("Cat", 0, 1), finished=False, rounds=0),
                       game(2, ("Dan", 10, 1), ("Eve", 20, 2), ("Fay", 30, 3))])
    assert [s.name for s in lines] == ["Dan", "Eve", "Fay"]


@given(st.lists(st.integers(0, 200), min_size=2, max_size=8))
def test_a_tables_place_points_add_up_to_half_its_size_whatever_the_ties(totals):
    places = [1 + sum(other < total for other in totals) for total in totals]
    ties = {place: places.count(place) for place in places}
    assert sum(place_points(p, ties[p], len(totals)) for p in places) == Fraction(len(totals), 2)


def test_the_standings_of_a_night_read_from_its_games(app):
    with app.app_context():
        night, _key = store.open_night("balmoral", date(2026, 12, 3))
        store.check_in(night.id, ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"])
        tables = store.draw_night(night.id, random.Random(1))
        for table in tables:
            store.start_table(night.id, table.table, random.Random(0))
        first = store.night_games(night.id)[0]
        names = list(store.load(first.game_id).state.setup.players)
        store.record_round(first.game_id, 1, a_round(names[0], {n: "K" for n in names[1:]}))
        lines = night_standings(night.id)
        # The tables that have played no round yet give no places.
        assert len(lines) == len(names) and all(line.playing for line in lines)
        assert lines[0].name == names[0] and lines[0].points == 1
