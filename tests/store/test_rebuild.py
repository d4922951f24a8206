"""``flask games rebuild`` in the store (``store.rebuild``): a summary that differs from its
facts is reported, and mended unless only checked; no game's version moves."""

from __future__ import annotations

from factories import a_round, start_game, version_of
from sqlalchemy import update

from scorekeeper import store
from scorekeeper.store.models import GameSummary, db


def test_a_summary_that_differs_is_reported_then_mended_without_moving_the_version(app):
    with app.app_context():
        game_id = start_game()
        store.record_round(game_id, 1, a_round("Ann", {"Ben": "K", "Cat": "5"}))
        db.session.execute(update(GameSummary).where(GameSummary.game_id == game_id).values(rounds=7))
        db.session.commit()
        assert len(store.rebuild_summaries(check=True)) == 1
        assert len(store.rebuild_summaries(check=True)) == 1, "a check changes nothing"
        assert len(store.rebuild_summaries()) == 1
        assert store.rebuild_summaries() == []
        assert version_of(game_id) == 2
