"""Every word fits its place on a phone, in every language: every page of the site (site.py)
that an address opens, at 390 px, in German, Spanish, French and Finnish, with the round
screens' keypads among them (English, in its longer pseudo form, in test_pseudo_locale.py). A page fails when it scrolls sideways, when the text of a
box (a key, a button, a label, a cell, a line) runs past the box's edge, or when text runs off
the screen; what sits inside a box made to scroll sideways (a wide table, a long hand's line)
and a name cut short on purpose (an ellipsis) are the layout's own."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page as PwPage

from scorekeeper.web.languages import COOKIE, DEFAULT, LANGUAGES

from .site import Page

#: Every box whose text runs past its edge, and every text that runs off the screen: in the
#: page's script, so that one call reads a page. Folds are opened first.
OVERFLOWING = """() => {
    for (const fold of document.querySelectorAll('details')) fold.open = true;
    const width = document.documentElement.clientWidth;
    const found = [];
    const page = document.scrollingElement.scrollWidth;
    if (page > width + 1) found.push(`the page scrolls sideways: ${page} px wide`);
    const scrolled = (el) => {
        for (let at = el; at && at !== document.body; at = at.parentElement) {
            const x = getComputedStyle(at).overflowX;
            if (x === 'auto' || x === 'scroll') return true;
        }
        return false;
    };
    const said = (el) => `${el.tagName.toLowerCase()}${el.className ? '.' + [...el.classList].join('.') : ''} `
        + `"${el.textContent.replace(/\\s+/g, ' ').trim().slice(0, 60)}"`;
    const boxes = 'button, a, label, th, td, h1, h2, h3, p, li, dt, dd, summary, legend, output, .key, .tag';
    for (const el of document.querySelectorAll(boxes)) {
        if (!el.checkVisibility() || el.closest('.visually-hidden') || scrolled(el)) continue;
        const style = getComputedStyle(el);
        if (style.display === 'inline' || style.textOverflow === 'ellipsis' || el.clientWidth === 0) continue;
        if (el.scrollWidth > el.clientWidth + 1) found.push(`${said(el)}: ${el.scrollWidth} px in ${el.clientWidth}`);
    }
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!node.data.trim() || !parent || parent.closest('script, style, template, noscript, .visually-hidden')) continue;
        // A word kept for a screen reader only (clipped to a pixel) is on no one's screen.
        if (!parent.checkVisibility() || scrolled(parent) || parent.getBoundingClientRect().width <= 1) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const box = range.getBoundingClientRect();
        if (box.width && (box.left < -1 || box.right > width + 1)) found.push(`${said(parent)} runs off the screen`);
    }
    return found;
}"""


@pytest.mark.slow  # every page of a language in one test
@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != DEFAULT])
def test_every_word_fits_its_place_at_390_px(language, page: PwPage, context, quality_server, pages: list[Page],
                                             editor_cookie, artifacts_dir):
    context.add_cookies([{"name": COOKIE, "value": language, "url": quality_server}])
    found = {}
    # The pages an address opens (a posted state is reached by tapping English words).
    for spec in (p for p in pages if p.form is None and p.whole and not p.follow):
        context.clear_cookies(name="session")
        if spec.editor:
            context.add_cookies([{"name": "session", "value": editor_cookie, "url": quality_server}])
        response = page.goto(quality_server + spec.path)
        assert response is not None and response.status == spec.status, (spec.path, response and response.status)
        assert page.evaluate("document.documentElement.lang") == language, spec.path
        overflowing = page.evaluate(OVERFLOWING)
        if overflowing:
            found[spec.name] = overflowing
            page.screenshot(path=str(artifacts_dir / f"fit-{spec.name}-{language}.png"), full_page=True)
    assert not found, "\n".join(f"{name}: {problems}" for name, problems in found.items())
