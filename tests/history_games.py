"""Games for the history tests: four worked out by hand (the figures in the comments), and made-up
but lawful ones (random hands, checked by the engine)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from scorekeeper.files.gamefile import game_document
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


# =============================================================== games worked out by hand

ANN_BEN_CAT = ["Ann", "Ben", "Cat"]


def game(rules, players, rounds, started, first_dealer=None, **extra):
    doc = {
        "format": "scorekeeper-game/1",
        "rules": rules,
        "players": players,
        "first_dealer": first_dealer or players[0],
        "started_at": started,
        "rounds": rounds,
    }
    doc.update(extra)
    return doc


def out(went_out, hands=None, achieved=(), points=None):
    r = {"went_out": went_out, "hands": hands or {}}
    if achieved:
        r["achieved"] = list(achieved)
    if points:
        r["points"] = points
    return r


def classic_doc(players, went_out_first: str, started: str, finished: str) -> dict:
    """A classic game: in deal 1 ``went_out_first`` goes out and the two others hold K K K and 2;
    every later deal the first player goes out and the others hold a 2."""
    first, *others = players
    rest = [p for p in players if p != went_out_first]
    deal1 = out(went_out_first, {rest[0]: "K K K", rest[1]: "2"})
    later = [out(first, {p: "2" for p in others}) for _ in range(6)]
    return game("classic", players, [deal1, *later], started, finished_at=finished)


# Game 1, Balmoral, finished. Ben goes out every round and climbs a level each time.
#   R1: Ann A K = 25, Cat 5 = 5; Cat makes level 1 too.    Levels made: Ann 0, Ben 1, Cat 1
#   R2: Ann 2, Cat 10; Ann makes level 1.                     Ann 1, Ben 2, Cat 1
#   R3..R7: Ann and Cat hold 3, 4, 5, 6, 7; only Ben climbs.  Ben reaches 7: game over.
#   Totals: Ann 25+2+3+4+5+6+7 = 52, Ben 0, Cat 5+10+3+4+5+6+7 = 40. Ben wins.
#   Ann: level 1 took 2 rounds; level 2 for 5 rounds when the game ended.
#   Cat: level 1 took 1 round; level 2 for 6 rounds when the game ended.
G1 = game("balmoral", ANN_BEN_CAT, [
    out("Ben", {"Ann": "A K", "Cat": "5"}, ["Cat"]),
    out("Ben", {"Ann": "2", "Cat": "10"}, ["Ann"]),
    *[out("Ben", {"Ann": str(n), "Cat": str(n)}) for n in range(3, 8)],
], "2026-01-01T19:00:00Z", finished_at="2026-01-01T20:10:00Z")

# Game 2, Balmoral, in progress. R1: Ann out, Ben K = 10. R2: Ben out (makes level 1), Ann 2 2 = 4.
#   Totals Ann 4, Ben 10. Ann made level 1 in 1 round; Ben made level 1 in 2 rounds.
G2 = game("balmoral", ["Ann", "Ben"], [
    out("Ann", {"Ben": "K"}),
    out("Ben", {"Ann": "2 2"}),
], "2026-01-08T19:00:00Z")

# Game 3, classic, Ann wins.
#   D1 Ann out: Ben A 15, Cat 2.  D2 Cat out: Ann K 10, Ben 3.  D3 Ann out: Ben 2, Cat counted 20.
#   D4 Ben out: Ann 5, Cat 5.     D5 Ann out: Ben 10, Cat 4.   D6 Ann out: Ben 6, Cat 6.
#   D7 Cat out: Ann 7, Ben Q 10.
#   Totals: Ann 10+5+7 = 22, Ben 15+3+2+10+6+10 = 46, Cat 2+20+5+4+6 = 37. Ann went out 4 times.
G3 = game("classic", ANN_BEN_CAT, [
    out("Ann", {"Ben": "A", "Cat": "2"}),
    out("Cat", {"Ann": "K", "Ben": "3"}),
    out("Ann", {"Ben": "2"}, points={"Cat": 20}),
    out("Ben", {"Ann": "5", "Cat": "5"}),
    out("Ann", {"Ben": "10", "Cat": "4"}),
    out("Ann", {"Ben": "6", "Cat": "6"}),
    out("Cat", {"Ann": "7", "Ben": "Q"}),
], "2026-02-01T19:00:00Z")

# Game 4, classic, Ann and Cat share the win on 5 each; Ben 20+10+2+2+2+2 = 38.
#   Ann went out in D2, D4, D6 (3 times).
G4 = game("classic", ANN_BEN_CAT, [
    out("Ben", {"Ann": "5", "Cat": "5"}),
    out("Ann", {"Ben": "K K", "Cat": ""}),
    out("Cat", {"Ann": "", "Ben": "K"}),
    out("Ann", {"Ben": "2", "Cat": ""}),
    out("Cat", {"Ann": "", "Ben": "2"}),
    out("Ann", {"Ben": "2", "Cat": ""}),
    out("Cat", {"Ann": "", "Ben": "2"}),
], "2026-03-01T19:00:00Z")
