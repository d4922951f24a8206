"""Nights played and won (``club.history.nights_tally``): added up in one SQL query, the same
winners as the night's standings (``club.nights``), a tie for first a win for each, an open night
played and not yet won."""

from __future__ import annotations

import random
from datetime import date

import pytest
from factories import a_round, counted

from scorekeeper import store
from scorekeeper.club.history import nights_tally, player_stats
from scorekeeper.club.nights import night_standings
from scorekeeper.club.statistics import NightsTally

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
HANDS = ["K", "7", "A", "9 9", "3", "Q J"]


def play(game_id, rounds, rng):
    """A few rounds, a player at random going out each time, the others with hands at random."""
    for number in range(1, rounds + 1):
        names = store.load(game_id).state.setup.players
        out = rng.choice(names)
        store.record_round(game_id, number, a_round(out, {n: rng.choice(HANDS) for n in names if n != out},
                                                   achieved=[out]))


def a_night(rng, day, *, rounds_of_games=2, close=True):
    night, _key = store.open_night("balmoral", date(2026, 12, day))
    store.check_in(night.id, rng.sample(NAMES, rng.randint(4, 9)))
    for _ in range(rounds_of_games):
        for table in store.draw_night(night.id, rng):
            game_id = store.start_table(night.id, table.table, rng).game.id
            play(game_id, rng.randint(1, 3), rng)
            if rng.random() < 0.7:
                while not store.load(game_id).state.finished:
                    play_one(game_id)
    if close:
        store.close_night(night.id)
    return night.id


def play_one(game_id):
    game = store.load(game_id)
    names = game.state.setup.players
    store.record_round(game_id, len(game.state.rounds) + 1, a_round(names[0], {n: "K" for n in names[1:]},
                                                                   achieved=names))


def tally_from_the_standings(night_ids):
    expected: dict[int, list[int]] = {}
    for night_id in night_ids:
        closed = store.get_night(night_id).closed_at is not None
        for line in night_standings(night_id):
            played, won = expected.get(line.player_id, [0, 0])
            expected[line.player_id] = [played + 1, won + (closed and line.rank == 1)]
    return {pid: NightsTally(*figures) for pid, figures in expected.items()}


def test_the_nights_won_are_the_standings_winners_of_closed_nights(app):
    with app.app_context():
        rng = random.Random(7)
        nights = [a_night(rng, day, close=day != 5) for day in range(1, 6)]
        assert nights_tally() == tally_from_the_standings(nights)
        for pid in nights_tally():
            assert nights_tally(pid) == {pid: tally_from_the_standings(nights)[pid]}


def test_a_tie_for_first_is_a_night_won_for_each(app):
    with app.app_context():
        night, _key = store.open_night("balmoral", date(2026, 12, 3))
        store.check_in(night.id, NAMES[:6])
        store.draw_night(night.id, random.Random(1), usual=3)
        for table in (1, 2):  # the same round at both tables of three: their winners tie
            game = store.start_table(night.id, table, random.Random(1)).game.id
            first, *others = store.load(game).state.setup.players
            store.record_round(game, 1, a_round(first, {n: "K" for n in others}, achieved=[first]))
        store.close_night(night.id)
        lines = night_standings(night.id)
        winners = {line.player_id for line in lines if line.rank == 1}
        assert len(winners) == 2 and all(line.tied for line in lines if line.rank == 1)
        tally = nights_tally()
        assert {pid for pid, t in tally.items() if t.won} == winners
        assert all(t.played == 1 for t in tally.values())


def test_an_open_night_is_played_and_not_yet_won_and_the_tally_is_one_query(app):
    with app.app_context():
        a_night(random.Random(3), 3, close=False)
        someone = min(nights_tally())
        with counted() as statements:
            tally = nights_tally(someone)
        assert len(statements) == 1
        assert tally == {someone: NightsTally(1, 0)}
        assert player_stats(someone).nights == NightsTally(1, 0)


def test_a_nights_rating_changes_are_its_finished_games_steps(app):
    from scorekeeper.club.history import game_ratings, rating_path
    from scorekeeper.club.nights import night_rating_changes

    with app.app_context():
        rng = random.Random(5)
        night_id = a_night(rng, 4, close=False)
        finished = [t.game_id for t in store.night_games(night_id) if t.finished]
        changes = night_rating_changes(night_id)
        steps: dict[int, list] = {}
        for game_id in finished:
            for pid, step in game_ratings(game_id).items():
                steps.setdefault(pid, []).append(step)
        assert set(changes) == set(steps) and changes
        for pid, change in changes.items():
            mine = sorted(steps[pid], key=lambda s: s.index)
            assert change.games == len(mine)
            assert change.before == pytest.approx(mine[0].before) and change.after == pytest.approx(mine[-1].after)
            assert change.change == pytest.approx(sum(s.after - s.before for s in mine))
            # Nothing but the night was played: its change is the player's rating now, from the start.
            path = rating_path(pid, points=10)
            assert change.after == pytest.approx(path.rating)
            assert change.before == pytest.approx(path.start)


def test_a_night_with_no_game_finished_has_no_rating_changes(app):
    from scorekeeper.club.nights import night_rating_changes

    with app.app_context():
        night, _key = store.open_night("balmoral", date(2026, 12, 3))
        store.check_in(night.id, NAMES[:4])
        store.draw_night(night.id, random.Random(1))
        store.start_table(night.id, 1, random.Random(1))
        assert night_rating_changes(night.id) == {}
