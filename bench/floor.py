"""The floor: a bare Flask app on the same database, served the same way as Scorekeeper.

One route, one primary-key query, one small template. No page of ours can be faster
than this, so every figure in the benchmark is also given as a ratio to it.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from flask import Flask, abort, render_template

app = Flask(__name__, template_folder=str(Path(__file__).parent / "floor_templates"))
_connection: sqlite3.Connection | None = None


def _db() -> sqlite3.Connection:
    global _connection
    if _connection is None:  # one connection per worker process, like a pool of one
        _connection = sqlite3.connect(os.environ["FLOOR_DATABASE"], check_same_thread=False)
        _connection.execute("PRAGMA busy_timeout=15000")
    return _connection


@app.get("/games/<int:game_id>")
def game(game_id: int):
    row = _db().execute("SELECT id, rules, version, started_at FROM game WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        abort(404)
    return render_template("floor.html", id=row[0], rules=row[1], version=row[2], started_at=row[3])
