"""Made-up but lawful games for the history tests: random hands, checked by the engine."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from scorekeeper.gamefile import game_document
from scorekeeper.rules import BALMORAL, CLASSIC, GameSetup, RoundError, RoundRecord, advance, start

NAMES = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fin", "Gus", "Hal"]
SMALL = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def random_state(rng: random.Random, rules=None, players=None, rounds: int | None = None, points=0.1):
    """A game of lawful random rounds: ``rounds`` of them, or until the game ends."""
    rules = rules or rng.choice([BALMORAL, CLASSIC])
    if players is None:
        low = max(rules.min_players, 2)
        players = rng.sample(NAMES, rng.randint(low, min(6, len(NAMES))))
    setup = GameSetup.create(rules, players, first_dealer=rng.choice(players))
    state = start(setup)
    made_rate = 0.45
    while not state.finished and (rounds is None or len(state.rounds) < rounds):
        if rounds is not None and rules is BALMORAL:
            # A long game on purpose: the player furthest behind goes out, nobody else climbs.
            lowest = min(state.player(p).completed for p in players)
            went_out = rng.choice([p for p in players if state.player(p).completed == lowest])
        else:
            went_out = rng.choice(players)
        hands, counted = {}, {}
        for p in players:
            if p == went_out:
                continue
            if rng.random() < points:
                counted[p] = rng.choice([0, 2, 5, 17, 40])
            else:
                hands[p] = " ".join(rng.choice(SMALL) for _ in range(rng.randint(0, 4)))
        achieved = [p for p in players if rng.random() < made_rate] if rules is BALMORAL else []
        if rounds is not None:
            achieved = []
        try:
            state = advance(state, RoundRecord.create(went_out, hands, counted, achieved))
        except RoundError:
            continue  # too many of a rank for the decks: deal again
    return state


def random_doc(rng: random.Random, started_at: datetime, **kwargs) -> dict:
    state = random_state(rng, **kwargs)
    finished = started_at + timedelta(minutes=7 * len(state.rounds)) if state.finished else None
    return game_document(state, started_at, finished, with_result=False)


def random_docs(count: int, seed: int = 4, start_at: datetime | None = None, **kwargs) -> list[dict]:
    rng = random.Random(seed)
    when = start_at or datetime(2024, 1, 5, 19, 0, tzinfo=UTC)
    docs = []
    for i in range(count):
        docs.append(random_doc(rng, when + timedelta(days=i, minutes=rng.randint(0, 120)), **kwargs))
    return docs
