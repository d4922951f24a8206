"""Ratings worked out (``store.figures.ratings``: openskill's Plackett-Luce over the finished
games, in finish order), from the games' standings alone: no database.

The worked examples are the library's own figures for the same matches (openskill 6, the
model's defaults: mu 25, sigma 25/3); the rest holds the app's rules around it: the order of
the games, each game's standing, ties and shared wins, the provisional threshold, and rating
again from an earlier result.
"""

from __future__ import annotations

import doctest
import random

import pytest

from scorekeeper.store.figures import ratings
from scorekeeper.store.figures.ratings import Entry, Standing, rate, standing_of


def match(game_id: int, *ranks: tuple[int, int], won: tuple[int, ...] = ()) -> Standing:
    """A match of players ``(player_id, rank)``."""
    return Standing(game_id, None, "classic", tuple(Entry(pid, rank, pid in won) for pid, rank in ranks))


def test_the_doctests_hold():
    assert doctest.testmod(ratings).failed == 0


# =============================================================== worked examples


def test_a_three_player_game_moves_each_rating_as_the_library_does():
    r = rate([match(1, (1, 1), (2, 2), (3, 3), won=(1,))])
    first, second, third = (r.of(p) for p in (1, 2, 3))
    assert first.mu == pytest.approx(27.869048680749426)
    assert first.sigma == pytest.approx(8.205243377397993)
    assert second.mu == pytest.approx(25.717262170187357)
    assert third.mu == pytest.approx(21.413689149063217)
    assert second.sigma == third.sigma == pytest.approx(8.058224222802378)
    # The rating shown is mu - 3 sigma, from 0 before any game.
    assert [round(p.rating, 1) for p in (first, second, third)] == [3.3, 1.5, -2.8]
    assert r.game(1)[1].before == 0.0
    assert r.game(1)[1].after == pytest.approx(3.253318548555445)


def test_a_tie_for_second_gives_both_the_same_rating():
    r = rate([match(1, (1, 1), (2, 2), (3, 2))])
    assert r.of(2).mu == r.of(3).mu == pytest.approx(23.565475659625285)
    assert r.of(2).sigma == r.of(3).sigma == pytest.approx(8.058224222802378)
    assert r.of(1).mu == pytest.approx(27.869048680749426)


def test_a_shared_win_ranks_both_winners_first():
    r = rate([match(1, (1, 1), (2, 1), (3, 3), won=(1, 2))])
    assert r.of(1).mu == r.of(2).mu == pytest.approx(25.717262170187357)
    assert r.of(3).mu == pytest.approx(23.565475659625285)
    assert round(r.of(1).rating, 1) == 1.1 and round(r.of(3).rating, 1) == -1.1
    assert r.of(1).wins == r.of(2).wins == 1 and r.of(3).wins == 0
    # Two players sharing the win: neither moves, both grow surer.
    two = rate([match(1, (1, 1), (2, 1), won=(1, 2))])
    assert two.of(1).mu == two.of(2).mu == 25.0
    assert two.of(1).sigma == pytest.approx(8.06590141354368)


# =============================================================== the rules around it


def test_a_standing_puts_the_winners_first_then_the_lowest_total():
    # Player 2 won (the lowest total); 1 and 3 tie on 30: they share second place.
    s = standing_of(9, None, "classic", [(1, False, 30, False), (2, True, 10, False), (3, False, 30, False)])
    assert [(e.player_id, e.rank, e.won) for e in s.entries] == [(1, 2, False), (2, 1, True), (3, 2, False)]
    # A shared win: both first.
    s = standing_of(9, None, "classic", [(1, True, 5, False), (2, False, 38, False), (3, True, 5, False)])
    assert [e.rank for e in s.entries] == [1, 3, 1]


def test_with_a_lowest_finisher_rule_those_who_finished_the_ladder_come_first():
    # Phase 10 style: the winner finished the last stage on 60; among the rest, the one who
    # also finished (on 80) comes before a lower total that did not finish.
    seats = [(1, False, 20, False), (2, True, 60, True), (3, False, 80, True), (4, False, 20, False)]
    s = standing_of(9, None, "phase10", seats, lowest_finisher=True)
    assert [e.rank for e in s.entries] == [3, 1, 2, 3]
    # The same seats under a "lowest" rule: by total after the winner.
    assert [e.rank for e in standing_of(9, None, "x", seats).entries] == [2, 1, 4, 2]


def test_the_order_of_the_games_matters():
    a, b = match(1, (1, 1), (2, 2)), match(2, (1, 2), (2, 1))
    assert rate([a, b]).of(1).mu != rate([b, a]).of(1).mu


def test_a_player_alone_is_not_moved():
    r = rate([match(1, (1, 1))])
    assert r.of(1).mu == 25.0 and r.of(1).games == 1


def test_the_provisional_threshold_is_five_games():
    games = [match(i, (1, 1), (2, 2), (3, 3)) for i in range(1, 5)]
    r = rate(games)
    assert r.of(1).games == 4 and r.of(1).provisional
    r = rate([*games, match(5, (1, 1), (2, 2))])
    assert r.of(1).games == 5 and not r.of(1).provisional
    assert r.of(3).provisional  # four games
    assert ratings.PROVISIONAL_BELOW == 5


def test_recent_change_best_and_worst():
    games = [match(i, (1, 1 if i % 3 else 2), (2, 2 if i % 3 else 1)) for i in range(1, 9)]
    p = rate(games).of(1)
    assert len(p.recent) == 6 and p.recent[-1] == pytest.approx(p.rating)
    assert p.recent_change == pytest.approx(p.rating - p.steps[-5].before)
    assert p.best.after == max(s.after for s in p.steps)
    assert p.worst.after == min(s.after for s in p.steps)


def test_rating_again_from_an_earlier_result_works_out_only_the_games_that_changed():
    rng = random.Random(5)
    games = []
    for i in range(40):
        players = rng.sample(range(1, 8), rng.randint(2, 5))
        games.append(match(i + 1, *((p, rng.randint(1, len(players))) for p in players)))
    whole = rate(games)
    assert whole.worked_out == 40
    again = rate(games, whole)
    assert again.worked_out == 0 and again.players == whole.players
    changed = list(games)
    changed[30] = match(31, *((e.player_id, 1) for e in games[30].entries), won=(games[30].entries[0].player_id,))
    assert changed[30] != games[30]
    incremental = rate(changed, whole)
    assert incremental.worked_out == 10
    assert incremental.players == rate(changed).players
    assert incremental.by_game == rate(changed).by_game
    shorter = rate(changed[:20] + changed[21:], incremental)  # one game deleted
    assert shorter.worked_out == 19 and shorter.players == rate(changed[:20] + changed[21:]).players
