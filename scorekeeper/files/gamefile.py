"""The game file (GAME-FORMAT.md, and RULESETS.md for version 2): reading and writing it,
with no database.

:func:`read_game` turns a parsed JSON document into a checked set-up and its
rounds; :func:`game_document` writes one back with its ``result``.

Two versions are read. ``scorekeeper-game/1`` names its rules by key (``balmoral`` or
``classic``) and its rounds carry no bonuses; such files import exactly as they always did.
``scorekeeper-game/2`` gives its rules as any preset's key or as a whole rule-set document
(checked as every document is), and its rounds may carry ``bonuses``. An export always writes
version 2 with the whole document, so a file carries its rules wherever it goes.

The rule set a read file is played by has a key, which a stored game keeps as the key it came
from (``Game.rules``, what the history filters by): a preset's key when the rules are that
preset's (by key, or a document equal to the preset's), else :data:`IMPORTED_KEY`. The rules
themselves always travel as the game's own frozen copy of the document.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from scorekeeper.store import IMPORTED_KEY, GameFile
from scorekeeper.rules import (
    ABOUT,
    N_,
    PRESETS,
    RULESETS,
    CardError,
    Deck,
    DocumentProblem,
    GameSetup,
    GameState,
    Phrase,
    Problem,
    Progression,
    RoundError,
    RoundRecord,
    RulesError,
    SetupError,
    RuleSet,
    RuleSetError,
    UnknownRuleSet,
    alternatives,
    document_text,
    get_preset,
    get_rules,
    parse_hand,
    parse_ruleset,
    replay,
    ruleset_document,
)

#: What an export writes.
GAME_FORMAT = "scorekeeper-game/2"
#: The first version, still read unchanged (rules by key, no bonuses).
GAME_FORMAT_1 = "scorekeeper-game/1"
FORMATS = (GAME_FORMAT_1, GAME_FORMAT)
BACKUP_FORMAT = "scorekeeper-backup/1"

_GAME_FIELDS = {
    "format", "rules", "players", "first_dealer", "dealer_rule", "decks", "jokers",
    "started_at", "finished_at", "rounds", "result",
}
_ROUND_FIELDS = {"went_out", "hands", "achieved", "points", "bonuses", "number"}
MAX_ROUNDS = 500


class GameFileError(ValueError):
    """A game file that is refused; the message names the round and player where there is one.

    ``field`` names the field of the document at fault, where one is. ``said``: the message's
    words with their blanks (a :class:`~scorekeeper.rules.Phrase`, or the engine's
    :class:`~scorekeeper.rules.Problem` itself), for a reader in another language; the fields,
    players and cards in it are named as the file names them.
    """

    def __init__(self, said: Phrase | Problem, field: str | None = None) -> None:
        self.field = field
        self.said = said
        super().__init__(str(said))


UNKNOWN_FIELD = N_('unknown field "{field}"')


def _fail(reason: Phrase | Problem, where: object = "", field: str | None = None) -> GameFileError:
    if field is None:
        quoted = re.search(r'"([a-z_]+)"', str(reason))
        field = quoted.group(1) if quoted and quoted.group(1) in _GAME_FIELDS | _ROUND_FIELDS else None
    return GameFileError(Phrase(ABOUT, {"where": where, "reason": reason}) if where else reason, field)


def _of(name: str, reason: Phrase) -> Phrase:
    """A reason about one player's entry ("Ann: points must be a whole number")."""
    return Phrase(ABOUT, {"where": name, "reason": reason})


def _problems(error: RulesError | RuleSetError) -> Phrase | Problem:
    """The engine's reasons one after another, as ``str(error)`` lists them ("...; ..."), each
    with its blanks where the engine gave them."""
    reasons = [_reason(problem) for problem in error.problems]
    joined = reasons[0]
    for then in reasons[1:]:
        joined = Phrase(N_("{first}; {then}"), {"first": joined, "then": then})
    return joined


def _reason(problem: Problem | DocumentProblem) -> Phrase | Problem:
    if isinstance(problem, DocumentProblem):
        # "winner: must be ...": the field as the document names it.
        return Phrase(ABOUT, {"where": problem.field, "reason": problem.said or problem.message})
    return problem  # said with its round and player, as the engine words them


def parse_time(value: object, field: str, where: object = "") -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _fail(Phrase(N_("{field} must be an ISO 8601 time"), {"field": field}), where)
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise _fail(Phrase(N_('{field} "{value}" is not an ISO 8601 time'), {"field": field, "value": value}),
                    where) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise _fail(Phrase(N_('{field} "{value}" is out of range'), {"field": field, "value": value}), where) from None


def format_time(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def read_round(doc: object, where: object, setup: GameSetup | None = None, *, bonuses: bool = True,
               deck: Deck | None = None) -> RoundRecord:
    """One round of a game file (or of an API call) as a record; ``GameFileError`` otherwise.

    Only its form is checked here (names are matched to the seats, bonuses and the cards to
    the rules, by the engine); ``setup`` gives the deck the hands are read with (else ``deck``;
    standard without either). ``bonuses=False`` refuses the field, as version 1 of the file has none."""
    if not isinstance(doc, Mapping):
        raise _fail(Phrase(N_("a round must be an object")), where)
    unknown = sorted(set(doc) - (_ROUND_FIELDS if bonuses else _ROUND_FIELDS - {"bonuses"}), key=str)
    if unknown:
        raise _fail(Phrase(UNKNOWN_FIELD, {"field": unknown[0]}), where, unknown[0])
    went_out = doc.get("went_out")
    if not isinstance(went_out, str):
        raise _fail(Phrase(N_('"went_out" must name the player who went out')), where)
    hands_doc = doc.get("hands", {})
    if not isinstance(hands_doc, Mapping):
        raise _fail(Phrase(N_('"hands" must be an object of player: cards')), where)
    if setup is not None:
        deck = setup.rules.deck
    hands = {}
    for name, text in hands_doc.items():
        if not isinstance(text, str):
            raise _fail(_of(name, Phrase(N_("a hand must be a string of ranks"))), where, "hands")
        try:
            hands[name] = parse_hand(text, deck)
        except CardError as exc:
            raise _fail(_of(name, exc.said), where, "hands") from None
    points_doc = doc.get("points", {})
    if not isinstance(points_doc, Mapping):
        raise _fail(Phrase(N_('"points" must be an object of player: number')), where)
    points = {}
    for name, value in points_doc.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise _fail(_of(name, Phrase(N_("points must be a whole number"))), where, "points")
        points[name] = value
    achieved = doc.get("achieved", [])
    if not isinstance(achieved, list) or not all(isinstance(n, str) for n in achieved):
        raise _fail(Phrase(N_('"achieved" must be a list of player names')), where)
    bonuses_doc = doc.get("bonuses", {})
    if not isinstance(bonuses_doc, Mapping):
        raise _fail(Phrase(N_('"bonuses" must be an object of player: a list of bonus keys')), where)
    earned: dict[str, tuple[str, ...]] = {}
    for name, keys in bonuses_doc.items():
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise _fail(_of(name, Phrase(N_("bonuses must be a list of bonus keys"))), where, "bonuses")
        # Kept as given (a tuple, not a set): the engine refuses a key given twice, and names it.
        earned[name] = tuple(keys)
    return RoundRecord(went_out, hands, points, frozenset(achieved), earned)  # type: ignore[arg-type]


#: A preset's document as JSON text -> its key: a file's document equal to a preset's is that preset.
_PRESET_TEXTS = {document_text(rules): key for key, rules in PRESETS.items()}


def read_rules(value: object, version: str) -> RuleSet:
    """The rules of a file: by key (version 1: balmoral or classic; version 2: any preset) or,
    in version 2, a whole rule-set document, checked as every document is. A refusal names
    the document's field: ``rules: values: no value for 2``."""
    if version == GAME_FORMAT_1:
        try:
            return get_rules(value)  # type: ignore[arg-type]
        except UnknownRuleSet as exc:
            raise _fail(exc.said, field="rules") from None
    if isinstance(value, str):
        try:
            return get_preset(value)
        except UnknownRuleSet as exc:
            raise _fail(exc.said, field="rules") from None
    if not isinstance(value, Mapping):
        raise _fail(Phrase(N_('"rules" must be a preset\'s key or a whole rule-set document')), field="rules")
    try:
        rules = parse_ruleset(value, key=IMPORTED_KEY)
    except RuleSetError as exc:
        raise _fail(_problems(exc), "rules", field="rules") from None
    preset = _PRESET_TEXTS.get(document_text(rules))
    return PRESETS[preset] if preset is not None else rules


def read_game(doc: object, rules: RuleSet | None = None) -> GameFile:
    """Check a whole game file against GAME-FORMAT.md, RULESETS.md and its rules.

    ``rules``, when given, are the rules the caller found for the file's ``rules`` (the API
    takes a house rule set's key, which a file cannot name); the file's own are not read."""
    if not isinstance(doc, Mapping):
        raise _fail(Phrase(N_("a game file must be a JSON object")))
    version = doc.get("format")
    if version not in FORMATS:
        raise _fail(Phrase(N_('"format" must be {allowed}, not {value}'),
                           {"allowed": alternatives([f'"{f}"' for f in FORMATS]), "value": repr(version)}))
    unknown = sorted(set(doc) - _GAME_FIELDS)
    if unknown:
        raise _fail(Phrase(UNKNOWN_FIELD, {"field": unknown[0]}), field=unknown[0])
    if rules is None:
        rules = read_rules(doc.get("rules"), version)  # type: ignore[arg-type]
    players = doc.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise _fail(Phrase(N_('"players" must be a list of names')))
    first_dealer = doc.get("first_dealer")
    if not isinstance(first_dealer, str):
        raise _fail(Phrase(N_('"first_dealer" must name one of the players')))
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
        raise _fail(_problems(exc), field=exc.first.field) from None
    rounds_doc = doc.get("rounds")
    if not isinstance(rounds_doc, list):
        raise _fail(Phrase(N_('"rounds" must be a list (it may be empty)')))
    if len(rounds_doc) > MAX_ROUNDS:
        raise _fail(Phrase(N_("{count} rounds is more than any game has"), {"count": len(rounds_doc)}))
    records = tuple(read_round(r, Phrase(N_("Round {number}"), {"number": i}), setup, bonuses=version != GAME_FORMAT_1)
                    for i, r in enumerate(rounds_doc, start=1))
    try:
        state = replay(setup, records)
    except RoundError as exc:
        raise _fail(_problems(exc), field=exc.first.field or "rounds") from None
    if "result" in doc and not isinstance(doc["result"], Mapping):
        raise _fail(Phrase(N_('"result" must be an object (an import works it out again)')))
    started = parse_time(doc.get("started_at"), "started_at")
    finished = parse_time(doc.get("finished_at"), "finished_at")
    # The rounds as the rules read them: names as seated, each player's bonuses a set.
    return GameFile(setup, tuple(r.record for r in state.rounds), state, started, finished)


def read_document(doc: object) -> list[GameFile]:
    """A game file or a backup, as a list of checked games."""
    if isinstance(doc, Mapping) and doc.get("format") == BACKUP_FORMAT:
        games = doc.get("games")
        if not isinstance(games, list):
            raise _fail(Phrase(N_('a backup\'s "games" must be a list')))
        out = []
        for i, game in enumerate(games, start=1):
            try:
                out.append(read_game(game))
            except GameFileError as exc:
                raise GameFileError(Phrase(N_("Game {number} of the backup: {reason}"),
                                           {"number": i, "reason": exc.said})) from None
        return out
    return [read_game(doc)]


def round_document(setup: GameSetup, record: RoundRecord) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "went_out": record.went_out,
        "hands": {n: setup.rules.written(record.hands[n]) for n in setup.players if n in record.hands},
    }
    if setup.rules.progression is Progression.LADDER:
        doc["achieved"] = [n for n in setup.players if n in record.achieved or n == record.went_out]
    doc["points"] = {n: record.points[n] for n in setup.players if n in record.points}
    if setup.rules.bonuses:
        # Only for rule sets with bonuses (a file of one without stays as version 1 wrote it);
        # each player's keys in the rule set's order.
        order = [b.key for b in setup.rules.bonuses]
        doc["bonuses"] = {n: [k for k in order if k in record.bonuses[n]]
                          for n in setup.players if record.bonuses.get(n)}
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
    version: str = GAME_FORMAT,
) -> dict[str, Any]:
    """The game file of a game, with its ``result``: version 2, its rules the whole document.

    ``version=GAME_FORMAT_1`` writes the file as version 1 did (the rules by key), for a game
    version 1 can tell: one played by balmoral or classic exactly (see :func:`v1_expressible`).
    """
    setup = state.setup
    if version == GAME_FORMAT_1:
        if not v1_expressible(setup.rules):
            raise ValueError(f"{setup.rules.name} cannot be written in {GAME_FORMAT_1}")
        rules: Any = setup.rules.key
    else:
        rules = ruleset_document(setup.rules)
    doc: dict[str, Any] = {
        "format": version,
        "rules": rules,
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


def v1_expressible(rules: RuleSet) -> bool:
    """Whether version 1 of the file can name these rules: balmoral or classic, exactly."""
    return _PRESET_TEXTS.get(document_text(rules)) in RULESETS


def backup_document(games: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return {"format": BACKUP_FORMAT, "games": list(games)}


__all__ = [
    "BACKUP_FORMAT",
    "FORMATS",
    "GAME_FORMAT",
    "GAME_FORMAT_1",
    "IMPORTED_KEY",
    "GameFile",
    "GameFileError",
    "RulesError",
    "backup_document",
    "game_document",
    "read_document",
    "read_game",
    "read_round",
    "read_rules",
    "result_document",
    "v1_expressible",
]
