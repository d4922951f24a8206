"""Who may change a game: whoever holds its secret edit key.

The key is a long random token. The database keeps only its SHA-256; the browser
that created the game keeps the key in its session (an HttpOnly cookie that the server
encrypts, so that no one who sees it on the Wi-Fi can read the key), and API clients send
it as ``Authorization: Bearer <key>``. Generating a new key revokes every other phone's
right to edit.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from flask import request, session
from sqlalchemy import select

from scorekeeper.store.database import writing
from scorekeeper.store.models import Game, db

SESSION_KEYS = "edit_keys"
#: The newest edit keys a browser keeps. Each is about 50 bytes of the session cookie, which a
#: browser may drop past 4 KB (and the keys and the Restore offer with it): 30 keys leave room
#: for the offer and a message, and are more games than a phone keeps score of in a season.
MAX_KEYS_IN_SESSION = 30


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


def remember(game_id: int, key: str) -> None:
    """Keep the key in this browser's session so it can keep score."""
    keep_in_session(SESSION_KEYS, game_id, key, MAX_KEYS_IN_SESSION)


def keep_in_session(name: str, game_id: int, value, most: int) -> None:
    """Keep ``value`` for the game under ``name`` in this browser's session, the newest ``most``
    games only: the cookie stays well under the 4 KB a browser may drop it at."""
    kept = dict(session.get(name, {}))
    kept.pop(str(game_id), None)
    kept[str(game_id)] = value
    while len(kept) > most:
        kept.pop(next(iter(kept)))
    session[name] = kept
    session.permanent = True


def session_key(game_id: int) -> str | None:
    return session.get(SESSION_KEYS, {}).get(str(game_id))


def bearer_key() -> str | None:
    """The key an API client sends as ``Authorization: Bearer <key>``, or None."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


def can_edit(game: Game) -> bool:
    """True when this request carries the game's key (session or bearer token)."""
    return key_matches(game, bearer_key()) or key_matches(game, session_key(game.id))


@writing()
def reissue(game_id: int) -> str:
    game = db.session.get(Game, game_id)
    key = issue_key(game)
    game.version += 1
    db.session.commit()
    return key


def games_kept_here() -> list[int]:
    """The games this browser keeps score of: those whose edit key its session holds and still
    matches (a newer edit link revokes it)."""
    held = session.get(SESSION_KEYS, {})
    ids = [int(game_id) for game_id in held if str(game_id).isascii() and str(game_id).isdigit()]
    if not ids:
        return []
    games = db.session.scalars(select(Game).where(Game.id.in_(ids))).all()
    return sorted(game.id for game in games if key_matches(game, held.get(str(game.id))))
