"""Games read from files, stored (``store.imports``): one transaction, never a game twice, and a
game brought back from the bin by an import is a change to it."""

from __future__ import annotations

import pytest
from factories import counted, version_of
from history_games import G1, G2, random_docs

from scorekeeper import store
from scorekeeper.files.gamefile import backup_document, read_document
from scorekeeper.files.transfer import fingerprint, stored_fingerprint
from scorekeeper.files import transfer
from scorekeeper.store import database, imports
from scorekeeper.store.rebuild import rebuild


def imported(files, keys=None) -> list[store.Outcome]:
    return store.import_files(files, [fingerprint(gf) for gf in files], stored_fingerprint, keys)


def test_new_games_are_stored_with_their_keys_and_summaries_and_a_repeat_once(app):
    with app.app_context():
        files = read_document(G1) + read_document(G2) + read_document(G1)
        keys: list[str] = []
        outcomes = imported(files, keys)
        assert [o.status for o in outcomes] == [store.NEW, store.NEW, store.REPEATED]
        assert outcomes[2].game_id == outcomes[0].game_id and len(keys) == 2
        assert store.key_matches(store.get_game(outcomes[0].game_id), keys[0])
        assert rebuild(fix=False) == []


def test_a_game_already_here_is_not_stored_again(app):
    with app.app_context():
        (first,) = imported(read_document(G1))
        (again,) = imported(read_document(G1))
        assert again == store.Outcome(first.game_id, store.EXISTING)
        assert version_of(first.game_id) == 1  # nothing changed


def test_a_game_in_the_bin_comes_back_and_its_version_moves(app):
    with app.app_context():
        (first,) = imported(read_document(G1))
        store.delete_game(first.game_id)
        deleted = version_of(first.game_id)
        (again,) = imported(read_document(G1))
        assert again == store.Outcome(first.game_id, store.RESTORED)
        # A phone that showed the game deleted hears of it (its poll, its ETag).
        assert version_of(first.game_id) == deleted + 1
        assert store.peek(first.game_id).deleted_at is None
        assert rebuild(fix=False) == []


def test_a_game_file_sent_as_a_new_game_is_stored_even_if_it_is_here(app):
    with app.app_context():
        (first,) = imported(read_document(G1))
        (second,) = store.import_games(read_document(G1))
        assert second != first.game_id


@pytest.mark.own_database
def test_an_import_compares_its_games_outside_the_write_lock_and_writes_once(app, monkeypatch):
    """The costly part of an import (comparing every game with the stored ones) runs before
    the write; the write itself is one transaction (bench/import_lock.py measures it)."""
    files = read_document(backup_document(random_docs(4, seed=9)))
    compared: list[bool] = []
    matches = imports._matches
    monkeypatch.setattr(imports, "_matches", lambda *a: compared.append(database._writing.get()) or matches(*a))
    with counted() as statements, app.app_context():
        first = transfer.import_files(files)
        again = transfer.import_files(files)
        on_sqlite = database.db.engine.url.get_backend_name() == "sqlite"
    assert [o.status for o in first] == ["new"] * 4 and [o.status for o in again] == ["existing"] * 4
    assert compared == [False, False]
    if on_sqlite:  # one write transaction (SQLite's write lock taken at its start) per import
        assert [s for s in statements if s.startswith("BEGIN IMMEDIATE")] == ["BEGIN IMMEDIATE"] * 2
