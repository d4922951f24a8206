"""The game store: the one place that turns stored facts into engine input and back.

Every change goes through here in one transaction, and is checked by the rules
engine before anything is written. Views and the command line call these
functions; none of them writes a rule of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from .access import issue_key
from .gamefile import GameFile
from .models import Game, HandEntry, Player, Round, Seat, db, utcnow
from .rules import (
    DealerRule,
    GameSetup,
    GameState,
    Problem,
    Progression,
    RoundError,
    RoundRecord,
    advance,
    clean_name,
    get_rules,
    name_key,
    parse_hand,
    replay,
)


class NotFound(LookupError):
    pass


class AlreadyRecorded(Exception):
    """The round number a form carried has been recorded meanwhile (double tap, second phone)."""

    def __init__(self, number: int, state: GameState) -> None:
        self.number = number
        self.state = state
        super().__init__(f"Round {number} is already recorded")


class PlayerNameError(ValueError):
    pass


class Conflict(Exception):
    """A change made on a version of the game that another phone has changed since."""

    def __init__(self, expected: int, loaded: LoadedGame) -> None:
        self.expected = expected
        self.loaded = loaded
        super().__init__(
            f"This game changed on another phone (version {loaded.game.version}, "
            f"you had version {expected}); nothing was saved. Here is the game as it is now."
        )


def _check_version(loaded: LoadedGame, expected: int | None) -> None:
    if expected is not None and expected != loaded.game.version:
        raise Conflict(expected, loaded)


@dataclass(frozen=True)
class LoadedGame:
    game: Game
    state: GameState

    @property
    def id(self) -> int:
        return self.game.id


# ----------------------------------------------------------------- players


def find_player(name: str) -> Player | None:
    return db.session.scalar(select(Player).where(Player.name_key == name_key(name)))


def get_or_create_player(name: str) -> Player:
    cleaned = clean_name(name, "player's name")
    player = find_player(cleaned)
    if player is None:
        player = Player(name=cleaned, name_key=name_key(cleaned))
        db.session.add(player)
        db.session.flush()
    return player


def add_player(name: str) -> Player:
    """Add a new player to the roster; ``PlayerNameError`` if the name is taken or invalid."""
    try:
        cleaned = clean_name(name, "name")
    except ValueError as exc:
        raise PlayerNameError(str(exc)) from None
    existing = find_player(cleaned)
    if existing is not None:
        raise PlayerNameError(f'"{existing.name}" is already on the roster')
    player = Player(name=cleaned, name_key=name_key(cleaned))
    db.session.add(player)
    db.session.commit()
    return player


def rename_player(player_id: int, name: str) -> Player:
    player = db.session.get(Player, player_id)
    if player is None:
        raise NotFound(f"no player {player_id}")
    try:
        cleaned = clean_name(name, "name")
    except ValueError as exc:
        raise PlayerNameError(str(exc)) from None
    other = find_player(cleaned)
    if other is not None and other.id != player.id:
        raise PlayerNameError(f'"{other.name}" is already on the roster')
    player.name = cleaned
    player.name_key = name_key(cleaned)
    db.session.commit()
    return player


def games_played(player_id: int) -> int:
    return db.session.scalar(select(func.count(Seat.id)).where(Seat.player_id == player_id)) or 0


def games_played_by_everyone() -> dict[int, int]:
    """How many games each player has a seat in, in one query."""
    rows = db.session.execute(select(Seat.player_id, func.count(Seat.id)).group_by(Seat.player_id))
    return {player_id: count for player_id, count in rows}


def remove_player(player_id: int) -> None:
    player = db.session.get(Player, player_id)
    if player is None:
        raise NotFound(f"no player {player_id}")
    if games_played(player_id):
        raise PlayerNameError(f"{player.name} has played, so stays on the roster to keep the history")
    db.session.delete(player)
    db.session.commit()


def roster() -> list[Player]:
    return list(db.session.scalars(select(Player).order_by(func.lower(Player.name))))


# ------------------------------------------------------------------- games


def _game_query():
    return select(Game).options(
        selectinload(Game.seats).joinedload(Seat.player),
        selectinload(Game.rounds).selectinload(Round.hands),
    )


def setup_of(game: Game) -> GameSetup:
    names = [seat.player.name for seat in game.seats]
    return GameSetup(
        rules=get_rules(game.rules),
        players=tuple(names),
        first_dealer=names[game.first_dealer_seat],
        dealer_rule=DealerRule(game.dealer_rule),
        decks=game.decks,
        jokers=game.jokers,
    )


def record_of(game: Game, rnd: Round) -> RoundRecord:
    names = {seat.player_id: seat.player.name for seat in game.seats}
    hands = {}
    points = {}
    achieved = set()
    for entry in rnd.hands:
        name = names[entry.player_id]
        if entry.achieved:
            achieved.add(name)
        if entry.player_id == rnd.went_out_id:
            continue
        if entry.points is not None:
            points[name] = entry.points
        else:
            hands[name] = parse_hand(entry.cards or "")
    return RoundRecord(names[rnd.went_out_id], hands, points, frozenset(achieved))


def records_of(game: Game) -> list[RoundRecord]:
    return [record_of(game, rnd) for rnd in game.rounds]


def load(game_id: int) -> LoadedGame:
    """A game and its state, worked out from its rounds, in a fixed number of queries."""
    game = db.session.scalar(_game_query().where(Game.id == game_id))
    if game is None:
        raise NotFound(f"no game {game_id}")
    return LoadedGame(game, replay(setup_of(game), records_of(game)))


def load_many(game_ids: Sequence[int]) -> list[LoadedGame]:
    if not game_ids:
        return []
    games = db.session.scalars(_game_query().where(Game.id.in_(game_ids))).all()
    by_id = {g.id: g for g in games}
    return [LoadedGame(by_id[i], replay(setup_of(by_id[i]), records_of(by_id[i]))) for i in game_ids if i in by_id]


def recent_game_ids(limit: int = 50, offset: int = 0) -> list[int]:
    stmt = select(Game.id).order_by(Game.started_at.desc(), Game.id.desc()).limit(limit).offset(offset)
    return list(db.session.scalars(stmt))


def _add_game(setup: GameSetup, started_at: datetime | None = None) -> Game:
    players = [get_or_create_player(name) for name in setup.players]
    game = Game(
        rules=setup.rules.key,
        decks=setup.decks,
        jokers=setup.jokers,
        dealer_rule=setup.dealer_rule.value,
        first_dealer_seat=setup.seat_of(setup.first_dealer),
        started_at=started_at or utcnow(),
    )
    game.seats = [Seat(position=i, player=p) for i, p in enumerate(players)]
    db.session.add(game)
    db.session.flush()
    return game


def _hand_rows(game: Game, record: RoundRecord, setup: GameSetup) -> tuple[int, list[HandEntry]]:
    """The went-out player's id and one hand row per seat, for a checked record."""
    ids = {seat.player.name: seat.player_id for seat in game.seats}
    went_out = setup.find(record.went_out) or record.went_out
    hands = {setup.find(n): h for n, h in record.hands.items()}
    points = {setup.find(n): p for n, p in record.points.items()}
    achieved = {setup.find(n) for n in record.achieved} | {went_out}
    ladder = setup.rules.progression is Progression.LADDER
    entries = []
    for name in setup.players:
        if name == went_out or name not in points:
            cards, pts = ("" if name == went_out else hands.get(name, parse_hand("")).canonical), None
        else:
            cards, pts = None, points[name]
        entries.append(HandEntry(player_id=ids[name], cards=cards, points=pts, achieved=ladder and name in achieved))
    return ids[went_out], entries


def _round_row(game: Game, number: int, record: RoundRecord, setup: GameSetup) -> Round:
    went_out_id, entries = _hand_rows(game, record, setup)
    return Round(number=number, went_out_id=went_out_id, hands=entries)


def _mark_finished(game: Game, state: GameState, when: datetime | None = None) -> None:
    if state.finished and game.finished_at is None:
        game.finished_at = when or utcnow()
    elif not state.finished:
        game.finished_at = None


def create_game(setup: GameSetup) -> tuple[Game, str]:
    """A new game and its secret edit key."""
    game = _add_game(setup)
    key = issue_key(game)
    db.session.commit()
    return game, key


def import_games(files: Sequence[GameFile], keys: list[str] | None = None) -> list[int]:
    """Store checked game files in one transaction; their ids in order.

    Each game gets a fresh edit key; pass a list as ``keys`` to receive them.
    """
    ids = []
    try:
        for gf in files:
            game = _add_game(gf.setup, gf.started_at)
            key = issue_key(game)
            if keys is not None:
                keys.append(key)
            for number, record in enumerate(gf.rounds, start=1):
                game.rounds.append(_round_row(game, number, record, gf.setup))
            if gf.state.finished:
                game.finished_at = gf.finished_at or (gf.started_at or utcnow())
            db.session.flush()
            ids.append(game.id)
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return ids


def record_round(game_id: int, number: int, record: RoundRecord) -> LoadedGame:
    """Record round ``number``; refuses a number already taken or one that skips ahead.

    The round number is the version check of a new round: a form or API call for a
    number that is already taken gets ``AlreadyRecorded`` and stores nothing.
    """
    loaded = load(game_id)
    state = loaded.state
    expected = len(state.rounds) + 1
    if number < 1:
        raise RoundError([Problem(f"round numbers start at 1, not {number}", round=number, field="number")])
    if number < expected:
        raise AlreadyRecorded(number, state)
    if number > expected:
        raise RoundError([Problem(f"round {expected} comes next, not round {number}", round=number, field="number")])
    new_state = advance(state, record)
    game = loaded.game
    game.rounds.append(_round_row(game, number, record, state.setup))
    game.version += 1
    _mark_finished(game, new_state)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise AlreadyRecorded(number, load(game_id).state) from None
    return LoadedGame(game, new_state)


def _ended_early(setup: GameSetup, records: list[RoundRecord]) -> GameState:
    """Replay, explaining a correction that makes an earlier round end the game."""
    try:
        return replay(setup, records)
    except RoundError as exc:
        first = exc.first
        if first.message.startswith("the game ended after round"):
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


def replace_round(game_id: int, number: int, record: RoundRecord, expected_version: int | None = None) -> LoadedGame:
    loaded = load(game_id)
    _check_version(loaded, expected_version)
    game = loaded.game
    if not 1 <= number <= len(game.rounds):
        raise NotFound(f"game {game_id} has no round {number}")
    setup = loaded.state.setup
    records = [r.record for r in loaded.state.rounds]
    records[number - 1] = record
    new_state = _ended_early(setup, records)
    old = game.rounds[number - 1]
    went_out_id, entries = _hand_rows(game, record, setup)
    old.went_out_id = went_out_id
    old.hands.clear()
    db.session.flush()
    old.hands.extend(entries)
    old.recorded_at = utcnow()
    game.version += 1
    _mark_finished(game, new_state)
    db.session.commit()
    return LoadedGame(game, new_state)


def delete_round(game_id: int, number: int, expected_version: int | None = None) -> LoadedGame:
    loaded = load(game_id)
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
    game.version += 1
    _mark_finished(game, new_state)
    db.session.commit()
    return LoadedGame(game, new_state)


def all_game_ids() -> list[int]:
    return list(db.session.scalars(select(Game.id).order_by(Game.id)))


def get_player(player_id: int) -> Player | None:
    return db.session.get(Player, player_id)


def game_version(game_id: int) -> int | None:
    """The game's change counter, in one small query (for watchers' polls)."""
    return db.session.scalar(select(Game.version).where(Game.id == game_id))
