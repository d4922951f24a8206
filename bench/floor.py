"""The floor: a bare Flask app on the same database, served the same way as Scorekeeper.

Each route: one primary-key query, one small template. No page of ours can be faster than
this, so every figure in the benchmark is also given as a ratio to it. `make bench` drives the
board (``/games/ID``) with wrk; the table load model (bench/table_load.py) sends every path a
table's phones send: the watch poll (204 while the version it names is the game's), the round
screen and its post (the post's one query moves the game's version on, so the table's polls
then get the board, as Scorekeeper's do), the history and a player's page, and a club night's
big screen and its poll (204 while the tag it names is the night's: a round, which moves no
night row on here, leaves it 204; its fragment is as small a template as the 204 is cheap).

FLOOR_DATABASE names the database: a SQLite file's path, or a PostgreSQL connection URL
(``postgresql://...``), which is read with psycopg directly.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from flask import Flask, abort, render_template, request

from scorekeeper import serving

app = Flask(__name__, template_folder=str(Path(__file__).parent / "floor_templates"))
# Served as Scorekeeper is: `flask --app bench.floor:app serve`; as under the bench (run.app_env),
# with no cap of sockets by address: the load model's phones all come from loopback.
app.config["CONNECTIONS_PER_ADDRESS"] = 0
serving.register(app)
_local = threading.local()
#: The queries, in each driver's placeholder style.
_QUERY = "SELECT id, rules, version, started_at FROM game WHERE id = {}"
_MOVE_ON = "UPDATE game SET version = version + 1 WHERE id = {} RETURNING id, rules, version, started_at"
_PLAYER = "SELECT id, name FROM player WHERE id = {}"
_NIGHT = "SELECT id, rules, held_on, closed_at FROM night WHERE id = {}"


def _connect():
    target = os.environ["FLOOR_DATABASE"]
    if target.startswith("postgresql://"):
        import psycopg

        # Autocommit: a read is one round trip, and no transaction stays open between requests.
        return psycopg.connect(target, autocommit=True), "%s"
    import sqlite3

    # Autocommit too: the round's one UPDATE is its own transaction.
    connection = sqlite3.connect(target, check_same_thread=False, isolation_level=None)
    connection.execute("PRAGMA busy_timeout=15000")
    return connection, "?"


def _db():
    if getattr(_local, "connection", None) is None:  # one connection per server thread, as a pool gives
        _local.connection = _connect()
    return _local.connection


def _row(query: str, key: int) -> tuple:
    connection, placeholder = _db()
    # Every row fetched: a statement read to its end is done (SQLite's UPDATE commits then).
    rows = connection.execute(query.format(placeholder), (key,)).fetchall()
    if not rows:
        abort(404)
    return rows[0]


def _board(row: tuple, template: str = "floor.html"):
    return render_template(template, id=row[0], rules=row[1], version=row[2], started_at=row[3])


@app.get("/games/<int:game_id>")
def game(game_id: int):
    return _board(_row(_QUERY, game_id))


@app.get("/games/<int:game_id>/live")
def live(game_id: int):
    row = _row(_QUERY, game_id)
    if request.args.get("v", type=int) == row[2]:
        return "", 204
    return _board(row, "floor_live.html")


@app.route("/games/<int:game_id>/rounds/new", methods=["GET", "POST"])
def new_round(game_id: int):
    if request.method == "POST":
        return _board(_row(_MOVE_ON, game_id))
    return _board(_row(_QUERY, game_id), "floor_form.html")


@app.get("/history")
def history():
    return _board(_row(_QUERY, request.args.get("page", 1, type=int)))


@app.get("/players/<int:player_id>")
def player(player_id: int):
    row = _row(_PLAYER, player_id)
    return render_template("floor.html", id=row[0], rules=row[1], version="", started_at="")


def _screen(row: tuple, template: str = "floor_screen.html"):
    return render_template(template, id=row[0], rules=row[1], held_on=row[2], tag=_tag(row))


def _tag(row: tuple) -> str:
    return f"n{row[0]}-{'closed' if row[3] else 'open'}"


@app.get("/nights/<int:night_id>/screen")
def screen(night_id: int):
    return _screen(_row(_NIGHT, night_id))


@app.get("/nights/<int:night_id>/screen/live")
def screen_live(night_id: int):
    row = _row(_NIGHT, night_id)
    if request.args.get("v") == _tag(row):
        return "", 204
    return _screen(row, "floor_screen_live.html")
