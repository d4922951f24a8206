"""Games worked out once per version, and kept in memory.

Nothing here is stored: a game's state is what the rules engine makes of its rows (the
set-up, the seats, the rounds and hands), and it changes only when they do. Every change
to a game's rounds, and every rename of a player seated at it, adds one to
``Game.version``, and a new game gets a new random edit key (on SQLite a purged game's id
may be given again). So ``(id, version, edit key hash)`` names one set of rows, and the
state worked out from them is kept under that name until the process ends or the entry is
pushed out by newer ones (least recently used first).

Each worker process keeps its own (per app): a scoreboard, a history page or a game file
costs one query for the game rows and no replay when the game has not changed since it
was last shown. The rows of the games not in memory are read in two queries (seats;
rounds with their hands) whatever their number, turned into the engine's input by :func:`setup_of`
and :func:`record_of`, and replayed.
"""

from __future__ import annotations

import gc
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any, Protocol

from flask import Flask, current_app
from sqlalchemy import ColumnElement, select

from .models import Game, HandEntry, Player, Round, Seat, db
from .rules import DealerRule, GameSetup, GameState, Hand, RoundRecord, RulesError, get_rules, parse_hand, replay

#: How many games' states one process keeps (a state is about 12 KB).
GAMES_KEPT = 2_000
#: How many ``IN (...)`` values one query carries when reading the rows of given games.
CHUNK = 500
#: From how many games to replay at once the cyclic garbage collector is paused (bulk_work).
BULK = 50


class GameRow(Protocol):
    """What a replay reads from a game's row (an ORM ``Game`` or a row of its columns)."""

    id: int
    version: int
    edit_key_hash: str | None
    rules: str
    decks: int
    jokers: int
    dealer_rule: str
    first_dealer_seat: int


@dataclass(frozen=True)
class SeatFact:
    player_id: int
    name: str


@dataclass(frozen=True)
class Replay:
    """A game's seats and its state as the engine works it out (None: it cannot be, and why)."""

    seats: tuple[SeatFact, ...]
    state: GameState | None
    problem: str | None = None

    def ids(self) -> dict[str, int]:
        """Each seated name's player id."""
        return {seat.name: seat.player_id for seat in self.seats}


def key(game: GameRow) -> tuple:
    return (game.id, game.version, game.edit_key_hash)


class LRU:
    """A bounded mapping that forgets the least recently used entry first (thread-safe)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, k: Hashable) -> Any:
        with self._lock:
            value = self._data.get(k)
            if value is not None:
                self._data.move_to_end(k)
            return value

    def put(self, k: Hashable, value: Any) -> None:
        with self._lock:
            self._data[k] = value
            self._data.move_to_end(k)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


@dataclass
class Memory:
    """One app's derived figures, kept in this process."""

    games: LRU = field(default_factory=lambda: LRU(GAMES_KEPT))
    #: Other modules' caches of derived figures (the statistics keep theirs here).
    extra: dict[str, LRU] = field(default_factory=dict)

    def cache(self, name: str, size: int) -> LRU:
        if name not in self.extra:
            self.extra[name] = LRU(size)
        return self.extra[name]


def init_app(app: Flask) -> None:
    app.extensions["scorekeeper.memory"] = Memory()


def memory() -> Memory:
    return current_app.extensions["scorekeeper.memory"]


# ================================================================ rows into engine input


def setup_of(game: Any) -> GameSetup:
    """The set-up of a stored game: its row and its seats (``game.seats``, in seat order,
    each with ``player.name``)."""
    names = [seat.player.name for seat in game.seats]
    return GameSetup(
        rules=get_rules(game.rules),
        players=tuple(names),
        first_dealer=names[game.first_dealer_seat],
        dealer_rule=DealerRule(game.dealer_rule),
        decks=game.decks,
        jokers=game.jokers,
    )


def record_of(game: Any, rnd: Any) -> RoundRecord:
    """A stored round (``rnd.went_out_id``, ``rnd.hands``) as the engine's record."""
    names = game.names if isinstance(game, GameFacts) else {s.player_id: s.player.name for s in game.seats}
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
            hands[name] = _hand(entry.cards or "")
    return RoundRecord(names[rnd.went_out_id], hands, points, frozenset(achieved))


@lru_cache(maxsize=4096)
def _hand(cards: str) -> Hand:
    """A stored hand read back (hands are immutable, and many repeat: "", "K", "2 2"...)."""
    return parse_hand(cards)


class _Named:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class SeatRow:
    """A seat as :func:`setup_of` and :func:`record_of` read it."""

    __slots__ = ("player_id", "player")

    def __init__(self, player_id: int, name: str) -> None:
        self.player_id = player_id
        self.player = _Named(name)


class GameFacts:
    """A game's row and seats as :func:`setup_of` and :func:`record_of` read them."""

    __slots__ = ("rules", "decks", "jokers", "dealer_rule", "first_dealer_seat", "seats", "names")

    def __init__(self, game: GameRow, seats: Sequence[SeatRow]) -> None:
        self.rules = game.rules
        self.decks = game.decks
        self.jokers = game.jokers
        self.dealer_rule = game.dealer_rule
        self.first_dealer_seat = game.first_dealer_seat
        self.seats = seats
        #: Each seated player's name by id (read once, not once a round).
        self.names = {seat.player_id: seat.player.name for seat in seats}


@dataclass(frozen=True)
class HandFacts:
    player_id: int
    cards: str | None
    points: int | None
    achieved: bool


@dataclass
class RoundFacts:
    went_out_id: int
    hands: list[HandFacts] = field(default_factory=list)


@contextmanager
def bulk_work(games: int) -> Iterator[None]:
    """Pause the cyclic garbage collector while many games are read and replayed.

    A replay makes thousands of small objects that live on (they are kept), and each few
    hundred of them set off a collection that walks the growing heap again: a third of the
    time of replaying a long history. Replays make no reference cycles (their objects are
    freed by reference counting as usual), so nothing piles up while it is paused; it is
    resumed, as it was, when the work is done.
    """
    pause = games >= BULK and gc.isenabled()
    if pause:
        gc.disable()
    try:
        yield
    finally:
        if pause:
            gc.enable()


def _chunks(values: Sequence[int]) -> Iterable[Sequence[int]]:
    for i in range(0, len(values), CHUNK):
        yield values[i:i + CHUNK]


def read_rows(game_ids: Sequence[int] | None = None, where: ColumnElement[bool] | None = None
              ) -> tuple[dict[int, list[SeatRow]], dict[int, list[RoundFacts]]]:
    """The seats and rounds (with hands) of the given games, or of every game ``where``
    selects: two queries (a few more for thousands of ids given one by one)."""
    seats: dict[int, list[SeatRow]] = {}
    rounds: dict[int, list[RoundFacts]] = {}
    by_round: dict[int, RoundFacts] = {}
    selections = [select(Game.id).where(where)] if where is not None else list(_chunks(list(game_ids or ())))
    for chosen in selections:
        for game_id, player_id, name in db.session.execute(
            select(Seat.game_id, Seat.player_id, Player.name)
            .join(Player, Player.id == Seat.player_id)
            .where(Seat.game_id.in_(chosen))
            .order_by(Seat.game_id, Seat.position)
        ):
            seats.setdefault(game_id, []).append(SeatRow(player_id, name))
        # The rounds and their hands in one statement: on PostgreSQL (READ COMMITTED) each
        # statement sees the database as it is when it starts, so with two statements a round
        # recorded in between would show up as hands of an unknown round.
        for round_id, game_id, went_out_id, player_id, cards, points, achieved in db.session.execute(
            select(Round.id, Round.game_id, Round.went_out_id, HandEntry.player_id, HandEntry.cards,
                   HandEntry.points, HandEntry.achieved)
            .outerjoin(HandEntry, HandEntry.round_id == Round.id)
            .where(Round.game_id.in_(chosen))
            .order_by(Round.game_id, Round.number, HandEntry.id)
        ):
            facts = by_round.get(round_id)
            if facts is None:
                facts = by_round[round_id] = RoundFacts(went_out_id)
                rounds.setdefault(game_id, []).append(facts)
            if player_id is not None:
                facts.hands.append(HandFacts(player_id, cards, points, bool(achieved)))
    return seats, rounds


def work_out(game: GameRow, seats: Sequence[SeatRow], rounds: Sequence[RoundFacts]) -> Replay:
    """Replay one game from its rows."""
    facts = tuple(SeatFact(s.player_id, s.player.name) for s in seats)
    shape = GameFacts(game, seats)
    try:
        setup = setup_of(shape)
        state = replay(setup, [record_of(shape, rnd) for rnd in rounds])
    except (RulesError, ValueError, KeyError, IndexError) as exc:
        return Replay(facts, None, f"its rounds cannot be worked out ({exc})")
    return Replay(facts, state)


def replays(games: Sequence[GameRow], where: ColumnElement[bool] | None = None, keep: bool = True) -> dict[int, Replay]:
    """Every game's replay, from memory, or from its rows (then kept, unless ``keep`` is False).

    ``where``, when it selects the same games, reads the missing rows by it rather than by
    their ids (a fixed number of queries however many are missing).
    """
    kept = memory().games
    found: dict[int, Replay] = {}
    missing: list[GameRow] = []
    for game in games:
        known = kept.get(key(game))
        if known is None:
            missing.append(game)
        else:
            found[game.id] = known
    if missing:
        with bulk_work(len(missing)):
            if where is not None and len(missing) > CHUNK:
                seats, rounds = read_rows(where=where)
            else:
                seats, rounds = read_rows([g.id for g in missing])
            for game in missing:
                worked = work_out(game, seats.get(game.id, []), rounds.get(game.id, []))
                if keep:
                    kept.put(key(game), worked)
                found[game.id] = worked
    return found


def remember(game_key: tuple, worked: Replay) -> None:
    """Keep a state worked out while storing a change (it is the state of the new version)."""
    memory().games.put(game_key, worked)


def forget() -> None:
    """Forget everything this process worked out (tests; a restore replaces the database)."""
    m = memory()
    m.games.clear()
    for cache in m.extra.values():
        cache.clear()


__all__ = [
    "GameFacts",
    "HandFacts",
    "LRU",
    "Replay",
    "bulk_work",
    "RoundFacts",
    "SeatFact",
    "SeatRow",
    "forget",
    "init_app",
    "key",
    "memory",
    "read_rows",
    "record_of",
    "remember",
    "replays",
    "setup_of",
    "work_out",
]
