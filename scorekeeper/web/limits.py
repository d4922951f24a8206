"""How often, and how much: per-address rate limits (Flask-Limiter) and the size of an upload.

The limits guard what is costly or lasting: starting games, imports, backups and the API's
writes. They are far above what a table does (the numbers and the reasons are in
:data:`LIMITS`), so only a script or a runaway client ever meets one: it gets a 429 with
``Retry-After``.

Counts are kept in memory (``RATELIMIT_STORAGE_URI = "memory://"``), per process: one server is
one process (``flask serve``: waitress's threads), so each limit counts once for the server, and
no worker is ever killed and restarted with its counts lost. Several servers behind one address
count each on its own, or share a store: set ``RATELIMIT_STORAGE_URI`` to ``redis://HOST:6379``
or ``memcached://HOST:11211`` (docs/running.md, "Several servers").
``RATELIMIT_ENABLED = False`` turns them off (the tests do, but for the tests of the limits).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TypeVar

from urllib.parse import parse_qsl

from flask import Flask, Request, current_app, request
from flask_babel import format_decimal
from flask_limiter import Limiter, RequestLimit
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.formparser import FormDataParser

from scorekeeper.files import transfer
from scorekeeper.web import clubkey
from scorekeeper.web.languages import gettext, ngettext

F = TypeVar("F", bound=Callable)

#: Games started from one address: a table starts a game every half hour or so, and a
#: mistaken start is followed by another at once; 10 a minute and 60 an hour is never met
#: by a club's evening (a dozen tables behind one address included), and stops a script
#: filling the history with thousands.
NEW_GAMES = "10 per minute; 60 per hour"
#: Players added to the roster from one address: a table adds a newcomer or two an evening; as
#: many as new games, in a budget of their own, stops a script filling the roster.
NEW_PLAYERS = NEW_GAMES
#: Imports: the keeper restores a backup, or a game file or two, now and then. Each parses
#: up to :data:`scorekeeper.web.views.files.IMPORT_MAX_BYTES` and writes; two a minute.
IMPORTS = "2 per minute; 20 per hour"
#: Backups of everything: each costs up to a second or two and megabytes of memory at a few
#: hundred games. A keeper downloads one before an upgrade or at the end of an evening.
BACKUPS = "4 per minute; 30 per hour"
#: The API's writes (a round, a correction): a table records a round every few minutes; a
#: client that retries, or a phone scoring several tables, stays far below 2 a second.
API_WRITES = "120 per minute"
#: Hands sent from a player's phone, and their words ("that's not my hand"), by the web form: a
#: player sends a hand or two a round; as many as the API's writes, so that the form is no
#: way around their limit. A key tapped without JavaScript posts too, but writes nothing and
#: is not counted.
SENT_HANDS = API_WRITES

LIMITS = {
    "games.new_game": (NEW_GAMES, ("POST",), "new games"),
    "games.play_again": (NEW_GAMES, ("POST",), "new games"),
    "api.create_game": (NEW_GAMES, ("POST",), "new games"),
    "players.roster": (NEW_PLAYERS, ("POST",), "new players"),
    "files.upload": (IMPORTS, ("POST",), "imports"),
    "api.import_files": (IMPORTS, ("POST",), "imports"),
    "hands.own_hand": (SENT_HANDS, ("POST",), "sent hands"),
    "hands.flag": (SENT_HANDS, ("POST",), "sent hands"),
    "files.backup": (BACKUPS, ("GET",), "backups"),
    "api.backup": (BACKUPS, ("GET",), "backups"),
}


#: What each scope of :data:`LIMITS` counts, as a person reads a limit ("10 new games a minute").
COUNTED: dict[str, Callable[[int], str]] = {
    "new games": lambda n: ngettext("%(num)d new game", "%(num)d new games", n),
    "new players": lambda n: ngettext("%(num)d new player", "%(num)d new players", n),
    "imports": lambda n: ngettext("%(num)d import", "%(num)d imports", n),
    "backups": lambda n: ngettext("%(num)d backup", "%(num)d backups", n),
    "sent hands": lambda n: ngettext("%(num)d hand sent", "%(num)d hands sent", n),
}
#: The window of a limit, by the name of its granularity (the ``limits`` package's): "a minute",
#: "every 5 minutes".
PER: dict[str, Callable[[int], str]] = {
    "second": lambda n: ngettext("a second", "every %(num)d seconds", n),
    "minute": lambda n: ngettext("a minute", "every %(num)d minutes", n),
    "hour": lambda n: ngettext("an hour", "every %(num)d hours", n),
    "day": lambda n: ngettext("a day", "every %(num)d days", n),
    "month": lambda n: ngettext("a month", "every %(num)d months", n),
    "year": lambda n: ngettext("a year", "every %(num)d years", n),
}


def limit_words(limit: RequestLimit, scope: str | None) -> str:
    """The limit a request met, as a person reads it: "At most 2 imports a minute from one
    address: try again in a minute." (the limiter's own words are "2 per 1 minute"); ``scope``:
    what it counts (:data:`LIMITS`), else requests."""
    item = limit.limit
    count = COUNTED.get(scope or "", lambda n: ngettext("%(num)d request", "%(num)d requests", n))(item.amount)
    per = PER[item.GRANULARITY.name](item.multiples)
    # When the window lets the next one through: a minute's limit within the minute, an hour's
    # may be most of an hour away (the limiter rounds its reset up a second: never past the window).
    minutes = max(1, math.ceil(min(limit.reset_at - time.time(), item.get_expiry()) / 60))
    if minutes <= 90:
        wait = ngettext("in a minute", "in %(num)d minutes", minutes)
    else:
        wait = ngettext("in an hour", "in %(num)d hours", math.ceil(minutes / 60))
    return gettext("At most %(count)s %(per)s from one address: try again %(wait)s. Nothing was changed.",
                   count=count, per=per, wait=wait)


def breached() -> str | None:
    """The words of the limit this request met (:func:`limit_words`); None if it met none."""
    limit = current_app.extensions["scorekeeper.limiter"].current_limit
    if limit is None or not limit.breached:
        return None
    scope = LIMITS[request.endpoint][2] if request.endpoint in LIMITS else None
    return limit_words(limit, scope)


def _starting_no_game() -> bool:
    # The new-game page posts at every tap that arranges the seats: only "Start" starts a game.
    return request.endpoint == "games.new_game" and "start" not in request.form


#: The fields of a player's form that only move its keypad (a tap without JavaScript).
_KEYPAD = ("key", "unkey", "edit")


def _sending_nothing() -> bool:
    return request.endpoint == "hands.own_hand" and any(name in request.form for name in _KEYPAD)


#: The limited views whose posts do not all change something: only those that do are counted.
EXEMPT = {"games.new_game": _starting_no_game, "hands.own_hand": _sending_nothing}


def init_app(app: Flask) -> None:
    """Before the views: the limiter's check comes before any view reads the request's body;
    every form is read within its limits (:class:`FormParser`)."""
    app.request_class = LimitedRequest
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    limiter = Limiter(get_remote_address, app=app)
    app.extensions["scorekeeper.limiter"] = limiter


#: The methods of the API's requests that are limited (:data:`API_WRITES`).
API_WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


def register(app: Flask) -> None:
    """After the views are registered: wrap each limited view in its limit."""
    limiter: Limiter = app.extensions["scorekeeper.limiter"]
    for endpoint, (limit, methods, scope) in LIMITS.items():
        view = app.view_functions[endpoint]
        exempt = EXEMPT.get(endpoint)
        # The limiter's wrapper counts the request when the view is called: after the club's
        # check and the size check (:func:`body_limit`), so a stranger's upload is refused
        # unread whatever its size or number.
        app.view_functions[endpoint] = limiter.shared_limit(
            limit, scope=scope, methods=list(methods), exempt_when=exempt)(view)
    api = app.blueprints["api"]
    limiter.limit(API_WRITES, methods=list(API_WRITE_METHODS), scope="api writes")(api)


def max_body(config_name: str, default: int) -> Callable[[F], F]:
    """Mark a view that takes a larger body than the app's ``MAX_CONTENT_LENGTH`` (an upload):
    up to ``app.config[config_name]`` (else ``default``) bytes, and a body announced larger
    is refused with a 413 before anything reads it (the CSRF check reads the form first)."""

    def mark(view: F) -> F:
        view.max_body = (config_name, default)  # type: ignore[attr-defined]
        return view

    return mark


def body_allowed(app: Flask, environ: dict) -> int:
    """The largest body the request ``environ`` describes may send, from its method, address and
    headers alone (nothing of its body has arrived): a view marked with :func:`max_body` takes
    its own, larger size, from whoever may use it (an import: the club's keeper); any other
    request ``MAX_CONTENT_LENGTH``. The server asks before it keeps any of the body
    (:mod:`scorekeeper.serving`), so that a stranger's large body is refused at once, not first
    written to the disk."""
    usual = int(app.config.get("MAX_CONTENT_LENGTH") or 0)
    try:
        with app.request_context(environ):
            view = app.view_functions.get(request.endpoint) if request.endpoint else None
            wanted = getattr(view, "max_body", None)
            if wanted is None or request.method not in ("POST", "PUT") or not clubkey.allows(view):
                return usual
            return int(app.config.get(wanted[0], wanted[1]))
    except Exception:  # a request that cannot even be routed (a host not trusted): the usual size
        return usual


def import_most() -> tuple[int, int]:
    """The most games and rounds an import over the web takes (``IMPORT_MAX_GAMES``,
    ``IMPORT_MAX_ROUNDS``): a larger file is refused before its games are read."""
    return (int(current_app.config.get("IMPORT_MAX_GAMES", transfer.IMPORT_MAX_GAMES)),
            int(current_app.config.get("IMPORT_MAX_ROUNDS", transfer.IMPORT_MAX_ROUNDS)))


class TooLarge(RequestEntityTooLarge):
    def __init__(self, limit: int, size: int | None) -> None:
        most = limit // (1024 * 1024)
        if size:
            said = gettext("The upload is %(size)s MB; the most this page takes is %(most)s MB. Nothing was stored. "
                           "A larger backup imports on the server: flask --app scorekeeper games import FILE",
                           size=format_decimal(round(size / 1024 / 1024, 1), "0.0"), most=most)
        else:
            said = gettext("The upload is larger than that; the most this page takes is %(most)s MB. Nothing was "
                           "stored. A larger backup imports on the server: flask --app scorekeeper games import FILE",
                           most=most)
        super().__init__(said)
        self.limit = limit


def body_limit() -> None:
    if request.endpoint is None:
        return
    view = current_app.view_functions.get(request.endpoint)
    wanted = getattr(view, "max_body", None)
    if wanted is None or request.method not in ("POST", "PUT"):
        return
    limit = int(current_app.config.get(wanted[0], wanted[1]))
    request.max_content_length = limit
    if request.content_length is not None and request.content_length > limit:
        raise TooLarge(limit, request.content_length)


# ------------------------------------------------------------------ forms

#: The most fields a form may send (``MAX_FORM_PARTS``): the largest of the app's forms, a house
#: rule set of 30 contracts, 10 bonuses and 8 rows of decks, sends about 180.
MAX_FORM_PARTS = 500
#: The most bytes a form may send (``MAX_FORM_MEMORY_SIZE``), but an upload's file: every form
#: of the app sends a few kilobytes at most (a rule set's notes are 300 characters).
MAX_FORM_MEMORY_SIZE = 64 * 1024


class FormParser(FormDataParser):
    """Werkzeug's parser, with its limits applied to a plain (url-encoded) form too: Werkzeug
    applies ``max_form_parts`` and ``max_form_memory_size`` to multipart forms only, and reads
    a url-encoded one whole, up to ``MAX_CONTENT_LENGTH``, into a list of every field. A form of
    650,000 empty fields (2 MB) cost seconds of the one core Python runs on, and hundreds of
    megabytes, before the form token was even looked at. Here a form is refused with a 413 when
    it says it is larger, or turns out to be, before a field of it is read."""

    def parse(self, stream, mimetype, content_length, options=None):
        if mimetype != "application/x-www-form-urlencoded":
            return super().parse(stream, mimetype, content_length, options)
        most = self.max_form_memory_size
        if most is not None and content_length is not None and content_length > most:
            raise RequestEntityTooLarge()
        body = stream.read() if most is None else stream.read(most + 1)
        if most is not None and len(body) > most:
            raise RequestEntityTooLarge()
        if self.max_form_parts is not None and body.count(b"&") >= self.max_form_parts:
            raise RequestEntityTooLarge()
        try:
            items = parse_qsl(body.decode(), keep_blank_values=True, errors="werkzeug.url_quote")
        except ValueError:  # (as Werkzeug: a form that cannot be read is an empty one, or an error)
            if not self.silent:
                raise
            items = []
        return stream, self.cls(items), self.cls()


class LimitedRequest(Request):
    """The app's requests: forms read with :class:`FormParser`."""

    form_data_parser_class = FormParser
