"""The club's keeper: who may change what belongs to the club rather than to one game.

A game is guarded by its own edit key (:mod:`scorekeeper.web.keyring`). The club's records (the
roster's names, the deleted games, imports and the backup of everything) are guarded by one
*club key*: ``flask club-key`` makes it (``make run`` does on the first start) and prints a
link; the browser that opens the link keeps the key in its sealed session and is the
club's *keeper*. API clients send it as ``Authorization: Bearer <key>``.

Only the key's SHA-256 is kept: in ``instance/club_key`` (mode 0600), or in the
``CLUB_KEY_HASH`` setting (for several servers sharing one database: give them the same
hash). A new key replaces the old one: every browser that held the old key stops being the
keeper.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from flask import Flask, current_app, g, request, session
from werkzeug.datastructures import WWWAuthenticate
from werkzeug.exceptions import Forbidden, Unauthorized

from scorekeeper.store import check_private, write_private
from scorekeeper.web import keyring
from scorekeeper.web.languages import gettext

SESSION_KEY = "club_key"
FILE_NAME = "club_key"
#: What a view that only the keeper may use says it is for, on the view function.
_ATTRIBUTE = "club_only"

F = TypeVar("F", bound=Callable)


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_file(app: Flask) -> Path:
    return Path(app.instance_path) / FILE_NAME


def stored_hash(app: Flask | None = None) -> str | None:
    """The hash of the club key in force (None: no key was made yet)."""
    app = app or current_app
    configured = app.config.get("CLUB_KEY_HASH")
    if configured:
        return str(configured).strip().lower()
    path = key_file(app)
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    # Read again only when the file changed (`flask club-key` while the server runs).
    known = app.extensions.get("scorekeeper.club_hash")
    stamp = (stat.st_mtime_ns, stat.st_size, stat.st_ino)
    if known is None or known[0] != stamp:
        known = (stamp, path.read_text(encoding="ascii").strip().lower() or None)
        app.extensions["scorekeeper.club_hash"] = known
    return known[1]


def new_key(app: Flask) -> str:
    """Make a new club key, keep its hash (revoking the old key) and return the key."""
    if app.config.get("CLUB_KEY_HASH"):
        raise RuntimeError(
            "The club key's hash is set in the configuration (CLUB_KEY_HASH): make a key with "
            "`python -c 'import secrets; print(secrets.token_urlsafe(32))'` and put its SHA-256 there."
        )
    key = secrets.token_urlsafe(32)
    write_private(key_file(app), digest(key) + "\n")
    return key


def matches(key: object) -> bool:
    if not isinstance(key, str) or not key or len(key) > 200:
        return False  # (before the key file is looked at: most requests carry no club key)
    known = stored_hash()
    return bool(known) and hmac.compare_digest(digest(key), known)


def is_keeper() -> bool:
    """True when this request comes from the club's keeper (session or bearer token)."""
    if "club_keeper" not in g:
        g.club_keeper = matches(keyring.bearer_key()) or matches(session.get(SESSION_KEY))
    return g.club_keeper


def remember(key: str) -> None:
    session[SESSION_KEY] = key
    session.permanent = True
    g.pop("club_keeper", None)


def forget() -> None:
    session.pop(SESSION_KEY, None)
    g.pop("club_keeper", None)


class NotKeeper(Forbidden):
    """A 403 that says who may do it."""

    def __init__(self, what: str) -> None:
        # ``what`` is marked with N_ where the view names it: said here in the reader's language.
        what = gettext(what)
        self.title = gettext("Only the club\u2019s keeper can %(what)s", what=what)
        super().__init__(
            gettext("Only the club\u2019s keeper can %(what)s: the phone that opened the club link "
                    "(whoever runs the club\u2019s server has it). Nothing was changed.", what=what)
        )


class NoClubKey(Unauthorized):
    """An API call for the keeper that sent no key at all: a 401 that asks for one (RFC 9110)."""

    def __init__(self, what: str) -> None:
        self.title = f"Only the club\u2019s keeper can {what}"
        super().__init__(
            f"Only the club\u2019s keeper can {what}: send the club key as Authorization: Bearer <club key>. "
            "Nothing was changed.",
            www_authenticate=WWWAuthenticate("bearer", {"realm": "scorekeeper"}),
        )


def require(what: str) -> None:
    if not is_keeper():
        if request.path.startswith("/api/") and keyring.bearer_key() is None:
            raise NoClubKey(what)
        raise NotKeeper(what)


def club_only(what: str) -> Callable[[F], F]:
    """Mark a view as the keeper's: anyone else gets a 403 saying so, before the request's
    body (a form, an upload) is read at all (see :func:`guard`)."""

    def mark(view: F) -> F:
        setattr(view, _ATTRIBUTE, what)
        return view

    return mark


def allows(view: Callable | None) -> bool:
    """Whether this request may use ``view``: a keeper's view only the keeper's."""
    return getattr(view, _ATTRIBUTE, None) is None or is_keeper()


def guard() -> None:
    """Before every request, before the CSRF check reads a form: refuse a keeper's view to
    anyone else."""
    if request.endpoint is None:
        return
    view = current_app.view_functions.get(request.endpoint)
    what = getattr(view, _ATTRIBUTE, None)
    if what is not None:
        require(what)


def init_app(app: Flask) -> None:
    if key_file(app).exists():
        check_private(key_file(app))
    app.before_request(guard)
    app.jinja_env.globals["is_keeper"] = is_keeper


__all__ = ["NoClubKey", "NotKeeper", "club_only", "digest", "is_keeper", "matches", "new_key", "require"]
