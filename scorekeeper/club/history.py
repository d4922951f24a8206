"""The history and the players' pages: games read from their stored summaries.

Nothing here replays a game: each game's summary (:mod:`scorekeeper.store.figures.summaries`) was written
with its rounds, so a page of history costs the same few indexed queries for one game as for
thousands, and a player's page reads that player's stored sums
(:mod:`scorekeeper.store.figures.player_summaries`) and their newest games, and hands them to
the pure functions of :mod:`scorekeeper.club.statistics`: its cost does not grow with their games.

Deleted games (``Game.deleted_at`` set) are out of the history and the statistics, but stay in
the database, in the bin, and in every backup, until someone restores or purges them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import ColumnElement, Select, and_, bindparam, case, func, select
from sqlalchemy.sql import operators
from sqlalchemy.orm import aliased

from scorekeeper.store.figures import player_summaries, rating_summaries, ratings, summaries
from scorekeeper.club import statistics
from scorekeeper.rules.words import N_
from scorekeeper.store.models import Game, GameSummary, Night, NightGame, Player, Seat, SeatSummary, db
from scorekeeper.store import IMPORTED_KEY
from scorekeeper.rules import PRESETS, Progression, RuleSetError, ruleset_from_text
from scorekeeper.club.statistics import HeadToHead, NightsTally, PlayerStats, Tally
from scorekeeper.store.figures.summaries import Summary

PER_PAGE = 20
NEWEST_FIRST = (Game.started_at.desc(), Game.id.desc())


@dataclass(frozen=True)
class HistoryFilter:
    player_id: int | None = None
    rules: str | None = None
    #: The bin: deleted games instead of kept ones.
    deleted: bool = False
    #: Only these games (a phone's own part of the bin); None, every game.
    only: tuple[int, ...] | None = None

    def where(self) -> ColumnElement[bool]:
        conditions = [Game.deleted_at.is_not(None) if self.deleted else Game.deleted_at.is_(None)]
        if self.rules is not None:
            conditions.append(Game.rules == self.rules)
        if self.player_id is not None:
            conditions.append(Game.id.in_(select(Seat.game_id).where(Seat.player_id == self.player_id)))
        if self.only is not None:
            conditions.append(Game.id.in_(self.only))
        return and_(*conditions)

    def order(self) -> tuple:
        if self.deleted:
            return (Game.deleted_at.desc(), Game.id.desc())
        return NEWEST_FIRST


#: What the history calls the rules of games read from files that match no preset: each such
#: game keeps its own rules, under one key, so one name cannot stand for them all.
IMPORTED_NAME = "Rules from game files"


def rulesets_played() -> dict[str, str]:
    """The rule sets the stored games were started from, by the key each game keeps (a preset's,
    ``house-ID``, or the imported games' key), with the name the newest game gives it (the name
    the rule set had when that game started: its games were played under it): the presets in
    their order, then the rest by name. Two queries, whatever the number of games."""
    # The keys, each found by one step along the index (rules, started_at) past the one before
    # (grouping the games by their key read every game), and each key's newest game at its end.
    keys = select(func.min(Game.rules).label("rules")).cte("keys", recursive=True)
    before = keys.alias("before")
    keys = keys.union_all(select(select(func.min(Game.rules)).where(Game.rules > before.c.rules).scalar_subquery())
                          .where(before.c.rules.is_not(None)))
    newest_game = select(Game.id).where(Game.rules == keys.c.rules) \
        .order_by(Game.started_at.desc(), Game.id.desc()).limit(1).correlate(keys).scalar_subquery()
    newest = db.session.execute(select(keys.c.rules, newest_game).where(keys.c.rules.is_not(None))).all()
    documents = dict(db.session.execute(select(Game.id, Game.rules_document).where(
        Game.id.in_([game_id for _, game_id in newest]))).all())
    names = {}
    for key, game_id in newest:
        names[key] = IMPORTED_NAME if key == IMPORTED_KEY else _name_of(documents.get(game_id, ""), key)
    order = list(PRESETS)
    return dict(sorted(names.items(), key=lambda kv: (order.index(kv[0]) if kv[0] in order else len(order),
                                                      kv[1].casefold(), kv[0])))


def _name_of(document: str, key: str) -> str:
    try:
        return ruleset_from_text(document, key).name
    except RuleSetError:  # a row written before games kept their rules: its key is all there is
        return key


@dataclass(frozen=True)
class HistoryPage:
    games: list[Summary]
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
    offset = (page - 1) * per_page
    shown = min(per_page, total - offset)
    after = total - offset - shown
    if after < offset:
        # Past the middle the page is read from the other end, skipping fewer games along the
        # index: the last page of 10,000 games costs what the first does (`make bench`).
        games = summaries.read(where, backwards(filters.order()), limit=shown, offset=after)[::-1]
    else:
        games = summaries.read(where, filters.order(), limit=shown, offset=offset)
    return HistoryPage(games, page, pages, total, per_page)


def backwards(order: Sequence) -> tuple:
    """An order read from its other end: each column's direction turned round (NULLs follow:
    SQLite and PostgreSQL each put them at opposite ends of the two directions)."""
    turned = []
    for column in order:
        direction = getattr(column, "modifier", None)
        if direction is operators.desc_op:
            turned.append(column.element.asc())
        elif direction is operators.asc_op:
            turned.append(column.element.desc())
        else:
            turned.append(column.desc())
    return tuple(turned)


def recent_games(limit: int) -> list[Summary]:
    """The newest kept games (the front page)."""
    return summaries.read(Game.deleted_at.is_(None), NEWEST_FIRST, limit=limit)


def history_total() -> int:
    """How many games the database holds, deleted ones included."""
    return db.session.scalar(select(func.count(Game.id))) or 0


def deleted_count(only: Sequence[int] | None = None) -> int:
    """Games in the bin (``only``: of these games)."""
    where = Game.deleted_at.is_not(None)
    if only is not None:
        where = where & Game.id.in_(only)
    return db.session.scalar(select(func.count(Game.id)).where(where)) or 0


def player_stats(player_id: int) -> PlayerStats | None:
    """A player's statistics over all their kept games, read from their stored sums
    (:mod:`scorekeeper.store.figures.player_summaries`); None if no such player. A few queries
    of a row a rule set, a level or an opponent, whatever the number of games (the player; the
    sums, levels and opponents; the rule sets; the newest games and their seats; the names)."""
    player = db.session.get(Player, player_id)
    if player is None:
        return None
    figures = player_summaries.of_player(player_id)
    sums = {key: Tally(f.played, f.finished, f.won, f.shared, f.finals_total, f.best_final, f.rounds, f.penalty,
                       f.went_out) for key, f in figures.by_rules.items()}
    starts = [moment for f in figures.by_rules.values() for moment in (f.first_at, f.last_at) if moment is not None]
    # Each rule set as the player's newest game started from it keeps it.
    rulesets = {key: ruleset_from_text(document, key) for key, document in db.session.execute(
        select(Game.rules, Game.rules_document).where(
            Game.id.in_([f.newest_id for f in figures.by_rules.values()])))}
    overall, by_rules = statistics.tallies(sums.items())
    ladder_keys = [key for key in by_rules if rulesets[key].progression is Progression.LADDER]
    ladders = [statistics.Ladder(key, rulesets[key],
                                 statistics.levels_counted(rulesets[key], figures.by_rules[key].climbs,
                                                           figures.levels.get(key, ())))
               for key in ladder_keys]
    # The games stored last, read backwards along the index of the player's seats (a few steps
    # past those in the bin or that cannot be worked out), then put in the order they were played.
    stored_last = select(SeatSummary.game_id).join(GameSummary, GameSummary.game_id == SeatSummary.game_id) \
        .where(SeatSummary.player_id == player_id, GameSummary.worked_out, _kept(SeatSummary.game_id)) \
        .order_by(SeatSummary.game_id.desc()).limit(statistics.RECENT_GAMES)
    newest = summaries.read(Game.id.in_(stored_last), NEWEST_FIRST, limit=statistics.RECENT_GAMES)
    return PlayerStats(player, overall, by_rules, ladders[0].levels if ladders else [],
                       [statistics.played_game(g, player_id) for g in newest], statistics.opponents(figures.pairs),
                       min(starts, default=None), max(starts, default=None), rulesets, ladders,
                       nights_tally(player_id).get(player_id, NightsTally()))


#: A whole multiple of every place point and every penalty relative to a table of 2 to 8 players
#: (the least common multiple of 1 to 8): the night's standings added up in SQL, exactly, in integers.
_WHOLE = 840


def nights_tally(player_id: int | None = None) -> dict[int, NightsTally]:
    """Each player's nights played and won (``player_id``: that player's alone), in one query
    whatever the number of nights: the standings of :mod:`scorekeeper.club.nights` (place points,
    then penalty relative to the table) added up per night and player in SQL, in multiples of
    1/840, so that equal standings are equal, and ranked there. Games in the bin, games of no
    round yet and tables of more than eight count for nothing, as in the standings."""
    one = player_id is not None
    rows = db.session.execute(_nights_statement(one), {"player_id": player_id} if one else {})
    return {pid: NightsTally(int(played), int(won or 0)) for pid, played, won in rows}


@functools.cache
def _nights_statement(one_player: bool) -> Select:
    """The statement of :func:`nights_tally` (for the player named by the parameter
    ``player_id``, or everyone), made once: making it took ten times as long as the database
    takes to answer it for a player's page."""
    seat = SeatSummary
    size = func.count().over(partition_by=seat.game_id)
    tied = func.count().over(partition_by=(seat.game_id, seat.place))
    table_total = func.sum(seat.total).over(partition_by=seat.game_id)
    at_nights = (select(NightGame.night_id, seat.player_id, seat.place, seat.total, size.label("size"),
                        tied.label("tied"), table_total.label("table_total"))
                 .join(NightGame, NightGame.game_id == seat.game_id)
                 .join(GameSummary, GameSummary.game_id == seat.game_id)
                 .where(GameSummary.rounds > 0, _kept(seat.game_id)))
    if one_player:
        # The nights' games sought, each looked up in the player's seats by the index (player, game):
        # as costly for a player of thousands of games as for one of ten.
        mine = aliased(SeatSummary)
        theirs = select(NightGame.night_id).where(
            select(mine.game_id).where(mine.player_id == bindparam("player_id"),
                                       mine.game_id == NightGame.game_id).exists())
        at_nights = at_nights.where(NightGame.night_id.in_(theirs))
    games = at_nights.subquery()
    counted = games.c.size.between(2, 8)
    points = (_WHOLE // 2) // (games.c.size - 1) * (2 * games.c.size - 2 * games.c.place - games.c.tied + 1)
    relative = _WHOLE * games.c.total - _WHOLE // games.c.size * games.c.table_total
    per_night = (select(games.c.night_id, games.c.player_id, func.sum(points).label("points"),
                        func.sum(relative).label("relative"))
                 .where(counted).group_by(games.c.night_id, games.c.player_id).subquery())
    rank = func.rank().over(partition_by=per_night.c.night_id,
                            order_by=(per_night.c.points.desc(), per_night.c.relative)).label("rank")
    ranked = (select(per_night.c.player_id, rank, Night.closed_at)
              .join(Night, Night.id == per_night.c.night_id).subquery())
    rows = select(ranked.c.player_id, func.count(),
                  func.sum(case((and_(ranked.c.rank == 1, ranked.c.closed_at.is_not(None)), 1), else_=0)))
    if one_player:
        rows = rows.where(ranked.c.player_id == bindparam("player_id"))
    return rows.group_by(ranked.c.player_id)


def head_to_head(stats: PlayerStats, opponent_id: int) -> HeadToHead | None:
    """The player against one opponent over the kept games both sat in (that can be worked
    out), counted in SQL; None if they never shared a table."""
    theirs = aliased(SeatSummary)
    finished = GameSummary.finished
    row = db.session.execute(
        select(func.count(), _count(finished), _count(and_(finished, SeatSummary.total < theirs.total)),
               _count(and_(finished, SeatSummary.total > theirs.total)),
               _count(and_(finished, SeatSummary.total == theirs.total)),
               _count(and_(finished, SeatSummary.won)), _count(and_(finished, theirs.won)))
        .select_from(SeatSummary)
        .join(theirs, and_(theirs.game_id == SeatSummary.game_id, theirs.player_id == opponent_id))
        .join(GameSummary, GameSummary.game_id == SeatSummary.game_id)
        .join(Game, Game.id == SeatSummary.game_id)
        .where(_mine(SeatSummary, stats.player.id))
    ).one()
    return statistics.head_to_head(stats, opponent_id, row)


def _mine(seat, player_id: int) -> ColumnElement[bool]:
    """The seats of a player in kept games that can be worked out (their summaries joined)."""
    return and_(seat.player_id == player_id, GameSummary.game_id == seat.game_id, GameSummary.worked_out,
                Game.id == seat.game_id, Game.deleted_at.is_(None))


def _kept(game_id) -> ColumnElement[bool]:
    """The game ``game_id`` is not in the bin: checked against the index of the few deleted
    games, not each game's row (a busy player's thousands of games are each a page of the table)."""
    return game_id.not_in(select(Game.id).where(Game.deleted_at.is_not(None)))


def _count(condition: ColumnElement[bool]):
    return func.sum(case((condition, 1), else_=0))


# ================================================================ ratings

#: The periods the ratings can be worked out over: the key in the address, and its words.
PERIODS = {"all": N_("All time"), "year": N_("This year")}


@dataclass(frozen=True)
class RatingFilter:
    """Which games the ratings are worked out over: one rule set's or all; this year's or all."""

    rules: str | None = None
    period: str = "all"

    def year(self, now: datetime | None = None) -> int | None:
        return (now or datetime.now(UTC)).year if self.period == "year" else None

    def scope(self, now: datetime | None = None) -> str:
        return rating_summaries.scope_of(self.rules, self.year(now))


@dataclass(frozen=True)
class RatedPlayer:
    """One line of the leaderboard: a player (their name as the roster has it now), their
    rating, and the steps of their last :data:`ratings.RECENT` games."""

    player_id: int
    name: str
    games: int
    wins: int
    last: tuple[ratings.Step, ...]

    @property
    def mu(self) -> float:
        return self.last[-1].mu_after

    @property
    def sigma(self) -> float:
        return self.last[-1].sigma_after

    @property
    def rating(self) -> float:
        return self.last[-1].after

    @property
    def provisional(self) -> bool:
        return self.games < ratings.PROVISIONAL_BELOW

    @property
    def recent(self) -> tuple[float, ...]:
        """The rating before the last games and after each of them."""
        return (self.last[0].before,) + tuple(s.after for s in self.last)

    @property
    def recent_change(self) -> float:
        return self.last[-1].after - self.last[0].before


@dataclass(frozen=True)
class Leaderboard:
    filters: RatingFilter
    #: Players with at least :data:`ratings.PROVISIONAL_BELOW` rated games, best rating first.
    ranked: list[RatedPlayer]
    #: The others, best rating first.
    provisional: list[RatedPlayer]
    #: How many games were rated.
    games: int


def leaderboard(filters: RatingFilter = RatingFilter(), now: datetime | None = None) -> Leaderboard:
    """The stored ratings of the filter's scope: three queries, whatever the number of games."""
    scope = filters.scope(now)
    latest = rating_summaries.latest_steps(scope)
    names = player_names(latest)
    lines = sorted((RatedPlayer(pid, names.get(pid, "?"), games, wins, last)
                    for pid, (games, wins, last) in latest.items()),
                   key=lambda line: (-line.rating, -line.games, line.name.casefold(), line.player_id))
    return Leaderboard(filters, [r for r in lines if not r.provisional], [r for r in lines if r.provisional],
                       rating_summaries.games_rated(scope) if lines else 0)


def player_rating(player_id: int) -> ratings.PlayerRating:
    """A player's rating history over every rated game."""
    return rating_summaries.history_of(player_id)


def rating_path(player_id: int, points: int) -> ratings.RatingPath:
    """A player's rating over every rated game, as their page shows it, with at most ``points``
    of its line to draw."""
    return rating_summaries.path_of(player_id, points=points)


def game_ratings(game_id: int) -> dict[int, ratings.Step]:
    """Each player's rating before and after one game (empty if the game is not rated)."""
    return rating_summaries.game_steps(game_id)


def ratings_over(game_ids) -> dict[int, list[ratings.Step]]:
    """Each player's rating steps over these games (the rated ones), in the order rated."""
    return rating_summaries.steps_of_games(game_ids)


def player_names(player_ids) -> dict[int, str]:
    ids = list(player_ids)
    if not ids:
        return {}
    return {pid: name for pid, name in db.session.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))}

__all__ = [
    "PERIODS",
    "PER_PAGE",
    "HistoryFilter",
    "HistoryPage",
    "Leaderboard",
    "RatedPlayer",
    "RatingFilter",
    "game_ratings",
    "deleted_count",
    "history_page",
    "head_to_head",
    "history_total",
    "leaderboard",
    "player_names",
    "player_rating",
    "player_stats",
    "rating_path",
    "recent_games",
]
