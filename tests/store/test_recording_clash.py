"""Recording a round checks and scores it against the game as the caller read it (the round
screen has just loaded it to check the round), so that the game is read and replayed once: what
happens when another phone changes the game in between. The write is made only on the version
that was read; otherwise the game is read again, inside the write, and the round is checked
against the game as it now is."""

from __future__ import annotations

import pytest

from scorekeeper import store
from scorekeeper.store import rounds
from scorekeeper.store.models import Round, db
from scorekeeper.rules import BALMORAL, GameSetup, RoundRecord
from scorekeeper.store.rebuild import rebuild

PLAYERS = ["Ann", "Ben", "Cat"]


def a_round(went_out: str, hands: dict[str, str]) -> RoundRecord:
    return RoundRecord.create(went_out, hands)


@pytest.fixture
def game_id(app):
    with app.app_context():
        game, _ = store.create_game(GameSetup.create(BALMORAL, PLAYERS, first_dealer="Ann"))
        store.record_round(game.id, 1, a_round("Ann", {"Ben": "K", "Cat": "5"}))
        return game.id


def totals(loaded) -> tuple[int, ...]:
    """Each seat's total: of a game loaded, or of a round just recorded (where the game then stands)."""
    return tuple(p.total for p in loaded.state.players)


def another_phone(app, change) -> None:
    """``change`` made as another phone's request makes it: a session and a transaction of its own."""
    with app.app_context():
        change()


def reads(monkeypatch) -> list[bool]:
    """From now on, each reading of the game that recording a round makes: whether it was made
    inside the write (locked)."""
    made: list[bool] = []
    load = rounds.load

    def spied(game_id: int, lock: bool = False):
        made.append(lock)
        return load(game_id, lock)

    monkeypatch.setattr(rounds, "load", spied)
    return made


def test_a_correction_in_between_is_read_again_and_the_round_follows_it(app, game_id, monkeypatch):
    with app.app_context():
        loaded = store.load(game_id)  # as the round screen reads it, to check the round
        version = loaded.game.version
        # Another phone corrects round 1 (Ben had the ace, not the king) as round 2 is being saved.
        another_phone(app, lambda: store.replace_round(game_id, 1, a_round("Ann", {"Ben": "A", "Cat": "5"})))
        made = reads(monkeypatch)
        saved = store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "5"}), loaded)
        assert made == [True], "read a second time, inside the write, after the other phone's change"
        assert saved.game.version == version + 2
        assert totals(saved) == (5, 15, 10)  # Ben's ace (15) from the correction, not the king (10)
        assert totals(store.load(game_id)) == (5, 15, 10)
        # The summaries were written from the game as it is, not as it was first read.
        assert rebuild(fix=False) == []


@pytest.mark.own_database
def test_the_same_round_saved_in_between_is_recorded_once(app, game_id):
    with app.app_context():
        loaded = store.load(game_id)
        another_phone(app, lambda: store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "9"})))
        with pytest.raises(store.AlreadyRecorded) as refused:
            store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "5"}), loaded)
        assert refused.value.number == 2
        assert db.session.query(Round).filter_by(game_id=game_id).count() == 2
        assert totals(store.load(game_id)) == (5, 10, 14)  # the other phone's round: Cat's 9
        assert rebuild(fix=False) == []


def test_a_round_skipping_ahead_of_a_stale_reading_is_judged_on_the_game_as_it_is(app, game_id):
    """Round 3 sent on a reading with one round: another phone has recorded round 2 since, so
    round 3 is the next one, not a number that skips ahead."""
    with app.app_context():
        loaded = store.load(game_id)
        another_phone(app, lambda: store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "9"})))
        saved = store.record_round(game_id, 3, a_round("Cat", {"Ann": "5", "Ben": "5"}), loaded)
        assert saved.state.played == 3 and totals(saved) == totals(store.load(game_id))


def test_without_a_change_in_between_the_game_is_read_once(app, game_id, monkeypatch):
    with app.app_context():
        loaded = store.load(game_id)
        made = reads(monkeypatch)
        store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "5"}), loaded)
        assert made == [], "recorded on the game as the caller read it"
        made.clear()
        store.record_round(game_id, 3, a_round("Ann", {"Ben": "5", "Cat": "5"}))
        assert made == [False], "a caller that read nothing: read once, before the write"


def test_rounds_recorded_one_on_the_other_read_the_game_once(app, game_id, monkeypatch):
    """A round just recorded is the game as its write left it: the next round can be recorded
    on it (the game ended by the last round of a short game, its finish written)."""
    from scorekeeper.rules import CLASSIC

    with app.app_context():
        game, _ = store.create_game(GameSetup.create(CLASSIC, PLAYERS, first_dealer="Ann"))
        made = reads(monkeypatch)
        saved = store.record_round(game.id, 1, a_round("Ann", {"Ben": "K", "Cat": "5"}))
        while not saved.state.finished:
            saved = store.record_round(game.id, saved.state.played + 1, a_round("Ann", {"Ben": "K", "Cat": "5"}), saved)
        assert made == [False], "read once, before the first round"
        assert store.get_game(game.id).finished_at is not None
        assert totals(saved) == totals(store.load(game.id)) and rebuild(fix=False) == []


@pytest.mark.own_database
def test_a_number_taken_behind_the_versions_back_is_already_recorded(app, game_id):
    """The round numbers' unique key has the last word: a round stored without the game's
    version moving on (as no change of the store's does) still makes its number taken."""
    from datetime import UTC, datetime

    with app.app_context():
        loaded = store.load(game_id)
        ann = loaded.seats[0].player_id

        def behind_the_versions_back() -> None:
            db.session.add(Round(game_id=game_id, number=2, went_out_id=ann, recorded_at=datetime.now(UTC)))
            db.session.commit()

        another_phone(app, behind_the_versions_back)
        with pytest.raises(store.AlreadyRecorded):
            store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "5"}), loaded)
        assert store.get_game(game_id).version == loaded.game.version  # nothing written
        assert db.session.query(Round).filter_by(game_id=game_id).count() == 2


@pytest.mark.parametrize("spoil", [
    ["DELETE FROM seat_summary WHERE game_id = :g AND position = 2"],
    ["UPDATE game_summary SET worked_out = false WHERE game_id = :g"],
    ["UPDATE game_summary SET next_round = 7 WHERE game_id = :g"],
    ["UPDATE seat_summary SET climbs = '1:1 2:1' WHERE game_id = :g AND position = 0"],
    ["DELETE FROM game_summary WHERE game_id = :g"],
], ids=["a seat missing", "not worked out", "the next round wrong", "more climbs than rounds", "no summary"])
def test_a_round_writes_the_games_whole_summary_from_its_rounds(app, game_id, spoil):
    """Whatever became of the stored summary, the next round's is worked out from the game's
    rounds, not from the summary before it."""
    with app.app_context():
        for statement in spoil:
            db.session.execute(db.text(statement), {"g": game_id})
        db.session.commit()
        saved = store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "5"}))
        assert totals(saved) == totals(store.load(game_id)) == (5, 10, 10)
        assert rebuild(fix=False) == []
