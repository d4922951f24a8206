"""Hands the players send from their own phones for the round being played, and what the
scorekeeper enters in a player's row of the round screen meanwhile.

Each waits, one per game, round and seat, until the scorekeeper saves the round (whose
transaction drops it: :func:`forget_other_rounds`) or the game moves to another round. The same
hand sent twice is stored once; a new one for the same seat replaces it (the last entered wins,
whichever phone holds the seat link, or the scorekeeper's), and says who entered it, so that the
player's phone shows the scorekeeper's entry before the round is saved. A hand for a round
already saved is refused.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from scorekeeper.store.database import writing
from scorekeeper.store.errors import AlreadyRecorded, InBin
from scorekeeper.store.games import load
from scorekeeper.store.models import GameSummary, SentHand, db, utcnow
from scorekeeper.rules import Problem, RoundError, RoundRecord, check_own_hand


@dataclass(frozen=True)
class Sent:
    """One player's hand as they sent it."""

    position: int
    went_out: bool
    cards: str | None
    points: int | None
    achieved: bool
    bonuses: tuple[str, ...]
    revision: int = 0
    #: The scorekeeper entered it in the player's row, rather than the player sending it.
    by_keeper: bool = False
    #: The scorekeeper's different entry that the player sent this over: what their round screen
    #: keeps, and saves, unless they change it.
    keeper_entry: Sent | None = None

    def same_hand(self, other: Sent) -> bool:
        return self.hand() == other.hand()

    def hand(self) -> tuple:
        return self.went_out, self.cards, self.points, self.achieved, self.bonuses


def _sent(row: SentHand) -> Sent:
    keeper = None
    if row.keeper_entry:
        went_out, cards, points, achieved, bonuses = json.loads(row.keeper_entry)
        keeper = Sent(row.position, went_out, cards, points, achieved, tuple(bonuses), by_keeper=True)
    return Sent(row.position, row.went_out, row.cards, row.points, row.achieved,
                tuple(row.bonuses.split()), row.revision, row.by_keeper, keeper)


def entry_of(position: int, name: str, record: RoundRecord) -> Sent:
    """The row a player's own ``record`` (their part of a round alone) is kept as."""
    hand = record.hands.get(name)
    out = record.went_out == name
    return Sent(position, out, None if name in record.points else ("" if out or hand is None else hand.canonical),
                record.points.get(name), name in record.achieved or out, tuple(sorted(record.bonuses.get(name, ()))))


def send_hand(game_id: int, number: int, name: str, record: RoundRecord, by_keeper: bool = False) -> Sent:
    """Keep ``name``'s own hand for round ``number`` (``by_keeper``: as the scorekeeper entered it
    in their row), checked by the engine as far as one hand alone can be. Raises
    ``AlreadyRecorded`` for a round saved already, ``RoundError`` for any other round than the
    one being played (none is, once the game is over) and for a hand the rules refuse, and
    ``InBin`` for a game in the bin."""
    with writing():
        loaded = load(game_id, lock=True)
        if loaded.deleted:
            raise InBin(game_id)
        state = loaded.state
        if number <= state.played:
            raise AlreadyRecorded(number)
        if state.finished:
            raise RoundError([Problem(f"the game ended after round {state.played}: no round is being played",
                                      round=number, field="number")])
        if number != state.played + 1:
            raise RoundError([Problem(f"round {state.played + 1} is being played, not round {number}",
                                      round=number, field="number")])
        problems = check_own_hand(state, name, record)
        if problems:
            raise RoundError(problems)
        wanted = entry_of(state.setup.seat_of(name), name, record)
        row = db.session.scalar(select(SentHand).where(SentHand.game_id == game_id, SentHand.number == number,
                                                       SentHand.position == wanted.position))
        if row is None:
            row = SentHand(game_id=game_id, number=number, position=wanted.position, revision=0)
            db.session.add(row)
        elif _sent(row).same_hand(wanted):
            kept = _sent(row)
            db.session.commit()
            # Sent again (a retry, a second phone), or the scorekeeper entering what the player
            # sent: kept once, unchanged, with whoever entered it first.
            return kept
        before = _sent(row) if row.revision else None
        if by_keeper:
            keeper = None  # the row is the scorekeeper's own entry now
        elif before is not None and before.by_keeper:
            keeper = before  # the player sends over the scorekeeper's entry, which their screen keeps
        else:
            keeper = before.keeper_entry if before is not None else None
        if keeper is not None and keeper.same_hand(wanted):
            keeper = None  # the player sent what the scorekeeper entered: nothing between them
        row.keeper_entry = None if keeper is None else json.dumps(
            [keeper.went_out, keeper.cards, keeper.points, keeper.achieved, list(keeper.bonuses)])
        row.went_out, row.cards, row.points = wanted.went_out, wanted.cards, wanted.points
        row.achieved, row.bonuses = wanted.achieved, " ".join(wanted.bonuses)
        row.by_keeper = by_keeper
        row.revision += 1
        row.sent_at = utcnow()
        try:
            db.session.flush()
            stored = _sent(row)
            db.session.commit()
        except IntegrityError:  # the other phone of the seat stored it first: the last sent wins
            db.session.rollback()
            return send_hand(game_id, number, name, record, by_keeper)
        return stored


def sent_hands(game_id: int, number: int) -> dict[int, Sent]:
    """The hands sent for round ``number``, by seat."""
    rows = db.session.scalars(select(SentHand).where(SentHand.game_id == game_id, SentHand.number == number))
    return {row.position: _sent(row) for row in rows}


def sent_tag(game_id: int) -> str:
    """What the game's sent hands are, in a few characters: it changes whenever one arrives,
    changes or goes (the scorekeeper's poll answers 304 while it does not)."""
    rows = db.session.execute(select(SentHand.number, SentHand.position, SentHand.revision)
                              .where(SentHand.game_id == game_id).order_by(SentHand.number, SentHand.position)).all()
    return hashlib.sha256(repr([tuple(r) for r in rows]).encode()).hexdigest()[:12]


def forget_other_rounds(game_id: int, next_number: int) -> None:
    """In the transaction of a change to the game's rounds: only the round now being played keeps
    its sent hands (a round saved needs them no more; a round no longer next never comes)."""
    db.session.execute(delete(SentHand).where(SentHand.game_id == game_id, SentHand.number != next_number)
                       .execution_options(synchronize_session=False))



def next_round_number(game_id: int) -> int | None:
    """The number of the round being played (None once the game is over), from the game's
    summary by primary key: what a poll asks for without replaying the game."""
    return db.session.scalar(select(GameSummary.next_round).where(GameSummary.game_id == game_id))
