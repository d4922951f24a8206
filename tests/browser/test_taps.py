"""Taps per round: how many touches a scorekeeper needs to record an ordinary round.

The round: four players, one goes out, the three others hold five cards each. The goal
(issue 7) is the cards plus one tap per player plus two: 15 + 4 + 2 = 21. Every tap this
test makes on the way is counted, from the scoreboard back to the scoreboard; the figure
goes to test-artifacts/taps.json, which `make bench` prints.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from playwright.sync_api import Locator, Page, expect

from .test_table import no_internet, start_game, totals  # noqa: F401 (no_internet: autouse fixture)

PLAYERS = ["Ann", "Ben", "Cat", "Dev"]
HAND = "K Q 7 5 3"  # five cards, 35 points


class Taps:
    """Taps a locator, and counts it under a heading."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def tap(self, what: str, locator: Locator) -> None:
        locator.tap()
        self.counts[what] += 1

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def test_a_four_player_round_with_three_hands_of_five_cards(page: Page, server, artifacts):
    start_game(page, server, "balmoral", PLAYERS)
    taps = Taps()

    taps.tap("open the round screen", page.get_by_role("link", name=re.compile(r"Record round")))
    expect(page.get_by_role("heading", name=re.compile("Record round"))).to_be_visible()
    taps.tap("who went out", page.locator("fieldset.went-out label", has_text="Ann"))
    holding = [name for name in PLAYERS if name != "Ann"]
    for name in holding:
        for rank in HAND.split():
            taps.tap("cards", page.get_by_role("button", name=f"Add {rank} to {name}", exact=True))
        # What the keypad shows before saving: the hand and its penalty, no server round trip.
        expect(page.locator(f"#pen-{PLAYERS.index(name)}")).to_have_text("35")
    taps.tap("save", page.get_by_role("button", name=re.compile(r"Save round")))

    expect(page.locator("h1")).to_have_text("Round 2")
    assert totals(page) == {"Ann": 0, "Ben": 35, "Cat": 35, "Dev": 35}

    cards = len(holding) * len(HAND.split())
    goal = cards + len(PLAYERS) + 2
    figures = {
        "taps": taps.total,
        "cards": cards,
        "players": len(PLAYERS),
        "goal": goal,
        "breakdown": dict(taps.counts),
        "round": {"went_out": "Ann", "hands": {name: HAND for name in holding}},
    }
    (artifacts / "taps.json").write_text(json.dumps(figures, indent=2) + "\n")
    assert taps.total <= goal, figures
