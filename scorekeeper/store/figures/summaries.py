"""Each game's summary (``game_summary``, ``seat_summary``): written with the facts, rebuilt on demand.

The recorded rounds are the truth; a summary is what the rules engine makes of one game's
rounds, boiled down to what lists and statistics read (who won, each seat's total, place, times
out, stage and ladder climbs, the next round and its dealer). The store writes a game's summary
in the same transaction as every change to the game's rounds, from the state the engine has
just worked out for that change (:func:`write`), so reading a summary never needs a replay.
Renames, deletes and restores change no summary: names come from the roster, and the bin is the
game's own ``deleted_at``.

:func:`scorekeeper.store.rebuild.rebuild` (``flask games rebuild``) works every summary out
again from the facts and reports any that differed; the tests hold the stored summaries against it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import ColumnElement, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from scorekeeper.store.models import Game, GameSummary, Player, SeatSummary, db
from scorekeeper.rules import (
    GameState,
    Position,
    Progression,
    RuleSet,
    RuleSetError,
    Stage,
    ruleset_from_text,
)

@dataclass(frozen=True)
class Rows:
    """One game's summary as the rows to store (``game`` and one dict a seat, in seat order)."""

    game: dict
    seats: tuple[dict, ...]

    def comparable(self) -> tuple:
        return (tuple(sorted(self.game.items())), tuple(tuple(sorted(s.items())) for s in self.seats))


def rows_of(game_id: int, player_ids: Sequence[int], state: GameState | None, problem: str | None = None) -> Rows:
    """The summary of a game whose seats hold ``player_ids`` and whose state is ``state``
    (None: its rounds cannot be worked out, for the reason ``problem``)."""
    if state is None:
        game = {"game_id": game_id, "worked_out": False, "problem": (problem or "")[:400], "finished": False,
                "rounds": 0, "next_round": None, "next_dealer": None}
        seats = tuple({"game_id": game_id, "position": i, "player_id": pid, "total": 0, "place": 1, "won": False,
                       "times_out": 0, "stage": 0, "climbs": "", "stuck_level": None, "stuck_rounds": None}
                      for i, pid in enumerate(player_ids))
        return Rows(game, seats)
    ladder = state.rules.progression is Progression.LADDER
    climbs = [_climbs(state, seat) if ladder else ("", None) for seat in range(len(player_ids))]
    stages = state.next.stages if state.next else (state.rounds[-1].stages if state.rounds else ())
    return _rows(game_id, player_ids, state.position, stages, climbs)


def _rows(game_id: int, player_ids: Sequence[int], position: Position, stages: Sequence[Stage],
          climbs: Sequence[tuple[str, tuple[int, int] | None]]) -> Rows:
    """The summary rows of a game at ``position``: each seat's stage shown (the next round's,
    else the last one's) and its climbs ("level:rounds" for each level made, and the level it
    was stuck on when the game ended)."""
    nxt = position.next
    names = position.setup.players
    game = {"game_id": game_id, "worked_out": True, "problem": None, "finished": position.finished,
            "rounds": position.played, "next_round": nxt.number if nxt else None,
            "next_dealer": names.index(nxt.dealer) if nxt else None}
    ranks = position.ranks()
    winners = set(position.winners)
    seats = []
    for seat, (pid, name, (made, stuck)) in enumerate(zip(player_ids, names, climbs, strict=True)):
        seats.append({
            "game_id": game_id, "position": seat, "player_id": pid, "total": position.totals[seat],
            "place": ranks[name], "won": name in winners, "times_out": position.times_out[seat],
            "stage": stages[seat].number if stages else 0, "climbs": made,
            "stuck_level": stuck[0] if stuck else None, "stuck_rounds": stuck[1] if stuck else None,
        })
    return Rows(game, tuple(seats))


def _climbs(state: GameState, seat: int) -> tuple[str, tuple[int, int] | None]:
    """A ladder seat's climbs ("level:rounds" for each level made) and, when the game finished
    with the player still climbing, that level and the rounds spent on it."""
    name = state.players[seat].name
    made: list[str] = []
    spent, level = 0, 1
    for result in state.rounds:
        level = result.stages[seat].number
        spent += 1
        if name in result.achieved:
            made.append(f"{level}:{spent}")
            spent = 0
    return " ".join(made), ((level, spent) if spent and state.finished else None)


def climbs_of(text: str) -> tuple[tuple[int, int], ...]:
    """``"1:2 2:1"`` read back: ((1, 2), (2, 1))."""
    return tuple((int(a), int(b)) for a, b in (part.split(":") for part in text.split()))


def store(rows: Sequence[Rows], session: Session | None = None) -> None:
    """Write (or replace) these games' summaries in the session's transaction: the caller's
    transaction is the one that changes the facts they come from. A game's seats never change
    in number, so its seat rows are replaced one for one."""
    if not rows:
        return
    session = session or db.session()
    games = [r.game for r in rows]
    seats = [s for r in rows for s in r.seats]
    for model, values in ((GameSummary, games), (SeatSummary, seats)):
        replacing = _replacing(session.get_bind().dialect.name, model)
        for chunk in _chunks(values):
            session.execute(replacing, chunk)


@cache
def _replacing(dialect: str, model: type[GameSummary] | type[SeatSummary]):
    """An INSERT that replaces the row of the same key (ON CONFLICT DO UPDATE, which SQLite and
    PostgreSQL both have, each in its own dialect's ``insert``): a summary is written in one
    statement, not deleted in one and inserted in another. NULLs are written as such, so that
    rows go together in one statement whatever their NULLs. Made once for each database system
    and table, as the store's other statements are: making it anew took a millisecond of every
    round's."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    made = insert(model)
    keys = [column.name for column in model.__table__.primary_key]
    return made.on_conflict_do_update(
        index_elements=keys,
        set_={column.name: made.excluded[column.name] for column in model.__table__.columns if column.name not in keys},
    ).execution_options(render_nulls=True)


def write(game_id: int, player_ids: Sequence[int], state: GameState | None, problem: str | None = None) -> None:
    """Store one game's summary from the state the engine just worked out for a change to it."""
    store([rows_of(game_id, player_ids, state, problem)])


def _chunks(values: Sequence, size: int = 500) -> Iterator[Sequence]:
    for i in range(0, len(values), size):
        yield values[i:i + size]


# ================================================================ reading


@dataclass(frozen=True)
class SeatLine:
    """One seat of a :class:`Summary`, with the player's name as the roster has it now."""

    player_id: int
    name: str
    total: int
    place: int
    won: bool
    times_out: int
    stage: int
    climbs: tuple[tuple[int, int], ...]
    stuck: tuple[int, int] | None


@dataclass(frozen=True)
class Summary:
    """A game as the lists and the statistics show it: its row and its stored summary."""

    id: int
    #: The key of the rule set the game was started from (what the history filters by).
    rules: str
    #: The game's frozen copy of its rules (JSON text): what :attr:`ruleset` reads.
    rules_document: str
    started_at: datetime | None
    finished_at: datetime | None
    deleted_at: datetime | None
    seats: tuple[SeatLine, ...]
    #: False when the rounds cannot be worked out (then only ``seats`` counts), and why.
    worked_out: bool
    problem: str | None
    finished: bool
    rounds: int
    next_round: int | None

    @property
    def game_id(self) -> int:
        return self.id

    @property
    def ruleset(self) -> RuleSet | None:
        """The rules the game was played by (its frozen copy); None if they cannot be read."""
        try:
            return ruleset_from_text(self.rules_document, self.rules)
        except RuleSetError:
            return None

    @property
    def rules_name(self) -> str:
        ruleset = self.ruleset
        return ruleset.name if ruleset else self.rules

    @property
    def round_word(self) -> str:
        """What the game's rules call a round ("deal" in a deal game), lower case for a line of text."""
        ruleset = self.ruleset
        return (ruleset.round_word if ruleset else "Round").lower()

    @property
    def ladder(self) -> bool:
        ruleset = self.ruleset
        return ruleset is not None and ruleset.progression is Progression.LADDER

    @property
    def deleted(self) -> bool:
        return self.deleted_at is not None

    @property
    def duration(self) -> timedelta | None:
        """From the start to the round that ended it (None if unknown or not positive)."""
        return duration(self.started_at, self.finished_at)

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(s.total for s in self.seats)

    @property
    def winner_seats(self) -> frozenset[int]:
        return frozenset(i for i, s in enumerate(self.seats) if s.won)

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats if s.won)

    @property
    def leaders(self) -> tuple[str, ...]:
        """Everyone in first place (the winners, once finished)."""
        return tuple(s.name for s in self.seats if s.place == 1)

    @property
    def best_total(self) -> int | None:
        """The total of the first place (in Phase 10 not always the lowest: the furthest phase
        comes first)."""
        return min((s.total for s in self.seats if s.place == 1), default=None)

    def seat_of(self, player_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.player_id == player_id:
                return i
        return None


def duration(start: datetime | None, end: datetime | None) -> timedelta | None:
    if start is None or end is None:
        return None
    length = _aware(end) - _aware(start)
    return length if length > timedelta(0) else None


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


_GAME_COLUMNS = (Game.id, Game.rules, Game.rules_document, Game.started_at, Game.finished_at, Game.deleted_at, GameSummary.worked_out,
                 GameSummary.problem, GameSummary.finished, GameSummary.rounds, GameSummary.next_round)


def read(where: ColumnElement[bool], order_by: Sequence = (), limit: int | None = None, offset: int = 0,
         session: Session | None = None) -> list[Summary]:
    """The summaries of the games ``where`` selects, in ``order_by``: two queries (the games
    with their summaries, then their seats), whatever their number. With ``limit``, one page:
    its ids are found first along an index (no table row is read for a skipped game)."""
    session = session or db.session()
    chosen = select(Game.id).where(where)
    if limit is not None:
        chosen = chosen.order_by(*order_by).limit(limit).offset(offset)
        ids = list(session.scalars(chosen))
        if not ids:
            return []
        games_where = Game.id.in_(ids)
        seats_where = SeatSummary.game_id.in_(ids)
    else:
        games_where = where
        seats_where = SeatSummary.game_id.in_(chosen)
    games = session.execute(select(*_GAME_COLUMNS).outerjoin(GameSummary, GameSummary.game_id == Game.id)
                            .where(games_where).order_by(*order_by)).all()
    seats: dict[int, list[SeatLine]] = {}
    for row in session.execute(
        select(SeatSummary.game_id, SeatSummary.player_id, Player.name, SeatSummary.total, SeatSummary.place,
               SeatSummary.won, SeatSummary.times_out, SeatSummary.stage, SeatSummary.climbs, SeatSummary.stuck_level,
               SeatSummary.stuck_rounds)
        .join(Player, Player.id == SeatSummary.player_id)
        .where(seats_where).order_by(SeatSummary.game_id, SeatSummary.position)
    ):
        stuck = (row.stuck_level, row.stuck_rounds) if row.stuck_level is not None else None
        seats.setdefault(row.game_id, []).append(SeatLine(row.player_id, row.name, row.total, row.place, bool(row.won),
                                                          row.times_out, row.stage, climbs_of(row.climbs), stuck))
    return [Summary(g.id, g.rules, g.rules_document, g.started_at, g.finished_at, g.deleted_at,
                    tuple(seats.get(g.id, ())),
                    bool(g.worked_out), g.problem if g.worked_out is not None else "no summary is stored",
                    bool(g.finished), g.rounds or 0, g.next_round)
            for g in games]


def summary_of(game: Any, seats: Sequence[Any], state: GameState | None, problem: str | None = None) -> Summary:
    """The summary of one game worked out just now (its page has replayed it): the same as
    :func:`read` gives for it."""
    rows = rows_of(game.id, [s.player_id for s in seats], state, problem)
    lines = tuple(SeatLine(s["player_id"], seat.name, s["total"], s["place"], s["won"], s["times_out"], s["stage"],
                           climbs_of(s["climbs"]),
                           (s["stuck_level"], s["stuck_rounds"]) if s["stuck_level"] is not None else None)
                  for s, seat in zip(rows.seats, seats, strict=True))
    g = rows.game
    return Summary(game.id, game.rules, game.rules_document, game.started_at, game.finished_at, game.deleted_at,
                   lines, g["worked_out"], g["problem"], g["finished"], g["rounds"], g["next_round"])


__all__ = ["Rows", "SeatLine", "Summary", "climbs_of", "duration", "read", "rebuild", "rows_of", "store", "summary_of",
           "write"]
