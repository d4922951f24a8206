"""Words that say what they mean, on a phone at the table."""

import pytest
from playwright.sync_api import Page, expect

from .test_signal import begin_round, controlled_by_the_service_worker, enter
from .test_table import start_game


@pytest.mark.offline
def test_the_kept_scoreboards_record_link_names_the_round_it_opens(page: Page, server, context):
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat"])
    board = page.url
    controlled_by_the_service_worker(page)
    page.wait_for_function("() => !!localStorage.getItem('scorekeeper-form')")
    begin_round(page)
    enter(page, "Ben", {"Ann": "K 9", "Cat": "A 7"})
    context.set_offline(True)
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".outbox-note")).to_contain_text("Round 1: waiting to send")
    page.goto(board)  # the kept scoreboard: round 1 waits on the phone, so round 2 is next
    expect(page.locator(".phone-figures")).to_contain_text("Next: round 2")
    link = page.locator("#board a[href$='/rounds/new']")
    expect(link).to_have_text("Record round 2")
    link.tap()
    expect(page.get_by_role("heading", name="Record round 2")).to_be_visible()
