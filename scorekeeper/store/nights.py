"""Club nights: a night opened under one rule set, its players checked in (late arrivals and
early leavers too), the games played at it, and the night closed.

A night is run by whoever holds its key (as a game by its edit key, :mod:`~scorekeeper.store.access`):
the club's keeper who opened it, or a phone the keeper gave the night's link. Its games are
ordinary games; a game belongs to one night at most, and a player sits at one table of a night
at a time. Every change ends as every other does (:mod:`~scorekeeper.store.changes`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from itertools import combinations
from typing import NamedTuple

from sqlalchemy import String, cast, func, literal, select

from scorekeeper.rules import USUAL_TABLE, N_, GameSetup, NameRefused, Phrase, RuleSet, clean_name, draw_tables, start
from scorekeeper.store.access import issue_key
from scorekeeper.store.changes import finish_game, finish_games
from scorekeeper.store.database import writing
from scorekeeper.store.games import add_game
from scorekeeper.store.errors import NightRefused, NotFound, PlayerNameError
from scorekeeper.store.models import (Game, GameSummary, HouseRuleSet, Night, NightGame, NightPlayer, Player, Seat,
                                      SeatSummary, db, utcnow)
from scorekeeper.store.players import get_or_create_player
from scorekeeper.store.replays import rules_of
from scorekeeper.store.rulesets import HOUSE, get_ruleset, ruleset_for
from scorekeeper.store.seats.seat_keys import issue_seat_keys, seat_keys_match


class CheckedIn(NamedTuple):
    """A player checked in at a night; ``here`` False once they went home."""

    player_id: int
    name: str
    here: bool


class NightTable(NamedTuple):
    """A game of the night: the night's round of games it was drawn in, its table, and whether it is over."""

    game_id: int
    round: int
    table: int
    finished: bool


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def night_key_matches(night: Night, key: str | None) -> bool:
    """Whether ``key`` runs the night (compared in constant time)."""
    if not key or night.key_hash is None or len(key) > 200:
        return False
    return hmac.compare_digest(_digest(key), night.key_hash)


def get_night(night_id: int) -> Night:
    night = db.session.get(Night, night_id)
    if night is None:
        raise NotFound(f"no night {night_id}")
    return night


def list_nights(limit: int | None = None) -> list[Night]:
    """The nights, the latest first (``limit``: only so many): the club's history of its nights."""
    return list(db.session.scalars(select(Night).order_by(Night.held_on.desc(), Night.id.desc()).limit(limit)))


def _open(night_id: int) -> Night:
    night = get_night(night_id)
    if night.closed_at is not None:
        raise NightRefused(Phrase(N_("The night of {date} is closed: it takes no more changes"),
                                  {"date": night.held_on.isoformat()}))
    return night


@writing()
def open_night(rules: str, held_on: date) -> tuple[Night, str]:
    """A new night played by the rule set ``rules`` (its key), and the night's secret key."""
    get_ruleset(rules)  # NotFound: no night under rules nobody can play
    key = secrets.token_urlsafe(32)
    night = Night(rules=rules, held_on=held_on, key_hash=_digest(key))
    db.session.add(night)
    db.session.flush()
    finish_games(())
    return night, key


@writing()
def check_in(night_id: int, names: Iterable[str]) -> list[Player]:
    """Players arrive: roster names or new ones (added to the roster). A player who went home
    and came back is here again; one already here stays as they were."""
    night = _open(night_id)
    players = []
    for name in names:
        try:
            clean_name(name, "player's name")
        except NameRefused as exc:
            raise PlayerNameError(str(exc), exc.said) from None
        player = get_or_create_player(name)
        here = db.session.get(NightPlayer, (night.id, player.id))
        if here is None:
            db.session.add(NightPlayer(night_id=night.id, player_id=player.id))
        else:
            here.left_at = None
        players.append(player)
    finish_games(())
    return players


@writing()
def leave_night(night_id: int, player_id: int) -> None:
    """A player goes home early: no later table is drawn with them (the game they sit at goes on)."""
    night = _open(night_id)
    here = db.session.get(NightPlayer, (night.id, player_id))
    if here is None:
        raise NotFound(f"player {player_id} is not checked in at night {night_id}")
    if here.left_at is None:
        here.left_at = utcnow()
    finish_games(())


@writing()
def close_night(night_id: int) -> Night:
    """The night is over: it takes no more players, tables or draws. Closed twice: refused."""
    night = _open(night_id)
    night.closed_at = utcnow()
    night.drawn = None
    finish_games(())
    return night


def checked_in(night_id: int) -> list[CheckedIn]:
    """The night's players in the order they arrived."""
    rows = db.session.execute(select(NightPlayer.player_id, Player.name, NightPlayer.left_at)
                              .join(Player, Player.id == NightPlayer.player_id)
                              .where(NightPlayer.night_id == night_id)
                              .order_by(NightPlayer.arrived_at, Player.name_key)).all()
    return [CheckedIn(player_id, name, left_at is None) for player_id, name, left_at in rows]


def night_games(night_id: int) -> list[NightTable]:
    """The night's games, by round and table (a game in the bin is no longer the night's)."""
    rows = db.session.execute(select(NightGame.game_id, NightGame.round, NightGame.table, GameSummary.finished)
                              .join(Game, Game.id == NightGame.game_id)
                              .outerjoin(GameSummary, GameSummary.game_id == NightGame.game_id)
                              .where(NightGame.night_id == night_id, Game.deleted_at.is_(None))
                              .order_by(NightGame.round, NightGame.table)).all()
    return [NightTable(game_id, rnd, table, bool(finished)) for game_id, rnd, table, finished in rows]


class NightVersion(NamedTuple):
    """What a night's big screen shows, told apart in one query: whether the night is closed,
    the tables drawn and waiting, each of its games (out of the bin) with its version, the
    names of the players checked in (those at the tables drawn are among them) and the name of
    the night's house rule set (None for a preset, whose name never changes).
    Every change to a game (a round, a correction, a rename of a seated player) moves its
    version on; a rename of a player drawn but not yet seated, or of the night's rule set,
    moves no game's, hence the names here. An unchanged one means an unchanged screen."""

    closed: bool
    drawn: str | None
    games: tuple[tuple[int, int], ...]
    names: str | None = None
    rule_name: str | None = None


def night_version(night_id: int) -> NightVersion | None:
    """The night's :class:`NightVersion` in one query (None: no such night): what the big
    screen's ETag is made of, read before anything is worked out."""
    checked = (select(Player.id, Player.name).join(NightPlayer, NightPlayer.player_id == Player.id)
               .where(NightPlayer.night_id == night_id).order_by(Player.id).subquery())
    # In the order of the players' ids, so the same names give the same tag on every server.
    names = select(func.aggregate_strings(checked.c.name, "\n")).scalar_subquery()
    rule_name = (select(HouseRuleSet.name)
                 .where(literal(HOUSE) + cast(HouseRuleSet.id, String) == Night.rules).scalar_subquery())
    rows = db.session.execute(select(Night.closed_at, Night.drawn, Game.id, Game.version, names, rule_name)
                              .select_from(Night)
                              .outerjoin(NightGame, NightGame.night_id == Night.id)
                              .outerjoin(Game, (Game.id == NightGame.game_id) & Game.deleted_at.is_(None))
                              .where(Night.id == night_id)
                              .order_by(Game.id)).all()
    if not rows:
        return None
    closed_at, drawn, _game, _version, names_now, rule_name_now = rows[0]
    return NightVersion(closed_at is not None, drawn,
                        tuple((row[2], row[3]) for row in rows if row[2] is not None), names_now, rule_name_now)


def night_of(game_id: int) -> int | None:
    """The night a game was played at, if any."""
    return db.session.scalar(select(NightGame.night_id).where(NightGame.game_id == game_id))


def _playing(night_id: int) -> dict[int, NightTable]:
    """Who sits at one of the night's games still in progress, and at which."""
    tables = {t.game_id: t for t in night_games(night_id) if not t.finished}
    if not tables:
        return {}
    rows = db.session.execute(select(Seat.player_id, Seat.game_id).where(Seat.game_id.in_(tables))).all()
    return {player_id: tables[game_id] for player_id, game_id in rows}


def add_night_game(night_id: int, game_id: int, round_number: int, table: int) -> None:
    """Tie a game just started to the night, in the caller's write (which finishes it): refused
    when the game is another night's already, or one of its players is at another of the night's
    tables still playing."""
    night = _open(night_id)
    if night_of(game_id) is not None:
        raise NightRefused(Phrase(N_("Game {game} is already played at a night"), {"game": game_id}))
    playing = _playing(night.id)
    seats = db.session.execute(select(Seat.player_id, Player.name).join(Player, Player.id == Seat.player_id)
                               .where(Seat.game_id == game_id).order_by(Seat.position)).all()
    for player_id, name in seats:
        if player_id in playing:
            raise NightRefused(Phrase(N_("{name} is already playing at table {table}"),
                                      {"name": name, "table": playing[player_id].table}))
    db.session.add(NightGame(game_id=game_id, night_id=night.id, round=round_number, table=table))
    db.session.flush()


class DrawnTable(NamedTuple):
    """A table drawn and not yet started: its number and its players (ids and names) in seat order."""

    table: int
    player_ids: list[int]
    names: list[str]


class StartedTable(NamedTuple):
    """A drawn table's game, started: the game, its edit key, and its seat links' keys in seat order."""

    game: Game
    key: str
    seat_keys: list[str]


def _drawn(night: Night) -> tuple[int, dict[int, list[int]]]:
    if not night.drawn:
        return 0, {}
    drawn = json.loads(night.drawn)
    return drawn["round"], {int(table): players for table, players in drawn["tables"].items()}


def _set_drawn(night: Night, round_number: int, tables: dict[int, list[int]]) -> None:
    night.drawn = json.dumps({"round": round_number, "tables": tables}) if tables else None


def drawn_tables(night: Night) -> tuple[int, list[DrawnTable]]:
    """The night's round the tables waiting were drawn for (0: none wait), and those tables."""
    round_number, tables = _drawn(night)
    ids = [p for players in tables.values() for p in players]
    names = dict(db.session.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all()) if ids else {}
    return round_number, [DrawnTable(table, players, [names[p] for p in players]) for table, players in sorted(tables.items())]


@writing()
def draw_night(night_id: int, rng: random.Random, *, ratings: Mapping[int, float] | None = None,
               usual: int = USUAL_TABLE, winners_together: bool = False) -> list[DrawnTable]:
    """Draw tables from the players here and not at a table still playing (``rules.draw_tables``:
    at random, or balanced by ``ratings``, seating fewer pairs who have played each other
    tonight; with ``winners_together``, the winners of the last round's tables at one table).
    It replaces the tables drawn before and not yet started."""
    night = _open(night_id)
    playing = _playing(night.id)
    here = [c.player_id for c in checked_in(night.id) if c.here and c.player_id not in playing]
    games = night_games(night.id)
    met = _met(night.id, [t.game_id for t in games])
    # A redraw draws the same round again (numbering its tables around those already started);
    # with none waiting, the draw is the night's next round.
    round_number = _drawn(night)[0] or max((t.round for t in games), default=0) + 1
    together = _winners_of(games, round_number - 1) if winners_together else set()
    tables = draw_tables(here, get_ruleset(night.rules).rules, rng, usual=usual, ratings=ratings, met=met,
                         together=together)
    started = {t.table for t in games if t.round == round_number}
    numbers = (n for n in range(1, len(started) + len(tables) + 1) if n not in started)
    _set_drawn(night, round_number, dict(zip(numbers, tables)))
    finish_games(())
    return drawn_tables(night)[1]


def _winners_of(games: Sequence[NightTable], round_number: int) -> set[int]:
    """The winners of the finished games of one of the night's rounds of games (ties: each)."""
    ids = [t.game_id for t in games if t.round == round_number and t.finished]
    if not ids:
        return set()
    return set(db.session.scalars(select(SeatSummary.player_id).where(SeatSummary.game_id.in_(ids), SeatSummary.won)))


def _met(night_id: int, game_ids: Sequence[int]) -> set[frozenset[int]]:
    """The pairs of players who sat at one of the night's games together."""
    if not game_ids:
        return set()
    at: dict[int, list[int]] = {}
    for game_id, player_id in db.session.execute(select(Seat.game_id, Seat.player_id).where(Seat.game_id.in_(game_ids))):
        at.setdefault(game_id, []).append(player_id)
    return {frozenset(pair) for players in at.values() for pair in combinations(players, 2)}


def _table_keys(night_key: str, game_id: int, seats: int) -> list[str]:
    """The seat keys of a night's table, made from the night's key: whoever holds it (it runs
    the night, and starts its tables) can show every table's seat links again, without a phone
    keeping each table's keys in its session cookie; a seat key tells nothing of the night's."""
    return [base64.urlsafe_b64encode(hmac.new(night_key.encode("utf-8"), f"seat {game_id} {position}".encode(),
                                              hashlib.sha256).digest()).rstrip(b"=").decode("ascii")
            for position in range(seats)]


def table_seat_keys(game_id: int, night_key: str | None) -> list[str] | None:
    """A night's table's seat keys in seat order, for whoever holds the night's key; None for a
    game of no night, another key, or a table whose seat links were made anew since it started."""
    night_id = night_of(game_id)
    if night_id is None or not night_key_matches(get_night(night_id), night_key):
        return None
    seats = db.session.scalar(select(func.count()).select_from(Seat).where(Seat.game_id == game_id)) or 0
    keys = _table_keys(night_key, game_id, seats)  # type: ignore[arg-type]
    return keys if seat_keys_match(game_id, keys) else None


@writing()
def start_table(night_id: int, table: int, rng: random.Random, night_key: str | None = None) -> StartedTable:
    """Start a drawn table's game in one go: the night's rule set, its first dealer drawn by
    ``rng``, its edit key and every seat's link, tied to the night. With the night's key, the
    seat keys are made from it (:func:`table_seat_keys` shows them again); else at random."""
    night = _open(night_id)
    round_number, tables = _drawn(night)
    if table not in tables:
        # A second tap on Start (or a second phone) finds the table already playing.
        playing = [t.game_id for t in night_games(night.id) if t.round == round_number and t.table == table]
        if playing:
            raise NightRefused(Phrase(N_("Table {table} is already playing: game {game}"),
                                      {"table": table, "game": playing[0]}))
        raise NotFound(f"no table {table} waits at night {night_id}")
    names = [name for _table, _ids, names in drawn_tables(night)[1] if _table == table for name in names]
    gone = [c.name for c in checked_in(night.id) if not c.here and c.player_id in tables[table]]
    if gone:
        raise NightRefused(Phrase(N_("{name} has gone home since the draw: draw the tables again"), {"name": gone[0]}))
    setup = GameSetup.create(get_ruleset(night.rules).rules, names, first_dealer=rng.choice(names))
    game = add_game(setup)
    key = issue_key(game)
    add_night_game(night.id, game.id, round_number, table)
    seat_keys = issue_seat_keys(game.seats, _table_keys(night_key, game.id, len(game.seats))
                                if night_key_matches(night, night_key) else None)
    del tables[table]
    _set_drawn(night, round_number, tables)
    finish_game(game, start(setup), [seat.player_id for seat in game.seats], moved=True)  # born at its first version
    return StartedTable(game, key, seat_keys)


# ------------------------------------------------------------------ backups


class NightPlayerRecord(NamedTuple):
    """A player of a night as a backup keeps them: when they arrived and, if they went home, left."""

    name: str
    arrived_at: datetime
    left_at: datetime | None


class NightGameRecord(NamedTuple):
    """A game of a night as a backup keeps it: ``game`` is the game's id when read from the store,
    and its place (from 0) among the backup's games when restored."""

    game: int
    round: int
    table: int


class NightRecord(NamedTuple):
    """A whole night, as the club's backup writes it and a restore stores it again."""

    held_on: date
    rules: RuleSet
    opened_at: datetime
    closed_at: datetime | None
    players: tuple[NightPlayerRecord, ...]
    games: tuple[NightGameRecord, ...]
    #: The round the tables waiting were drawn for (0: none wait), and those tables' players by name.
    drawn_round: int = 0
    drawn: tuple[tuple[int, tuple[str, ...]], ...] = ()


def _utc(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)  # SQLite hands a stored time back without its zone


def every_night() -> list[NightRecord]:
    """Every night as a backup keeps it, the earliest first, in four queries whatever their number,
    its games in the bin left out.

    A night's rules are its rule set's as it is now; a closed night whose house rule set was
    deleted since keeps its first game's copy (a night with neither is left out: nothing of it
    can be played again)."""
    nights = list(db.session.scalars(select(Night).order_by(Night.held_on, Night.id)))
    players: dict[int, list[NightPlayerRecord]] = {}
    for night_id, name, arrived, left in db.session.execute(
            select(NightPlayer.night_id, Player.name, NightPlayer.arrived_at, NightPlayer.left_at)
            .join(Player, Player.id == NightPlayer.player_id).order_by(NightPlayer.arrived_at, Player.name_key)):
        players.setdefault(night_id, []).append(NightPlayerRecord(name, _utc(arrived), _utc(left)))
    games: dict[int, list[NightGameRecord]] = {}
    # A game in the bin is no longer the night's (as in night_games): kept, it would come back
    # live, count in the standings, and sit at a table the night has drawn again since.
    for night_id, game_id, rnd, table in db.session.execute(
            select(NightGame.night_id, NightGame.game_id, NightGame.round, NightGame.table)
            .join(Game, Game.id == NightGame.game_id).where(Game.deleted_at.is_(None))
            .order_by(NightGame.round, NightGame.table, NightGame.game_id)):
        games.setdefault(night_id, []).append(NightGameRecord(game_id, rnd, table))
    names = dict(db.session.execute(select(Player.id, Player.name)).all()) if any(n.drawn for n in nights) else {}
    records = []
    for night in nights:
        try:
            rules = get_ruleset(night.rules).rules
        except NotFound:
            first = games.get(night.id)
            if not first:
                continue
            rules = rules_of(db.session.get(Game, first[0].game))
        drawn_round, drawn = _drawn(night)
        records.append(NightRecord(night.held_on, rules, _utc(night.opened_at), _utc(night.closed_at),
                                   tuple(players.get(night.id, ())), tuple(games.get(night.id, ())), drawn_round,
                                   tuple((table, tuple(names[p] for p in ids)) for table, ids in sorted(drawn.items()))))
    return records


def _same_moment(stored: datetime, kept: datetime) -> bool:
    """Whether a stored time is a backup's (which keeps whole seconds)."""
    return _utc(stored).replace(microsecond=0) == kept.replace(microsecond=0)


def restore_nights(records: Sequence[NightRecord], game_ids: Sequence[int]) -> list[int]:
    """The nights of a backup stored again, in the caller's write (an import, which finishes it),
    their games being ``game_ids`` (the backup's games as stored, in its order). A night already
    here (its date and the moment it was opened) is not stored twice. Returns the games tied to a
    night here: the caller moves on the version of those stored before, as a change to them.
    A night whose games this club cannot seat as the backup has them (a player at a table of
    a later round while their game is still in progress): :class:`NightRefused`, naming the
    night by its place (from 1) in the backup, and the caller's write stores nothing."""
    tied: list[int] = []
    for number, record in enumerate(records, start=1):
        try:
            tied.extend(_restore_night(record, game_ids))
        except NightRefused as exc:
            raise NightRefused(Phrase(N_("Night {number} of the backup: {reason}"),
                                      {"number": number, "reason": exc.said})) from None
    db.session.flush()
    return tied


def _restore_night(record: NightRecord, game_ids: Sequence[int]) -> list[int]:
    """One night of a backup stored again (none if it is here already): the games tied to it."""
    tied: list[int] = []
    if any(_same_moment(opened, record.opened_at) for opened in db.session.scalars(
            select(Night.opened_at).where(Night.held_on == record.held_on))):
        return tied
    night = Night(rules=ruleset_for(record.rules), held_on=record.held_on, opened_at=record.opened_at)
    db.session.add(night)
    db.session.flush()
    for who in record.players:
        player = get_or_create_player(who.name)
        db.session.add(NightPlayer(night_id=night.id, player_id=player.id, arrived_at=who.arrived_at,
                                   left_at=who.left_at))
    db.session.flush()
    for kept in record.games:
        game_id = game_ids[kept.game]
        if night_of(game_id) is None:  # a game another night of this club has already stays there
            add_night_game(night.id, game_id, kept.round, kept.table)
            tied.append(game_id)
    _set_drawn(night, record.drawn_round,
               {table: [get_or_create_player(name).id for name in names] for table, names in record.drawn})
    night.closed_at = record.closed_at
    return tied
