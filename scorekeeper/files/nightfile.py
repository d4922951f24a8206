"""Club nights in the club's backup (``"nights"`` beside its ``"games"``, docs/game-format.md):
written from the store's records, read back checked, with no database.

A night names its games by their number in the backup's ``"games"`` (1 the first), so a
restore ties each night to the games the same import stores or finds. A backup without
``"nights"`` (one written before nights were kept in it) restores its games as it always did.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from scorekeeper.files.gamefile import GAME_FORMAT, GameFileError, format_time, parse_time, read_rules
from scorekeeper.rules import N_, NameRefused, Phrase, clean_name, name_key, ruleset_document
from scorekeeper.store import GameFile, NightGameRecord, NightPlayerRecord, NightRecord

#: What a night's entry may hold.
_NIGHT_FIELDS = {"held_on", "rules", "opened_at", "closed_at", "players", "games", "drawn"}


def night_document(night: NightRecord, number_of: Mapping[int, int]) -> dict[str, Any]:
    """A night as the backup writes it; ``number_of`` gives each stored game's number in the
    backup (a game not in it is left out)."""
    doc: dict[str, Any] = {
        "held_on": night.held_on.isoformat(),
        "rules": ruleset_document(night.rules),
        "opened_at": format_time(night.opened_at),
        "closed_at": format_time(night.closed_at),
        "players": [{"name": p.name, "arrived_at": format_time(p.arrived_at), "left_at": format_time(p.left_at)}
                    for p in night.players],
        "games": [{"game": number_of[g.game], "round": g.round, "table": g.table}
                  for g in night.games if g.game in number_of],
    }
    if night.drawn:
        doc["drawn"] = {"round": night.drawn_round,
                        "tables": [{"table": table, "players": list(names)} for table, names in night.drawn]}
    return doc


def _shape(field: str) -> GameFileError:
    return GameFileError(Phrase(N_('"{field}" is not as a backup writes it'), {"field": field}), field)


def _number(value: object, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value < 1_000:
        raise _shape(field)
    return value


def _name(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise _shape(field)
    try:
        return clean_name(value, "player's name")
    except NameRefused as exc:
        raise GameFileError(exc.said, field) from None


def read_night(doc: object, files: Sequence[GameFile], taken: dict[int, int], number: int) -> NightRecord:
    """One night's entry, checked against the backup's games (``taken``: each game's night so
    far, for a game at two nights)."""
    if not isinstance(doc, Mapping):
        raise _shape("nights")
    unknown = sorted(set(doc) - _NIGHT_FIELDS)
    if unknown:
        raise GameFileError(Phrase(N_('unknown field "{field}"'), {"field": unknown[0]}), unknown[0])
    try:
        held_on = date.fromisoformat(doc.get("held_on"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise _shape("held_on") from None
    rules = read_rules(doc.get("rules"), GAME_FORMAT)
    opened_at = parse_time(doc.get("opened_at"), "opened_at")
    if opened_at is None:
        raise _shape("opened_at")
    closed_at = parse_time(doc.get("closed_at"), "closed_at")
    players_doc = doc.get("players", [])
    if not isinstance(players_doc, list) or not all(isinstance(p, Mapping) for p in players_doc):
        raise _shape("players")
    players = []
    for p in players_doc:
        arrived = parse_time(p.get("arrived_at"), "arrived_at") or opened_at
        players.append(NightPlayerRecord(_name(p.get("name"), "players"), arrived, parse_time(p.get("left_at"), "left_at")))
    seen: set[str] = set()
    for p in players:
        if name_key(p.name) in seen:
            raise GameFileError(Phrase(N_("{name} is checked in twice"), {"name": p.name}), "players")
        seen.add(name_key(p.name))
    games_doc = doc.get("games", [])
    if not isinstance(games_doc, list) or not all(isinstance(g, Mapping) for g in games_doc):
        raise _shape("games")
    games = []
    for g in games_doc:
        game = g.get("game")
        if not isinstance(game, int) or isinstance(game, bool) or not 0 < game <= len(files):
            raise GameFileError(Phrase(N_('"game" must be the number of one of the backup\'s games (1 to {count})'),
                                       {"count": len(files)}), "games")
        if taken.setdefault(game, number) != number:
            raise GameFileError(Phrase(N_("game {game} of the backup is at night {night} too"),
                                       {"game": game, "night": taken[game]}), "games")
        games.append(NightGameRecord(game - 1, _number(g.get("round"), "round"), _number(g.get("table"), "table")))
    _one_table_at_once(games, files)
    if closed_at is not None and doc.get("drawn") is not None:
        # Closing a night lets its waiting tables go: kept, its big screen would wait for them.
        raise GameFileError(Phrase(N_("a closed night has no tables waiting to start")), "drawn")
    drawn_round, drawn = _read_drawn(doc.get("drawn"), {name_key(p.name) for p in players})
    return NightRecord(held_on, rules, opened_at, closed_at, tuple(players), tuple(games), drawn_round, drawn)


def _one_table_at_once(games: Sequence[NightGameRecord], files: Sequence[GameFile]) -> None:
    """A player sits at one table of a round, and at one game still in progress."""
    seen: dict[tuple[str, object], int] = {}
    for g in games:
        gf = files[g.game]
        for name in gf.setup.players:
            for when in [g.round, *(["playing"] if not gf.state.finished else [])]:
                other = seen.setdefault((name_key(name), when), g.game + 1)
                if other != g.game + 1:
                    raise GameFileError(Phrase(N_("{name} sits at two tables at once: games {first} and {second}"),
                                               {"name": name, "first": other, "second": g.game + 1}), "games")


def _read_drawn(doc: object, here: set[str]) -> tuple[int, tuple[tuple[int, tuple[str, ...]], ...]]:
    if doc is None:
        return 0, ()
    if not isinstance(doc, Mapping) or not isinstance(doc.get("tables"), list):
        raise _shape("drawn")
    drawn_round = _number(doc.get("round"), "drawn")
    tables = []
    seated: set[str] = set()
    for t in doc["tables"]:
        if not isinstance(t, Mapping) or not isinstance(t.get("players"), list):
            raise _shape("drawn")
        table = _number(t.get("table"), "drawn")
        if any(table == other for other, _names in tables):  # stored by number: one would be lost
            raise GameFileError(Phrase(N_("table {table} is drawn twice"), {"table": table}), "drawn")
        names = tuple(_name(n, "drawn") for n in t["players"])
        if len(names) < 2:
            raise GameFileError(Phrase(N_("table {table} is drawn with fewer than two players"), {"table": table}), "drawn")
        for name in names:
            if name_key(name) not in here or name_key(name) in seated:
                raise GameFileError(Phrase(N_("{name} is drawn at a table without being checked in, or at two"),
                                           {"name": name}), "drawn")
            seated.add(name_key(name))
        tables.append((table, names))
    return drawn_round, tuple(tables)


def read_nights(doc: object, files: Sequence[GameFile]) -> list[NightRecord]:
    """A backup's nights, checked against its games (``files``, as read from the same document);
    none for a game file or a backup without nights."""
    if not isinstance(doc, Mapping) or "nights" not in doc or "games" not in doc:
        return []
    nights = doc["nights"]
    if not isinstance(nights, list):
        raise GameFileError(Phrase(N_('a backup\'s "nights" must be a list')), "nights")
    taken: dict[int, int] = {}
    out = []
    for number, night in enumerate(nights, start=1):
        try:
            out.append(read_night(night, files, taken, number))
        except GameFileError as exc:
            raise GameFileError(Phrase(N_("Night {number} of the backup: {reason}"), {"number": number, "reason": exc.said}),
                                exc.field) from None
    return out


__all__ = ["night_document", "read_night", "read_nights"]
