"""The stored summaries are always what a rebuild from the facts makes.

A property test plays random games through every kind of change the app makes (a game started,
a round recorded, corrected, removed or undone, an import, a rename, a delete, a restore, a
purge) and after each one holds every stored summary against a rebuild from the recorded rounds.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from conftest import close, examples, make_app
from history_games import NAMES, SMALL, random_doc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper import store
from scorekeeper.files import transfer
from scorekeeper.files.gamefile import backup_document, read_document
from scorekeeper.store.models import Game, Player, db
from scorekeeper.rules import BALMORAL, CLASSIC, GameSetup, RoundError, RoundRecord, advance, replay
from scorekeeper.store.rebuild import rebuild

ACTIONS = ("new", "record", "record", "record", "correct", "remove", "undo", "import", "rename", "delete",
           "restore", "purge")


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("summaries"))
    yield app
    close(app)


def lawful_round(rng: random.Random, state) -> RoundRecord | None:
    players = state.setup.players
    for _ in range(20):
        went_out = rng.choice(players)
        hands = {p: " ".join(rng.choice(SMALL) for _ in range(rng.randint(0, 4))) for p in players if p != went_out}
        counted = {p: rng.choice([0, 5, 40]) for p in list(hands) if rng.random() < 0.1}
        for p in counted:
            del hands[p]
        achieved = [p for p in players if rng.random() < 0.4] if state.rules is BALMORAL else []
        record = RoundRecord.create(went_out, hands, counted, achieved)
        try:
            advance(state, record)
        except RoundError:
            continue
        return record
    return None


def play(rng: random.Random, action: str) -> None:
    """One change of the kind named, to a game (or player) picked at random; refusals are fine."""
    games = list(db.session.scalars(select(Game.id).order_by(Game.id)))
    game_id = rng.choice(games) if games else None
    if action == "new" or game_id is None:
        rules = rng.choice([BALMORAL, CLASSIC])
        players = rng.sample(NAMES, rng.randint(max(rules.min_players, 2), 5))
        store.create_game(GameSetup.create(rules, players, first_dealer=rng.choice(players)))
        return
    if action == "import":
        when = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(minutes=rng.randint(0, 10**6))
        transfer.import_files(read_document(backup_document([random_doc(rng, when)])))
        return
    if action == "rename":
        roster = list(db.session.scalars(select(Player)))
        player = rng.choice(roster)
        taken = {other.name.casefold() for other in roster}
        base = name = player.name.rstrip("0123456789")
        while name.casefold() in taken:  # a name on the roster already would be refused
            name = f"{base}{rng.randint(0, 10**6)}"
        store.rename_player(player.id, name)
        return
    if action == "delete":
        store.delete_game(game_id)
        return
    if action == "restore":
        store.restore_game(game_id)
        return
    if action == "purge":
        try:
            store.purge_game(game_id)
        except store.NotInBin:
            pass
        return
    state = store.load(game_id).state
    numbers = len(state.rounds)
    try:
        if action == "record" and not state.finished:
            record = lawful_round(rng, state)
            if record is not None:
                store.record_round(game_id, numbers + 1, record)
        elif action == "correct" and numbers:
            number = rng.randint(1, numbers)
            earlier = replay(state.setup, [r.record for r in state.rounds[:number - 1]])
            record = lawful_round(rng, earlier)
            if record is not None:
                store.replace_round(game_id, number, record)
        elif action == "remove" and numbers:
            store.delete_round(game_id, rng.randint(1, numbers))
        elif action == "undo" and numbers:
            store.delete_round(game_id, numbers)
    except (RoundError, store.InBin):
        # Refused (a correction that would end the game sooner; a game in the bin): nothing stored.
        db.session.rollback()


@settings(max_examples=examples(30), deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), actions=st.lists(st.sampled_from(ACTIONS), min_size=1, max_size=14))
def test_stored_summaries_equal_a_rebuild_after_every_kind_of_change(app, seed, actions):
    rng = random.Random(seed)
    with app.app_context():
        for model in reversed(db.metadata.sorted_tables):  # each example from an empty club
            db.session.execute(model.delete())
        db.session.commit()
        for action in actions:
            play(rng, action)
            db.session.rollback()  # the check reads afresh, as another request would
            assert rebuild(fix=False) == [], action


def test_rebuild_reports_and_mends_a_summary_that_differs(app):
    with app.app_context():
        store.create_game(GameSetup.create(CLASSIC, ["Ann", "Ben", "Cat"], first_dealer="Ann"))
        game_id = db.session.scalar(select(Game.id).order_by(Game.id.desc()))
        db.session.execute(db.text("UPDATE seat_summary SET total = 99 WHERE game_id = :g AND position = 1"),
                           {"g": game_id})
        db.session.commit()
        result = app.test_cli_runner().invoke(args=["games", "rebuild", "--check"])
        assert result.exit_code == 1 and f"game {game_id}: the stored summary differed" in result.output
        assert "seat 1 total" in result.output
        result = app.test_cli_runner().invoke(args=["games", "rebuild"])
        assert result.exit_code == 1 and "1 summaries were rebuilt" in result.output
        result = app.test_cli_runner().invoke(args=["games", "rebuild"])
        assert result.exit_code == 0 and "0 summaries were rebuilt" in result.output
