"""What every view shares: page-or-fragment rendering from one template."""

from __future__ import annotations

import json

from flask import Response, abort, current_app, make_response, redirect, render_template, request

from scorekeeper.store import MAX_ID
from scorekeeper.web.assets import encodings


def whole_number(text: str) -> int:
    """A number a phone sends (``?v=``, a form's version) in ASCII digits only, for
    ``request.args.get(..., type=whole_number)``: "١٢", " 7" and "+7" are no number here
    (``int`` reads them all), and a ValueError makes the value None.

    >>> whole_number("12")
    12
    """
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise ValueError(f"not a whole number in ASCII digits: {text[:20]!r}")
    return int(text)


def is_htmx() -> bool:
    """An htmx request that swaps a fragment into ``#main``: not a boosted link, and not htmx's
    restore of a page from history (that one replaces the whole body: it gets the whole page)."""
    headers = request.headers
    return (headers.get("HX-Request") == "true" and headers.get("HX-Boosted") != "true"
            and headers.get("HX-History-Restore-Request") != "true")


def render(template: str, status: int = 200, push_url: str | None = None, **context) -> Response:
    """The whole page for a normal request, the ``#main`` fragment for htmx."""
    layout = "fragment.html" if is_htmx() else "base.html"
    response = make_response(render_template(template, layout=layout, **context), status)
    if push_url and is_htmx():
        response.headers["HX-Push-Url"] = push_url
    return response


def held(etag: str) -> str | None:
    """The validator this browser holds for what ``etag`` stands for, from its If-None-Match
    (None if it holds none): the view then answers 304 before working anything out.

    A compressed body is not the same bytes as the page, so Flask-Compress gives it an ETag of
    its own, the view's with the encoding after a colon (``"g5-v16-se...:br"``), and that is
    the one a phone sends back."""
    holds = request.if_none_match
    if not holds:
        return None
    for candidate in (etag, *(f"{etag}:{encoding}" for encoding in encodings(current_app))):
        if candidate in holds:
            return candidate
    return None


def unencoded(etag: str) -> str:
    """An ETag a client sends back (``If-Match``) as the view made it: without the encoding
    after it (:func:`held`)."""
    head, colon, encoding = etag.rpartition(":")
    return head if colon and encoding in encodings(current_app) else etag


def go(url: str) -> Response:
    """After a change: a redirect for a full page, an htmx client-side navigation for htmx."""
    if is_htmx():
        response = make_response("", 204)
        response.headers["HX-Location"] = json.dumps({"path": url, "target": "#main"})
        return response
    return redirect(url, code=303)


def add_vary(response: Response) -> Response:
    # A page and its htmx fragment share an address: a cache must tell them apart.
    response.vary.add("HX-Request")
    if request.endpoint != "static" and request.blueprint != "api":
        # A page is in the reader's language: their choice (a cookie), else Accept-Language.
        # (The API answers in canonical data, and static files are the same for everyone.)
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def no_store(response: Response) -> Response:
    """For a page that shows an edit or club key: no cache keeps it (browser, proxy, the service
    worker: see templates/sw.js), and no address of it goes to another site in a Referer.

    ``same-origin``, not ``no-referrer``: the page's own form (a key link posts itself) must
    carry a Referer from this host, or Flask-WTF refuses it over HTTPS. The key is never in
    that Referer: links carry it after "#", which no Referer holds, and an old "?key=" link
    drops it from the address (static/keylink.js) before the form is sent."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "same-origin"
    return response


def key_page(template: str, status: int = 200, prefilled: str = "", **context) -> Response:
    """A page with a form that takes a key (``_macros.html``'s ``key_form``)."""
    return no_store(render(template, status, prefilled=prefilled, **context))


def no_huge_ids(endpoint: str | None, values: dict | None) -> None:
    """A blueprint's URL preprocessor: ``/games/99999999999999999999/story`` is a 404, not a 500."""
    for value in (values or {}).values():
        if isinstance(value, int) and not 0 <= value <= MAX_ID:
            abort(404)


def positive_int(value: str | None, default: int | None = None) -> int | None:
    """A whole number from a query string (ASCII digits only), or ``default`` when absent.

    Raises ``ValueError`` for anything else, so a bad address is answered, not guessed.
    """
    if value is None or value == "":
        if default is None:
            raise ValueError("missing")
        return default
    if not (value.isascii() and value.isdigit()) or len(value) > 9 or int(value) < 1:
        raise ValueError(value)
    return int(value)


def download(body: str | bytes, filename: str, mimetype: str):
    response = make_response(body)
    response.mimetype = mimetype
    response.charset = "utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
