"""The store's refusals: what a change or a look-up raises when it cannot be made, and what a
write the database refused means in words a person can act on (a full disk)."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from sqlalchemy.exc import OperationalError

from scorekeeper.rules import N_, Phrase

if TYPE_CHECKING:
    from scorekeeper.store.replays import LoadedGame

#: What the database raises when it refuses a change or cannot be reached (a full disk, a server
#: away): :func:`is_disk_full` and :func:`is_database_away` tell which. Named here so that the
#: layers above catch it without knowing the database library.
DatabaseRefused = OperationalError


class NotFound(LookupError):
    pass


class PlayerNameError(ValueError):
    """A name the roster cannot take. ``said``: its words with their blanks, for a reader in
    another language (None for a message said only in English)."""

    def __init__(self, message: str, said: Phrase | None = None) -> None:
        super().__init__(message)
        self.said = said

    @classmethod
    def taken(cls, name: str) -> PlayerNameError:
        said = Phrase(N_('"{name}" is already on the roster'), {"name": name})
        return cls(str(said), said)


class BrokenGame(ValueError):
    """A stored game whose rounds the rules engine refuses (a game stored under other rules)."""


class NotInBin(Exception):
    pass


class InBin(Exception):
    """A change to a game in the bin (deleted, not yet restored): a round, a hand sent, a
    player's word. Raised with nothing written; the game takes changes again once restored."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id
        super().__init__(f"game {game_id} is in the bin: restore it before changing it")


class AlreadyRecorded(Exception):
    """The round number a form carried has been recorded meanwhile (double tap, second phone).
    Raised with the write rolled back, nothing written: a game loaded next holds that round."""

    def __init__(self, number: int) -> None:
        self.number = number
        super().__init__(f"Round {number} is already recorded")


class Conflict(Exception):
    """A change made on a version of the game that another phone has changed since."""

    def __init__(self, expected: int, loaded: LoadedGame) -> None:
        self.expected = expected
        self.loaded = loaded
        super().__init__(
            f"This game changed on another phone (version {loaded.game.version}, "
            f"you had version {expected}); nothing was saved. Here is the game as it is now."
        )


# ----------------------------------------------------------------- a full disk

#: PostgreSQL's SQLSTATE for "disk_full".
POSTGRES_DISK_FULL = "53100"

#: Marked for the catalogue (N_): a page says it in the reader's language.
DISK_FULL = N_("The server's disk is full: this change was not saved. Everything saved before it "
               "is kept and can still be read. Ask whoever runs the server to free some space, "
               "then do it again.")


def is_disk_full(error: BaseException) -> bool:
    """True when the database refused a write because its disk (or its file's size limit) is full."""
    if not isinstance(error, OperationalError):
        return False
    cause = error.orig
    if isinstance(cause, sqlite3.OperationalError):
        return getattr(cause, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "disk is full" in str(cause)
    return getattr(cause, "sqlstate", None) == POSTGRES_DISK_FULL or "No space left on device" in str(cause)


# ----------------------------------------------------------- a database away for a moment

#: PostgreSQL's SQLSTATEs of a server shutting down, crashed or still starting (admin_shutdown,
#: crash_shutdown, cannot_connect_now); class 08 is every lost or refused connection.
POSTGRES_AWAY = {"57P01", "57P02", "57P03"}

#: Marked for the catalogue (N_): a page says it in the reader's language.
DATABASE_AWAY = N_("The database cannot be reached just now (it may be restarting): this change was not "
                   "saved. Everything saved before it is kept. Try again in a moment.")


def is_database_away(error: BaseException) -> bool:
    """True when the database server could not be reached or went away mid-request (a restart,
    an upgrade), or a SQLite file stayed locked by another writer past the wait (a backup, a
    rebuild): nothing of this request was written, and the same request may succeed soon."""
    if not isinstance(error, OperationalError):
        return False
    cause = error.orig
    if isinstance(cause, sqlite3.OperationalError):
        return getattr(cause, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    state = getattr(cause, "sqlstate", None)
    if state:
        return state.startswith("08") or state in POSTGRES_AWAY
    # psycopg gives no SQLSTATE when it could not connect at all, or the connection broke.
    return error.connection_invalidated or type(cause).__module__.startswith("psycopg")


class NightRefused(ValueError):
    """A change a club night cannot take (closed, a player at two tables at once). ``said``: its
    words with their blanks, for a reader in another language."""

    def __init__(self, said: Phrase) -> None:
        super().__init__(str(said))
        self.said = said
