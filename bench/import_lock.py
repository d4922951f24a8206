"""How long an import holds SQLite's write lock: a backup of GAMES games, imported into an
empty database and then again (every game already there), through the upload page.

    .venv/bin/python -m bench.import_lock [GAMES]

Prints the backup's size, each request's time and the longest time any write held the lock
(timed from a write transaction's BEGIN IMMEDIATE, which takes it, to its end).
"""

from __future__ import annotations

import hashlib
import io
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.files import transfer
from scorekeeper.store import database
from scorekeeper.store.models import db

from bench import seed

KEY = "bench-club-key"


def make(folder: Path, name: str):
    app = create_app({
        "TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / name}",
        "USE_CDN": False, "CHECK_SCHEMA": False, "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False,
        "CLUB_KEY_HASH": hashlib.sha256(KEY.encode()).hexdigest(),
    })
    with app.app_context():
        db.create_all()
    return app


def main(games: int) -> None:
    held: list[float] = []
    opened: dict[int, float] = {}

    def on_begin(conn) -> None:  # after database's own listener has sent BEGIN IMMEDIATE
        if database.in_writing():
            opened[id(conn)] = time.perf_counter()

    def on_end(conn) -> None:
        start = opened.pop(id(conn), None)
        if start is not None:
            held.append(time.perf_counter() - start)

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        source = make(folder, "source.sqlite")
        with source.app_context():
            seed.seed(games, 0)
            body = transfer.as_json(transfer.backup()).encode()
        print(f"backup of {games} games: {len(body) / 1e6:.2f} MB")
        target = make(folder, "target.sqlite")
        with target.app_context():
            engine = db.engine
        event.listen(engine, "begin", on_begin)
        event.listen(engine, "commit", on_end)
        event.listen(engine, "rollback", on_end)
        client = target.test_client()
        with client.session_transaction() as sess:
            sess["club_key"] = KEY  # the keeper's browser (scorekeeper.web.clubkey)
        for label in ("into an empty database", "again (all already there)"):
            held.clear()
            began = time.perf_counter()
            response = client.post("/import", data={"file": (io.BytesIO(body), "backup.json")},
                                   content_type="multipart/form-data")
            took = time.perf_counter() - began
            print(f"import {label}: HTTP {response.status_code}, {took:.2f} s in all, "
                  f"lock held {max(held, default=0):.3f} s at most ({len(held)} writes)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 560)
