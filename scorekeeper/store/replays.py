"""Stored games read back and worked out by the rules engine: the one way from rows to state.

Nothing here is kept: a game's state is what the engine makes of its rows (the set-up, the
seats, the rounds and hands) each time they are read. The rows of any number of games are
read in two queries (seats; rounds with their hands), turned into the engine's input by
:func:`setup_of` and :func:`record_of`, and replayed (:func:`work_out`). Pages that list many
games read their stored summaries instead (:mod:`scorekeeper.store.figures.summaries`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import ColumnElement, bindparam, select
from sqlalchemy.orm import raiseload

from scorekeeper.store.models import Game, HandEntry, Player, Round, Seat, db
from scorekeeper.store.figures.summaries import Summary, summary_of
from scorekeeper.rules import (
    DealerRule,
    Deck,
    GameSetup,
    GameState,
    Hand,
    RoundRecord,
    RuleSet,
    RulesError,
    parse_hand,
    replay,
    ruleset_from_text,
)

#: How many ``IN (...)`` values one query carries when reading the rows of given games.
CHUNK = 500


@dataclass(frozen=True)
class SeatFact:
    player_id: int
    name: str


@dataclass(frozen=True)
class LoadedGame:
    """A stored game with its state as the engine works it out: the one type for a game
    read from the database (a scoreboard, a story, a file, a change checked by the store).

    ``game`` is the row (loaded without its relationships where many are read at once, so a
    template cannot issue a query per game). ``state`` is None when the engine refuses the
    rounds (a game stored under other rules), and ``problem`` says why;
    :func:`scorekeeper.store.load` never gives such a game to a change.
    """

    game: Any
    #: Who sits where (player ids and names), in seat order.
    seats: tuple[SeatFact, ...]
    state: GameState | None
    problem: str | None = None
    #: Whether the scorekeeper has made seat links: only through one does a player send a hand
    #: or say a round is wrong, so a game without them has no words to read and no sent hands
    #: to forget. Known for a game read alone (:func:`scorekeeper.store.load`); False where
    #: many are read at once.
    seat_links: bool = False

    @property
    def id(self) -> int:
        return self.game.id

    @property
    def deleted(self) -> bool:
        return self.game.deleted_at is not None

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.finished

    @property
    def summary(self) -> Summary:
        """What the lists show of it (the same as its stored summary)."""
        return summary_of(self.game, self.seats, self.state, self.problem)


# ================================================================ rows into engine input


def rules_of(game: Any) -> RuleSet:
    """The rules a stored game is played by: its own frozen copy of the document it was
    started with (``game.rules_document``), never the rule set of that name as it is now.
    Each distinct document is read once per process (:func:`ruleset_from_text`)."""
    if isinstance(game, GameFacts):
        return game.ruleset
    return ruleset_from_text(game.rules_document, game.rules)


def setup_of(game: Any) -> GameSetup:
    """The set-up of a stored game: its row and its seats (``game.seats``, in seat order,
    each with ``player.name``)."""
    names = [seat.player.name for seat in game.seats]
    return GameSetup(
        rules=rules_of(game),
        players=tuple(names),
        first_dealer=names[game.first_dealer_seat],
        dealer_rule=DealerRule(game.dealer_rule),
        decks=game.decks,
        jokers=game.jokers,
    )


def record_of(game: Any, rnd: Any) -> RoundRecord:
    """A stored round (``rnd.went_out_id``, ``rnd.hands``) as the engine's record."""
    names = game.names if isinstance(game, GameFacts) else {s.player_id: s.player.name for s in game.seats}
    deck = rules_of(game).deck
    hands = {}
    points = {}
    achieved = set()
    bonuses = {}
    for entry in rnd.hands:
        name = names[entry.player_id]
        if entry.achieved:
            achieved.add(name)
        if entry.bonuses:
            bonuses[name] = _bonuses(entry.bonuses)
        if entry.player_id == rnd.went_out_id:
            continue
        if entry.points is not None:
            points[name] = entry.points
        else:
            hands[name] = _hand(entry.cards or "", deck)
    return RoundRecord(names[rnd.went_out_id], hands, points, frozenset(achieved), bonuses)


@lru_cache(maxsize=4096)
def _hand(cards: str, deck: Deck) -> Hand:
    """A stored hand read back with its game's deck (hands are immutable, and many repeat:
    "", "K", "2 2"...)."""
    return parse_hand(cards, deck)


@lru_cache(maxsize=256)
def _bonuses(stored: str) -> frozenset[str]:
    """A hand row's bonuses read back: the keys, space-separated ("perfect-cut")."""
    return frozenset(stored.split())


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

    __slots__ = ("rules", "ruleset", "decks", "jokers", "dealer_rule", "first_dealer_seat", "seats", "names")

    def __init__(self, game: Any, seats: Sequence[SeatRow]) -> None:
        self.rules = game.rules
        #: The game's frozen rules, read once (a ``RuleSetError`` when they cannot be read).
        self.ruleset = ruleset_from_text(game.rules_document, game.rules)
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
    bonuses: str = ""


@dataclass
class RoundFacts:
    went_out_id: int
    hands: list[HandFacts] = field(default_factory=list)


def _chunks(values: Sequence[int]) -> Iterable[Sequence[int]]:
    for i in range(0, len(values), CHUNK):
        yield values[i:i + CHUNK]


# The two statements of :func:`read_rows`, made once, on the tables: every game worked out (a
# page, a change) reads its rows with them, and built anew on the mapped
# classes they took 1.0 to 1.4 ms for a game of twenty rounds, these 0.4 to 0.6 (measured in a
# loop: the statements' cache keys are not worked out again).
_SEAT, _PLAYER, _ROUND, _HAND = Seat.__table__, Player.__table__, Round.__table__, HandEntry.__table__
_SEATS = (select(_SEAT.c.game_id, _SEAT.c.player_id, _PLAYER.c.name)
          .join(_PLAYER, _PLAYER.c.id == _SEAT.c.player_id).order_by(_SEAT.c.game_id, _SEAT.c.position))
_ROUNDS = (select(_ROUND.c.id, _ROUND.c.game_id, _ROUND.c.went_out_id, _HAND.c.player_id, _HAND.c.cards,
                  _HAND.c.points, _HAND.c.achieved, _HAND.c.bonuses)
           .outerjoin(_HAND, _HAND.c.round_id == _ROUND.c.id)
           .order_by(_ROUND.c.game_id, _ROUND.c.number, _HAND.c.id))
_SEATS_OF = _SEATS.where(_SEAT.c.game_id.in_(bindparam("ids", expanding=True)))
_ROUNDS_OF = _ROUNDS.where(_ROUND.c.game_id.in_(bindparam("ids", expanding=True)))


def read_rows(game_ids: Sequence[int] | None = None, where: ColumnElement[bool] | None = None,
              session: Any = None) -> tuple[dict[int, list[SeatRow]], dict[int, list[RoundFacts]]]:
    """The seats and rounds (with hands) of the given games, or of every game ``where``
    selects: two queries (a few more for thousands of ids given one by one)."""
    session = session or db.session.connection()
    seats: dict[int, list[SeatRow]] = {}
    rounds: dict[int, list[RoundFacts]] = {}
    if where is not None:
        chosen = select(Game.id).where(where)
        selections = [(_SEATS.where(_SEAT.c.game_id.in_(chosen)), _ROUNDS.where(_ROUND.c.game_id.in_(chosen)), {})]
    else:
        selections = [(_SEATS_OF, _ROUNDS_OF, {"ids": list(ids)}) for ids in _chunks(list(game_ids or ()))]
    for seats_of, rounds_of, params in selections:
        # The rounds and their hands in one statement: on PostgreSQL (READ COMMITTED) each
        # statement sees the database as it is when it starts, so a round recorded between two
        # statements would show up in the second only.
        facts_of(session.execute(seats_of, params), session.execute(rounds_of, params), seats, rounds)
    return seats, rounds


def rounds_of(game_id: int) -> list[RoundFacts]:
    """One game's rounds, with their hands: one query (its seats come with its row, see
    :func:`scorekeeper.store.games.load`)."""
    rows = db.session.connection().execute(_ROUNDS_OF, {"ids": [game_id]})
    return facts_of((), rows)[1].get(game_id, [])


def facts_of(seat_rows: Iterable[Sequence], round_rows: Iterable[Sequence],
             seats: dict[int, list[SeatRow]] | None = None, rounds: dict[int, list[RoundFacts]] | None = None
             ) -> tuple[dict[int, list[SeatRow]], dict[int, list[RoundFacts]]]:
    """Games' seats and rounds (with hands) by game, from the rows of :func:`read_rows`'s two
    statements, added to ``seats`` and ``rounds``."""
    seats = {} if seats is None else seats
    rounds = {} if rounds is None else rounds
    for game_id, player_id, name in seat_rows:
        seats.setdefault(game_id, []).append(SeatRow(player_id, name))
    by_round: dict[int, RoundFacts] = {}
    for round_id, game_id, went_out_id, player_id, cards, points, achieved, bonuses in round_rows:
        facts = by_round.get(round_id)
        if facts is None:
            facts = by_round[round_id] = RoundFacts(went_out_id)
            rounds.setdefault(game_id, []).append(facts)
        if player_id is not None:
            facts.hands.append(HandFacts(player_id, cards, points, bool(achieved), bonuses or ""))
    return seats, rounds


def work_out(game: Any, seats: Sequence[SeatRow], rounds: Sequence[RoundFacts], seat_links: bool = False
             ) -> LoadedGame:
    """Replay one game from its rows (``game``: its row, an ORM ``Game`` or a row of columns)."""
    facts = tuple(SeatFact(s.player_id, s.player.name) for s in seats)
    try:
        shape = GameFacts(game, seats)
        setup = setup_of(shape)
        state = replay(setup, [record_of(shape, rnd) for rnd in rounds])
    except (RulesError, ValueError, KeyError, IndexError) as exc:
        return LoadedGame(game, facts, None, f"its rounds cannot be worked out ({exc})", seat_links)
    return LoadedGame(game, facts, state, seat_links=seat_links)


def worked_out(games: Sequence[Any], where: ColumnElement[bool] | None = None) -> list[LoadedGame]:
    """Each game with its state, from its rows: two queries, whatever the number of games
    (``where``, when it selects the same games, reads their rows by it rather than by ids)."""
    if not games:
        return []
    if where is not None and len(games) > CHUNK:
        seats, rounds = read_rows(where=where)
    else:
        seats, rounds = read_rows([g.id for g in games])
    return [work_out(game, seats.get(game.id, []), rounds.get(game.id, [])) for game in games]


def load_games(where: ColumnElement[bool], order_by: Sequence = ()) -> list[LoadedGame]:
    """Every game ``where`` selects, with its state: three queries (the games, their seats, their
    rounds and hands), whatever their number. For the few readers that need every round (a
    backup, an import's comparison, a story); lists read summaries."""
    stmt = select(Game).options(raiseload("*")).where(where).order_by(*order_by)
    return worked_out(list(db.session.scalars(stmt)), where)


def load_game(game_id: int) -> LoadedGame | None:
    """One game, whether or not the engine can work it out (its story shows why not)."""
    games = load_games(Game.id == game_id)
    return games[0] if games else None


__all__ = [
    "GameFacts",
    "HandFacts",
    "LoadedGame",
    "RoundFacts",
    "SeatFact",
    "SeatRow",
    "load_game",
    "load_games",
    "read_rows",
    "rounds_of",
    "record_of",
    "rules_of",
    "setup_of",
    "work_out",
    "worked_out",
]
