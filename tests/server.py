"""Run the real app under gunicorn on a temporary database, for tests that need real workers."""

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


def app_env(database_url: str, instance: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["FLASK_SQLALCHEMY_DATABASE_URI"] = database_url
    env["FLASK_SECRET_KEY"] = "gunicorn-test"
    env["SCOREKEEPER_INSTANCE"] = str(instance)
    # These servers are for the contract and reliability tests: one address sending far more than
    # any table, past the per-address limits (tested on their own in test_limits.py).
    env["FLASK_RATELIMIT_ENABLED"] = "false"
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


class Gunicorn:
    def __init__(self, database_url: str, instance: Path, workers: int = 4, python: str = sys.executable,
                 cwd: Path = ROOT) -> None:
        self.database_url = database_url
        self.instance = instance
        self.workers = workers
        self.python = python
        self.cwd = cwd
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Gunicorn:
        self.process = subprocess.Popen(
            [self.python, "-m", "gunicorn", "--workers", str(self.workers), "--bind", f"127.0.0.1:{self.port}",
             "--timeout", "60", "scorekeeper:create_app()"],
            cwd=self.cwd, env=app_env(self.database_url, self.instance),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/api/openapi.json", timeout=2):
                    return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("gunicorn did not start")

    def kill(self) -> None:
        """SIGKILL the master and every worker at once: a crash, not a shutdown."""
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            self._closed()

    def _closed(self) -> None:
        assert self.process is not None
        if self.process.stderr is not None:
            self.process.stderr.close()
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
