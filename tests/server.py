"""Run the real app as `make run` serves it (``flask serve``: waitress) on a temporary database, for
tests that need a real server: real sockets, real threads, a process that can crash."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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


class AppServer:
    """``flask --app scorekeeper serve``, the command `make run` ends with, on a free port."""

    def __init__(self, database_url: str, instance: Path, threads: int = 4, python: str = sys.executable,
                 cwd: Path = ROOT, limits: bool = False) -> None:
        self.database_url = database_url
        self.instance = instance
        self.threads = threads
        self.python = python
        self.cwd = cwd
        self.limits = limits
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> AppServer:
        # Its log (errors; the access log goes to stdout, unread) to a file: a pipe nobody reads
        # would stop the server once full.
        self.log = open(self.instance / f"server-{self.port}.log", "ab")  # noqa: SIM115 (closed in _closed)
        self.process = subprocess.Popen(
            [self.python, "-m", "flask", "--app", "scorekeeper", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--threads", str(self.threads)],
            cwd=self.cwd, env=app_env(self.database_url, self.instance, self.limits),
            stdout=subprocess.DEVNULL, stderr=self.log, start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/api/openapi.json", timeout=2):
                    return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL the server (and its threads) at once: a crash, not a shutdown."""
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            self._closed()

    def _closed(self) -> None:
        assert self.process is not None
        self.log.close()
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
                return
            self._closed()

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
