"""Rule-set documents: reading one into a :class:`RuleSet`, and writing one back.

A rule set reaches the engine as a document (RULESETS.md): from a form, the API, a game file
or the presets. This module is the one gate every document goes through, so each limit of
RULESETS.md is checked here, once, and a refusal names the field (and the stage or the rank)
in words a table can act on.

>>> doc = {"name": "Tiny", "progression": "deal", "stages": [{"contract": "2 sets of 3", "cards": 7}],
...        "deck": "standard", "jokers": False,
...        "values": {"A": 1, "K": 1, "Q": 1, "J": 1, "10": 1, "9": 1, "8": 1, "7": 1, "6": 1,
...                   "5": 1, "4": 1, "3": 1},
...        "hand_limit": "dealt", "dealer_rules": ["rotate"], "min_players": 2, "max_players": 4,
...        "decks": [{"up_to": 4, "decks": 1}], "winner": "lowest"}
>>> try:
...     parse_ruleset(doc)
... except RuleSetError as error:
...     print(error)
values: no value for 2
>>> rules = parse_ruleset({**doc, "values": {**doc["values"], "2": 2}})
>>> rules.stage(1).describe(rules), rules.summary
('Deal 1: 2 sets of 3', 'One deal, everyone on the same contract; 7 cards every deal. Contract: 2 sets of 3. Cards left in hand count A–3 1, 2 2.')
>>> ruleset_document(rules)["stage_name"], ruleset_document(rules)["decks"]
('Deal', [{'up_to': 4, 'decks': 1, 'jokers': 0}])
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from dataclasses import field as _field
from enum import Enum
from functools import lru_cache
from typing import Any, TypeVar

from scorekeeper.rules.cards import Card, Deck, Rank
from scorekeeper.rules.names import NameRefused, clean_name, has_half_character
from scorekeeper.rules.rulesets import Bonus, DealerRule, HandLimit, Progression, RuleSet, Stage, WinnerRule
from scorekeeper.rules.words import N_, Phrase, alternatives

# The limits of RULESETS.md, named so that messages and checks cannot drift apart.
MAX_NAME = 60
MAX_STAGE_NAME = 20
MAX_STAGES = 30
MAX_CONTRACT = 100
MAX_CARDS = 30
MAX_VALUE = 500
MAX_PLAYERS = 8
MIN_PLAYERS = 2
MAX_DECKS = 8
MAX_ROW_JOKERS = 16
MAX_BONUSES = 10
MAX_BONUS_KEY = 30
MAX_BONUS_LABEL = 60
MAX_BONUS_POINTS = 1000
MAX_NOTE = 300

#: Every field of a document; anything else is refused, so a misspelt field ("bonus") is
#: reported instead of silently meaning "no bonuses".
FIELDS = (
    "name", "stage_name", "progression", "stages", "deck", "jokers", "values", "hand_limit",
    "dealer_rules", "min_players", "max_players", "decks", "bonuses", "winner", "note",
)
REQUIRED = frozenset(FIELDS) - {"stage_name", "bonuses", "note"}

_BONUS_KEY = re.compile(r"[a-z0-9-]+")


@dataclass(frozen=True)
class DocumentProblem:
    """One broken limit: the field it concerns, the stage or rank where it applies. ``said``:
    the message's words with their blanks, for a reader in another language (None for a
    message said only in English)."""

    field: str
    message: str
    stage: int | None = None
    rank: str | None = None
    said: Phrase | None = _field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class RuleSetError(ValueError):
    """A rule-set document that breaks a limit of RULESETS.md. ``problems`` lists each one,
    so a form can show every error next to its field at once."""

    def __init__(self, problems: list[DocumentProblem] | tuple[DocumentProblem, ...]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    @property
    def first(self) -> DocumentProblem:
        return self.problems[0]


def _is_int(value: object) -> bool:
    # JSON's true is not a number of cards.
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: object) -> str | None:
    """The text with runs of spaces made one, or None when it is not text (or holds control
    characters, which show nothing on a screen and would only hide a difference, or half a
    character, which no file or database can hold)."""
    if (not isinstance(value, str) or any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in value)
            or has_half_character(value)):
        return None
    return " ".join(value.split())


E = TypeVar("E", bound=Enum)


class _Reader:
    """Collects every problem of one document instead of stopping at the first."""

    def __init__(self, doc: Mapping[str, Any]) -> None:
        self.doc = doc
        self.problems: list[DocumentProblem] = []

    def refuse(self, field: str, template: str, params: Mapping[str, object] | None = None,
               stage: int | None = None, rank: str | None = None) -> None:
        said = Phrase(template, params)
        self.problems.append(DocumentProblem(field, str(said), stage, rank, said))

    def text(self, field: str, value: object, most: int, what: Phrase | str = "", stage: int | None = None,
             least: int = 1) -> str | None:
        cleaned = _text(value)
        if isinstance(value, str) and has_half_character(value):
            self.refuse(field, N_("{what} holds half a character (a lone surrogate such as \\ud800), which no file "
                                  "or database can keep") if what else
                        N_("holds half a character (a lone surrogate such as \\ud800), which no file or database "
                           "can keep"), {"what": what} if what else {}, stage)
        elif cleaned is None:
            self.refuse(field, N_("{what} must be text without control characters"), {"what": what}, stage)
        elif not least <= len(cleaned) <= most:
            self.refuse(field, N_("{what} must be {least} to {most} characters, not {length}"),
                        {"what": what, "least": least, "most": most, "length": len(cleaned)}, stage)
        else:
            return cleaned
        return None

    def name(self, field: str, value: object) -> str | None:
        """A rule set's name: text of the right length, then the same rule as a player's name
        (nothing that shows nothing, no invisible or direction marks)."""
        text = self.text(field, value, MAX_NAME)
        if text is None:
            return None
        try:
            return clean_name(text, "rule set's name", MAX_NAME)
        except NameRefused as exc:  # a name the text check let through (invisible characters...)
            self.problems.append(DocumentProblem(field, str(exc), said=exc.said))
            return None

    def whole(self, field: str, value: object, least: int, most: int, what: Phrase | str = "",
              stage: int | None = None, rank: str | None = None) -> int | None:
        if _is_int(value) and least <= value <= most:  # type: ignore[operator]
            return value  # type: ignore[return-value]
        self.refuse(field, N_("{what} must be a whole number from {least} to {most}, not {value}"),
                    {"what": what, "least": least, "most": most, "value": repr(value)}, stage, rank)
        return None

    def choice(self, field: str, value: object, kind: type[E]) -> E | None:
        try:
            return kind(value)
        except (ValueError, TypeError):
            self.refuse(field, N_("{what} must be {allowed}, not {value}"),
                        {"what": "", "allowed": alternatives([f'"{m.value}"' for m in kind]), "value": repr(value)})
            return None

    def listing(self, field: str, least: int, most: int) -> list[Any] | None:
        value = self.doc.get(field)
        if not isinstance(value, list):
            self.refuse(field, N_("{what} must be a list"), {"what": ""})
        elif not least <= len(value) <= most:
            self.refuse(field, N_("{what} must hold {least} to {most} entries, not {count}"),
                        {"what": "", "least": least, "most": most, "count": len(value)})
        else:
            return value
        return None


def _entry(reader: _Reader, field: str, value: object, keys: set[str], optional: set[str],
           what: Phrase, stage: int | None = None) -> Mapping[str, Any] | None:
    """One row of a list field: an object with exactly the keys it should have."""
    if not isinstance(value, Mapping):
        reader.refuse(field, N_("{what} must be an object"), {"what": what}, stage)
        return None
    missing = sorted(keys - optional - set(value))
    extra = sorted(set(value) - keys, key=str)
    if missing:
        reader.refuse(field, N_("{what} has no {key}"), {"what": what, "key": missing[0]}, stage)
    elif extra:
        reader.refuse(field, N_('{what} has an unknown field "{key}"'), {"what": what, "key": extra[0]}, stage)
    else:
        return value
    return None


def _stages(reader: _Reader, progression: Progression | None) -> tuple[Stage, ...] | None:
    rows = reader.listing("stages", 1, MAX_STAGES)
    if rows is None:
        return None
    stages: list[Stage] = []
    for number, row in enumerate(rows, start=1):
        where = {"stage": "stage", "number": number}
        entry = _entry(reader, "stages", row, {"contract", "cards"}, set(), Phrase(N_("{stage} {number}"), where), number)
        if entry is None:
            continue
        contract = reader.text("stages", entry["contract"], MAX_CONTRACT,
                               Phrase(N_("{stage} {number}'s contract"), where), number)
        cards = reader.whole("stages", entry["cards"], 1, MAX_CARDS, Phrase(N_("{stage} {number}'s cards"), where),
                             number)
        if contract is not None and cards is not None:
            stages.append(Stage(number, contract, cards))
    if len(stages) != len(rows):
        return None
    if progression is Progression.LADDER:
        # Players on different stages of a ladder share one deal, so one number fits all.
        first = stages[0].cards_dealt
        for stage in stages[1:]:
            if stage.cards_dealt != first:
                reader.refuse(
                    "stages",
                    N_("{stage} {number} deals {cards} cards but a ladder deals the same number every {stage} "
                       "({stage} 1 deals {first})"),
                    {"stage": "stage", "number": stage.number, "cards": stage.cards_dealt, "first": first},
                    stage.number,
                )
                return None
    return tuple(stages)


def _values(reader: _Reader, deck: Deck | None, jokers: bool | None) -> dict[Card, int] | None:
    given = reader.doc.get("values")
    if not isinstance(given, Mapping):
        reader.refuse("values", N_("{what} must be an object from rank to value"), {"what": ""})
        return None
    if deck is None or jokers is None:
        return None  # which ranks need a value is unknown; the deck's own message says why
    ranks = deck.ranks + ((Rank.JOKER,) if jokers else ())
    values: dict[Card, int] = {}
    for rank in ranks:
        if rank.value not in given:
            reader.refuse("values", N_("no value for {rank}"), {"rank": rank.value}, rank=rank.value)
            continue
        value = reader.whole("values", given[rank.value], 0, MAX_VALUE,
                             Phrase(N_("the value of {rank}"), {"rank": rank.value}), rank=rank.value)
        if value is not None:
            values[rank] = value
    known = {rank.value for rank in ranks}
    for key in given:
        if key in known:
            continue
        if key == Rank.JOKER.value and deck is Deck.STANDARD:
            reader.refuse("values", N_("JK has a value but the rule set plays without jokers"), rank=key)
        elif deck is Deck.PHASE10:
            reader.refuse("values", N_("{rank} is not a rank of the Phase 10 deck"), {"rank": repr(key)}, rank=str(key))
        else:
            reader.refuse("values", N_("{rank} is not a rank of the standard deck"), {"rank": repr(key)}, rank=str(key))
    return values if len(values) == len(ranks) and len(given) == len(ranks) else None


def _dealer_rules(reader: _Reader) -> tuple[DealerRule, ...] | None:
    rows = reader.listing("dealer_rules", 1, len(DealerRule))
    if rows is None:
        return None
    rules = [reader.choice("dealer_rules", row, DealerRule) for row in rows]
    if None in rules:
        return None
    if len(set(rules)) != len(rules):
        reader.refuse("dealer_rules", N_('"{rule}" is given twice'), {"rule": rules[0].value})  # type: ignore[union-attr]
        return None
    return tuple(rules)  # type: ignore[arg-type]


def _deck_table(reader: _Reader, jokers: bool | None, deck: Deck | None, max_players: int | None,
                stages: tuple[Stage, ...] | None) -> tuple[tuple[int, int, int], ...] | None:
    rows = reader.listing("decks", 1, MAX_PLAYERS)
    if rows is None:
        return None
    table: list[tuple[int, int, int]] = []
    for i, row in enumerate(rows, start=1):
        where = {"number": i}
        entry = _entry(reader, "decks", row, {"up_to", "decks", "jokers"}, {"jokers"}, Phrase(N_("row {number}"), where))
        if entry is None:
            continue
        up_to = reader.whole("decks", entry["up_to"], MIN_PLAYERS, MAX_PLAYERS, Phrase(N_("row {number}'s up_to"), where))
        decks = reader.whole("decks", entry["decks"], 1, MAX_DECKS, Phrase(N_("row {number}'s decks"), where))
        row_jokers = reader.whole("decks", entry.get("jokers", 0), 0, MAX_ROW_JOKERS,
                                  Phrase(N_("row {number}'s jokers"), where))
        if up_to is None or decks is None or row_jokers is None:
            continue
        if row_jokers and jokers is False:
            reader.refuse("decks", N_("row {number} suggests {jokers} jokers but the rule set plays without jokers"),
                          {**where, "jokers": row_jokers})
            continue
        if table and up_to <= table[-1][0]:
            reader.refuse("decks", N_("row {number}'s up_to must be above the row before's ({before})"),
                          {**where, "before": table[-1][0]})
            continue
        if deck is not None and stages is not None:
            # A suggestion must be a set-up a game can start with (GameSetup refuses this too).
            most = max(s.cards_dealt for s in stages)
            if decks * deck.size < up_to * most:
                reader.refuse("decks", N_("row {number}: 1 deck cannot deal {most} cards to {count} players") if decks == 1
                              else N_("row {number}: {decks} decks cannot deal {most} cards to {count} players"),
                              {**where, "decks": decks, "most": most, "count": up_to})
                continue
        table.append((up_to, decks, row_jokers))
    if len(table) != len(rows):
        return None
    if max_players is not None and table[-1][0] < max_players:
        reader.refuse("decks", N_("the last row is for up to {count} players, but {max_players} is {most}"),
                      {"count": table[-1][0], "max_players": "max_players", "most": max_players})
        return None
    return tuple(table)


def _bonuses(reader: _Reader) -> tuple[Bonus, ...] | None:
    if "bonuses" not in reader.doc:
        return ()
    rows = reader.listing("bonuses", 0, MAX_BONUSES)
    if rows is None:
        return None
    bonuses: list[Bonus] = []
    keys: set[str] = set()
    for i, row in enumerate(rows, start=1):
        entry = _entry(reader, "bonuses", row, {"key", "label", "points"}, set(), Phrase(N_("bonus {number}"), {"number": i}))
        if entry is None:
            continue
        key = entry["key"]
        if not isinstance(key, str) or not 1 <= len(key) <= MAX_BONUS_KEY or not _BONUS_KEY.fullmatch(key):
            reader.refuse("bonuses", N_("bonus {number}'s key {key} must be 1 to {most} lowercase letters, digits and -"),
                          {"number": i, "key": repr(key), "most": MAX_BONUS_KEY})
            continue
        if key in keys:
            reader.refuse("bonuses", N_('the key "{key}" is used twice'), {"key": key})
            continue
        keys.add(key)
        # The bonus by its key in quotes: a form that knows the bonus's label says it by that.
        bonus = {"bonus": f'"{key}"'}
        label = reader.text("bonuses", entry["label"], MAX_BONUS_LABEL, Phrase(N_("{bonus}'s label"), bonus))
        points = reader.whole("bonuses", entry["points"], -MAX_BONUS_POINTS, MAX_BONUS_POINTS,
                              Phrase(N_("{bonus}'s points"), bonus))
        if points == 0:
            reader.refuse("bonuses", N_("{bonus} scores 0 points, so it changes nothing: give it points or leave it out"),
                          bonus)
            continue
        if label is not None and points is not None:
            bonuses.append(Bonus(key, label, points))
    return tuple(bonuses) if len(bonuses) == len(rows) else None


def parse_ruleset(document: object, *, key: str = "") -> RuleSet:
    """Check a rule-set document against every limit of RULESETS.md and read it.

    ``key`` is what the caller calls the rule set (a preset's key); it is not part of the
    document. Raises :class:`RuleSetError` listing every problem found.
    """
    if not isinstance(document, Mapping):
        said = Phrase(N_("a rule set must be an object (a JSON document)"))
        raise RuleSetError([DocumentProblem("rules", str(said), said=said)])
    reader = _Reader(document)
    for unknown in sorted(set(document) - set(FIELDS), key=str):
        reader.refuse(str(unknown), N_("{what} is not a field of a rule set"), {"what": ""})
    for absent in sorted(REQUIRED - set(document)):
        reader.refuse(absent, N_("{what} is missing"), {"what": ""})
    doc = document

    name = reader.name("name", doc["name"]) if "name" in doc else None
    progression = reader.choice("progression", doc["progression"], Progression) if "progression" in doc else None
    deck = reader.choice("deck", doc["deck"], Deck) if "deck" in doc else None
    jokers = doc.get("jokers")
    if "jokers" in doc:
        if not isinstance(jokers, bool):
            reader.refuse("jokers", N_("{what} must be true or false, not {value}"), {"what": "", "value": repr(jokers)})
            jokers = None
        elif jokers and deck is Deck.PHASE10:
            reader.refuse("jokers", N_("the Phase 10 deck has no jokers (it has wilds)"))
            jokers = None
    stage_word = None
    if "stage_name" in doc:
        stage_word = reader.text("stage_name", doc["stage_name"], MAX_STAGE_NAME)
    elif progression is not None:
        stage_word = progression.stage_word
    stages = _stages(reader, progression) if "stages" in doc else None
    values = _values(reader, deck, jokers) if "values" in doc else None
    hand_limit = reader.choice("hand_limit", doc["hand_limit"], HandLimit) if "hand_limit" in doc else None
    dealer_rules = _dealer_rules(reader) if "dealer_rules" in doc else None
    min_players = max_players = None
    if "min_players" in doc:
        min_players = reader.whole("min_players", doc["min_players"], MIN_PLAYERS, MAX_PLAYERS)
    if "max_players" in doc:
        max_players = reader.whole("max_players", doc["max_players"], MIN_PLAYERS, MAX_PLAYERS)
    if min_players is not None and max_players is not None and min_players > max_players:
        reader.refuse("max_players", N_("{most} is below {min_players} ({least})"),
                      {"most": max_players, "min_players": "min_players", "least": min_players})
        max_players = None
    deck_table = _deck_table(reader, jokers, deck, max_players, stages) if "decks" in doc else None
    bonuses = _bonuses(reader)
    winner = reader.choice("winner", doc["winner"], WinnerRule) if "winner" in doc else None
    if winner is WinnerRule.LOWEST_FINISHER and progression is Progression.DEAL:
        # In a deal game everyone plays every stage: there is no one "finisher" to single out.
        reader.refuse("winner", N_('"lowest-finisher" needs the ladder progression'))
    note = reader.text("note", doc.get("note", ""), MAX_NOTE, least=0)

    if reader.problems:
        raise RuleSetError(reader.problems)
    return RuleSet(
        key=key,
        name=name,  # type: ignore[arg-type]
        stage_word=stage_word,  # type: ignore[arg-type]
        stages=stages,  # type: ignore[arg-type]
        progression=progression,  # type: ignore[arg-type]
        dealer_rules=dealer_rules,  # type: ignore[arg-type]
        min_players=min_players,  # type: ignore[arg-type]
        max_players=max_players,  # type: ignore[arg-type]
        deck_table=deck_table,  # type: ignore[arg-type]
        uses_jokers=jokers,  # type: ignore[arg-type]
        hand_rule=hand_limit,  # type: ignore[arg-type]
        meld_note=note,  # type: ignore[arg-type]
        values=values,  # type: ignore[arg-type]
        deck=deck,  # type: ignore[arg-type]
        bonuses=bonuses,  # type: ignore[arg-type]
        winner=winner,  # type: ignore[arg-type]
    )


def ruleset_document(rules: RuleSet) -> dict[str, Any]:
    """The document of a rule set, every field written out (optional ones with their value
    or default), so ``parse_ruleset(ruleset_document(r), key=r.key) == r``; a document read
    with :func:`parse_ruleset` comes back the same, with its defaults filled in."""
    return {
        "name": rules.name,
        "stage_name": rules.stage_word,
        "progression": rules.progression.value,
        "stages": [{"contract": s.contract, "cards": s.cards_dealt} for s in rules.stages],
        "deck": rules.deck.value,
        "jokers": rules.uses_jokers,
        "values": {rank.value: rules.values[rank] for rank in rules.ranks},
        "hand_limit": rules.hand_rule.value,
        "dealer_rules": [r.value for r in rules.dealer_rules],
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "decks": [{"up_to": up_to, "decks": decks, "jokers": jokers} for up_to, decks, jokers in rules.deck_table],
        "bonuses": [{"key": b.key, "label": b.label, "points": b.points} for b in rules.bonuses],
        "winner": rules.winner.value,
        "note": rules.meld_note,
    }


def document_text(rules: RuleSet) -> str:
    """A rule set's whole document as JSON text: what a game stores as its frozen copy of the
    rules it was started with. The same rules always give the same text (so games started
    from one rule set share one cache entry in :func:`ruleset_from_text`).

    >>> from scorekeeper.rules import CLASSIC
    >>> ruleset_from_text(document_text(CLASSIC), key="classic") == CLASSIC
    True
    """
    return json.dumps(ruleset_document(rules), ensure_ascii=False, separators=(",", ":"))


def same_rules(a: RuleSet, b: RuleSet) -> bool:
    """Whether two rule sets deal, score and end a game alike, whatever each is called: a house
    rule set renamed, or a game's rules saved under another name, are still those rules.

    >>> from dataclasses import replace
    >>> from scorekeeper.rules import LIVERPOOL
    >>> same_rules(LIVERPOOL, replace(LIVERPOOL, name="Family Liverpool"))
    True
    >>> same_rules(LIVERPOOL, replace(LIVERPOOL, meld_note="Jokers are wild."))
    False
    """
    return nameless_text(a) == nameless_text(b)


def nameless_text(rules: RuleSet) -> str:
    """A rule set's document without its name: two rule sets with the same one are the same
    rules (:func:`same_rules`)."""
    return document_text(replace(rules, name=""))


@lru_cache(maxsize=256)
def ruleset_from_text(text: str, key: str = "") -> RuleSet:
    """The rule set of a document stored as JSON text (a game's frozen copy, a house rule
    set), checked as :func:`parse_ruleset` checks any document. Pure, so each distinct text
    is read once per process; a text that is not JSON is a :class:`RuleSetError` too."""
    try:
        document = json.loads(text)
    except ValueError:
        said = Phrase(N_("the stored rule set is not a JSON document"))
        raise RuleSetError([DocumentProblem("rules", str(said), said=said)]) from None
    return parse_ruleset(document, key=key)


__all__ = ["DocumentProblem", "RuleSetError", "document_text", "parse_ruleset", "ruleset_document",
           "nameless_text", "ruleset_from_text", "same_rules"]
