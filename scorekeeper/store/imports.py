"""Games read from files, stored: the files layer reads and checks a file (a game file, a
backup) into :class:`GameFile`; the store keeps what it found, thousands of games in one
transaction."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import insert, select

from scorekeeper.store.figures import rating_summaries, summaries
from scorekeeper.store.access import issue_key
from scorekeeper.store.database import writing
from scorekeeper.store.games import game_row
from scorekeeper.store.models import HandEntry, Player, Round, Seat, db, utcnow
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
def import_games(files: Sequence[GameFile], keys: list[str] | None = None,
                 fingerprints: Sequence[str] | None = None) -> list[int]:
    """Store checked game files in one transaction; their ids in order.

    Each game gets a fresh edit key; pass a list as ``keys`` to receive them. ``fingerprints``
    (one a file) are the files' (see :mod:`scorekeeper.files.transfer`), stored with the games.

    A backup holds thousands of games: the games are inserted a row each (their ids are
    needed), but their seats, rounds and hands in a few multi-row INSERTs, whatever their
    number (the rows are the same ones recording a round writes, from
    :func:`~scorekeeper.store.rounds.hand_values`).
    """
    try:
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
        summaries.store(summed)
        ids = [game.id for game in games]
        rating_summaries.refresh([game.id for game, gf in zip(games, files, strict=True) if gf.state.finished])
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return ids
