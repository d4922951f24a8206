"""The Nu HTML checker finds no error in any page or htmx fragment the app serves, in any of its
languages.

Every page of the catalogue (site.py) is fetched with Flask's test client as the server sends
it: the whole page, and the fragment an htmx request gets (``HX-Request: true``), which is
checked inside the smallest document it is swapped into (vnu.as_document). Each page is fetched
again in every other language the app speaks (a translation may carry markup, or break it):
whole, or as its fragment where it has no whole page; a fragment is its page's main part without
the layout, so the words a language puts in it are checked in the whole page. Form states are
POSTed with the form's CSRF token. A language's files go to test-artifacts/quality/html/LANG/, a
file a page (``scoreboard-balmoral.de.html``), and vnu checks every language's in one run: its
start (the JVM and the HTML schema) costs about two CPU-seconds, as much as checking a hundred
pages, so a run a language spent four of them more. A problem is reported by its page and
language. htmx's hx-* attributes are filtered by exactly one message pattern (see vnu.py).
"""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import close, join, make_app, make_keeper

from scorekeeper.web.languages import DEFAULT, LANGUAGES

from . import vnu
from .site import Page, csrf_token, take_a_seat

HX = {"HX-Request": "true"}
#: English first: the language of the pages the other gates check.
SPOKEN = [DEFAULT, *sorted(set(LANGUAGES) - {DEFAULT})]


def fetch(client, page: Page, htmx: bool, lang: str = DEFAULT) -> str:
    headers = {**(HX if htmx else {}), "Accept-Language": lang}
    if page.form is None:
        response = client.get(page.path, headers=headers, follow_redirects=page.follow)
        if page.follow and htmx and "HX-Location" in response.headers:
            # htmx's redirect: a 204 naming the address htmx then fetches into #main.
            response = client.get(json.loads(response.headers["HX-Location"])["path"], headers=headers)
    else:
        token = csrf_token(client.get(page.token_from, headers={"Accept-Language": lang}).get_data(as_text=True))
        data = {**page.form, "csrf_token": token}
        if page.files:
            # A fresh stream for each request: the catalogue's is read once.
            data.update({k: (type(f)(f.getvalue()), n) for k, (f, n) in page.files.items()})
        response = client.post(page.path, data=data, headers=headers,
                               content_type="multipart/form-data" if page.files else None)
    assert response.status_code == page.status, (page.name, lang, htmx, response.status_code)
    assert response.mimetype == "text/html", (page.name, lang, response.mimetype)
    body = response.get_data(as_text=True)
    if not htmx:
        assert f'<html lang="{lang}">' in body, (page.name, lang)
    return body


def written_in(lang: str, html_dir, quality_app, pages, seeded, empty_app, tmp_path,
               labels: dict[str, str]) -> list:
    """Every page and fragment in ``lang``, as files of ``html_dir``/LANG; ``labels`` learns
    what each file holds (its page and language, as a failure names them)."""
    folder = html_dir / lang
    folder.mkdir(parents=True)
    editor = make_keeper(quality_app.test_client())
    for game_id, key in seeded.keys.items():
        join(editor, game_id, key)
    take_a_seat(editor, seeded)
    files = []

    def write(name: str, text: str, fragment: bool = False):
        path = folder / f"{name}{'.fragment' if fragment else ''}.{lang}.html"
        path.write_text(text, encoding="utf-8")
        files.append(path)
        labels[path.name] = f"{name}{' (htmx fragment)' if fragment else ''} in {lang}"

    for page in pages:
        client = editor if page.editor else quality_app.test_client()
        client.get("/offline")  # no flash message left over from an earlier page (the cheapest page shows it)
        if page.whole:
            write(page.name, fetch(client, page, htmx=False, lang=lang))
        # A fragment is its page's main part without the layout: the words another language
        # puts in it are checked in the whole page, so only a page with no other form is
        # fetched as a fragment in every language.
        if page.fragment and (lang == DEFAULT or not page.whole):
            write(page.name, vnu.as_document(fetch(client, page, htmx=True, lang=lang), page.name, lang),
                  fragment=True)
    empty = empty_app.test_client()
    for path in ("/", "/history", "/players/", "/games/new"):
        name = "empty" + path.replace("/", "-").rstrip("-")
        write(name, fetch(empty, Page(name, path), htmx=False, lang=lang))
    if lang == DEFAULT:
        # base.html's other branch: the CDN tag with its integrity hash and the local fallback
        # (the same in every language).
        cdn_app = make_app(tmp_path, "cdn.sqlite", USE_CDN=True)
        try:
            body = fetch(cdn_app.test_client(), Page("index-cdn", "/"), htmx=False)
            assert 'integrity="sha384-' in body
            write("index-cdn", body)
        finally:
            close(cdn_app)
        assert len(files) > 2 * len(pages) - 10
    else:
        assert len(files) > len(pages) - 5
    return files


@pytest.mark.slow
def test_every_page_and_fragment_is_valid_html_in_every_language(quality_app, pages, seeded, empty_app,
                                                                  artifacts_dir, tmp_path):
    html_dir = artifacts_dir / "html"
    shutil.rmtree(html_dir, ignore_errors=True)
    labels: dict[str, str] = {}
    files = [f for lang in SPOKEN
             for f in written_in(lang, html_dir, quality_app, pages, seeded, empty_app, tmp_path, labels)]
    report = vnu.check(files)
    assert report.ok, f"vnu found {len(report.problems)} problem(s) in {len(files)} files " \
                      f"(kept in {html_dir}):\n" + summary(report.problems, labels)


def test_a_problem_is_named_by_its_page_and_language():
    problems = ["history.de.html:12: error: Duplicate ID “x”.   ⟨<p id=\"x\">⟩",
                "history.fragment.fi.html:9: error: Duplicate ID “x”.   ⟨<p id=\"x\">⟩"]
    said = summary(problems, {"history.de.html": "history in de", "history.fragment.fi.html":
                              "history (htmx fragment) in fi"})
    assert "Duplicate ID “x”.  [2×]" in said
    assert "history in de, line 12" in said and "history (htmx fragment) in fi, line 9" in said


def summary(problems: list[str], labels: dict[str, str] | None = None, shown: int = 3) -> str:
    """One entry per distinct message, with where it first occurs (the page and its language, by
    ``labels``: a file's name to them): one mistake can be on 40 pages, or in one language."""
    by_message: dict[str, list[str]] = {}
    for p in problems:
        where, _, message = p.partition(": ")
        file, _, line = where.partition(":")
        if labels and file in labels:
            where = f"{labels[file]}, line {line}"
        by_message.setdefault(message.split("   ⟨")[0], []).append(f"{where}   ⟨{message.partition('   ⟨')[2]}")
    out = []
    for message, places in by_message.items():
        out.append(f"{message}  [{len(places)}×]")
        out += [f"    {place}" for place in places[:shown]]
    return "\n".join(out)
