"""Rounds: recorded, corrected and deleted, each checked by the engine against the game's
state and written with the game's summary and its next version."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import inspect, insert, update
from sqlalchemy.exc import IntegrityError

from scorekeeper.store.seats import flags, sent_hands
from scorekeeper.store.changes import finish_game
from scorekeeper.store.database import writing
from scorekeeper.store.errors import AlreadyRecorded, Conflict, InBin, NotFound
from scorekeeper.store.games import load
from scorekeeper.store.models import Game, HandEntry, Round, db, utcnow
from scorekeeper.store.replays import LoadedGame, SeatFact
from scorekeeper.rules import (
    GAME_OVER,
    GameSetup,
    GameState,
    Position,
    Problem,
    Progression,
    RoundError,
    RoundRecord,
    RoundResult,
    advance,
    parse_hand,
    replay,
)


def _check_version(loaded: LoadedGame, expected: int | None) -> None:
    if loaded.deleted:
        raise InBin(loaded.id)
    if expected is not None and expected != loaded.game.version:
        raise Conflict(expected, loaded)


def hand_values(ids: dict[str, int], record: RoundRecord, setup: GameSetup) -> tuple[int, list[dict]]:
    """The went-out player's id and one hand row's values per seat, for a checked record.

    ``ids`` maps each seated name (as in ``setup.players``) to its player's id.
    """
    went_out = setup.find(record.went_out) or record.went_out
    hands = {setup.find(n): h for n, h in record.hands.items()}
    points = {setup.find(n): p for n, p in record.points.items()}
    achieved = {setup.find(n) for n in record.achieved} | {went_out}
    bonuses: dict[str | None, set[str]] = {}
    for n, keys in record.bonuses.items():
        bonuses.setdefault(setup.find(n), set()).update(keys)
    ladder = setup.rules.progression is Progression.LADDER
    rows = []
    for name in setup.players:
        if name == went_out or name not in points:
            cards, pts = ("" if name == went_out else hands.get(name, _NO_CARDS).canonical), None
        else:
            cards, pts = None, points[name]
        rows.append({"player_id": ids[name], "cards": cards, "points": pts, "achieved": ladder and name in achieved,
                     "bonuses": " ".join(sorted(bonuses.get(name, ())))})
    return ids[went_out], rows


_NO_CARDS = parse_hand("")


def _add_hands(round_id: int, rows: list[dict]) -> None:
    """A round's hand rows (:func:`hand_values`) in one statement: NULLs written as such, so
    that rows of cards and rows of points go together rather than one statement a shape."""
    db.session.execute(insert(HandEntry).execution_options(render_nulls=True),
                       [{**row, "round_id": round_id} for row in rows])


@dataclass(frozen=True)
class RecordedRound(LoadedGame):
    """A round just recorded: the game as the round left it (its state worked out from the state
    the round was checked against, not replayed), and the round as the rules scored it."""

    result: RoundResult = field(kw_only=True)

    @property
    def position(self) -> Position:
        """Where the game stands after the round."""
        return self.state.position


def record_round(game_id: int, number: int, record: RoundRecord, loaded: LoadedGame | None = None) -> RecordedRound:
    """Record round ``number``; refuses a number already taken or one that skips ahead.

    The round number is a new round's idempotency key: a form or API call for a number that is
    already taken gets ``AlreadyRecorded`` and stores nothing.

    ``loaded`` is the game as the caller has just read it (the round screen checked the round
    against it), else it is read here: either way the game is read and replayed once. The round
    is scored against that state and written only on the version it was read at; if another
    phone changed the game in between, the game is read again inside the write, where nothing
    can move, and the round is judged against the game as it now is.
    """
    if loaded is None:
        loaded = load(game_id)
    # Taken before the write: starting it ends the transaction the game was read in. A row
    # expired since (its transaction ended) no longer tells the version the state was read at.
    seats, state, linked = loaded.seats, loaded.state, loaded.seat_links
    was = None if "version" in inspect(loaded.game).unloaded else loaded.game.version
    with writing():
        try:
            written = None if was is None else _record(game_id, was, seats, state, linked, number, record)
            if written is None:  # another phone changed the game since it was read
                fresh = load(game_id, lock=True)
                seats, linked = fresh.seats, fresh.seat_links
                written = _record(game_id, fresh.game.version, seats, fresh.state, linked, number, record)
                assert written is not None, "inside the write nothing moves the game on"
            # The game's row as the write left it, kept out of the commit: what is shown next is
            # this version, with this state. A finished game joins the ratings (at the end of
            # the order: quick).
            game, after = written
            finish_game(game, after, [s.player_id for s in seats], moved=True, rated=after.finished, keep=True)
        except IntegrityError:  # the number taken all the same: the unique key has the last word
            db.session.rollback()
            raise AlreadyRecorded(number) from None
    return RecordedRound(game, seats, after, seat_links=linked, result=after.rounds[-1])


def _record(game_id: int, was: int, seats: tuple[SeatFact, ...], state: GameState, linked: bool, number: int,
            record: RoundRecord) -> tuple[Game, GameState] | None:
    """Round ``number`` written on the game read at version ``was`` (in the state ``state``), in
    the write transaction: the game's row and its state after it; None, and nothing written, if
    the game is no longer at that version. ``linked``: whether the game has seat links (without
    them no hand was sent, so none is forgotten).

    The version moves on first, only from ``was``, and that statement returns the row as it
    leaves it (no second read): on PostgreSQL the row then stays locked until the commit, so
    that a second change to the game waits for this one and finds the version moved on. A
    refusal is raised with the version unchanged (the write rolls back)."""
    game = db.session.scalar(update(Game).where(Game.id == game_id, Game.version == was)
                             .values(version=was + 1).returning(Game),
                             execution_options={"synchronize_session": False, "populate_existing": True})
    if game is None:
        return None
    if game.deleted_at is not None:  # in the bin: its rounds stay as they were until it is restored
        raise InBin(game_id)
    expected = state.played + 1
    if number < 1:
        raise RoundError([Problem(f"round numbers start at 1, not {number}", round=number, field="number")])
    if number < expected:
        raise AlreadyRecorded(number)
    if number > expected:
        raise RoundError([Problem(f"round {expected} comes next, not round {number}", round=number, field="number")])
    after = advance(state, record)
    went_out_id, rows = hand_values({s.name: s.player_id for s in seats}, record, state.setup)
    added = Round(game_id=game_id, number=number, went_out_id=went_out_id, recorded_at=utcnow())
    db.session.add(added)
    db.session.flush()
    _add_hands(added.id, rows)
    if linked:
        sent_hands.forget_other_rounds(game_id, number + 1)
    return game, after


def same_round(loaded: LoadedGame, number: int, record: RoundRecord) -> bool:
    """Whether ``record`` is the game's stored round ``number``: what recording it would store is
    what is stored (names as the seats spell them, hands in their own order). How a save of a
    round already stored, from the round screen or the API alike, tells this phone's own round
    sent again (its answer was lost on the way) from a different one."""
    state = loaded.state
    if state is None or not 1 <= number <= len(state.rounds):
        return False
    setup = state.setup
    before = replay(setup, [r.record for r in state.rounds[:number - 1]])
    try:
        checked = advance(before, record).rounds[-1].record
    except RoundError:
        return False
    ids = {seat.name: seat.player_id for seat in loaded.seats}
    return hand_values(ids, checked, setup) == hand_values(ids, state.rounds[number - 1].record, setup)


def _ended_early(setup: GameSetup, records: list[RoundRecord]) -> GameState:
    """Replay, explaining a correction that makes an earlier round end the game."""
    try:
        return replay(setup, records)
    except RoundError as exc:
        first = exc.first
        if first.code == GAME_OVER:
            ended = first.round - 1 if first.round else len(records)
            raise RoundError(
                [
                    Problem(
                        f"this change would end the game after round {ended}; "
                        f"delete rounds {ended + 1} to {len(records)} first",
                        round=ended,
                    )
                ]
            ) from None
        raise


@writing()
def replace_round(game_id: int, number: int, record: RoundRecord, expected_version: int | None = None) -> LoadedGame:
    loaded = load(game_id, lock=True)
    _check_version(loaded, expected_version)
    game = loaded.game
    if not 1 <= number <= len(game.rounds):
        raise NotFound(f"game {game_id} has no round {number}")
    setup = loaded.state.setup
    records = [r.record for r in loaded.state.rounds]
    records[number - 1] = record
    new_state = _ended_early(setup, records)
    old = game.rounds[number - 1]
    went_out_id, rows = hand_values({s.name: s.player_id for s in loaded.seats}, record, setup)
    old.went_out_id = went_out_id
    old.hands.clear()
    db.session.flush()
    _add_hands(old.id, rows)
    old.recorded_at = utcnow()
    flags.round_corrected(game_id, number)
    # Its standing, or whether it is finished, may have changed: it is rated again.
    finish_game(game, new_state, [s.player_id for s in loaded.seats], rated=True)
    return LoadedGame(game, loaded.seats, new_state, seat_links=loaded.seat_links)


@writing()
def delete_round(game_id: int, number: int, expected_version: int | None = None) -> LoadedGame:
    loaded = load(game_id, lock=True)
    _check_version(loaded, expected_version)
    game = loaded.game
    if not 1 <= number <= len(game.rounds):
        raise NotFound(f"game {game_id} has no round {number}")
    records = [r.record for i, r in enumerate(loaded.state.rounds, start=1) if i != number]
    new_state = _ended_early(loaded.state.setup, records)
    doomed = game.rounds[number - 1]
    later = game.rounds[number:]
    game.rounds.remove(doomed)
    db.session.flush()
    for rnd in later:
        rnd.number -= 1
        db.session.flush()
    flags.round_deleted(game_id, number)
    sent_hands.forget_other_rounds(game_id, len(records) + 1)
    # Its standing, or whether it is finished, may have changed: it is rated again.
    finish_game(game, new_state, [s.player_id for s in loaded.seats], rated=True)
    return LoadedGame(game, loaded.seats, new_state, seat_links=loaded.seat_links)
