"""Pages kept rendered in this process, under the version numbers of what they show.

Why there is a cache at all: rendering the scoreboard, a page of history or a player's page
costs 5 to 10 ms of CPU, and `make bench` holds every page to half the throughput of a bare
Flask app that does one query (about 1 ms). The phones at a table reload the same few pages
over and over between two rounds, so a page is rendered once per change and then served from
here (``docs/architecture.md`` has the figures). Nothing else is kept.

A page's key holds the version numbers read from the database in the same request, before the
page's facts are read: a game's ``version`` for a board, the club's version
(:func:`scorekeeper.database.club_version`) for pages of many games. Every app server in front of
one database reads the same numbers, so a page kept by one server is never served after another
server changed what it shows; nothing is ever invalidated, old entries only fall out, least
recently used first. The same page is kept for every browser, with a hole where the form token
was (each browser's own goes back in); a page that shows flashed messages is neither kept nor
served from here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

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
        self._items: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: Hashable, value: str) -> None:
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


pages = Kept(PAGES_KEPT)


def keep(key: Hashable, html: str, token: str) -> None:
    """Keep a rendered page under ``key``, with the browser's ``token`` cut out."""
    pages.put(key, html.replace(token, TOKEN_HOLE) if token else html)


def kept(key: Hashable, token: str) -> str | None:
    """The page kept under ``key``, with this browser's ``token`` put in; None if none is kept."""
    html = pages.get(key)
    return None if html is None else html.replace(TOKEN_HOLE, token)
