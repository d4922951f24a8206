"""Quality gates: one seeded app for the whole session, served on 127.0.0.1, plus an empty one.

Every test here is marked ``quality`` (``-m quality`` selects them, ``-m "not quality"`` leaves
them out: ``make test-postgres`` does, as the gates need to run once, on SQLite). The tools come
from the npm packages pinned in package.json (``make node_modules`` installs them); when they
are missing the run stops with the command to run, never skips silently.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

# The phone the browser tests use (Debian's Chromium, 390x844, touch), shared, not copied.
from browser.conftest import CHROMIUM, browser_context_args, browser_type_launch_args  # noqa: F401
from conftest import close, join, make_app, make_keeper

from .site import AXE_JS, AXE_URL, BLANK_URL, LIGHTHOUSE_CLI, NODE_MODULES, VNU_JAR, catalogue, seed, take_a_seat

HERE = Path(__file__).resolve().parent


def mine(item) -> bool:
    return Path(str(item.fspath)).resolve().is_relative_to(HERE)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if mine(item):
            item.add_marker(pytest.mark.quality)


def pytest_collection_finish(session):
    """After -m/-k: when a gate is still selected, its tools must be there."""
    if not any(mine(item) for item in session.items):
        return
    missing = [str(p.relative_to(NODE_MODULES.parent)) for p in (AXE_JS, VNU_JAR, LIGHTHOUSE_CLI) if not p.exists()]
    if missing:
        raise pytest.UsageError(
            f"The quality gates need the npm packages of package.json ({', '.join(missing)} missing): "
            "run `make node_modules` (npm ci --ignore-scripts)."
        )
    for tool in ("java", "node"):
        if shutil.which(tool) is None:
            raise pytest.UsageError(f"The quality gates need `{tool}` on the PATH (Java 17+ for vnu, Node 20 for Lighthouse).")
    if not Path(CHROMIUM).exists():
        raise pytest.UsageError(f"The quality gates need Chromium at {CHROMIUM}: `sudo apt-get install -y chromium-headless-shell`.")


def with_axe(app):
    """The app, with axe-core answered at :data:`AXE_URL` and kept by the browser's HTTP cache
    like the app's static files, and an empty page at :data:`BLANK_URL`. Served here rather than
    by a Playwright route: a routed context keeps no HTTP cache, and each of a hundred pages
    would fetch every static file anew."""
    body = AXE_JS.read_bytes()
    headers = [("Content-Type", "text/javascript"), ("Content-Length", str(len(body))), ("Cache-Control", "max-age=3600")]

    def answer(environ, start_response):
        if environ.get("PATH_INFO") == AXE_URL:
            start_response("200 OK", headers)
            return [body]
        if environ.get("PATH_INFO") == BLANK_URL:
            start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
            return [b"<!DOCTYPE html><title>Blank</title>"]
        return app(environ, start_response)

    return answer


def serve(app):
    srv = make_server("127.0.0.1", 0, with_axe(app), threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    return srv, f"http://127.0.0.1:{srv.server_port}"


@pytest.fixture(scope="session")
def quality_app(tmp_path_factory):
    # USE_CDN False: the pages load the local copy of htmx. With the CDN tag, a browser without
    # internet (this machine, CI) logs a failed script load, which Lighthouse counts against
    # best practices; the CDN tag and its fallback are checked by the browser tests and by
    # vnu below (the fragment of base.html that carries it is validated from a CDN app too).
    app = make_app(tmp_path_factory.mktemp("quality"), "quality.sqlite", SECRET_KEY="quality", USE_CDN=False)
    yield app
    close(app)


@pytest.fixture(scope="session")
def seeded(quality_app):
    return seed(quality_app)


@pytest.fixture(scope="session")
def pages(seeded):
    return catalogue(seeded)


@pytest.fixture(scope="session")
def editor_cookie(quality_app, seeded) -> str:
    """The session cookie of a phone that keeps score for every seeded game."""
    client = make_keeper(quality_app.test_client())  # and the club's keeper
    for game_id, key in seeded.keys.items():
        assert join(client, game_id, key).status_code == 303
    take_a_seat(client, seeded)
    client.get("/")  # shows (and so drops) the flash messages the joins left
    cookie = client.get_cookie("session")
    assert cookie is not None
    return cookie.value


@pytest.fixture(scope="session")
def quality_server(quality_app, seeded):
    srv, url = serve(quality_app)
    yield url
    srv.shutdown()


@pytest.fixture(scope="session")
def empty_app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("empty"), "empty.sqlite", SECRET_KEY="quality", USE_CDN=False)
    yield app
    close(app)


@pytest.fixture(scope="session")
def empty_server(empty_app):
    srv, url = serve(empty_app)
    yield url
    srv.shutdown()


@pytest.fixture(scope="session")
def artifacts_dir():
    """test-artifacts/quality/: this run's reports, screenshots of failures, the HTML vnu checked
    (a folder of each worker's own when the tests run in several: each empties its own)."""
    path = NODE_MODULES.parent / "test-artifacts" / "quality"
    if os.environ.get("PYTEST_XDIST_WORKER"):
        path = path / os.environ["PYTEST_XDIST_WORKER"]
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path
