"""Seat links: a key for each player's place at a game, so that every player may send their own
hand from their own phone, and nothing else.

Like the edit key (:mod:`scorekeeper.store.access`) a seat key is a long random token sent after
``#key=``; the database keeps only its SHA-256 (``seat.key_hash``). The scorekeeper's browser keeps
the keys of the games it made links for, to show them again on the share page; a player's
browser keeps the one key it opened (:mod:`scorekeeper.web.keyring`). Making new seat links
revokes every old one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import select

from scorekeeper.store.changes import finish_games
from scorekeeper.store.database import writing
from scorekeeper.store.errors import NotFound
from scorekeeper.store.models import Game, Player, Seat, db

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
    keys = issue_seat_keys(db.session.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.position)).all())
    # The game's pages read whether it has seat links (the round screen then takes the players'
    # hands): a change to the game.
    finish_games([game_id])
    return keys


def issue_seat_keys(seats: Sequence[Seat], keys: Sequence[str] | None = None) -> list[str]:
    """A new key for each of ``seats`` (in their order), in the caller's write (which finishes it):
    random, or ``keys`` (a club night's tables: :func:`scorekeeper.store.nights.table_seat_keys`)."""
    keys = list(keys) if keys is not None else [secrets.token_urlsafe(32) for _ in seats]
    for seat, key in zip(seats, keys, strict=True):
        seat.key_hash = _digest(key)
    return keys


def seat_keys_match(game_id: int, keys: Sequence[str]) -> bool:
    """Whether ``keys`` are the game's seat keys now, seat by seat (new links made since: no)."""
    stored = db.session.scalars(select(Seat.key_hash).where(Seat.game_id == game_id).order_by(Seat.position)).all()
    return len(stored) == len(keys) and all(
        hash_ is not None and hmac.compare_digest(_digest(key), hash_) for key, hash_ in zip(keys, stored, strict=True))


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
