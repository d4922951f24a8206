"""The roster: players added, renamed and removed, and how many games each has played."""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import func, select

from scorekeeper.store.changes import finish_games
from scorekeeper.store.database import writing
from scorekeeper.store.errors import NotFound, PlayerNameError
from scorekeeper.store.models import Game, Player, Seat, db
from scorekeeper.rules import N_, NameRefused, Phrase, clean_name, name_key


def find_player(name: str) -> Player | None:
    return db.session.scalar(select(Player).where(Player.name_key == name_key(name)))


def get_or_create_player(name: str) -> Player:
    cleaned = clean_name(name, "player's name")
    player = find_player(cleaned)
    if player is None:
        player = Player(name=cleaned, name_key=name_key(cleaned))
        db.session.add(player)
        db.session.flush()
    return player


@writing()
def add_player(name: str) -> Player:
    """Add a new player to the roster; ``PlayerNameError`` if the name is taken or invalid."""
    try:
        cleaned = clean_name(name, "name")
    except NameRefused as exc:
        raise PlayerNameError(str(exc), exc.said) from None
    existing = find_player(cleaned)
    if existing is not None:
        raise PlayerNameError.taken(existing.name)
    player = Player(name=cleaned, name_key=name_key(cleaned))
    db.session.add(player)
    db.session.commit()
    return player


@writing()
def rename_player(player_id: int, name: str) -> Player:
    player = db.session.get(Player, player_id)
    if player is None:
        raise NotFound(f"no player {player_id}")
    try:
        cleaned = clean_name(name, "name")
    except NameRefused as exc:
        raise PlayerNameError(str(exc), exc.said) from None
    other = find_player(cleaned)
    if other is not None and other.id != player.id:
        raise PlayerNameError.taken(other.name)
    renamed = player.name != cleaned
    player.name = cleaned
    player.name_key = name_key(cleaned)
    if renamed:
        # Every game the player sat at shows the new name: a change to each of those games
        # (their ETags change, watchers see it, and no state worked out before is used again).
        finish_games(select(Seat.game_id).where(Seat.player_id == player.id))
    else:
        db.session.commit()
    return player


def games_played(player_id: int) -> int:
    return db.session.scalar(select(func.count(Seat.id)).where(Seat.player_id == player_id)) or 0


class GamesPlayed(NamedTuple):
    """A player's games as the roster tells them."""

    kept: int  #: games not deleted: the count the roster shows, as the player's own page does
    seats: int  #: every game, the bin's too: a player with any stays on the roster (the bin can restore it)


def games_played_by_everyone() -> dict[int, GamesPlayed]:
    """How many games each player has a seat in, kept and in all, in one query."""
    rows = db.session.execute(
        select(Seat.player_id, func.count(Seat.id).filter(Game.deleted_at.is_(None)), func.count(Seat.id))
        .join(Game, Game.id == Seat.game_id).group_by(Seat.player_id))
    return {player_id: GamesPlayed(kept, seats) for player_id, kept, seats in rows}


@writing()
def remove_player(player_id: int) -> None:
    player = db.session.get(Player, player_id)
    if player is None:
        raise NotFound(f"no player {player_id}")
    if games_played(player_id):
        said = Phrase(N_("{name} has played, so stays on the roster to keep the history"), {"name": player.name})
        raise PlayerNameError(str(said), said)
    db.session.delete(player)
    db.session.commit()


def roster() -> list[Player]:
    return list(db.session.scalars(select(Player).order_by(func.lower(Player.name))))


def get_player(player_id: int) -> Player | None:
    return db.session.get(Player, player_id)
