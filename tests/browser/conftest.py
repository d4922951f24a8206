"""Browser tests: real headless Chromium (Debian's headless shell) at a phone viewport, with touch."""

import os
import re
import ssl
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect
from sqlalchemy import text
from werkzeug.serving import make_server

from conftest import CLUB_KEY, TABLE_HOST, close, make_app, shared_database
from scorekeeper.store.models import db

# Chromium's headless shell (Debian's package chromium-headless-shell): the same Blink, V8 and
# network stack as the browser, without the browser's own windows and services, and what
# Playwright itself runs headless. The whole browser in its headless mode cost a third more CPU
# (tests/browser on two cores: 171 s against 120 s), and these machines are CPU-bound.
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
CDN_HOST = "cdn.jsdelivr.net"

# Two cores shared with a server and a browser: give assertions room before calling them failed.
expect.set_options(timeout=15_000)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def pytest_collection_modifyitems(items):
    for item in items:
        if "browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
    if not Path(CHROMIUM).exists():
        # Never skip silently: make test installs Chromium first, so this is a real failure.
        raise pytest.UsageError(
            f"The browser tests need Chromium at {CHROMIUM}: run `sudo apt-get install -y chromium-headless-shell` "
            "(or set CHROMIUM to its path)."
        )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, table_certificate):
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            # The table has no signal: the CDN's name resolves to nothing, so its copy of htmx
            # fails at once and the local copy takes over. Done here rather than by a Playwright
            # route: routing a context turns its HTTP cache off, and every page would fetch the
            # static files anew.
            # The table's name is this machine's loopback, as the server's address on the Wi-Fi.
            f"--host-resolver-rules=MAP {CDN_HOST} ~NOTFOUND, MAP {TABLE_HOST} 127.0.0.1",
            f"--ignore-certificate-errors-spki-list={table_certificate[2]}",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {
        **browser_context_args,
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    }


@pytest.fixture
def another_phone(browser, browser_context_args):
    """Opens another phone at the table (a browser context of its own: its own cookies, storage
    and keys), at the same screen and with no internet either; closed after the test."""
    opened = []

    def open_phone(**settings):
        phone = browser.new_context(**{**browser_context_args, **settings})
        opened.append(phone)
        return phone

    yield open_phone
    for phone in opened:
        phone.close()


@pytest.fixture(scope="session")
def browser_app(tmp_path_factory):
    """The app the browser tests of this worker share (building it and its schema for every
    test cost a fifth of a second each). USE_CDN: the CDN cannot be reached here (the tests
    block it), which exercises the local fallback as a table without signal would."""
    app = make_app(tmp_path_factory.mktemp("browser"), "browser.sqlite", SECRET_KEY="browser-test", USE_CDN=True)
    yield app
    close(app)


def closed_when_dropped(body):
    """The body of an answer, closed even when the browser breaks off its download: werkzeug's
    test server then skips closing it (reading what is left of a dropped connection raises
    first), and a static file's body, left to the garbage collector, is a ResourceWarning
    (seen once in a full run: an icon still downloading as a test's page closed)."""
    try:
        yield from body
    finally:
        close = getattr(body, "close", None)
        if close is not None:
            close()


class Answering:
    """The requests the test server is answering, so that a test starts only once the last
    one's have ended (a page closed while it polled, or while its outbox sent a round)."""

    def __init__(self, answer) -> None:
        self.answer = answer
        self.count = 0
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        with self.lock:
            self.count += 1
        try:
            return closed_when_dropped(self.answer(environ, start_response))
        finally:
            with self.lock:
                self.count -= 1

    def wait(self, seconds: float = 10) -> None:
        deadline = time.monotonic() + seconds
        while self.count and time.monotonic() < deadline:
            time.sleep(0.02)


def serve(app, ssl_context=None):
    """The app on a loopback port in a thread of this process: the server and its thread."""
    srv = make_server("127.0.0.1", 0, app, threaded=True, ssl_context=ssl_context)
    # Every request's thread is joined when the server closes, also one accepted just before
    # the server stopped that has not begun yet (the count cannot see it): left running, it took
    # a connection from the pool after the pool was disposed, which was then dropped unclosed
    # (a ResourceWarning on PostgreSQL).
    srv.daemon_threads = False
    srv.block_on_close = True
    # Its loop looks for the stop every 50 ms, not every half second (werkzeug's default).
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    return srv


@pytest.fixture(scope="session")
def browser_server(browser_app, table_certificate):
    """The shared app served for the worker's whole run, as the table's phones reach it: by the
    table's name over plain HTTP (an insecure context: no service worker, no wake lock, no
    share sheet), and over HTTPS (everything) for the tests marked ``secure``."""
    answering = Answering(browser_app.wsgi_app)
    browser_app.wsgi_app = answering
    plain = serve(browser_app)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(table_certificate[0], table_certificate[1])
    secure = serve(browser_app, tls)
    yield {"plain": f"http://{TABLE_HOST}:{plain.server_port}", "secure": f"https://{TABLE_HOST}:{secure.server_port}"}, answering
    for srv in (plain, secure):
        srv.shutdown()
        srv.server_close()
    answering.wait()


@pytest.fixture
def live_app(browser_app, browser_server):
    """The shared app, its database emptied (ids from 1 again) once the last test's requests have
    ended, and its settings as they were."""
    browser_server[1].wait()
    empty_tables(browser_app)
    config = dict(browser_app.config)
    yield browser_app
    browser_app.config.clear()
    browser_app.config.update(config)


def empty_tables(app) -> None:
    with app.app_context():
        db.session.remove()
        if db.engine.dialect.name == "postgresql":
            # The worker's one database is the rolled-back tests' too: they start it afresh after
            # this (conftest.shared_database), and this starts from whatever schema they left.
            shared_database["touched"] = True
            db.engine.dispose()
            db.create_all()
            names = ", ".join(f'"{table.name}"' for table in db.metadata.sorted_tables)
            with db.engine.begin() as conn:
                conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
            return
        with db.engine.begin() as conn:
            for table in reversed(db.metadata.sorted_tables):
                conn.execute(table.delete())
            if conn.execute(text("SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'")).first():
                conn.execute(text("DELETE FROM sqlite_sequence"))


@pytest.fixture
def server(request, live_app, browser_server):
    """The address the test's phones open: the table's name over plain HTTP, or over HTTPS for a
    test marked ``secure`` (what only a secure context has: the service worker above all)."""
    return browser_server[0]["secure" if request.node.get_closest_marker("secure") else "plain"]


def fetch_at_the_table(route):
    """``route.fetch()`` for a request a phone sent to the table's name: Playwright fetches from
    its own process, which does not know the name, so it goes to loopback with the phone's Host."""
    address = urlsplit(route.request.url)
    return route.fetch(url=address._replace(netloc=f"127.0.0.1:{address.port}").geturl(),
                       headers={**route.request.headers, "host": address.netloc})


@pytest.fixture
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def club_link(server):
    """The link `flask club-key` prints for the test app's club key."""
    return f"{server}/club#key={CLUB_KEY}"


# What a browser test may see in the console without failing: nothing, but for the network
# lines Chromium itself writes for answers the test arranged. The CDN is blocked on purpose
# (the local htmx takes over), and a refused save is answered 409 or 422 with the form and its
# messages on screen; Chromium logs each as "Failed to load resource". A test that cuts the
# network (marked "offline") may also see the failed requests and htmx's report of them, and a
# test that opens an address it knows is gone or refused names that answer in
# ``@pytest.mark.console_allows(pattern)``.
ARRANGED = re.compile(r"Failed to load resource: the server responded with a status of (409|422)\b")
OFFLINE = re.compile(r"net::ERR_INTERNET_DISCONNECTED|net::ERR_FAILED|htmx:sendError|htmx:afterRequest|Failed to fetch|"
                     r"FetchEvent|service ?worker", re.I)


@pytest.fixture(autouse=True)
def no_console_errors(request, context):
    """Fail a browser test on any console error or uncaught page error it did not arrange."""
    seen: list[str] = []

    def console(message):
        if message.type != "error":
            return
        where = (message.location or {}).get("url", "")
        if CDN_HOST in where or ARRANGED.search(message.text):
            return
        if request.node.get_closest_marker("offline") and OFFLINE.search(message.text):
            return
        allows = request.node.get_closest_marker("console_allows")
        if allows and re.search(allows.args[0], message.text):
            return
        seen.append(f"{message.text} ({where})")

    context.on("console", console)
    context.on("weberror", lambda error: seen.append(f"uncaught: {error.error}"))
    yield
    assert not seen, "console errors:\n" + "\n".join(seen)
