"""A game's rows into the engine (``store.replays``): the state worked out from the game's own
copy of its rules, and a game the engine cannot work out is read, never changed."""

from __future__ import annotations

import pytest
from factories import a_round, start_game
from sqlalchemy import update

from scorekeeper import store
from scorekeeper.rules import CLASSIC
from scorekeeper.store.models import Game, db


def test_a_game_is_worked_out_from_its_own_copy_of_its_rules(app):
    with app.app_context():
        game_id = start_game(rules=CLASSIC)
        store.record_round(game_id, 1, a_round("Ann", {"Ben": "K", "Cat": "5"}))
        loaded = store.load(game_id)
        assert store.rules_of(loaded.game) == loaded.state.rules == CLASSIC
        assert [seat.name for seat in loaded.seats] == ["Ann", "Ben", "Cat"]
        assert [p.total for p in loaded.state.players] == [0, 10, 5]


def test_a_game_the_engine_cannot_work_out_is_read_with_its_reason_and_changed_by_nothing(app):
    with app.app_context():
        game_id = start_game()
        db.session.execute(update(Game).where(Game.id == game_id).values(rules_document="not a document"))
        db.session.commit()
        read = store.load_game(game_id)
        assert read.state is None and read.problem
        with pytest.raises(store.BrokenGame):
            store.load(game_id)
        with pytest.raises(store.BrokenGame):
            store.record_round(game_id, 1, a_round("Ann", {"Ben": "K", "Cat": "5"}))
        assert [g.problem is not None for g in store.every_game()] == [True]
