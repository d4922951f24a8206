"""Games (``store.games``): started with their summary, and the bin: each step in or out of it
is a change to the game (its version moves), purging takes only what is in the bin."""

from __future__ import annotations

import pytest
from factories import a_round, start_game, version_of
from sqlalchemy import event

from scorekeeper import store
from scorekeeper.store.models import GameSummary, db
from scorekeeper.store.rebuild import rebuild


def test_a_new_game_starts_at_its_first_version_with_its_summary_written(app):
    with app.app_context():
        game_id = start_game()
        assert version_of(game_id) == 1
        assert db.session.get(GameSummary, game_id).next_round == 1
        assert rebuild(fix=False) == []


def test_into_the_bin_and_back_each_move_the_version_once(app):
    with app.app_context():
        game_id = start_game()
        store.delete_game(game_id)
        assert version_of(game_id) == 2 and store.peek(game_id).deleted_at is not None
        store.delete_game(game_id)  # already there: nothing changes
        assert version_of(game_id) == 2
        store.restore_game(game_id)
        assert version_of(game_id) == 3 and store.peek(game_id).deleted_at is None
        store.restore_game(game_id)
        assert version_of(game_id) == 3


def test_a_game_in_the_bin_takes_no_round_until_it_is_restored(app):
    with app.app_context():
        game_id = start_game()
        store.delete_game(game_id)
        with pytest.raises(store.InBin):
            store.record_round(game_id, 1, a_round("Ann", {"Ben": "K", "Cat": "5"}))
        assert version_of(game_id) == 2 and store.load(game_id).state.played == 0


def test_only_a_game_in_the_bin_is_purged_and_every_game_is_in_the_backup_until_then(app):
    with app.app_context():
        kept, binned = start_game(), start_game()
        with pytest.raises(store.NotInBin):
            store.purge_game(kept)
        store.delete_game(binned)
        assert [g.id for g in store.every_game()] == [kept, binned]
        store.purge_game(binned)
        assert store.peek(binned) is None and [g.id for g in store.every_game()] == [kept]
        with pytest.raises(store.NotFound):
            store.load(binned)


def test_the_version_reader_makes_its_connections_and_first_reads_ahead(app):
    """A fresh server's first polls find their connections made and the game table read once on
    each (on PostgreSQL each of those cost a poll a few milliseconds): three polls at once after
    ``open(3)`` make no connection."""
    with app.app_context():
        version = store.VersionReader()
    made, sent = [], []

    def connected(driver, _record):
        made.append(driver)
        if version.engine.dialect.name == "sqlite":
            driver.set_trace_callback(sent.append)

    event.listen(version.engine.pool, "connect", connected)
    try:
        version.open(3)
        assert len(made) == 3 or version.engine.dialect.name == "sqlite"  # SQLite's pool may hold the app's
        if version.engine.dialect.name == "sqlite":
            assert len([s for s in sent if s.startswith("SELECT game.version")]) == len(made)
        made.clear()
        held = [version.engine.raw_connection() for _ in range(3)]
        for connection in held:
            connection.close()
        assert made == []
    finally:
        event.remove(version.engine.pool, "connect", connected)
        version.close()


def test_a_database_away_when_the_server_starts_is_no_error(app, monkeypatch):
    with app.app_context():
        version = store.VersionReader()

    def away():
        raise version.failures[-1]("connection refused")

    monkeypatch.setattr(version.engine, "raw_connection", away)
    version.open(2)  # nothing made, nothing raised: the polls connect once it answers
    assert version(1) is None
