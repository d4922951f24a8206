"""Every word a page shows comes from the catalogue: the pseudo-locale check.

A pseudo catalogue is made from ``messages.pot`` when the test starts: each message's
translation is the message itself with its letters accented and wrapped in ⟦ ⟧ (its blanks,
``%(name)s`` and ``{name}``, its HTML and its entities kept as they are, plurals too). It is
compiled for ``en`` into a folder of its own, which one seeded app reads in place of the
shipped catalogues (``BABEL_TRANSLATION_DIRECTORIES``). Chromium opens every page of
``site.py`` at a phone's size, folds opened; whatever text it shows outside the brackets is a
word that never went through the catalogue, unless it is the table's own: a player's name, a
house rule set's words, a card's letter, a number, the app's name.

The same page, as it is, is held to test_fit's check that every word fits its box at 390 px. The
pseudo language is English made longer (every letter accented, about as wide, and every message
two brackets longer), so a box its words fit, the English words fit too: English is checked here
rather than every page loaded again for it in test_fit, which checks the other languages.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from conftest import close, join, make_app, make_keeper

from .conftest import serve
from .site import NAMES, Page, Seeded, catalogue, seed, take_a_seat
from .test_fit import OVERFLOWING

POT = Path(__file__).resolve().parents[2] / "scorekeeper" / "web" / "translations" / "messages.pot"


#: What a message keeps as it is: its blanks, its markup and its entities.
KEPT = re.compile(r"%\(\w+\)[sd]|%[sd%]|\{\w*\}|<[^>]*>|&[#\w]+;")
ACCENTED = dict(zip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                    "àƀçđéƒĝĥîĵķĺɱñöƥʠŕšţûʋŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖƤɊŔŠŢÛṼŴẊÝŽ", strict=True))
OPEN, CLOSE = "\u27e6", "\u27e7"


def pseudo(text: str) -> str:
    """A message as the pseudo language says it: "⟦Ŕöûñđ %(number)s⟧"."""
    if not text:
        return text
    out, at = [], 0
    for kept in KEPT.finditer(text):
        out.append("".join(ACCENTED.get(ch, ch) for ch in text[at:kept.start()]))
        out.append(kept.group())
        at = kept.end()
    out.append("".join(ACCENTED.get(ch, ch) for ch in text[at:]))
    return f"{OPEN}{''.join(out)}{CLOSE}"


def pseudo_catalogue(folder: Path) -> Path:
    """The catalogue of the code and the templates, in the pseudo language, compiled for ``en``."""
    with open(POT, "rb") as pot:
        template = read_po(pot)
    compiled = Catalog(locale="en")
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            string: str | tuple[str, ...] = tuple(pseudo(form) for form in message.id)
        else:
            string = pseudo(message.id)
        compiled.add(message.id, string, context=message.context)
    target = folder / "en" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with open(target / "messages.mo", "wb") as mo:
        write_mo(mo, compiled)
    return folder


def test_the_pseudo_language_keeps_blanks_markup_and_plurals():
    assert pseudo("Round %(number)s") == "⟦Ŕöûñđ %(number)s⟧"
    assert pseudo("{name}: {card}?") == "⟦{name}: {card}?⟧"
    assert pseudo('<a href="%(url)s">the club&rsquo;s</a>') == '⟦<a href="%(url)s">ţĥé çĺûƀ&rsquo;š</a>⟧'


# ---------------------------------------------------------------- the app in the pseudo language


@pytest.fixture(scope="module")
def pseudo_app(tmp_path_factory):
    folder = pseudo_catalogue(tmp_path_factory.mktemp("pseudo-catalogue"))
    app = make_app(tmp_path_factory.mktemp("pseudo"), "pseudo.sqlite", SECRET_KEY="quality", USE_CDN=False,
                   BABEL_TRANSLATION_DIRECTORIES=str(folder))
    yield app
    close(app)


@pytest.fixture(scope="module")
def pseudo_site(pseudo_app):
    seeded = seed(pseudo_app)
    srv, url = serve(pseudo_app)
    yield pseudo_app, seeded, url
    srv.shutdown()


@pytest.fixture(scope="module")
def pseudo_cookie(pseudo_site) -> str:
    """The session of the phone that keeps score for every seeded game, the club's keeper's."""
    app, seeded, _ = pseudo_site
    client = make_keeper(app.test_client())
    for game_id, key in seeded.keys.items():
        assert join(client, game_id, key).status_code == 303
    take_a_seat(client, seeded)
    client.get("/")  # shows (and so drops) the flash messages the joins left
    return client.get_cookie("session").value


@pytest.fixture(scope="module")
def phone(browser, browser_context_args):
    """One phone for every page (the pages differ only in the session cookie they are given)."""
    context = browser.new_context(**{**browser_context_args, "service_workers": "block"})
    yield context.new_page()
    context.close()


@pytest.fixture(scope="module")
def table_words(pseudo_site) -> set[str]:
    """The words a page may show as the table wrote them: the players' names, the house rule
    set's words (its author's, never translated), the app's name, the languages' names (each
    in itself, on the language page), the cards' letters, the day and month names of an
    English date (written by the calendar, not the catalogue) and the endings of English
    ordinals ("1st": written by web.languages.ordinal with the language's plural rules)."""
    app, seeded, _ = pseudo_site
    from scorekeeper import store

    with app.app_context():
        document = store.get_ruleset(seeded.house).document
    house = [document["name"], document["stage_name"], document["note"],
             *(stage["contract"] for stage in document["stages"]),
             *(bonus["label"] for bonus in document["bonuses"])]
    words = set()
    for text in (*NAMES, "Zoë, who watches", *house, "Scorekeeper", "X",  # a card typed that is none
                 "again.json",  # the name of a file imported, as its owner named it
                 "Deutsch English Español Français Suomi DE EN ES FR FI",
                 "A K Q J JK S W",
                 "Mon Tue Wed Thu Fri Sat Sun Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec",
                 "st nd rd th"):
        words.update(LETTERS.findall(text))
    # A house stage word in the plural, as an English line counts them ("3 deals").
    words.update(f"{word}s" for word in list(words))
    return {word.casefold() for word in words}


LETTERS = re.compile(r"[^\W\d_]+")
#: An address shown as it is, to be copied or scanned (the share page's links).
ADDRESS = re.compile(r"https?://\S+")
BRACKETED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")

#: Every text node a person sees, in the order of the page, one a line: in the page's
#: script (not in the test), so one call reads a page. Folds are opened first, so what they
#: hold is read too.
VISIBLE_TEXT = """() => {
    for (const fold of document.querySelectorAll('details')) fold.open = true;
    const seen = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!node.data.trim() || !parent || parent.closest('script, style, template, noscript')) continue;
        if (!parent.checkVisibility({visibilityProperty: true, opacityProperty: false})) continue;
        seen.push(node.data.replace(/\\s+/g, ' ').trim());
    }
    return [document.title, ...seen].join('\\n');
}"""


def left_over(text: str, allowed: set[str]) -> list[str]:
    """The lines of a page's text that hold a word outside the brackets, the table's own aside."""
    while BRACKETED.search(text):  # innermost first: a message may hold another in a blank
        text = BRACKETED.sub(" ", text)
    text = ADDRESS.sub(" ", text)
    return [line.strip() for line in text.splitlines()
            if any(word.casefold() not in allowed for word in LETTERS.findall(line))]


def test_a_page_with_a_word_of_its_own_is_caught():
    allowed = {"ann"}
    assert left_over("⟦Ŕöûñđ 3⟧\nAnn\n⟦<strong>Ann</strong>\nđéàĺš⟧", allowed) == []
    assert left_over("⟦Ŕöûñđ ⟦ñéẋţ⟧ 3⟧ Ann\nSave round 4\n⟦X⟧ went out", allowed) == ["Save round 4", "went out"]
    assert left_over("http://127.0.0.1:5000/games/3/join#key=abc", allowed) == []


def reach(page, base: str, spec: Page) -> None:
    """Open a page's state as a phone reaches it: a GET, or its form posted from the page that
    carries its token (without the page's script, so no word of the test's is needed to find a
    button)."""
    if spec.form is None:
        response = page.goto(base + spec.path)
        assert response is not None and response.status == spec.status, (spec.path, response and response.status)
        return
    page.goto(base + spec.token_from)
    if spec.files:
        page.locator("input[type=file]").set_input_files(
            files=[{"name": name, "mimeType": "application/json", "buffer": body.getvalue()}
                   for body, name in spec.files.values()])
        with page.expect_navigation():
            page.evaluate("() => document.querySelector('input[type=file]').form.submit()")
        return
    with page.expect_navigation():
        page.evaluate("""([action, fields]) => {
            const form = document.createElement('form');
            form.method = 'post';
            form.action = action;
            const token = document.querySelector('input[name=csrf_token]');
            for (const [name, value] of Object.entries({...fields, csrf_token: token.value})) {
                const input = document.createElement('input');
                input.type = 'hidden';
                input.name = name;
                input.value = value;
                form.append(input);
            }
            document.body.append(form);
            form.submit();
        }""", [spec.path, spec.form])


PAGES = [p for p in catalogue(Seeded()) if p.whole]


@pytest.mark.parametrize("name", [p.name for p in PAGES])
def test_every_word_a_page_shows_comes_from_the_catalogue(name, phone, pseudo_site, pseudo_cookie, table_words):
    _, seeded, base = pseudo_site
    spec = next(p for p in catalogue(seeded) if p.name == name)
    phone.context.clear_cookies()
    if spec.editor:
        phone.context.add_cookies([{"name": "session", "value": pseudo_cookie, "url": base}])
    reach(phone, base, spec)
    phone.wait_for_load_state("load")
    untranslated = left_over(phone.evaluate(VISIBLE_TEXT), table_words)
    assert not untranslated, f"{name} ({spec.path}) shows words outside the catalogue:\n" + "\n".join(untranslated)
    overflowing = phone.evaluate(OVERFLOWING)
    assert not overflowing, f"{name} ({spec.path}): words that do not fit at 390 px:\n" + "\n".join(overflowing)
