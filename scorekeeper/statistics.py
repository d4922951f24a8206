"""A player's statistics and head to head: pure functions over game summaries.

Nothing here reads the database: :func:`scorekeeper.history.player_stats` reads the player's
games' stored summaries (:class:`scorekeeper.summaries.Summary`) and hands them to
:func:`figures_from`; head to head is worked out from those figures.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from .models import Player
from .rules import PRESETS, RuleSet
from .summaries import Summary

#: How many of a player's newest games their page lists.
RECENT_GAMES = 10


@dataclass
class Tally:
    """A player's figures over a set of games (one rule set, or all)."""

    played: int = 0
    finished: int = 0
    won: int = 0
    #: Of ``won``, the wins shared with another player on the same total.
    shared: int = 0
    #: Final totals of finished games.
    finals: list[int] = field(default_factory=list)
    rounds: int = 0
    penalty: int = 0
    went_out: int = 0

    @property
    def win_rate(self) -> float | None:
        return self.won / self.finished if self.finished else None

    @property
    def average_final(self) -> float | None:
        return sum(self.finals) / len(self.finals) if self.finals else None

    @property
    def best_final(self) -> int | None:
        return min(self.finals) if self.finals else None

    @property
    def average_penalty(self) -> float | None:
        return self.penalty / self.rounds if self.rounds else None

    @property
    def in_progress(self) -> int:
        return self.played - self.finished


@dataclass
class LevelTally:
    """How long a player took on one level of the Balmoral ladder."""

    level: int
    contract: str
    #: Times the player made this level's contract.
    made: int = 0
    #: Rounds spent on the level in the climbs that made it (the round that made it included).
    rounds_to_make: int = 0
    #: The longest of those climbs, in rounds.
    longest: int = 0
    #: Finished games that ended with the player still on this level.
    ended_on: int = 0
    #: Rounds spent on the level in those games.
    rounds_ended_on: int = 0

    @property
    def average(self) -> float | None:
        return self.rounds_to_make / self.made if self.made else None


@dataclass(frozen=True)
class PlayedGame:
    """One of a player's games, from their seat."""

    summary: Summary
    seat: int
    total: int
    place: int
    won: bool
    shared: bool

    @property
    def game_id(self) -> int:
        return self.summary.game_id

    @property
    def started_at(self) -> datetime | None:
        return self.summary.started_at

    @property
    def outcome(self) -> str:
        summary = self.summary
        if not summary.worked_out:
            return "cannot be worked out"
        if not summary.finished:
            return "in progress"
        if self.won:
            return "shared the win" if self.shared else "won"
        return f"{_ordinal(self.place)} of {len(summary.seats)}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class Opponent:
    player_id: int
    name: str
    games: int


@dataclass(frozen=True)
class Figures:
    """A player's statistics, worked out from the summaries of their games."""

    overall: Tally
    #: Per rule set key, presets first in their order, for rule sets the player has played.
    by_rules: dict[str, Tally]
    #: Balmoral levels 1 to 7 (empty if the player never played Balmoral).
    levels: list[LevelTally]
    #: Every kept game the player sat in (and that can be worked out), newest first.
    games: list[PlayedGame]
    #: Everyone who sat at a table with the player, most games together first.
    opponents: list[Opponent]


@dataclass
class PlayerStats:
    player: Player
    overall: Tally
    by_rules: dict[str, Tally]
    levels: list[LevelTally]
    games: list[PlayedGame]
    opponents: list[Opponent]

    @property
    def recent(self) -> list[PlayedGame]:
        """The newest games, for the page."""
        return self.games[:RECENT_GAMES]

    @property
    def first_played(self) -> datetime | None:
        return self.games[-1].started_at if self.games else None

    @property
    def last_played(self) -> datetime | None:
        return self.games[0].started_at if self.games else None

    @property
    def slowest_level(self) -> LevelTally | None:
        """The first of :attr:`slowest_levels` (where the player gets stuck most), if any."""
        slow = self.slowest_levels
        return slow[0] if slow else None

    @property
    def slowest_levels(self) -> tuple[LevelTally, ...]:
        """The levels that took the most rounds on average, every one of them on a tie.

        Empty when none was made yet, or when every level made took a single round each
        time (nothing was slow: :attr:`first_try_every_level`)."""
        timed = self._timed_levels()
        if not timed or self.first_try_every_level:
            return ()
        most = max(lv.average for lv in timed)
        return tuple(lv for lv in timed if lv.average == most)

    @property
    def fastest_levels(self) -> tuple[LevelTally, ...]:
        """The levels made in the fewest rounds on average, every one of them on a tie;
        empty unless the levels made took different times (then one is the slowest too)."""
        timed = self._timed_levels()
        if len({lv.average for lv in timed}) < 2:
            return ()
        least = min(lv.average for lv in timed)
        return tuple(lv for lv in timed if lv.average == least)

    @property
    def first_try_every_level(self) -> bool:
        """True when every level the player made, they made at the first try, every time."""
        timed = self._timed_levels()
        return bool(timed) and all(lv.longest == 1 for lv in timed)

    def _timed_levels(self) -> list[LevelTally]:
        return [lv for lv in self.levels if lv.average is not None]

    def rules(self, key: str) -> RuleSet:
        """The rules of the player's newest game started from the rule set ``key`` (each game
        keeps its own copy: a house rule set may have changed between games)."""
        for played in self.games:
            if played.summary.rules == key and played.summary.ruleset is not None:
                return played.summary.ruleset
        raise KeyError(key)




def figures_from(player_id: int, summaries: Iterable[Summary]) -> Figures:
    overall = Tally()
    by_rules: dict[str, Tally] = {}
    levels: dict[int, LevelTally] = {}
    played: list[PlayedGame] = []
    together: dict[int, list] = {}
    for summary in summaries:
        seat = summary.seat_of(player_id)
        if seat is None:
            continue
        for other in summary.seats:
            if other.player_id != player_id:
                entry = together.setdefault(other.player_id, [other.name, 0])
                entry[1] += 1
        if not summary.worked_out:
            continue
        total = summary.totals[seat]
        won = seat in summary.winner_seats
        shared = won and len(summary.winner_seats) > 1
        played.append(PlayedGame(summary, seat, total, summary.seats[seat].place, won, shared))
        tally = by_rules.setdefault(summary.rules, Tally())
        for t in (overall, tally):
            t.played += 1
            t.rounds += summary.rounds
            t.penalty += total
            t.went_out += summary.seats[seat].times_out
            if summary.finished:
                t.finished += 1
                t.finals.append(total)
                if won:
                    t.won += 1
                    t.shared += shared
        if summary.ladder:
            _climb(summary, seat, levels)
    order = list(PRESETS)
    by_rules = {k: by_rules[k] for k in sorted(by_rules, key=lambda k: order.index(k) if k in order else 99)}
    opponents = sorted(
        (Opponent(pid, name, n) for pid, (name, n) in together.items()),
        key=lambda o: (-o.games, o.name.casefold(), o.player_id),
    )
    return Figures(overall, by_rules, [levels[k] for k in sorted(levels)], played, opponents)


def _climb(summary: Summary, seat: int, levels: dict[int, LevelTally]) -> None:
    """Add the rounds the player at ``seat`` spent on each level of one game."""
    ruleset = summary.ruleset
    if ruleset is None:
        return
    if not levels:
        for stage in ruleset.stages:
            levels[stage.number] = LevelTally(stage.number, stage.contract)
    for stage in ruleset.stages[len(levels):]:
        # A longer ladder than the first game's (levels of every ladder rule set are tallied
        # together until the statistics follow each rule set: issue 14, point 5).
        levels[stage.number] = LevelTally(stage.number, stage.contract)
    for level, spent in summary.seats[seat].climbs:
        tally = levels[level]
        tally.made += 1
        tally.rounds_to_make += spent
        tally.longest = max(tally.longest, spent)
    if summary.seats[seat].stuck is not None:
        level, spent = summary.seats[seat].stuck
        levels[level].ended_on += 1
        levels[level].rounds_ended_on += spent


@dataclass
class HeadToHead:
    """Two players over the kept games they both sat in."""

    player: str
    opponent: str
    opponent_id: int
    games: int = 0
    finished: int = 0
    #: Finished games in which the player ended on a lower total than the opponent.
    ahead: int = 0
    #: ... a higher total.
    behind: int = 0
    #: ... the same total.
    level: int = 0
    #: Finished games the player won (alone or shared), and the opponent won.
    player_won: int = 0
    opponent_won: int = 0
    #: The games, newest first.
    shared_games: list[PlayedGame] = field(default_factory=list)


def head_to_head(stats: PlayerStats, opponent_id: int) -> HeadToHead | None:
    """From the player's games already worked out: no query. None if they never shared a table."""
    opponent = next((o for o in stats.opponents if o.player_id == opponent_id), None)
    if opponent is None:
        return None
    h2h = HeadToHead(stats.player.name, opponent.name, opponent_id)
    for pg in stats.games:
        summary = pg.summary
        theirs = summary.seat_of(opponent_id)
        if theirs is None:
            continue
        h2h.games += 1
        h2h.shared_games.append(pg)
        if not summary.finished:
            continue
        h2h.finished += 1
        mine, other = summary.totals[pg.seat], summary.totals[theirs]
        if mine < other:
            h2h.ahead += 1
        elif mine > other:
            h2h.behind += 1
        else:
            h2h.level += 1
        h2h.player_won += pg.seat in summary.winner_seats
        h2h.opponent_won += theirs in summary.winner_seats
    return h2h
