"""A table's own rules from start to finish on a phone: the keeper makes a house rule
set from Liverpool (aces 20, an eighth deal of 14 cards, a bonus), starts a game with it,
records a deal with the bonus, changes the house rule set afterwards, and the game is played on
by the rules it was started with."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from .test_rule_sets_round import tap
from .test_table import mark_out, pick, row, totals


def test_a_house_rule_set_made_on_the_phone_plays_a_game_that_keeps_it(page: Page, server, club_link):
    page.goto(club_link)
    expect(page.locator(".flash")).to_contain_text("club\u2019s keeper")

    # The house rule set, from the Liverpool preset.
    page.get_by_role("link", name="House rules").tap()
    page.get_by_role("link", name=re.compile("^Liverpool Rummy")).tap()
    page.get_by_role("link", name="Copy and change").tap()
    page.locator("#name").fill("Family Liverpool")
    page.locator("#values-0-value").fill("20")
    page.get_by_role("button", name="Add a deal").tap()
    page.locator("#stages-7-contract").fill("3 runs of 4 and 1 set of 2")
    page.locator("#stages-7-cards").fill("14")
    page.get_by_role("button", name="Add a bonus").tap()
    page.locator("#bonuses-1-label").fill("Went out in one go")
    page.locator("#bonuses-1-points").fill("-20")
    page.locator("#bonuses-1-key").fill("in-one-go")
    page.get_by_role("button", name="Save", exact=True).tap()
    expect(page.locator("h1")).to_have_text("Family Liverpool")
    house_page = page.url

    # A game with it, from the new-game page.
    page.goto(f"{server}/games/new")
    page.wait_for_load_state("load")  # htmx binds the rules radios at load
    page.get_by_label(re.compile("Family Liverpool")).check()
    expect(page.locator("#rule-range")).to_contain_text("Family Liverpool is for 3 to 8 players")
    for i, name in enumerate(["Ann", "Ben", "Cat"]):
        page.locator(f"#seat-{i}").fill(name)
    page.get_by_role("button", name="Start game").tap()
    expect(page.locator("h1")).to_have_text("Deal 1: 2 sets of 3")
    board = page.url
    rules_line = page.locator("details.rules-line")
    expect(rules_line).to_contain_text("Family Liverpool")
    rules_line.locator("summary").tap()
    expect(rules_line).to_contain_text("then 14 from deal 8")
    expect(rules_line).to_contain_text("Went out in one go \u221220")

    # Deal 1: Ann goes out in one go (the house bonus), Ben holds an ace (20 here) and a 7.
    page.get_by_role("link", name="Record deal 1").tap()
    expect(page.locator("button[data-rank='A'] .key-worth")).to_have_text("20")
    mark_out(page, "Ann")
    row(page, "Ann").locator(".bonus-toggle", has_text="Went out in one go").tap()
    expect(row(page, "Ann").locator(".penalty")).to_have_text("-20")
    pick(page, "Ben")
    tap(page, "A", "Ben")
    tap(page, "7", "Ben")
    expect(row(page, "Ben").locator(".penalty")).to_have_text("27")
    pick(page, "Cat")
    tap(page, "K", "Cat")
    page.get_by_role("button", name="Save deal 1").tap()
    expect(page.locator("p.flash")).to_contain_text("Deal 1 saved.")
    assert totals(page) == {"Ann": -20, "Ben": 27, "Cat": 10}

    # The house rule set changes afterwards: aces 25, the bonus gone.
    page.goto(house_page)
    page.get_by_role("link", name="Change", exact=True).tap()
    page.locator("#values-0-value").fill("25")
    page.get_by_role("button", name="Remove bonus 2").tap()
    expect(page.locator("#bonuses-1-label")).to_have_count(0)
    page.get_by_role("button", name="Save", exact=True).tap()
    expect(page.locator(".value-pad div").first).to_have_text(re.compile(r"A\s*25"))
    expect(page.locator("main")).not_to_contain_text("Went out in one go")

    # The game is played on by the rules it started with: its totals, its aces, its bonus.
    page.goto(board)
    assert totals(page) == {"Ann": -20, "Ben": 27, "Cat": 10}
    page.get_by_role("link", name="Record deal 2").tap()
    expect(page.locator("button[data-rank='A'] .key-worth")).to_have_text("20")
    expect(row(page, "Ben").locator(".bonus-toggle", has_text="Went out in one go")).to_have_count(1)
    mark_out(page, "Ben")
    pick(page, "Ann")
    tap(page, "A", "Ann")
    pick(page, "Cat")
    tap(page, "A", "Cat")
    page.get_by_role("button", name="Save deal 2").tap()
    expect(page.locator("p.flash")).to_contain_text("Deal 2 saved.")
    assert totals(page) == {"Ann": 0, "Ben": 27, "Cat": 30}
