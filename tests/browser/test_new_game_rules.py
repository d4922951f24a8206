"""Choosing the rules on the new-game page at a phone: what follows the rules changes in place."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect



def test_choosing_phase10_brings_its_player_range_and_no_jokers(page: Page, server, artifacts):
    page.goto(f"{server}/games/new")
    page.wait_for_load_state("load")  # htmx binds the rules radios at load
    for i, name in enumerate(["Ann", "Ben", "Cat"]):
        page.locator(f"#seat-{i}").fill(name)
    range_line = page.locator("#rule-range")
    expect(range_line).to_contain_text("Balmoral Rummy is for 2 to 8 players")
    expect(page.get_by_role("textbox", name="Jokers")).to_have_count(0)

    page.get_by_label(re.compile("Shanghai Rummy")).check()
    expect(range_line).to_contain_text("Shanghai Rummy is for 3 to 8 players")
    expect(page.get_by_role("textbox", name="Jokers")).to_be_visible()
    expect(page.get_by_role("textbox", name="Jokers")).to_have_attribute("placeholder", "4")

    page.get_by_label(re.compile("Phase 10")).check()
    expect(range_line).to_contain_text("Phase 10 is for 2 to 6 players")
    expect(page.get_by_role("textbox", name="Jokers")).to_have_count(0)
    expect(page.get_by_role("textbox", name="Decks")).to_have_attribute("placeholder", "1")
    # Only the parts that follow the rules were swapped: the names typed are still there.
    expect(page.locator("#seat-2")).to_have_value("Cat")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(artifacts / "new-game-phase10.png"), full_page=True)

    page.get_by_role("button", name="Start game").tap()
    expect(page.locator("h1")).to_have_text("Round 1")
    expect(page.locator("table.standings")).to_contain_text("Phase 1: 2 sets of 3")
    expect(page.locator(".deal-info")).to_contain_text("10 cards each")
    rules = page.locator("details.rules-line")
    expect(rules).to_contain_text("Rules: Phase 10")
    rules.locator("summary").tap()
    expect(rules).to_contain_text("ladder of ten contracts")
    page.screenshot(path=str(artifacts / "board-phase10.png"), full_page=True)


# Every choice of the page, and the Start button: at no scroll position may the button lie over
# a choice (a rule set hidden under it is one a table never sees).
COVERED = """() => {
  const start = document.querySelector('button[name=start]').getBoundingClientRect();
  const inView = r => r.bottom > 0 && r.top < innerHeight && r.height > 0;
  if (!inView(start)) return [];
  const choices = document.querySelectorAll('form.new-game label, form.new-game input, form.new-game button:not([name=start])');
  return [...choices].filter(el => {
    const r = el.getBoundingClientRect();
    return inView(r) && r.top < start.bottom && r.bottom > start.top && r.left < start.right && r.right > start.left;
  }).map(el => el.textContent.trim().slice(0, 40) || el.name);
}"""


def test_the_start_button_never_covers_a_rule_set_or_a_seat(page: Page, server, artifacts):
    page.goto(f"{server}/games/new")
    page.wait_for_load_state("load")
    for i, name in enumerate(["Ann", "Ben", "Cat", "Dan"]):
        page.locator(f"#seat-{i}").fill(name)
    page.evaluate("window.scrollTo(0, 0)")
    bottom = page.evaluate("document.documentElement.scrollHeight - innerHeight")
    for y in range(0, bottom + 60, 60):
        page.evaluate(f"window.scrollTo(0, {y})")
        assert page.evaluate(COVERED) == [], f"covered at scroll {y}"
    # The last rule set in the list shows whole above the fold's edge when scrolled to it.
    last = page.locator("label.choice").filter(has_text="Phase 10")
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport(ratio=1)
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    expect(page.get_by_role("button", name="Start game")).to_be_in_viewport(ratio=1)
    page.screenshot(path=str(artifacts / "new-game-bottom.png"))


def test_the_cards_suggested_follow_the_names_typed(page: Page, server):
    page.goto(f"{server}/games/new")
    page.wait_for_load_state("load")  # htmx binds the rules radios at load
    page.get_by_label(re.compile(r"Contract Rummy \(classic\)")).check()
    cards = page.locator("#rule-cards")
    expect(cards).to_contain_text("2 decks, 1 joker")
    for i, name in enumerate(["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]):
        page.locator(f"#seat-{i}").fill(name)
    page.locator("#seat-5").blur()
    # As the game will deal them for six: no "2 decks, 1 joker" left over from the roster's chips.
    expect(cards).to_contain_text("Suggested for 6 players: 3 decks, 2 jokers")
    expect(page.get_by_role("textbox", name="Decks")).to_have_attribute("placeholder", "3")
    expect(page.locator("#rule-range")).to_contain_text("is for 3 to 8 players")
    expect(page.locator("#seat-5")).to_have_value("Fay")
    expect(page.locator("#seat-6")).to_be_visible()  # the seat that appeared for a seventh stays


def test_the_first_seats_are_on_the_first_screen(page: Page, server):
    page.goto(f"{server}/games/new")
    height = page.viewport_size["height"]
    for i in range(2):
        box = page.locator(f"#seat-{i}").bounding_box()
        assert box["y"] + box["height"] <= height, f"seat {i + 1} is below the first screen"


def test_start_stays_where_it_was_while_the_names_are_typed(page: Page, server):
    # Each name typed is sent when the next is begun, and what comes back goes above Start: a
    # line that came and went with it ("you have 1") moved Start under a thumb reaching for it.
    page.goto(f"{server}/games/new")
    page.wait_for_load_state("load")
    start = page.get_by_role("button", name="Start game")
    where = start.bounding_box()["y"]
    for i, name in enumerate(["Ann", "Ben", "Cat"]):
        page.locator(f"#seat-{i}").fill(name)
        page.locator(f"#seat-{i + 1}").focus()  # the name is sent, as the next one is begun
        expect(page.locator(".htmx-request")).to_have_count(0)
        assert start.bounding_box()["y"] == where, f"Start moved after {name}"
    start.tap()
    expect(page.locator("h1")).to_have_text("Round 1")


def test_too_few_players_is_said_beside_start_once_it_is_tapped(page: Page, server):
    page.goto(f"{server}/games/new")
    page.wait_for_load_state("load")
    page.locator("#seat-0").fill("Ann")
    page.locator("#seat-1").focus()
    expect(page.locator(".htmx-request")).to_have_count(0)
    expect(page.locator("#rule-range .warn")).to_have_count(0)  # not while the names are typed
    page.get_by_role("button", name="Start game").tap()
    # Where the thumb is, not only with the names at the top of a long page.
    beside = page.locator("#rule-range .warn")
    expect(beside).to_have_text("Balmoral Rummy takes 2 to 8 players; you have 1.")
    expect(beside).to_be_in_viewport()
    expect(page.locator("#players-err")).to_contain_text("not 1")
    page.locator("#seat-1").fill("Ben")
    page.get_by_role("button", name="Start game").tap()
    expect(page.locator("h1")).to_have_text("Round 1")
