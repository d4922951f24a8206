"""The slowest and fastest levels on a player's page: first tries, and ties named together."""

from __future__ import annotations

from scorekeeper.club.statistics import LevelTally, PlayerStats


def stats(*levels: tuple[int, int, int, int]) -> PlayerStats:
    """A player's figures from (level, times made, rounds to make them, longest climb)."""
    tallies = [LevelTally(n, f"contract {n}", made, rounds, longest) for n, made, rounds, longest in levels]
    return PlayerStats(player=None, overall=None, by_rules={}, levels=tallies, recent=[], opponents=[])


def test_every_level_made_at_the_first_try_has_no_slowest():
    figures = stats((1, 2, 2, 1), (2, 2, 2, 1), (3, 1, 1, 1), (4, 0, 0, 0))
    assert figures.first_try_every_level
    assert figures.slowest_levels == () and figures.fastest_levels == ()
    assert figures.slowest_level is None


def test_two_levels_that_tie_are_both_named():
    figures = stats((1, 2, 2, 1), (2, 1, 3, 3), (3, 2, 6, 4), (4, 1, 1, 1))
    assert [lv.level for lv in figures.slowest_levels] == [2, 3]
    assert [lv.level for lv in figures.fastest_levels] == [1, 4]
    assert not figures.first_try_every_level


def test_one_level_made_slowly_is_the_slowest_and_none_is_fastest():
    figures = stats((1, 2, 3, 2), (2, 0, 0, 0))
    assert [lv.level for lv in figures.slowest_levels] == [1]
    assert figures.fastest_levels == ()


def test_the_page_says_first_try_and_names_ties(app):
    with app.test_request_context():
        from flask import render_template_string

        source = '{% from "_macros.html" import level_list %}{{ level_list([2, 3]) }}|{{ level_list([5]) }}'
        assert render_template_string(source) == "levels 2 and 3|level 5"
