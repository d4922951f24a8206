"""A realistic history for the benchmark, stored through the app's own store.

Games are made by the rules engine (every round lawful: deck limits, hand limits, the
ladder), written as :class:`scorekeeper.store.imports.GameFile` values and stored with
:func:`scorekeeper.store.import_games`, the function the importer and the API use: no
SQL of our own, so the database holds exactly what the app would have stored.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from scorekeeper import store
from scorekeeper.store.imports import GameFile
from scorekeeper.rules import (
    BALMORAL,
    CLASSIC,
    GameSetup,
    GameState,
    RoundError,
    RoundRecord,
    advance,
    start,
)

#: A club's roster: regulars and occasional players (the first names play more often).
ROSTER = [
    "Ann", "Ben", "Cat", "Dev", "Eve", "Fin", "Gus", "Hal", "Ivy", "Jon", "Kay", "Lou",
    "Max", "Nia", "Oli", "Pam", "Quin", "Rae", "Sam", "Tess", "Uma", "Vic", "Wes", "Xena",
]
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
#: The history ends here, so that two runs (and two machines) seed the same database.
NOW = datetime(2026, 6, 1, 18, 0, tzinfo=UTC)
BATCH = 250


def _hand(rng: random.Random, cards: int, jokers: bool) -> str:
    pool = RANKS + (["JK"] if jokers else [])
    return " ".join(rng.choice(pool) for _ in range(cards))


def _players(rng: random.Random) -> list[str]:
    count = rng.randint(4, 6)
    weights = [3 if i < 8 else 1 for i in range(len(ROSTER))]
    chosen: list[str] = []
    while len(chosen) < count:
        name = rng.choices(ROSTER, weights)[0]
        if name not in chosen:
            chosen.append(name)
    return chosen


def _round(rng: random.Random, state: GameState, went_out: str, achieved: set[str]) -> RoundRecord:
    """Who went out, what everyone else held (few cards if they laid down, many if not)."""
    classic = state.rules is CLASSIC
    hands: dict[str, str] = {}
    points: dict[str, int] = {}
    for name in state.setup.players:
        if name == went_out:
            continue
        if rng.random() < 0.05:
            points[name] = rng.choice([0, 10, 25, 40, 55])
            continue
        if classic:
            count = rng.choice([0, 1, 2, 3, 4, 5, 6, 8, 10])
        else:
            count = rng.randint(0, 4) if name in achieved else rng.randint(5, 11)
        hands[name] = _hand(rng, count, classic and state.setup.jokers > 0)
    return RoundRecord.create(went_out, hands, points, achieved if not classic else ())


def _advance(rng: random.Random, state: GameState, went_out: str, achieved: set[str]) -> GameState:
    while True:  # more of a rank than the decks hold: the engine refuses, deal the hands again
        try:
            return advance(state, _round(rng, state, went_out, achieved))
        except RoundError:
            continue


def _balmoral(rng: random.Random, setup: GameSetup, length: int | None) -> GameState:
    """A ladder game that ends after ``length`` rounds (7 to 12), or ``None``: unfinished."""
    while True:
        state = _ladder(rng, setup, length)
        if (state.finished, len(state.rounds)) == (length is not None, length or len(state.rounds)):
            return state


def _ladder(rng: random.Random, setup: GameSetup, length: int | None) -> GameState:
    state = start(setup)
    names = list(setup.players)
    champion = rng.choice(names)
    finished = length is not None
    rounds = length if length is not None else rng.randint(3, 11)
    # A finished game: the champion makes six contracts on the way, the seventh in the last
    # round. A game in progress: nobody has made more than five yet.
    if finished:
        climbs = set(rng.sample(range(1, rounds), 6)) | {rounds}
    else:
        climbs = set(rng.sample(range(1, rounds + 1), min(5, rounds)))
    for number in range(1, rounds + 1):
        done = {p.name: p.completed for p in state.players}
        last = finished and number == rounds
        others = [n for n in names if n != champion and (done[n] < (6 if finished else 5) or last)]
        achieved = {n for n in others if rng.random() < 0.35}
        if number in climbs:
            achieved.add(champion)
            went_out = rng.choice(sorted(achieved))
        elif others:
            went_out = rng.choice(others)
            achieved.add(went_out)
        else:
            break  # everyone else is one level from the end: try another game
        state = _advance(rng, state, went_out, achieved)
        if state.finished:
            break
    return state


def _classic(rng: random.Random, setup: GameSetup, rounds: int) -> GameState:
    state = start(setup)
    for _ in range(rounds):
        state = _advance(rng, state, rng.choice(setup.players), set())
    return state


def make_game(rng: random.Random, started_at: datetime, finished: bool = True) -> GameFile:
    rules = BALMORAL if rng.random() < 0.6 else CLASSIC
    players = _players(rng)
    dealer_rule = rng.choice(rules.dealer_rules)
    setup = GameSetup.create(rules, players, first_dealer=rng.choice(players), dealer_rule=dealer_rule)
    if rules is BALMORAL:
        state = _balmoral(rng, setup, rng.randint(7, 12) if finished else None)
    else:
        state = _classic(rng, setup, 7 if finished else rng.randint(2, 6))
    assert state.finished == finished, (state.finished, finished, len(state.rounds))
    records = tuple(r.record for r in state.rounds)
    ended = started_at + timedelta(minutes=rng.randint(5, 9) * len(records)) if finished else None
    return GameFile(setup, records, state, started_at, ended)


def _chunk(args: tuple[int, int, int, int]) -> list[GameFile]:
    """Games ``first`` to ``first + count - 1`` of the history: the same games whoever makes them."""
    seed, first, count, total = args
    rng = random.Random(seed * 1_000_003 + first)
    days = total // 3 + 1
    games = []
    for i in range(first, first + count):
        # About three games an evening, the last one a little before NOW.
        evening = NOW - timedelta(days=days - i // 3)
        when = evening.replace(hour=18) + timedelta(minutes=100 * (i % 3) + rng.randint(0, 40))
        games.append(make_game(rng, when))
    return games


def history(games: int, in_progress: int, seed: int = 2026, processes: int = 1) -> Iterator[list[GameFile]]:
    """``games`` finished games spread over the past, then ``in_progress`` games being played
    now, in batches of :data:`BATCH`; ``processes`` make them in parallel."""
    jobs = [(seed, first, min(BATCH, games - first), games) for first in range(0, games, BATCH)]
    if processes > 1 and len(jobs) > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(processes) as pool:
            yield from pool.imap(_chunk, jobs)
    else:
        yield from map(_chunk, jobs)
    rng = random.Random(seed)
    yield [make_game(rng, NOW + timedelta(minutes=i), finished=False) for i in range(in_progress)]


def seed(games: int, in_progress: int, seed: int = 2026, processes: int = 1) -> list[int]:
    """Store the history through :func:`store.import_games`, a transaction per batch."""
    ids: list[int] = []
    for batch in history(games, in_progress, seed, processes):
        if batch:
            ids += store.import_games(batch)
    return ids
