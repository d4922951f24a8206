"""Bad signal at the table (issue 17): pages that never lie, and nothing typed is ever lost."""

import re

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import func, select

from scorekeeper.models import Round, db

from .test_table import mark_out, pick, record, row, start_game, tap_cards, totals

CDN = re.compile(r"^https://cdn\.jsdelivr\.net/.*")


@pytest.fixture(autouse=True)
def no_internet(context):
    context.route(CDN, lambda route: route.abort())


def rounds_stored(live_app) -> int:
    with live_app.app_context():
        return db.session.scalar(select(func.count()).select_from(Round))


def styled_page(page: Page) -> None:
    """The whole page: header, styles, scripts and the live board, not a bare fragment."""
    expect(page.locator("header.top")).to_be_visible()
    assert page.evaluate("() => getComputedStyle(document.querySelector('header.top')).display") != "inline"
    assert page.evaluate("() => !!window.htmx && document.styleSheets.length > 0")
    expect(page.locator("#board[data-poll]")).to_have_count(1)


def controlled_by_the_service_worker(page: Page) -> None:
    page.evaluate("() => navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


# ------------------------------------------------------------------ pages that never lie


def test_a_reload_after_an_htmx_update_shows_the_whole_page(page: Page, server):
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    record(page, "Ann", {"Ben": "7"})
    # htmx fetches the scoreboard as a fragment (going back to it), then the phone reloads.
    page.get_by_role("link", name="Record round 2").tap()
    expect(page.get_by_role("heading", name="Record round 2")).to_be_visible()
    page.go_back()
    expect(page.locator("h1")).to_have_text("Round 2")
    styled_page(page)
    page.reload()
    expect(page.locator("h1")).to_have_text("Round 2")
    styled_page(page)
    # And once more, now that the browser holds a copy to revalidate.
    page.reload()
    styled_page(page)
    assert totals(page) == {"Ann": 0, "Ben": 7}


def test_the_page_and_its_fragment_never_share_a_validator(page: Page, server):
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    tags = page.evaluate(
        """async () => {
            const page = await fetch(location.pathname, {cache: 'no-store'});
            const part = await fetch(location.pathname, {cache: 'no-store', headers: {'HX-Request': 'true'}});
            return [page.headers.get('ETag'), part.headers.get('ETag'), part.headers.get('Vary')];
        }"""
    )
    assert tags[0] and tags[1] and tags[0] != tags[1]
    assert "HX-Request" in tags[2]


@pytest.mark.offline
def test_a_kept_scoreboard_says_it_is_offline_and_what_cannot_work(page: Page, server, context):
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    record(page, "Ann", {"Ben": "7"})
    page.reload()  # the scoreboard, as a whole page the service worker keeps
    controlled_by_the_service_worker(page)
    context.set_offline(True)
    page.reload()
    note = page.locator(".offline-note")
    expect(note).to_have_text(re.compile(r"Offline: the scoreboard as of [0-2][0-9]:[0-5][0-9]"))
    assert totals(page) == {"Ann": 0, "Ben": 7}
    styled_page(page)
    undo = page.get_by_role("button", name="Undo round 1")
    expect(undo).to_be_disabled()
    share = page.get_by_role("link", name="Share")
    expect(share).to_have_attribute("aria-disabled", "true")
    expect(page.locator(".needs-signal")).to_contain_text("need the signal")
    context.set_offline(False)
    # Back online: the page comes back live by itself, and says so.
    expect(note).to_have_text("Live again", timeout=15_000)
    expect(page.get_by_role("button", name="Undo round 1")).to_be_enabled()


@pytest.mark.offline
def test_a_watcher_is_told_reconnecting_then_live_again(page: Page, server, browser, browser_context_args):
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    watch_url = page.url + "/watch"
    other = browser.new_context(**browser_context_args)
    other.route(CDN, lambda route: route.abort())
    seen: list[str] = []
    other.on("console", lambda m: m.type == "error" and not re.search(
        r"ERR_INTERNET_DISCONNECTED|ERR_FAILED|htmx:sendError|htmx:afterRequest|cdn\.jsdelivr", m.text + str(m.location))
        and seen.append(m.text))
    watcher = other.new_page()
    watcher.goto(watch_url)
    expect(watcher.locator("h1")).to_have_text("Round 1")
    other.set_offline(True)
    note = watcher.locator(".offline-note")
    expect(note).to_have_text("Offline: reconnecting")
    expect(note).not_to_contain_text("entered")
    other.set_offline(False)
    expect(note).to_have_text("Live again")
    record(page, "Ann", {"Ben": "7"})
    expect(watcher.locator("h1")).to_have_text("Round 2")
    other.close()
    assert not seen, seen


@pytest.mark.offline
def test_the_offline_page_says_nothing_is_waiting_when_nothing_is(page: Page, server, context):
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    controlled_by_the_service_worker(page)
    context.set_offline(True)
    page.goto(server + "/history")
    expect(page.locator("h1")).to_have_text("Offline, retrying…")
    expect(page.locator("[data-offline-page]")).not_to_contain_text("safe on the server")
    expect(page.locator("[data-waiting]")).to_have_text("Nothing from this phone is waiting to be sent.")
    context.set_offline(False)
    expect(page.locator("h1")).to_have_text("History", timeout=15_000)
