"""The history and the players' pages: games read from their stored summaries.

Nothing here replays a game: each game's summary (:mod:`scorekeeper.summaries`) was written
with its rounds, so a page of history costs the same few indexed queries for one game as for
thousands, and a player's page reads the summaries of that player's games and hands them to
the pure functions of :mod:`scorekeeper.statistics`.

Deleted games (``Game.deleted_at`` set) are out of the history and the statistics, but stay in
the database, in the bin, and in every backup, until someone restores or purges them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import ColumnElement, and_, func, select

from . import kept, ratings, summaries
from .database import club_version
from .models import Game, GameSummary, Player, Seat, SeatSummary, db
from .rules import PRESETS, WinnerRule
from .statistics import PlayerStats, figures_from
from .summaries import Summary

PER_PAGE = 20
NEWEST_FIRST = (Game.started_at.desc(), Game.id.desc())


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
        return NEWEST_FIRST


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
    games = summaries.read(where, filters.order(), limit=per_page, offset=(page - 1) * per_page)
    return HistoryPage(games, page, pages, total, per_page)


def recent_games(limit: int) -> list[Summary]:
    """The newest kept games (the front page)."""
    return summaries.read(Game.deleted_at.is_(None), NEWEST_FIRST, limit=limit)


def history_total() -> int:
    """How many games the database holds, deleted ones included."""
    return db.session.scalar(select(func.count(Game.id))) or 0


def deleted_count() -> int:
    return db.session.scalar(select(func.count(Game.id)).where(Game.deleted_at.is_not(None))) or 0


def player_stats(player_id: int) -> PlayerStats | None:
    """A player's statistics over all their kept games; None if no such player. Three queries
    (the player; their games with summaries; those games' seats), whatever the number of games."""
    player = db.session.get(Player, player_id)
    if player is None:
        return None
    kept = Game.deleted_at.is_(None) & Game.id.in_(select(Seat.game_id).where(Seat.player_id == player_id))
    figures = figures_from(player_id, summaries.read(kept, NEWEST_FIRST))
    return PlayerStats(player, figures.overall, figures.by_rules, figures.levels, figures.games, figures.opponents)




# ================================================================ ratings (issue 15)

#: The periods the ratings can be worked out over: the key in the address, and its words.
PERIODS = {"all": "All time", "year": "This year"}


@dataclass(frozen=True)
class RatingFilter:
    """Which games the ratings are worked out over: one rule set's or all; this year's or all."""

    rules: str | None = None
    period: str = "all"

    def since(self, now: datetime | None = None) -> datetime | None:
        if self.period != "year":
            return None
        now = now or datetime.now(UTC)
        return datetime(now.year, 1, 1, tzinfo=UTC)


def rating_standings(filters: RatingFilter, now: datetime | None = None) -> list[ratings.Standing]:
    """The finished, kept games the filter selects, as matches in the order they finished (the
    finish time, then the id): one query over the stored summaries, no replay."""
    finished = func.coalesce(Game.finished_at, Game.started_at)
    conditions = [Game.deleted_at.is_(None), GameSummary.finished.is_(True), GameSummary.worked_out.is_(True)]
    if filters.rules is not None:
        conditions.append(Game.rules == filters.rules)
    since = filters.since(now)
    if since is not None:
        conditions.append(finished >= since)
    rows = db.session.execute(
        select(Game.id, Game.finished_at, Game.rules, SeatSummary.player_id, SeatSummary.won, SeatSummary.total,
               SeatSummary.climbs)
        .join(GameSummary, GameSummary.game_id == Game.id)
        .join(SeatSummary, SeatSummary.game_id == Game.id)
        .where(and_(*conditions))
        .order_by(finished.asc().nulls_first(), Game.id, SeatSummary.position)
    ).all()
    found: list[ratings.Standing] = []
    i = 0
    while i < len(rows):
        first = rows[i]
        j = i
        while j < len(rows) and rows[j].id == first.id:
            j += 1
        ruleset = PRESETS.get(first.rules)
        finisher = ruleset is not None and ruleset.winner is WinnerRule.LOWEST_FINISHER
        last = f"{ruleset.last_stage}:" if ruleset is not None else None
        seats = [(r.player_id, bool(r.won), r.total,
                  finisher and any(part.startswith(last) for part in r.climbs.split())) for r in rows[i:j]]
        found.append(ratings.standing_of(first.id, first.finished_at, first.rules, seats, finisher))
        i = j
    return found


def club_ratings(filters: RatingFilter = RatingFilter(), now: datetime | None = None) -> ratings.Ratings:
    """The ratings over the games ``filters`` selects, as the stored summaries stand now.

    Under the club's version (read from the database: every committed change moves it on) the
    result of the last call for the same filter is given again. Otherwise the matches are read
    afresh (one query), and rated from the first game that differs from the last time this
    process rated that filter: the rating is a pure function of the matches, so what is reused
    can never be stale."""
    memo = kept.of_app("ratings", 8)
    key = (filters, filters.since(now))
    version = club_version()
    last = memo.get(key)
    if last is not None and version is not None and last[0] == version:
        return last[1]  # nothing committed since: the same games, the same ratings
    found = ratings.rate(rating_standings(filters, now), last[1] if last is not None else None)
    memo.put(key, (version, found))
    return found


def player_names(player_ids) -> dict[int, str]:
    ids = list(player_ids)
    if not ids:
        return {}
    return {pid: name for pid, name in db.session.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))}


@dataclass(frozen=True)
class RatedPlayer:
    """One line of the leaderboard: a player (their name as the roster has it now) and their rating."""

    player_id: int
    name: str
    rating: ratings.PlayerRating


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
    found = club_ratings(filters, now)
    order = found.ranked()
    names = player_names(p.player_id for p in order)
    lines = [RatedPlayer(p.player_id, names.get(p.player_id, "?"), p) for p in order]
    return Leaderboard(filters, [r for r in lines if not r.rating.provisional],
                       [r for r in lines if r.rating.provisional], len(found.standings))


__all__ = [
    "PERIODS",
    "PER_PAGE",
    "HistoryFilter",
    "HistoryPage",
    "Leaderboard",
    "RatedPlayer",
    "RatingFilter",
    "club_ratings",
    "deleted_count",
    "history_page",
    "history_total",
    "leaderboard",
    "player_names",
    "player_stats",
    "rating_standings",
    "recent_games",
]
