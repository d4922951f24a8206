"""A worker's warm-up (app.warm_up): it answers one request of each kind of page to itself, so a
phone's first request compiles no statement, and it keeps none of what it rendered."""

from __future__ import annotations

import re
import runpy
import subprocess
import sys
from types import SimpleNamespace

import flask_migrate
from conftest import CLUB_KEY, empty_database
from factories import ANN_BEN_CAT_DAN, new_game, player_id, save_round
from history_games import random_docs
from server import ROOT, app_env

from scorekeeper import create_app

from scorekeeper.files import transfer
from scorekeeper.web.clubkey import digest
from scorekeeper.files.gamefile import backup_document, read_document
from scorekeeper.club.history import PER_PAGE
from scorekeeper.store.database import MIGRATIONS
from scorekeeper.store.models import db


def _app(url: str, warm: bool):
    return create_app({"TESTING": True, "SECRET_KEY": "w", "SQLALCHEMY_DATABASE_URI": url, "USE_CDN": False,
                       "CHECK_SCHEMA": False, "RATELIMIT_ENABLED": False, "WTF_CSRF_ENABLED": False,
                       "CLUB_KEY_HASH": digest(CLUB_KEY), "WARM_UP": warm})


def _compiled(app) -> int:
    with app.app_context():
        return len(db.engine._compiled_cache)


def test_a_warm_worker_compiles_nothing_for_the_first_page_of_each_kind_and_keeps_no_page(app, web):
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    empty_database(app)
    with app.app_context():
        db.drop_all()
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="head")
    with app.app_context():  # two pages of history: the last is read from the other end
        transfer.import_files(read_document(backup_document(random_docs(PER_PAGE + 5, seed=2))))
    game_id = new_game(web, ANN_BEN_CAT_DAN)
    save_round(web, game_id, 1, went_out=1, hands={0: "A K", 2: "Q", 3: "2"})
    ann = player_id(app, "Ann")

    worker = _app(url, warm=True)
    try:
        assert not any(len(kept) for kept in worker.extensions.get("scorekeeper.kept", {}).values())
        compiled = _compiled(worker)
        phone = worker.test_client()
        for path in (f"/games/{game_id}", "/history", "/history?page=2", f"/players/{ann}", "/ratings",
                     f"/games/{game_id}.json"):
            assert phone.get(path).status_code == 200
            assert _compiled(worker) == compiled, f"{path} compiled a statement the warm-up did not"
    finally:
        with worker.app_context():
            db.engine.dispose()


def test_no_warm_up_reading_on_a_database_not_upgraded_yet(app):
    """`flask db upgrade` makes the app before it upgrades: its warm-up reads nothing (a page
    of the newer app would ask for columns the database does not have yet, and a test app lets
    the error out)."""
    with app.app_context():
        db.drop_all()
        flask_migrate.upgrade(directory=str(MIGRATIONS), revision="3c9d0e4f2a61")
    worker = _app(app.config["SQLALCHEMY_DATABASE_URI"], warm=True)
    with worker.app_context():
        db.engine.dispose()


def test_gunicorn_reads_its_settings_from_the_top_level_as_make_run_starts_it(tmp_path):
    """`make run` and `make bench` start gunicorn in the project's folder, where it reads
    gunicorn.conf.py: its own parser named (no search for an optional one on a worker's first
    request)."""
    # gunicorn loads the app to print its settings: with a folder and database of the test's
    # own, not the checkout's instance/ (nor whatever database the shell names).
    env = app_env(f"sqlite:///{tmp_path / 'printed.sqlite'}", tmp_path)
    printed = subprocess.run([sys.executable, "-m", "gunicorn", "--print-config", "scorekeeper:create_app()"],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True).stdout
    assert re.search(r"^http_parser\s+= python$", printed, re.M), printed
    assert re.search(r"^post_worker_init\s+= <post_worker_init\(\)>$", printed, re.M), printed


def test_a_new_worker_works_out_the_trusted_proxies_before_its_first_request():
    from gunicorn.config import Config

    settings = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    worker = SimpleNamespace(cfg=Config())
    assert worker.cfg._forwarded_allow_networks is None  # gunicorn works them out when first asked
    settings["post_worker_init"](worker)
    assert worker.cfg._forwarded_allow_networks is not None
