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

from sqlalchemy import ColumnElement, and_, func, select

from . import summaries
from .models import Game, Player, Seat, db
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


__all__ = [
    "PER_PAGE",
    "HistoryFilter",
    "HistoryPage",
    "deleted_count",
    "history_page",
    "history_total",
    "player_stats",
    "recent_games",
]
