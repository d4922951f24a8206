"""Pages kept rendered in this process, under the version numbers of what they show.

Why there is a cache at all: rendering the scoreboard, a page of history or a player's page
costs 5 to 10 ms of CPU, and `make bench` holds every page to half the throughput of a bare
Flask app that does one query (about 1 ms). The phones at a table reload the same few pages
over and over between two rounds, so a page is rendered once per change and then served from
here (``docs/architecture.md`` has the figures). Kept beside the pages, each in a map of its
own and bounded as they are: each kept page compressed once per encoding (:func:`packed`),
game files (``views/files.py``) and the signatures of form tokens (``views/common.form_token``).

A page's key holds the version numbers read from the database in the same request, before the
page's facts are read: a game's ``version`` for a board, the club's version
(:func:`scorekeeper.store.database.club_version`) for pages of many games. Every app server in front of
one database reads the same numbers, so a page kept by one server is never served after another
server changed what it shows; nothing is ever invalidated, old entries only fall out, least
recently used first. The same page is kept for every browser, with a hole where the form token
was (each browser's own goes back in); a page that shows flashed messages is neither kept nor
served from here.
"""

from __future__ import annotations

import gzip
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

import brotli
from flask import current_app

from scorekeeper.web.assets import chosen_encoding

#: Pages kept per process (a few KB to 40 KB each).
PAGES_KEPT = 256
#: Stands for the browser's form token in a kept page.
TOKEN_HOLE = "\x00form-token\x00"


class Kept:
    """A small least-recently-used map, safe to share between a worker's threads.

    Written here rather than taken from a library: it is the ten lines below, and the one
    candidate (cachetools) would be a dependency for exactly this.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)


def of_app(name: str, size: int) -> Kept:
    """The app's own map of that name: each app (each database) keeps its own, in this process."""
    maps = current_app.extensions.setdefault("scorekeeper.kept", {})
    found = maps.get(name)
    if found is None:
        found = maps.setdefault(name, Kept(size))
    return found


def keep(key: Hashable, html: str, token: str) -> None:
    """Keep a rendered page under ``key``, with the browser's ``token`` cut out."""
    of_app("pages", PAGES_KEPT).put(key, html.replace(token, TOKEN_HOLE) if token else html)


def kept(key: Hashable, token: str) -> str | None:
    """The page kept under ``key``, with this browser's ``token`` put in; None if none is kept."""
    html = of_app("pages", PAGES_KEPT).get(key)
    return None if html is None else html.replace(TOKEN_HOLE, token)


# ================================================================ kept pages, compressed

def packed(key: Hashable, body_of: Callable[[], str | None]) -> tuple[bytes, str | None] | None:
    """A kept body as this browser gets it, and its encoding: compressed in the one it prefers
    (``assets.chosen_encoding``, as for every answer) once per key and encoding; None for
    none (sent as it is). ``key`` stands for the body exactly (a kept page's holds the form
    token put in it); ``body_of`` gives it (None if none is kept: then None), and is called
    only when the compressed body is not at hand already.

    Why here and not by Flask-Compress, which compresses every other answer: its pass over a
    response, the compressed body at hand, was 7% of a kept page's instructions (callgrind:
    its headers read and set again, the body swapped, the ETag remade), and the page made
    into bytes to be looked up another 9%. A body compressed already is not given to it
    (``assets.init_app``: it only gets ``Vary: Accept-Encoding``).
    """
    config = current_app.config
    encoding = chosen_encoding()
    bodies = of_app("packed", 2 * PAGES_KEPT)
    if encoding is not None:
        compressed = bodies.get((key, encoding))
        if compressed is not None:
            return compressed, encoding
    body = body_of()
    if body is None:
        return None
    # Its length in characters, never more than in bytes: a body this short goes as it is.
    if encoding is None or len(body) < config.get("COMPRESS_MIN_SIZE", 500):
        return body.encode(), None
    if encoding == "br":
        compressed = brotli.compress(body.encode(), quality=config.get("COMPRESS_BR_LEVEL", 4))
    else:
        compressed = gzip.compress(body.encode(), config.get("COMPRESS_LEVEL", 6), mtime=0)
    bodies.put((key, encoding), compressed)
    return compressed, encoding
