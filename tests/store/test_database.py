"""``store.database.writing``: a change starts its write transaction from the request's state."""

from __future__ import annotations

from scorekeeper import store
from scorekeeper.rules import BALMORAL, GameSetup, RoundRecord
from scorekeeper.store.models import Player, db


def test_what_the_request_changed_before_a_write_goes_with_it_on_either_database(app):
    """On SQLite the read transaction is committed before the write; on PostgreSQL it goes on
    into the write: either way an object changed in the request before is not lost."""
    with app.app_context():
        game, _ = store.create_game(GameSetup.create(BALMORAL, ["Ann", "Ben"], first_dealer="Ann"))
        game_id = game.id
    with app.app_context():
        loaded = store.load(game_id)
        ann = db.session.scalar(db.select(Player).where(Player.name == "Ann"))
        ann_id, ann.name = ann.id, "Annie"
        store.record_round(game_id, 1, RoundRecord.create("Ben", {"Ann": "K"}), loaded)
    with app.app_context():
        assert db.session.scalar(db.select(Player.name).where(Player.id == ann_id)) == "Annie"
