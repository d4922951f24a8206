"""Club ratings: openskill's Plackett-Luce model over the finished games, in order.

Pure: nothing here reads the database. :mod:`scorekeeper.club.history` reads the finished games'
stored summaries, in the order they finished, and hands them here as :class:`Standing` objects
(made by :func:`standing_of`); :func:`rate` gives every player's rating history.

- Every finished game that is not deleted is one match, taken in the order the games finished
  (the finish time, then the game's id).
- Each player is a team of one, ranked by the game's final standing: the winners first, then
  (for a rule set whose winner is "lowest-finisher") those who completed the last stage, then
  the lowest total; equal standings share a rank.
- The model is openskill's ``PlackettLuce`` with the library's defaults (mu 25, sigma 25/3).
- The rating shown is the ordinal, mu - 3 sigma (0 before any game), to one decimal.

:func:`rate` may be given the result of an earlier call: it keeps everything before the first
game whose standing differs, and works out the games from there on only (a correction of last
month's game costs the games since then, not the whole history).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from openskill.models import PlackettLuce

#: The model, with the library's defaults.
MODEL = PlackettLuce()
#: A player with fewer rated games than this is "provisional" on the leaderboard.
PROVISIONAL_BELOW = 5
#: The games over which the leaderboard shows a player's recent change.
RECENT = 5


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: mu - 3 sigma (openskill's ``ordinal()`` with its defaults).

    >>> ordinal(25.0, 25 / 3)
    0.0
    """
    return mu - 3 * sigma


@dataclass(frozen=True)
class Entry:
    """One player's place in one game: ``rank`` 1 is best, equal standings share a rank."""

    player_id: int
    rank: int
    won: bool


@dataclass(frozen=True)
class Standing:
    """One finished game as a match: its players, in seat order, with their ranks."""

    game_id: int
    finished_at: datetime | None
    rules: str
    entries: tuple[Entry, ...]


def standing_of(game_id: int, finished_at: datetime | None, rules: str,
                seats: Sequence[tuple[int, bool, int, bool]], lowest_finisher: bool = False) -> Standing:
    """A game's standing from its seats, each ``(player_id, won, total, completed_last_stage)``.

    The winners first; then, when the rule set's winner is "lowest-finisher", the players who
    completed the last stage; then the lowest total. Standard competition ranks (1, 1, 3).

    >>> s = standing_of(7, None, "classic", [(1, False, 40, False), (2, True, 10, False), (3, False, 10, False)])
    >>> [(e.player_id, e.rank) for e in s.entries]
    [(1, 3), (2, 1), (3, 2)]
    """
    keys = [(not won, lowest_finisher and not finished, total) for _, won, total, finished in seats]
    entries = tuple(Entry(pid, 1 + sum(other < key for other in keys), bool(won))
                    for (pid, won, _, _), key in zip(seats, keys, strict=True))
    return Standing(game_id, finished_at, rules, entries)


@dataclass(frozen=True)
class Step:
    """One player's rating before and after one game (the ``index``-th match rated)."""

    index: int
    game_id: int
    finished_at: datetime | None
    rank: int
    players: int
    won: bool
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def before(self) -> float:
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def after(self) -> float:
        return ordinal(self.mu_after, self.sigma_after)

    @property
    def change(self) -> float:
        return self.after - self.before


@dataclass
class Extremes:
    """Which of a player's games so far left their rating highest and which lowest (1 for their
    first game; the earliest of equals), and those ratings: :attr:`PlayerRating.best` over a
    whole history, and the stored rows' ``best_at`` and ``lowest_at`` game by game."""

    best_at: int = 0
    best: float = -math.inf
    lowest_at: int = 0
    lowest: float = math.inf

    def after(self, games: int, rating: float) -> None:
        """Their ``games``-th game left them at ``rating``."""
        if rating > self.best:
            self.best_at, self.best = games, rating
        if rating < self.lowest:
            self.lowest_at, self.lowest = games, rating


@dataclass(frozen=True)
class PlayerRating:
    """One player's rating history, oldest game first."""

    player_id: int
    steps: tuple[Step, ...]

    @property
    def mu(self) -> float:
        return self.steps[-1].mu_after if self.steps else MODEL.mu

    @property
    def sigma(self) -> float:
        return self.steps[-1].sigma_after if self.steps else MODEL.sigma

    @property
    def rating(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def games(self) -> int:
        return len(self.steps)

    @property
    def wins(self) -> int:
        return sum(s.won for s in self.steps)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_BELOW

    @property
    def recent(self) -> tuple[float, ...]:
        """The rating before the last :data:`RECENT` games and after each of them."""
        last = self.steps[-RECENT:]
        return ((last[0].before,) + tuple(s.after for s in last)) if last else ()

    @property
    def recent_change(self) -> float:
        """How much the rating moved over the last :data:`RECENT` games."""
        recent = self.recent
        return recent[-1] - recent[0] if recent else 0.0

    def _extremes(self) -> Extremes:
        extremes = Extremes()
        for number, step in enumerate(self.steps, start=1):
            extremes.after(number, step.after)
        return extremes

    @property
    def best(self) -> Step | None:
        """The game after which the rating was highest (the earliest such)."""
        return self.steps[self._extremes().best_at - 1] if self.steps else None

    def number(self, step: Step) -> int:
        """Which of the player's rated games ``step`` is (1 for the first)."""
        return self.steps.index(step) + 1

    @property
    def worst(self) -> Step | None:
        """The game after which the rating was lowest (the earliest such)."""
        return self.steps[self._extremes().lowest_at - 1] if self.steps else None


@dataclass(frozen=True)
class Moment:
    """The rating after one of a player's rated games: the ``number``-th (1 for the first)."""

    number: int
    game_id: int
    after: float


@dataclass(frozen=True)
class RatingPath:
    """What a player's page shows of their rating history, whatever its length: how many games
    were rated, the rating before the first (``start``) and after the last (``rating``), the best
    and the lowest moments (the earliest such, as :attr:`PlayerRating.best` and ``worst``), and a
    few points of the line to draw (``points``: ``(x, rating)``, x = 0 the start and x = n after
    the n-th game, rising; the first, the last, the best and the lowest among them)."""

    player_id: int
    games: int
    start: float
    rating: float
    best: Moment | None
    worst: Moment | None
    points: tuple[tuple[int, float], ...]

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_BELOW


@dataclass(frozen=True)
class Ratings:
    """Every player's rating history over ``standings`` (the matches, in the order rated)."""

    standings: tuple[Standing, ...]
    players: dict[int, PlayerRating] = field(default_factory=dict)
    #: Each game's steps, one a player in seat order.
    by_game: dict[int, tuple[tuple[int, Step], ...]] = field(default_factory=dict)
    #: How many matches the call that made this worked out (the rest came from an earlier one).
    worked_out: int = 0

    def of(self, player_id: int) -> PlayerRating:
        return self.players.get(player_id) or PlayerRating(player_id, ())

    def game(self, game_id: int) -> dict[int, Step]:
        """Each player's step in one game (empty if the game was not rated)."""
        return dict(self.by_game.get(game_id, ()))

    def ranked(self) -> list[PlayerRating]:
        """Everyone rated, best rating first (then more games first, then the player's id)."""
        return sorted(self.players.values(), key=lambda p: (-p.rating, -p.games, p.player_id))


def _same_prefix(old: Sequence[Standing], new: Sequence[Standing]) -> int:
    """How many matches at the start of both lists are the same."""
    n = 0
    for a, b in zip(old, new, strict=False):
        if a != b:
            break
        n += 1
    return n


def rate(standings: Sequence[Standing], previous: Ratings | None = None,
         prior: Mapping[int, tuple[float, float]] | None = None) -> Ratings:
    """Rate the matches ``standings``, in that order. With ``previous`` (an earlier result),
    the matches before the first one that differs are taken from it, not worked out again.
    ``prior`` gives players their (mu, sigma) before the first match (the games rated before
    these; anyone else starts from the model's defaults)."""
    standings = tuple(standings)
    keep = _same_prefix(previous.standings, standings) if previous is not None else 0
    prior = prior or {}
    steps: dict[int, list[Step]] = {}
    by_game: dict[int, tuple[tuple[int, Step], ...]] = {}
    if keep:
        for pid, player in previous.players.items():
            kept = [s for s in player.steps if s.index < keep] if player.steps[-1].index >= keep else list(player.steps)
            if kept:
                steps[pid] = kept
        for standing in standings[:keep]:
            by_game[standing.game_id] = previous.by_game[standing.game_id]
    for index in range(keep, len(standings)):
        standing = standings[index]
        before = []
        for entry in standing.entries:
            mine = steps.get(entry.player_id)
            before.append((mine[-1].mu_after, mine[-1].sigma_after) if mine
                          else prior.get(entry.player_id, (MODEL.mu, MODEL.sigma)))
        teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
        if len(teams) > 1:
            after = [(team[0].mu, team[0].sigma)
                     for team in MODEL.rate(teams, ranks=[e.rank for e in standing.entries])]
        else:  # one player alone: nothing to learn
            after = before
        game_steps = []
        for entry, (mu0, s0), (mu1, s1) in zip(standing.entries, before, after, strict=True):
            step = Step(index, standing.game_id, standing.finished_at, entry.rank, len(standing.entries), entry.won,
                        mu0, s0, mu1, s1)
            steps.setdefault(entry.player_id, []).append(step)
            game_steps.append((entry.player_id, step))
        by_game[standing.game_id] = tuple(game_steps)
    players = {pid: PlayerRating(pid, tuple(found)) for pid, found in steps.items()}
    return Ratings(standings, players, by_game, len(standings) - keep)


__all__ = ["MODEL", "PROVISIONAL_BELOW", "RECENT", "Entry", "Extremes", "Moment", "PlayerRating", "RatingPath", "Ratings",
           "Standing", "Step", "ordinal",
           "rate", "standing_of"]
