"""What a new table trips on at 390x844: a long hand on the row and in the keypad's line, a wide
rounds table, bonus toggles and the docked keypad, errors beside every player they concern and
gone once they no longer hold, and a second tap after Undo."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scorekeeper import store
from scorekeeper.rules import GameSetup, RoundRecord, get_preset, get_rules

from .test_round_screen import keep_score, seeded
from .test_table import pick, row, start_game, tap_cards, type_cards

#: Screenshots of the screens tested, beside the other browser artifacts.
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"
NINE = "K Q J 10 9 8 7 6 5"


def inside(inner: dict, outer: dict) -> bool:
    return (inner["x"] >= outer["x"] - 0.5 and inner["y"] >= outer["y"] - 0.5
            and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 0.5
            and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 0.5)


def test_every_card_of_a_nine_card_hand_shows_on_the_row_and_in_the_line(page: Page, server):
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat", "Dev"])
    page.get_by_role("link", name="Record round 1").tap()
    tap_cards(page, "Ben", NINE)
    chips = row(page, "Ben").locator("[data-chips] .chip")
    expect(chips).to_have_text(NINE.split())
    cards = row(page, "Ben").locator("[data-chips]").bounding_box()
    screen = {"x": 0, "y": 0, "width": 390, "height": 844}
    for i in range(chips.count()):
        box = chips.nth(i).bounding_box()
        assert inside(box, cards) and inside(box, screen), f"chip {i + 1} of the row is cut off"
    # The keypad's line shows the card just tapped, and every other one is a swipe away.
    line = page.locator("[data-hand]")
    dock_chips = line.locator(".chip")
    expect(dock_chips).to_have_text(NINE.split())
    assert inside(dock_chips.last.bounding_box(), line.bounding_box()), "the card just tapped is out of sight"
    page.get_by_role("button", name="Add 4 to Ben", exact=True).tap()
    expect(dock_chips).to_have_count(10)
    assert inside(dock_chips.last.bounding_box(), line.bounding_box())
    for i in range(10):
        dock_chips.nth(i).scroll_into_view_if_needed()
        assert inside(dock_chips.nth(i).bounding_box(), {**line.bounding_box(), "x": 0, "width": 390})


def test_six_players_rounds_table_reads_whole_at_390_px(page: Page, server, live_app):
    names = ["Annabel", "Benedict", "Catriona", "Devon", "Evelyn", "Fitzgerald"]
    rounds = [RoundRecord(names[n], points={p: 9 * (i + 3) for i, p in enumerate(names) if p != names[n]})
              for n in range(4)]
    game_id, key = seeded(live_app, "balmoral", names, rounds)
    keep_score(page, server, game_id, key)
    page.goto(f"{server}/games/{game_id}")
    table = page.locator("table.round-table")
    table.scroll_into_view_if_needed()
    cells = table.locator("tfoot td")
    expect(cells).to_have_count(6)
    width = page.evaluate("document.documentElement.clientWidth")
    for i in range(6):
        box = cells.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"{names[i]}'s total is cut off"
        assert cells.nth(i).evaluate("c => c.scrollWidth <= c.clientWidth")
    for i in range(6):
        head = table.locator("thead th").nth(i + 2)
        assert head.bounding_box()["x"] + head.bounding_box()["width"] <= width
    page.screenshot(path=str(SHOTS / "rounds-table-6.png"))


def test_eight_players_rounds_table_keeps_the_round_number_in_sight(page: Page, server, live_app):
    names = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay", "Gus", "Hal"]
    rounds = [RoundRecord(names[n], points={p: 9 * (i + 3) for i, p in enumerate(names) if p != names[n]})
              for n in range(3)]
    game_id, key = seeded(live_app, "balmoral", names, rounds)
    keep_score(page, server, game_id, key)
    page.goto(f"{server}/games/{game_id}")
    scroller = page.locator(".table-scroll")
    scroller.scroll_into_view_if_needed()
    scroller.evaluate("s => { s.scrollLeft = s.scrollWidth; }")
    width = page.evaluate("document.documentElement.clientWidth")
    last = page.locator("table.round-table tfoot td").last
    box = last.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    number = page.locator("table.round-table tbody th").first
    assert number.bounding_box()["x"] >= 0  # the round's number stays at the left while it scrolls


def test_four_players_with_two_bonuses_fit_one_screen_above_the_keypad(page: Page, server, live_app):
    with live_app.app_context():
        game, key = store.create_game(GameSetup.create(get_preset("shanghai"), ["Ann", "Ben", "Cat", "Dev"]))
        game_id = game.id
    keep_score(page, server, game_id, key)
    page.get_by_role("link", name="Record deal 1").tap()
    expect(page.get_by_role("heading", name="Record deal 1")).to_be_visible()
    dock = page.locator(".dock").bounding_box()
    rows = page.locator(".player[data-seat]")
    expect(rows).to_have_count(4)
    for i in range(4):
        box = rows.nth(i).bounding_box()
        assert box["y"] + box["height"] <= dock["y"], f"row {i + 1} is under the keypad"
        expect(rows.nth(i).locator(".bonus-toggle")).to_have_count(2)
    assert page.evaluate("document.querySelector('main').scrollHeight <= document.querySelector('main').clientHeight")
    row(page, "Ann").locator(".bonus-toggle").first.tap()
    expect(row(page, "Ann").locator("input[name=bonus-0]").first).to_be_checked()
    page.screenshot(path=str(SHOTS / "round-bonuses.png"))


@pytest.mark.parametrize("rules", ["liverpool", "shanghai"])
def test_six_players_with_bonuses_each_reach_above_the_keypad(page: Page, server, live_app, rules):
    names = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay"]
    with live_app.app_context():
        game, key = store.create_game(GameSetup.create(get_preset(rules), names))
        game_id = game.id
    keep_score(page, server, game_id, key)
    page.get_by_role("link", name="Record deal 1").tap()
    expect(page.get_by_role("heading", name="Record deal 1")).to_be_visible()
    rows = page.locator(".player[data-seat]")
    expect(rows).to_have_count(6)
    # The list scrolls where it must: scrolled to its end, the last player is above the keypad.
    page.locator("main").evaluate("m => { m.scrollTop = m.scrollHeight; }")
    dock = page.locator(".dock").bounding_box()
    last = rows.nth(5).bounding_box()
    assert last["y"] + last["height"] <= dock["y"], "Fay's row stays under the keypad"
    page.locator("main").evaluate("m => { m.scrollTop = 0; }")
    # As the keypad moves on from player to player, the one it types for is in sight above it.
    for i in range(6):
        expect(page.locator("[data-who]")).to_have_text(names[i])
        box = rows.nth(i).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= dock["y"], f"{names[i]}'s row is under the keypad"
        if i < 5:
            page.get_by_role("button", name=f"{names[i]} has no cards left").tap()
    page.screenshot(path=str(SHOTS / f"round-bonuses-6-{rules}.png"))


def test_too_many_jokers_is_said_on_every_row_holding_one(page: Page, server, live_app):
    names = ["Ann", "Ben", "Cat", "Dev"]
    with live_app.app_context():
        setup = GameSetup.create(get_rules("classic"), names)
        game, key = store.create_game(setup)
        game_id = game.id
    keep_score(page, server, game_id, key)
    page.get_by_role("link", name="Record deal 1").tap()
    row(page, "Ann").locator(".out-toggle").tap()
    # Three players hold jokers, two more between them than the game has.
    for name, count in {"Ben": 1, "Cat": 1, "Dev": setup.jokers}.items():
        tap_cards(page, name, " ".join(["JK"] * count))
    page.get_by_role("button", name="Save deal 1").tap()
    for seat in (1, 2, 3):
        expect(page.locator(f"#err-{seat}")).to_contain_text(f"{setup.jokers} joker")


def test_an_error_goes_once_its_cause_is_taken_off(page: Page, server):
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat"])
    page.get_by_role("link", name="Record round 1").tap()
    row(page, "Ann").locator(".out-toggle").tap()
    type_cards(page, "Ben", "1 K")
    # A typed chip that is no card is marked at once, before saving.
    bad = row(page, "Ben").locator("[data-chips] .chip").first
    expect(bad).to_have_class("chip bad")
    expect(row(page, "Ben").locator(".seat-errors")).to_contain_text('"1" is not a card')
    tap_cards(page, "Cat", "7")
    page.get_by_role("button", name="Save round 1").tap()
    # The phone marked the chip already; wait for the server's refusal before mending it (a
    # hand mended while its round is still on its way is sent again as mended, and saved).
    expect(page.locator(".outbox-note")).to_have_count(0)
    error = row(page, "Ben").locator(".seat-errors")
    expect(error).to_contain_text('"1" is not a card')
    expect(error).not_to_contain_text("joker")  # Balmoral plays without jokers
    pick(page, "Ben")
    page.get_by_role("button", name="Remove 1 from Ben's hand").tap()
    expect(row(page, "Ben").locator(".seat-errors")).to_have_count(0)
    expect(row(page, "Ben")).not_to_have_class("has-error")
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("p.flash")).to_contain_text("Round 1 saved.")


def test_a_second_tap_after_undo_lands_on_nothing_that_acts(page: Page, server, live_app):
    names = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay"]
    rounds = [RoundRecord(names[n % 6], points={p: 10 for p in names if p != names[n % 6]}) for n in range(6)]
    game_id, key = seeded(live_app, "balmoral", names, rounds)
    keep_score(page, server, game_id, key)
    page.goto(f"{server}/games/{game_id}")
    undo = page.get_by_role("button", name="Undo round 6")
    undo.scroll_into_view_if_needed()
    box = undo.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    undo.tap()
    expect(page.locator("[data-undo]")).to_contain_text("Round 6 removed.")
    under = page.evaluate(
        "([x, y]) => { const e = document.elementFromPoint(x, y); const a = e && e.closest('a, button');"
        " return a ? a.textContent.trim() : ''; }", [x, y])
    assert under == "" or under.startswith(("Restore", "Keep it removed")), f"a second tap would hit {under!r}"
    page.get_by_role("button", name="Restore round 6").tap()
    # Said where the person is looking, not only at the top of the page they scrolled down.
    page.wait_for_function(
        "() => [...document.querySelectorAll('p.flash')].some(p => { const b = p.getBoundingClientRect();"
        " return p.textContent.includes('Round 6 restored.') && b.height > 0 && b.top >= 0"
        " && b.bottom <= innerHeight; })", timeout=15_000)
