"""A player's statistics and head to head: pure functions over what SQL adds up.

Nothing here reads the database: :func:`scorekeeper.club.history.player_stats` reads the player's
stored sums (per rule set, per ladder level, per opponent), head to head adds up two players'
games side by side in SQL, and both hand the sums and the few rows they need (the newest games)
to the functions here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from scorekeeper.store.models import Player
from scorekeeper.rules import PRESETS, RuleSet
from scorekeeper.store.figures.summaries import Summary, climbs_of

#: How many of a player's newest games their page lists.
RECENT_GAMES = 10


@dataclass
class Tally:
    """A player's figures over a set of games (one rule set, or all), as SQL adds them up."""

    played: int = 0
    finished: int = 0
    won: int = 0
    #: Of ``won``, the wins shared with another player on the same total.
    shared: int = 0
    #: The final totals of finished games, added up, and the lowest of them.
    finals_total: int = 0
    best_final: int | None = None
    rounds: int = 0
    penalty: int = 0
    went_out: int = 0

    @property
    def win_rate(self) -> float | None:
        return self.won / self.finished if self.finished else None

    @property
    def average_final(self) -> float | None:
        return self.finals_total / self.finished if self.finished else None

    @property
    def average_penalty(self) -> float | None:
        return self.penalty / self.rounds if self.rounds else None

    @property
    def in_progress(self) -> int:
        return self.played - self.finished

    def add(self, other: Tally) -> None:
        self.played += other.played
        self.finished += other.finished
        self.won += other.won
        self.shared += other.shared
        self.finals_total += other.finals_total
        if other.best_final is not None:
            self.best_final = other.best_final if self.best_final is None else min(self.best_final, other.best_final)
        self.rounds += other.rounds
        self.penalty += other.penalty
        self.went_out += other.went_out


@dataclass
class LevelTally:
    """How long a player took on one level of a ladder (a Balmoral level, a Phase 10 phase)."""

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


class LevelFigures:
    """Where a player gets stuck on one ladder: the slowest and fastest of its :attr:`levels`."""

    levels: list[LevelTally]

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


@dataclass
class Ladder(LevelFigures):
    """A player's levels on the ladder of one rule set (by the key its games keep)."""

    key: str
    #: The rules of the player's newest game of this ladder (their stage word and contracts).
    rules: RuleSet
    levels: list[LevelTally]


@dataclass(frozen=True)
class NightsTally:
    """A player's club nights: those they played a game at, and the closed ones they won (first
    in the night's standings, a tie for first winning for each player in it)."""

    played: int = 0
    won: int = 0


@dataclass
class PlayerStats(LevelFigures):
    """What a player's page shows, every figure added up over all their kept games."""

    player: Player
    overall: Tally
    #: Per rule set key (the presets first, in their order), for every rule set the player played.
    by_rules: dict[str, Tally]
    #: The levels of the first of :attr:`ladders` (empty if the player never played a ladder game).
    levels: list[LevelTally]
    #: The newest games the player sat in (those that can be worked out), newest first.
    recent: list[PlayedGame]
    #: Everyone who sat at a table with the player, most games together first.
    opponents: list[Opponent]
    first_played: datetime | None = None
    last_played: datetime | None = None
    #: Per rule set key, the rules of the player's newest game started from it (each game keeps
    #: its own copy: a house rule set may have changed between games).
    rulesets: dict[str, RuleSet] = field(default_factory=dict)
    #: Every ladder rule set the player played, in the order of :attr:`by_rules`.
    ladders: list[Ladder] = field(default_factory=list)
    nights: NightsTally = NightsTally()

    def rules(self, key: str) -> RuleSet:
        return self.rulesets[key]




def tallies(rows: Iterable[tuple[str, Tally]]) -> tuple[Tally, dict[str, Tally]]:
    """The figures of all games, and per rule set (presets first, in their order), from the sums
    per rule set that :func:`scorekeeper.club.history.player_stats` reads."""
    overall = Tally()
    by_rules = {}
    order = list(PRESETS)
    for key, tally in sorted(rows, key=lambda row: order.index(row[0]) if row[0] in order else len(order)):
        overall.add(tally)
        by_rules[key] = tally
    return overall, by_rules


def played_game(summary: Summary, player_id: int) -> PlayedGame:
    """One of the player's games, from their seat (the player sat in it)."""
    seat = summary.seat_of(player_id)
    assert seat is not None
    won = seat in summary.winner_seats
    return PlayedGame(summary, seat, summary.totals[seat], summary.seats[seat].place, won,
                      won and len(summary.winner_seats) > 1)


def opponents(rows: Iterable[tuple[int, str, int]]) -> list[Opponent]:
    """Who sat with the player and how often, most games together first."""
    return sorted((Opponent(pid, name, n) for pid, name, n in rows),
                  key=lambda o: (-o.games, o.name.casefold(), o.player_id))


def levels(rules: RuleSet, climbs: Iterable[tuple[str, int | None, int | None]]) -> list[LevelTally]:
    """The rounds the player spent on each level of the ladder of ``rules``, from each of their
    ladder games' stored climbs ("level:rounds" for each level made) and the level a finished
    game left them on (with the rounds spent there)."""
    made: list[str] = []
    stuck: list[tuple[int, int, int]] = []
    for climbed, stuck_level, stuck_rounds in climbs:
        made.append(climbed)
        if stuck_level is not None:
            stuck.append((stuck_level, 1, stuck_rounds or 0))
    return levels_added_up(rules, made, stuck)


def levels_added_up(rules: RuleSet, made: Iterable[str],
                    stuck: Iterable[tuple[int, int, int]]) -> list[LevelTally]:
    """:func:`levels` from what SQL adds up: the climbs' texts (one game's, or many joined with
    spaces), and for each level games ended on, ``(level, games, rounds spent there)``."""
    # A busy player's thousands of climbs hold a few dozen different "level:rounds" parts:
    # each is read once, and counted as often as it was climbed.
    return levels_counted(rules, Counter(" ".join(made).split()), stuck)


def levels_counted(rules: RuleSet, made: Mapping[str, int],
                   stuck: Iterable[tuple[int, int, int]]) -> list[LevelTally]:
    """:func:`levels` from a player's stored sums: each "level:rounds" part of their climbs and
    how often it was climbed, and for each level games ended on, ``(level, games, rounds spent
    there)``."""
    tallies = {stage.number: LevelTally(stage.number, stage.contract) for stage in rules.stages}
    for level, games, rounds in stuck:
        tally = tallies.setdefault(level, LevelTally(level, ""))
        tally.ended_on += games
        tally.rounds_ended_on += rounds
    for part, times in made.items():
        for level, spent in climbs_of(part):
            # An older copy of a house ladder may have had more levels than the newest one.
            tally = tallies.setdefault(level, LevelTally(level, ""))
            tally.made += times
            tally.rounds_to_make += spent * times
            tally.longest = max(tally.longest, spent)
    return [tallies[k] for k in sorted(tallies)]


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


def head_to_head(stats: PlayerStats, opponent_id: int, row: Sequence[int]) -> HeadToHead | None:
    """Two players' figures over the kept games they both sat in (``row``: games, finished,
    ahead, behind, level, player won, opponent won, as SQL counts them). None if the opponent
    never shared a table with the player."""
    opponent = next((o for o in stats.opponents if o.player_id == opponent_id), None)
    if opponent is None:
        return None
    games, finished, ahead, behind, level, player_won, opponent_won = (int(n or 0) for n in row)
    return HeadToHead(stats.player.name, opponent.name, opponent_id, games, finished, ahead, behind, level,
                      player_won, opponent_won)
