"""Games worked out by the engine, for the phone's replay to be checked against on Node.

Each case is a game's data as the page hands it to the phone (:func:`scorekeeper.rules.game_table`,
taken where the phone loses its signal: at the start or part-way through), the rounds the phone
then works out alone (as ``static/js/drafts.js`` hands them over), and after each of them what
the engine says: each seat's score for the round, the totals, the stages completed, the next
round (or None: the game is over) and each seat's place. ``tests/js/offline-replay.test.mjs``
runs the phone's replay over every case; ``tests/js/test_js_cases.py`` fails when the files in
``tests/js/cases/`` are not what this module writes (``make js-cases`` writes them again).

Every preset is played, and house rules unlike any preset (other card values, a dealt hand
limit on a ladder, the winner dealing, one stage only): random lawful games with jokers, bonuses
and points counted by hand, and games written out by hand for what chance seldom gives (a tie
for the win, the last phase, a correction of an earlier round).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from history_games import random_state
from scorekeeper.rules import (
    BALMORAL,
    CLASSIC,
    LIVERPOOL,
    PHASE10,
    PRESET_DOCUMENTS,
    SHANGHAI,
    GameSetup,
    Hand,
    Progression,
    RoundError,
    RoundRecord,
    advance,
    game_table,
    parse_ruleset,
    replay,
    round_table,
    start,
)

FOLDER = Path(__file__).parent / "js" / "cases"
NAMES = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay", "Gus", "Hal"]


def house_rules():
    """House rule sets that score and play unlike every preset."""
    liverpool = dict(PRESET_DOCUMENTS["liverpool"])
    dear = parse_ruleset({**liverpool, "name": "Family Liverpool", "values": {
        **liverpool["values"], "A": 20, "JK": 50}, "bonuses": [{"key": "perfect-cut", "label": "Perfect cut",
                                                                  "points": -50},
                                                                 {"key": "late", "label": "Late to the table",
                                                                  "points": 5}]}, key="house")
    balmoral = dict(PRESET_DOCUMENTS["balmoral"])
    short_ladder = parse_ruleset({**balmoral, "name": "Short ladder", "stages": balmoral["stages"][:3],
                                  "hand_limit": "dealt", "winner": "lowest-finisher",
                                  "dealer_rules": ["rotate", "winner"],
                                  "values": {**balmoral["values"], "K": 13, "Q": 12, "J": 11}}, key="house")
    classic = dict(PRESET_DOCUMENTS["classic"])
    one_deal = parse_ruleset({**classic, "name": "One deal", "stages": classic["stages"][:1],
                              "dealer_rules": ["winner", "rotate"], "values": {**classic["values"], "2": 0}},
                             key="house")
    return [dear, short_ladder, one_deal]


def as_json(record: RoundRecord) -> dict:
    """A round as the phone's drafts hand it to the replay."""
    return {
        "went_out": record.went_out,
        "hands": {name: [r.value for r in hand.ranks] for name, hand in sorted(record.hands.items())},
        "points": dict(sorted(record.points.items())),
        "achieved": sorted(record.achieved),
        "bonuses": {name: sorted(keys) for name, keys in sorted(record.bonuses.items())},
    }


def figures(state, penalties) -> dict:
    """What the phone must show after a round: as the engine works it out."""
    ranks = state.ranks()
    return {
        "penalties": list(penalties),
        "totals": [p.total for p in state.players],
        "completed": [p.completed for p in state.players],
        "next": None if state.next is None else round_table(state.next),
        "places": [ranks[name] for name in state.setup.players],
    }


def case(name: str, setup: GameSetup, records, split: int = 0) -> dict:
    """A game whose phone loses its signal after ``split`` rounds and works out the rest."""
    state = replay(setup, records[:split])
    data = game_table(state)
    after = []
    for record in records[split:]:
        state = advance(state, record)
        after.append(figures(state, state.rounds[-1].penalties))
    return {"name": name, "game": data, "rounds": [as_json(r) for r in records[split:]], "after": after}


def random_round(rng: random.Random, state) -> RoundRecord:
    """A lawful round of ``state`` (the engine refuses what the decks cannot hold: dealt again)."""
    setup = state.setup
    rules, players = setup.rules, setup.players
    ladder = rules.progression is Progression.LADDER
    while True:
        went_out = rng.choice(players)
        hands, points = {}, {}
        for p in players:
            if p == went_out:
                continue
            if rng.random() < 0.75:
                hands[p] = Hand.of(rng.choices(rules.ranks, k=rng.randint(0, 4)))
            else:
                points[p] = rng.choice([0, rules.lowest_value or 0, 10, 37])
        achieved = frozenset(p for p in players if rng.random() < 0.4) if ladder else frozenset()
        bonuses = {p: frozenset(b.key for b in rules.bonuses if rng.random() < 0.2) for p in players}
        record = RoundRecord(went_out, hands, points, achieved, {p: k for p, k in bonuses.items() if k})
        try:
            advance(state, record)
        except RoundError:
            continue
        return record


def random_game(rng: random.Random, rules, name: str) -> dict:
    players = NAMES[: rng.randint(rules.min_players, min(rules.max_players, 6))]
    setup = GameSetup.create(rules, players, first_dealer=rng.choice(players),
                             dealer_rule=rng.choice(rules.dealer_rules))
    state, records = start(setup), []
    while not state.finished and len(records) < 12:
        records.append(random_round(rng, state))
        state = advance(state, records[-1])
    return case(name, setup, records, rng.randint(0, len(records) - 1))


def history_game(rng: random.Random, rules, name: str) -> dict:
    """A game from the history tests' random lawful games (no jokers, some points by hand)."""
    state = random_state(rng, rules=rules, points=0.3)
    records = [r.record for r in state.rounds]
    return case(name, state.setup, records, rng.randint(0, len(records) - 1))


def by_hand() -> list[dict]:
    """Games written out for what random games seldom give."""
    cases = []
    # A tie for the win after the last deal: Ann and Ben 10 each, Cat 25.
    setup = GameSetup.create(CLASSIC, ["Ann", "Ben", "Cat"], first_dealer="Cat")
    deals = [RoundRecord.create("Ann", {"Ben": "5", "Cat": "10"}), RoundRecord.create("Ben", {"Ann": "10", "Cat": "5"})]
    deals += [RoundRecord.create("Cat", points={"Ann": 0, "Ben": 0}) for _ in range(4)]
    deals += [RoundRecord.create("Cat", {"Ann": "", "Ben": "5"})]
    cases.append(case("classic: Ann and Ben share the win after the last deal", setup, deals, 5))
    # Phase 10's last phase: Ben completes it with more points than Ann, and wins.
    setup = GameSetup.create(PHASE10, ["Ann", "Ben", "Cat"])
    phases = [RoundRecord.create("Ben", {"Ann": "1", "Cat": "W W"}, deck=PHASE10.deck) for _ in range(9)]
    phases.append(RoundRecord.create("Cat", {"Ann": "12", "Ben": "W W W S"}, achieved=["Ben"], deck=PHASE10.deck))
    cases.append(case("phase10: Ben completes phase 10 and wins with more points", setup, phases, 8))
    # Shanghai's bonuses take a total below zero.
    setup = GameSetup.create(SHANGHAI, ["Ann", "Ben", "Cat", "Dev"], first_dealer="Dev")
    blind = [RoundRecord.create("Ann", {"Ben": "JK A", "Cat": "2 3", "Dev": ""},
                                bonuses={"Ann": ["blind", "blind-no-joker"], "Dev": "blind"}),
             RoundRecord.create("Ben", {"Ann": "JK JK", "Cat": "K", "Dev": "10"}, bonuses={"Ben": "blind"})]
    cases.append(case("shanghai: bonuses take Ann below zero", setup, blind))
    # A correction: round 2 of a Balmoral game corrected (Cat went out, not Ben), the phone
    # going on from the corrected game.
    setup = GameSetup.create(BALMORAL, ["Ann", "Ben", "Cat"], first_dealer="Ann")
    rounds = [RoundRecord.create("Ben", {"Ann": "A K", "Cat": "5"}, achieved=["Cat"]),
              RoundRecord.create("Ben", {"Ann": "2", "Cat": "10"}, achieved=["Ann"]),
              RoundRecord.create("Ann", {"Ben": "7 7", "Cat": "Q"})]
    corrected = [rounds[0], RoundRecord.create("Cat", {"Ann": "2", "Ben": "10"}, achieved=["Ann"]), rounds[2]]
    cases.append(case("balmoral: round 2 corrected, then played on", setup, corrected + [
        RoundRecord.create("Cat", {"Ann": "3", "Ben": "4"}, achieved=["Ben"])], 3))
    return cases


def cases() -> dict[str, list[dict]]:
    """Every file's cases, by file name."""
    rng = random.Random(50)
    out = {}
    for rules in (BALMORAL, CLASSIC, LIVERPOOL, SHANGHAI, PHASE10):
        games = [random_game(rng, rules, f"{rules.key}: random game {n + 1}") for n in range(6)]
        if rules in (BALMORAL, CLASSIC):
            games += [history_game(rng, rules, f"{rules.key}: history game {n + 1}") for n in range(3)]
        out[f"{rules.key}.json"] = games
    out["house-rules.json"] = [random_game(rng, rules, f"{rules.name}: random game {n + 1}")
                               for rules in house_rules() for n in range(4)]
    out["by-hand.json"] = by_hand()
    return out


def text(games: list[dict]) -> str:
    """A file's text: one case a line, so that a change reads as the cases it changes."""
    return "[\n" + ",\n".join(json.dumps(game, sort_keys=True, ensure_ascii=False) for game in games) + "\n]\n"


def write(folder: Path = FOLDER) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, games in cases().items():
        (folder / name).write_text(text(games), encoding="utf-8")


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER)
