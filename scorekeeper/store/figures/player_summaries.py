"""Each player's figures added up over their finished kept games: what a player's page reads.

A player's page read the summaries of every game they sat in, so its cost grew with their
games. Instead the sums count every game that has finished (``Game.finished_at``) and is not in
the bin, and a player's page adds to them the few games still being played, read as they stand
(:func:`of_player`). A round of a game in progress leaves the sums alone; a change to a game
that finished, or that finishes with it, takes the game's figures out of its players' sums
before it writes its new summary, and puts the new figures in after (:func:`take_out`,
:func:`put_in`, from :mod:`scorekeeper.store.changes`): counts and sums move by the difference.
A least or a most (the best final total, the first and last game, the newest game) cannot be
taken out: it is added up again for that player and rule set only when the game that gave it
leaves with a worse one.

Which games are counted is stored too (:class:`~scorekeeper.store.models.CountedGame`): a game
put in the bin keeps its summary, so what to take out is known only from what was put in.
``flask games rebuild`` adds everything up again from the games' summaries (:func:`rebuild`).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, fields
from datetime import datetime

from sqlalchemy import ColumnElement, Select, and_, bindparam, case, delete, func, insert, select
from sqlalchemy.orm import Session, aliased

from scorekeeper.store.models import (CountedGame, Game, GameSummary, Player, PlayerLevel, PlayerPair, Seat,
                                      PlayerSummary, SeatSummary, db)

Key = tuple[int, str]

#: The games the sums count: finished and not in the bin (with a summary, as every figure
#: here is read from one). The rest of a player's games are few and read as they stand.
COUNTED = and_(Game.finished_at.is_not(None), Game.deleted_at.is_(None))
#: A player's games still being played (or never finished), not in the bin: along the index
#: of the unfinished games, not the player's seats, so that the read does not grow with the
#: player's finished games.
UNCOUNTED = and_(Game.id.in_(select(Game.id).where(Game.finished_at.is_(None))), Game.deleted_at.is_(None))


@dataclass
class Figures:
    """One player's figures over some games of one rule set."""

    played: int = 0
    finished: int = 0
    won: int = 0
    shared: int = 0
    finals_total: int = 0
    best_final: int | None = None
    rounds: int = 0
    penalty: int = 0
    went_out: int = 0
    first_at: datetime | None = None
    last_at: datetime | None = None
    newest_id: int | None = None
    climbs: Counter = field(default_factory=Counter)

    def stored(self) -> dict:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["climbs"] = climbs_text(self.climbs)
        return values


SUMS = ("played", "finished", "won", "shared", "finals_total", "rounds", "penalty", "went_out")
#: The figures that are a least or a most: the name, and whether the least is kept.
EXTREMES = (("best_final", True), ("first_at", True), ("last_at", False), ("newest_id", False))


def climbs_text(climbs: Counter) -> str:
    return " ".join(f"{part}*{times}" for part, times in sorted(climbs.items()) if times > 0)


def climbs_counted(text: str) -> Counter:
    """The parts of a stored :attr:`PlayerSummary.climbs` and how often each was climbed."""
    counted: Counter = Counter()
    for token in text.split():
        part, _, times = token.rpartition("*")
        counted[part] += int(times)
    return counted


def among(column, ids: Collection[int]) -> ColumnElement[bool]:
    """``column IN ids``, the ids written into the statement: a change may touch more games (an
    import of a club's whole backup) than SQLite takes parameters in one statement."""
    return column.in_(bindparam(None, sorted(ids), expanding=True, literal_execute=True, unique=True))


def _count(condition: ColumnElement[bool]):
    return func.sum(case((condition, 1), else_=0))


# ================================================================ adding up

def _sums(where: ColumnElement[bool], session: Session, player_id: int | None = None) -> dict[Key, Figures]:
    """The figures of the games ``where`` picks (those that can be worked out), per player and
    rule set."""
    return _added_up(where, session, player_id)[0]


def _added_up(where: ColumnElement[bool], session: Session,
              player_id: int | None = None) -> tuple[dict[Key, Figures], Counter]:
    """:func:`_sums`, and per player, rule set and level the finished ladder games that ended on
    it and the rounds spent there (``games`` and ``rounds`` each, in a :class:`Counter`), in
    one pass: grouped by that level too, whose groups add up to the rule set's."""
    query = _added_up_query(where)
    if player_id is not None:
        query = query.where(SeatSummary.player_id == player_id)
    return _added_up_rows(session.execute(query))


def _added_up_query(where: ColumnElement[bool]) -> Select:
    finished = GameSummary.finished
    won = and_(finished, SeatSummary.won)
    others = aliased(SeatSummary)
    winners = select(func.count()).where(others.game_id == SeatSummary.game_id, others.won).scalar_subquery()
    query = (select(SeatSummary.player_id, Game.rules, SeatSummary.stuck_level, func.sum(SeatSummary.stuck_rounds),
                    func.count(), _count(finished), _count(won),
                    _count(and_(won, winners > 1)), func.sum(case((finished, SeatSummary.total), else_=0)),
                    func.min(case((finished, SeatSummary.total))), func.sum(GameSummary.rounds),
                    func.sum(SeatSummary.total), func.sum(SeatSummary.times_out), func.min(Game.started_at),
                    func.max(Game.started_at), func.max(Game.id), func.aggregate_strings(SeatSummary.climbs, " "))
             .select_from(SeatSummary).join(GameSummary, GameSummary.game_id == SeatSummary.game_id)
             .join(Game, Game.id == SeatSummary.game_id)
             .where(where, GameSummary.worked_out)
             .group_by(SeatSummary.player_id, Game.rules, SeatSummary.stuck_level))
    return query


def _added_up_rows(rows: Iterable) -> tuple[dict[Key, Figures], Counter]:
    found: dict[Key, Figures] = {}
    levels: Counter = Counter()
    for pid, rules, level, stuck_rounds, *n, best, rounds, penalty, out, first, last, newest, climbs in rows:
        part = Figures(*(int(x or 0) for x in n), best, int(rounds or 0), int(penalty or 0), int(out or 0),
                       first, last, int(newest), Counter((climbs or "").split()))
        if level is not None:
            levels[(pid, rules, level, "games")] += part.played
            levels[(pid, rules, level, "rounds")] += int(stuck_rounds or 0)
        whole = found.get((pid, rules))
        found[(pid, rules)] = part if whole is None else _together(whole, part)
    return found, levels


def _together(one: Figures, other: Figures) -> Figures:
    for name in SUMS:
        setattr(one, name, getattr(one, name) + getattr(other, name))
    for name, least in EXTREMES:
        values = [v for v in (getattr(one, name), getattr(other, name)) if v is not None]
        setattr(one, name, (min if least else max)(values) if values else None)
    one.climbs.update(other.climbs)
    return one


def _level_counts(rows: Iterable) -> Counter:
    counts: Counter = Counter()
    for pid, rules, level, games, rounds in rows:
        counts[(pid, rules, level, "games")] += int(games)
        counts[(pid, rules, level, "rounds")] += int(rounds or 0)
    return counts


def _pairs(where: ColumnElement[bool], session: Session) -> Counter:
    """Per two players, how many of the games ``where`` picks they sat at together."""
    return _pair_counts(session.execute(_pairs_query(where)))


def _pairs_query(where: ColumnElement[bool]) -> Select:
    other = aliased(SeatSummary)
    return (select(SeatSummary.player_id, other.player_id, func.count())
            .select_from(SeatSummary).join(other, other.game_id == SeatSummary.game_id)
            .join(GameSummary, GameSummary.game_id == SeatSummary.game_id).join(Game, Game.id == SeatSummary.game_id)
            .where(where, other.player_id != SeatSummary.player_id)
            .group_by(SeatSummary.player_id, other.player_id))


def _pair_counts(rows: Iterable) -> Counter:
    return Counter({(pid, oid): int(n) for pid, oid, n in rows})


@functools.cache
def _playing_statements() -> tuple[Select, Select, Select]:
    """A player's unfinished games (for the player the parameter ``player_id`` names), and what
    those (the parameter ``games``) add to their page (:func:`_added_up` and :func:`_pairs`),
    made once: making these took longer than the database takes to answer them. The games are
    written into the statements: planning for a few known games took half as long, and most
    players have none, which leaves both out."""
    mine = SeatSummary.player_id == bindparam("player_id")
    playing = select(Game.id).where(UNCOUNTED, select(SeatSummary.game_id)
                                    .where(SeatSummary.game_id == Game.id, mine).exists())
    these = Game.id.in_(bindparam("games", expanding=True, literal_execute=True))
    # Those games known, whom the player met at them needs their seats alone.
    other = aliased(SeatSummary)
    met = (select(SeatSummary.player_id, other.player_id, func.count())
           .join(other, other.game_id == SeatSummary.game_id)
           .where(mine, SeatSummary.game_id.in_(bindparam("games", expanding=True, literal_execute=True)),
                  other.player_id != SeatSummary.player_id)
           .group_by(SeatSummary.player_id, other.player_id))
    return playing, _added_up_query(these).where(mine), met


def _counted(game_ids: Collection[int] | None = None) -> ColumnElement[bool]:
    """The games counted (of ``game_ids``: those ids, read as counted already)."""
    if game_ids is not None:
        return among(Game.id, game_ids)
    return Game.id.in_(select(CountedGame.game_id))


# ================================================================ a change

@dataclass(frozen=True)
class Taken:
    """What a change took out of its players' sums: the figures its games counted for."""

    game_ids: tuple[int, ...]
    #: Of those games, the ones the sums counted.
    counted: frozenset[int]
    sums: dict[Key, Figures]
    levels: Counter
    pairs: Counter


def take_out(game_ids: Iterable[int], session: Session | None = None) -> Taken | None:
    """The figures the players' sums now count for these games, read before the change writes
    their new summaries (None: no game)."""
    ids = tuple(sorted(set(game_ids)))
    if not ids:
        return None
    session = session or db.session()
    # The games' players' rows held until the commit, in one order: two changes at once on
    # PostgreSQL (a correction of an old game as a player's new one ends) would each read the
    # player's sums and write them back, one over the other. FOR NO KEY UPDATE, which a round
    # naming the player (a foreign key's share lock) does not wait for. SQLite's writes take
    # turns anyway.
    session.execute(select(Player.id).where(Player.id.in_(select(Seat.player_id).where(among(Seat.game_id, ids))))
                    .order_by(Player.id).with_for_update(key_share=True))
    counted = frozenset(session.scalars(select(CountedGame.game_id).where(among(CountedGame.game_id, ids))))
    if not counted:  # new games: nothing to take out
        return Taken(ids, counted, {}, Counter(), Counter())
    where = _counted(counted)
    return Taken(ids, counted, *_added_up(where, session), _pairs(where, session))


def put_in(taken: Taken | None, session: Session | None = None) -> None:
    """Move the players' sums from what ``taken`` counted to what the games now count
    (finished kept games with a summary), once their new summaries are written."""
    if taken is None:
        return
    session = session or db.session()
    ids = list(taken.game_ids)
    counted = frozenset(session.scalars(select(GameSummary.game_id).join(Game, Game.id == GameSummary.game_id)
                                        .where(among(GameSummary.game_id, ids), COUNTED)))
    left, came = taken.counted - counted, counted - taken.counted
    if left:
        session.execute(delete(CountedGame).where(among(CountedGame.game_id, left)))
    if came:
        session.execute(insert(CountedGame), [{"game_id": gid} for gid in sorted(came)])
    where = _counted(counted) if counted else None
    sums, levels = _added_up(where, session) if where is not None else ({}, Counter())
    _move_sums(taken.sums, sums, session)
    _move_counts(PlayerLevel, taken.levels, levels, session)
    _move_counts(PlayerPair, taken.pairs, _pairs(where, session) if where is not None else Counter(), session)


def _move_sums(before: dict[Key, Figures], after: dict[Key, Figures], session: Session) -> None:
    keys = set(before) | set(after)
    if not keys:
        return
    players = {pid for pid, _ in keys}
    stored = {(row.player_id, row.rules): row for row in session.execute(
        select(*PlayerSummary.__table__.c).where(among(PlayerSummary.player_id, players)))}
    rows = {key: _figures_of(row) for key, row in stored.items()}
    for key in sorted(keys):
        now = rows.get(key, Figures())
        old, new = before.get(key, Figures()), after.get(key, Figures())
        for name in SUMS:
            setattr(now, name, getattr(now, name) - getattr(old, name) + getattr(new, name))
        now.climbs.subtract(old.climbs)
        now.climbs.update(new.climbs)
        again = False
        for name, least in EXTREMES:
            kept, gone, came = getattr(now, name), getattr(old, name), getattr(new, name)
            if gone is not None and gone == kept and (came is None or (came > kept if least else came < kept)):
                again = True  # the game that gave it left with a worse one: add it up again
            candidates = [v for v in (kept, came) if v is not None]
            setattr(now, name, (min if least else max)(candidates) if candidates else None)
        if now.played <= 0:
            rows.pop(key, None)
        elif again:
            rows[key] = _sums(and_(_counted(), Game.rules == key[1]), session, key[0])[key]
        else:
            rows[key] = now
    # The players' rows written again whole: three statements, however many rows moved.
    session.execute(delete(PlayerSummary).where(among(PlayerSummary.player_id, players)))
    if rows:
        session.execute(insert(PlayerSummary), [{"player_id": pid, "rules": rules, **figures.stored()}
                                                for (pid, rules), figures in sorted(rows.items())])


def _figures_of(row) -> Figures:
    values = {f.name: getattr(row, f.name) for f in fields(Figures)}
    values["climbs"] = climbs_counted(row.climbs)
    return Figures(**values)


def _move_counts(model: type[PlayerLevel] | type[PlayerPair], before: Counter, after: Counter,
                 session: Session) -> None:
    moved = Counter(after)
    moved.subtract(before)
    moved = Counter({k: n for k, n in moved.items() if n})
    if not moved:
        return
    players = {key[0] for key in moved}
    counts = _count_rows(model, session, players)
    counts.update(moved)
    session.execute(delete(model).where(among(model.player_id, players)))
    rows = _rows_of(model, counts)
    if rows:
        session.execute(insert(model), rows)


def _count_rows(model, session: Session, players: set[int] | None = None) -> Counter:
    """The stored rows as counts, keyed as :func:`_levels` and :func:`_pairs` key them."""
    query = select(*model.__table__.c)
    if players is not None:
        query = query.where(among(model.player_id, players))
    if model is PlayerLevel:
        return _level_counts((r.player_id, r.rules, r.level, r.games, r.rounds) for r in session.execute(query))
    return Counter({(r.player_id, r.other_id): r.games for r in session.execute(query)})


def _rows_of(model, counts: Counter) -> list[dict]:
    if model is PlayerPair:
        return [{"player_id": pid, "other_id": oid, "games": n} for (pid, oid), n in sorted(counts.items()) if n > 0]
    keys = sorted({key[:3] for key in counts})
    return [{"player_id": pid, "rules": rules, "level": level, "games": counts[(pid, rules, level, "games")],
             "rounds": counts[(pid, rules, level, "rounds")]}
            for pid, rules, level in keys if counts[(pid, rules, level, "games")] > 0]


# ================================================================ a rebuild

def _stored(session: Session) -> tuple[set[int], dict[Key, dict], Counter, Counter]:
    counted = set(session.scalars(select(CountedGame.game_id)))
    sums = {(row.player_id, row.rules): _figures_of(row).stored()
            for row in session.execute(select(*PlayerSummary.__table__.c))}
    return counted, sums, _count_rows(PlayerLevel, session), _count_rows(PlayerPair, session)


def _fresh(session: Session) -> tuple[set[int], dict[Key, dict], Counter, Counter]:
    counted = set(session.scalars(select(GameSummary.game_id).join(Game, Game.id == GameSummary.game_id)
                                  .where(COUNTED)))
    found, levels = _added_up(COUNTED, session)
    sums = {key: figures.stored() for key, figures in found.items()}
    return counted, sums, levels, _pairs(COUNTED, session)


def rebuild(session: Session | None = None, fix: bool = True) -> list[str]:
    """The players' sums added up again from the games' summaries: one line for each player
    whose stored sums differed (then replaced, unless ``fix`` is False)."""
    session = session or db.session()
    session.flush()
    stored, fresh = _stored(session), _fresh(session)
    differences = []
    if stored[0] != fresh[0]:
        differences.append(f"the games the players' figures count differed "
                           f"({len(stored[0] ^ fresh[0])} games)")
    for what, old, new in (("figures", stored[1], fresh[1]), ("ladder levels", stored[2], fresh[2]),
                           ("opponents", stored[3], fresh[3])):
        players = sorted({key[0] for key in set(old) | set(new) if old.get(key) != new.get(key)})
        differences += [f"player {pid}: the stored {what} differed from their games'" for pid in players]
    if fix and differences:
        for model in (CountedGame, PlayerSummary, PlayerLevel, PlayerPair):
            session.execute(delete(model))
        counted, sums, levels, pairs = fresh
        if counted:
            session.execute(insert(CountedGame), [{"game_id": gid} for gid in sorted(counted)])
        if sums:
            session.execute(insert(PlayerSummary), [{"player_id": pid, "rules": rules, **values}
                                                    for (pid, rules), values in sorted(sums.items())])
        for model, counts in ((PlayerLevel, levels), (PlayerPair, pairs)):
            rows = _rows_of(model, counts)
            if rows:
                session.execute(insert(model), rows)
        session.flush()
    return differences


# ================================================================ reading

@dataclass(frozen=True)
class PlayerFigures:
    """What a player's page reads of their sums: per rule set, the ladder levels, the opponents."""

    by_rules: dict[str, Figures]
    #: Per rule set, ``(level, games ended on it, rounds spent there)``.
    levels: dict[str, list[tuple[int, int, int]]]
    #: ``(opponent id, their name as the roster has it now, games together)``.
    pairs: list[tuple[int, str, int]]


def of_player(player_id: int, session: Session | None = None) -> PlayerFigures:
    """A player's sums, with their games not yet finished added as they stand: a row a rule
    set, a level and an opponent, and the unfinished games' seats, whatever the number of their
    finished games (four queries; six while they have a game unfinished)."""
    session = session or db.session()
    by_rules = {row.rules: _figures_of(row) for row in session.scalars(
        select(PlayerSummary).where(PlayerSummary.player_id == player_id))}
    levels = _count_rows(PlayerLevel, session, {player_id})
    pairs: Counter = Counter()
    names: dict[int, str] = {}
    for oid, name, n in session.execute(
            select(PlayerPair.other_id, Player.name, PlayerPair.games).join(Player, Player.id == PlayerPair.other_id)
            .where(PlayerPair.player_id == player_id)):
        pairs[oid], names[oid] = n, name
    unfinished, added_up, paired = _playing_statements()
    games = list(session.scalars(unfinished, {"player_id": player_id}))
    playing, playing_levels = _added_up_rows(
        session.execute(added_up, {"player_id": player_id, "games": games}) if games else ())
    if playing:
        for (_, rules), figures in playing.items():
            by_rules[rules] = _together(by_rules[rules], figures) if rules in by_rules else figures
        levels.update(playing_levels)
        pairs.update({oid: n for (_, oid), n in
                      _pair_counts(session.execute(paired, {"player_id": player_id, "games": games})).items()})
        unnamed = sorted(set(pairs) - set(names))
        if unnamed:  # met only at a game still being played
            names.update(session.execute(select(Player.id, Player.name).where(Player.id.in_(unnamed))).all())
    by_level: dict[str, list[tuple[int, int, int]]] = {}
    for _, rules, level in sorted({key[:3] for key in levels}):
        if levels[(player_id, rules, level, "games")] > 0:
            by_level.setdefault(rules, []).append(
                (level, levels[(player_id, rules, level, "games")], levels[(player_id, rules, level, "rounds")]))
    return PlayerFigures(by_rules, by_level, [(oid, names[oid], n) for oid, n in sorted(pairs.items()) if n > 0])
