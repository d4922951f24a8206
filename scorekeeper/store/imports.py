"""Games read from files, stored: the files layer reads and checks a file (a game file, a
backup) into :class:`GameFile` and tells each game's fingerprint; the store keeps what it found,
thousands of games in one transaction, and never a game twice (:func:`import_files`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import func, insert, select

from scorekeeper.store.access import issue_key
from scorekeeper.store.changes import finish_games
from scorekeeper.store.database import writing
from scorekeeper.store.figures import summaries
from scorekeeper.store.games import game_row, take_out_of_bin
from scorekeeper.store.nights import NightRecord, restore_nights
from scorekeeper.store.models import Game, HandEntry, Player, Round, Seat, db, utcnow
from scorekeeper.store.replays import LoadedGame, load_games
from scorekeeper.store.rounds import hand_values
from scorekeeper.rules import GameSetup, GameState, RoundRecord, clean_name, name_key

#: The key a game read from a file keeps when its rules are a document equal to no preset.
IMPORTED_KEY = "imported"


@dataclass(frozen=True)
class GameFile:
    setup: GameSetup
    rounds: tuple[RoundRecord, ...]
    state: GameState
    started_at: datetime | None
    finished_at: datetime | None


#: What became of a game of a file (:attr:`Outcome.status`): stored as a new game;
NEW = "new"
#: already stored: not imported again;
EXISTING = "existing"
#: already stored but deleted: brought back from the bin instead of imported again;
RESTORED = "restored"
#: the same game as an earlier one of the same files: stored once.
REPEATED = "repeated"


class Outcome(NamedTuple):
    """What became of a game of a file: the stored game it is, and how (:data:`NEW` ...)."""

    game_id: int
    status: str


#: How many rows one bulk INSERT carries (SQLite allows 32,766 parameters a statement).
_BULK = 500


def _roster_for(names: Iterable[str]) -> dict[str, Player]:
    """The roster's player for each name (by name key), adding the new names: a query a 500 names."""
    wanted: dict[str, str] = {}
    for name in names:
        cleaned = clean_name(name, "player's name")
        wanted.setdefault(name_key(cleaned), cleaned)
    keys = list(wanted)
    found: dict[str, Player] = {}
    for i in range(0, len(keys), _BULK):
        chunk = select(Player).where(Player.name_key.in_(keys[i:i + _BULK]))
        found.update((p.name_key, p) for p in db.session.scalars(chunk))
    for key, cleaned in wanted.items():
        if key not in found:
            found[key] = Player(name=cleaned, name_key=key)
            db.session.add(found[key])
    db.session.flush()
    return found


@writing()
def import_games(files: Sequence[GameFile], keys: list[str] | None = None) -> list[int]:
    """Store checked game files as new games in one transaction, whether or not a game is here
    already (a game file sent to the API is a new game); their ids in order. Each game gets a
    fresh edit key; pass a list as ``keys`` to receive them."""
    ids, written, rated = _insert(files, keys, None)
    finish_games((), written=written, rated=rated)
    return ids


def _insert(files: Sequence[GameFile], keys: list[str] | None,
            fingerprints: Sequence[str] | None) -> tuple[list[int], list[summaries.Rows], list[int]]:
    """The games of ``files`` inserted, in the caller's write: their ids in order, their
    summaries and the finished ones among them (for the caller to finish the change with).

    Each game gets a fresh edit key, added to ``keys`` when it is a list. ``fingerprints`` (one
    a file) are stored with the games.

    A backup holds thousands of games: the games are inserted a row each (their ids are
    needed), but their seats, rounds and hands in a few multi-row INSERTs, whatever their
    number (the rows are the same ones recording a round writes, from
    :func:`~scorekeeper.store.rounds.hand_values`).
    """
    roster = _roster_for(name for gf in files for name in gf.setup.players)
    games = []
    for i, gf in enumerate(files):
        game = game_row(gf.setup, gf.started_at)
        if fingerprints is not None:
            game.fingerprint = fingerprints[i]
        key = issue_key(game)
        if keys is not None:
            keys.append(key)
        if gf.state.finished:
            game.finished_at = gf.finished_at or (gf.started_at or utcnow())
        db.session.add(game)
        games.append(game)
    db.session.flush()
    seats: list[dict] = []
    rounds: list[dict] = []
    hands: dict[tuple[int, int], list[dict]] = {}
    summed: list[summaries.Rows] = []
    for game, gf in zip(games, files, strict=True):
        ids = {name: roster[name_key(name)].id for name in gf.setup.players}
        summed.append(summaries.rows_of(game.id, [ids[name] for name in gf.setup.players], gf.state))
        seats += [{"game_id": game.id, "position": i, "player_id": ids[name]}
                  for i, name in enumerate(gf.setup.players)]
        for number, record in enumerate(gf.rounds, start=1):
            went_out_id, hands[game.id, number] = hand_values(ids, record, gf.setup)
            rounds.append({"game_id": game.id, "number": number, "went_out_id": went_out_id})
    for i in range(0, len(seats), _BULK):
        db.session.execute(insert(Seat), seats[i:i + _BULK])
    entries: list[dict] = []
    for i in range(0, len(rounds), _BULK):
        # (game, number) is unique: it tells which new round each id is, in whatever order.
        stmt = insert(Round).returning(Round.id, Round.game_id, Round.number)
        for round_id, game_id, number in db.session.execute(stmt, rounds[i:i + _BULK]):
            entries += [{**row, "round_id": round_id} for row in hands[game_id, number]]
    for i in range(0, len(entries), _BULK):
        # render_nulls: cards or points is None; all rows in one statement, not one per shape.
        db.session.execute(insert(HandEntry).execution_options(render_nulls=True), entries[i:i + _BULK])
    ids = [game.id for game in games]
    return ids, summed, [game.id for game, gf in zip(games, files, strict=True) if gf.state.finished]


#: How many values one ``IN (...)`` list carries.
_CHUNK = 500


def _chunks(values: Sequence, size: int = _CHUNK):
    for i in range(0, len(values), size):
        yield values[i:i + size]


def import_files(files: Sequence[GameFile], fingerprints: Sequence[str],
                 fingerprint_of: Callable[[LoadedGame], str | None], keys: list[str] | None = None,
                 nights: Sequence[NightRecord] = ()) -> list[Outcome]:
    """Store the games of ``files`` that are not stored yet, in one transaction; what became of
    each (in order). The command line and the upload page import through here.

    ``fingerprints`` (one a file) tell a game whatever its spelling; ``fingerprint_of`` tells a
    stored game's, as its file would be written now (:mod:`scorekeeper.files.transfer`), so that
    a backup of this very database, imported again, is recognised game by game. A game already
    here is not stored again (if it is in the bin, it comes back: a change to it, so its version
    moves); a game given twice is stored once. Pass a list as ``keys`` to receive the edit keys
    of the games stored. ``nights`` (a backup's, their games by their place in ``files``) are
    stored in the same transaction, a night already here not twice
    (:func:`~scorekeeper.store.nights.restore_nights`).

    The costly part (the stored games compared with the fingerprints) is read before the write,
    without SQLite's write lock; the write then looks again only at what may have changed
    meanwhile (games stored since, by their fingerprint or id; games deleted, restored or purged
    since) and stores, in one short transaction.
    """
    try:
        found = _matches(fingerprints, files, fingerprint_of)
        last_id = db.session.scalar(select(func.max(Game.id))) or 0
    finally:
        db.session.commit()  # a read: this only lets its snapshot go before the write (as writing() does)
    return _store_new(files, fingerprints, fingerprint_of, found, last_id, keys, nights)


def _matches(prints: Sequence[str], files: Sequence[GameFile],
             fingerprint_of: Callable[[LoadedGame], str | None]) -> dict[str, int]:
    """Stored games (deleted ones too) that each fingerprint already stands for."""
    found: dict[str, int] = {}
    for chunk in _chunks(sorted(set(prints))):
        for game_id, fp in db.session.execute(select(Game.id, Game.fingerprint)
                                              .where(Game.fingerprint.in_(chunk)).order_by(Game.id)):
            found.setdefault(fp, game_id)
    # Games made here (or changed since their import): compare their file as exported now.
    starts = sorted({gf.started_at for gf, fp in zip(files, prints, strict=True) if fp not in found and gf.started_at})
    for chunk in _chunks(starts):
        for stored in load_games(Game.started_at.in_(chunk), order_by=(Game.id,)):
            fp = fingerprint_of(stored)
            if fp is not None and fp in prints:
                found.setdefault(fp, stored.id)
    return found


@writing()
def _store_new(files: Sequence[GameFile], prints: Sequence[str], fingerprint_of: Callable[[LoadedGame], str | None],
               found: dict[str, int], last_id: int, keys: list[str] | None,
               nights: Sequence[NightRecord] = ()) -> list[Outcome]:
    # Under the lock: what changed since the read. A game stored since with the same
    # fingerprint (another import), or made since (by id) whose file is the same ...
    missing = sorted({fp for fp in prints if fp not in found})
    for chunk in _chunks(missing):
        for game_id, fp in db.session.execute(
                select(Game.id, Game.fingerprint).where(Game.fingerprint.in_(chunk), Game.id > last_id)):
            found.setdefault(fp, game_id)
    for stored in load_games(Game.id > last_id, order_by=(Game.id,)):
        fp = fingerprint_of(stored)
        if fp is not None and fp in missing:
            found.setdefault(fp, stored.id)
    # ... and the games found: still here (not purged since), deleted or not.
    deleted_at = dict(db.session.execute(select(Game.id, Game.deleted_at).where(Game.id.in_(set(found.values())))).all()) \
        if found else {}
    found = {fp: gid for fp, gid in found.items() if gid in deleted_at}
    outcomes: list[tuple[str, str]] = []  # (fingerprint, status), one a file
    fresh: list[GameFile] = []
    fresh_prints: list[str] = []
    first_of: dict[str, int] = {}  # fingerprint -> index in fresh
    seen: set[str] = set()
    restore: set[int] = set()
    for gf, fp in zip(files, prints, strict=True):
        if fp in seen:
            status = REPEATED
        elif fp in found:
            status = RESTORED if deleted_at[found[fp]] is not None else EXISTING
            if status == RESTORED:
                restore.add(found[fp])
        else:
            first_of[fp] = len(fresh)
            fresh.append(gf)
            fresh_prints.append(fp)
            status = NEW
        seen.add(fp)
        outcomes.append((fp, status))
    # One transaction: the new games (with their fingerprints) and what comes back from the bin.
    take_out_of_bin(restore)
    new_ids, written, rated = _insert(fresh, keys, fresh_prints) if fresh else ([], [], [])
    done = [Outcome(found[fp] if fp in found else new_ids[first_of[fp]], status) for fp, status in outcomes]
    # A game already here that a night of the backup takes is changed (its page names the night);
    # a new one is born at its first version.
    tied = restore_nights(nights, [o.game_id for o in done]) if nights else []
    finish_games(restore | {game_id for game_id in tied if game_id not in new_ids}, written=written,
                 rated=[*rated, *restore])
    return done
