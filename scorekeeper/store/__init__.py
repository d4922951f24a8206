"""The game store: every change to the stored facts, each in one transaction.

Each change is checked by the rules engine before anything is written, and writes the
game's summary (:mod:`scorekeeper.store.summaries`) with the facts it comes from. Views and the
command line call these functions; none of them writes a rule of its own. Reading a game
back into the engine is :mod:`scorekeeper.store.replays`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import bindparam, func, insert, inspect, select, update
from sqlalchemy.exc import IntegrityError

from scorekeeper.store import rating_summaries, summaries
from scorekeeper.store.access import issue_key
from scorekeeper.store.database import writing
from scorekeeper.store.imports import GameFile
from scorekeeper.store.models import MAX_ID, Game, HandEntry, HouseRuleSet, Player, Round, Seat, db, utcnow
from scorekeeper.store.replays import LoadedGame, SeatFact, worked_out
from scorekeeper.rules import (
    GAME_OVER,
    PRESETS,
    DocumentProblem,
    GameSetup,
    GameState,
    Position,
    Problem,
    Progression,
    RoundError,
    RoundRecord,
    RoundResult,
    RuleSet,
    RuleSetError,
    advance,
    clean_name,
    document_text,
    name_key,
    parse_hand,
    parse_ruleset,
    replay,
    ruleset_document,
    ruleset_from_text,
    start,
)


class NotFound(LookupError):
    pass


class AlreadyRecorded(Exception):
    """The round number a form carried has been recorded meanwhile (double tap, second phone).
    Raised with the write rolled back, nothing written: a game loaded next holds that round."""

    def __init__(self, number: int) -> None:
        self.number = number
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


@writing()
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


@writing()
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
    if player.name != cleaned:
        # Every game the player sat at shows the new name: a change to each of those games
        # (their ETags change, watchers see it, and no state worked out before is used again).
        db.session.execute(
            update(Game)
            .where(Game.id.in_(select(Seat.game_id).where(Seat.player_id == player.id)))
            .values(version=Game.version + 1)
            .execution_options(synchronize_session=False)
        )
    player.name = cleaned
    player.name_key = name_key(cleaned)
    db.session.commit()
    return player


def games_played(player_id: int) -> int:
    return db.session.scalar(select(func.count(Seat.id)).where(Seat.player_id == player_id)) or 0


class GamesPlayed(NamedTuple):
    """A player's games as the roster tells them."""

    kept: int  #: games not deleted: the count the roster shows, as the player's own page does
    seats: int  #: every game, the bin's too: a player with any stays on the roster (the bin can restore it)


def games_played_by_everyone() -> dict[int, GamesPlayed]:
    """How many games each player has a seat in, kept and in all, in one query."""
    rows = db.session.execute(
        select(Seat.player_id, func.count(Seat.id).filter(Game.deleted_at.is_(None)), func.count(Seat.id))
        .join(Game, Game.id == Seat.game_id).group_by(Seat.player_id))
    return {player_id: GamesPlayed(kept, seats) for player_id, kept, seats in rows}


@writing()
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


class BrokenGame(ValueError):
    """A stored game whose rounds the rules engine refuses (a game stored under other rules)."""


def _checked(loaded: LoadedGame) -> LoadedGame:
    if loaded.state is None:
        raise BrokenGame(f"game {loaded.id}: {loaded.problem}")
    return loaded


_GAME = select(Game).where(Game.id == bindparam("game_id"))  # made once: every round loads its game
_GAME_LOCKED = _GAME.with_for_update()


def load(game_id: int, lock: bool = False) -> LoadedGame:
    """A game and its state, worked out from its rounds: three queries (the game; its seats;
    its rounds with their hands). ``lock``: for a change, inside the write (on PostgreSQL the
    game's row stays locked until the commit, so that two changes to one game take turns, as
    SQLite's write lock makes them: the second works from the first's rounds and summary)."""
    game = db.session.scalar(_GAME_LOCKED if lock else _GAME, {"game_id": game_id})
    if game is None:
        raise NotFound(f"no game {game_id}")
    return _checked(worked_out([game])[0])


def _game_row(setup: GameSetup, started_at: datetime | None) -> Game:
    """A new game's row: the set-up as stored (seats are added by the caller), with its own
    frozen copy of the rules (see :func:`freeze`)."""
    return Game(
        rules=setup.rules.key,
        rules_document=freeze(setup.rules),
        decks=setup.decks,
        jokers=setup.jokers,
        dealer_rule=setup.dealer_rule.value,
        first_dealer_seat=setup.seat_of(setup.first_dealer),
        started_at=started_at or utcnow(),
    )


def freeze(rules: RuleSet) -> str:
    """The document a game keeps of ``rules`` (JSON text), checked as any document is: a rule
    set made in code without :func:`~scorekeeper.rules.parse_ruleset` is refused here
    (``RuleSetError``) rather than stored as a game no replay could read."""
    text = document_text(rules)
    ruleset_from_text(text, rules.key)  # read once per process for each distinct text
    return text


def _add_game(setup: GameSetup, started_at: datetime | None = None) -> Game:
    game = _game_row(setup, started_at)  # first: rules that cannot be frozen store nothing
    players = [get_or_create_player(name) for name in setup.players]
    game.seats = [Seat(position=i, player=p) for i, p in enumerate(players)]
    db.session.add(game)
    db.session.flush()
    return game


def _hand_values(ids: dict[str, int], record: RoundRecord, setup: GameSetup) -> tuple[int, list[dict]]:
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
    """A round's hand rows (:func:`_hand_values`) in one statement: NULLs written as such, so
    that rows of cards and rows of points go together rather than one statement a shape."""
    db.session.execute(insert(HandEntry).execution_options(render_nulls=True),
                       [{**row, "round_id": round_id} for row in rows])


def _mark_finished(game: Game, state: GameState, when: datetime | None = None) -> None:
    if state.finished and game.finished_at is None:
        game.finished_at = when or utcnow()
    elif not state.finished:
        game.finished_at = None


@writing()
def create_game(setup: GameSetup) -> tuple[Game, str]:
    """A new game and its secret edit key."""
    game = _add_game(setup)
    key = issue_key(game)
    summaries.write(game.id, [seat.player_id for seat in game.seats], start(setup))
    db.session.commit()
    return game, key


#: How many rows one bulk INSERT carries (SQLite allows 32,766 parameters a statement).
_BULK = 500


def _roster_for(names: Iterable[str]) -> dict[str, Player]:
    """The roster's player for each name (by name key), adding the new names: a query a 500 names."""
    wanted: dict[str, str] = {}
    for name in names:
        cleaned = clean_name(name, "player's name")
        wanted.setdefault(name_key(cleaned), cleaned)
    keys = list(wanted)
    found: dict[str, Player] = {}
    for i in range(0, len(keys), _BULK):
        chunk = select(Player).where(Player.name_key.in_(keys[i:i + _BULK]))
        found.update((p.name_key, p) for p in db.session.scalars(chunk))
    for key, cleaned in wanted.items():
        if key not in found:
            found[key] = Player(name=cleaned, name_key=key)
            db.session.add(found[key])
    db.session.flush()
    return found


@writing()
def import_games(files: Sequence[GameFile], keys: list[str] | None = None,
                 fingerprints: Sequence[str] | None = None) -> list[int]:
    """Store checked game files in one transaction; their ids in order.

    Each game gets a fresh edit key; pass a list as ``keys`` to receive them. ``fingerprints``
    (one a file) are the files' (see :mod:`scorekeeper.files.transfer`), stored with the games.

    A backup holds thousands of games: the games are inserted a row each (their ids are
    needed), but their seats, rounds and hands in a few multi-row INSERTs, whatever their
    number (the rows are the same ones :func:`record_round` writes, from :func:`_hand_values`).
    """
    try:
        roster = _roster_for(name for gf in files for name in gf.setup.players)
        games = []
        for i, gf in enumerate(files):
            game = _game_row(gf.setup, gf.started_at)
            if fingerprints is not None:
                game.fingerprint = fingerprints[i]
            key = issue_key(game)
            if keys is not None:
                keys.append(key)
            if gf.state.finished:
                game.finished_at = gf.finished_at or (gf.started_at or utcnow())
            db.session.add(game)
            games.append(game)
        db.session.flush()
        seats: list[dict] = []
        rounds: list[dict] = []
        hands: dict[tuple[int, int], list[dict]] = {}
        summed: list[summaries.Rows] = []
        for game, gf in zip(games, files, strict=True):
            ids = {name: roster[name_key(name)].id for name in gf.setup.players}
            summed.append(summaries.rows_of(game.id, [ids[name] for name in gf.setup.players], gf.state))
            seats += [{"game_id": game.id, "position": i, "player_id": ids[name]}
                      for i, name in enumerate(gf.setup.players)]
            for number, record in enumerate(gf.rounds, start=1):
                went_out_id, hands[game.id, number] = _hand_values(ids, record, gf.setup)
                rounds.append({"game_id": game.id, "number": number, "went_out_id": went_out_id})
        for i in range(0, len(seats), _BULK):
            db.session.execute(insert(Seat), seats[i:i + _BULK])
        entries: list[dict] = []
        for i in range(0, len(rounds), _BULK):
            # (game, number) is unique: it tells which new round each id is, in whatever order.
            stmt = insert(Round).returning(Round.id, Round.game_id, Round.number)
            for round_id, game_id, number in db.session.execute(stmt, rounds[i:i + _BULK]):
                entries += [{**row, "round_id": round_id} for row in hands[game_id, number]]
        for i in range(0, len(entries), _BULK):
            # render_nulls: cards or points is None; all rows in one statement, not one per shape.
            db.session.execute(insert(HandEntry).execution_options(render_nulls=True), entries[i:i + _BULK])
        summaries.store(summed)
        ids = [game.id for game in games]
        rating_summaries.refresh([game.id for game, gf in zip(games, files, strict=True) if gf.state.finished])
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return ids


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
    game, seats, state = loaded.game, loaded.seats, loaded.state
    was = None if "version" in inspect(game).unloaded else game.version
    with writing():
        try:
            saved = None if was is None else _record(game_id, game, was, seats, state, number, record)
            if saved is None:  # another phone changed the game since it was read
                fresh = load(game_id, lock=True)
                saved = _record(game_id, fresh.game, fresh.game.version, fresh.seats, fresh.state, number, record)
                assert saved is not None, "inside the write nothing moves the game on"
            # The game's row as the write left it, out of the session so that the commit does
            # not expire it: what is shown next is this version, with this state.
            db.session.flush()
            db.session.refresh(saved.game)
            db.session.expunge(saved.game)
            db.session.commit()
        except IntegrityError:  # the number taken all the same: the unique key has the last word
            db.session.rollback()
            raise AlreadyRecorded(number) from None
    return saved


def _record(game_id: int, game: Game, was: int, seats: tuple[SeatFact, ...], state: GameState, number: int,
            record: RoundRecord) -> RecordedRound | None:
    """Round ``number`` written on the game read at version ``was`` (in the state ``state``), in
    the write transaction; None, and nothing written, if the game is no longer at that version.

    The version moves on first, only from ``was``: on PostgreSQL the game's row then stays
    locked until the commit, so that a second change to the game waits for this one and finds
    the version moved on. A refusal is raised with the version unchanged (the write rolls back)."""
    moved = db.session.execute(update(Game).where(Game.id == game_id, Game.version == was)
                               .values(version=was + 1).execution_options(synchronize_session=False))
    if moved.rowcount != 1:
        return None
    expected = state.played + 1
    if number < 1:
        raise RoundError([Problem(f"round numbers start at 1, not {number}", round=number, field="number")])
    if number < expected:
        raise AlreadyRecorded(number)
    if number > expected:
        raise RoundError([Problem(f"round {expected} comes next, not round {number}", round=number, field="number")])
    after = advance(state, record)
    went_out_id, rows = _hand_values({s.name: s.player_id for s in seats}, record, state.setup)
    added = Round(game_id=game_id, number=number, went_out_id=went_out_id, recorded_at=utcnow())
    db.session.add(added)
    db.session.flush()
    _add_hands(added.id, rows)
    if after.finished:
        game.finished_at = utcnow()
    summaries.write(game_id, [s.player_id for s in seats], after)
    if after.finished:  # the game joins the ratings (at the end of the order: quick)
        rating_summaries.refresh([game_id])
    return RecordedRound(game, seats, after, result=after.rounds[-1])


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
    went_out_id, rows = _hand_values({s.name: s.player_id for s in loaded.seats}, record, setup)
    old.went_out_id = went_out_id
    old.hands.clear()
    db.session.flush()
    _add_hands(old.id, rows)
    old.recorded_at = utcnow()
    game.version += 1
    _mark_finished(game, new_state)
    summaries.write(game.id, [s.player_id for s in loaded.seats], new_state)
    rating_summaries.refresh([game.id])  # its standing, or whether it is finished, may have changed
    db.session.commit()
    return LoadedGame(game, loaded.seats, new_state)


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
    game.version += 1
    _mark_finished(game, new_state)
    summaries.write(game.id, [s.player_id for s in loaded.seats], new_state)
    rating_summaries.refresh([game.id])  # its standing, or whether it is finished, may have changed
    db.session.commit()
    return LoadedGame(game, loaded.seats, new_state)


# ------------------------------------------------------- rule sets


#: The start of a house rule set's key (``house-12``): what a game started from it stores as
#: the key it came from. Its rules are the game's own copy, whatever becomes of the house rule set.
HOUSE = "house-"


def house_key(ruleset_id: int) -> str:
    return f"{HOUSE}{ruleset_id}"


@dataclass(frozen=True)
class RuleSetEntry:
    """A rule set a game can be started with: a preset, or one of the table's house rule sets."""

    #: A preset's key, or ``house-ID``; what a game started with it stores as ``Game.rules``.
    key: str
    rules: RuleSet
    #: The house rule set's id; None for a preset.
    house_id: int | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def preset(self) -> bool:
        return self.house_id is None

    @property
    def summary(self) -> str:
        return self.rules.summary

    @property
    def document(self) -> dict[str, Any]:
        """The whole document, every field written out (a fresh copy: change it freely)."""
        return ruleset_document(self.rules)


def _house_entry(row: HouseRuleSet) -> RuleSetEntry:
    key = house_key(row.id)
    return RuleSetEntry(key, ruleset_from_text(row.document, key), row.id, row.created_at, row.updated_at)


def list_rulesets() -> list[RuleSetEntry]:
    """Every rule set a game can be started with: the presets in their order, then the
    house rule sets by name."""
    rows = db.session.scalars(select(HouseRuleSet).order_by(HouseRuleSet.name_key, HouseRuleSet.id))
    return [RuleSetEntry(key, rules) for key, rules in PRESETS.items()] + [
        entry for entry in map(_readable_entry, rows) if entry is not None]


def _readable_entry(row: HouseRuleSet) -> RuleSetEntry | None:
    """A house rule set as the engine reads it; None (and a warning in the log) for a document
    the engine no longer takes (a later version tightened a limit): one such row must not take
    the new-game page and the lists down with it (no game depends on it: each keeps its own copy)."""
    try:
        return _house_entry(row)
    except RuleSetError as exc:
        logging.getLogger(__name__).warning("house rule set %s cannot be read: %s", row.id, exc)
        return None


def get_ruleset(key: str) -> RuleSetEntry:
    """A preset or a house rule set by its key (``balmoral``, ``house-3``); ``NotFound`` otherwise."""
    if not isinstance(key, str):
        raise NotFound(f"no rule set {key!r}")
    if key in PRESETS:
        return RuleSetEntry(key, PRESETS[key])
    number = key[len(HOUSE):]
    if key.startswith(HOUSE) and number.isascii() and number.isdigit() and len(number) < 12:
        return get_house_ruleset(int(number))
    raise NotFound(f'no rule set "{key}"')


def get_house_ruleset(ruleset_id: int) -> RuleSetEntry:
    row = db.session.get(HouseRuleSet, ruleset_id) if 0 < ruleset_id <= MAX_ID else None
    entry = None if row is None else _readable_entry(row)
    if entry is None:
        raise NotFound(f"no house rule set {ruleset_id}")
    return entry


def _name_taken(rules: RuleSet, ruleset_id: int | None) -> None:
    """Refuse a name another rule set has (a preset's, or another house rule set's), as the
    lists and the history's filter would show two alike."""
    key = name_key(rules.name)
    other = next((preset.name for preset in PRESETS.values() if name_key(preset.name) == key), None)
    if other is None:
        found = db.session.execute(select(HouseRuleSet.id, HouseRuleSet.name).where(HouseRuleSet.name_key == key)).first()
        other = found.name if found is not None and found.id != ruleset_id else None
    if other is not None:
        raise _name_in_use(rules.name, other)


def _name_in_use(name: str, other: str) -> RuleSetError:
    # The other's name as it is written, when it differs from this one only in how (case, spaces).
    same = "" if other == name else f" (as \u201c{other}\u201d)"
    return RuleSetError([DocumentProblem("name", f"another rule set is called \u201c{name}\u201d{same}: choose another name")])


def _house_row(row: HouseRuleSet, rules: RuleSet) -> None:
    row.name = rules.name
    row.name_key = name_key(rules.name)
    row.document = document_text(rules)
    row.updated_at = utcnow()


@writing()
def save_ruleset(document: Mapping[str, Any], ruleset_id: int | None = None) -> RuleSetEntry:
    """Save a house rule set: a new one, or (``ruleset_id``) a change to one. The document is
    checked as every document is (``RuleSetError`` names each field at fault) and stored with
    its defaults written out. Games already played by it keep their own copy."""
    rules = parse_ruleset(document)
    if ruleset_id is None:
        row = HouseRuleSet(created_at=utcnow())
    else:
        row = db.session.get(HouseRuleSet, ruleset_id) if 0 < ruleset_id <= MAX_ID else None
        if row is None:
            raise NotFound(f"no house rule set {ruleset_id}")
    _name_taken(rules, ruleset_id)
    _house_row(row, rules)
    db.session.add(row)
    try:
        db.session.commit()
    except IntegrityError:  # the same name saved meanwhile by another phone
        db.session.rollback()
        raise _name_in_use(rules.name, rules.name) from None
    return _house_entry(row)


@writing()
def rename_ruleset(ruleset_id: int, name: str) -> RuleSetEntry:
    """Give a house rule set another name (the document's ``name``); ``RuleSetError`` on the
    ``name`` field for a name that breaks the limits or is taken."""
    entry = get_house_ruleset(ruleset_id)
    return save_ruleset({**entry.document, "name": name}, ruleset_id)


@writing()
def delete_ruleset(ruleset_id: int) -> None:
    """Delete a house rule set for good. Games played by it are unchanged: each keeps its copy."""
    row = db.session.get(HouseRuleSet, ruleset_id) if 0 < ruleset_id <= MAX_ID else None
    if row is None:
        raise NotFound(f"no house rule set {ruleset_id}")
    db.session.delete(row)
    db.session.commit()


# ----------------------------------------------------------- the bin


@writing()
def delete_game(game_id: int) -> Game:
    """Put a game in the bin: out of the history and the statistics, kept everywhere else."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise NotFound(f"no game {game_id}")
    if game.deleted_at is None:
        game.deleted_at = utcnow()
        game.version += 1  # its page says so: a change to the game (its ETag, its watchers)
        rating_summaries.refresh([game.id])  # the games after it are rated without it
        db.session.commit()
    return game


@writing()
def restore_game(game_id: int) -> Game:
    game = db.session.get(Game, game_id)
    if game is None:
        raise NotFound(f"no game {game_id}")
    if game.deleted_at is not None:
        game.deleted_at = None
        game.version += 1
        rating_summaries.refresh([game.id])
        db.session.commit()
    return game


class NotInBin(Exception):
    pass


@writing()
def purge_game(game_id: int) -> None:
    """Remove a deleted game for good (only from the bin: a kept game is refused). Its seats,
    rounds, hands and summary go with it (ON DELETE CASCADE)."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise NotFound(f"no game {game_id}")
    if game.deleted_at is None:
        raise NotInBin(f"game {game_id} is not in the bin")
    db.session.delete(game)
    db.session.commit()


def all_game_ids() -> list[int]:
    return list(db.session.scalars(select(Game.id).order_by(Game.id)))


def get_player(player_id: int) -> Player | None:
    return db.session.get(Player, player_id)


def get_game(game_id: int) -> Game | None:
    """A game's row alone (no rounds, no state)."""
    return db.session.get(Game, game_id)


#: A game's version, by id (the poll's one query: also :mod:`scorekeeper.web.polls`).
VERSION_OF = select(Game.version).where(Game.id == bindparam("game_id"))


class Peeked(NamedTuple):
    """A game's row, the little of it that tells which version of the game is stored."""

    id: int
    version: int
    edit_key_hash: str | None
    #: Set (in whatever form the database gives it) when the game is in the bin.
    deleted_at: object


_PEEK = select(Game.id, Game.version, Game.edit_key_hash, Game.deleted_at).where(Game.id == bindparam("game_id"))


def peek(game_id: int) -> Peeked | None:
    """The game's id, version, edit key hash and deletion, in one query by primary key: what
    its ETag is made of, so that a page the phone already holds is answered 304 after this alone."""
    row = db.session.execute(_PEEK, {"game_id": game_id}).first()
    return None if row is None else Peeked(*row)


_PEEK_RULES = select(*_PEEK.selected_columns, Game.rules, Game.rules_document).where(Game.id == bindparam("game_id"))


def peek_with_rules(game_id: int) -> tuple[Peeked, RuleSet | None] | None:
    """:func:`peek`, and the rules the game is played by (its frozen document; None if it cannot
    be read), in the same one query: what a round sent to the API is checked and read with (a
    Phase 10 game's hands hold skips and wilds)."""
    row = db.session.execute(_PEEK_RULES, {"game_id": game_id}).first()
    if row is None:
        return None
    try:
        rules = ruleset_from_text(row[5], row[4])
    except RuleSetError:
        rules = None  # the store refuses to change a game it cannot work out (BrokenGame)
    return Peeked(*row[:4]), rules


def game_version(game_id: int) -> int | None:
    """The game's change counter, in one query by primary key (a watcher's poll, every two
    seconds from every phone at every table)."""
    return db.session.scalar(VERSION_OF, {"game_id": game_id})
