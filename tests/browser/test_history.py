"""Looking back on a phone: the history, a game's story with its charts, a player's page."""

import re

import pytest
from playwright.sync_api import Page, expect

from history_games import random_docs
from scorekeeper.files import transfer
from scorekeeper.files.gamefile import backup_document, read_document
from scorekeeper.store.models import db


@pytest.fixture
def games(live_app):
    """Thirty games of both rule sets, as if restored from a backup."""
    with live_app.app_context():
        outcomes = transfer.import_files(read_document(backup_document(random_docs(30, seed=21))))
        db.session.remove()
    return [o.game_id for o in outcomes]


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url


def chart_lines_drawn(page: Page, chart: str) -> int:
    svg = page.locator(f"svg#{chart}")
    expect(svg).to_be_visible()
    box = svg.bounding_box()
    assert box["width"] > 300 and box["height"] > 150  # fills a phone's width
    lines = svg.locator("polyline.line")
    for i in range(lines.count()):
        drawn = lines.nth(i).evaluate(
            "el => { const b = el.getBBox(); const s = getComputedStyle(el);"
            " return [b.width, s.stroke, s.fill] }"
        )
        assert drawn[0] > 0
        assert drawn[1] not in ("none", "", "rgba(0, 0, 0, 0)")  # coloured by the stylesheet
        assert drawn[2] in ("none", "rgba(0, 0, 0, 0)")
    return lines.count()


def test_browse_history_then_a_story_then_a_player(page: Page, server, games, artifacts):
    page.goto(f"{server}/")
    page.get_by_role("link", name="History", exact=True).tap()
    expect(page.get_by_role("heading", name="History")).to_be_visible()
    expect(page.locator(".history-item")).to_have_count(20)
    expect(page.get_by_text("Games 1 to 20 of 30")).to_be_visible()
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "history.png"), full_page=False)

    # Only Balmoral games, then the first of them: applied as it changes, once the script that
    # does so has run (it hides Show).
    expect(page.get_by_role("button", name="Show")).to_be_hidden()
    page.get_by_label("Rules").select_option("balmoral")
    expect(page).to_have_url(re.compile(r"rules=balmoral"))
    items = page.locator(".history-item")
    assert items.count() >= 1
    for text in items.locator(".line1").all_inner_texts():
        assert text.startswith("Balmoral Rummy")
    first = items.first.locator("a").first
    box = first.bounding_box()
    assert box["height"] >= 44
    first.tap()

    expect(page.get_by_role("heading", name=re.compile(r"Game \d+: Balmoral Rummy"))).to_be_visible()
    players = page.locator("table.story-standings tbody tr").count()
    assert chart_lines_drawn(page, "totals-chart") == players
    assert chart_lines_drawn(page, "levels-chart") == players
    expect(page.get_by_role("img", name=re.compile("Running totals"))).to_be_visible()
    expect(page.locator("table.chart-table").first).to_be_attached()
    expect(page.locator("table.story-round").first).to_contain_text("went out")
    page.set_viewport_size({"width": 360, "height": 780})
    no_sideways_scroll(page)
    page.locator("svg#totals-chart").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "story-charts.png"), full_page=False)
    page.screenshot(path=str(artifacts / "story-full.png"), full_page=True)

    # The winner's (or first player's) page: statistics, the ladder, head to head.
    name = page.locator("table.story-standings a.pname").first.inner_text()
    page.locator("table.story-standings a.pname").first.tap()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    expect(page.get_by_role("heading", name="The Balmoral Rummy ladder")).to_be_visible()
    expect(page.locator("table.ladder tbody tr")).to_have_count(7)
    page.get_by_role("button", name="Compare").tap()
    expect(page.locator(".h2h")).to_contain_text("together")
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "player.png"), full_page=True)


def test_the_filter_applies_as_it_changes_and_a_name_leads_to_the_player(page: Page, server, games, artifacts):
    page.goto(f"{server}/history")
    expect(page.locator(".history-item")).to_have_count(20)
    page.evaluate("window.sameDocument = true")
    # No Show to tap where scripts run: choosing is enough.
    expect(page.get_by_role("button", name="Show")).to_be_hidden()
    page.get_by_label("Player").select_option(label="Ann")
    expect(page).to_have_url(re.compile(r"player=\d+"))
    expect(page.get_by_text(re.compile(r"with Ann, newest first"))).to_be_visible()
    # The filters are drawn again with the list: the next choice is made once nothing is loading
    # (a choice made in the form the answer replaces was lost once under load).
    expect(page.locator(".htmx-request, .htmx-settling, .htmx-swapping")).to_have_count(0)
    page.get_by_label("Rules").select_option("classic")
    expect(page).to_have_url(re.compile(r"player=\d+&rules=classic"))
    for text in page.locator(".history-item .line1").all_inner_texts():
        assert text.startswith("Contract Rummy")
    assert page.evaluate("window.sameDocument") is True  # swapped in, not a new page
    no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / "history-filtered.png"), full_page=False)
    # Each name in an item is a link to that player's page, a fingertip tall.
    ben = page.locator(".history-item .players a", has_text="Ben").first
    assert ben.bounding_box()["height"] >= 44
    ben.tap()
    expect(page.get_by_role("heading", name="Ben", exact=True)).to_be_visible()


@pytest.mark.console_allows(r"status of 404")  # the game deleted for good is opened at the end
def test_delete_a_game_and_undo_it_on_a_phone(page: Page, server, club_link, artifacts):
    page.goto(f"{server}/games/new")
    for i, name in enumerate(["Ann", "Ben"]):
        page.locator(f"#seat-{i}").fill(name)
    page.get_by_role("button", name="Start game").tap()
    expect(page.locator("h1")).to_have_text("Round 1")
    game_url = page.url
    page.goto(f"{game_url}/story")
    page.get_by_role("link", name="Delete this game…").tap()
    expect(page.get_by_role("heading", name=re.compile(r"Delete game \d+\?"))).to_be_visible()
    page.get_by_role("button", name=re.compile(r"Yes, delete game")).tap()
    expect(page.locator(".undo-bar")).to_contain_text("was deleted")
    expect(page.locator(".history-item")).to_have_count(0)
    page.get_by_role("button", name="Undo").tap()
    expect(page.get_by_role("heading", name=re.compile(r"Game \d+: Balmoral Rummy"))).to_be_visible()
    page.goto(f"{server}/history")
    expect(page.locator(".history-item")).to_have_count(1)
    # Delete it again, then for good from the bin: a second question, and then it is gone.
    page.goto(f"{game_url}/story")
    page.get_by_role("link", name="Delete this game…").tap()
    page.get_by_role("button", name=re.compile(r"Yes, delete game")).tap()
    page.get_by_role("link", name=re.compile("Deleted games")).first.tap()
    expect(page.locator(".history-item")).to_have_count(1)
    # Deleting for good is the club keeper's: this phone opens the club link first.
    expect(page.get_by_role("link", name="Delete for good…")).to_have_count(0)
    page.goto(club_link)
    expect(page.locator(".flash")).to_contain_text("keeper")
    page.goto(f"{server}/history/deleted")
    page.get_by_role("link", name="Delete for good…").tap()
    expect(page.get_by_role("heading", name=re.compile(r"Delete game \d+ for good\?"))).to_be_visible()
    page.screenshot(path=str(artifacts / "purge-confirm.png"), full_page=False)
    page.get_by_role("button", name="Yes, delete it for good").tap()
    expect(page.locator(".flash")).to_contain_text("is gone for good")
    expect(page.locator(".history-item")).to_have_count(0)
    page.goto(game_url)
    expect(page.locator("h1")).to_contain_text("not found", ignore_case=True)
