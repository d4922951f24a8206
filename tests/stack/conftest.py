"""The internet set-up run here (`make stack`: scripts/stack.py): Caddy with its own local
certificate authority on loopback, two app servers, PostgreSQL and Redis. Each test module
starts a stack of its own (it takes about half a minute) and stops it after; a test may kill
what it likes in it. Only `make test-stack` runs these tests (SCOREKEEPER_STACK_TESTS=1).

Every request goes to loopback: https://scores.test:PORT/ is mapped to 127.0.0.1 (Chromium's
--host-resolver-rules, and :class:`Https` here); Chromium trusts the stack's root certificate
through an NSS database of its own, under a throw-away HOME."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from server import ROOT, free_port

# The whole browser, not the headless shell of the browser tests: the phone here holds a real
# screen wake lock, which the shell refuses.
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

NAME = "scores.test"


class Https:
    """A client of the stack through Caddy, as a phone that trusts its root certificate; or of
    one app server directly (``base`` an http://127.0.0.1:PORT address)."""

    def __init__(self, state: dict, base: str | None = None) -> None:
        self.state = state
        self.base = base
        self.context = ssl.create_default_context(cafile=state["root_certificate"])

    def connection(self, timeout: float) -> http.client.HTTPConnection:
        if self.base:
            host, port = self.base.removeprefix("http://").split(":")
            return http.client.HTTPConnection(host, int(port), timeout=timeout)
        port, context = self.state["port"], self.context

        class ToLoopback(http.client.HTTPSConnection):
            def connect(self) -> None:
                raw = socket.create_connection(("127.0.0.1", port), timeout)
                self.sock = context.wrap_socket(raw, server_hostname=NAME)

        return ToLoopback(NAME, port, timeout=timeout, context=context)

    def request(self, method: str, path: str, body=None, key: str | None = None, headers=None,
                timeout: float = 30) -> tuple[int, dict, object]:
        connection = self.connection(timeout)
        sent = {"Host": f"{NAME}:{self.state['port']}", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        if key:
            sent["Authorization"] = f"Bearer {key}"
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            payload = response.read()
            answer = dict(response.getheaders())
        finally:
            connection.close()
        try:
            parsed = json.loads(payload) if payload else None
        except ValueError:
            parsed = payload.decode(errors="replace")
        return response.status, answer, parsed


class Stack:
    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.port = port
        self.log = open(folder.parent / f"{folder.name}-stack.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "scripts" / "stack.py")], cwd=ROOT,
            env=dict(os.environ, STACK_DIR=str(folder), STACK_PORT=str(port)),
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 180
        while not (folder / "stack.json").exists():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()  # (its log closed: read by name)
                raise RuntimeError("the stack did not start:\n" + Path(self.log.name).read_text(errors="replace"))
            time.sleep(0.2)
        self.state = json.loads((folder / "stack.json").read_text())

    def output(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")

    def reload_state(self) -> dict:
        self.state = json.loads((self.folder / "stack.json").read_text())
        return self.state

    @property
    def url(self) -> str:
        return self.state["url"].rstrip("/")

    def https(self) -> Https:
        return Https(self.state)

    def app(self, index: int) -> Https:
        return Https(self.state, self.state["apps"][index]["url"])

    def caddy_log(self) -> str:
        return (self.folder / "caddy.log").read_text(errors="replace")

    def app_log(self, index: int) -> str:
        return (self.folder / f"app-{self.state['apps'][index]['port']}.log").read_text(errors="replace")

    def pg_ctl(self, action: str, *args: str) -> None:
        pg = self.state["postgres"]
        command = [f"{pg['bin']}/pg_ctl", "-D", pg["data"], "-w", *args, action]
        if os.getuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True)

    def stop(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()


@pytest.fixture(scope="module")
def stack():
    # Under /tmp, not pytest's own temporary folders (0700): the PostgreSQL server runs as the
    # postgres user and must reach its data folder.
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-stack-"))
    running = Stack(folder, free_port())
    try:
        yield running
    finally:
        running.stop()
        if not os.environ.get("STACK_KEEP"):  # the logs, to read after a failure
            shutil.rmtree(folder, ignore_errors=True)
            Path(running.log.name).unlink(missing_ok=True)


@pytest.fixture(scope="module")
def phone_home(stack):
    """A HOME whose NSS database trusts the stack's root certificate, as a phone would after its
    owner installed it (Chromium on Linux reads $HOME/.pki/nssdb)."""
    home = Path(tempfile.mkdtemp(prefix="scorekeeper-phone-"))
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True, capture_output=True)
    subprocess.run(["certutil", "-d", f"sql:{nssdb}", "-A", "-t", "C,,", "-n", "scorekeeper-stack",
                    "-i", stack.state["root_certificate"]], check=True, capture_output=True)
    yield home
    shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="module")
def stack_browser(playwright, phone_home):
    browser = playwright.chromium.launch(
        executable_path=CHROMIUM,
        env={**os.environ, "HOME": str(phone_home)},
        args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run",
              # scores.test is the stack on loopback; the CDN, as at a table, is nowhere.
              f"--host-resolver-rules=MAP {NAME} 127.0.0.1, MAP cdn.jsdelivr.net ~NOTFOUND"],
    )
    yield browser
    browser.close()


@pytest.fixture
def phone(stack_browser):
    """A phone at the table (a context of its own: cookies, storage, service worker)."""
    context = stack_browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                        is_mobile=True, has_touch=True)
    yield context
    context.close()
