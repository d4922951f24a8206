"""Seat links: a key for each player's place at a game, so that every player may send their own
hand from their own phone, and nothing else.

Like the edit key (:mod:`scorekeeper.store.access`) a seat key is a long random token sent after
``#key=``; the database keeps only its SHA-256 (``seat.key_hash``). The scorekeeper's browser keeps
the keys of the games it made links for in its session, to show them again on the share page; a
player's browser keeps the one key it opened. Making new seat links revokes every old one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import NamedTuple

from flask import session
from sqlalchemy import select

from scorekeeper.store.access import bearer_key, keep_in_session
from scorekeeper.store.database import writing
from scorekeeper.store.errors import NotFound
from scorekeeper.store.models import Game, Player, Seat, db

#: A player's browser: the seat key it opened, by game.
HELD = "seat_keys"
#: The scorekeeper's browser: every seat's key, by game, for the share page to show again.
MADE = "seat_links"
#: The newest games a player's browser keeps its seat key for (about 50 bytes each of the cookie).
MAX_HELD = 10
#: The newest games a scorekeeper's browser keeps every seat's key for (up to 8 keys each: the
#: cookie must stay well under 4 KB with the edit keys beside them).
MAX_MADE = 3
MAX_KEY = 200


class HeldSeat(NamedTuple):
    """The seat a key opens: its place at the table (0-based) and its player's name."""

    position: int
    name: str


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


@writing()
def make_seat_keys(game_id: int) -> list[str]:
    """A new key for every seat of the game, in seat order; every earlier seat key stops working."""
    if db.session.get(Game, game_id) is None:
        raise NotFound(f"no game {game_id}")
    seats = db.session.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.position)).all()
    keys = [secrets.token_urlsafe(32) for _ in seats]
    for seat, key in zip(seats, keys, strict=True):
        seat.key_hash = _digest(key)
    db.session.commit()
    return keys


def seat_of(game_id: int, key: str | None) -> HeldSeat | None:
    """The seat ``key`` opens at the game (compared in constant time), or None."""
    if not key or len(key) > MAX_KEY:
        return None
    rows = db.session.execute(select(Seat.position, Seat.key_hash, Player.name).join(Player, Seat.player_id == Player.id)
                              .where(Seat.game_id == game_id, Seat.key_hash.is_not(None))).all()
    wanted = _digest(key)
    found = None
    for position, stored, name in rows:
        if hmac.compare_digest(wanted, stored):
            found = HeldSeat(position, name)
    return found


def held_seat(game_id: int) -> HeldSeat | None:
    """The seat this request may send a hand for: its bearer key's, else its browser's seat key's."""
    return seat_of(game_id, bearer_key()) or seat_of(game_id, session.get(HELD, {}).get(str(game_id)))


def hold(game_id: int, key: str) -> None:
    """This browser is the player's own for the game: it keeps the seat key it opened."""
    keep_in_session(HELD, game_id, key, MAX_HELD)


def remember_made(game_id: int, keys: list[str]) -> None:
    """The scorekeeper's browser keeps the seat keys it made, to show the links again."""
    keep_in_session(MADE, game_id, keys, MAX_MADE)


def made_here(game_id: int) -> list[str] | None:
    keys = session.get(MADE, {}).get(str(game_id))
    return list(keys) if isinstance(keys, list) else None

