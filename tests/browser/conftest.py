"""Browser tests: real headless Chromium (Debian's) at a phone viewport, with touch."""

import os
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from conftest import CLUB_KEY, make_app
from scorekeeper.models import db

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

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
            f"The browser tests need Chromium at {CHROMIUM}: run `sudo apt-get install -y chromium` "
            "(or set CHROMIUM to its path)."
        )


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
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
def live_app(tmp_path):
    # USE_CDN: the CDN cannot be reached here (the tests block it), which exercises the local
    # fallback as a table without signal would.
    return make_app(tmp_path, "browser.sqlite", SECRET_KEY="browser-test", USE_CDN=True)


@pytest.fixture
def server(live_app):
    srv = make_server("127.0.0.1", 0, live_app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()
    with live_app.app_context():
        db.engine.dispose()


@pytest.fixture
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def club_link(server):
    """The link `flask club-key` prints for the test app's club key."""
    return f"{server}/club#key={CLUB_KEY}"
