"""The game file (GAME-FORMAT.md): reading and writing it, with no database.

:func:`read_game` turns a parsed JSON document into a checked set-up and its
rounds; :func:`game_document` writes one back with its ``result``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .rules import (
    CardError,
    GameSetup,
    GameState,
    Progression,
    RoundError,
    RoundRecord,
    RulesError,
    SetupError,
    get_rules,
    parse_hand,
    replay,
)

GAME_FORMAT = "scorekeeper-game/1"
BACKUP_FORMAT = "scorekeeper-backup/1"

_GAME_FIELDS = {
    "format", "rules", "players", "first_dealer", "dealer_rule", "decks", "jokers",
    "started_at", "finished_at", "rounds", "result",
}
_ROUND_FIELDS = {"went_out", "hands", "achieved", "points", "number"}
MAX_ROUNDS = 500


class GameFileError(ValueError):
    """A game file that is refused; the message names the round and player where there is one.

    ``field`` names the field of the document at fault, where one is.
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        self.field = field
        super().__init__(message)


@dataclass(frozen=True)
class GameFile:
    setup: GameSetup
    rounds: tuple[RoundRecord, ...]
    state: GameState
    started_at: datetime | None
    finished_at: datetime | None


def _fail(message: str, where: str = "", field: str | None = None) -> GameFileError:
    if field is None:
        quoted = re.search(r'"([a-z_]+)"', message)
        field = quoted.group(1) if quoted and quoted.group(1) in _GAME_FIELDS | _ROUND_FIELDS else None
    return GameFileError(f"{where}: {message}" if where else message, field)


def parse_time(value: object, field: str, where: str = "") -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _fail(f"{field} must be an ISO 8601 time", where)
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise _fail(f'{field} "{value}" is not an ISO 8601 time', where) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise _fail(f'{field} "{value}" is out of range', where) from None


def format_time(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def read_round(doc: object, where: str, setup: GameSetup | None = None) -> RoundRecord:
    """One round of a game file (or of an API call) as a record; ``GameFileError`` otherwise.

    Only its form is checked here (names are matched to the seats, and the cards to the
    rules, by the engine), so ``setup`` is not needed."""
    if not isinstance(doc, Mapping):
        raise _fail("a round must be an object", where)
    unknown = sorted(set(doc) - _ROUND_FIELDS)
    if unknown:
        raise _fail(f'unknown field "{unknown[0]}"', where, unknown[0])
    went_out = doc.get("went_out")
    if not isinstance(went_out, str):
        raise _fail('"went_out" must name the player who went out', where)
    hands_doc = doc.get("hands", {})
    if not isinstance(hands_doc, Mapping):
        raise _fail('"hands" must be an object of player: cards', where)
    hands = {}
    for name, text in hands_doc.items():
        if not isinstance(text, str):
            raise _fail(f"{name}: a hand must be a string of ranks", where, "hands")
        try:
            hands[name] = parse_hand(text)
        except CardError as exc:
            raise _fail(f"{name}: {exc}", where, "hands") from None
    points_doc = doc.get("points", {})
    if not isinstance(points_doc, Mapping):
        raise _fail('"points" must be an object of player: number', where)
    points = {}
    for name, value in points_doc.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise _fail(f"{name}: points must be a whole number", where, "points")
        points[name] = value
    achieved = doc.get("achieved", [])
    if not isinstance(achieved, list) or not all(isinstance(n, str) for n in achieved):
        raise _fail('"achieved" must be a list of player names', where)
    return RoundRecord(went_out, hands, points, frozenset(achieved))


def read_game(doc: object) -> GameFile:
    """Check a whole game file against GAME-FORMAT.md and RULES.md."""
    if not isinstance(doc, Mapping):
        raise _fail("a game file must be a JSON object")
    if doc.get("format") != GAME_FORMAT:
        raise _fail(f'"format" must be "{GAME_FORMAT}", not {doc.get("format")!r}')
    unknown = sorted(set(doc) - _GAME_FIELDS)
    if unknown:
        raise _fail(f'unknown field "{unknown[0]}"', field=unknown[0])
    try:
        rules = get_rules(doc.get("rules"))  # type: ignore[arg-type]
    except ValueError as exc:
        raise _fail(str(exc), field="rules") from None
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise _fail('"players" must be a list of names')
    first_dealer = doc.get("first_dealer")
    if not isinstance(first_dealer, str):
        raise _fail('"first_dealer" must name one of the players')
    try:
        setup = GameSetup.create(
            rules,
            players,
            first_dealer=first_dealer,
            dealer_rule=doc.get("dealer_rule"),
            decks=doc.get("decks"),
            jokers=doc.get("jokers"),
        )
    except SetupError as exc:
        raise _fail(str(exc), field=exc.first.field) from None
    rounds_doc = doc.get("rounds")
    if not isinstance(rounds_doc, list):
        raise _fail('"rounds" must be a list (it may be empty)')
    if len(rounds_doc) > MAX_ROUNDS:
        raise _fail(f"{len(rounds_doc)} rounds is more than any game has")
    records = tuple(read_round(r, f"Round {i}", setup) for i, r in enumerate(rounds_doc, start=1))
    try:
        state = replay(setup, records)
    except RoundError as exc:
        raise _fail(str(exc), field=exc.first.field or "rounds") from None
    if "result" in doc and not isinstance(doc["result"], Mapping):
        raise _fail('"result" must be an object (an import works it out again)')
    started = parse_time(doc.get("started_at"), "started_at")
    finished = parse_time(doc.get("finished_at"), "finished_at")
    return GameFile(setup, records, state, started, finished)


def read_document(doc: object) -> list[GameFile]:
    """A game file or a backup, as a list of checked games."""
    if isinstance(doc, Mapping) and doc.get("format") == BACKUP_FORMAT:
        games = doc.get("games")
        if not isinstance(games, list):
            raise _fail('a backup\'s "games" must be a list')
        out = []
        for i, game in enumerate(games, start=1):
            try:
                out.append(read_game(game))
            except GameFileError as exc:
                raise GameFileError(f"Game {i} of the backup: {exc}") from None
        return out
    return [read_game(doc)]


def round_document(setup: GameSetup, record: RoundRecord) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "went_out": record.went_out,
        "hands": {n: record.hands[n].canonical for n in setup.players if n in record.hands},
    }
    if setup.rules.progression is Progression.LADDER:
        doc["achieved"] = [n for n in setup.players if n in record.achieved or n == record.went_out]
    doc["points"] = {n: record.points[n] for n in setup.players if n in record.points}
    return doc


def result_document(state: GameState) -> dict[str, Any]:
    ladder = state.rules.progression is Progression.LADDER
    players = []
    for p in state.players:
        entry: dict[str, Any] = {"name": p.name, "total": p.total}
        if ladder:
            entry["completed"] = p.completed
        entry["penalties"] = list(p.penalties)
        players.append(entry)
    nxt = state.next
    return {
        "finished": state.finished,
        "winners": list(state.winners),
        "players": players,
        "rounds": [
            {"number": r.number, "dealer": r.dealer, "cards_dealt": r.cards_dealt} for r in state.rounds
        ],
        "next": None
        if nxt is None
        else {"number": nxt.number, "dealer": nxt.dealer, "cards_dealt": nxt.cards_dealt},
    }


def game_document(
    state: GameState,
    started_at: datetime | None = None,
    finished_at: datetime | None = None,
    with_result: bool = True,
) -> dict[str, Any]:
    """The game file of a game, with its ``result``."""
    setup = state.setup
    doc: dict[str, Any] = {
        "format": GAME_FORMAT,
        "rules": setup.rules.key,
        "players": list(setup.players),
        "first_dealer": setup.first_dealer,
        "dealer_rule": setup.dealer_rule.value,
        "decks": setup.decks,
        "jokers": setup.jokers,
    }
    if started_at is not None:
        doc["started_at"] = format_time(started_at)
    if finished_at is not None:
        doc["finished_at"] = format_time(finished_at)
    doc["rounds"] = [round_document(setup, r.record) for r in state.rounds]
    if with_result:
        doc["result"] = result_document(state)
    return doc


def backup_document(games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return {"format": BACKUP_FORMAT, "games": list(games)}


__all__ = [
    "BACKUP_FORMAT",
    "GAME_FORMAT",
    "GameFile",
    "GameFileError",
    "RulesError",
    "backup_document",
    "game_document",
    "read_document",
    "read_game",
    "read_round",
    "result_document",
]
