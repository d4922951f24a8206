"""Seats drawn for a club night: the players present split into tables the rule set allows.

The tables are as even as the count permits (sizes within one of each other), of the club's
usual size or smaller where the count permits (eleven players at tables of four: 4, 4, 3), and a
table of two only when there is no other way. Who sits where is drawn by the ``random.Random``
the caller passes (seeded, the same draw comes again), either at random or balanced by rating:
the strongest spread over the tables in snake order (1st, 2nd, 3rd table, then 3rd, 2nd, 1st...).
For a night's later rounds, ``met`` (the pairs who have played each other tonight) makes the
draw swap players between tables where that seats fewer of them together again; a balanced draw
swaps only players of the same strength band, so that the spread holds. If the club asks for it,
``together`` (the last round's table winners) sit together: they fill the first table, and the
next when they are more than it seats, and the others are drawn around them as usual.

>>> import random
>>> from scorekeeper.rules import BALMORAL
>>> table_sizes(11, BALMORAL)
[4, 4, 3]
>>> strength = dict(zip("ABCDEFG", range(7, 0, -1)))  # A the strongest
>>> [sorted(table) for table in draw_tables(list(strength), BALMORAL, random.Random(1), ratings=strength)]
[['A', 'D', 'E', 'G'], ['B', 'C', 'F']]
>>> {"C", "F"} <= set(draw_tables(list("ABCDEFG"), BALMORAL, random.Random(1), together="CF")[0])
True
"""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Mapping, Sequence
from itertools import combinations
from typing import TypeVar

from scorekeeper.rules.rulesets import RuleSet
from scorekeeper.rules.words import N_, Phrase

P = TypeVar("P", bound=Hashable)

#: The table a club sits at when it can: four players.
USUAL_TABLE = 4


class SeatingRefused(ValueError):
    """Players who cannot be seated at tables of the rule set. ``said``: its words with their blanks."""

    def __init__(self, said: Phrase) -> None:
        super().__init__(str(said))
        self.said = said


def _even(count: int, tables: int) -> list[int]:
    size, bigger = divmod(count, tables)
    return [size + 1] * bigger + [size] * (tables - bigger)


def table_sizes(count: int, rules: RuleSet, usual: int = USUAL_TABLE) -> list[int]:
    """How many sit at each table, the biggest first: sizes the rule set allows, within one of
    each other, no table of two where another split is allowed, then none bigger than ``usual``
    where the count permits, then as few tables as that leaves."""
    splits = [_even(count, tables) for tables in range(1, count + 1)]
    allowed = [s for s in splits if rules.min_players <= s[-1] and s[0] <= rules.max_players]
    if not allowed:
        raise SeatingRefused(Phrase(N_("Tables of {least} to {most} players cannot seat everyone present ({count})"),
                                    {"count": count, "least": rules.min_players, "most": rules.max_players}))
    return min(allowed, key=lambda s: (s[-1] <= 2 < count, max(0, s[0] - usual), len(s)))


def draw_tables(players: Sequence[P], rules: RuleSet, rng: random.Random, *, usual: int = USUAL_TABLE,
                ratings: Mapping[P, float] | None = None, met: Collection[frozenset[P]] = (),
                together: Collection[P] = ()) -> list[list[P]]:
    """The players split into tables (each in seat order, clockwise from the first): at random,
    or balanced by ``ratings`` (higher is stronger; a player without one counts as the weakest);
    seating as few pairs of ``met`` together as the draw can; ``together`` (those of them among
    the players) at the first tables, as few as seat them."""
    if len(set(players)) != len(players):
        raise ValueError("a player is drawn twice")
    sizes = table_sizes(len(players), rules, usual)
    first = [p for p in players if p in set(together)]
    rng.shuffle(first)
    # The players seated together fill the first tables in turn; the rest are drawn around them.
    tables: list[list[P]] = [[] for _ in sizes]
    for i, p in enumerate(first):
        tables[_table_of(i, sizes)].append(p)
    rest = [p for p in players if p not in set(first)]
    if ratings is None:
        order = list(rest)
        rng.shuffle(order)
        bands = [order]  # any two players may swap
    else:
        shuffled = list(rest)
        rng.shuffle(shuffled)  # equal ratings: drawn
        order = sorted(shuffled, key=lambda p: -ratings.get(p, float("-inf")))
        bands = [order[i:i + len(sizes)] for i in range(0, len(order), len(sizes))]
    tables = _snake(order, sizes, tables)
    if met:
        _fewer_meetings(tables, bands, set(met))
    for table in tables:
        rng.shuffle(table)
    return tables


def _table_of(i: int, sizes: Sequence[int]) -> int:
    """The table of the ``i``-th seat (from 0) when the tables are filled one after another."""
    for t, size in enumerate(sizes):
        if i < size:
            return t
        i -= size
    raise IndexError(i)


def _snake(order: Sequence[P], sizes: Sequence[int], seated: list[list[P]] | None = None) -> list[list[P]]:
    """Deal ``order`` over the tables 1, 2, 3, 3, 2, 1, 1, 2...; a full table is passed over
    (``seated``: the tables with those already seated there)."""
    tables: list[list[P]] = seated if seated is not None else [[] for _ in sizes]
    turn = list(range(len(sizes)))
    i = 0
    while i < len(order):
        for t in turn:
            if i < len(order) and len(tables[t]) < sizes[t]:
                tables[t].append(order[i])
                i += 1
        turn.reverse()
    return tables


def meetings(tables: Sequence[Sequence[P]], met: Collection[frozenset[P]]) -> int:
    """How many pairs of ``met`` sit at one table together."""
    return sum(frozenset(pair) in met for table in tables for pair in combinations(table, 2))


def _fewer_meetings(tables: list[list[P]], bands: Sequence[Sequence[P]], met: set[frozenset[P]]) -> None:
    """Swap players of one band between tables while a swap seats fewer met pairs together."""
    where = {p: t for t, table in enumerate(tables) for p in table}

    def cost(p: P, table: Sequence[P]) -> int:
        return sum(frozenset((p, q)) in met for q in table if q != p)

    better = True
    while better:
        better = False
        for band in bands:
            for a, b in combinations(band, 2):
                ta, tb = where[a], where[b]
                if ta == tb:
                    continue
                before = cost(a, tables[ta]) + cost(b, tables[tb])
                after = (cost(b, [q for q in tables[ta] if q != a]) + cost(a, [q for q in tables[tb] if q != b]))
                if after < before:
                    tables[ta][tables[ta].index(a)] = b
                    tables[tb][tables[tb].index(b)] = a
                    where[a], where[b] = tb, ta
                    better = True
