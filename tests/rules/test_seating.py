"""Seats drawn for a club night (``rules.seating``): every player seated once at tables the rule
set allows, within one of each other, at random or balanced by rating, fewer pairs seated again."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules import BALMORAL, CLASSIC, PHASE10, PRESETS, SeatingRefused, draw_tables, meetings, table_sizes

RULE_SETS = st.sampled_from(sorted(PRESETS))


@given(count=st.integers(2, 60), key=RULE_SETS, seed=st.integers(0, 2**32), usual=st.integers(2, 8),
       rated=st.booleans())
def test_every_player_is_seated_once_at_tables_the_rule_set_allows_within_one_of_each_other(count, key, seed, usual,
                                                                                          rated):
    rules = PRESETS[key]
    players = list(range(count))
    if count < rules.min_players:
        with pytest.raises(SeatingRefused):
            draw_tables(players, rules, random.Random(seed))
        return
    ratings = {p: random.Random(p).random() for p in players} if rated else None
    tables = draw_tables(players, rules, random.Random(seed), usual=usual, ratings=ratings)
    assert sorted(p for table in tables for p in table) == players
    sizes = [len(table) for table in tables]
    assert all(rules.min_players <= size <= rules.max_players for size in sizes)
    assert max(sizes) - min(sizes) <= 1


@given(count=st.integers(3, 60), key=RULE_SETS)
def test_a_table_of_two_only_when_no_other_split_is_allowed(count, key):
    rules = PRESETS[key]
    sizes = table_sizes(count, rules)
    assert 2 not in sizes  # under every preset, three players or more can always sit at tables of three or more


@given(seed=st.integers(0, 2**32))
def test_the_same_seed_draws_the_same_tables(seed):
    players = list("ABCDEFGHIJK")
    assert draw_tables(players, BALMORAL, random.Random(seed)) == draw_tables(players, BALMORAL, random.Random(seed))


@pytest.mark.parametrize(("count", "sizes"), [
    (11, [4, 4, 3]), (12, [4, 4, 4]), (9, [3, 3, 3]), (7, [4, 3]), (6, [3, 3]), (5, [5]), (4, [4]), (3, [3]),
    (2, [2]), (13, [4, 3, 3, 3]),
])
def test_worked_examples_of_table_sizes_at_tables_of_four(count, sizes):
    assert table_sizes(count, BALMORAL) == sizes


def test_a_bigger_usual_table_and_a_rule_set_that_needs_three():
    assert table_sizes(11, BALMORAL, usual=6) == [6, 5]
    assert table_sizes(2, PHASE10) == [2]
    with pytest.raises(SeatingRefused, match=r"Tables of 3 to 8 players cannot seat everyone present \(2\)"):
        table_sizes(2, CLASSIC)


def test_one_player_is_refused_clearly():
    with pytest.raises(SeatingRefused, match=r"Tables of 2 to 8 players cannot seat everyone present \(1\)"):
        draw_tables(["Ann"], BALMORAL, random.Random(0))


def test_a_player_drawn_twice_is_refused():
    with pytest.raises(ValueError, match="drawn twice"):
        draw_tables(["Ann", "Ben", "Ann"], BALMORAL, random.Random(0))


@given(seed=st.integers(0, 2**32))
def test_balanced_by_rating_the_strongest_sit_at_different_tables_in_snake_order(seed):
    players = list("ABCDEFGHIJK")  # A the strongest, K the weakest
    ratings = {p: 100 - i for i, p in enumerate(players)}
    tables = draw_tables(players, BALMORAL, random.Random(seed), ratings=ratings)
    table_of = {p: t for t, table in enumerate(tables) for p in table}
    assert len({table_of[p] for p in "ABC"}) == 3  # the three strongest apart
    assert len({table_of[p] for p in "DEF"}) == 3  # and the next three
    # Snake order: the table that got the strongest gets the sixth, so strengths even out.
    assert table_of["A"] == table_of["F"] and table_of["C"] == table_of["D"]


def test_a_later_round_seats_players_who_have_not_met_tonight_where_it_can():
    players = list(range(12))
    first = draw_tables(players, BALMORAL, random.Random(3))
    met = {frozenset(pair) for table in first for pair in combinations(table, 2)}
    second = draw_tables(players, BALMORAL, random.Random(3), met=met)
    assert meetings(first, met) == 18
    # Four at a table from three tables of last round: one pair at each table has met, no more.
    assert meetings(second, met) == 3


@given(seed=st.integers(0, 2**32))
def test_avoiding_pairs_never_seats_more_of_them_than_the_plain_draw(seed):
    players = list(range(11))
    rng = random.Random(seed)
    met = {frozenset(pair) for pair in combinations(players, 2) if rng.random() < 0.4}
    plain = draw_tables(players, BALMORAL, random.Random(seed))
    avoiding = draw_tables(players, BALMORAL, random.Random(seed), met=met)
    assert meetings(avoiding, met) <= meetings(plain, met)


def test_a_balanced_later_round_keeps_the_strongest_apart():
    players = list("ABCDEFGHIJKL")
    ratings = {p: 100 - i for i, p in enumerate(players)}
    met = {frozenset("AD"), frozenset("BE"), frozenset("CF")}
    tables = draw_tables(players, BALMORAL, random.Random(0), ratings=ratings, met=met)
    table_of = {p: t for t, table in enumerate(tables) for p in table}
    assert len({table_of[p] for p in "ABC"}) == 3 and len({table_of[p] for p in "DEF"}) == 3
    assert meetings(tables, met) == 0


@given(count=st.integers(2, 40), key=RULE_SETS, seed=st.integers(0, 2**32), usual=st.integers(2, 8),
       rated=st.booleans(), data=st.data())
def test_winners_together_sit_at_the_fewest_tables_and_everyone_else_is_seated_once(count, key, seed, usual, rated,
                                                                                   data):
    rules = PRESETS[key]
    players = list(range(count))
    if count < rules.min_players:
        return
    winners = data.draw(st.sets(st.sampled_from(players + [-1])))  # -1: a winner gone home
    rng = random.Random(seed)
    met = {frozenset(pair) for pair in combinations(players, 2) if rng.random() < 0.3}
    ratings = {p: random.Random(p).random() for p in players} if rated else None
    tables = draw_tables(players, rules, random.Random(seed), usual=usual, ratings=ratings, met=met, together=winners)
    assert sorted(p for table in tables for p in table) == players
    sizes = [len(table) for table in tables]
    assert all(rules.min_players <= size <= rules.max_players for size in sizes) and max(sizes) - min(sizes) <= 1
    here = winners - {-1}
    # The winners fill the first tables one after another: every table before the last one they
    # sit at is theirs alone.
    at = [t for t, table in enumerate(tables) if here & set(table)]
    if here:
        assert at == list(range(len(at)))
        assert all(set(tables[t]) <= here for t in at[:-1])


def test_the_winners_of_three_tables_sit_at_one_and_the_others_meet_fewer_again():
    players = list(range(12))
    first = draw_tables(players, BALMORAL, random.Random(3))
    met = {frozenset(pair) for table in first for pair in combinations(table, 2)}
    winners = {table[0] for table in first}
    second = draw_tables(players, BALMORAL, random.Random(3), met=met, together=winners)
    assert winners <= set(second[0]) and len(second[0]) == 4
    assert meetings(second, met) <= meetings(first, met)
    assert meetings(second[1:], met) == 2  # two tables of four from 9 players of 3 tables of last round
