"""A watcher's poll for a game that has not changed, answered before Flask.

Why this exists (see docs/architecture.md): every phone watching a game asks every two seconds
whether it changed, and almost always it has not. `make bench` holds that answer to 1.2x the
cost of a bare Flask app doing one query. Through Flask it costs about twice that, and the
difference is the request machinery itself (the session cookie decoded and checked, the form
token, routing, the before and after hooks, compression's checks), which a 204 with no body
does not need. So the unchanged poll, and only it, is answered here, with the same one query by
primary key as the view makes. Anything else (a changed game, no such game, an address this
does not read plainly) goes on to Flask unchanged, where :func:`scorekeeper.web.views.games.live`
answers it.
"""

from __future__ import annotations

import re

from sqlalchemy.engine import Engine

from scorekeeper.store.models import MAX_ID, db
from scorekeeper.store import VERSION_OF


class UnchangedPolls:
    """WSGI middleware around the Flask app (``app.wsgi_app``)."""

    PATH = re.compile(r"/games/([1-9][0-9]{0,9})/live")
    HEADERS = (("Cache-Control", "no-cache"), ("Vary", "HX-Request, Accept-Encoding"))

    def __init__(self, app, wsgi_app) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self._engine: Engine | None = None

    def __call__(self, environ, start_response):
        if environ.get("REQUEST_METHOD") == "GET":
            match = self.PATH.fullmatch(environ.get("PATH_INFO", ""))
            seen = seen_version(environ.get("QUERY_STRING", "")) if match else None
            if seen is not None and int(match.group(1)) <= MAX_ID:
                with self.engine.connect() as connection:
                    version = connection.scalar(VERSION_OF, {"game_id": int(match.group(1))})
                if version is not None and version == seen:
                    start_response("204 No Content", list(self.HEADERS))
                    return []
        return self.wsgi_app(environ, start_response)

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            with self.app.app_context():
                self._engine = db.engine
        return self._engine


def seen_version(query: str) -> int | None:
    """The version the phone has seen (``v=`` in plain digits, given once), else None.

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
