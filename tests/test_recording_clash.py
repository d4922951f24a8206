"""Recording a round reads the game before its write begins (so that SQLite's one writer at a
time waits only for the statements): what happens when another phone changes the game in
between. The write is made only on the version that was read; otherwise the game is read again,
inside the write, and the round is checked against the game as it now is."""

from __future__ import annotations

import pytest
from conftest import ON_POSTGRES

from scorekeeper.store import database
from scorekeeper import store
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
    if isinstance(loaded, store.RecordedRound):
        return loaded.position.totals
    return tuple(p.total for p in loaded.state.players)


def meanwhile(monkeypatch, change) -> list[bool]:
    """Make ``change`` (another phone's) happen once, just after recording a round has read the
    game and before its write: the reads that follow are recorded as locked or not."""
    reads: list[bool] = []
    read_game = store._read_game

    def read_then_change(engine, connection, game_id, row):
        loaded = read_game(engine, connection, game_id, row)
        reads.append(database._writing.get())  # whether it was read inside the write
        if len(reads) == 1:
            change()
        return loaded

    monkeypatch.setattr(store, "_read_game", read_then_change)
    return reads


def test_a_correction_in_between_is_read_again_and_the_round_follows_it(app, game_id, monkeypatch):
    with app.app_context():
        version = store.load(game_id).game.version
        # Another phone corrects round 1 (Ben had the ace, not the king) as round 2 is being saved.
        reads = meanwhile(monkeypatch, lambda: store.replace_round(game_id, 1, a_round("Ann", {"Ben": "A", "Cat": "5"})))
        saved = store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "5"}))
        assert reads == [False, True], "read a second time, inside the write, after the other phone's change"
        assert saved.game.version == version + 2
        assert totals(saved) == (5, 15, 10)  # Ben's ace (15) from the correction, not the king (10)
        assert totals(store.load(game_id)) == (5, 15, 10)
        # The summaries were written from the game as it is, not as it was first read.
        assert rebuild(fix=False) == []


def test_the_same_round_saved_in_between_is_recorded_once(app, game_id, monkeypatch):
    with app.app_context():
        other = a_round("Ben", {"Ann": "5", "Cat": "9"})
        meanwhile(monkeypatch, lambda: store.record_round(game_id, 2, other))
        with pytest.raises(store.AlreadyRecorded) as refused:
            store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "5"}))
        assert refused.value.number == 2
        assert db.session.query(Round).filter_by(game_id=game_id).count() == 2
        assert totals(store.load(game_id)) == (5, 10, 14)  # the other phone's round: Cat's 9
        assert rebuild(fix=False) == []


def test_without_a_change_in_between_the_game_is_read_once(app, game_id, monkeypatch):
    with app.app_context():
        reads = meanwhile(monkeypatch, lambda: None)
        store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "5"}))
        assert reads == [False]


@pytest.mark.skipif(ON_POSTGRES, reason="the writers' queue is SQLite's: PostgreSQL locks rows")
def test_writers_take_turns_on_a_file_beside_the_database(app, game_id):
    """Another worker holding the writers' turn: a round waits for it, then is recorded."""
    import fcntl
    import threading

    with app.app_context():
        lock_file = db.engine.url.database + "-writers.lock"

    def record() -> None:
        with app.app_context():
            store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "5"}))

    with open(lock_file, "a") as turn:
        fcntl.flock(turn, fcntl.LOCK_EX)  # as another worker does while it writes
        writer = threading.Thread(target=record)
        writer.start()
        writer.join(0.3)
        assert writer.is_alive(), "the round did not wait for the other worker's turn"
        with app.app_context():
            assert db.session.query(Round).filter_by(game_id=game_id).count() == 1
        fcntl.flock(turn, fcntl.LOCK_UN)
    writer.join(10)
    assert not writer.is_alive()
    with app.app_context():
        assert db.session.query(Round).filter_by(game_id=game_id).count() == 2


def test_a_round_sent_as_it_is_reads_back_as_the_orm_wrote_it(app, game_id):
    """database.send makes each value ready as SQLAlchemy would: the time a round was recorded
    reads back as a time (SQLite stores it as text), a number taken is an IntegrityError."""
    from datetime import UTC, datetime, timedelta

    from sqlalchemy.exc import IntegrityError

    with app.app_context():
        store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "5"}))
        recorded = db.session.query(Round).filter_by(game_id=game_id, number=2).one().recorded_at
        assert abs(recorded.replace(tzinfo=recorded.tzinfo or UTC) - datetime.now(UTC)) < timedelta(minutes=1)
        ann = store.load(game_id).seats[0].player_id
        with database.writing(), pytest.raises(IntegrityError):
            database.send(store._NEW_ROUND, {"game_id": game_id, "number": 2, "went_out_id": ann,
                                             "recorded_at": datetime.now(UTC)})
        db.session.rollback()
        assert db.session.query(Round).filter_by(game_id=game_id).count() == 2


def selects_while(app, action) -> list[str]:
    """The SELECT statements sent while ``action`` runs."""
    from sqlalchemy import event

    sent: list[str] = []

    def seen(_conn, _cursor, statement, *_args) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            sent.append(statement)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", seen)
        try:
            action()
        finally:
            event.remove(db.engine, "before_cursor_execute", seen)
    return sent


def test_a_round_is_recorded_from_where_the_game_stands_without_reading_its_rounds(app, game_id):
    """The game is taken up from its stored summary: no hand is read back, nothing replayed;
    the totals and the summaries written are what a replay of every round makes of them."""
    saved = []
    sent = selects_while(app, lambda: saved.append(store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "5"}))))
    assert not [s for s in sent if " hand" in s.lower()], sent
    with app.app_context():
        assert totals(saved[0]) == totals(store.load(game_id)) == (5, 10, 10)
        assert rebuild(fix=False) == []


@pytest.mark.parametrize("spoil", [
    ["DELETE FROM seat_summary WHERE game_id = :g AND position = 2"],
    ["UPDATE game_summary SET worked_out = false WHERE game_id = :g"],
    ["UPDATE game_summary SET next_round = 7 WHERE game_id = :g"],
    ["UPDATE seat_summary SET climbs = '1:1 2:1' WHERE game_id = :g AND position = 0"],
    # A summary of the game before its first round, as if that round had never been counted.
    ["UPDATE game_summary SET rounds = 0, next_round = 1 WHERE game_id = :g",
     "UPDATE seat_summary SET times_out = 0, climbs = '', total = 0 WHERE game_id = :g"],
], ids=["a seat missing", "not worked out", "the next round does not follow", "more climbs than rounds",
        "other rounds than are stored"])
def test_a_game_whose_summary_cannot_be_taken_up_is_replayed_and_its_summary_mended(app, game_id, spoil):
    with app.app_context():
        for statement in spoil:
            db.session.execute(db.text(statement), {"g": game_id})
        db.session.commit()
        saved = store.record_round(game_id, 2, a_round("Ben", {"Ann": "5", "Cat": "5"}))
        assert totals(saved) == totals(store.load(game_id)) == (5, 10, 10)
        assert rebuild(fix=False) == []
