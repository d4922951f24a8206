"""Second chances on a phone: a round undone by mistake can be put back from where the thumb
is, after a reload too; a half-typed round put back on opening the round screen says so, and
"Start over" empties it."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from scorekeeper.rules import RoundRecord

from .test_round_screen import keep_score, keeper_without_javascript, seeded
from .test_table import (
    mark_made,
    mark_out,
    record,
    row,
    start_game,
    tap_cards,
    time_passes,
    totals,
)

SIX = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay"]


def rounds_of(names: list[str], count: int) -> list[RoundRecord]:
    """``count`` rounds counted by hand: the dealer's left goes out, the rest score 10, 20..."""
    rounds = []
    for number in range(count):
        out = names[number % len(names)]
        rounds.append(RoundRecord(out, points={p: 10 * (i + 1) for i, p in enumerate(names) if p != out}))
    return rounds


def in_view(page: Page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844 + 1


def test_undo_by_mistake_is_put_back_from_the_foot_of_the_screen_even_after_a_reload(page: Page, server, live_app,
                                                                                   artifacts):
    game_id, key = seeded(live_app, "balmoral", SIX, rounds_of(SIX, 6))
    page.clock.install()  # the page's timers run on a clock the test can move on
    keep_score(page, server, game_id, key)
    page.goto(f"{server}/games/{game_id}")
    before = totals(page)
    undo = page.get_by_role("button", name="Undo round 6")
    undo.scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 0  # the standings are below the first screen
    undo.tap()
    bar = page.locator("[data-undo]")
    expect(bar).to_contain_text("Round 6 removed.")
    # Where the person is looking, without scrolling: the bar and its buttons are on screen.
    restore = bar.get_by_role("button", name="Restore round 6")
    keep = bar.get_by_role("button", name="Keep it removed")
    for target in (bar, restore, keep):
        assert in_view(page, target)
    for button in (restore, keep):
        box = button.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44
    page.screenshot(path=str(artifacts / "undo-bar.png"))
    # It does not fade, and it outlives a reload and another page.
    time_passes(page, 11_000)
    expect(bar).to_be_visible()
    page.goto(f"{server}/games/{game_id}/story")
    page.goto(f"{server}/games/{game_id}")
    expect(page.locator("[data-undo]")).to_contain_text("Round 6 removed.")
    assert in_view(page, page.locator("[data-undo]"))
    page.get_by_role("button", name="Restore round 6").tap()
    expect(page.locator("#main p.flash")).to_contain_text("Round 6 restored.")
    expect(page.locator("[data-undo]")).to_have_count(0)
    assert totals(page) == before


def test_keep_it_removed_closes_the_offer_for_good(page: Page, server, live_app):
    game_id, key = seeded(live_app, "balmoral", ["Ann", "Ben", "Cat"], rounds_of(["Ann", "Ben", "Cat"], 2))
    keep_score(page, server, game_id, key)
    page.goto(f"{server}/games/{game_id}")
    page.get_by_role("button", name="Undo round 2").tap()
    page.get_by_role("button", name="Keep it removed").tap()
    expect(page.locator("[data-undo]")).to_have_count(0)
    expect(page.locator("h1")).to_have_text("Round 2")
    page.reload()
    expect(page.get_by_role("button", name="Undo round 1")).to_be_visible()
    expect(page.locator("[data-undo]")).to_have_count(0)


def test_the_offer_goes_once_the_next_round_is_recorded(page: Page, server):
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    record(page, "Ann", {"Ben": "2"})
    page.get_by_role("button", name="Undo round 1").tap()
    expect(page.locator("[data-undo]")).to_be_visible()
    record(page, "Ben", {"Ann": "K"})
    expect(page.locator(".flash")).to_contain_text("Round 1 saved.")
    expect(page.locator("[data-undo]")).to_have_count(0)
    assert totals(page) == {"Ann": 10, "Ben": 0}


def test_undo_and_restore_without_javascript(browser, server, live_app):
    game_id, key = seeded(live_app, "balmoral", ["Ann", "Ben", "Cat"], rounds_of(["Ann", "Ben", "Cat"], 2))
    with keeper_without_javascript(browser, server, game_id, key) as page:
        page.goto(f"{server}/games/{game_id}")
        before = totals(page)
        page.get_by_role("button", name="Undo round 2").tap()
        expect(page.locator("[data-undo]")).to_contain_text("Round 2 removed.")
        assert in_view(page, page.get_by_role("button", name="Restore round 2"))
        page.get_by_role("button", name="Restore round 2").tap()
        expect(page.locator("p.flash")).to_contain_text("Round 2 restored.")
        assert totals(page) == before


def test_a_half_typed_round_put_back_says_so_and_can_start_over(page: Page, server, artifacts):
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat"])
    record(page, "Ann", {"Ben": "2", "Cat": "3"})
    before = totals(page)
    page.get_by_role("link", name="Record round 2").tap()
    expect(page).to_have_url(re.compile(r"/rounds/new$"))
    round_url = page.url
    note = page.locator("[data-kept-entry]")
    expect(note).to_be_hidden()  # nothing kept: nothing said
    mark_out(page, "Ben")
    tap_cards(page, "Cat", "K Q")
    mark_made(page, "Cat")
    # Away without saving or cancelling, and back later.
    page.goto(server + "/")
    page.goto(round_url)
    expect(page.get_by_role("heading", name="Record round 2")).to_be_visible()
    expect(note).to_be_visible()
    expect(note).to_contain_text("Your unsaved entry for round 2 was put back.")
    assert in_view(page, note)
    expect(page.locator("#hand-2")).to_have_value("K Q")
    page.screenshot(path=str(artifacts / "kept-entry.png"))
    start_over = note.get_by_role("button", name="Start over")
    box = start_over.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44
    start_over.tap()
    expect(note).to_be_hidden()
    expect(page.locator("#hand-2")).to_have_value("")
    expect(page.locator("#pen-2")).to_have_text("0")
    expect(row(page, "Ben").locator("input[name=went_out]")).not_to_be_checked()
    expect(row(page, "Cat").locator("input[type=checkbox][name^=achieved]")).not_to_be_checked()
    # The kept draft is gone too: opening the round again starts blank, and says nothing.
    page.reload()
    expect(page.get_by_role("heading", name="Record round 2")).to_be_visible()
    expect(note).to_be_hidden()
    expect(page.locator("#hand-2")).to_have_value("")
    # Typed once, saved once: no doubled cards.
    mark_out(page, "Ben")
    tap_cards(page, "Ann", "5")
    tap_cards(page, "Cat", "K Q")
    page.get_by_role("button", name="Save round 2").tap()
    expect(page.locator(".flash")).to_contain_text("Round 2 saved.")
    after = totals(page)
    assert after["Cat"] - before["Cat"] == 20 and after["Ben"] == before["Ben"]
