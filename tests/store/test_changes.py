"""The end of every change (``store.changes``): the version moves on once, the summaries and
ratings are written from the facts, and all of it is committed with the facts or none of it."""

from __future__ import annotations

import pytest
from factories import a_round, start_game, version_of
from sqlalchemy import inspect, select

from scorekeeper import store
from scorekeeper.rules import advance
from scorekeeper.store.changes import finish_game, finish_games
from scorekeeper.store.database import writing
from scorekeeper.store.figures import rating_summaries
from scorekeeper.store.models import Game, GameSummary, Seat, db
from scorekeeper.store.rebuild import rebuild


def summary(game_id: int) -> GameSummary:
    return db.session.get(GameSummary, game_id, populate_existing=True)


def test_a_change_to_one_game_moves_its_version_once_and_writes_its_summary_from_the_state(app):
    with app.app_context():
        game_id = start_game()
        loaded = store.load(game_id)
        after = advance(loaded.state, a_round("Ann", {"Ben": "K", "Cat": "5"}))
        with writing():
            game = db.session.get(Game, game_id)
            finish_game(game, after, [seat.player_id for seat in loaded.seats])
        assert version_of(game_id) == 2
        # The summary says what the state said, though no round was stored: the end of a change writes
        # what it is handed, and the change hands it the state its facts make.
        assert summary(game_id).rounds == 1 and summary(game_id).next_round == 2


def test_the_summary_and_the_version_go_with_the_facts_or_not_at_all(app, monkeypatch):
    with app.app_context():
        game_id = start_game()
        store.record_round(game_id, 1, a_round("Ann", {"Ben": "K", "Cat": "5"}))

        def broken(game_ids, session=None):
            raise RuntimeError("the ratings could not be written")

        monkeypatch.setattr(rating_summaries, "refresh", broken)
        with pytest.raises(RuntimeError):
            store.replace_round(game_id, 1, a_round("Ben", {"Ann": "K", "Cat": "5"}))
        # Nothing of the correction is kept: its hands, its summary and its version alike.
        assert version_of(game_id) == 2
        assert store.load(game_id).state.rounds[0].record.went_out == "Ann"
        assert rebuild(fix=False) == []


def test_a_change_whose_own_write_moved_the_version_is_not_counted_twice(app):
    with app.app_context():
        game_id = start_game()
        with writing():
            game = db.session.get(Game, game_id)
            finish_game(game, moved=True, keep=True)
        assert version_of(game_id) == 1
        # Kept: the row is handed back as the change left it, not expired by the commit.
        assert inspect(game).detached and game.version == 1


def test_a_change_to_many_games_moves_each_of_them_once(app):
    with app.app_context():
        first, second, other = start_game(), start_game(), start_game(("Dan", "Eve"))
        ann = store.find_player("Ann").id
        with writing():
            finish_games(select(Seat.game_id).where(Seat.player_id == ann))
        assert [version_of(g) for g in (first, second, other)] == [2, 2, 1]
        with writing():
            finish_games([])  # nothing changed: nothing moves
        assert [version_of(g) for g in (first, second, other)] == [2, 2, 1]
