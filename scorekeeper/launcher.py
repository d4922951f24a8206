"""The app's server started from another process, as `make run` starts it: ``flask --app TARGET
serve`` (waitress) on a free loopback port, its output to a log file, stopped or killed as one
process group.

Both the tests that need a real server (tests/server.py) and `make bench` (bench/) start it
with this code. It lives in the app's package because that is the one place both can import
as it is installed, without either reaching into the other's folder or adding a folder to
``sys.path``; it imports nothing of the app (only the standard library), so that starting a
server never loads the app in the caller's process, and it is the ``serve`` command it runs
(scorekeeper/serving.py) that the tests and the bench measure.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Launched:
    """``flask --app TARGET serve --host 127.0.0.1 --port PORT --threads THREADS``, with ``env``
    as its whole environment. Its errors go to ``NAME-PORT.log`` in ``folder``, and its access log
    (stdout) too when ``access_log`` (else nowhere): a pipe that nobody reads would stop the
    server once full."""

    def __init__(self, env: dict[str, str], folder: Path, name: str = "server", threads: int = 4,
                 target: str = "scorekeeper", python: str = sys.executable, cwd: Path | None = None,
                 access_log: bool = False) -> None:
        self.env = env
        self.name = name
        self.threads = threads
        self.target = target
        self.python = python
        self.cwd = cwd
        self.access_log = access_log
        self.port = free_port()
        self.log_path = folder / f"{name}-{self.port}.log"
        self.process: subprocess.Popen | None = None
        self.started = 0.0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def command(self) -> list[str]:
        return [self.python, "-m", "flask", "--app", self.target, "serve", "--host", "127.0.0.1",
                "--port", str(self.port), "--threads", str(self.threads)]

    def launch(self) -> None:
        """Start the process; :meth:`wait` until it answers."""
        self._log = open(self.log_path, "ab")  # noqa: SIM115 (closed in _ended)
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            self.command, cwd=self.cwd, env=self.env, stderr=self._log,
            stdout=self._log if self.access_log else subprocess.DEVNULL, start_new_session=True)

    def wait(self, path: str = "/api/openapi.json", seconds: float = 30) -> float:
        """Until ``path`` answers with a success: the seconds since the launch. Stops the server
        and raises RuntimeError if it exits or does not answer in ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process is None or self.process.poll() is not None:
                self.stop()
                raise RuntimeError(f"the server exited; see {self.log_path}")
            try:
                with urllib.request.urlopen(self.base + path, timeout=5):
                    return time.monotonic() - self.started
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the server did not start; see {self.log_path}")

    def kill(self) -> None:
        """SIGKILL the server (and its threads) at once: a crash, not a shutdown."""
        if self.process is not None:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            self._ended()

    def stop(self, grace: float = 15) -> None:
        """SIGTERM, and SIGKILL if it has not ended within ``grace`` seconds."""
        if self.process is not None:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGTERM)
                try:
                    self.process.wait(timeout=grace)
                except subprocess.TimeoutExpired:
                    self.kill()
                    return
            self._ended()

    def _ended(self) -> None:
        self._log.close()
        self.process = None
