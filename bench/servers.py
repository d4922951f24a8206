"""The servers the benchmark measures, started by the app's own launcher (scorekeeper/launcher.py,
as the tests start theirs): Scorekeeper as `make run` serves it, or the floor (bench/floor.py)
with the same command; and the session cookies of the phones that use them."""

from __future__ import annotations

import re
import time
import urllib.parse

from scorekeeper.launcher import Launched

from bench.common import PHONE, ROOT, decoded, fetch
from bench.databases import Database, app_env


class Server(Launched):
    """``flask --app TARGET serve``, as `make run` ends (TARGET ``scorekeeper``, or the floor's
    ``bench.floor:app``, which has the same command), started at once: its access log and
    errors in ``log_path``."""

    def __init__(self, name: str, target: str, db: Database, threads: int) -> None:
        super().__init__(app_env(db), db.instance, name, threads, target, cwd=ROOT, access_log=True)
        self.boot = 2.0  # seconds the server takes to start, measured by ready()
        self.launch()

    def ready(self, path: str) -> None:
        """Until ``path`` answers; then as long again as that took (at least 2 s): its threads
        and the app's start-up work (the static files' compression) may still be settling, and
        a first answer timed now would include that."""
        self.boot = max(2.0, self.wait(path, seconds=60))
        time.sleep(self.boot)

    def restart(self, path: str) -> None:
        """A new server process in place of the old one, on the same port: nothing kept."""
        self.stop(grace=20)
        self.launch()
        self.ready(path)


def phone_cookie(app: Server, db: Database) -> str:
    """The session cookie of the phone keeping score: it opened the game's edit link (whose page
    posts the key, with the page's form token), and its browser followed the redirect to the
    scoreboard (which shows, and so clears, the message "This phone can now keep score")."""
    join = f"{app.base}/games/{db.board_game}/join"
    status, headers, body = fetch(join, PHONE)
    cookie = headers.get("Set-Cookie", "").split(";", 1)[0]
    token = re.search(r'name="csrf_token" value="([^"]+)"', decoded(body, headers))
    if status != 200 or not cookie.startswith("session=") or token is None:
        raise RuntimeError(f"the edit link's page gave no session or form (HTTP {status})")
    form = urllib.parse.urlencode({"csrf_token": token.group(1), "key": db.board_key}).encode()
    status, headers, _ = fetch(join, {**PHONE, "Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded",
                                      "Referer": join}, form)
    cookie = headers.get("Set-Cookie", cookie).split(";", 1)[0]
    if status not in (302, 303):
        raise RuntimeError(f"the edit link did not give a session (HTTP {status})")
    status, headers, body = fetch(f"{app.base}/games/{db.board_game}", {**PHONE, "Cookie": cookie})
    if status != 200 or "keep score" not in decoded(body, headers):
        raise RuntimeError(f"the scoreboard after the edit link: HTTP {status}")
    return headers.get("Set-Cookie", cookie).split(";", 1)[0]


def watcher_cookie(app: Server, db: Database) -> str:
    """The session cookie of a phone that opened the watch link (its form token, no edit key)."""
    _, headers, _ = fetch(f"{app.base}/games/{db.board_game}/watch", PHONE)
    return headers.get("Set-Cookie", "").split(";", 1)[0]
