"""The built-in rule sets, as documents (RULESETS.md, "The presets"; RULES.md for the first two).

They are data like any table's house rules, read through the same checks
(:func:`~scorekeeper.rules.documents.parse_ruleset`) when this module is imported, so a preset
that broke a limit would fail at import rather than in a game.

>>> sorted(PRESETS)
['balmoral', 'classic', 'liverpool', 'phase10', 'shanghai']
>>> list(RULESETS)
['balmoral', 'classic']
>>> PHASE10.stage(4).describe(PHASE10), PHASE10.suggested_decks(6)
('Phase 4: 1 run of 7', (1, 0))
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from scorekeeper.rules.documents import nameless_text, parse_ruleset
from scorekeeper.rules.rulesets import RuleSet
from scorekeeper.rules.words import N_, Phrase

_FACE = {str(n): n for n in range(10, 1, -1)}

_RUN_NOTE = N_("Runs are one suit; an ace is low or high, but a run never wraps (Q K A 2 is not a run).")

BALMORAL_DOCUMENT: Mapping[str, Any] = {
    "name": N_("Balmoral Rummy"),
    "stage_name": N_("Level"),
    "progression": "ladder",
    "stages": [
        {"contract": contract, "cards": 13}
        for contract in (
            N_("3 sets of 3"),
            N_("1 set of 3 and 1 run of 4"),
            N_("2 sets of 4"),
            N_("2 runs of 4"),
            N_("1 set of 4 and 1 run of 4"),
            N_("4 sets of 3"),
            N_("1 set of 3 and 1 run of 7"),
        )
    ],
    "deck": "standard",
    # RULES.md: "Balmoral plays without jokers".
    "jokers": False,
    "values": {"A": 15, "K": 10, "Q": 10, "J": 10, **_FACE},
    "hand_limit": "dealt",
    # The winner of the round deals by default; a game may rotate instead.
    "dealer_rules": ["winner", "rotate"],
    "min_players": 2,
    "max_players": 8,
    # max(2, ceil(players / 2)) decks, as a table.
    "decks": [{"up_to": 4, "decks": 2, "jokers": 0}, {"up_to": 6, "decks": 3, "jokers": 0},
              {"up_to": 8, "decks": 4, "jokers": 0}],
    "bonuses": [],
    "winner": "lowest",
    "note": _RUN_NOTE,
}

CLASSIC_DOCUMENT: Mapping[str, Any] = {
    "name": N_("Contract Rummy (classic)"),
    "stage_name": N_("Deal"),
    "progression": "deal",
    "stages": [
        {"contract": N_("two groups"), "cards": 10},
        {"contract": N_("one group and one sequence"), "cards": 10},
        {"contract": N_("two sequences"), "cards": 10},
        {"contract": N_("three groups"), "cards": 10},
        {"contract": N_("two groups and one sequence"), "cards": 12},
        {"contract": N_("one group and two sequences"), "cards": 12},
        {"contract": N_("three sequences, with no unmatched cards"), "cards": 12},
    ],
    "deck": "standard",
    "jokers": True,
    "values": {"A": 15, "K": 10, "Q": 10, "J": 10, **_FACE, "JK": 15},
    # A player who takes a discard out of turn draws a penalty card too.
    "hand_limit": "none",
    "dealer_rules": ["rotate"],
    "min_players": 3,
    "max_players": 8,
    "decks": [{"up_to": 4, "decks": 2, "jokers": 1}, {"up_to": 8, "decks": 3, "jokers": 2}],
    "bonuses": [],
    "winner": "lowest",
    "note": N_(
        "A group is three or more of a rank; a sequence is three or more in a row of one suit, "
        "ace low or high, never K A 2."
    ),
}

LIVERPOOL_DOCUMENT: Mapping[str, Any] = {
    "name": N_("Liverpool Rummy"),
    "stage_name": N_("Deal"),
    "progression": "deal",
    "stages": [
        {"contract": N_("2 sets of 3"), "cards": 10},
        {"contract": N_("1 set of 3 and 1 run of 4"), "cards": 10},
        {"contract": N_("2 runs of 4"), "cards": 10},
        {"contract": N_("3 sets of 3"), "cards": 10},
        {"contract": N_("2 sets of 3 and 1 run of 4"), "cards": 12},
        {"contract": N_("1 set of 3 and 2 runs of 4"), "cards": 12},
        {"contract": N_("3 runs of 4, all cards, no discard"), "cards": 12},
    ],
    "deck": "standard",
    "jokers": True,
    "values": {"A": 15, "K": 10, "Q": 10, "J": 10, **_FACE, "JK": 15},
    # Players buy discards out of turn, so a hand may hold more than was dealt.
    "hand_limit": "none",
    "dealer_rules": ["rotate"],
    "min_players": 3,
    "max_players": 8,
    "decks": [{"up_to": 4, "decks": 2, "jokers": 4}, {"up_to": 8, "decks": 3, "jokers": 6}],
    "bonuses": [{"key": "perfect-cut", "label": N_("Perfect cut"), "points": -50}],
    "winner": "lowest",
    "note": _RUN_NOTE,
}

SHANGHAI_DOCUMENT: Mapping[str, Any] = {
    "name": N_("Shanghai Rummy"),
    "stage_name": N_("Deal"),
    "progression": "deal",
    "stages": [
        {"contract": contract, "cards": 11}
        for contract in (
            N_("2 sets of 3"),
            N_("1 set of 3 and 1 run of 4"),
            N_("2 runs of 4"),
            N_("3 sets of 3"),
            N_("1 set of 3 and 1 run of 7"),
            N_("2 sets of 3 and 1 run of 5"),
            N_("3 runs of 4"),
            N_("1 set of 3 and 1 run of 10"),
            N_("3 sets of 3 and 1 run of 5"),
            N_("3 runs of 5"),
        )
    ],
    "deck": "standard",
    "jokers": True,
    "values": {"A": 15, "K": 10, "Q": 10, "J": 10, **{str(n): 5 for n in range(10, 1, -1)}, "JK": 15},
    "hand_limit": "none",
    "dealer_rules": ["rotate"],
    "min_players": 3,
    "max_players": 8,
    "decks": [{"up_to": 4, "decks": 2, "jokers": 4}, {"up_to": 6, "decks": 3, "jokers": 6},
              {"up_to": 8, "decks": 4, "jokers": 8}],
    "bonuses": [
        {"key": "blind", "label": N_("Went out blind"), "points": -25},
        {"key": "blind-no-joker", "label": N_("Went out blind, no joker"), "points": -50},
    ],
    "winner": "lowest",
    "note": _RUN_NOTE,
}

PHASE10_DOCUMENT: Mapping[str, Any] = {
    "name": N_("Phase 10"),
    "stage_name": N_("Phase"),
    "progression": "ladder",
    "stages": [
        {"contract": contract, "cards": 10}
        for contract in (
            N_("2 sets of 3"),
            N_("1 set of 3 and 1 run of 4"),
            N_("1 set of 4 and 1 run of 4"),
            N_("1 run of 7"),
            N_("1 run of 8"),
            N_("1 run of 9"),
            N_("2 sets of 4"),
            N_("7 cards of one colour"),
            N_("1 set of 5 and 1 set of 2"),
            N_("1 set of 5 and 1 set of 3"),
        )
    ],
    "deck": "phase10",
    "jokers": False,
    "values": {**{str(n): 5 for n in range(1, 10)}, "10": 10, "11": 10, "12": 10, "S": 15, "W": 25},
    # Each turn draws one card and discards one: a hand never grows past the deal.
    "hand_limit": "dealt",
    "dealer_rules": ["rotate"],
    "min_players": 2,
    "max_players": 6,
    "decks": [{"up_to": 6, "decks": 1, "jokers": 0}],
    "bonuses": [],
    # The player who completes phase 10 wins, whatever the others' totals.
    "winner": "lowest-finisher",
    "note": "",
}

#: Every preset's document by key, in the order a list of them is shown. To start house rules
#: from a preset, copy it (``ruleset_document(PRESETS[key])`` is a fresh copy): these are the
#: built-in rules, and the tests hold them against the spec.
PRESET_DOCUMENTS: Mapping[str, Mapping[str, Any]] = MappingProxyType({
    "balmoral": BALMORAL_DOCUMENT,
    "classic": CLASSIC_DOCUMENT,
    "liverpool": LIVERPOOL_DOCUMENT,
    "shanghai": SHANGHAI_DOCUMENT,
    "phase10": PHASE10_DOCUMENT,
})

#: Every preset as the engine reads it.
PRESETS: Mapping[str, RuleSet] = MappingProxyType(
    {key: parse_ruleset(doc, key=key) for key, doc in PRESET_DOCUMENTS.items()}
)

#: Every preset's document without its name, made once as the presets are: what tells a game's
#: rules from a preset's (:func:`is_a_preset`).
_PRESETS_NAMELESS = frozenset(nameless_text(rules) for rules in PRESETS.values())


def is_a_preset(rules: RuleSet) -> bool:
    """Whether ``rules`` are one of the presets, unchanged, whatever they are called (as
    :func:`~scorekeeper.rules.documents.same_rules` compares two rule sets).

    >>> from dataclasses import replace
    >>> is_a_preset(replace(PRESETS["liverpool"], name="Family Liverpool"))
    True
    >>> is_a_preset(replace(PRESETS["liverpool"], meld_note="Jokers are wild."))
    False
    """
    return nameless_text(rules) in _PRESETS_NAMELESS


BALMORAL = PRESETS["balmoral"]
CLASSIC = PRESETS["classic"]
LIVERPOOL = PRESETS["liverpool"]
SHANGHAI = PRESETS["shanghai"]
PHASE10 = PRESETS["phase10"]

# Only the two rule sets the rest of the app is ready for. The new-game form, the history
# filter, the statistics and the game file iterate over (or look keys up in) RULESETS, and
# they still assume Balmoral's ladder and levels, the standard deck and "JK", and a stored
# rule-set key; a Phase 10 game would reach them with skips and wilds. So the new presets
# live in PRESETS, and join RULESETS when those parts follow the rule set.
RULESETS: Mapping[str, RuleSet] = {r.key: r for r in (BALMORAL, CLASSIC)}


def get_rules(key: str) -> RuleSet:
    """The rule set of :data:`RULESETS` called ``key``; a clear ``ValueError`` otherwise.

    Games are stored and imported by this key, so it knows only the rule sets the app can
    play end to end (see :data:`RULESETS`); :func:`get_preset` knows every preset.
    """
    return _lookup(RULESETS, key)


def get_preset(key: str) -> RuleSet:
    """Any built-in rule set (:data:`PRESETS`) by key; a clear ``ValueError`` otherwise.

    >>> get_preset("shanghai").name
    'Shanghai Rummy'
    """
    return _lookup(PRESETS, key)


class UnknownRuleSet(ValueError):
    """A key that names none of the rule sets it was looked up in, with the keys that do;
    ``said``: the same words with their blanks, for a reader in another language."""

    def __init__(self, key: object, known: str) -> None:
        self.said = Phrase(N_('unknown rule set "{key}" (known: {known})'), {"key": key, "known": known})
        super().__init__(str(self.said))


def _lookup(table: Mapping[str, RuleSet], key: str) -> RuleSet:
    try:
        return table[key]
    except (KeyError, TypeError):
        raise UnknownRuleSet(key, ", ".join(table)) from None


__all__ = [
    "BALMORAL",
    "CLASSIC",
    "LIVERPOOL",
    "PHASE10",
    "PRESETS",
    "PRESET_DOCUMENTS",
    "RULESETS",
    "SHANGHAI",
    "UnknownRuleSet",
    "get_preset",
    "get_rules",
    "is_a_preset",
]
