"""A game's edit key (``store.access``): only its hash is kept, a new one revokes the old, and
the store is asked about a key, never about a request."""

from __future__ import annotations

from factories import start_game, version_of

from scorekeeper import store
from scorekeeper.rules import BALMORAL, GameSetup

SETUP = GameSetup.create(BALMORAL, ["Ann", "Ben", "Cat"], first_dealer="Ann")


def test_a_new_edit_key_revokes_the_old_one_and_moves_the_version(app):
    with app.app_context():
        game, old = store.create_game(SETUP)
        assert store.key_matches(store.get_game(game.id), old)
        new = store.reissue_key(game.id)
        row = store.get_game(game.id)
        assert store.key_matches(row, new) and not store.key_matches(row, old)
        assert version_of(game.id) == 2  # the pages the old key opened are no longer the keeper's
        assert new not in (row.edit_key_hash or "")  # only its hash is kept


def test_no_key_an_empty_one_or_an_overlong_one_opens_a_game(app):
    with app.app_context():
        row = store.get_game(start_game())
        assert not any(store.key_matches(row, key) for key in (None, "", "x" * 201, "not the key"))


def test_the_games_a_browser_keeps_are_those_its_keys_still_open(app):
    with app.app_context():
        (kept, key_kept), (revoked, key_revoked) = store.create_game(SETUP), store.create_game(SETUP)
        store.reissue_key(revoked.id)
        held = {str(kept.id): key_kept, str(revoked.id): key_revoked, "x1": "junk", "999": "no such game"}
        assert store.games_opened_by(held) == [kept.id]
        assert store.games_opened_by({}) == []
