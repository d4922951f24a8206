"""What a refused write means, in words a person can act on.

A full disk is the one failure of the database that a club meets and can mend: the write is
refused whole (nothing half-written), reads go on, and the answer should say so plainly rather
than "something went wrong".
"""

from __future__ import annotations

import sqlite3

from sqlalchemy.exc import OperationalError

#: PostgreSQL's SQLSTATE for "disk_full".
POSTGRES_DISK_FULL = "53100"

DISK_FULL = ("The server's disk is full: this change was not saved. Everything saved before it "
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
