"""Fixtures after the Flask tutorial: ``app``, ``client``, ``runner``.

The suite runs on a temporary SQLite file by default, and on PostgreSQL when
``TEST_DATABASE_URL`` names one (``.ci/run`` starts a throw-away server for that).
"""

import base64
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from factories import ANN_BEN_CAT_DAN, import_docs, new_game, save_round
from hypothesis import settings
from history_games import G1, G2, G3, G4, classic_doc, random_docs
from server import upgrade
from flask import current_app, g
from sqlalchemy import create_engine, text
from sqlalchemy.orm import scoped_session, sessionmaker

from scorekeeper import create_app

from scorekeeper.files import transfer
from scorekeeper.web.clubkey import digest
from scorekeeper.files.gamefile import backup_document, read_document
from scorekeeper.store.models import db

# Hypothesis profiles. "thorough" (the default, and `make test`'s): every property test tries as
# many examples as it names. "quick" (`make check`: `--hypothesis-profile=quick`): a fifth of them,
# for the inner loop: the same properties, tried less often (`make test` may still find what it missed).
THOROUGH_EXAMPLES = 100
# No deadline: Hypothesis's 200 ms per example is a timing assertion, which a busy machine fails
# (a seat draw took 279 ms once under a full run, 1 ms again); speed is make bench's to measure.
settings.register_profile("thorough", max_examples=THOROUGH_EXAMPLES, deadline=None)
settings.register_profile("quick", max_examples=THOROUGH_EXAMPLES // 5, deadline=None)
settings.load_profile("thorough")


def examples(thorough: int) -> int:
    """How many examples a property test tries: ``thorough`` under the thorough profile; under
    another, the same share of it as that profile's ``max_examples`` is of the thorough one's (a
    fifth under quick), and at least 5. Read when a test module is imported, after pytest's
    ``--hypothesis-profile`` has chosen the profile."""
    return max(5, thorough * settings.default.max_examples // THOROUGH_EXAMPLES)


# The stack's tests (tests/stack) start Caddy, PostgreSQL and Redis for minutes: only
# `make test-stack` runs them.
collect_ignore = [] if os.environ.get("SCOREKEEPER_STACK_TESTS") else ["stack"]


def _database_of_this_worker(url: str | None) -> str | None:
    """With several workers (pytest-xdist) on one PostgreSQL server, each its own database, made
    afresh: the tests empty their database as they go, and must not empty another worker's."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker or not url.startswith("postgresql"):
        return url
    from sqlalchemy.engine import make_url

    name = f"scorekeeper_{worker}"
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    mine = make_url(url).set(database=name).render_as_string(hide_password=False)
    os.environ["TEST_DATABASE_URL"] = mine  # for servers the tests start in other processes
    return mine


TEST_DATABASE_URL = _database_of_this_worker(os.environ.get("TEST_DATABASE_URL"))
#: The club key of every test app (a keeper's session holds it; see the ``keeper`` fixture).
CLUB_KEY = "test-club-key"
ON_POSTGRES = bool(TEST_DATABASE_URL and TEST_DATABASE_URL.startswith("postgresql"))


# The name a phone at the table opens: any name but localhost and 127.0.0.1, which Chromium
# counts as a secure context as no phone on a table's Wi-Fi is. Chromium maps it to loopback,
# so no request leaves this machine; plain HTTP there is what `make run` serves.
TABLE_HOST = "table.lan"


@pytest.fixture(scope="session")
def table_certificate(tmp_path_factory):
    """A certificate for the table's name and its key, made for this run (openssl), and the
    base64 SHA-256 of its public key, which the browser is told to trust: the phones of the
    tests marked ``secure`` open the app through HTTPS, as a phone does through the club's
    server on the internet (the whole stack with Caddy is tested in tests/stack)."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "table.pem", folder / "table.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "2", "-subj", f"/CN={TABLE_HOST}", "-addext", f"subjectAltName=DNS:{TABLE_HOST}",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    public = subprocess.run(["openssl", "pkey", "-in", str(key), "-pubout", "-outform", "DER"],
                            check=True, capture_output=True).stdout
    return cert, key, base64.b64encode(hashlib.sha256(public).digest()).decode()


@pytest.fixture(autouse=True, scope="session")
def instance_of_the_tests(tmp_path_factory):
    """Every app the tests make keeps its instance folder (secret key, club key, config) in a
    folder of the run's own, never the checkout's ``instance/``: a developer's own games and keys
    are neither touched nor read. (A test that needs another sets the variable itself.)"""
    before = os.environ.get("SCOREKEEPER_INSTANCE")
    os.environ["SCOREKEEPER_INSTANCE"] = str(tmp_path_factory.mktemp("instance"))
    yield
    if before is None:
        os.environ.pop("SCOREKEEPER_INSTANCE")
    else:
        os.environ["SCOREKEEPER_INSTANCE"] = before


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """The slow tests first (in their order), then the rest: at the end of a run spread over
    several workers, each has only short tests left, rather than one worker a long one alone."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


#: Whether something other than the rolled-back tests has used this worker's PostgreSQL database
#: since its schema was last made afresh: an app or a server on it commits for real.
shared_database = {"touched": True}


def database_url(tmp_path, name="test.sqlite") -> str:
    """The database a test should use: the shared PostgreSQL one, or a fresh SQLite file."""
    if TEST_DATABASE_URL:
        shared_database["touched"] = True
        return TEST_DATABASE_URL
    return f"sqlite:///{tmp_path / name}"


def empty_database(app) -> None:
    """Start from nothing: on PostgreSQL drop every table (migrations' too)."""
    with app.app_context():
        if db.engine.dialect.name == "postgresql":
            db.session.remove()
            with db.engine.begin() as conn:
                conn.execute(text("DROP SCHEMA public CASCADE"))
                conn.execute(text("CREATE SCHEMA public"))
        db.create_all()


def make_app(tmp_path, name="test.sqlite", **config):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path, name),
            "USE_CDN": False,
            # The schema is made afresh below; a leftover one must not stop the app starting.
            "CHECK_SCHEMA": False,
            "CLUB_KEY_HASH": digest(CLUB_KEY),
            # Off but in the tests of the limits themselves (test_limits.py).
            "RATELIMIT_ENABLED": False,
            **config,
        }
    )
    empty_database(app)
    return app


def close(app) -> None:
    app.extensions["scorekeeper_polls"].version.close()  # the unchanged poll's connections
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="session")
def session_app(tmp_path_factory):
    """The app and schema of this test session (one per xdist worker): building the app's
    routes and the schema costs a fifth of a second, which a thousand tests would pay again."""
    app = make_app(tmp_path_factory.mktemp("session"))
    yield app
    close(app)


@pytest.fixture
def app(request, tmp_path):
    """The app of a test: the session's, rolled back after it (:func:`rolled_back_app`), or, for
    a test marked ``own_database``, one on a database of its own, committed for real."""
    if request.node.get_closest_marker("own_database"):
        app = make_app(tmp_path)
        yield app
        close(app)
    else:
        yield request.getfixturevalue("rolled_back_app")


@pytest.fixture
def rolled_back_app(session_app):
    """The session's app, inside a transaction that is rolled back after the test: the store's
    commits become savepoints of it, so every test starts from an empty club, ids from 1.

    Each app context gets its own session, as Flask-SQLAlchemy gives it, all on the test's one
    connection. A test that needs what other processes or connections see (a server, a file
    copy, two connections racing, the statements a request really sends) is marked
    ``own_database``."""
    app = session_app
    config = dict(app.config)
    shared_session = db.session
    if ON_POSTGRES and shared_database["touched"]:
        # On PostgreSQL every app of a worker shares its one database: what another app or a
        # server committed (or an older schema a migration test left) goes first.
        empty_database(app)
        shared_database["touched"] = False
    with app.app_context():
        connection = db.engine.connect()
        outer = connection.begin()
        if ON_POSTGRES:
            restart_sequences(connection)
    db.session = SessionOfTheTest(app, connection, shared_session)
    try:
        yield app
    finally:
        db.session = shared_session
        outer.rollback()
        connection.close()
        app.config.clear()
        app.config.update(config)


class SessionOfTheTest:
    """``db.session`` during a test: for the session's app, sessions on the test's connection (a
    new one for each app context, as Flask-SQLAlchemy scopes them); for any other app the test
    makes (an import into a second database), Flask-SQLAlchemy's own."""

    def __init__(self, app, connection, shared_session) -> None:
        self.app = app
        self.shared_session = shared_session
        self.tests_session = scoped_session(
            sessionmaker(bind=connection, join_transaction_mode="create_savepoint"),
            scopefunc=lambda: g.setdefault("test_session_scope", object()),
        )

    def current(self):
        return self.tests_session if current_app.config is self.app.config else self.shared_session

    def __call__(self):
        return self.current()()

    def __getattr__(self, name):
        return getattr(self.current(), name)


def restart_sequences(connection) -> None:
    """PostgreSQL's sequences are not rolled back with a transaction: the ids start from 1
    again, as they do on a fresh database (the tables are empty, so no id is taken)."""
    for (name,) in connection.execute(text("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")):
        connection.execute(text("SELECT setval(:name, 1, false)"), {"name": name})


@pytest.fixture
def fresh_app(tmp_path):
    """An app on a database of its own, committed for real, beside the test's ``app``."""
    app = make_app(tmp_path, "fresh.sqlite")
    yield app
    close(app)


@pytest.fixture
def client(app):
    return app.test_client()


def make_keeper(client):
    """Make a test client the club's keeper, as opening the club link does."""
    with client.session_transaction() as session:
        session["club_key"] = CLUB_KEY
    return client


@pytest.fixture
def web(app):
    """A test client for the app with CSRF checks off (the CSRF tests use ``client``), in the
    club keeper's browser (``stranger`` is anyone else's)."""
    app.config["WTF_CSRF_ENABLED"] = False
    return make_keeper(app.test_client())


@pytest.fixture
def stranger(app):
    """Like ``web``, in a browser that is not the club's keeper."""
    app.config["WTF_CSRF_ENABLED"] = False
    return app.test_client()


@pytest.fixture
def keeper(app):
    """The club keeper's browser, CSRF checks on."""
    return make_keeper(app.test_client())


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


def form_token(client, url: str) -> str:
    """The form token a page gives this client (CSRF)."""
    import re

    return re.search(r'name="csrf_token" value="([^"]+)"', client.get(url).text).group(1)


def join(client, game_id: int, key: str, **kwargs):
    """Open a game's edit link (``join#key=KEY``) as a browser does: its page posts the key."""
    token = form_token(client, f"/games/{game_id}/join")
    return client.post(f"/games/{game_id}/join", data={"csrf_token": token, "key": key}, **kwargs)


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """A SQLite file made by the migrations, once for the session (by two processes, seconds
    each); each test that wants one gets its own copy (:func:`database`)."""
    folder = tmp_path_factory.mktemp("migrated")
    upgrade(f"sqlite:///{folder / 'live.sqlite'}", folder)
    return folder / "live.sqlite"


@pytest.fixture
def database(request, tmp_path) -> str:
    """A database made by the migrations, for a server in another process: a fresh SQLite file
    (a copy of :func:`migrated_sqlite`), or the PostgreSQL one emptied and upgraded."""
    if not ON_POSTGRES:
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), tmp_path / "live.sqlite")
        return f"sqlite:///{tmp_path / 'live.sqlite'}"
    shared_database["touched"] = True
    engine = create_engine(TEST_DATABASE_URL)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    upgrade(TEST_DATABASE_URL, tmp_path)
    return TEST_DATABASE_URL


@pytest.fixture(scope="session")
def base_url():
    """No base URL: the browser tests open whole addresses. Defined here so that pytest-playwright's
    own ``base_url`` fixture, a method of a plugin class that pytest deprecates (a warning for every
    browser test), is not used."""
    return None


# The games most web tests start from.


@pytest.fixture
def balmoral(web):
    """A Balmoral game: Ann, Ben, Cat, Dan clockwise; Ann deals first; the winner deals next."""
    return new_game(web, ANN_BEN_CAT_DAN)


@pytest.fixture
def played(web, balmoral):
    """The Balmoral game after two rounds (figures worked out in the comments)."""
    # Round 1, Ann deals. Ben goes out; Cat also makes her contract.
    #   Ann A K 7 7 = 39, Cat 10 10 Q 2 = 32, Dan counted 5 by hand.
    save_round(web, balmoral, 1, went_out=1, hands={0: "A K 7 7", 2: "10 10 Q 2"}, points={3: "5"},
               achieved=[2])
    # Round 2, Ben deals (he went out). Dan goes out; Ann makes her contract.
    #   Ann 2 3 = 5, Ben Q = 10, Cat A A = 30.
    save_round(web, balmoral, 2, went_out=3, hands={0: "2 3", 1: "Q", 2: "A A"}, achieved=[0])
    # Totals: Ann 44, Ben 10, Cat 62, Dan 5. Everyone on level 2. Dan deals round 3.
    return balmoral


@pytest.fixture
def four(app):
    """Games 1 to 4 imported; their ids."""
    with app.app_context():
        return [o.game_id for o in transfer.import_files(read_document(backup_document([G1, G2, G3, G4])))]


@pytest.fixture
def season(app):
    """Twelve finished games of four players (everyone rated, not provisional), and one game of
    a newcomer (provisional); their ids. (The club's leaderboard and the store's ratings read it.)"""
    with app.app_context():
        ids = import_docs(random_docs(12, seed=11, players=["Ann", "Ben", "Cat", "Dev"]))
        ids += import_docs([classic_doc(["Ann", "Eve", "Ben"], "Eve", "2026-06-01T19:00:00Z",
                                        "2026-06-01T20:00:00Z")])
    return ids
