"""Game history and player statistics, worked out from the stored facts.

Nothing here is stored: every total, winner, level and rate comes from replaying a
game's recorded rounds with the rules engine, as everywhere else. What this module
adds is *how* games are read in bulk: :func:`load_games` reads any number of games
in a fixed number of queries (the games; then seats, rounds and hands of those not
already worked out in this process, see :mod:`scorekeeper.replays`), whatever the number
of games, rounds or players, so that a page of history costs the same number of queries
for one game as for thousands. A player's statistics are worked out from a summary of each
of their games (kept per game version) and kept until the database changes.

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
from .database import changes, writing
from .models import Game, Player, Seat, db, utcnow
from .replays import CHUNK, LRU, Replay, SeatFact, bulk_work, memory, read_rows, replays, work_out
from .replays import key as game_key
from .rules import RULESETS, GameState, Progression, RuleSet, get_rules

PER_PAGE = 20
RECENT_GAMES = 10


# ================================================================ reading games in bulk


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
        return _duration(self.game.started_at, self.game.finished_at)


def _duration(start: datetime | None, end: datetime | None) -> timedelta | None:
    if start is None or end is None:
        return None
    length = _aware(end) - _aware(start)
    return length if length > timedelta(0) else None


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _stored(game: Game, worked: Replay) -> StoredGame:
    return StoredGame(game, worked.seats, worked.state, worked.problem)


def load_games(where: ColumnElement[bool], order_by: Sequence = (), limit: int | None = None,
               offset: int = 0) -> list[StoredGame]:
    """Every game matching ``where`` with its state: one query for the games, and three more
    (seats, rounds, hands) for those not worked out already, whatever their number.

    The rows are turned into the engine's input by :func:`scorekeeper.replays.setup_of` and
    :func:`~scorekeeper.replays.record_of`, as :func:`store.load` does.
    """
    stmt = select(Game).options(raiseload("*"))
    if limit is None:
        stmt = stmt.where(where)
    else:
        # A page: its ids first, skipping the pages before it along an index that holds the
        # ids (no table row is read for a skipped game), then the page's rows by id.
        page = select(Game.id).where(where).order_by(*order_by).limit(limit).offset(offset)
        stmt = stmt.where(Game.id.in_(page))
    if order_by:
        stmt = stmt.order_by(*order_by)
    games = list(db.session.scalars(stmt))
    if not games:
        return []
    worked = replays(games, where=where if limit is None else None)
    return [_stored(game, worked[game.id]) for game in games]


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
    games = load_games(where, filters.order(), limit=per_page, offset=(page - 1) * per_page)
    return HistoryPage(games, page, pages, total, per_page)


def history_total() -> int:
    """How many games the database holds, deleted ones included."""
    return db.session.scalar(select(func.count(Game.id))) or 0


def deleted_count() -> int:
    return db.session.scalar(select(func.count(Game.id)).where(Game.deleted_at.is_not(None))) or 0


def filter_roster() -> list[Player]:
    """The roster for the history's player filter, in name order (one query)."""
    return store.roster()


# ================================================================ deleting and restoring


@writing()
def delete_game(game_id: int) -> Game:
    """Put a game in the bin: out of the history and the statistics, kept everywhere else."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise store.NotFound(f"no game {game_id}")
    if game.deleted_at is None:
        game.deleted_at = utcnow()
        db.session.commit()
    return game


@writing()
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


@writing()
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
class GameSummary:
    """What the statistics read from one game: its replay boiled down to a few numbers per
    seat (kept per game version, see :func:`_summaries`; a full state is far larger)."""

    game_id: int
    rules: str
    started_at: datetime | None
    seats: tuple[SeatFact, ...]
    #: False when the rounds cannot be worked out (then only ``seats`` counts).
    worked_out: bool
    finished: bool = False
    rounds: int = 0
    totals: tuple[int, ...] = ()
    #: Per seat, the place by total (1, 1, 3).
    places: tuple[int, ...] = ()
    #: The winners' seats (none until the game is finished).
    winners: frozenset[int] = frozenset()
    times_out: tuple[int, ...] = ()
    ladder: bool = False
    #: Ladder games, per seat: (level, rounds spent on it) for each level made, in order.
    climbs: tuple[tuple[tuple[int, int], ...], ...] = ()
    #: Ladder games, per seat: (level, rounds spent on it) when the game finished with the
    #: player still climbing it, else None.
    stuck: tuple[tuple[int, int] | None, ...] = ()

    def seat_of(self, player_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.player_id == player_id:
                return i
        return None


def summarize(game_id: int, rules: str, started_at: datetime | None, worked: Replay) -> GameSummary:
    state = worked.state
    if state is None:
        return GameSummary(game_id, rules, started_at, worked.seats, False)
    ranks = state.ranks()
    winners = set(state.winners)
    ladder = state.rules.progression is Progression.LADDER
    climbs: list[tuple[tuple[int, int], ...]] = []
    stuck: list[tuple[int, int] | None] = []
    if ladder:
        for seat, player in enumerate(state.players):
            made: list[tuple[int, int]] = []
            spent, level = 0, 1
            for result in state.rounds:
                level = result.stages[seat].number
                spent += 1
                if player.name in result.achieved:
                    made.append((level, spent))
                    spent = 0
            climbs.append(tuple(made))
            stuck.append((level, spent) if spent and state.finished else None)
    return GameSummary(
        game_id, rules, started_at, worked.seats, True, state.finished, len(state.rounds),
        tuple(p.total for p in state.players), tuple(ranks[p.name] for p in state.players),
        frozenset(i for i, p in enumerate(state.players) if p.name in winners),
        tuple(p.times_out for p in state.players), ladder, tuple(climbs), tuple(stuck),
    )


@dataclass(frozen=True)
class PlayedGame:
    """One of a player's games, from their seat."""

    summary: GameSummary
    seat: int
    total: int
    place: int
    won: bool
    shared: bool
    #: The whole game, for the recent games the player's page shows (else None).
    stored: StoredGame | None = None

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
    """A player's statistics, apart from the player's row and the recent games' rows."""

    overall: Tally
    #: Per rule set key, in the order of RULESETS, for rule sets the player has played.
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
    #: The newest games, with their rows and states (``PlayedGame.stored``), for the page.
    recent: list[PlayedGame] = field(default_factory=list)

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
        return get_rules(key)


def _kept_games_of(player_id: int) -> ColumnElement[bool]:
    return Game.deleted_at.is_(None) & Game.id.in_(select(Seat.game_id).where(Seat.player_id == player_id))


NEWEST_FIRST = (Game.started_at.desc(), Game.id.desc())


def player_games(player_id: int) -> list[StoredGame]:
    """Every kept game the player sat in, newest first, in three queries at most."""
    return load_games(_kept_games_of(player_id), order_by=NEWEST_FIRST)


#: How many players' figures, and how many games' summaries, one process keeps.
PLAYERS_KEPT = 64
SUMMARIES_KEPT = 20_000


@dataclass(frozen=True)
class _Kept:
    #: The database generation the figures were checked at (None: check the games again).
    generation: int | None
    #: (id, version, edit key hash) of every game they come from, newest first.
    games: tuple[tuple, ...]
    figures: Figures


def player_stats(player_id: int) -> PlayerStats | None:
    """A player's statistics over all their kept games; None if no such player.

    A fixed number of queries whatever the number of games. The figures are kept in this
    process and used again while the database has not changed (on SQLite that costs one
    pragma); after a change, while the player's games are the same versions of the same
    games (one query for their ids and versions); else they are worked out again from a
    summary of each game, itself kept per game version (so only new or changed games are
    replayed).
    """
    player = db.session.get(Player, player_id)
    if player is None:
        return None
    figures = _figures(player_id)
    recent = figures.games[:RECENT_GAMES]
    rows = {g.id: g for g in load_games(Game.id.in_([pg.game_id for pg in recent]))} if recent else {}
    recent = [PlayedGame(pg.summary, pg.seat, pg.total, pg.place, pg.won, pg.shared, rows[pg.game_id])
              for pg in recent if pg.game_id in rows]
    return PlayerStats(player, figures.overall, figures.by_rules, figures.levels, figures.games, figures.opponents,
                       recent)


def _figures(player_id: int) -> Figures:
    kept: LRU = memory().cache("player figures", PLAYERS_KEPT)
    generation = changes.current()
    before: _Kept | None = kept.get(player_id)
    if before is not None and generation is not None and before.generation == generation:
        return before.figures
    where = _kept_games_of(player_id)
    rows = db.session.execute(
        select(Game.id, Game.version, Game.edit_key_hash, Game.rules, Game.decks, Game.jokers, Game.dealer_rule,
               Game.first_dealer_seat, Game.started_at).where(where).order_by(*NEWEST_FIRST)
    ).all()
    games = tuple(game_key(row) for row in rows)
    if before is not None and before.games == games:
        figures = before.figures
    else:
        figures = figures_from(player_id, _summaries(rows, where))
    kept.put(player_id, _Kept(generation, games, figures))
    return figures


def _summaries(rows: Sequence, where: ColumnElement[bool]) -> list[GameSummary]:
    """Each game's summary: kept, or from its kept replay, or from its rows (not kept whole)."""
    kept: LRU = memory().cache("game summaries", SUMMARIES_KEPT)
    replayed = memory().games
    found: dict[int, GameSummary] = {}
    missing = []
    for row in rows:
        summary = kept.get(game_key(row))
        if summary is None:
            worked = replayed.get(game_key(row))
            if worked is None:
                missing.append(row)
                continue
            summary = summarize(row.id, row.rules, row.started_at, worked)
            kept.put(game_key(row), summary)
        found[row.id] = summary
    if missing:
        with bulk_work(len(missing)):
            seats, rounds = read_rows(where=where) if len(missing) > CHUNK else read_rows([r.id for r in missing])
            for row in missing:
                worked = work_out(row, seats.get(row.id, []), rounds.get(row.id, []))
                found[row.id] = summarize(row.id, row.rules, row.started_at, worked)
                kept.put(game_key(row), found[row.id])
    return [found[row.id] for row in rows]


def stats_from_games(player: Player, games: Iterable[StoredGame]) -> PlayerStats:
    """A player's statistics over the given games (newest first)."""
    stored = list(games)
    summaries = [summarize(g.id, g.game.rules, g.game.started_at, Replay(g.seats, g.state, g.problem)) for g in stored]
    figures = figures_from(player.id, summaries)
    by_id = {g.id: g for g in stored}
    played = [PlayedGame(pg.summary, pg.seat, pg.total, pg.place, pg.won, pg.shared, by_id[pg.game_id])
              for pg in figures.games]
    return PlayerStats(player, figures.overall, figures.by_rules, figures.levels, played, figures.opponents,
                       played[:RECENT_GAMES])


def figures_from(player_id: int, summaries: Iterable[GameSummary]) -> Figures:
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
        won = seat in summary.winners
        shared = won and len(summary.winners) > 1
        played.append(PlayedGame(summary, seat, total, summary.places[seat], won, shared))
        tally = by_rules.setdefault(summary.rules, Tally())
        for t in (overall, tally):
            t.played += 1
            t.rounds += summary.rounds
            t.penalty += total
            t.went_out += summary.times_out[seat]
            if summary.finished:
                t.finished += 1
                t.finals.append(total)
                if won:
                    t.won += 1
                    t.shared += shared
        if summary.ladder:
            _climb(summary, seat, levels)
    order = list(RULESETS)
    by_rules = {k: by_rules[k] for k in sorted(by_rules, key=lambda k: order.index(k) if k in order else 99)}
    opponents = sorted(
        (Opponent(pid, name, n) for pid, (name, n) in together.items()),
        key=lambda o: (-o.games, o.name.casefold(), o.player_id),
    )
    return Figures(overall, by_rules, [levels[k] for k in sorted(levels)], played, opponents)


def _climb(summary: GameSummary, seat: int, levels: dict[int, LevelTally]) -> None:
    """Add the rounds the player at ``seat`` spent on each level of one game."""
    if not levels:
        for stage in get_rules(summary.rules).stages:
            levels[stage.number] = LevelTally(stage.number, stage.contract)
    for level, spent in summary.climbs[seat]:
        tally = levels[level]
        tally.made += 1
        tally.rounds_to_make += spent
        tally.longest = max(tally.longest, spent)
    if summary.stuck[seat] is not None:
        level, spent = summary.stuck[seat]
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
        h2h.player_won += pg.seat in summary.winners
        h2h.opponent_won += theirs in summary.winners
    return h2h


__all__ = [
    "PER_PAGE",
    "Figures",
    "GameSummary",
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
