"""Every summary worked out again from the recorded facts (``flask games rebuild``).

The facts are the truth and a summary only their digest: :func:`rebuild` replays every game,
compares what it finds with what is stored, names each difference and (unless asked not to)
puts the worked-out summary in place. The tests hold the stored summaries against it.

Migrations change the schema and the facts only: summaries missing after an upgrade, or
worked out by an older logic, are filled by :func:`rebuild_if_stale` (``flask games rebuild
--if-stale``, the upgrade's step after ``flask db upgrade``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from scorekeeper.store.database import writing
from scorekeeper.store.figures import player_summaries, rating_summaries
from scorekeeper.store.models import Game, GameSummary, SeatSummary, SummaryLogic, db
from scorekeeper.store.replays import read_rows, work_out
from scorekeeper.store.figures.summaries import Rows, rows_of, store

#: How many games one pass of :func:`rebuild` reads and replays.
REBUILD_CHUNK = 500

#: The version of the logic that works summaries out of facts (the rules engine's totals and
#: places, :mod:`scorekeeper.store.figures.summaries`, :mod:`scorekeeper.store.figures.rating_summaries`). Add
#: one whenever a change would make a stored summary differ from a rebuild of the same facts:
#: the next upgrade then works every summary out again (:func:`rebuild_if_stale`). 2: the players'
#: sums (:mod:`scorekeeper.store.figures.player_summaries`); 3: each rated game's number in its
#: scope.
SUMMARY_LOGIC = 3


def _chunks(values: Sequence, size: int = 500) -> Iterator[Sequence]:
    for i in range(0, len(values), size):
        yield values[i:i + size]


def stored_rows(game_ids: Sequence[int], session: Session) -> dict[int, Rows]:
    """The summaries stored for these games, as :class:`Rows` (games without one are left out)."""
    games = {row["game_id"]: row for row in (
        dict(r._mapping) for r in session.execute(select(*GameSummary.__table__.c).where(
            GameSummary.game_id.in_(game_ids))))}
    seats: dict[int, list[dict]] = {}
    for r in session.execute(select(*SeatSummary.__table__.c).where(SeatSummary.game_id.in_(game_ids))
                             .order_by(SeatSummary.game_id, SeatSummary.position)):
        seats.setdefault(r.game_id, []).append(dict(r._mapping))
    return {gid: Rows(game, tuple(seats.get(gid, ()))) for gid, game in games.items()}


def worked_out_rows(game_ids: Sequence[int], session: Session) -> dict[int, Rows]:
    """These games' summaries worked out afresh from their facts (one replay each)."""
    games = session.execute(select(Game.id, Game.version, Game.edit_key_hash, Game.rules, Game.rules_document, Game.decks,
                                   Game.jokers, Game.dealer_rule, Game.first_dealer_seat).where(Game.id.in_(game_ids))).all()
    seats, rounds = read_rows(game_ids, session=session)
    found = {}
    for game in games:
        worked = work_out(game, seats.get(game.id, []), rounds.get(game.id, []))
        found[game.id] = rows_of(game.id, [s.player_id for s in worked.seats], worked.state, worked.problem)
    return found


def rebuild(session: Session | None = None, fix: bool = True) -> list[str]:
    """Work every game's summary out again from the facts; one line for each that differed
    from the stored one (or was missing, or belongs to no game), which is then replaced
    unless ``fix`` is False. The club's ratings are then rated again from the summaries, and
    each scope that differed is named (:func:`scorekeeper.store.figures.rating_summaries.rebuild`).
    With ``fix``, the summaries are then those of :data:`SUMMARY_LOGIC`, and the database says
    so. Runs in the session's transaction; the caller commits."""
    session = session or db.session()
    differences: list[str] = []
    ids = list(session.scalars(select(Game.id).order_by(Game.id)))
    for chunk in _chunks(ids, REBUILD_CHUNK):
        fresh = worked_out_rows(chunk, session)
        stored = stored_rows(chunk, session)
        changed = []
        for game_id in chunk:
            if game_id not in stored:
                differences.append(f"game {game_id}: no summary was stored")
            elif stored[game_id].comparable() != fresh[game_id].comparable():
                differences.append(f"game {game_id}: the stored summary differed from the rounds' "
                                   f"({_what_differs(stored[game_id], fresh[game_id])})")
            else:
                continue
            changed.append(fresh[game_id])
        if fix:
            store(changed, session)
    orphans = session.scalars(select(GameSummary.game_id).where(GameSummary.game_id.not_in(select(Game.id)))).all()
    for game_id in orphans:
        differences.append(f"game {game_id}: a summary was stored for no game")
    if fix and orphans:
        for chunk in _chunks(list(orphans)):
            session.execute(delete(SeatSummary).where(SeatSummary.game_id.in_(chunk)))
            session.execute(delete(GameSummary).where(GameSummary.game_id.in_(chunk)))
    session.flush()
    if fix or not differences:
        # The players' sums add up the games' summaries: from summaries that differ they would
        # differ too, and are added up again once those are mended.
        differences += player_summaries.rebuild(session, fix)
    differences += rating_summaries.rebuild(session, fix)
    if fix:
        session.execute(update(SummaryLogic).where(SummaryLogic.id == 1).values(version=SUMMARY_LOGIC))
    return differences


def stale(session: Session | None = None) -> bool:
    """Whether the stored summaries were worked out by another logic than :data:`SUMMARY_LOGIC`
    (or by none known: the database was upgraded from a version that did not say). On
    PostgreSQL the row stays locked to the end of the transaction, so that two servers upgraded
    at once rebuild one after the other, and the second finds nothing to do."""
    session = session or db.session()
    stored = session.scalar(select(SummaryLogic.version).where(SummaryLogic.id == 1).with_for_update())
    return stored != SUMMARY_LOGIC


def rebuild_if_stale(session: Session | None = None) -> list[str] | None:
    """:func:`rebuild` when the summaries are :func:`stale` (its differences), else None."""
    session = session or db.session()
    return rebuild(session) if stale(session) else None


def _what_differs(stored: Rows, fresh: Rows) -> str:
    names = [k for k in fresh.game if stored.game.get(k) != fresh.game[k]]
    if len(stored.seats) != len(fresh.seats):
        names.append("seats")
    for old, new in zip(stored.seats, fresh.seats, strict=False):
        names += [f"seat {new['position']} {k}" for k in new if old.get(k) != new[k]]
    return ", ".join(names) or "order"


def rebuild_summaries(check: bool = False, if_stale: bool = False) -> list[str] | None:
    """``flask games rebuild``: :func:`rebuild` (``check``: reporting only, nothing changed) or
    :func:`rebuild_if_stale`, in one write transaction. The facts do not change, so no game's
    version moves: a summary worked out again says what the facts said already."""
    with writing():
        differences = rebuild_if_stale() if if_stale else rebuild(fix=not check)
        if check:
            db.session.rollback()
        else:
            db.session.commit()
    return differences
