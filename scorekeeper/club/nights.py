"""A club night's standings, across its tables and games, from the games' stored summaries.

Tables of different sizes are made fair by scoring a place as a share of the table beaten:
``(table size - place) / (table size - 1)``, so the winner of any table scores 1 and its last
scores 0, whether four sat there or three; players tied share the average of the places they
tie for (two tied first at a table of four: (1 + 2) / 2 = 1.5th, each 5/6). The night's
standing adds up each player's place points over their games, and between equal points the
lower total penalty relative to each table (the player's total less the table's average) ranks
first; players equal in both share their rank. A game still in progress counts as it stands
and its standing is marked so (docs/using.md says it for the club).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from sqlalchemy import select

from scorekeeper.club.history import leaderboard, ratings_over
from scorekeeper.store import night_games
from scorekeeper.store.models import GameSummary, Player, SeatSummary, db


@dataclass(frozen=True)
class SeatResult:
    """One player's standing in one game: their total and place (1 the best; tied players share
    the best of their places, as the summaries store it: 1, 1, 3)."""

    player_id: int
    name: str
    total: int
    place: int


@dataclass(frozen=True)
class GameResult:
    game_id: int
    finished: bool
    seats: tuple[SeatResult, ...]
    rounds: int = 1  # rounds played: a table started with none yet has no places to give


@dataclass(frozen=True)
class Standing:
    """A player's line in the night's standings. ``rank`` is shared by players equal in points
    and relative penalty (``tied``); ``playing``: one of their games is still in progress."""

    rank: int
    player_id: int
    name: str
    points: Fraction
    relative: Fraction
    games: int
    playing: bool
    tied: bool


def place_points(place: int, tied: int, size: int) -> Fraction:
    """What a place scores at a table of ``size``, ``tied`` players sharing it (from ``place``
    on): the average of the places they share, as a share of the table beaten.

    >>> place_points(1, 1, 4), place_points(4, 1, 4), place_points(1, 1, 3), place_points(1, 2, 4)
    (Fraction(1, 1), Fraction(0, 1), Fraction(1, 1), Fraction(5, 6))
    """
    shared = Fraction(2 * place + tied - 1, 2)  # the average of place .. place + tied - 1
    return (size - shared) / (size - 1)


def standings(games: Sequence[GameResult]) -> list[Standing]:
    """The night's standings from its games, the best first."""
    points: dict[int, Fraction] = {}
    relative: dict[int, Fraction] = {}
    played: Counter[int] = Counter()
    playing: set[int] = set()
    names: dict[int, str] = {}
    for game in games:
        size = len(game.seats)
        if size < 2 or not game.rounds:
            continue
        ties = Counter(seat.place for seat in game.seats)
        average = Fraction(sum(seat.total for seat in game.seats), size)
        for seat in game.seats:
            pid = seat.player_id
            names[pid] = seat.name
            points[pid] = points.get(pid, Fraction(0)) + place_points(seat.place, ties[seat.place], size)
            relative[pid] = relative.get(pid, Fraction(0)) + seat.total - average
            played[pid] += 1
            if not game.finished:
                playing.add(pid)

    def key(pid: int) -> tuple[Fraction, Fraction]:
        return (-points[pid], relative[pid])

    order = sorted(points, key=lambda pid: (*key(pid), names[pid].casefold()))
    lines: list[Standing] = []
    counts = Counter(key(pid) for pid in order)
    for i, pid in enumerate(order):
        rank = lines[-1].rank if lines and key(order[i - 1]) == key(pid) else i + 1
        lines.append(Standing(rank, pid, names[pid], points[pid], relative[pid], played[pid], pid in playing,
                              counts[key(pid)] > 1))
    return lines


def night_results(night_id: int) -> list[GameResult]:
    """The night's games (out of the bin) as their summaries have them, by round and table."""
    tables = night_games(night_id)
    if not tables:
        return []
    rows = db.session.execute(select(SeatSummary.game_id, SeatSummary.player_id, Player.name, SeatSummary.total,
                                     SeatSummary.place)
                              .join(Player, Player.id == SeatSummary.player_id)
                              .where(SeatSummary.game_id.in_([t.game_id for t in tables]))
                              .order_by(SeatSummary.game_id, SeatSummary.position)).all()
    seats: dict[int, list[SeatResult]] = {}
    for game_id, player_id, name, total, place in rows:
        seats.setdefault(game_id, []).append(SeatResult(player_id, name, total, place))
    rounds = dict(db.session.execute(select(GameSummary.game_id, GameSummary.rounds)
                                     .where(GameSummary.game_id.in_([t.game_id for t in tables]))).all())
    return [GameResult(t.game_id, t.finished, tuple(seats.get(t.game_id, ())), rounds.get(t.game_id, 0))
            for t in tables]


def night_standings(night_id: int) -> list[Standing]:
    return standings(night_results(night_id))


@dataclass(frozen=True)
class RatingChange:
    """A player's rating over a night's games (the finished ones: a game is rated when it ends):
    before their first, after their last, and the change those games made (the steps added up,
    so a game played elsewhere meanwhile is not in it)."""

    before: float
    after: float
    change: float
    games: int


def rating_changes(steps: Sequence) -> RatingChange:
    """The change over one player's steps (:class:`~scorekeeper.store.figures.ratings.Step`), in order."""
    return RatingChange(steps[0].before, steps[-1].after, sum(s.change for s in steps), len(steps))


def night_rating_changes(night_id: int) -> dict[int, RatingChange]:
    """Each player's rating change over the night's rated games, from the club's stored ratings
    (every game, one query): the players of no finished game yet have none."""
    steps = ratings_over([t.game_id for t in night_games(night_id) if t.finished])
    return {player_id: rating_changes(mine) for player_id, mine in steps.items()}


def ratings_now() -> dict[int, float]:
    """Every rated player's rating now (over every game): what a draw balanced by rating spreads."""
    board = leaderboard()
    return {line.player_id: line.rating for line in (*board.ranked, *board.provisional)}
