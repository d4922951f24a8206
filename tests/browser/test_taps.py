"""Taps per round: how many touches a scorekeeper needs to record an ordinary round.

Two rounds of four players, one goes out and the three others hold five cards each, then
eight each. The goal is at most the cards plus one tap per player plus two, with
no scrolling. Every tap this test makes on the way is counted, from the scoreboard back to the
scoreboard, the way a person records the round: open the round screen, tap who went out
(which also moves the keypad to the next player), tap the cards, tap the next player's row,
save. The figures go to test-artifacts/taps.json, which `make bench` prints.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from playwright.sync_api import Locator, Page, expect

from .test_table import row, start_game, totals

PLAYERS = ["Ann", "Ben", "Cat", "Dev"]
FIVE = "K Q 7 5 3"  # 35 points
EIGHT = "K Q J 10 9 7 5 3"  # 64 points


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


def record_counted(page: Page, hand: str, penalty: int) -> dict:
    """Record one round (Ann out, the others holding ``hand``), counting every tap."""
    taps = Taps()
    scrolled = []
    taps.tap("open the round screen", page.get_by_role("link", name=re.compile(r"Record round")))
    expect(page.get_by_role("heading", name=re.compile("Record round"))).to_be_visible()
    taps.tap("who went out", row(page, "Ann").locator(".out-toggle"))
    holding = [name for name in PLAYERS if name != "Ann"]
    for name in holding:
        if page.locator("[data-who]").inner_text() != name:
            taps.tap("next player", row(page, name).locator(".pick"))
        for rank in hand.split():
            taps.tap("cards", page.get_by_role("button", name=f"Add {rank} to {name}", exact=True))
        # What the keypad shows before saving: the hand and its penalty, no server round trip.
        expect(page.locator(f"#pen-{PLAYERS.index(name)}")).to_have_text(str(penalty))
        scrolled.append(page.evaluate("window.scrollY"))
    assert page.evaluate("document.documentElement.scrollHeight") <= 844
    taps.tap("save", page.get_by_role("button", name=re.compile(r"Save round")))
    expect(page.locator(".flash")).to_contain_text("saved")
    cards = len(holding) * len(hand.split())
    goal = cards + len(PLAYERS) + 2
    return {
        "taps": taps.total,
        "cards": cards,
        "players": len(PLAYERS),
        "goal": goal,
        "scrolls": sum(1 for y in scrolled if y),
        "breakdown": dict(taps.counts),
        "round": {"went_out": "Ann", "hands": {name: hand for name in holding}},
    }


def test_rounds_of_five_and_of_eight_cards_take_fewer_taps_than_the_goal(page: Page, server, artifacts):
    start_game(page, server, "balmoral", PLAYERS)
    five = record_counted(page, FIVE, 35)
    assert totals(page) == {"Ann": 0, "Ben": 35, "Cat": 35, "Dev": 35}
    eight = record_counted(page, EIGHT, 64)
    assert totals(page) == {"Ann": 0, "Ben": 99, "Cat": 99, "Dev": 99}
    # The five-card round's figures stay at the top level, where `make bench` reads them.
    figures = {**five, "rounds": {"five cards": five, "eight cards": eight}}
    (artifacts / "taps.json").write_text(json.dumps(figures, indent=2) + "\n")
    for label, counted in (("five cards", five), ("eight cards", eight)):
        print(f"taps for a four-player round with three hands of {label}: {counted['taps']} "
              f"(goal {counted['goal']}; {counted['breakdown']})")
        assert counted["taps"] <= counted["goal"], counted
        assert counted["scrolls"] == 0, counted
