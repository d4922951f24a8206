"""The floor: a bare Flask app on the same database, served the same way as Scorekeeper.

One route, one primary-key query, one small template. No page of ours can be faster
than this, so every figure in the benchmark is also given as a ratio to it.

FLOOR_DATABASE names the database: a SQLite file's path, or a PostgreSQL connection URL
(``postgresql://...``), which is read with psycopg directly.
"""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask, abort, render_template

app = Flask(__name__, template_folder=str(Path(__file__).parent / "floor_templates"))
_connection = None
#: The one query, in each driver's placeholder style.
_QUERY = "SELECT id, rules, version, started_at FROM game WHERE id = {}"


def _connect():
    target = os.environ["FLOOR_DATABASE"]
    if target.startswith("postgresql://"):
        import psycopg

        # Autocommit: a read is one round trip, and no transaction stays open between requests.
        return psycopg.connect(target, autocommit=True), _QUERY.format("%s")
    import sqlite3

    connection = sqlite3.connect(target, check_same_thread=False)
    connection.execute("PRAGMA busy_timeout=15000")
    return connection, _QUERY.format("?")


def _db():
    global _connection
    if _connection is None:  # one connection per worker process (opened after the fork), like a pool of one
        _connection = _connect()
    return _connection


@app.get("/games/<int:game_id>")
def game(game_id: int):
    connection, query = _db()
    row = connection.execute(query, (game_id,)).fetchone()
    if row is None:
        abort(404)
    return render_template("floor.html", id=row[0], rules=row[1], version=row[2], started_at=row[3])
