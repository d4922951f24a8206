"""The phone's replay (static/js/offline-replay.js) agrees with the server's engine.

Random games of both rule sets, every dealer rule and a mix of cards and points, are worked out
by scorekeeper.rules.replay and by the JavaScript in the page, from the start and from a state
part-way through (as a phone that lost its signal mid-game does); totals, levels, the next
round's number, dealer, first player, contracts, cards dealt and what would end it, and the end
of the game must be the same after every round.
"""

import random

import pytest
from playwright.sync_api import Page

from scorekeeper.web.presenters import game_data
from scorekeeper.rules import (
    BALMORAL,
    CLASSIC,
    LIVERPOOL,
    PHASE10,
    GameSetup,
    Hand,
    Progression,
    RoundRecord,
    advance,
    replay,
    round_table,
    start,
)

NAMES = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay", "Gus", "Hal"]


def random_game(rng: random.Random, max_rounds: int = 14, choices=(BALMORAL, CLASSIC)):
    """Like tests/rules/test_rules.py's games() strategy, drawn from a seeded generator; a rule set
    with bonuses gives some now and then."""
    rules = rng.choice(list(choices))
    players = NAMES[: rng.randint(rules.min_players, rules.max_players)]
    setup = GameSetup.create(rules, players, first_dealer=rng.choice(players),
                             dealer_rule=rng.choice(rules.dealer_rules))
    state, records = start(setup), []
    # A joker or two would soon be too many; so would a skip (4 to a Phase 10 deck).
    ranks = [r for r in rules.ranks if r.value not in ("JK", "S")]
    while len(records) < rng.randint(1, max_rounds) and not state.finished:
        went_out = rng.choice(players)
        hands, points = {}, {}
        for p in players:
            if p == went_out:
                continue
            if rng.random() < 0.6:
                hands[p] = Hand.of(rng.choices(ranks, k=rng.randint(0, 3)))
            else:
                # (2 is no total in Phase 10, where the lowest card scores 5.)
                points[p] = rng.choice([0, 2 if rules.lowest_value == 2 else 5, 10, 37, 100])
        ladder = rules.progression is Progression.LADDER
        achieved = rng.sample(players, rng.randint(0, min(3, len(players)))) if ladder else []
        bonuses = {p: frozenset(b.key for b in rules.bonuses if rng.random() < 0.3) for p in players} if rules.bonuses else {}
        record = RoundRecord(went_out, hands, points, frozenset(achieved), {p: k for p, k in bonuses.items() if k})
        state = advance(state, record)
        records.append(record)
    return setup, records


def as_json(record: RoundRecord) -> dict:
    return {
        "went_out": record.went_out,
        "hands": {name: [r.value for r in hand.ranks] for name, hand in record.hands.items()},
        "points": dict(record.points),
        "achieved": sorted(record.achieved),
        "bonuses": {name: sorted(keys) for name, keys in record.bonuses.items()},
    }


def server_view(state) -> dict:
    nxt = state.next
    return {
        "totals": [p.total for p in state.players],
        "completed": [p.completed for p in state.players],
        "next": None if nxt is None else round_table(nxt),
    }


PHONE = """async ([game, rounds]) => {
  const replay = await import("/static/js/offline-replay.js");
  let state = replay.start(game);
  return rounds.map((r) => {
    state = replay.advance(game, state, r);
    return {totals: state.totals, completed: state.completed, next: state.next};
  });
}"""


def phone_agrees(page: Page, rng: random.Random, setup, records):
    """The signal drops after a random number of rounds: the phone works out the rest from the
    page's data, and after each round its figures are the server's. The game's last state and
    the rounds the phone worked out."""
    split = rng.randint(0, len(records) - 1)
    state = replay(setup, records[:split])
    phone = page.evaluate(PHONE, [game_data(state), [as_json(r) for r in records[split:]]])
    for record, figures in zip(records[split:], phone, strict=True):
        state = advance(state, record)
        assert figures == server_view(state), (setup, records)
    return state, records[split:]


@pytest.mark.parametrize("seed", range(4))
def test_the_phone_works_out_rounds_as_the_server_does(server, page: Page, seed):
    page.goto(server + "/")
    page.wait_for_load_state("load")
    rng = random.Random(seed)
    checked = {"balmoral": 0, "classic": 0, "ended": 0}
    for _ in range(40):
        setup, records = random_game(rng)
        state, _ = phone_agrees(page, rng, setup, records)
        checked[setup.rules.key] += 1
        checked["ended"] += state.finished
    assert checked["balmoral"] and checked["classic"] and checked["ended"]


@pytest.mark.parametrize("seed", range(2))
def test_the_phone_works_out_bonuses_and_the_phase10_deck_as_the_server_does(server, page: Page, seed):
    page.goto(server + "/")
    page.wait_for_load_state("load")
    rng = random.Random(seed)
    checked = {"liverpool": 0, "phase10": 0, "bonuses": 0}
    for _ in range(30):
        setup, records = random_game(rng, choices=(LIVERPOOL, PHASE10))
        _, worked_out = phone_agrees(page, rng, setup, records)
        checked["bonuses"] += any(record.bonuses for record in worked_out)
        checked[setup.rules.key] += 1
    assert checked["liverpool"] and checked["phase10"] and checked["bonuses"]


def test_the_page_gives_the_phone_the_rule_set_as_data():
    data = game_data(start(GameSetup.create(CLASSIC, ["Ann", "Ben", "Cat"], first_dealer="Ben")))
    deal = data["stages"][0]
    assert deal["values"]["JK"] == 15 and deal["values"]["7"] == 7 and data["bonuses"] == {} and data["went_out"] == 0
    assert [s["last"] for s in data["stages"]] == [False] * 6 + [True]
    assert not data["ladder"] and data["dealer"] == "next_seat" and data["places_by"] == ["total"]
    assert data["state"] == {"totals": [0, 0, 0], "completed": [None, None, None],
                             "next": {"number": 1, "dealer": "Ben", "first_player": "Cat", "stages": [1, 1, 1],
                                      "cards_dealt": 10, "is_last": False, "finishers": []}}
