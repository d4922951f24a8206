"""A phone through HTTPS (Caddy in front, two app servers on PostgreSQL): it gets everything a
secure context gives, and every link that carries a key works."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from browser.test_table import mark_out, tap_cards, totals

expect.set_options(timeout=20_000)

GAME = {"format": "scorekeeper-game/1", "rules": "balmoral", "players": ["Ann", "Ben", "Cat"],
        "first_dealer": "Ann", "rounds": []}

#: Records the screen wake lock's requests and releases, as the page asks for them.
WAKE_LOCK_WATCH = """
(() => {
  window.__wake = [];
  if (!navigator.wakeLock) { return; }
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = async (type) => {
    const lock = await request(type);
    window.__wake.push("held");
    lock.addEventListener("release", () => window.__wake.push("released"));
    return lock;
  };
})();
"""


def new_game(stack) -> dict:
    status, _, created = stack.https().request("POST", "/api/games", GAME)
    assert status == 201, created
    return created


def rounds_on_the_server(stack, game_id: int) -> int:
    status, _, game = stack.https().request("GET", f"/api/games/{game_id}")
    assert status == 200
    return len(game["rounds"])


def keep_score(phone, stack) -> tuple[Page, dict]:
    """The scorekeeper's phone opens the game's edit link (its key after "#")."""
    created = new_game(stack)
    assert created["edit_url"].startswith(f"{stack.url}/games/{created['id']}/join#key=")
    page = phone.new_page()
    page.goto(created["edit_url"])
    expect(page).to_have_url(f"{stack.url}/games/{created['id']}")
    expect(page.get_by_role("link", name=re.compile("Record round 1"))).to_be_visible()
    return page, created


def test_an_edit_link_makes_the_phone_the_scorekeeper_in_a_secure_context(stack, phone):
    page, created = keep_score(phone, stack)
    assert page.evaluate("() => window.isSecureContext")
    # Everything a secure context gives is there.
    for feature in ("navigator.serviceWorker", "navigator.wakeLock", "crypto.randomUUID", "navigator.clipboard"):
        assert page.evaluate(f"() => !!{feature}"), feature
    # The service worker takes the page over after the first load.
    page.evaluate("() => navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    # HSTS once, from Caddy.
    status, headers, _ = stack.https().request("GET", "/")
    assert status == 200 and headers["Strict-Transport-Security"] == "max-age=31536000"


def test_the_club_link_and_a_seat_link_open_over_https(stack, phone):
    created = new_game(stack)
    status, _, seats = stack.https().request("POST", f"/api/games/{created['id']}/seat-links",
                                             key=created["edit_key"])
    assert status == 201, seats
    page = phone.new_page()
    ben = next(s for s in seats["seats"] if s["player"] == "Ben")
    page.goto(ben["seat_url"])
    expect(page.get_by_text("This form has expired")).to_have_count(0)
    expect(page).to_have_url(re.compile(rf"/games/{created['id']}/hand$"))
    club = re.search(r"https://\S+/club#key=\S+", stack.output()).group(0)
    page.goto(club)
    expect(page.get_by_text("This form has expired")).to_have_count(0)
    expect(page.get_by_role("status")).to_contain_text("This phone is now the club’s keeper")


def test_the_screen_stays_awake_while_a_game_is_open(stack, phone):
    phone.add_init_script(WAKE_LOCK_WATCH)
    page, created = keep_score(phone, stack)
    page.wait_for_function("() => window.__wake.includes('held')")
    # Leaving the game lets the screen sleep again: the browser drops the game page's lock with
    # the page, and no other page asks for one.
    page.locator("nav a[href='/players/']").tap()
    expect(page.get_by_role("heading", name="Players")).to_be_visible()
    page.wait_for_load_state("load")
    assert page.evaluate("() => window.__wake") == []


def test_the_manifest_and_worker_meet_the_install_criteria(stack, phone):
    page = phone.new_page()
    page.goto(f"{stack.url}/")
    page.evaluate("() => navigator.serviceWorker.ready")
    session = phone.new_cdp_session(page)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # (A test's browser context is a private window, where no browser installs anything.)
    assert [e for e in errors if e["errorId"] != "in-incognito"] == [], errors
    manifest = session.send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"] == f"{stack.url}/manifest.webmanifest"


@pytest.mark.parametrize("sheet", [True, False], ids=["with a share sheet", "without one"])
def test_the_share_page_offers_the_phones_share_sheet_where_there_is_one(stack, phone, sheet):
    if not sheet:
        phone.add_init_script("delete Navigator.prototype.share; delete Navigator.prototype.canShare;")
    else:
        # Headless Chromium has no share sheet of its own: a stand-in records what it is given.
        phone.add_init_script("Navigator.prototype.share = function (data) { window.__shared = data;"
                              " return Promise.resolve(); };")
    page, created = keep_score(phone, stack)
    page.goto(f"{stack.url}/games/{created['id']}/share")
    button = page.get_by_role("button", name="Share the watch link")
    if not sheet:
        expect(button).to_be_hidden()
        return
    button.tap()
    page.wait_for_function("() => !!window.__shared")
    assert page.evaluate("() => window.__shared.url") == created["watch_url"]


@pytest.mark.offline
def test_a_round_saved_without_signal_survives_a_reload_without_signal_and_is_sent_once(stack, phone):
    page, created = keep_score(phone, stack)
    page.evaluate("() => navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function("() => !!localStorage.getItem('scorekeeper-form')")
    page.get_by_role("link", name="Record round 1").tap()
    mark_out(page, "Ben")
    tap_cards(page, "Ann", "K 9")
    tap_cards(page, "Cat", "A")
    phone.set_offline(True)
    page.get_by_role("button", name="Save round 1").tap()
    figures = page.locator(".phone-figures")
    expect(figures).to_contain_text("Not yet sent: after round 1, worked out on this phone")
    page.reload()
    # The kept scoreboard, its figures worked out on the phone.
    expect(figures).to_contain_text("after round 1")
    expect(page.locator(".outbox-note")).to_contain_text("Round 1: waiting to send")
    assert {name: int(figures.locator(f"[data-player={name}] .phone-total").inner_text())
            for name in ("Ann", "Ben", "Cat")} == {"Ann": 19, "Ben": 0, "Cat": 15}
    phone.set_offline(False)
    expect(page.locator("h1")).to_have_text("Round 2", timeout=30_000)
    assert totals(page) == {"Ann": 19, "Ben": 0, "Cat": 15}
    assert rounds_on_the_server(stack, created["id"]) == 1
