"""Games: started, loaded with their state, looked up by their version, and the bin (deleted,
restored, purged)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import DBAPIError

from scorekeeper.store.access import issue_key
from scorekeeper.store.changes import finish_game, finish_games
from scorekeeper.store.database import one_statement_engine, writing
from scorekeeper.store.errors import BrokenGame, NotFound, NotInBin
from scorekeeper.store.models import Game, Player, Seat, db, utcnow
from scorekeeper.store.players import get_or_create_player
from scorekeeper.store.replays import LoadedGame, SeatRow, load_games, rounds_of, work_out
from scorekeeper.rules import GameSetup, RuleSet, RuleSetError, document_text, ruleset_from_text, start


def _checked(loaded: LoadedGame) -> LoadedGame:
    if loaded.state is None:
        raise BrokenGame(f"game {loaded.id}: {loaded.problem}")
    return loaded


# The game's row with its seats, their players' names and whether each has a seat link, in one
# statement: the row comes again for each seat, a few hundred bytes, and every page that shows a
# game makes one trip to the database fewer. On PostgreSQL a change locks the game's row alone
# (FOR UPDATE OF game).
_GAME = (select(Game, Seat.player_id, Player.name, Seat.key_hash.is_not(None))
         .outerjoin(Seat, Seat.game_id == Game.id).outerjoin(Player, Player.id == Seat.player_id)
         .where(Game.id == bindparam("game_id")).order_by(Seat.position))
_GAME_LOCKED = _GAME.with_for_update(of=Game)


def load(game_id: int, lock: bool = False) -> LoadedGame:
    """A game and its state, worked out from its rounds: two queries (the game with its seats;
    its rounds with their hands). ``lock``: for a change, inside the write (on PostgreSQL the
    game's row stays locked until the commit, so that two changes to one game take turns, as
    SQLite's write lock makes them: the second works from the first's rounds and summary)."""
    rows = db.session.execute(_GAME_LOCKED if lock else _GAME, {"game_id": game_id}).all()
    if not rows:
        raise NotFound(f"no game {game_id}")
    seats = [SeatRow(player_id, name) for _game, player_id, name, _linked in rows if player_id is not None]
    linked = any(linked for *_, linked in rows)
    return _checked(work_out(rows[0][0], seats, rounds_of(game_id), linked))


def game_row(setup: GameSetup, started_at: datetime | None) -> Game:
    """A new game's row: the set-up as stored (seats are added by the caller), with its own
    frozen copy of the rules (see :func:`freeze`)."""
    return Game(
        rules=setup.rules.key,
        rules_document=freeze(setup.rules),
        decks=setup.decks,
        jokers=setup.jokers,
        dealer_rule=setup.dealer_rule.value,
        first_dealer_seat=setup.seat_of(setup.first_dealer),
        started_at=started_at or utcnow(),
    )


def freeze(rules: RuleSet) -> str:
    """The document a game keeps of ``rules`` (JSON text), checked as any document is: a rule
    set made in code without :func:`~scorekeeper.rules.parse_ruleset` is refused here
    (``RuleSetError``) rather than stored as a game no replay could read."""
    text = document_text(rules)
    ruleset_from_text(text, rules.key)  # read once per process for each distinct text
    return text


def add_game(setup: GameSetup, started_at: datetime | None = None) -> Game:
    """A new game's row and seats, in the caller's write (which finishes it)."""
    game = game_row(setup, started_at)  # first: rules that cannot be frozen store nothing
    players = [get_or_create_player(name) for name in setup.players]
    game.seats = [Seat(position=i, player=p) for i, p in enumerate(players)]
    db.session.add(game)
    db.session.flush()
    return game


@writing()
def create_game(setup: GameSetup) -> tuple[Game, str]:
    """A new game and its secret edit key."""
    game = add_game(setup)
    key = issue_key(game)
    finish_game(game, start(setup), [seat.player_id for seat in game.seats], moved=True)  # born at its first version
    return game, key


@writing()
def delete_game(game_id: int) -> Game:
    """Put a game in the bin: out of the history and the statistics, kept everywhere else."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise NotFound(f"no game {game_id}")
    if game.deleted_at is None:
        game.deleted_at = utcnow()
        # Its page says so (its ETag, its watchers), and the games after it are rated without it.
        finish_game(game, rated=True)
    return game


@writing()
def restore_game(game_id: int) -> Game:
    game = db.session.get(Game, game_id)
    if game is None:
        raise NotFound(f"no game {game_id}")
    if game.deleted_at is not None:
        take_out_of_bin([game.id])
        finish_games([game.id], rated=[game.id])
        db.session.refresh(game)
    return game


def take_out_of_bin(game_ids: Collection[int]) -> None:
    """Bring deleted games back, in the caller's transaction (the bin's Restore, an import of a
    game that is in it), which the caller finishes (:func:`~scorekeeper.store.changes.finish_games`):
    each is a change that a phone showing the game deleted hears of, and the games after them
    are rated with them again."""
    if not game_ids:
        return
    db.session.execute(update(Game).where(Game.id.in_(game_ids), Game.deleted_at.is_not(None))
                       .values(deleted_at=None).execution_options(synchronize_session=False))


@writing()
def purge_game(game_id: int) -> None:
    """Remove a deleted game for good (only from the bin: a kept game is refused). Its seats,
    rounds, hands and summary go with it (ON DELETE CASCADE)."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise NotFound(f"no game {game_id}")
    if game.deleted_at is None:
        raise NotInBin(f"game {game_id} is not in the bin")
    db.session.delete(game)
    db.session.commit()


def every_game() -> list[LoadedGame]:
    """Every game, the bin's too, in the order they were stored, each with its state (None,
    and the reason, where the engine cannot work it out): three queries, for a backup."""
    return load_games(Game.id.is_not(None), order_by=(Game.id,))


def all_game_ids() -> list[int]:
    return list(db.session.scalars(select(Game.id).order_by(Game.id)))


def get_game(game_id: int) -> Game | None:
    """A game's row alone (no rounds, no state)."""
    return db.session.get(Game, game_id)


#: A game's version, by id: the one query of the unchanged poll (:mod:`scorekeeper.web.polls`).
VERSION_OF = select(Game.version).where(Game.id == bindparam("game_id"))


class Peeked(NamedTuple):
    """A game's row, the little of it that tells which version of the game is stored."""

    id: int
    version: int
    edit_key_hash: str | None
    #: Set (in whatever form the database gives it) when the game is in the bin.
    deleted_at: object


_PEEK = select(Game.id, Game.version, Game.edit_key_hash, Game.deleted_at).where(Game.id == bindparam("game_id"))


def peek(game_id: int) -> Peeked | None:
    """The game's id, version, edit key hash and deletion, in one query by primary key: what
    its ETag is made of, so that a page the phone already holds is answered 304 after this alone."""
    row = db.session.execute(_PEEK, {"game_id": game_id}).first()
    return None if row is None else Peeked(*row)


_PEEK_RULES = select(*_PEEK.selected_columns, Game.rules, Game.rules_document).where(Game.id == bindparam("game_id"))


def peek_with_rules(game_id: int) -> tuple[Peeked, RuleSet | None] | None:
    """:func:`peek`, and the rules the game is played by (its frozen document; None if it cannot
    be read), in the same one query: what a round sent to the API is checked and read with (a
    Phase 10 game's hands hold skips and wilds)."""
    row = db.session.execute(_PEEK_RULES, {"game_id": game_id}).first()
    if row is None:
        return None
    try:
        rules = ruleset_from_text(row[5], row[4])
    except RuleSetError:
        rules = None  # the store refuses to change a game it cannot work out (BrokenGame)
    return Peeked(*row[:4]), rules


class VersionReader:
    """The game's change counter, for use outside a request (the unchanged poll answered before
    Flask, ``scorekeeper.web.polls``): each call is one query by primary key, of committed data
    with no BEGIN or ROLLBACK around it (one trip to the database, not three), sent by the
    driver itself on a connection of the engine's pool (SQLAlchemy's public ``raw_connection``):
    SQLAlchemy's own execution took 96 microseconds of processor a read, the driver 14 (the
    statement is SQLAlchemy's, compiled once). Made inside the app's context, once; ``close()``
    lets its connections go."""

    def __init__(self) -> None:
        self.engine = one_statement_engine()
        compiled = VERSION_OF.compile(dialect=self.engine.dialect)
        self.statement = compiled.string
        self.positional = compiled.positional  # SQLite's "?", or psycopg's "%(game_id)s"
        self.failures = (DBAPIError, self.engine.dialect.loaded_dbapi.Error)

    def read(self, connection, game_id: int) -> int | None:
        cursor = connection.cursor()
        try:
            cursor.execute(self.statement, (game_id,) if self.positional else {"game_id": game_id})
            row = cursor.fetchone()
        finally:
            cursor.close()
        return None if row is None else row[0]

    def __call__(self, game_id: int) -> int | None:
        """The version; None when the game is not there or the database did not answer (it
        restarted and closed this connection, or is away): the view then answers the poll on
        the app's own connections, which are checked before use, or says the database is away."""
        try:
            connection = self.engine.raw_connection()
        except self.failures:
            return None
        try:
            return self.read(connection, game_id)
        except self.failures:
            connection.invalidate()  # the pool lets it go: the next poll reads on a new one
            return None
        finally:
            connection.close()  # back to the pool

    def open(self, connections: int) -> None:
        """Make ``connections`` connections now, before the first poll (one for each of the
        server's threads), and read on each once: on PostgreSQL a connection takes a few
        milliseconds to make, and its first read of the game table a few more (its server
        process learns the table), each three times the poll itself. A fresh server's first
        polls would wait for both. A database away at the start is no error: the polls connect
        once it answers."""
        made = []
        try:
            for _ in range(connections):
                made.append(self.engine.raw_connection())
                try:
                    self.read(made[-1], 0)  # no game has it: the read alone
                except self.failures:
                    made[-1].invalidate()
                    break
        except self.failures:
            pass  # the database is away: the polls make their connections once it answers
        finally:
            for connection in made:
                connection.close()  # back to the pool, which keeps it for the first poll

    def close(self) -> None:
        self.engine.dispose()
