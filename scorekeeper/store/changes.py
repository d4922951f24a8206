"""The end of every change to the stored games, in the change's own write transaction.

Whatever a change wrote (a new game, a round, a correction, a game put in the bin or brought
back, a rename, a new edit key, a player's word on a round, an import), it ends here, so that no
change forgets a part of it: each game it changed moves on one version (what the game's ETags
and the watchers' polls are made of: every phone showing the game hears of the change), the
summaries of the games whose facts changed are written from the state those facts now make,
their players' sums move with them (finished games only), the games whose place in the
ratings may have moved are rated again, and it is all committed with the facts, or none of it. A change writes no figure of its own.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import Select, update

from scorekeeper.rules import GameState
from scorekeeper.store.figures import player_summaries, rating_summaries, summaries
from scorekeeper.store.models import Game, db, utcnow


def finish_game(game: Game, state: GameState | None = None, player_ids: Sequence[int] = (), *,
                moved: bool = False, rated: bool = False, keep: bool = False) -> None:
    """End a change to one game whose row the change holds.

    ``state``: the state the game's facts now make, when they changed (its summary is written
    from it, and the game is marked finished or not as it says; ``player_ids`` in seat order).
    ``moved``: the change's own write moved the version already (a round's write moves it only
    from the version the round was checked against; a new game starts at its first).
    ``rated``: the game's place in the ratings may have moved. ``keep``: the game's row is
    handed back as the change leaves it, out of the session, so that the commit does not
    expire it (what is shown next is this version, with this state, read no more).
    """
    if not moved:
        game.version += 1
    # The players' sums count finished games only: a round of a game that neither had
    # finished nor finishes with it leaves them as they are, at no cost to the round.
    counted = game.finished_at is not None
    if state is not None:
        if state.finished and game.finished_at is None:
            game.finished_at = utcnow()
        elif not state.finished and game.finished_at is not None:
            game.finished_at = None
    _finish([summaries.rows_of(game.id, player_ids, state)] if state is not None else (),
            [game.id] if rated else (), players=counted or game.finished_at is not None)
    if keep:
        db.session.flush()
        db.session.expunge(game)
    db.session.commit()


def finish_games(game_ids: Collection[int] | Select, *, written: Sequence[summaries.Rows] = (),
                 rated: Collection[int] = ()) -> None:
    """End a change to many games at once (a rename of a player seated at them, games brought
    back from the bin, an import): ``game_ids`` (ids, or a query of them) each move on one
    version in one statement, ``written`` are the summaries of games whose facts changed (a new
    game's first), ``rated`` the games whose place in the ratings may have moved."""
    if isinstance(game_ids, Select) or game_ids:
        db.session.execute(update(Game).where(Game.id.in_(game_ids)).values(version=Game.version + 1)
                           .execution_options(synchronize_session=False))
    _finish(written, rated)
    db.session.commit()


def _finish(written: Sequence[summaries.Rows], rated: Collection[int], players: bool = True) -> None:
    # The games whose figures changed, or that went in or out of the bin (each such change is
    # rated): their players' sums lose what they counted for them and gain what they count now.
    taken = player_summaries.take_out([rows.game["game_id"] for rows in written] + list(rated)) if players else None
    summaries.store(written)
    player_summaries.put_in(taken)
    rating_summaries.refresh(rated)
