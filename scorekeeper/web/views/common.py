"""What every view shares: page-or-fragment rendering from one template."""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable

from flask import Response, current_app, g, make_response, redirect, render_template, request, session
from flask_wtf.csrf import generate_csrf

from scorekeeper.web import kept
from scorekeeper.web.assets import encodings, vary_on
from scorekeeper.store.database import club_version


def is_htmx() -> bool:
    """An htmx request that swaps a fragment into ``#main``: not a boosted link, and not htmx's
    restore of a page from history (that one replaces the whole body: it gets the whole page)."""
    # Read from the WSGI environ: through ``request.headers`` each header a request lacks (most
    # lack these) costs an exception raised and caught, and every page asks this more than once.
    environ = request.environ
    return (environ.get("HTTP_HX_REQUEST") == "true" and environ.get("HTTP_HX_BOOSTED") != "true"
            and environ.get("HTTP_HX_HISTORY_RESTORE_REQUEST") != "true")


def render(template: str, status: int = 200, push_url: str | None = None, keep: Hashable | None = None,
           **context) -> Response:
    """The whole page for a normal request, the ``#main`` fragment for htmx.

    With ``keep``, a page rendered with status 200 and no flashed message is also kept
    rendered under that key (:mod:`scorekeeper.web.kept`), for :func:`kept_page` to serve again.
    """
    layout = "fragment.html" if is_htmx() else "base.html"
    keeping = keep is not None and status == 200 and not session.get("_flashes")
    token = form_token() if keeping else None
    html = render_template(template, layout=layout, **context)
    if keeping:
        kept.keep((layout, keep), html, token)
        response = _sent((layout, keep, token), lambda: html)
    else:
        response = make_response(html, status)
    if push_url and is_htmx():
        response.headers["HX-Push-Url"] = push_url
    return response


def kept_page(key: Hashable | None) -> Response | None:
    """The page :func:`render` kept under ``key``, for this browser; None if there is none.

    The key must stand for everything the page shows: the caller builds it from the version
    numbers read from the database (a game's, or the club's: :func:`page_key`); None means
    "do not keep".
    """
    if key is None or session.get("_flashes"):
        return None
    layout = "fragment.html" if is_htmx() else "base.html"
    token = form_token()
    return _sent((layout, key, token), lambda: kept.kept((layout, key), token))


def _sent(key: Hashable, html_of: Callable[[], str | None]) -> Response | None:
    """A kept page as this browser gets it, compressed once per browser (kept.packed); None
    if it is not kept."""
    found = kept.packed(key, html_of)
    if found is None:
        return None
    body, encoding = found
    response = make_response(body, 200)
    if encoding is not None:
        response.headers["Content-Encoding"] = encoding
    return response


def set_etag(response: Response, etag: str) -> None:
    """The response's ETag; a body sent compressed has one of its own, the encoding after a
    colon, as Flask-Compress gives every body it compresses (:func:`held`)."""
    encoding = response.headers.get("Content-Encoding")
    response.set_etag(f"{etag}:{encoding}" if encoding else etag)


def form_token() -> str:
    """This browser's form token, as Flask-WTF's ``csrf_token()`` gives it to the templates.

    Flask-WTF signs the session's token afresh for every page (an HMAC, a tenth of a kept
    page's cost); with no time limit on tokens (``WTF_CSRF_TIME_LIMIT = None``) any one
    signature stays valid, so each session token is signed once per process.
    """
    name = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    raw = session.get(name)
    signatures = kept.of_app("form tokens", 2048)
    signed = signatures.get(raw) if isinstance(raw, str) else None
    if signed is None or current_app.config.get("WTF_CSRF_TIME_LIMIT", 3600) is not None:
        signed = generate_csrf()
        if current_app.config.get("WTF_CSRF_TIME_LIMIT", 3600) is None:
            signatures.put(session[name], signed)
    else:
        setattr(g, name, signed)  # what generate_csrf() (and so csrf_token()) gives in this request
    return signed



def held(etag: str) -> str | None:
    """The validator this browser holds for what ``etag`` stands for, from its If-None-Match
    (None if it holds none): the view then answers 304 before working anything out.

    A compressed body is not the same bytes as the page, so it has an ETag of its own, the
    view's with the encoding after a colon (``"g5-v16-se...:br"``: Flask-Compress's way, and
    :func:`set_etag`'s for a kept page), and that is the one a phone sends back."""
    if "HTTP_IF_NONE_MATCH" not in request.environ:
        return None  # most requests: nothing held, nothing to parse
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


def page_key(*parts: Hashable) -> tuple | None:
    """A key for a page of many games: the club's version now, the address and its query."""
    version = club_version()
    if version is None:
        return None
    return (request.path, tuple(sorted(request.args.items(multi=True))), version, *parts)


def go(url: str) -> Response:
    """After a change: a redirect for a full page, an htmx client-side navigation for htmx."""
    if is_htmx():
        response = make_response("", 204)
        response.headers["HX-Location"] = json.dumps({"path": url, "target": "#main"})
        return response
    return redirect(url, code=303)


def add_vary(response: Response) -> Response:
    return vary_on(response, "HX-Request")


def no_store(response: Response) -> Response:
    """For a page that shows an edit or club key: no cache keeps it (browser, proxy, the service
    worker: see templates/sw.js), and no address of it goes on in a Referer."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def key_page(template: str, status: int = 200, prefilled: str = "", **context) -> Response:
    """A page with a form that takes a key (``_macros.html``'s ``key_form``), never kept."""
    return no_store(render(template, status, prefilled=prefilled, **context))
