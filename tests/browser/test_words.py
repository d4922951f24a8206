"""Words that say what they mean, on a phone at the table."""

import pytest
from playwright.sync_api import Page, expect

from .test_signal import begin_round, controlled_by_the_service_worker, enter
from .test_table import start_game


@pytest.mark.secure
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
    # The only way on names the round it opens (the server's own link, to round 1, gives way).
    expect(page.get_by_role("link", name="Record round 1")).to_have_count(0)
    page.get_by_role("button", name="Record round 2 on this phone").tap()
    expect(page.get_by_role("heading", name="Record round 2")).to_be_visible()


def test_the_rule_set_editor_is_grouped_and_folds_what_tables_leave(page: Page, server, club_link, artifacts):
    page.goto(club_link)
    page.goto(f"{server}/rules/liverpool/copy")
    fold = page.locator("details#more-rules")
    expect(fold).not_to_have_attribute("open", "")
    expect(page.get_by_text("Who deals the next round?")).not_to_be_visible()
    height = page.evaluate("document.documentElement.scrollHeight")
    # Three-quarters of what it was with every question open (about 4,200 px at this width).
    assert height <= 3300, height
    page.screenshot(path=str(artifacts / "editor.png"), full_page=True)
    fold.locator("summary").tap()
    expect(page.get_by_text("Who deals the next round?")).to_be_visible()
    expect(page.get_by_role("radio", name="The deal moves one seat clockwise")).to_be_checked()
