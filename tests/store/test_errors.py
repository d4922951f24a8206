"""The store's refusals (``store.errors``): what the database's own failures mean, and what each
refusal carries for the one who catches it.

``is_disk_full`` and ``is_database_away`` are shown the errors the database drivers really raise:
a SQLite file held to its size (``PRAGMA max_page_count``) refuses a write as on a full disk; a
connection is refused where no PostgreSQL server listens; a PostgreSQL server ends a connection as
it does when it shuts down (on PostgreSQL only); a SQLite file stays locked by another writer past
the wait. Any other failure (a SQLite file not there, a statement the database does not
understand, a key broken) is neither: the page says it as a fault, not as "try again".
"""

from __future__ import annotations

import socket
import sqlite3
from datetime import date

import pytest
from conftest import ON_POSTGRES, TEST_DATABASE_URL, close, make_app
from factories import a_round, import_docs, start_game
from history_games import random_docs
from sqlalchemy import create_engine, event, func, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from scorekeeper import store
from scorekeeper.store.errors import is_database_away, is_disk_full
from scorekeeper.store.models import Game, Player, db

ROUND_1 = a_round("Ann", {"Ben": "K 5", "Cat": "5"})


# ----------------------------------------------------------------- a full disk


def test_a_write_that_finds_the_disk_full_is_refused_whole_and_said_to_be_so(tmp_path):
    """A SQLite file allowed no page more than it has refuses the next write that needs one, as
    on a full disk ("database or disk is full"). The import is refused whole, its error is a full
    disk, and the player saved before it is kept. (A SQLite file on the PostgreSQL pass too: the
    error of SQLite's driver is what is tested.)"""
    small = make_app(tmp_path, SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'small.sqlite'}")
    try:
        with small.app_context():
            store.add_player("Ann")
            pages = db.session.scalar(text("PRAGMA page_count"))
            db.session.remove()
            db.engine.dispose()  # the limit is set on each connection as it is made

            @event.listens_for(db.engine, "connect")
            def no_page_more(connection, _record):
                connection.execute(f"PRAGMA max_page_count = {pages}")

            with pytest.raises(store.DatabaseRefused) as refused:
                import_docs(random_docs(20, seed=1))
            assert refused.value.orig.sqlite_errorcode == sqlite3.SQLITE_FULL
            assert is_disk_full(refused.value) and not is_database_away(refused.value)
            assert db.session.scalar(select(func.count()).select_from(Game)) == 0
            assert [p.name for p in store.roster()] == ["Ann"]
    finally:
        close(small)


# ----------------------------------------------------------- a database away for a moment


def test_a_connection_refused_where_the_server_should_listen_is_the_database_away():
    """While PostgreSQL restarts, nothing listens on its port. A socket bound and not listening
    refuses every connection, as the server's machine does then."""
    with socket.socket() as not_listening:
        not_listening.bind(("127.0.0.1", 0))
        port = not_listening.getsockname()[1]
        engine = create_engine(f"postgresql+psycopg://scorekeeper@127.0.0.1:{port}/scorekeeper")
        try:
            with pytest.raises(store.DatabaseRefused) as refused:
                engine.connect()
        finally:
            engine.dispose()
    assert "Connection refused" in str(refused.value.orig)
    assert is_database_away(refused.value) and not is_disk_full(refused.value)


@pytest.mark.skipif(not ON_POSTGRES, reason="needs a PostgreSQL server; the PostgreSQL pass runs it")
def test_a_connection_the_server_ends_is_the_database_away():
    """A PostgreSQL server shutting down ends every connection ("terminating connection due to
    administrator command", 57P01); a connection ended from another one is told the same."""
    engine = create_engine(TEST_DATABASE_URL)
    try:
        with engine.connect() as ended, engine.connect() as other:
            backend = ended.scalar(text("SELECT pg_backend_pid()"))
            other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": backend})
            with pytest.raises(store.DatabaseRefused) as refused:
                ended.execute(text("SELECT 1"))
    finally:
        engine.dispose()
    assert refused.value.orig.sqlstate == "57P01"
    assert is_database_away(refused.value) and not is_disk_full(refused.value)


# ----------------------------------------------------------------- any other failure


def test_a_sqlite_file_locked_past_the_wait_is_busy_for_a_moment_and_one_not_there_a_fault(tmp_path):
    """A file still locked by another writer when the wait is over (a backup, a rebuild of every
    game) is free again soon: the phone is told to try again, as while a server restarts. A file
    that cannot be opened is a fault to look into, and neither."""
    writer = sqlite3.connect(tmp_path / "busy.sqlite", isolation_level=None)
    busy = create_engine(f"sqlite:///{tmp_path / 'busy.sqlite'}", connect_args={"timeout": 0})
    gone = create_engine(f"sqlite:///{tmp_path / 'gone' / 'club.sqlite'}")  # its folder removed
    try:
        writer.execute("CREATE TABLE note (words TEXT)")
        writer.execute("BEGIN IMMEDIATE")
        with pytest.raises(OperationalError) as locked, busy.begin() as connection:
            connection.execute(text("INSERT INTO note VALUES ('kept')"))
        with pytest.raises(OperationalError) as unopened:
            gone.connect()
    finally:
        busy.dispose()
        gone.dispose()
        writer.close()
    assert locked.value.orig.sqlite_errorcode == sqlite3.SQLITE_BUSY
    assert is_database_away(locked.value) and not is_disk_full(locked.value)
    assert unopened.value.orig.sqlite_errorcode == sqlite3.SQLITE_CANTOPEN
    assert not is_disk_full(unopened.value) and not is_database_away(unopened.value)


def test_a_bad_statement_a_broken_key_or_an_error_of_no_database_is_neither(app):
    with app.app_context():
        store.add_player("Ann")
        with pytest.raises(DBAPIError) as bad:  # SQLite says OperationalError, PostgreSQL ProgrammingError
            db.session.execute(text("SELEC name FROM player"))
        db.session.rollback()
        db.session.add(Player(name="Ann", name_key="ann"))
        with pytest.raises(IntegrityError) as twice:
            db.session.flush()
        db.session.rollback()
    # The words of a full disk in an error that is not the database's do not make it one.
    for error in (bad.value, twice.value, ValueError("database or disk is full"),
                  OSError(28, "No space left on device")):
        assert not is_disk_full(error) and not is_database_away(error), error


# ----------------------------------------------------------------- what a refusal carries


def test_a_name_taken_is_refused_in_words_with_the_name_as_the_roster_spells_it(app):
    """A page says a refusal in the reader's language from its words and their blanks (``said``)."""
    with app.app_context():
        store.add_player("Ann")
        with pytest.raises(store.PlayerNameError) as taken:
            store.add_player("  ANN ")
        with pytest.raises(store.PlayerNameError) as empty:
            store.add_player("   ")
    said = taken.value.said
    assert (said.template, said.values) == ('"{name}" is already on the roster', {"name": "Ann"})
    assert str(taken.value) == str(said) == '"Ann" is already on the roster'
    # A name the rules refuse carries the engine's words.
    assert empty.value.said is not None and str(empty.value) == str(empty.value.said)


def test_a_night_refusal_carries_its_words_with_their_blanks(app):
    with app.app_context():
        night, _key = store.open_night("balmoral", date(2026, 12, 3))
        store.close_night(night.id)
        with pytest.raises(store.NightRefused) as closed:
            store.check_in(night.id, ["Ann"])
    said = closed.value.said
    assert said.values == {"date": "2026-12-03"} and "{date}" in said.template
    assert str(closed.value) == str(said)


def test_a_change_on_an_old_version_carries_the_game_as_it_is_now(app):
    """The phone is answered with the game as another phone left it (a 412 with the game, or the
    scoreboard as it is), and told which version it had."""
    with app.app_context():
        game_id = start_game()
        store.record_round(game_id, 1, ROUND_1)
        with pytest.raises(store.Conflict) as conflict:
            store.replace_round(game_id, 1, a_round("Ben", {"Ann": "K", "Cat": "5"}), expected_version=1)
        assert conflict.value.expected == 1
        assert conflict.value.loaded.game.version == 2 and conflict.value.loaded.state.played == 1
    assert "version 2, you had version 1" in str(conflict.value) and "nothing was saved" in str(conflict.value)


def test_a_round_already_recorded_and_a_game_in_the_bin_say_which(app):
    with app.app_context():
        game_id = start_game()
        store.record_round(game_id, 1, ROUND_1)
        with pytest.raises(store.AlreadyRecorded) as recorded:
            store.record_round(game_id, 1, ROUND_1)
        store.delete_game(game_id)
        with pytest.raises(store.InBin) as binned:
            store.record_round(game_id, 2, a_round("Ben", {"Ann": "K", "Cat": "5"}))
    assert recorded.value.number == 1 and str(recorded.value) == "Round 1 is already recorded"
    assert binned.value.game_id == game_id and f"game {game_id} is in the bin" in str(binned.value)
