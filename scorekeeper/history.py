"""Game history and player statistics, worked out from the stored facts.

Nothing here is stored: every total, winner, level and rate comes from replaying a
game's recorded rounds with the rules engine, as everywhere else. What this module
adds is *how* games are read in bulk: :func:`load_games` reads any number of games
in four queries (games, seats, rounds, hands), whatever the number of games, rounds
or players, so that a page of history or a player's lifetime statistics costs the
same number of queries for one game as for thousands.

Deleted games (``Game.deleted_at`` set) are out of the history and the statistics,
but stay in the database, in the bin, and in every backup, until someone restores
or purges them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, and_, func, select
from sqlalchemy.orm import raiseload

from . import store
from .models import Game, HandEntry, Player, Round, Seat, db, utcnow
from .rules import RULESETS, GameState, Progression, RuleSet, RulesError, get_rules, replay

PER_PAGE = 20
RECENT_GAMES = 10


# ================================================================ reading games in bulk


@dataclass(frozen=True)
class SeatFact:
    player_id: int
    name: str


@dataclass(frozen=True)
class StoredGame:
    """One game's row, who sat where, and its state as the engine works it out.

    ``game`` is the bare row: its relationships are not loaded (and raise if touched),
    so a template cannot issue a query per game by accident.
    """

    game: Game
    seats: tuple[SeatFact, ...]
    state: GameState | None
    #: Why the rounds cannot be worked out (a game stored under other rules), else None.
    problem: str | None = None

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def rules(self) -> RuleSet | None:
        return RULESETS.get(self.game.rules)

    @property
    def rules_name(self) -> str:
        return self.rules.name if self.rules else self.game.rules

    @property
    def deleted(self) -> bool:
        return self.game.deleted_at is not None

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.finished

    @property
    def player_ids(self) -> tuple[int, ...]:
        return tuple(s.player_id for s in self.seats)

    def seat_of(self, player_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.player_id == player_id:
                return i
        return None

    @property
    def duration(self) -> timedelta | None:
        """From the start to the round that ended it (None if unknown or not positive)."""
        start, end = self.game.started_at, self.game.finished_at
        if start is None or end is None:
            return None
        length = _aware(end) - _aware(start)
        return length if length > timedelta(0) else None


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class _GameFacts:
    """The shape of a stored game that :func:`store.setup_of` and :func:`store.record_of` read."""

    __slots__ = ("rules", "decks", "jokers", "dealer_rule", "first_dealer_seat", "seats")

    def __init__(self, game: Game, seats: list[_SeatFacts]) -> None:
        self.rules = game.rules
        self.decks = game.decks
        self.jokers = game.jokers
        self.dealer_rule = game.dealer_rule
        self.first_dealer_seat = game.first_dealer_seat
        self.seats = seats


class _Named:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class _SeatFacts:
    __slots__ = ("player_id", "player")

    def __init__(self, player_id: int, name: str) -> None:
        self.player_id = player_id
        self.player = _Named(name)


@dataclass(frozen=True)
class _HandFacts:
    player_id: int
    cards: str | None
    points: int | None
    achieved: bool


@dataclass
class _RoundFacts:
    went_out_id: int
    hands: list[_HandFacts] = field(default_factory=list)


def load_games(where: ColumnElement[bool], order_by: Sequence = ()) -> list[StoredGame]:
    """Every game matching ``where`` with its state, in four queries whatever their size.

    The rows are turned into the engine's input by the store's own
    :func:`store.setup_of` and :func:`store.record_of`, so a game reads here exactly
    as :func:`store.load` reads it.
    """
    stmt = select(Game).where(where).options(raiseload("*"))
    if order_by:
        stmt = stmt.order_by(*order_by)
    games = list(db.session.scalars(stmt))
    if not games:
        return []
    wanted = select(Game.id).where(where)
    seats: dict[int, list[_SeatFacts]] = {}
    for game_id, player_id, name in db.session.execute(
        select(Seat.game_id, Seat.player_id, Player.name)
        .join(Player, Player.id == Seat.player_id)
        .where(Seat.game_id.in_(wanted))
        .order_by(Seat.game_id, Seat.position)
    ):
        seats.setdefault(game_id, []).append(_SeatFacts(player_id, name))
    rounds: dict[int, list[_RoundFacts]] = {}
    by_round: dict[int, _RoundFacts] = {}
    for round_id, game_id, went_out_id in db.session.execute(
        select(Round.id, Round.game_id, Round.went_out_id)
        .where(Round.game_id.in_(wanted))
        .order_by(Round.game_id, Round.number)
    ):
        facts = _RoundFacts(went_out_id)
        rounds.setdefault(game_id, []).append(facts)
        by_round[round_id] = facts
    for round_id, player_id, cards, points, achieved in db.session.execute(
        select(HandEntry.round_id, HandEntry.player_id, HandEntry.cards, HandEntry.points, HandEntry.achieved)
        .join(Round, Round.id == HandEntry.round_id)
        .where(Round.game_id.in_(wanted))
        .order_by(HandEntry.round_id, HandEntry.id)
    ):
        by_round[round_id].hands.append(_HandFacts(player_id, cards, points, bool(achieved)))
    return [_stored(game, seats.get(game.id, []), rounds.get(game.id, [])) for game in games]


def _stored(game: Game, seats: list[_SeatFacts], rounds: list[_RoundFacts]) -> StoredGame:
    facts = tuple(SeatFact(s.player_id, s.player.name) for s in seats)
    shape = _GameFacts(game, seats)
    try:
        setup = store.setup_of(shape)  # type: ignore[arg-type]
        state = replay(setup, [store.record_of(shape, rnd) for rnd in rounds])  # type: ignore[arg-type]
    except (RulesError, ValueError, KeyError, IndexError) as exc:
        return StoredGame(game, facts, None, f"its rounds cannot be worked out ({exc})")
    return StoredGame(game, facts, state)


def load_game(game_id: int) -> StoredGame | None:
    games = load_games(Game.id == game_id)
    return games[0] if games else None


# ================================================================ the history


@dataclass(frozen=True)
class HistoryFilter:
    player_id: int | None = None
    rules: str | None = None
    #: The bin: deleted games instead of kept ones.
    deleted: bool = False

    def where(self) -> ColumnElement[bool]:
        conditions = [Game.deleted_at.is_not(None) if self.deleted else Game.deleted_at.is_(None)]
        if self.rules is not None:
            conditions.append(Game.rules == self.rules)
        if self.player_id is not None:
            conditions.append(Game.id.in_(select(Seat.game_id).where(Seat.player_id == self.player_id)))
        return and_(*conditions)

    def order(self) -> tuple:
        if self.deleted:
            return (Game.deleted_at.desc(), Game.id.desc())
        return (Game.started_at.desc(), Game.id.desc())


@dataclass(frozen=True)
class HistoryPage:
    games: list[StoredGame]
    page: int
    pages: int
    total: int
    per_page: int

    @property
    def has_prev(self) -> bool:
        return self.page > 1

    @property
    def has_next(self) -> bool:
        return self.page < self.pages

    @property
    def first_index(self) -> int:
        return (self.page - 1) * self.per_page + 1 if self.total else 0

    @property
    def last_index(self) -> int:
        return min(self.page * self.per_page, self.total)


def history_page(filters: HistoryFilter, page: int = 1, per_page: int = PER_PAGE) -> HistoryPage | None:
    """One page of games, newest first; None for a page past the end (page 1 always exists)."""
    if page < 1:
        return None
    where = filters.where()
    total = db.session.scalar(select(func.count(Game.id)).where(where)) or 0
    pages = max(1, math.ceil(total / per_page))
    if page > pages:
        return None
    if not total:
        return HistoryPage([], 1, 1, 0, per_page)
    ids = list(
        db.session.scalars(
            select(Game.id).where(where).order_by(*filters.order()).limit(per_page).offset((page - 1) * per_page)
        )
    )
    by_id = {g.id: g for g in load_games(Game.id.in_(ids))}
    return HistoryPage([by_id[i] for i in ids if i in by_id], page, pages, total, per_page)


def history_total() -> int:
    """How many games the database holds, deleted ones included."""
    return db.session.scalar(select(func.count(Game.id))) or 0


def deleted_count() -> int:
    return db.session.scalar(select(func.count(Game.id)).where(Game.deleted_at.is_not(None))) or 0


def filter_roster() -> list[Player]:
    """The roster for the history's player filter, in name order (one query)."""
    return store.roster()


# ================================================================ deleting and restoring


def delete_game(game_id: int) -> Game:
    """Put a game in the bin: out of the history and the statistics, kept everywhere else."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise store.NotFound(f"no game {game_id}")
    if game.deleted_at is None:
        game.deleted_at = utcnow()
        db.session.commit()
    return game


def restore_game(game_id: int) -> Game:
    game = db.session.get(Game, game_id)
    if game is None:
        raise store.NotFound(f"no game {game_id}")
    if game.deleted_at is not None:
        game.deleted_at = None
        db.session.commit()
    return game


class NotInBin(Exception):
    pass


def purge_game(game_id: int) -> None:
    """Remove a deleted game for good (only from the bin: a kept game is refused)."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise store.NotFound(f"no game {game_id}")
    if game.deleted_at is None:
        raise NotInBin(f"game {game_id} is not in the bin")
    db.session.delete(game)
    db.session.commit()


# ================================================================ player statistics


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

    stored: StoredGame
    seat: int
    total: int
    place: int
    won: bool
    shared: bool

    @property
    def outcome(self) -> str:
        state = self.stored.state
        if state is None:
            return "cannot be worked out"
        if not state.finished:
            return "in progress"
        if self.won:
            return "shared the win" if self.shared else "won"
        return f"{_ordinal(self.place)} of {len(state.players)}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class Opponent:
    player_id: int
    name: str
    games: int


@dataclass
class PlayerStats:
    player: Player
    overall: Tally
    #: Per rule set key, in the order of RULESETS, for rule sets the player has played.
    by_rules: dict[str, Tally]
    #: Balmoral levels 1 to 7 (empty if the player never played Balmoral).
    levels: list[LevelTally]
    #: Every kept game the player sat in, newest first.
    games: list[PlayedGame]
    #: Everyone who sat at a table with the player, most games together first.
    opponents: list[Opponent]

    @property
    def recent(self) -> list[PlayedGame]:
        return self.games[:RECENT_GAMES]

    @property
    def slowest_level(self) -> LevelTally | None:
        """The level that took the most rounds on average (where the player gets stuck)."""
        timed = [lv for lv in self.levels if lv.average is not None]
        if not timed:
            return None
        return max(timed, key=lambda lv: (lv.average, -lv.level))

    def rules(self, key: str) -> RuleSet:
        return get_rules(key)


def player_games(player_id: int) -> list[StoredGame]:
    """Every kept game the player sat in, newest first, in four queries."""
    where = Game.deleted_at.is_(None) & Game.id.in_(select(Seat.game_id).where(Seat.player_id == player_id))
    return load_games(where, order_by=(Game.started_at.desc(), Game.id.desc()))


def player_stats(player_id: int) -> PlayerStats | None:
    """A player's statistics over all their kept games, in five queries; None if no such player."""
    player = db.session.get(Player, player_id)
    if player is None:
        return None
    return stats_from_games(player, player_games(player_id))


def stats_from_games(player: Player, games: Iterable[StoredGame]) -> PlayerStats:
    overall = Tally()
    by_rules: dict[str, Tally] = {}
    levels: dict[int, LevelTally] = {}
    played: list[PlayedGame] = []
    together: dict[int, list] = {}
    for stored in games:
        seat = stored.seat_of(player.id)
        state = stored.state
        if seat is None:
            continue
        for other in stored.seats:
            if other.player_id != player.id:
                entry = together.setdefault(other.player_id, [other.name, 0])
                entry[1] += 1
        if state is None:
            continue
        me = state.players[seat]
        winners = state.winners
        won = me.name in winners
        place = state.ranks()[me.name]
        played.append(PlayedGame(stored, seat, me.total, place, won, won and len(winners) > 1))
        tally = by_rules.setdefault(state.rules.key, Tally())
        for t in (overall, tally):
            t.played += 1
            t.rounds += len(state.rounds)
            t.penalty += me.total
            t.went_out += me.times_out
            if state.finished:
                t.finished += 1
                t.finals.append(me.total)
                if won:
                    t.won += 1
                    t.shared += len(winners) > 1
        if state.rules.progression is Progression.LADDER:
            _climb(state, seat, levels)
    order = list(RULESETS)
    by_rules = {k: by_rules[k] for k in sorted(by_rules, key=lambda k: order.index(k) if k in order else 99)}
    opponents = sorted(
        (Opponent(pid, name, n) for pid, (name, n) in together.items()),
        key=lambda o: (-o.games, o.name.casefold(), o.player_id),
    )
    return PlayerStats(player, overall, by_rules, [levels[k] for k in sorted(levels)], played, opponents)


def _climb(state: GameState, seat: int, levels: dict[int, LevelTally]) -> None:
    """Count the rounds the player at ``seat`` spent on each level of one game."""
    rules = state.rules
    if not levels:
        for stage in rules.stages:
            levels[stage.number] = LevelTally(stage.number, stage.contract)
    name = state.players[seat].name
    spent = 0
    level = 1
    for result in state.rounds:
        level = result.stages[seat].number
        spent += 1
        if name in result.achieved:
            tally = levels[level]
            tally.made += 1
            tally.rounds_to_make += spent
            tally.longest = max(tally.longest, spent)
            spent = 0
    if spent and state.finished:
        levels[level].ended_on += 1
        levels[level].rounds_ended_on += spent


# ================================================================ head to head


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
    shared_games: list[StoredGame] = field(default_factory=list)


def head_to_head(stats: PlayerStats, opponent_id: int) -> HeadToHead | None:
    """From the player's games already loaded: no query. None if they never shared a table."""
    opponent = next((o for o in stats.opponents if o.player_id == opponent_id), None)
    if opponent is None:
        return None
    h2h = HeadToHead(stats.player.name, opponent.name, opponent_id)
    for pg in stats.games:
        theirs = pg.stored.seat_of(opponent_id)
        state = pg.stored.state
        if theirs is None or state is None:
            continue
        h2h.games += 1
        h2h.shared_games.append(pg.stored)
        if not state.finished:
            continue
        h2h.finished += 1
        mine, other = state.players[pg.seat], state.players[theirs]
        if mine.total < other.total:
            h2h.ahead += 1
        elif mine.total > other.total:
            h2h.behind += 1
        else:
            h2h.level += 1
        h2h.player_won += mine.name in state.winners
        h2h.opponent_won += other.name in state.winners
    return h2h


__all__ = [
    "PER_PAGE",
    "HeadToHead",
    "HistoryFilter",
    "HistoryPage",
    "LevelTally",
    "PlayedGame",
    "PlayerStats",
    "StoredGame",
    "Tally",
    "delete_game",
    "deleted_count",
    "head_to_head",
    "history_page",
    "load_game",
    "load_games",
    "player_stats",
    "purge_game",
    "restore_game",
    "stats_from_games",
]
