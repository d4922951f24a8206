"""Run the real app as `make run` serves it (``flask serve``: waitress) on a temporary database, for
tests that need a real server: real sockets, real threads, a process that can crash.

The process itself is started by scorekeeper/launcher.py, as `make bench` starts its servers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

from scorekeeper.launcher import Launched, free_port

ROOT = Path(__file__).resolve().parents[1]
__all__ = ["ROOT", "AppServer", "app_env", "free_port", "upgrade"]


def app_env(database_url: str, instance: Path, limits: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env["FLASK_SQLALCHEMY_DATABASE_URI"] = database_url
    env["FLASK_SECRET_KEY"] = "server-test"
    env["SCOREKEEPER_INSTANCE"] = str(instance)
    if not limits:
        # Most of these servers are for the contract and reliability tests: one address sending
        # far more than any table, past the per-address limits (tested in test_limits.py, and
        # on a real server in test_serving.py).
        env["FLASK_RATELIMIT_ENABLED"] = "false"
        # (and every socket from the one address, loopback's: no cap of sockets by address)
        env["FLASK_CONNECTIONS_PER_ADDRESS"] = "0"
    return env


def upgrade(database_url: str, instance: Path, revision: str = "head", python: str = sys.executable,
            cwd: Path = ROOT) -> None:
    """``flask db upgrade``, then (at the head) ``flask games rebuild --if-stale``, as `make run`
    upgrades; by default with this interpreter in the checkout; the wheel's test gives the
    interpreter of the environment it installed into, and a folder outside the checkout."""
    steps = [["db", "upgrade", revision]] + ([["games", "rebuild", "--if-stale"]] if revision == "head" else [])
    for step in steps:
        subprocess.run([python, "-m", "flask", "--app", "scorekeeper", *step],
                       cwd=cwd, env=app_env(database_url, instance), check=True, capture_output=True)


class AppServer(Launched):
    """``flask --app scorekeeper serve``, the command `make run` ends with, on a free port
    (scorekeeper/launcher.py, which `make bench` starts its servers with too); its errors in the
    instance folder."""

    def __init__(self, database_url: str, instance: Path, threads: int = 4, python: str = sys.executable,
                 cwd: Path = ROOT, limits: bool = False) -> None:
        super().__init__(app_env(database_url, instance, limits), instance, threads=threads, python=python, cwd=cwd)
        self.database_url = database_url
        self.instance = instance

    def start(self) -> AppServer:
        self.launch()
        self.wait()
        return self

    def request(self, method: str, path: str, body=None, key: str | None = None, timeout: float = 30):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if key:
            req.add_header("Authorization", f"Bearer {key}")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            payload = error.read()
            try:
                return error.code, json.loads(payload)
            except ValueError:
                return error.code, payload.decode(errors="replace")
