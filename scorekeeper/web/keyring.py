"""The keys a request carries: a game's edit key, a player's seat key and a club night's key, in this browser's
sealed session or as ``Authorization: Bearer <key>``.

The store keeps each key's hash and says whether a key opens a game or a seat
(:func:`scorekeeper.store.key_matches`, :func:`scorekeeper.store.seat_of`); where a key comes
from (a cookie, a header) is HTTP's, and so is here. The session is an HttpOnly cookie the
server encrypts (:mod:`scorekeeper.web.sealed_session`), so that no one who sees it on the
Wi-Fi can read the keys in it.
"""

from __future__ import annotations

from flask import request, session

from scorekeeper import store

#: The scorekeeper's browser: the edit key of each game it keeps score of.
SESSION_KEYS = "edit_keys"
#: The newest edit keys a browser keeps. Each is about 50 bytes of the session cookie, which a
#: browser may drop past 4 KB (and the keys and the Restore offer with it): 30 keys leave room
#: for the offer and a message, and are more games than a phone keeps score of in a season.
MAX_KEYS_IN_SESSION = 30
#: A player's browser: the seat key it opened, by game.
HELD = "seat_keys"
#: The scorekeeper's browser: every seat's key, by game, for the share page to show again.
MADE = "seat_links"
#: The newest games a player's browser keeps its seat key for (about 50 bytes each of the cookie).
MAX_HELD = 10
#: The newest games a scorekeeper's browser keeps every seat's key for (up to 8 keys each: the
#: cookie must stay well under 4 KB with the edit keys beside them). A club night's tables are
#: not kept here: their seat keys are made from the night's key, which the browser keeps once
#: for the whole night (:func:`night_table_keys`), so a night of any number of tables costs the
#: cookie nothing more.
MAX_MADE = 3


def bearer_key() -> str | None:
    """The key an API client sends as ``Authorization: Bearer <key>``, or None."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


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


# ---------------------------------------------------------------- the edit key


def remember(game_id: int, key: str) -> None:
    """Keep the key in this browser's session so it can keep score."""
    keep_in_session(SESSION_KEYS, game_id, key, MAX_KEYS_IN_SESSION)


def session_key(game_id: int) -> str | None:
    return session.get(SESSION_KEYS, {}).get(str(game_id))


def can_edit(game) -> bool:
    """True when this request carries the game's key (session or bearer token)."""
    return store.key_matches(game, bearer_key()) or store.key_matches(game, session_key(game.id))


def games_kept_here() -> list[int]:
    """The games this browser keeps score of: those whose edit key its session holds and still
    matches (a newer edit link revokes it)."""
    return store.games_opened_by(session.get(SESSION_KEYS, {}))


# ---------------------------------------------------------------- seat keys


def held_seat(game_id: int) -> store.HeldSeat | None:
    """The seat this request may send a hand for: its bearer key's, else its browser's seat key's."""
    return store.seat_of(game_id, bearer_key()) or store.seat_of(game_id, session.get(HELD, {}).get(str(game_id)))


def hold(game_id: int, key: str) -> None:
    """This browser is the player's own for the game: it keeps the seat key it opened."""
    keep_in_session(HELD, game_id, key, MAX_HELD)


def remember_made(game_id: int, keys: list[str]) -> None:
    """The scorekeeper's browser keeps the seat keys it made, to show the links again."""
    keep_in_session(MADE, game_id, keys, MAX_MADE)


def made_here(game_id: int) -> list[str] | None:
    """The seat keys this browser made for the game: kept in its session, or, for a club night's
    table, made again from the night's key it holds."""
    keys = session.get(MADE, {}).get(str(game_id))
    return list(keys) if isinstance(keys, list) else night_table_keys(game_id)


# ---------------------------------------------------------------- a club night's key

#: The browsers that run a club night (the keeper's, a phone given the night's link): its key, by night.
NIGHT_KEYS = "night_keys"
#: The newest nights a browser keeps the key of (a club meets once a week or so).
MAX_NIGHTS = 3


def remember_night(night_id: int, key: str) -> None:
    keep_in_session(NIGHT_KEYS, night_id, key, MAX_NIGHTS)


def night_key(night_id: int) -> str | None:
    return session.get(NIGHT_KEYS, {}).get(str(night_id))


def runs_night(night: store.Night) -> bool:
    """True when this request carries the night's key (session or bearer token)."""
    return held_night_key(night) is not None


def held_night_key(night: store.Night) -> str | None:
    """The night's key this request carries (its bearer token, else its browser's), or None."""
    for key in (bearer_key(), night_key(night.id)):
        if store.night_key_matches(night, key):
            return key
    return None


def night_table_keys(game_id: int) -> list[str] | None:
    """A club night's table's seat keys, for a request that carries the night's key."""
    night_id = store.night_of(game_id)
    if night_id is None:
        return None
    return store.table_seat_keys(game_id, held_night_key(store.get_night(night_id)))
