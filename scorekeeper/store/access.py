"""Who may change a game: whoever holds its secret edit key.

The key is a long random token. The database keeps only its SHA-256; whoever holds the key
(the browser that created the game, in its session; an API client, as a bearer token: see
:mod:`scorekeeper.web.keyring`) may change the game. Generating a new key revokes every other
phone's right to edit.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping

from sqlalchemy import select

from scorekeeper.store.changes import finish_game
from scorekeeper.store.database import writing
from scorekeeper.store.models import Game, db


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def issue_key(game: Game) -> str:
    """Give the game a fresh key (revoking the old one); the caller commits."""
    key = secrets.token_urlsafe(32)
    game.edit_key_hash = _digest(key)
    return key


def key_matches(game: Game, key: str | None) -> bool:
    if not key or game.edit_key_hash is None or len(key) > 200:
        return False
    return hmac.compare_digest(_digest(key), game.edit_key_hash)


@writing()
def reissue_key(game_id: int) -> str:
    """A new edit key for the game: every phone that held the old one stops keeping score."""
    game = db.session.get(Game, game_id)
    key = issue_key(game)
    finish_game(game)  # the pages the old key opened are no longer the keeper's
    return key


def games_opened_by(held: Mapping[str, object]) -> list[int]:
    """The games whose edit key ``held`` (keys by game id, as a browser keeps them) still holds:
    a newer edit link revokes the older ones."""
    ids = [int(game_id) for game_id in held if str(game_id).isascii() and str(game_id).isdigit()]
    if not ids:
        return []
    games = db.session.scalars(select(Game).where(Game.id.in_(ids))).all()
    return sorted(game.id for game in games if key_matches(game, held.get(str(game.id))))
