"""Game files in and out of the app: downloads, and imports that never make duplicates.

The command line (``flask games import``) and the upload page both import through
:func:`import_files`, so they refuse, accept and recognise the same files.

A game's *fingerprint* is the SHA-256 of its canonical game file without ``result``
(the file as this app would write it: names as seated, hands in canonical order,
defaults filled in, times in UTC; written as version 1 for a game that version can tell, a
game of balmoral or classic, so that fingerprints stored before version 2 still match, and as
version 2 with the whole rule-set document for any other), so two files that differ only in spacing, rank
spelling, key order or an out-of-date ``result`` are the same game. An imported
game keeps the fingerprint of the file it came from (a fact about the import). A
file matches a stored game when its fingerprint is that stored fingerprint, or
is the fingerprint of the stored game's own file as it would be exported now (so a
backup of this very database, uploaded again, is recognised game by game).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper import store
from scorekeeper.files.gamefile import (
    GAME_FORMAT,
    GAME_FORMAT_1,
    GameFile,
    GameFileError,
    backup_document,
    game_document,
    read_document,
    v1_expressible,
)
from scorekeeper.files.cells import round_cells, signed
from scorekeeper.files.nightfile import night_document, read_nights
from scorekeeper.rules import N_, GameState, Phrase, Progression

#: The largest upload an import takes over the web (a backup of years of games is far larger
#: than one game); a larger one imports with ``flask games import FILE``.
IMPORT_MAX_BYTES = 32 * 1024 * 1024
#: The most games, and rounds in all, that an import over the web takes: each game is checked,
#: replayed, fingerprinted and stored, about 4 ms a game of ten rounds on a 2-core machine with
#: nothing else running, so the largest import the server takes ends within seconds (about 9 s
#: for 2,000 games of ten rounds of four players) rather than holding a thread, and the one
#: process's CPU, for minutes. A larger file imports with ``flask games import FILE``, which
#: has no such limit.
IMPORT_MAX_GAMES = 2_000
IMPORT_MAX_ROUNDS = 20_000


def canonical_json(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def state_fingerprint(state: GameState, started_at, finished_at) -> str:
    version = GAME_FORMAT_1 if v1_expressible(state.rules) else GAME_FORMAT
    doc = game_document(state, started_at, finished_at, with_result=False, version=version)
    return hashlib.sha256(canonical_json(doc).encode("utf-8")).hexdigest()


def fingerprint(gf: GameFile) -> str:
    """The fingerprint of a checked game file (see the module's note)."""
    return state_fingerprint(gf.state, gf.started_at, gf.finished_at)


def stored_fingerprint(stored: store.LoadedGame) -> str | None:
    if stored.state is None:
        return None
    return state_fingerprint(stored.state, stored.game.started_at, stored.game.finished_at)


# ================================================================ importing


def read_files(doc: object) -> list[GameFile]:
    """:func:`scorekeeper.files.gamefile.read_document`, with every refusal a ``GameFileError``.

    (A time such as ``0001-01-01T00:00:00+01:00`` reads as a date but cannot be moved
    to UTC: ``parse_time`` lets that ``OverflowError`` through.)
    """
    try:
        return read_document(doc)
    except OverflowError as exc:
        raise GameFileError(Phrase(N_("a time in the file is out of range ({reason})"), {"reason": exc})) from None


#: What a document may hold too many of (:attr:`TooMany.what`).
GAMES = "games"
ROUNDS = "rounds"


@dataclass(frozen=True)
class TooMany:
    """A document that holds more than an import over the web takes: more ``what`` (GAMES or
    ROUNDS) than ``most``; ``str()`` says it in English, as the API does."""

    what: str
    held: int
    most: int

    def __str__(self) -> str:
        return (f"The file holds {self.held:,} {self.what}; the server imports at most {self.most:,} {self.what} "
                "at once, so that an import ends within seconds. Import this file on the server instead: "
                "flask --app scorekeeper games import FILE (no limit there), or split it into smaller files.")


def too_many(doc: object, max_games: int, max_rounds: int) -> TooMany | None:
    """Why a document holds more than an import over the web takes (None when it does not),
    counted before any game is read: a file of 20,000 games is refused in a moment, not
    checked for a minute first. A document that cannot be counted (not a game file or a backup)
    is left to :func:`read_files` to refuse."""
    if not isinstance(doc, dict):
        return None
    games = doc.get("games") if "games" in doc else [doc]
    if not isinstance(games, list):
        return None
    rounds = sum(len(g["rounds"]) for g in games if isinstance(g, dict) and isinstance(g.get("rounds"), list))
    if len(games) > max_games:
        return TooMany(GAMES, len(games), max_games)
    if rounds > max_rounds:
        return TooMany(ROUNDS, rounds, max_rounds)
    return None


NEW, EXISTING, RESTORED, REPEATED = store.NEW, store.EXISTING, store.RESTORED, store.REPEATED


@dataclass(frozen=True)
class Imported:
    """What became of the n-th game of a file (n from 1)."""

    number: int
    game_id: int
    status: str

    def describe(self, of: int) -> str:
        which = f"Game {self.number} of {of}" if of > 1 else "The game"
        if self.status == NEW:
            return f"{which} was imported as game {self.game_id}."
        if self.status == EXISTING:
            return f"{which} is already here as game {self.game_id}; not imported again."
        if self.status == RESTORED:
            return (f"{which} is already here as game {self.game_id}, which had been deleted: "
                    "it is back in the history; not imported again.")
        return f"{which} is the same game as an earlier one in the file (game {self.game_id}); imported once."


def import_files(files: Sequence[GameFile], keys: list[str] | None = None,
                 nights: Sequence[store.NightRecord] = ()) -> list[Imported]:
    """Store the games not stored yet, in one transaction; say what became of each.

    A game already here is not stored again (if it was deleted, it comes back from
    the bin); a game given twice in ``files`` is stored once. ``files`` come checked
    from :func:`scorekeeper.files.gamefile.read_document`, which refuses a file whole.
    Pass a list as ``keys`` to receive the edit keys of the games stored (in order).
    The store keeps them (:func:`scorekeeper.store.import_files`); this layer tells each
    game's fingerprint, stored or not. ``nights``: a backup's club nights (:func:`read_nights`
    of the same document), stored with the games in the same transaction.
    """
    outcomes = store.import_files(files, [fingerprint(gf) for gf in files], stored_fingerprint, keys, nights)
    return [Imported(number, outcome.game_id, outcome.status) for number, outcome in enumerate(outcomes, start=1)]


# ================================================================ exporting


def document_of(loaded: store.LoadedGame) -> dict:
    """A stored game's file, with its result (``flask games export ID``)."""
    return game_document(loaded.state, loaded.game.started_at, loaded.game.finished_at)


def export_game(game_id: int) -> dict:
    """One game's file, as ``flask games export ID`` prints it."""
    return document_of(store.load(game_id))


def backup() -> dict[str, Any]:
    """A backup of every game, deleted ones too, and of the club's nights (``flask games
    export``, and the backup download), read in a fixed number of queries instead of a few per
    game or night."""
    docs = []
    number_of: dict[int, int] = {}
    for stored in store.every_game():
        if stored.state is None:
            raise ValueError(f"game {stored.id}: {stored.problem}")
        docs.append(document_of(stored))
        number_of[stored.id] = len(docs)
    doc = backup_document(docs)
    doc["nights"] = [night_document(night, number_of) for night in store.every_night()]
    return doc


def as_json(doc: Any) -> str:
    """Written as ``flask games export`` prints it."""
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


#: The penalty counts the round's bonuses; "bonuses" names them and "bonus_points" is their share
#: of it, so a spreadsheet can tell the cards from the bonuses.
CSV_COLUMNS = (
    "round", "dealer", "player", "cards", "counted_by_hand", "penalty", "running_total", "level",
    "went_out", "made_contract", "bonuses", "bonus_points",
)
RATINGS_COLUMNS = ("Rank", "Player", "Rating", "Games", "Wins", "Change over the last 5 games", "Provisional",
                   "mu", "sigma")


@dataclass(frozen=True)
class CsvWords:
    """The words of a CSV a person opens in a spreadsheet: the column names, yes and no, and a
    bonus's label. English by default; the download from a page gives the reader's language.
    The numbers, the names and the cards are the same in every language."""

    columns: Sequence[str] = CSV_COLUMNS
    ratings_columns: Sequence[str] = RATINGS_COLUMNS
    yes: str = "yes"
    no: str = "no"
    #: A bonus's label as the reader reads it (a preset's, translated).
    label: Callable[[GameState, str], str] = lambda state, label: label


ENGLISH = CsvWords()


#: What starts a formula in a spreadsheet, and what a spreadsheet may split a line on.
_FORMULA = "=+-@\t\r"
_SEPARATORS = ",;\t|:"
_HIDDEN_FORMULA = re.compile(f"([{re.escape(_SEPARATORS)}])(\\s*)([{re.escape(_FORMULA)}])")


def _cell(value: object) -> object:
    """A name cannot become a spreadsheet formula, whatever the spreadsheet splits on.

    Text cells are quoted (:data:`csv.QUOTE_NONNUMERIC`, below), so a spreadsheet that reads
    quotes keeps ``x;=1+1;`` one cell; one that splits on ``;`` regardless would make a cell of
    ``=1+1``, so a formula's first character after any separator gets a ``'`` too, as one at
    the start of the cell does.
    """
    if not isinstance(value, str):
        return value
    value = _HIDDEN_FORMULA.sub(r"\1\2'\3", value)
    if value[:1] in _FORMULA:
        return "'" + value
    return value


def ratings_csv(board, words: CsvWords = ENGLISH) -> str:
    """The leaderboard (:class:`scorekeeper.club.history.Leaderboard`): one row a player, the ranked
    ones first, then the provisional ones; names quoted as in :func:`game_csv`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(list(words.ratings_columns))
    for i, line in enumerate([*board.ranked, *board.provisional], start=1):
        r = line
        provisional = r.provisional
        writer.writerow(["" if provisional else i, _cell(line.name), round(r.rating, 1), r.games, r.wins,
                         round(r.recent_change, 1), words.yes if provisional else words.no, round(r.mu, 4),
                         round(r.sigma, 4)])
    return out.getvalue()


def game_csv(state: GameState, words: CsvWords = ENGLISH) -> str:
    """One row per round and player: the cards entered, the penalty (bonuses included), the running
    total, the level, and the bonuses earned with their points."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", quoting=csv.QUOTE_NONNUMERIC)
    writer.writerow(list(words.columns))
    ladder = state.rules.progression is Progression.LADDER
    yes, no = words.yes, words.no
    for result in state.rounds:
        for seat, (name, cell) in enumerate(zip(state.setup.players, round_cells(state, result), strict=True)):
            cards = "" if cell.counted else cell.text
            earned = [state.rules.bonus(key) for key in (result.record.bonuses or {}).get(name, ())]
            keys = (result.record.bonuses or {}).get(name, ())
            bonuses = [f"{words.label(state, b.label)} {signed(b.points)}" for b in state.rules.bonuses if b.key in keys]
            writer.writerow([
                result.number,
                _cell(result.dealer),
                _cell(name),
                cards,
                yes if cell.counted else no,
                cell.penalty,
                result.totals[seat],
                result.stages[seat].number,
                yes if cell.went_out else no,
                (yes if cell.achieved else no) if ladder else "",
                "; ".join(bonuses),
                sum(bonus.points for bonus in earned if bonus is not None),
            ])
    return "\ufeff" + out.getvalue()


__all__ = [
    "ENGLISH",
    "CsvWords",
    "EXISTING",
    "GAMES",
    "NEW",
    "REPEATED",
    "RESTORED",
    "ROUNDS",
    "Imported",
    "TooMany",
    "as_json",
    "backup",
    "fingerprint",
    "game_csv",
    "ratings_csv",
    "import_files",
    "read_files",
    "read_nights",
    "too_many",
]
