"""The house rules editor's form, and its translation to and from a rule-set document.

Every field of a document (RULESETS.md) has an input here. The form checks nothing itself:
the document built from it goes through :func:`~scorekeeper.rules.parse_ruleset`, the one gate
every document goes through, so the editor refuses exactly what the API and a game file
refuse, in the same words. Numbers are read leniently ("12" is 12) and anything else is passed
on as typed, so the engine's message names what was typed ("must be a whole number ... not 'x'").

The buttons that change the shape of the form (add a stage, move one up, remove a bonus...)
work on the form's data and show the form again; nothing is saved until "Save".

Every word of the editor is in the reader's language: its labels and choices, and the engine's
refusals, which the engine gives with their blanks (:class:`~scorekeeper.rules.Phrase`) and
this module fills with the editor's words ("Deal 3", a bonus by its label) before saying them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, FieldList, Form, FormField, HiddenField, RadioField, SelectChoice, StringField, TextAreaField

from scorekeeper.rules import (PRESETS, N_, DealerRule, Deck, DocumentProblem, HandLimit, Phase10Rank, Phrase, Progression,
                               Rank, WinnerRule)
from scorekeeper.rules.documents import MAX_BONUSES, MAX_PLAYERS, MAX_STAGES
from scorekeeper.web.languages import court_letters, gettext, in_sentence, pgettext

_NUMBER = {"inputmode": "numeric", "autocomplete": "off"}


#: The dealer rules a document may list, the default first, each said as briefly as a table
#: says it (the engine's longer words are the rule set's page's: ``dealer_words``).
DEALER_CHOICES = [
    SelectChoice(",".join(rule.value for rule in rules), words)
    for rules, words in (
        ((DealerRule.WINNER,), lazy_gettext("The winner of a round deals the next")),
        ((DealerRule.ROTATE,), lazy_gettext("The deal moves one seat clockwise")),
        ((DealerRule.WINNER, DealerRule.ROTATE), lazy_gettext("The winner deals; a table may choose clockwise instead")),
        ((DealerRule.ROTATE, DealerRule.WINNER), lazy_gettext("Clockwise; a table may choose the winner instead")),
    )
]


def _deck_words(deck: Deck) -> str:
    """A deck in the reader's words, its cards as the keypad shows them: "Phase 10 (1 2 ... Skip Wild)"."""
    title = gettext("Phase 10") if deck is Deck.PHASE10 else pgettext("deck", "Standard")
    return f"{title} ({' '.join(rank_label(card.value) for card in deck.ranks)})"


class StageForm(Form):
    contract = StringField(lazy_gettext("Contract"), render_kw={"autocomplete": "off"})
    cards = StringField(lazy_gettext("Cards dealt"), render_kw=_NUMBER)


class ValueForm(Form):
    rank = HiddenField()
    value = StringField(lazy_gettext("Value"), render_kw=_NUMBER)


class DeckRowForm(Form):
    up_to = StringField(lazy_gettext("Up to players"), render_kw=_NUMBER)
    decks = StringField(lazy_gettext("Decks"), render_kw=_NUMBER)
    jokers = StringField(lazy_gettext("Jokers"), render_kw=_NUMBER)


class BonusForm(Form):
    label = StringField(lazy_gettext("What earns it?"), render_kw={"autocomplete": "off"})
    points = StringField(lazy_gettext("Points"), render_kw={"inputmode": "text", "autocomplete": "off"})
    key = StringField(lazy_gettext("Short name for the game file"),
                      render_kw={"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false"})


class RuleSetForm(FlaskForm):
    """The whole document. Choice fields do not check their choice (``validate_choice``): the
    engine says what is wrong with a value, as it does for the API."""

    name = StringField(lazy_gettext("What do you call these rules?"), render_kw={"autocomplete": "off"})
    stage_name = StringField(lazy_gettext("What do you call each contract's turn?"), render_kw={"autocomplete": "off"})
    progression = RadioField(lazy_gettext("Does everyone play the same contract?"), validate_choice=False, choices=[
        SelectChoice(Progression.DEAL.value,
                     lazy_gettext("Yes: one deal for each contract, in order, and the game ends after the last")),
        SelectChoice(Progression.LADDER.value,
                     lazy_gettext("No: each player climbs their own ladder, moving up when they make their contract")),
    ])
    stages = FieldList(FormField(StageForm), max_entries=MAX_STAGES)
    # Its choices name the cards in the reader's letters: made for each form (see __init__).
    deck = RadioField(lazy_gettext("Deck"), validate_choice=False, choices=[])
    jokers = BooleanField(lazy_gettext("Play with jokers"))
    values = FieldList(FormField(ValueForm))
    hand_limit = RadioField(lazy_gettext("Can a hand end a round bigger than it was dealt?"), validate_choice=False, choices=[
        SelectChoice(HandLimit.DEALT.value, lazy_gettext("No: each turn draws one card and discards one")),
        SelectChoice(HandLimit.NONE.value, lazy_gettext("Yes: players buy discards or draw penalty cards")),
    ])
    dealer_rules = RadioField(lazy_gettext("Who deals the next round?"), validate_choice=False, choices=DEALER_CHOICES)
    min_players = StringField(lazy_gettext("Fewest players"), render_kw=_NUMBER)
    max_players = StringField(lazy_gettext("Most players"), render_kw=_NUMBER)
    decks = FieldList(FormField(DeckRowForm), max_entries=MAX_PLAYERS)
    bonuses = FieldList(FormField(BonusForm), max_entries=MAX_BONUSES)
    winner = RadioField(lazy_gettext("Who wins?"), validate_choice=False, choices=[
        SelectChoice(WinnerRule.LOWEST.value, lazy_gettext("The lowest total")),
        SelectChoice(WinnerRule.LOWEST_FINISHER.value,
                     lazy_gettext("Among those who finished the last stage, the lowest total (ladder only)")),
    ])
    note = TextAreaField(lazy_gettext("A note for the players"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deck.choices = [SelectChoice(deck.value, _deck_words(deck)) for deck in Deck]


# ----------------------------------------------------------- document -> form


def editor_data(document: Mapping[str, Any]) -> dict[str, Any]:
    """The form's data for a document (a preset's, a house rule set's, a game's)."""
    return {
        "name": document["name"],
        "stage_name": document.get("stage_name", ""),
        "progression": document["progression"],
        "stages": [{"contract": s["contract"], "cards": str(s["cards"])} for s in document["stages"]],
        "deck": document["deck"],
        "jokers": bool(document["jokers"]),
        "values": [{"rank": rank, "value": str(value)} for rank, value in document["values"].items()],
        "hand_limit": document["hand_limit"],
        "dealer_rules": ",".join(document["dealer_rules"]),
        "min_players": str(document["min_players"]),
        "max_players": str(document["max_players"]),
        "decks": [{"up_to": str(r["up_to"]), "decks": str(r["decks"]), "jokers": str(r.get("jokers", 0))}
                  for r in document["decks"]],
        "bonuses": [{"key": b["key"], "label": b["label"], "points": str(b["points"])}
                    for b in document.get("bonuses", [])],
        "winner": document["winner"],
        "note": document.get("note", ""),
    }


def preset_words(data: dict[str, Any]) -> dict[str, Any]:
    """A preset's form data with its words (name, stage word, contracts, bonuses, note) in the
    reader's language: the copy a table makes of it is theirs, in the words they play in."""
    for key in ("name", "stage_name", "note"):
        data[key] = gettext(data[key]) if data.get(key) else data.get(key, "")
    for row in data["stages"]:
        row["contract"] = gettext(row["contract"]) if row["contract"] else row["contract"]
    for row in data["bonuses"]:
        row["label"] = gettext(row["label"]) if row["label"] else row["label"]
    return data


def copy_name(name: str, taken: Iterable[str]) -> str:
    """A name for a copy that no rule set has yet: "Liverpool Rummy (house)", then "(house 2)"."""
    known = {n.casefold() for n in taken}
    for n in range(1, 100):
        suffix = " " + (gettext("(house)") if n == 1 else gettext("(house %(number)s)", number=n))
        candidate = name[: 60 - len(suffix)] + suffix
        if candidate.casefold() not in known:
            return candidate
    return name


# ----------------------------------------------------------- form -> document


def _number(text: Any) -> Any:
    """A typed whole number as a number; anything else as typed, for the engine to refuse."""
    # ASCII digits only: "١٢" is a digit to \d (and to int), but no number a card table types.
    if isinstance(text, str) and re.fullmatch(r"\s*[-+\u2212]?[0-9]{1,9}\s*", text):
        return int(text.strip().replace("\u2212", "-"))
    return text


def bonus_key(label: str) -> str:
    """A key for a bonus whose key was left blank, from its label: "Went out blind" is "went-out-blind"."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")[:30]


def document_from(data: Mapping[str, Any]) -> dict[str, Any]:
    """The rule-set document the form's data stands for, unchecked (the engine checks it)."""
    document: dict[str, Any] = {
        "name": (data.get("name") or "").strip(),
        "progression": data.get("progression"),
        "stages": [{"contract": (s.get("contract") or "").strip(), "cards": _number(s.get("cards"))}
                   for s in data.get("stages", [])],
        "deck": data.get("deck"),
        "jokers": bool(data.get("jokers")),
        "values": {v["rank"]: _number(v.get("value")) for v in data.get("values", []) if v.get("rank")},
        "hand_limit": data.get("hand_limit"),
        "dealer_rules": [r for r in (data.get("dealer_rules") or "").split(",") if r],
        "min_players": _number(data.get("min_players")),
        "max_players": _number(data.get("max_players")),
        "decks": [{"up_to": _number(r.get("up_to")), "decks": _number(r.get("decks")),
                   "jokers": _number(r.get("jokers") or "0")} for r in data.get("decks", [])],
        "bonuses": [{"key": (b.get("key") or "").strip() or bonus_key(b.get("label") or ""),
                     "label": (b.get("label") or "").strip(), "points": _number(b.get("points"))}
                    for b in data.get("bonuses", [])],
        "winner": data.get("winner"),
        "note": (data.get("note") or "").strip(),
    }
    stage_name = (data.get("stage_name") or "").strip()
    if stage_name:  # blank: the engine's default for the progression (Level or Deal)
        document["stage_name"] = stage_name
    return document


# ----------------------------------------------------------- the values follow the deck


def deck_ranks(data: Mapping[str, Any]) -> list[str] | None:
    """The ranks the chosen deck and jokers need a value for, in the keypad's order (None when
    the deck is not one the engine knows: it says so on saving)."""
    try:
        deck = Deck(data.get("deck"))
    except ValueError:
        return None
    jokers = bool(data.get("jokers")) and deck is Deck.STANDARD
    return [rank.value for rank in deck.ranks] + ([Rank.JOKER.value] if jokers else [])


def _default_value(deck: str, rank: str) -> str:
    """A new rank's value: what the first preset with that deck gives it."""
    for preset in PRESETS.values():
        if preset.deck.value == deck:
            for card, value in preset.values.items():
                if card.value == rank:
                    return str(value)
    return "10" if rank == Rank.JOKER.value else ""


def follow_deck(data: dict[str, Any]) -> bool:
    """Make the value rows the chosen deck's ranks (values kept for ranks still there, new ones
    filled in); True if they changed."""
    ranks = deck_ranks(data)
    rows = data.get("values", [])
    if ranks is None or [row.get("rank") for row in rows] == ranks:
        return False
    typed = {row.get("rank"): row.get("value") for row in rows}
    data["values"] = [{"rank": r, "value": typed[r] if r in typed else _default_value(data["deck"], r)}
                      for r in ranks]
    return True


# ----------------------------------------------------------- the shape buttons

def _index(text: str | None, rows: list) -> int | None:
    # ASCII digits only: "²" is a digit to str.isdigit and no number to int().
    return int(text) if text is not None and text.isascii() and text.isdigit() and int(text) < len(rows) else None


def apply_action(data: dict[str, Any], pressed: Mapping[str, str]) -> str | None:
    """Apply the shape button that was pressed (``pressed``: the posted form; a button's value
    is the row it acts on) to the form's data; the name of the button, or None when none was
    (add_stage, remove_stage, up_stage, down_stage, add_bonus, remove_bonus, add_deck_row,
    remove_deck_row, refresh)."""
    stages, bonuses, rows = data["stages"], data["bonuses"], data["decks"]
    if "add_stage" in pressed:
        if len(stages) < MAX_STAGES:
            # A new stage deals what the last one dealt: a ladder deals one number throughout.
            stages.append({"contract": "", "cards": stages[-1]["cards"] if stages else "10"})
        return "add_stage"
    for name, table in (("remove_stage", stages), ("remove_bonus", bonuses), ("remove_deck_row", rows)):
        if name in pressed:
            i = _index(pressed[name], table)
            if i is not None and (table is bonuses or len(table) > 1):
                del table[i]
            return name
    if "up_stage" in pressed or "down_stage" in pressed:
        name = "up_stage" if "up_stage" in pressed else "down_stage"
        i = _index(pressed[name], stages)
        j = None if i is None else (i - 1 if name == "up_stage" else i + 1)
        if i is not None and 0 <= j < len(stages):  # type: ignore[operator]
            stages[i], stages[j] = stages[j], stages[i]
        return name
    if "add_bonus" in pressed:
        if len(bonuses) < MAX_BONUSES:
            bonuses.append({"key": "", "label": "", "points": ""})
        return "add_bonus"
    if "add_deck_row" in pressed:
        if len(rows) < MAX_PLAYERS:
            # A row for more players than the last: the same decks, for the engine to check.
            last = rows[-1] if rows else {"up_to": "1", "decks": "1", "jokers": "0"}
            up_to = _number(last["up_to"])
            rows.append({**last, "up_to": str(min(MAX_PLAYERS, up_to + 1)) if isinstance(up_to, int) else ""})
        return "add_deck_row"
    if "refresh" in pressed:
        return "refresh"
    return None


# ----------------------------------------------------------- problems next to their fields


def problems_by_place(problems: Iterable[DocumentProblem], data: Mapping[str, Any] | None = None) -> dict[Any, list[str]]:
    """Each problem under the place its message goes: ``("stages", 3)`` for stage 3,
    ``("values", "A")`` for the ace's value, else the field's name; each message in the
    editor's words (:func:`in_the_editors_words`)."""
    places: dict[Any, list[str]] = {}
    word = stage_word(data or {})
    labels = bonus_labels(data or {})
    for problem in problems:
        if problem.stage is not None:
            place: Any = (problem.field, problem.stage)
        elif problem.rank is not None:
            place = (problem.field, problem.rank)
        else:
            place = problem.field
        places.setdefault(place, []).append(in_the_editors_words(problem, word, labels))
    return places


def bonus_labels(data: Mapping[str, Any]) -> dict[str, str]:
    """Each bonus's label by the key the document gives it: the engine names a bonus by its key
    ("went-out-in-one-go"), the table knows it by its label."""
    labels = {}
    for bonus in data.get("bonuses") or ():
        label = str(bonus.get("label") or "").strip()
        key = str(bonus.get("key") or "").strip() or bonus_key(label)
        if label and key:
            labels[key] = label
    return labels


def stage_word(data: Mapping[str, Any]) -> str:
    """The word the editor's form uses for a stage: its own, else its progression's (in the
    reader's language)."""
    try:
        default = Progression(data.get("progression")).stage_word
    except ValueError:
        default = Progression.DEAL.stage_word
    return str(data.get("stage_name") or "").strip() or gettext(default)


def in_the_editors_words(problem: DocumentProblem, word: str = "Stage",
                         labels: Mapping[str, str] | None = None) -> str:
    """An engine message as the editor says it: the stages by the table's word ("Deal 3", not
    "stage 3"), an empty field as empty, what was typed in quotes a reader expects, and the
    field named where the message starts with "must".

    >>> from scorekeeper.rules import DocumentProblem
    >>> in_the_editors_words(DocumentProblem("stages", "stage 3's contract must be 1 to 100 characters, not 0", 3), "Deal")
    "Deal 3's contract is empty: write it (up to 100 characters)"
    >>> in_the_editors_words(DocumentProblem("values", "the value of Q must be a whole number from 0 to 500, not 'abc'", rank="Q"))
    'the value of Q must be a whole number from 0 to 500, not “abc”'
    >>> in_the_editors_words(DocumentProblem("bonuses", '"in-one-go" scores 0 points, so it changes nothing'),
    ...                      labels={"in-one-go": "Went out in one go"})
    '“Went out in one go” scores 0 points, so it changes nothing'
    >>> in_the_editors_words(DocumentProblem("max_players", "4 is below min_players (5)"))
    '4 is below the fewest players (5)'

    A problem the engine gave with its blanks (``said``) is said in the reader's language, the
    blanks filled with the same words.
    """
    if problem.said is not None:
        return _said(problem, word, labels or {})
    message = problem.message
    for key, label in (labels or {}).items():
        message = message.replace(f'"{key}"', f"\u201c{label}\u201d")
    message = re.sub(r"\bmin_players\b", "the fewest players", message)
    message = re.sub(r"\bmax_players\b", "the most players", message)
    if problem.stage is not None:
        message = re.sub(r"\bstage\b", word.lower(), message)
        message = re.sub(rf"^{re.escape(word.lower())}\b", word, message)
    message = re.sub(r"must be 1 to (\d+) characters, not 0$", r"is empty: write it (up to \1 characters)", message)
    message = re.sub(r"not '(.*)'$", "not \u201c\\1\u201d", message)
    message = _ENGINE_WORDS.get(message, message)
    if message.startswith(("must ", "is ")):  # "must be 1 to 60 characters": say of what
        message = f"{FIELD_WORDS.get(problem.field, problem.field)} {message}"
    return message


#: Engine messages that name a document's values, said as the editor's choices say them.
_ENGINE_WORDS = {
    '"lowest-finisher" needs the ladder progression':
        N_("\u201cAmong those who finished the last stage\u201d works only on a ladder, where each player "
           "climbs alone: choose the ladder, or the lowest total."),
}

#: The engine's words for a text too short, and the editor's for the commonest case: a field
#: left empty.
_LENGTH = "{what} must be {least} to {most} characters, not {length}"
_EMPTY = N_("{what} is empty: write it (up to {most} characters)")
#: A field the engine names by its name in the document, as the editor calls it.
_FIELD_NAMES = {"min_players": N_("the fewest players"), "max_players": N_("the most players")}
_TYPED = re.compile(r"'(.*)'")


def quoted(text: str) -> str:
    """What a person typed or named, in the quotation marks of the reader's language."""
    return gettext("\u201c%(text)s\u201d", text=text)


def _said(problem: DocumentProblem, word: str, labels: Mapping[str, str]) -> str:
    """:func:`in_the_editors_words` for a problem given with its blanks, in the reader's language."""
    if problem.message in _ENGINE_WORDS:
        return gettext(_ENGINE_WORDS[problem.message])
    said = problem.said
    assert said is not None
    if said.values.get("what") == "" and not problem.message.startswith(("must ", "is ")):
        return problem.message  # no such message: each that leaves out its subject starts so
    message = _fill(problem, said, word, labels)
    stage = in_sentence(word)
    if problem.stage is not None and message.startswith(stage):  # "Deal 3's cards ..."
        message = word + message[len(stage):]
    return message


def _fill(problem: DocumentProblem, phrase: Phrase, word: str, labels: Mapping[str, str]) -> str:
    values = phrase.values
    template = phrase.template
    if template == _LENGTH and values.get("least") == 1 and values.get("length") == 0:
        template = _EMPTY
    filled: dict[str, str] = {}
    for key, value in values.items():
        if isinstance(value, Phrase):
            filled[key] = _fill(problem, value, word, labels)
        elif key == "what":  # a message about a whole field: the field's name says what
            filled[key] = gettext(FIELD_WORDS[problem.field]) if problem.field in FIELD_WORDS else problem.field
        elif key == "stage" and problem.stage is not None:
            filled[key] = in_sentence(word)
        elif key == "bonus":
            # The bonus's key in quotes, as the engine says it: the table knows it by its label.
            label = labels.get(str(value).strip('"'))
            filled[key] = quoted(label) if label else str(value)
        elif key in _FIELD_NAMES:
            filled[key] = gettext(_FIELD_NAMES[key])
        elif key == "value" and isinstance(value, str) and (typed := _TYPED.fullmatch(value)):
            filled[key] = quoted(typed.group(1))
        else:
            filled[key] = str(value)
    return gettext(template).format(**filled)


def error_id(place: Any) -> str:
    """The id of the message shown at a place of :func:`problems_by_place` (for the list of
    problems atop the editor to link to, and for the field's ``aria-describedby``)."""
    if isinstance(place, tuple):
        field, where = place
        return f"stage-{where}-err" if field == "stages" else f"value-{where}-err"
    return f"{place}-err"


#: What the editor calls a field, for an engine message that starts with "must be".
FIELD_WORDS = {
    "name": N_("The name"), "stage_name": N_("The word for a stage"), "progression": N_("How players move on"),
    "deck": N_("The deck"), "hand_limit": N_("The cards left in a hand"), "dealer_rules": N_("Who deals next"),
    "min_players": N_("The fewest players"), "max_players": N_("The most players"), "winner": N_("Who wins"),
    "note": N_("The note"), "stages": N_("The stages"), "values": N_("The values"), "decks": N_("The decks"),
    "bonuses": N_("The bonuses"),
}


#: Each rank of either deck as the keypad shows it, in the engine's words ("JK" is "Joker",
#: "S" "Skip"); a rank both decks have ("10") has one label.
_LABELS = {card.value: card.label for card in (*Rank, *Phase10Rank)}


def rank_label(rank: str) -> str:
    """How the keypad shows a value row's rank, in the reader's letters and words (the form's
    deck may be one the engine does not know, so the rank is looked up in both decks); a rank
    of neither, as typed."""
    label = _LABELS.get(rank, rank)
    if label != rank:  # Joker, Skip, Wild
        return gettext(label)
    return court_letters().get(rank, rank)


__all__ = ["RuleSetForm", "apply_action", "bonus_key", "copy_name", "deck_ranks", "document_from",
           "editor_data", "error_id", "follow_deck", "in_the_editors_words", "preset_words", "problems_by_place",
           "quoted", "rank_label", "stage_word"]
