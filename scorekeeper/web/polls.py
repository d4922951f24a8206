"""A watcher's poll for a game that has not changed, answered before Flask.

At a table six phones ask every two seconds whether the game changed, and almost always it has
not: this answer is nearly all of a server's load (docs/architecture.md gives the tables it
earns). Through Flask it costs about three times a bare route's (the session cookie, the limits,
the form token, the hooks), none of which a 204 with no body needs. So the unchanged poll, and
only it, is answered here with the view's one query by primary key and the view's headers.
Anything else (a changed game, no such game, an address not read plainly) goes on to
:func:`scorekeeper.web.views.games.live`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from flask import Flask

from scorekeeper import store
from scorekeeper.store import MAX_ID

PATH = re.compile(r"/games/([1-9][0-9]{0,9})/live")
#: As the view's 204 has them (tests/web/test_polls.py holds the two together).
HEADERS = [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache"),
           ("Vary", "HX-Request, Accept-Language, Cookie, Accept-Encoding")]


class UnchangedPolls:
    """WSGI middleware around the Flask app's own (``app.wsgi_app``)."""

    def __init__(self, app: Flask, wsgi_app: Callable) -> None:
        self.wsgi_app = wsgi_app
        with app.app_context():
            self.version = store.VersionReader()

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET":
            match = PATH.fullmatch(environ.get("PATH_INFO", ""))
            seen = seen_version(environ.get("QUERY_STRING", "")) if match else None
            if seen is not None and int(match.group(1)) <= MAX_ID and self.version(int(match.group(1))) == seen:
                start_response("204 No Content", list(HEADERS))
                return []
        return self.wsgi_app(environ, start_response)


def seen_version(query: str) -> int | None:
    """The version the phone shows (``v=`` in plain digits, given once), else None: anything
    else goes to the view, which answers it as it answers every address.

    >>> seen_version("v=12&watch=1"), seen_version("watch=1"), seen_version("v=1&v=2"), seen_version("v=x")
    (12, None, None, None)
    """
    found = None
    for pair in query.split("&"):
        name, _, value = pair.partition("=")
        if name == "v":
            if found is not None or not (value.isascii() and value.isdigit()) or len(value) > 9:
                return None
            found = int(value)
    return found


def init_app(app: Flask) -> None:
    polls = UnchangedPolls(app, app.wsgi_app)
    app.wsgi_app = polls  # type: ignore[method-assign]
    # Kept on the app, whatever wraps it later, so that whoever closes an app (the tests, app
    # after app) closes the poll's own connections too: ``.version.close()``.
    app.extensions["scorekeeper_polls"] = polls
