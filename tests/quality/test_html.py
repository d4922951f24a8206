"""The Nu HTML checker finds no error in any page or htmx fragment the app serves.

Every page of the catalogue (site.py) is fetched with Flask's test client as the server sends
it: the whole page, and the fragment an htmx request gets (``HX-Request: true``), which is
checked inside the smallest document it is swapped into (vnu.as_document). Form states are
POSTed with the form's CSRF token. All files go to test-artifacts/quality/html/ and vnu checks
them in one run (a JVM start is ~2 s); htmx's hx-* attributes are filtered by exactly one
message pattern (see vnu.py).
"""

from __future__ import annotations

import json
import shutil

import pytest

from conftest import close, join, make_app, make_keeper

from . import vnu
from .site import Page, csrf_token, take_a_seat

HX = {"HX-Request": "true"}


def fetch(client, page: Page, htmx: bool) -> str:
    headers = HX if htmx else {}
    if page.form is None:
        response = client.get(page.path, headers=headers, follow_redirects=page.follow)
        if page.follow and htmx and "HX-Location" in response.headers:
            # htmx's redirect: a 204 naming the address htmx then fetches into #main.
            response = client.get(json.loads(response.headers["HX-Location"])["path"], headers=headers)
    else:
        token = csrf_token(client.get(page.token_from).get_data(as_text=True))
        data = {**page.form, "csrf_token": token}
        if page.files:
            # A fresh stream for each request: the catalogue's is read once.
            data.update({k: (type(f)(f.getvalue()), n) for k, (f, n) in page.files.items()})
        response = client.post(page.path, data=data, headers=headers,
                               content_type="multipart/form-data" if page.files else None)
    assert response.status_code == page.status, (page.name, htmx, response.status_code)
    assert response.mimetype == "text/html", (page.name, response.mimetype)
    return response.get_data(as_text=True)


@pytest.fixture
def html_dir(artifacts_dir):
    path = artifacts_dir / "html"
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir()
    return path


def test_every_page_and_fragment_is_valid_html(quality_app, pages, seeded, empty_app, html_dir, tmp_path):
    editor = make_keeper(quality_app.test_client())
    for game_id, key in seeded.keys.items():
        join(editor, game_id, key)
    take_a_seat(editor, seeded)
    files = []

    def write(name: str, text: str):
        path = html_dir / f"{name}.html"
        path.write_text(text, encoding="utf-8")
        files.append(path)

    for page in pages:
        client = editor if page.editor else quality_app.test_client()
        client.get("/")  # no flash message left over from an earlier page
        if page.whole:
            write(page.name, fetch(client, page, htmx=False))
        if page.fragment:
            write(f"{page.name}.fragment", vnu.as_document(fetch(client, page, htmx=True), page.name))
    empty = empty_app.test_client()
    for path in ("/", "/history", "/players/", "/games/new"):
        name = "empty" + path.replace("/", "-").rstrip("-")
        write(name, fetch(empty, Page(name, path), htmx=False))
    # base.html's other branch: the CDN tag with its integrity hash and the local fallback.
    cdn_app = make_app(tmp_path, "cdn.sqlite", USE_CDN=True)
    try:
        body = fetch(cdn_app.test_client(), Page("index-cdn", "/"), htmx=False)
        assert 'integrity="sha384-' in body
        write("index-cdn", body)
    finally:
        close(cdn_app)

    assert len(files) > 2 * len(pages) - 10
    report = vnu.check(files)
    assert report.ok, f"vnu found {len(report.problems)} problem(s) in {len(files)} files " \
                      f"(kept in {html_dir}):\n" + summary(report.problems)


def summary(problems: list[str], shown: int = 3) -> str:
    """One entry per distinct message, with where it first occurs: one mistake can be on 40 pages."""
    by_message: dict[str, list[str]] = {}
    for p in problems:
        where, _, message = p.partition(": ")
        by_message.setdefault(message.split("   ⟨")[0], []).append(f"{where}   ⟨{message.partition('   ⟨')[2]}")
    out = []
    for message, places in by_message.items():
        out.append(f"{message}  [{len(places)}×]")
        out += [f"    {place}" for place in places[:shown]]
    return "\n".join(out)
