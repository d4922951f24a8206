"""A table's own rule sets (house rule sets), saved beside the presets; a game keeps its own
copy of the rules it was started with, whatever becomes of them."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from scorekeeper.store.database import writing
from scorekeeper.store.errors import NightRefused, NotFound
from scorekeeper.store.models import MAX_ID, HouseRuleSet, Night, db, utcnow
from scorekeeper.rules import (
    N_,
    PRESETS,
    DocumentProblem,
    Phrase,
    RuleSet,
    RuleSetError,
    document_text,
    name_key,
    parse_ruleset,
    ruleset_document,
    ruleset_from_text,
)


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
    said = (Phrase(N_("another rule set is called \u201c{name}\u201d: choose another name"), {"name": name})
            if other == name else
            Phrase(N_("another rule set is called \u201c{name}\u201d (as \u201c{other}\u201d): choose another name"),
                   {"name": name, "other": other}))
    return RuleSetError([DocumentProblem("name", str(said), said=said)])


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
    # A night still open draws and starts its tables by these rules: it keeps them until closed.
    if db.session.scalar(select(Night.id).where(Night.rules == house_key(row.id), Night.closed_at.is_(None)).limit(1)):
        raise NightRefused(Phrase(N_("A club night that is still open plays “{name}”: close the night first"),
                                  {"name": row.name}))
    db.session.delete(row)
    db.session.commit()


def ruleset_for(rules: RuleSet) -> str:
    """The key of a rule set whose document is ``rules``'s, in the caller's write: a preset's or
    a house rule set's, else a house rule set made of it (a night restored into a club that has
    not got its house rules). ``RuleSetError`` when another rule set has its name."""
    text = document_text(rules)
    for entry in list_rulesets():
        if document_text(entry.rules) == text:
            return entry.key
    for number in range(2, 100):
        try:
            _name_taken(rules, None)
            break
        except RuleSetError:  # a rule set of its name, other rules: this one comes back as "Name (2)"
            document = ruleset_document(rules)
            document["name"] = f"{document['name'][:30]} ({number})"
            rules = parse_ruleset(document)
    row = HouseRuleSet(created_at=utcnow())
    _house_row(row, rules)
    db.session.add(row)
    db.session.flush()
    return house_key(row.id)
