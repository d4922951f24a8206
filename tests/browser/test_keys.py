"""Edit keys on a phone: the link's key never travels in an address, and the
service worker keeps no page that shows one."""

import pytest
from playwright.sync_api import Page, expect


def start_game(page: Page, server: str) -> str:
    page.goto(f"{server}/games/new")
    for i, name in enumerate(["Ann", "Ben"]):
        page.locator(f"#seat-{i}").fill(name)
    page.get_by_role("button", name="Start game").tap()
    expect(page.locator("h1")).to_have_text("Round 1")
    return page.url


@pytest.mark.secure
def test_the_service_worker_keeps_no_page_that_shows_a_key(page: Page, server):
    game_url = start_game(page, server)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # from now on the worker sees the navigations
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.goto(f"{game_url}/share")
    page.get_by_text("Show the edit link").tap()
    expect(page.locator("p.link a").nth(1)).to_contain_text("#key=")
    page.goto(f"{game_url}/watch")  # a page it may keep: the check below can tell
    kept = page.wait_for_function("""async () => {
        const urls = [];
        for (const name of await caches.keys()) {
          for (const request of await (await caches.open(name)).keys()) { urls.push(request.url); }
        }
        return urls.some((u) => u.endsWith('/watch')) ? urls : null;
    }""").json_value()
    pages = [url for url in kept if "/static/" not in url]  # the app's own files are kept, pages are checked
    assert not [url for url in pages if "/share" in url or "key=" in url], kept


def test_an_edit_link_reaches_no_server_with_its_key(page: Page, server, another_phone):
    game_url = start_game(page, server)
    page.goto(f"{game_url}/share")
    link = page.locator("p.link a").nth(1).get_attribute("href")
    key = link.partition("#key=")[2]
    assert link.startswith(f"{game_url}/join#key=") and len(key) > 30
    # Another phone opens it.
    phone = another_phone().new_page()
    sent: list[str] = []
    phone.on("request", lambda request: sent.append(request.url))
    phone.goto(link)
    expect(phone.locator(".flash")).to_contain_text("can now keep score")
    expect(phone.get_by_role("link", name="Record round 1")).to_be_visible()
    assert "key" not in phone.url
    assert sent and not [url for url in sent if key in url]  # in the form's body only
