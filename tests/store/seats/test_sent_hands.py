"""Hands sent from the players' phones (``store.seats.sent_hands``): kept for the round being
played only, not facts (the game's version stays), and forgotten once the round is saved."""

from __future__ import annotations

import pytest
from factories import a_round, start_game, version_of

from scorekeeper import store
from scorekeeper.rules import RoundError


def test_a_hand_sent_is_kept_for_its_seat_without_moving_the_version(app):
    with app.app_context():
        game_id = start_game()
        sent = store.send_hand(game_id, 1, "Ben", a_round("", {"Ben": "K 5"}))
        assert store.sent_hands(game_id, 1) == {1: sent} and sent.cards == "K 5"
        assert version_of(game_id) == 1
        tag = store.sent_tag(game_id)
        again = store.send_hand(game_id, 1, "Ben", a_round("", {"Ben": "5 K"}))  # the same hand
        assert again == sent and store.sent_tag(game_id) == tag


def test_only_the_round_being_played_takes_a_hand(app):
    with app.app_context():
        game_id = start_game()
        with pytest.raises(RoundError):
            store.send_hand(game_id, 2, "Ben", a_round("", {"Ben": "K"}))
        store.record_round(game_id, 1, a_round("Ann", {"Ben": "K", "Cat": "5"}))
        with pytest.raises(store.AlreadyRecorded):
            store.send_hand(game_id, 1, "Ben", a_round("", {"Ben": "K"}))
        assert store.next_round_number(game_id) == 2


def test_saving_the_round_forgets_the_hands_sent_for_it(app):
    with app.app_context():
        game_id = start_game()
        store.make_seat_keys(game_id)  # a table with seat links: the save forgets what was sent
        store.send_hand(game_id, 1, "Ben", a_round("", {"Ben": "K"}))
        store.record_round(game_id, 1, a_round("Ann", {"Ben": "K", "Cat": "5"}))
        assert store.sent_hands(game_id, 1) == {}
