"""The phone's script is ES modules (static/js/) that import each other by plain addresses: the
page's import map (inline, allowed by its hash in the CSP) gives each its versioned address,
and the service worker keeps every one, so the script runs without signal and with the
browser's own cache empty. A page fetches the modules it preloads and no other: the parts its
markup does not use are never fetched (the benchmark's page weight counts what is preloaded).
Where the browser gives no service worker (a plain-HTTP address), the scorekeeper's pages of a
game fetch, once drawn, the parts the game goes on with without signal."""

import re

import pytest
from playwright.sync_api import Page, expect

from .test_signal import controlled_by_the_service_worker
from .test_table import pick, row, start_game
from .test_whole_table import PLAYERS, open_seat, seat_links

MODULES = "() => JSON.parse(document.querySelector('script[type=importmap]').textContent).imports"
FETCHED = """() => performance.getEntriesByType('resource').map((e) => new URL(e.name))
                   .filter((u) => u.pathname.startsWith('/static/js/')).map((u) => u.pathname + u.search)"""
PRELOADED = "() => [...document.querySelectorAll('link[rel=modulepreload]')].map((l) => new URL(l.href)).map((u) => u.pathname + u.search)"
CORE = ["main", "banner", "live", "offline", "outbox"]


def fetched_are_preloaded(page: Page, *parts: str) -> None:
    """The page fetched the entry, the modules every page runs and its own parts (all preloaded)
    once each at their versioned addresses, and no other module."""
    # Until the network is quiet: an import() the page would make after its load is seen.
    page.wait_for_load_state("networkidle")
    imports = page.evaluate(MODULES)
    wanted = sorted(imports[f"/static/js/{name}.js"] for name in (*CORE, *parts))
    assert sorted(page.evaluate(PRELOADED) + [imports["/static/js/main.js"]]) == wanted
    assert sorted(page.evaluate(FETCHED)) == wanted


def test_every_module_is_fetched_once_at_its_versioned_address(page: Page, server):
    page.goto(server + "/games/new")
    imports = page.evaluate(MODULES)
    assert "/static/js/main.js" in imports and "/static/js/outbox.js" in imports
    assert all(re.fullmatch(re.escape(plain) + r"\?v=[0-9a-f]{10}", url) for plain, url in imports.items())
    # Preloaded at once, and imported from there: no module fetched at its plain address, none twice.
    fetched_are_preloaded(page, "seats")
    # And they run: a seat appears as the last one gets a name (seats.js).
    page.locator("#seat-0").fill("Ann")
    page.locator("#seat-1").fill("Ben")
    expect(page.locator("#seat-2")).to_be_visible()


@pytest.mark.secure
def test_the_scoreboard_and_the_round_screen_fetch_only_the_parts_they_use(page: Page, server):
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    board = page.url
    page.goto(board)  # a page of its own: the new game's were fetched in this one's place
    fetched_are_preloaded(page)
    page.goto(board + "/rounds/new")
    fetched_are_preloaded(page, "keypad", "hand-score", "drafts")
    # The keypad runs, imported where the round form is.
    row(page, "Ann").locator(".out-toggle").tap()
    pick(page, "Ben")
    page.get_by_role("button", name="Add K to Ben", exact=True).tap()
    expect(row(page, "Ben").locator(".penalty")).to_have_text("10")


def test_without_a_service_worker_the_scoreboard_fetches_what_the_game_needs_without_signal(page: Page, server):
    # The table's Wi-Fi by its plain-HTTP address: no service worker to keep the modules, so the
    # scorekeeper's scoreboard fetches the round screen's and the phone's replay at once, each
    # once at its versioned address (test_signal.py plays a whole game on them without signal).
    start_game(page, server, "classic", ["Ann", "Ben", "Cat"])
    page.goto(page.url)
    assert page.evaluate("() => 'serviceWorker' in navigator") is False
    imports = page.evaluate(MODULES)
    wanted = sorted(imports[f"/static/js/{name}.js"] for name in (*CORE, "keypad", "hand-score", "drafts", "offline-replay", "offline-form"))
    page.wait_for_function(f"() => ({FETCHED})().length >= {len(wanted)}")
    assert sorted(page.evaluate(FETCHED)) == wanted
    # Preloaded are still only the page's own: these come after it is drawn.
    assert sorted(page.evaluate(PRELOADED) + [imports["/static/js/main.js"]]) == sorted(imports[f"/static/js/{n}.js"] for n in CORE)


def test_a_players_own_hand_fetches_the_parts_it_runs_preloaded(page: Page, server, another_phone):
    # A seat link's page: the sending of the hand (seat.js) and the keypad, each preloaded.
    start_game(page, server, "balmoral", PLAYERS)
    cat = open_seat(another_phone, seat_links(page, server)["Cat"], "Cat")
    cat.goto(cat.url)  # a page of its own: the seat link's were fetched in this one's place
    fetched_are_preloaded(cat, "seat", "keypad", "hand-score", "drafts")
    cat.get_by_role("button", name="Add K to Cat", exact=True).tap()
    cat.get_by_role("button", name="Send to the scorekeeper").tap()
    expect(cat.locator("[data-sent-line]")).to_contain_text("Sent: K (10)")


@pytest.mark.secure
@pytest.mark.offline
def test_the_service_worker_keeps_every_module_and_the_keypad_works_from_it(page: Page, server, context):
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    board = page.url
    controlled_by_the_service_worker(page)
    page.wait_for_function("() => !!localStorage.getItem('scorekeeper-form')")
    imports = list(page.evaluate(MODULES).values())
    kept = page.evaluate("async (urls) => Promise.all(urls.map(async (u) => !!(await caches.match(u))))", imports)
    assert kept == [True] * len(imports)
    # Without signal and with the browser's HTTP cache emptied, only the worker's copies remain.
    context.new_cdp_session(page).send("Network.clearBrowserCache")
    context.set_offline(True)
    page.goto(board)
    expect(page.locator(".offline-note")).to_contain_text("Offline: the scoreboard as of")
    page.get_by_role("link", name="Record round 1").tap()
    expect(page.get_by_role("heading", name="Record round 1")).to_be_visible()
    row(page, "Ann").locator(".out-toggle").tap()
    pick(page, "Ben")
    page.get_by_role("button", name="Add K to Ben", exact=True).tap()
    page.get_by_role("button", name="Add 7 to Ben", exact=True).tap()
    expect(row(page, "Ben").locator(".penalty")).to_have_text("17")
    context.set_offline(False)
