"""A player's page reads their stored sums: the work of its queries does not grow with the
player's games."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from conftest import ON_POSTGRES
from history_games import random_docs
from sqlalchemy import event, select
from sqlalchemy.orm import Session

from scorekeeper.club import history
from scorekeeper.files import transfer
from scorekeeper.files.gamefile import backup_document, read_document
from scorekeeper.rules import CLASSIC
from scorekeeper.store.models import Player, db
from scorekeeper.web.charts import RATING_POINTS


def steps(player_id: int) -> list[int]:
    """For each query of the player's statistics, in order, the steps SQLite's engine took to
    answer it (its rows read included)."""
    counted: list[int] = []
    raw = db.session.connection().connection.dbapi_connection

    def step() -> int:
        counted[-1] += 1
        return 0

    def count(state):
        counted.append(0)
        raw.set_progress_handler(step, 1)
        try:
            return state.invoke_statement().freeze()()
        finally:
            raw.set_progress_handler(None, 1)

    event.listen(Session, "do_orm_execute", count)
    try:
        history.player_stats(player_id)
    finally:
        event.remove(Session, "do_orm_execute", count)
    return counted


@pytest.mark.skipif(ON_POSTGRES, reason="counts SQLite's own steps; the SQLite pass runs it")
def test_a_player_with_200_games_costs_what_one_with_10_does(app):
    with app.app_context():
        start = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)
        docs = (random_docs(10, seed=5, start_at=start, rules=CLASSIC, players=["Ann", "Ben", "Cat"])
                + random_docs(200, seed=6, start_at=start, rules=CLASSIC, players=["Dev", "Ben", "Cat"]))
        transfer.import_files(read_document(backup_document(docs)))
        ann, dev = (db.session.scalar(select(Player.id).where(Player.name == name)) for name in ("Ann", "Dev"))
        assert history.player_stats(dev).overall.played == 200
        few, many = steps(ann), steps(dev)
        # The same queries, each reading the same rows: a step or two apart as their values
        # fall (a best total there or not), where adding up every game took twenty times more.
        assert len(few) == len(many)
        assert all(abs(a - b) <= 2 for a, b in zip(few, many, strict=True)), (few, many)


def rows_handed_back(call) -> list[int]:
    """For each query ``call`` makes, how many rows the database hands back to Python."""
    counted: list[int] = []

    def count(state):
        frozen = state.invoke_statement().freeze()
        counted.append(len(frozen.data))
        return frozen()

    event.listen(Session, "do_orm_execute", count)
    try:
        call()
    finally:
        event.remove(Session, "do_orm_execute", count)
    return counted


def test_a_players_rating_path_hands_back_a_bounded_number_of_rows_whatever_their_games(app):
    with app.app_context():
        start = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)
        docs = (random_docs(10, seed=5, start_at=start, rules=CLASSIC, players=["Ann", "Ben", "Cat"])
                + random_docs(3 * RATING_POINTS, seed=6, start_at=start, rules=CLASSIC, players=["Dev", "Ben", "Cat"]))
        transfer.import_files(read_document(backup_document(docs)))
        ann, dev = (db.session.scalar(select(Player.id).where(Player.name == name)) for name in ("Ann", "Dev"))
        assert history.rating_path(dev, RATING_POINTS).games == 3 * RATING_POINTS
        # Two queries each: the player's first and last rows (the start; how many games, the
        # best and the lowest), then the points: every one of Ann's short line; of Dev's long
        # one, no more than a chart draws, where it handed back a row for every game.
        assert rows_handed_back(lambda: history.rating_path(ann, RATING_POINTS)) == [2, 10]
        ends, many = rows_handed_back(lambda: history.rating_path(dev, RATING_POINTS))
        assert ends == 2 and RATING_POINTS - 10 <= many <= RATING_POINTS
