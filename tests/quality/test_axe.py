"""axe-core on every page, in the light and the dark colour scheme: no violation of WCAG 2.1 A/AA
(axe's tags wcag2a, wcag2aa, wcag21aa) nor of axe's best practices (heading order, landmarks).

Each page is opened as a phone opens it (Debian's Chromium at 390x844, touch), with the page's
own Content-Security-Policy in force: axe is served from the page's origin by the quality
server (conftest.with_axe), so no CSP bypass is needed. States that only a POST shows (a refused
start, a refused round, a refused name or file) are reached by tapping, as a person does, so the
htmx swaps are checked too. Each page is checked in the light scheme, then switched to dark and
its colours checked again (the stylesheet follows ``prefers-color-scheme`` live, without a
reload). The pages a table uses most are checked again in every other language the app speaks,
in the light scheme only: the dark scheme changes colours and nothing else, and a language
changes words and nothing else. Contrast is a matter of a text's colour, its background and its
size, none of which a word's language or length changes, so the dark scheme's colour rules,
checked on every page in English, would find nothing new in German; and every rule a language
can change (names of buttons and fields, headings, the page's language) is read in the light.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page as PwPage
from playwright.sync_api import expect

from conftest import make_keeper

from scorekeeper.web.languages import COOKIE, DEFAULT, LANGUAGES

from .site import AXE_URL, BLANK_URL, Page, Seeded, catalogue

# WCAG 2.0 and 2.1, A and AA; and axe's best practices (heading order, landmarks, one h1, ...).
TAGS = ["wcag2a", "wcag2aa", "wcag21aa", "best-practice"]
SCHEMES = ("light", "dark")

BROWSER_PAGES = [p for p in catalogue(Seeded()) if p.whole]


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    # No service worker: each test starts from the server's page, never from a cache.
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture(scope="module")
def context(browser, browser_context_args):
    """One phone for every page of this module, so that the static files and axe come from its
    HTTP cache after the first page (they are immutable) rather than for each of about a hundred
    pages; its cookies and stored data are cleared before each page (:func:`check`)."""
    phone = browser.new_context(**browser_context_args)
    yield phone
    phone.close()


@pytest.fixture(scope="module")
def page(context):
    """One tab for every page too: a new tab is a new renderer process to start."""
    tab = context.new_page()
    yield tab
    tab.close()


def forget(context, page: PwPage, base: str) -> None:
    """The phone as new to the site: no cookie, nothing kept by a page before (a round's draft,
    the outbox), its cache of static files aside. The tab leaves the last page first: an address
    that differs from it only after the "#" would otherwise not load the page again (a blank page
    of the same origin, so the tab keeps its renderer process)."""
    page.goto(base + BLANK_URL)
    context.clear_cookies()
    session = context.new_cdp_session(page)
    session.send("Storage.clearDataForOrigin",
                 {"origin": base, "storageTypes": "local_storage,indexeddb,cache_storage,service_workers"})
    session.detach()


#: What the colour scheme can change: every other rule reads the same page in the dark as in the
#: light, so the dark pass runs only these.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def run_axe(page: PwPage, rules: list[str] | None = None) -> list[dict]:
    """axe's violations on the page: of every rule of TAGS, or only of ``rules``."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(url=AXE_URL)
    only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": TAGS}
    return page.evaluate(
        """async (only) => {
            const result = await axe.run(document, {runOnly: only, resultTypes: ['violations']});
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 200),
                                          why: n.failureSummary}))}));
        }""",
        only,
    )


def describe(found: dict[str, list[dict]]) -> str:
    lines = []
    for scheme, violations in found.items():
        for v in violations:
            lines.append(f"[{scheme}] {v['id']} ({v['impact']}): {v['help']}")
            for n in v["nodes"][:6]:
                lines.append(f"    {n['target']}: {n['html']}")
                lines.append("      " + n["why"].replace("\n", "\n      "))
    return "\n".join(lines)


# ---- States that only a POST shows: reached by tapping.

def new_game_classic(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/games/new")
    page.get_by_label("Contract Rummy", exact=False).check()
    expect(page.get_by_role("textbox", name="Jokers")).to_be_visible()


def new_game_phase10(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/games/new")
    page.wait_for_load_state("load")
    page.get_by_label("Phase 10", exact=False).check()
    expect(page.locator("#rule-range")).to_contain_text("Phase 10 is for 2 to 6 players")


def new_game_refused(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/games/new")
    page.locator("#seat-0").fill("Ann")
    page.get_by_role("textbox", name="Decks").fill("99")
    page.get_by_role("button", name="Start game").tap()
    expect(page.locator(".errors").first).to_be_visible()


def players_refused(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/players/")
    page.get_by_label("Add a player").fill("ann")
    page.get_by_role("button", name="Add", exact=True).tap()
    expect(page.locator("#name-err")).to_be_visible()


def rename_refused(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/players/{s.player}/edit")
    page.locator(f"#rename-{s.player}").fill("Cat")
    page.get_by_role("button", name="Save", exact=True).tap()
    expect(page.locator("#rename-err")).to_be_visible()


def round_refused(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/games/{s.balmoral}/rounds/new")
    page.locator("#seat-0 .pick").tap()
    page.locator("button[data-edit=type]").tap()
    page.locator("#hand-0").fill("A X 7")
    page.locator("#seat-2 .pick").tap()
    page.locator("button[data-edit=type]").tap()
    page.locator("#hand-2").fill("K Q")
    page.get_by_role("button", name="Save round 4").tap()
    expect(page.locator("#err-0")).to_be_visible()


def import_refused(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/import")
    page.locator("#file").set_input_files(
        files=[{"name": "broken.json", "mimeType": "application/json", "buffer": b'{"format": "not a game"}'}]
    )
    page.get_by_role("button", name="Import").tap()
    expect(page.locator(".errors")).to_be_visible()


def import_again(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/import")
    page.locator("#file").set_input_files(
        files=[{"name": "again.json", "mimeType": "application/json", "buffer": s.game_file}])
    page.get_by_role("button", name="Import").tap()
    expect(page.locator(".import-outcomes")).to_contain_text("already")


def share_edit_link(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/games/{s.balmoral}/share")
    page.get_by_text("Show the edit link").tap()
    expect(page.locator("details:not(.seat-link) .qr svg")).to_be_visible()


def join_refused(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/games/{s.balmoral}/join#key=not-the-key")  # the page posts the key itself
    expect(page.get_by_role("alert")).to_contain_text("no longer works")


def seat_join_refused(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/games/{s.balmoral}/seat#key=not-the-key")
    expect(page.get_by_role("alert")).to_contain_text("no longer works")


def hand_refused(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/games/{s.balmoral}/hand")
    page.locator("button[data-edit=type]").tap()
    page.locator("#hand-0").fill("A X")
    page.get_by_role("button", name="Send to the scorekeeper").tap()
    expect(page.locator("#err-0")).to_be_visible()


def club_refused(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/club#key=not-the-key")
    expect(page.get_by_role("alert")).to_contain_text("not the club key")


def rules_refused(page: PwPage, base: str, s: Seeded) -> None:
    page.goto(f"{base}/rules/liverpool/copy")
    page.locator("#values-0-value").fill("501")
    page.locator("#stages-2-cards").fill("31")
    page.get_by_role("button", name="Save", exact=True).tap()
    expect(page.locator("#value-A-err")).to_be_visible()


FLOWS = {f.__name__: f for f in (new_game_classic, new_game_phase10, new_game_refused, players_refused, rename_refused,
                                 round_refused, import_refused, import_again, share_edit_link, join_refused,
                                 club_refused, rules_refused, seat_join_refused, hand_refused)}


def open_page(page: PwPage, base: str, seeded: Seeded, spec: Page) -> None:
    if spec.browser:
        FLOWS[spec.browser](page, base, seeded)
    else:
        response = page.goto(base + spec.path)
        assert response is not None and response.status == spec.status, (spec.path, response and response.status)
    page.wait_for_load_state("load")


def check(page: PwPage, context, base: str, seeded: Seeded, spec: Page, cookie: str | None, artifacts_dir,
          language: str = DEFAULT, schemes: tuple[str, ...] = SCHEMES) -> None:
    forget(context, page, base)
    if cookie:
        context.add_cookies([{"name": "session", "value": cookie, "url": base}])
    if language != DEFAULT:
        context.add_cookies([{"name": COOKIE, "value": language, "url": base}])
    name = spec.name if language == DEFAULT else f"{spec.name}-{language}"
    errors: list[str] = []

    def uncaught(exc) -> None:
        errors.append(f"uncaught: {exc}")

    def console(msg) -> None:
        if msg.type == "error":
            errors.append(f"console: {msg.text}")

    page.on("pageerror", uncaught)
    page.on("console", console)
    try:
        found = axe_in_schemes(page, base, seeded, spec, language, schemes, artifacts_dir)
    finally:
        page.remove_listener("pageerror", uncaught)
        page.remove_listener("console", console)
    assert not found, f"axe found violations on {name} ({spec.path}):\n{describe(found)}"
    # A page that answers 4xx on purpose logs that status; nothing else may reach the console.
    unexpected = [e for e in errors if not (spec.status >= 400 and "status of" in e)]
    assert not unexpected, unexpected


def axe_in_schemes(page: PwPage, base: str, seeded: Seeded, spec: Page, language: str, schemes: tuple[str, ...],
                   artifacts_dir) -> dict:
    """The page opened in the light scheme (in ``language``), axe's violations there and then (when
    ``schemes`` has it) its colours' in the dark."""
    name = spec.name if language == DEFAULT else f"{spec.name}-{language}"
    found = {}
    page.emulate_media(color_scheme="light")
    open_page(page, base, seeded, spec)
    if language != DEFAULT:
        assert page.evaluate("document.documentElement.lang") == language, f"{name} is not in {language}"
    for scheme in schemes:
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
        violations = run_axe(page, None if scheme == "light" else COLOUR_RULES)
        if violations:
            found[scheme] = violations
            page.screenshot(path=str(artifacts_dir / f"axe-{name}-{scheme}.png"), full_page=True)
    if found:
        (artifacts_dir / f"axe-{name}.json").write_text(json.dumps(found, indent=1))
    return found


@pytest.mark.parametrize("name", [p.name for p in BROWSER_PAGES])
def test_no_axe_violation(name, page, context, quality_server, seeded, pages, editor_cookie, artifacts_dir):
    spec = next(p for p in pages if p.name == name)
    check(page, context, quality_server, seeded, spec, editor_cookie if spec.editor else None, artifacts_dir)


#: The pages a table uses most, checked again in each other language the app speaks. The templates
#: are the same; what a language can change is what axe reads from its words (the names of
#: buttons, links and fields, headings, the page's language): in the light scheme only (the
#: module's docstring says why). Opened by address, as the states reached by tapping are found by
#: their English words.
IN_EVERY_LANGUAGE = ["index", "language", "new-game", "scoreboard-balmoral", "round-new", "round-correct", "history",
                     "story-balmoral", "player", "ratings", "rules-preset", "hand"]
OTHER_LANGUAGES = [code for code in LANGUAGES if code != DEFAULT]


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
@pytest.mark.parametrize("name", IN_EVERY_LANGUAGE)
def test_no_axe_violation_in_every_language(name, language, page, context, quality_server, seeded, pages,
                                            editor_cookie, artifacts_dir):
    spec = next(p for p in pages if p.name == name)
    assert spec.browser is None, "a state reached by tapping English words"
    check(page, context, quality_server, seeded, spec, editor_cookie if spec.editor else None, artifacts_dir,
          language, schemes=("light",))


EMPTY_PAGES = [Page("index-empty", "/"), Page("history-empty", "/history"), Page("players-empty", "/players/"),
               Page("import-empty", "/import"), Page("new-game-empty", "/games/new")]


@pytest.mark.parametrize("name", [p.name for p in EMPTY_PAGES])
def test_no_axe_violation_before_the_first_game(name, page, context, empty_app, empty_server, artifacts_dir):
    spec = next(p for p in EMPTY_PAGES if p.name == name)
    # Backup and restore is the club keeper's page.
    cookie = keeper_cookie(empty_app) if spec.path == "/import" else None
    check(page, context, empty_server, Seeded(), spec, cookie, artifacts_dir)


def keeper_cookie(app) -> str:
    client = make_keeper(app.test_client())
    return client.get_cookie("session").value


BROKEN = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Broken</title>
<link rel="stylesheet" href="/static/app.css">
<style>@media (prefers-color-scheme: dark) { .dim { color: #2a2a2a; } }</style></head>
<body><main><h1>Broken on purpose</h1><p class="dim">Readable in the light, not in the dark.</p>
<img src="/static/icons/icon-192.png"><input name="nameless"><a href="/"></a>
<p id="dup">a</p><p id="dup">b</p></main></body></html>"""


def test_the_axe_check_can_fail(page, context, quality_server, artifacts_dir):
    """The same check, on a page broken on purpose (served from the app's origin, so axe loads)."""
    broken = f"{quality_server}/__quality__/broken"
    page.route(broken, lambda route: route.fulfill(body=BROKEN, content_type="text/html"))
    spec = Page("broken-on-purpose", "/__quality__/broken")
    try:
        with pytest.raises(AssertionError) as failed:
            check(page, context, quality_server, Seeded(), spec, None, artifacts_dir)
    finally:
        page.unroute(broken)
    for rule in ("html-has-lang", "image-alt", "label", "link-name"):
        assert rule in str(failed.value)
    assert "[light] image-alt" in str(failed.value)
    # The dark scheme really is applied: a colour that only fails in the dark is caught there.
    assert "[dark] color-contrast" in str(failed.value) and "[light] color-contrast" not in str(failed.value)
    (artifacts_dir / "axe-broken-on-purpose.json").unlink()
    for scheme in SCHEMES:
        (artifacts_dir / f"axe-broken-on-purpose-{scheme}.png").unlink()
