"""The club's ratings, stored (``rating_summary``): written with every change, rebuilt on demand.

The ratings (:mod:`scorekeeper.store.figures.ratings`, pure) are a function of the finished, kept games'
stored summaries, in the order the games finished. Working them out on request would cost
every fresh app worker a rating of the whole history (about a second for 10,000 games), so
they are stored like the summaries: every change that can move a game in or out of the order,
or change its standing (a round that ends a game, a correction or deletion of a round, deleting
or restoring a game, an import), calls :func:`refresh` in its own transaction, which rates each
affected scope again from the changed game's place in the order on (never before it: what came
earlier cannot depend on it). :func:`rebuild` (part of ``flask games rebuild``) works every
scope out from nothing and reports any row that differed: the tests hold the rows written
change by change against it.

A scope is a set of games rated together: ``all``, one rule set's (its key), and each of
these for one year (``all/2026``, ``classic/2026``: the games that finished that year); the
leaderboard's filters pick one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from sqlalchemy import and_, bindparam, delete, func, insert, or_, select, union_all
from sqlalchemy.orm import Session, aliased

from scorekeeper.store.figures import ratings
from scorekeeper.store.models import Game, GameSummary, Player, RatingSummary, SeatSummary, db
from scorekeeper.rules import RuleSet, RuleSetError, WinnerRule, ruleset_from_text

#: The order of the rated games: when each finished (when it started, if that is unknown), then its id.
FINISHED = func.coalesce(Game.finished_at, Game.started_at)
_CHUNK = 500
_COLUMNS = ("scope", "game_id", "player_id", "finished_at", "rank", "players", "won", "games", "wins", "mu_before",
            "sigma_before", "mu_after", "sigma_after", "number", "best_at", "lowest_at")


def scope_of(rules: str | None = None, year: int | None = None) -> str:
    """``all``, ``classic``, ``all/2026``, ``classic/2026``."""
    return (rules or "all") + (f"/{year}" if year is not None else "")


def _parts(scope: str) -> tuple[str | None, int | None]:
    rules, _, year = scope.partition("/")
    return (None if rules == "all" else rules), (int(year) if year else None)


def scopes_of(rules: str, finished_at: datetime) -> tuple[str, ...]:
    """The scopes a game of ``rules`` that finished at ``finished_at`` is rated in."""
    year = finished_at.year
    return scope_of(), scope_of(rules), scope_of(None, year), scope_of(rules, year)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


Key = tuple[datetime, int]


def _key(moment: datetime, game_id: int) -> Key:
    return _aware(moment), game_id


# ================================================================ reading the matches


def standings(rules: str | None = None, year: int | None = None, start: Key | None = None,
              session: Session | None = None) -> list[ratings.Standing]:
    """The finished, kept games of a scope (from the game at ``start`` on, if given), as matches
    in the order they finished: one query over the stored summaries, no replay. Each
    standing's ``finished_at`` is its place in the order (:data:`FINISHED`)."""
    session = session or db.session()
    conditions = [Game.deleted_at.is_(None), GameSummary.finished.is_(True), GameSummary.worked_out.is_(True)]
    if rules is not None:
        conditions.append(Game.rules == rules)
    if year is not None:
        conditions += [FINISHED >= datetime(year, 1, 1, tzinfo=UTC), FINISHED < datetime(year + 1, 1, 1, tzinfo=UTC)]
    if start is not None:
        at, game_id = start
        conditions.append(or_(FINISHED > at, and_(FINISHED == at, Game.id >= game_id)))
    rows = session.execute(
        select(Game.id, FINISHED.label("at"), Game.rules, Game.rules_document, SeatSummary.player_id, SeatSummary.won,
               SeatSummary.total, SeatSummary.climbs)
        .join(GameSummary, GameSummary.game_id == Game.id)
        .join(SeatSummary, SeatSummary.game_id == Game.id)
        .where(and_(*conditions))
        .order_by(FINISHED, Game.id, SeatSummary.position)
    ).all()
    found: list[ratings.Standing] = []
    i = 0
    while i < len(rows):
        first = rows[i]
        j = i
        while j < len(rows) and rows[j].id == first.id:
            j += 1
        ruleset = _rules_of(first.rules_document, first.rules)
        finisher = ruleset is not None and ruleset.winner is WinnerRule.LOWEST_FINISHER
        last = f"{ruleset.last_stage}:" if ruleset is not None else ""
        seats = [(r.player_id, bool(r.won), r.total,
                  finisher and any(part.startswith(last) for part in r.climbs.split())) for r in rows[i:j]]
        found.append(ratings.standing_of(first.id, first.at, first.rules, seats, finisher))
        i = j
    return found


def _rules_of(document: str, key: str) -> RuleSet | None:
    """The rules a game was played by (its own frozen copy: a house or imported rule set's winner
    rule counts as a preset's does); None if the copy cannot be read."""
    try:
        return ruleset_from_text(document, key)
    except RuleSetError:
        return None


# ================================================================ writing


def _latest(scope: str, player_ids: Iterable[int] | None, session: Session) -> dict[int, tuple]:
    """Each player's last stored row in the scope: player id -> (mu, sigma, games, wins, best),
    ``best`` the :class:`~scorekeeper.store.figures.ratings.Extremes` of their games so far."""
    last = select(RatingSummary.player_id, func.max(RatingSummary.games).label("n")).where(RatingSummary.scope == scope)
    ids = None if player_ids is None else sorted(set(player_ids))
    if ids is not None:
        if not ids:
            return {}
        last = last.where(RatingSummary.player_id.in_(ids))
    last = last.group_by(RatingSummary.player_id).subquery()
    best, lowest = aliased(RatingSummary), aliased(RatingSummary)

    def at(row, games):
        return and_(row.scope == scope, row.player_id == RatingSummary.player_id, row.games == games)

    rows = session.execute(
        select(RatingSummary.player_id, RatingSummary.mu_after, RatingSummary.sigma_after, RatingSummary.games,
               RatingSummary.wins, RatingSummary.best_at, best.mu_after.label("best_mu"),
               best.sigma_after.label("best_sigma"), RatingSummary.lowest_at, lowest.mu_after.label("lowest_mu"),
               lowest.sigma_after.label("lowest_sigma"))
        .join(last, and_(last.c.player_id == RatingSummary.player_id, last.c.n == RatingSummary.games))
        .outerjoin(best, at(best, RatingSummary.best_at)).outerjoin(lowest, at(lowest, RatingSummary.lowest_at))
        .where(RatingSummary.scope == scope))
    return {r.player_id: (r.mu_after, r.sigma_after, r.games, r.wins, ratings.Extremes(
        r.best_at, -math.inf if r.best_mu is None else ratings.ordinal(r.best_mu, r.best_sigma),
        r.lowest_at, math.inf if r.lowest_mu is None else ratings.ordinal(r.lowest_mu, r.lowest_sigma)))
            for r in rows}


def rows_of(scope: str, matches: Sequence[ratings.Standing], before: dict[int, tuple],
            games_before: int = 0) -> list[dict]:
    """The rows of a scope's ``matches`` rated after ``before`` (each player's (mu, sigma, games,
    wins, :class:`~scorekeeper.store.figures.ratings.Extremes`) from the games before them),
    which were ``games_before`` games."""
    rated = ratings.rate(matches, prior={pid: (mu, sigma) for pid, (mu, sigma, *_) in before.items()})
    counts = {pid: [games, wins, replace(extremes)] for pid, (_, _, games, wins, extremes) in before.items()}
    rows = []
    for number, standing in enumerate(matches, start=games_before + 1):
        for pid, step in rated.by_game[standing.game_id]:
            count = counts.setdefault(pid, [0, 0, ratings.Extremes()])
            count[0] += 1
            count[1] += step.won
            extremes = count[2]
            extremes.after(count[0], step.after)
            rows.append({"scope": scope, "game_id": standing.game_id, "player_id": pid,
                         "finished_at": standing.finished_at, "rank": step.rank, "players": step.players,
                         "won": step.won, "games": count[0], "wins": count[1], "mu_before": step.mu_before,
                         "sigma_before": step.sigma_before, "mu_after": step.mu_after, "sigma_after": step.sigma_after,
                         "number": number, "best_at": extremes.best_at, "lowest_at": extremes.lowest_at})
    return rows


def _insert(rows: Sequence[dict], session: Session) -> None:
    for i in range(0, len(rows), _CHUNK):
        session.execute(insert(RatingSummary), rows[i:i + _CHUNK])


def _last_number(scope: str, session: Session, before: Key | None = None) -> int:
    """How many games the scope rates (before the game at ``before``, if given): the number of
    the last one, one step along the index on the order."""
    last = select(RatingSummary.number).where(RatingSummary.scope == scope)
    if before is not None:
        at, game_id = before
        last = last.where(or_(RatingSummary.finished_at < at,
                              and_(RatingSummary.finished_at == at, RatingSummary.game_id < game_id)))
    last = last.order_by(RatingSummary.finished_at.desc(), RatingSummary.game_id.desc()).limit(1)
    return session.scalar(last) or 0


def rate_from(scope: str, start: Key, session: Session) -> int:
    """Rate a scope again from the game at ``start`` on (its rows from there are replaced);
    how many games that was."""
    at, game_id = start
    session.execute(delete(RatingSummary).where(
        RatingSummary.scope == scope,
        or_(RatingSummary.finished_at > at, and_(RatingSummary.finished_at == at, RatingSummary.game_id >= game_id))))
    rules, year = _parts(scope)
    matches = standings(rules, year, start, session)
    before = _latest(scope, (e.player_id for m in matches for e in m.entries), session)
    _insert(rows_of(scope, matches, before, _last_number(scope, session, start)), session)
    return len(matches)


def refresh(game_ids: Iterable[int], session: Session | None = None) -> None:
    """After a change to these games (in the change's transaction): rate each scope they were
    or now are rated in again, from the earliest of their places in its order, old or new."""
    session = session or db.session()
    ids = sorted(set(game_ids))
    if not ids:
        return
    session.flush()
    starts: dict[str, Key] = {}

    def earliest(scope: str, key: Key) -> None:
        if scope not in starts or key < starts[scope]:
            starts[scope] = key

    for i in range(0, len(ids), _CHUNK):
        chunk = ids[i:i + _CHUNK]
        for scope, at, game_id in session.execute(
                select(RatingSummary.scope, RatingSummary.finished_at, RatingSummary.game_id)
                .where(RatingSummary.game_id.in_(chunk)).distinct()):
            earliest(scope, _key(at, game_id))
        for game_id, rules, at in session.execute(
                select(Game.id, Game.rules, FINISHED).join(GameSummary, GameSummary.game_id == Game.id)
                .where(Game.id.in_(chunk), Game.deleted_at.is_(None), GameSummary.finished.is_(True),
                       GameSummary.worked_out.is_(True))):
            for scope in scopes_of(rules, _aware(at)):
                earliest(scope, _key(at, game_id))
    for scope in sorted(starts):
        rate_from(scope, starts[scope], session)


# ================================================================ rebuilding


def _all_scopes(session: Session) -> list[str]:
    found = set()
    for rules, at in session.execute(
            select(Game.rules, FINISHED).join(GameSummary, GameSummary.game_id == Game.id)
            .where(Game.deleted_at.is_(None), GameSummary.finished.is_(True), GameSummary.worked_out.is_(True))
            .distinct()):
        found.update(scopes_of(rules, _aware(at)))
    return sorted(found)


def _comparable(row: dict) -> tuple:
    values = []
    for name in _COLUMNS:
        value = row[name]
        if isinstance(value, float):
            value = round(value, 9)
        elif isinstance(value, datetime):
            value = _aware(value)
        elif isinstance(value, bool):
            value = int(value)
        values.append(value)
    return tuple(values)


def rebuild(session: Session | None = None, fix: bool = True) -> list[str]:
    """Rate every scope again from nothing; one line for each scope whose stored rows differed
    (or that is stored for no rated game), which is then replaced unless ``fix`` is False."""
    session = session or db.session()
    differences: list[str] = []
    wanted = _all_scopes(session)
    stored_scopes = set(session.scalars(select(RatingSummary.scope).distinct()))
    for scope in wanted:
        rules, year = _parts(scope)
        fresh = rows_of(scope, standings(rules, year, None, session), {})
        stored = [dict(r._mapping) for r in session.execute(
            select(*(getattr(RatingSummary, c) for c in _COLUMNS)).where(RatingSummary.scope == scope))]
        if sorted(map(_comparable, stored)) != sorted(map(_comparable, fresh)):
            differences.append(f"ratings {scope}: the stored ratings differed from the games' "
                               f"({len(stored)} rows stored, {len(fresh)} worked out)")
            if fix:
                session.execute(delete(RatingSummary).where(RatingSummary.scope == scope))
                _insert(fresh, session)
    for scope in sorted(stored_scopes - set(wanted)):
        differences.append(f"ratings {scope}: stored for no rated game")
        if fix:
            session.execute(delete(RatingSummary).where(RatingSummary.scope == scope))
    return differences


# ================================================================ reading


def _step(row) -> ratings.Step:
    return ratings.Step(row.games - 1, row.game_id, row.finished_at, row.rank, row.players, bool(row.won),
                        row.mu_before, row.sigma_before, row.mu_after, row.sigma_after)


def history_of(player_id: int, scope: str = "all", session: Session | None = None) -> ratings.PlayerRating:
    """A player's rating history in a scope, oldest game first."""
    session = session or db.session()
    rows = session.execute(select(RatingSummary).where(RatingSummary.scope == scope,
                                                       RatingSummary.player_id == player_id)
                           .order_by(RatingSummary.games)).scalars()
    return ratings.PlayerRating(player_id, tuple(_step(r) for r in rows))


def line_of(games: int, points: int, *marks: int) -> list[int]:
    """Which points of a rating line over ``games`` games a chart of at most ``points`` draws
    (x = 0 the rating before the first game, x = n after the n-th): every one when there are no
    more than ``points``; else the first, the last, the ``marks`` (the best and the lowest) and,
    with the points left, x spread evenly between them. Rising.

    >>> line_of(5, 10)
    [0, 1, 2, 3, 4, 5]
    >>> line_of(100, 8, 37, 90)
    [0, 20, 37, 40, 60, 80, 90, 100]
    """
    if games + 1 <= points:
        return list(range(games + 1))
    fixed = {0, games, *marks}
    spread = points - len(fixed)
    between = {round(i * games / (spread + 1)) for i in range(1, spread + 1)}
    return sorted(fixed | between)


def path_of(player_id: int, scope: str = "all", *, points: int,
            session: Session | None = None) -> ratings.RatingPath:
    """What a player's page shows of their rating in a scope: how many games, the rating before
    the first and after the last, the best and the lowest moments, and at most ``points`` of the
    line (:func:`line_of`): two queries, of their first and last rows and of ``points`` rows,
    each row a step along the index of the player's rows, so that a page costs the same over ten
    games or ten thousand. The ratings are worked out in Python, as :func:`ratings.ordinal`
    does, so values and ties are those of the player's whole history."""
    if points < 4:
        raise ValueError("a rating path keeps at least its first, last, highest and lowest points")
    session = session or db.session()
    mine = (RatingSummary.scope == scope, RatingSummary.player_id == player_id)
    # The first row (the rating before it is the start) and the last (how many games, the best
    # and the lowest); then the points, read from the index alone.
    first = select(RatingSummary.games, RatingSummary.mu_before, RatingSummary.sigma_before, RatingSummary.best_at,
                   RatingSummary.lowest_at).where(*mine, RatingSummary.games == 1)
    last = select(RatingSummary.games, RatingSummary.mu_before, RatingSummary.sigma_before, RatingSummary.best_at,
                  RatingSummary.lowest_at).where(*mine).order_by(RatingSummary.games.desc()).limit(1)
    ends = session.execute(union_all(first, last.subquery().select())).all()
    if not ends:
        return ratings.RatingPath(player_id, 0, 0.0, 0.0, None, None, ())
    first, last = min(ends, key=lambda r: r.games), max(ends, key=lambda r: r.games)
    start = ratings.ordinal(first.mu_before, first.sigma_before)
    n, best_at, lowest_at = last.games, last.best_at, last.lowest_at
    wanted = line_of(n, points, best_at, lowest_at)
    after = {r.games: r for r in session.execute(
        select(RatingSummary.games, RatingSummary.game_id, RatingSummary.mu_after, RatingSummary.sigma_after)
        .where(*mine, RatingSummary.games.in_(
            # Written into the statement: as 200 parameters, PostgreSQL's plan for any numbers
            # (which it settles on after a statement's tenth run) read all the player's rows.
            bindparam("games", wanted[1:], expanding=True, literal_execute=True))))}
    line = [(0, start)] + [(x, ratings.ordinal(after[x].mu_after, after[x].sigma_after)) for x in wanted[1:]]
    moment = {x: ratings.Moment(x, after[x].game_id, rating) for x, rating in line[1:]}
    return ratings.RatingPath(player_id, n, start, line[-1][1], moment[best_at], moment[lowest_at], tuple(line))


def game_steps(game_id: int, scope: str = "all", session: Session | None = None) -> dict[int, ratings.Step]:
    """Each player's rating before and after one game (empty if it is not rated)."""
    session = session or db.session()
    rows = session.execute(select(RatingSummary).where(RatingSummary.scope == scope,
                                                       RatingSummary.game_id == game_id)).scalars()
    return {r.player_id: _step(r) for r in rows}


def steps_of_games(game_ids: Iterable[int], scope: str = "all",
                   session: Session | None = None) -> dict[int, list[ratings.Step]]:
    """Each player's steps over the given games (those rated), in the order they were rated: one
    query for the games of a club night, not one a game."""
    ids = list(game_ids)
    if not ids:
        return {}
    session = session or db.session()
    steps: dict[int, list[ratings.Step]] = {}
    for r in session.execute(select(RatingSummary).where(RatingSummary.scope == scope, RatingSummary.game_id.in_(ids))
                             .order_by(RatingSummary.player_id, RatingSummary.games)).scalars():
        steps.setdefault(r.player_id, []).append(_step(r))
    return steps


def latest_steps(scope: str, recent: int = ratings.RECENT, session: Session | None = None) -> dict[int, tuple]:
    """Everyone rated in a scope: player id -> (games, wins, their last ``recent`` steps)."""
    session = session or db.session()
    # Each player's rated games in the scope, one step along the index (scope, player, games)
    # for each player; then their last rows, each player's a range of that index. Asked as one
    # join, PostgreSQL guessed the players' number from a table it had never measured (a club's
    # few players) and read the scope's every row instead.
    mine = aliased(RatingSummary)
    last = select(Player.id, select(func.max(mine.games)).where(mine.scope == scope, mine.player_id == Player.id)
                  .scalar_subquery())
    counts = [(pid, n) for pid, n in session.execute(last) if n]
    found: dict[int, list] = {}
    for chunk in (counts[i:i + _CHUNK] for i in range(0, len(counts), _CHUNK)):
        # Each range whole (the scope in it too): SQLite seeks each one only so.
        ranges = [and_(RatingSummary.scope == scope, RatingSummary.player_id == pid, RatingSummary.games > n - recent)
                  for pid, n in chunk]
        for r in session.execute(select(*(getattr(RatingSummary, c) for c in _COLUMNS)).where(or_(*ranges))):
            found.setdefault(r.player_id, []).append(r)
    steps = {}
    for pid, rows in found.items():
        rows.sort(key=lambda r: r.games)
        steps[pid] = (rows[-1].games, rows[-1].wins, tuple(_step(r) for r in rows))
    return steps


def games_rated(scope: str, session: Session | None = None) -> int:
    """How many games a scope rates."""
    return _last_number(scope, session or db.session())


__all__ = ["FINISHED", "game_steps", "games_rated", "history_of", "latest_steps", "line_of", "path_of", "rate_from", "rebuild", "refresh",
           "rows_of", "scope_of", "scopes_of", "standings"]
