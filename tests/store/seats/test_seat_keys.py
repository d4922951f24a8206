"""Seat links (``store.seats.seat_keys``): a key for each seat, only its hash kept; new ones
revoke the old, and the game's pages hear of them."""

from __future__ import annotations

import pytest
from factories import start_game, version_of

from scorekeeper import store


def test_each_key_opens_its_own_seat_and_new_keys_revoke_the_old(app):
    with app.app_context():
        game_id = start_game()
        old = store.make_seat_keys(game_id)
        assert [store.seat_of(game_id, key) for key in old] == [(0, "Ann"), (1, "Ben"), (2, "Cat")]
        new = store.make_seat_keys(game_id)
        assert all(store.seat_of(game_id, key) is None for key in old)
        assert store.seat_of(game_id, new[1]) == store.HeldSeat(1, "Ben")
        assert store.load(game_id).seat_links
        # The round screen reads whether the game has seat links: each making is a change.
        assert version_of(game_id) == 3


def test_no_key_opens_a_seat_of_another_game_and_no_game_no_keys(app):
    with app.app_context():
        first, other = start_game(), start_game()
        keys = store.make_seat_keys(first)
        assert store.seat_of(other, keys[0]) is None
        assert store.seat_of(first, None) is None and store.seat_of(first, "x" * 201) is None
        with pytest.raises(store.NotFound):
            store.make_seat_keys(999)
