""""That's not my hand": a player's word that a saved round is wrong for them.

A flag changes no figure. It stands on the scorekeeper's board ("Cat says round 4 is wrong")
until the round is corrected (the correction's transaction clears it) or the scorekeeper
dismisses it. Flagging the same round twice keeps one flag.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.exc import IntegrityError

from scorekeeper.store.changes import finish_games
from scorekeeper.store.database import writing
from scorekeeper.store.errors import InBin
from scorekeeper.store.models import Game, Player, RoundFlag, Seat, db
from scorekeeper.store.replays import LoadedGame


class Flag(NamedTuple):
    number: int
    position: int
    #: The player who flagged the round.
    name: str


def _not_in_bin(game_id: int) -> None:
    """A game in the bin takes no word, nor a word's dismissal: it changes until it is restored.
    Read inside the write, where a delete cannot come between."""
    if db.session.scalar(select(Game.deleted_at).where(Game.id == game_id).with_for_update()) is not None:
        raise InBin(game_id)


@writing()
def flag_round(game_id: int, number: int, position: int) -> None:
    _not_in_bin(game_id)
    exists = db.session.scalar(select(RoundFlag.id).where(RoundFlag.game_id == game_id, RoundFlag.number == number,
                                                         RoundFlag.position == position))
    if exists is not None:
        db.session.commit()
        return
    db.session.add(RoundFlag(game_id=game_id, number=number, position=position))
    try:
        # Shown on the scorekeeper's board: a change to the game, though no figure changes.
        finish_games([game_id])
    except IntegrityError:  # flagged at the same moment from the seat's other phone: one flag
        db.session.rollback()


@writing()
def dismiss_flag(game_id: int, number: int, position: int) -> None:
    _not_in_bin(game_id)
    gone = db.session.execute(delete(RoundFlag).where(RoundFlag.game_id == game_id, RoundFlag.number == number,
                                                      RoundFlag.position == position))
    if gone.rowcount:
        finish_games([game_id])
    else:
        db.session.commit()


# Made once, as the store's other statements read on every board are: the scorekeeper's board
# asks for its flags each time it is worked out.
_FLAGS = (select(RoundFlag.number, RoundFlag.position, Player.name)
          .join(Seat, (Seat.game_id == RoundFlag.game_id) & (Seat.position == RoundFlag.position))
          .join(Player, Player.id == Seat.player_id)
          .where(RoundFlag.game_id == bindparam("game_id")).order_by(RoundFlag.number, RoundFlag.position))


def flags_of(loaded: LoadedGame) -> list[Flag]:
    """The players' words on the game's rounds: none where the scorekeeper made no seat links
    (only a seat link says one), and then nothing is read."""
    if not loaded.seat_links:
        return []
    return [Flag(*row) for row in db.session.execute(_FLAGS, {"game_id": loaded.id})]


def round_corrected(game_id: int, number: int) -> None:
    """In a correction's transaction: the round's flags are answered."""
    db.session.execute(delete(RoundFlag).where(RoundFlag.game_id == game_id, RoundFlag.number == number)
                       .execution_options(synchronize_session=False))


def round_deleted(game_id: int, number: int) -> None:
    """In a delete's transaction: the round's flags go, and the later rounds' move up with them."""
    round_corrected(game_id, number)
    db.session.execute(update(RoundFlag).where(RoundFlag.game_id == game_id, RoundFlag.number > number)
                       .values(number=RoundFlag.number - 1).execution_options(synchronize_session=False))
