"""Two phones at one table: a live watcher, edit rights, and a lost signal."""

import re

import pytest
from playwright.sync_api import expect

from .test_table import record, start_game, time_passes, totals

def test_a_round_appears_on_a_watching_phone_at_its_next_poll(page, server, another_phone):
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat"])
    game_url = page.url
    page.get_by_role("link", name="Share").tap()
    watch_url = page.locator(".link a").first.get_attribute("href")
    assert watch_url.endswith("/watch")
    expect(page.locator(".qr svg").first).to_be_visible()

    other = another_phone()
    watcher = other.new_page()
    watcher.clock.install()  # the poll's timer runs on a clock the test moves on
    watcher.goto(watch_url)
    expect(watcher.locator("h1")).to_have_text("Round 1")
    expect(watcher.get_by_role("link", name=re.compile("Record round"))).to_have_count(0)
    # The promise (a round on every phone within three seconds) is the poll's interval; how
    # soon it shows on a busy test machine is not timed here (make bench times the poll's answers).
    expect(watcher.locator("#board")).to_have_attribute("hx-trigger", re.compile(r"^every 2s\b"))

    page.goto(game_url)
    record(page, "Ben", {"Ann": "A K", "Cat": "7"})
    time_passes(watcher, 2000)  # its next poll
    expect(watcher.locator(".changes")).to_contain_text("Ben went out")
    expect(watcher.locator("h1")).to_have_text("Round 2")
    assert totals(watcher) == {"Ann": 25, "Ben": 0, "Cat": 7}

    # The watcher has no edit key: the round screen refuses it and nothing is stored.
    response = watcher.goto(game_url + "/rounds/new")
    assert response.status == 403
    expect(watcher.locator("h1")).to_contain_text("Only the scorekeeper")


def test_polling_pauses_while_hidden_and_resumes_when_shown(page, server):
    page.clock.install()  # htmx's poll timer runs on a clock the test can move on
    start_game(page, server, "classic", ["Ann", "Ben", "Cat"])
    polls = []
    page.on("request", lambda request: "/live" in request.url and polls.append(request.url))
    # The scoreboard polls while visible (waited for, not slept on: htmx starts its timer
    # only once it has loaded, which on a busy machine is a while after the heading shows).
    with page.expect_request(lambda request: "/live" in request.url):
        pass
    page.evaluate(
        """() => {
            Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
            Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
            document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    # (A poll sent before the page was hidden is counted by now: its event came before the answer
    # to the script above.)
    polls.clear()
    time_passes(page, 4500)  # two ticks of the 2 s poll
    assert polls == []
    # Showing the page polls at once: well before the next tick of the 2 s timer would have.
    with page.expect_request(lambda request: "/live" in request.url, timeout=1500):
        page.evaluate(
            """() => {
                Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});
                Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'visible'});
                document.dispatchEvent(new Event('visibilitychange'));
            }"""
        )


@pytest.mark.offline
def test_a_lost_signal_keeps_the_round_and_retries(page, server, context):
    page.clock.install()  # the outbox's timers run on a clock the test can move on
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    page.get_by_role("link", name=re.compile("Record round")).tap()
    page.locator(".player:has(.pname:text-is('Ann')) .out-toggle").tap()
    page.get_by_role("button", name="Add Q to Ben", exact=True).tap()
    context.set_offline(True)
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".offline-note")).to_be_visible()
    expect(page.locator(".offline-note")).to_contain_text("Offline, retrying")
    # The round waits on the phone, shown on the scoreboard the phone kept.
    expect(page.locator(".outbox-note")).to_contain_text("Round 1: waiting to send")
    context.set_offline(False)
    time_passes(page, 3000)  # the outbox tries again, if the signal's return did not send it
    # Sent and answered: the board shows the round (the note alone can be away for a moment
    # while htmx swaps the board that was fetched again on the signal's return).
    ben = page.locator("table.standings tbody tr", has_text="Ben").locator(".total")
    expect(ben).to_have_text("10")
    expect(page.locator(".outbox-note")).to_have_count(0)
    page.reload()
    assert totals(page) == {"Ann": 0, "Ben": 10}
    expect(page.locator(".offline-note")).to_be_hidden()


@pytest.mark.secure
@pytest.mark.offline
def test_a_lost_signal_shows_our_offline_page_not_the_browsers(page, server):
    page.clock.install()  # the offline page's timer runs on a clock the test moves on
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    # Wait until the service worker controls the page and has kept the app shell.
    page.evaluate("() => navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.goto(server + "/history")
    expect(page.locator("h1")).to_have_text("Offline, retrying…")
    expect(page.get_by_role("link", name="Try again now")).to_be_visible()
    page.context.set_offline(False)
    # The offline page tries again by itself.
    page.clock.run_for(5000)
    expect(page.locator("h1")).to_have_text("History")


def test_the_scorekeepers_screen_stays_awake_during_a_game(page, server):
    page.add_init_script(
        """(() => {
            window.__wakeRequests = 0;
            Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {
                request: () => { window.__wakeRequests += 1;
                                 return Promise.resolve({release: () => Promise.resolve(), addEventListener() {}}); }
            }});
        })()"""
    )
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    page.wait_for_function("() => window.__wakeRequests > 0")
    assert page.locator("[data-wake]").count() == 1
