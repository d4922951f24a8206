"""The round screen follows the game's rule set, on a phone: a Phase 10
game's keypad (1 to 12, Skip, Wild, each key's value where it is not its face) types chips and
totals from the game's values, and a Liverpool game's bonus is a toggle in each player's row
whose points the row's total and the saved round include."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper import store
from scorekeeper.rules import GameSetup, get_preset

from .test_round_screen import keep_score
from .test_signal import controlled_by_the_service_worker, phone_totals, rounds_stored
from .test_table import mark_out, pick, row, totals, totals_become


def seeded(live_app, preset: str, names: list[str]) -> tuple[int, str]:
    """A new game of a preset (the new-game page does not offer them all yet) and its edit key."""
    with live_app.app_context():
        game, key = store.create_game(GameSetup.create(get_preset(preset), names))
        return game.id, key


def open_round(page: Page, server: str, game_id: int, key: str) -> None:
    keep_score(page, server, game_id, key)
    page.get_by_role("link", name="Record round 1").tap()
    expect(page.get_by_role("heading", name="Record round 1")).to_be_visible()


def tap(page: Page, label: str, name: str) -> None:
    page.get_by_role("button", name=f"Add {label} to {name}", exact=True).tap()


def test_a_phase10_games_keypad_types_skips_wilds_and_twelves(page: Page, server, live_app, artifacts):
    game_id, key = seeded(live_app, "phase10", ["Ann", "Ben", "Cat"])
    open_round(page, server, game_id, key)
    keypad = page.locator("[data-keypad] button[data-rank]")
    expect(keypad).to_have_count(14)
    assert keypad.evaluate_all("keys => keys.map(k => k.getAttribute('data-label'))") == \
        [str(n) for n in range(1, 13)] + ["Skip", "Wild"]
    expect(page.locator("[data-keypad]")).not_to_contain_text("Joker")
    expect(page.locator("button[data-rank='1'] .key-worth")).to_have_text("5")
    expect(page.locator("button[data-rank='W'] .key-worth")).to_have_text("25")
    expect(page.locator("button[data-rank='10'] .key-worth")).to_have_count(0)
    # Fourteen big keys on a 390px phone: none narrower or lower than a thumb, none off screen.
    for box in keypad.evaluate_all("keys => keys.map(k => k.getBoundingClientRect().toJSON())"):
        assert box["width"] >= 44 and box["height"] >= 44 and box["right"] <= 390, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    mark_out(page, "Ann")
    pick(page, "Ben")
    for label in ("Skip", "Wild", "12"):
        tap(page, label, "Ben")
    expect(row(page, "Ben").locator(".cards .chip")).to_have_text(["Skip", "Wild", "12"])
    expect(page.locator("[data-hand] .chip")).to_have_text(["Skip", "Wild", "12"])
    expect(row(page, "Ben").locator(".penalty")).to_have_text("50")
    pick(page, "Cat")
    tap(page, "1", "Cat")
    tap(page, "11", "Cat")
    expect(row(page, "Cat").locator(".penalty")).to_have_text("15")
    page.screenshot(path=str(artifacts / "round-screen-phase10.png"))
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("p.flash")).to_contain_text("Round 1 saved.")
    assert totals(page) == {"Ann": 0, "Ben": 50, "Cat": 15}


def test_a_liverpool_bonus_is_toggled_for_one_player_and_counted(page: Page, server, live_app, artifacts):
    game_id, key = seeded(live_app, "liverpool", ["Ann", "Ben", "Cat"])
    keep_score(page, server, game_id, key)
    page.get_by_role("link", name="Record deal 1").tap()
    expect(page.get_by_role("heading", name="Record deal 1")).to_be_visible()
    expect(page.locator("button[data-rank='A'] .key-worth")).to_have_text("15")
    expect(page.locator("button[data-rank='JK']")).to_have_count(1)
    mark_out(page, "Ann")
    pick(page, "Ben")
    tap(page, "A", "Ben")
    tap(page, "7", "Ben")
    expect(row(page, "Ben").locator(".penalty")).to_have_text("22")
    toggle = row(page, "Ben").locator(".bonus-toggle")
    expect(toggle).to_have_text("Perfect cut \u221250")
    box = toggle.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    toggle.tap()
    expect(row(page, "Ben").locator("input[name=bonus-1]")).to_be_checked()
    expect(row(page, "Ben").locator(".penalty")).to_have_text("-28")
    expect(row(page, "Cat").locator("input[name=bonus-2]")).not_to_be_checked()
    pick(page, "Cat")
    tap(page, "K", "Cat")
    expect(row(page, "Cat").locator(".penalty")).to_have_text("10")
    page.screenshot(path=str(artifacts / "round-screen-bonus.png"))
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("p.flash")).to_contain_text("Deal 1 saved.")
    assert totals(page) == {"Ann": 0, "Ben": -28, "Cat": 10}
    # The correction screen shows the bonus as it was recorded.
    page.goto(f"{server}/games/{game_id}/rounds/1/edit")
    expect(row(page, "Ben").locator("input[name=bonus-1]")).to_be_checked()
    expect(row(page, "Ben").locator(".penalty")).to_have_text("-28")


@pytest.mark.secure
@pytest.mark.offline
def test_a_bonus_saved_without_signal_waits_and_is_sent_with_the_round(page: Page, server, context, live_app):
    game_id, key = seeded(live_app, "liverpool", ["Ann", "Ben", "Cat"])
    keep_score(page, server, game_id, key)
    board = page.url
    controlled_by_the_service_worker(page)
    page.wait_for_function("() => !!localStorage.getItem('scorekeeper-form')")
    page.get_by_role("link", name="Record deal 1").tap()
    mark_out(page, "Ann")
    pick(page, "Ben")
    tap(page, "K", "Ben")
    pick(page, "Cat")
    tap(page, "A", "Cat")
    row(page, "Ann").locator(".bonus-toggle").tap()
    expect(row(page, "Ann").locator(".penalty")).to_have_text("-50")
    context.set_offline(True)
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator(".outbox-note")).to_contain_text("Deal 1: waiting to send")
    page.goto(board)  # the kept scoreboard works the waiting round out on the phone, bonus and all
    expect(page.locator(".phone-figures")).to_contain_text("after deal 1")
    assert phone_totals(page) == {"Ann": -50, "Ben": 10, "Cat": 15}
    assert rounds_stored(live_app) == 0
    context.set_offline(False)
    # Sent: the phone's figures give way to the server's board (its heading said "Deal 2" already
    # while the round waited).
    expect(page.locator(".outbox-note")).to_have_count(0, timeout=30_000)
    totals_become(page, {"Ann": -50, "Ben": 10, "Cat": 15})
    expect(page.locator(".phone-figures")).to_have_count(0)
    expect(page.locator("h1")).to_contain_text("Deal 2")
