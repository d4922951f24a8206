"""What a page makes a phone fetch of our own CSS and JavaScript as it loads, compressed as the
phone takes it: the benchmark's page weight (bench/run.py), and a test's (tests/web).

Counted: every stylesheet, script and preloaded module the page's tags name under /static/, and
from each module the modules it imports (``import ... from "./x.js"``, by the page's import map),
and theirs. A module a page imports only later (``import("./x.js")``, once its markup is there)
is counted where the page preloads it: a page preloads what its markup makes it import
(tests/browser/test_modules.py checks that the two agree).

Run alone, it prints the weight of the scoreboard, the round screen and the new-game page of a
game in progress, kept by the phone that opened its edit link, on a throw-away SQLite database:

    .venv/bin/python -m bench.page_weight
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable

#: A tag that makes the page fetch a file of ours.
TAG = re.compile(r'<(?:script|link)\b[^>]*?\b(?:src|href)="(/static/[^"]+)"')
#: A module's static import (or re-export): ``import x from "./a.js"``, ``import "./a.js"``,
#: ``export { y } from "./a.js"``; not ``import("./a.js")``, which waits for the page to ask.
STATIC_IMPORT = re.compile(r'(?<![\w$.])(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["\']([^"\']+)["\']')
IMPORT_MAP = re.compile(r'<script type="importmap">(.*?)</script>', re.S)

#: Fetch a file of ours as the phone does: (bytes sent, the file's text).
Fetch = Callable[[str], tuple[bytes, str]]


def own_assets(html: str, fetch: Fetch) -> dict[str, int]:
    """{address without its version: bytes sent} of each CSS and JavaScript file of /static/
    the page fetches as it loads (htmx among them, under /static/vendor/, where served locally)."""
    found = IMPORT_MAP.search(html)
    imports: dict[str, str] = json.loads(found.group(1))["imports"] if found else {}
    sizes: dict[str, int] = {}
    waiting = [url.replace("&amp;", "&") for url in TAG.findall(html)]
    while waiting:
        url = waiting.pop(0)
        path = url.split("?")[0]
        if path in sizes or not path.endswith((".css", ".js")):
            continue
        sent, text = fetch(url)
        sizes[path] = len(sent)
        if path in imports.keys() or path.startswith("/static/js/"):
            for name in STATIC_IMPORT.findall(text):
                plain = posixpath.normpath(posixpath.join(posixpath.dirname(path), name))
                waiting.append(imports.get(plain, plain))
    return sizes


def ours(sizes: dict[str, int]) -> int:
    """The bytes of our own files: all but the vendored ones."""
    return sum(n for path, n in sizes.items() if "/vendor/" not in path)


def main() -> None:
    import tempfile

    import brotli

    from scorekeeper import create_app, store
    from scorekeeper.rules import BALMORAL, GameSetup
    from scorekeeper.store.models import db

    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SECRET_KEY": "page-weight", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/w.sqlite",
                          "CHECK_SCHEMA": False, "RATELIMIT_ENABLED": False})
        with app.app_context():
            db.create_all()
            game, key = store.create_game(GameSetup.create(BALMORAL, ["Ann", "Ben", "Cat", "Dan"], first_dealer="Ann"))
            game_id = game.id
        phone = app.test_client()
        accept = {"Accept-Encoding": "gzip, deflate, br"}
        token = re.search(r'name="csrf_token" value="([^"]+)"', phone.get(f"/games/{game_id}/join").text).group(1)
        phone.post(f"/games/{game_id}/join", data={"csrf_token": token, "key": key})

        def fetch(url: str) -> tuple[bytes, str]:
            answer = phone.get(url, headers=accept)
            body = answer.data
            text = brotli.decompress(body) if answer.headers.get("Content-Encoding") == "br" else body
            return body, text.decode()

        for label, path in (("scoreboard", f"/games/{game_id}"), ("round screen", f"/games/{game_id}/rounds/new"),
                            ("new game", "/games/new")):
            sizes = own_assets(phone.get(path).text, fetch)
            files = ", ".join(f"{p.removeprefix('/static/')} {n / 1024:.1f}" for p, n in sizes.items() if "/vendor/" not in p)
            print(f"{label:13} {ours(sizes) / 1024:5.1f} KB  ({files})")
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


if __name__ == "__main__":
    main()
