"""An import is one transaction.

A process killed in the middle of an import leaves either all of it or none of it: never games
without their fingerprints, which the next import of the same file would not recognise and would
store again. The crash is real: a child process imports a backup and is killed (``os._exit``, no
clean-up, no rollback) the moment its first commit that stored a game has returned.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from conftest import close, make_app
from history_games import random_docs
from sqlalchemy import func, select

from scorekeeper.files import transfer
from scorekeeper.files.gamefile import backup_document, read_document
from scorekeeper.store.models import Game, db

#: Imports FILE into the database URL, and dies right after the first commit that left a game stored.
CRASHING_IMPORT = textwrap.dedent("""
    import json, os, sys
    from sqlalchemy import event, func, select
    from sqlalchemy.orm import Session
    from scorekeeper import create_app
    from scorekeeper.files import transfer
    from scorekeeper.files.gamefile import read_document
    from scorekeeper.store.models import Game, db

    url, path = sys.argv[1], sys.argv[2]
    app = create_app({"TESTING": True, "SECRET_KEY": "crash", "SQLALCHEMY_DATABASE_URI": url,
                      "CHECK_SCHEMA": False, "RATELIMIT_ENABLED": False})

    @event.listens_for(Session, "after_commit")
    def crash(session):
        with db.engine.connect() as connection:
            if connection.scalar(select(func.count(Game.id))):
                os._exit(3)  # killed: nothing after this commit runs

    with app.app_context():
        with open(path, encoding="utf-8") as file:
            transfer.import_files(read_document(json.load(file)))
    sys.exit(0)
""")


def test_an_import_killed_after_its_first_commit_is_whole_and_a_second_import_adds_nothing(tmp_path):
    docs = random_docs(12, seed=13)
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(backup_document(docs)), encoding="utf-8")
    app = make_app(tmp_path, "crash.sqlite")
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    close(app)
    killed = subprocess.run([sys.executable, "-c", CRASHING_IMPORT, url, str(path)], capture_output=True,
                            text=True, timeout=120)
    assert killed.returncode == 3, killed.stderr  # it did die after a commit that stored games
    try:
        with app.app_context():
            stored = db.session.scalar(select(func.count(Game.id)))
            unmarked = db.session.scalar(select(func.count(Game.id)).where(Game.fingerprint.is_(None)))
            assert (stored, unmarked) == (len(docs), 0)  # everything, each with its fingerprint
            again = transfer.import_files(read_document(backup_document(docs)))
            assert {o.status for o in again} == {transfer.EXISTING}
            assert db.session.scalar(select(func.count(Game.id))) == len(docs)
    finally:
        close(app)
