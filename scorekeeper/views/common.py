"""What every view shares: page-or-fragment rendering from one template."""

from __future__ import annotations

import json
from collections.abc import Hashable

from flask import Response, current_app, g, make_response, redirect, render_template, request, session
from flask_wtf.csrf import generate_csrf

from ..assets import keep_packed
from ..database import changes
from ..replays import memory

#: Pages kept, rendered, per process (a few KB each).
PAGES_KEPT = 512
#: Stands for this browser's form token in a kept page.
_TOKEN_HOLE = "\x00csrf-token\x00"


def is_htmx() -> bool:
    """An htmx request that swaps a fragment into ``#main``: not a boosted link, and not htmx's
    restore of a page from history (that one replaces the whole body: it gets the whole page)."""
    headers = request.headers
    return (headers.get("HX-Request") == "true" and headers.get("HX-Boosted") != "true"
            and headers.get("HX-History-Restore-Request") != "true")


def render(template: str, status: int = 200, push_url: str | None = None, keep: Hashable | None = None,
           **context) -> Response:
    """The whole page for a normal request, the ``#main`` fragment for htmx.

    With ``keep``, a page rendered with status 200 is also kept under that key, for
    :func:`kept_page` to serve again (see there).
    """
    layout = "fragment.html" if is_htmx() else "base.html"
    keeping = keep is not None and status == 200 and not session.get("_flashes")
    token = form_token() if keeping else _known_form_token()
    html = render_template(template, layout=layout, **context)
    if keeping:
        memory().cache("pages", PAGES_KEPT).put((layout, keep), html.replace(token, _TOKEN_HOLE))
        keep_packed(repr((layout, keep, token)))
    response = make_response(html, status)
    if push_url and is_htmx():
        response.headers["HX-Push-Url"] = push_url
    return response


def kept_page(key: Hashable | None) -> Response | None:
    """A page :func:`render` kept under ``key``, for this browser; None if there is none.

    The key must stand for everything the page shows: the caller builds it from the
    versions of the games shown, or from the database's generation
    (:data:`scorekeeper.database.changes`), and None means "do not keep". A kept page is
    the same for every browser but for the form token (each browser's own is put back in)
    and the messages flashed to it (a page that shows any is neither kept nor served).
    """
    if key is None or session.get("_flashes"):
        return None
    layout = "fragment.html" if is_htmx() else "base.html"
    page = memory().cache("pages", PAGES_KEPT).get((layout, key))
    if page is None:
        return None
    token = form_token()
    keep_packed(repr((layout, key, token)))
    return make_response(page.replace(_TOKEN_HOLE, token), 200)


def form_token() -> str:
    """This browser's form token, as Flask-WTF's ``csrf_token()`` gives it to the templates.

    Flask-WTF signs the session's token afresh for every page (an HMAC); with no time limit
    on tokens (``WTF_CSRF_TIME_LIMIT = None``) one signature stays valid, so it is made once
    per process for each browser's token and handed to Flask-WTF for the request.
    """
    known = _known_form_token()
    if known is not None:
        return known
    signed = generate_csrf()
    name = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    if current_app.config.get("WTF_CSRF_TIME_LIMIT", 3600) is None:
        memory().cache("form tokens", 2048).put(session[name], signed)
    return signed


def _known_form_token() -> str | None:
    """The signed token already made for this browser's session token (then Flask-WTF gives
    the templates that one), or None."""
    name = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    if name in g:
        return g.get(name)
    if current_app.config.get("WTF_CSRF_TIME_LIMIT", 3600) is not None:
        return None
    raw = session.get(name)
    signed = memory().cache("form tokens", 2048).get(raw) if isinstance(raw, str) else None
    if signed is not None:
        setattr(g, name, signed)
    return signed


def page_key(*parts: Hashable) -> tuple | None:
    """A key for :func:`render` and :func:`kept_page` from the database's generation, the
    address and its query (None where the generation is unknown: then nothing is kept)."""
    generation = changes.current()
    if generation is None:
        return None
    return (request.path, tuple(sorted(request.args.items(multi=True))), generation, *parts)


def go(url: str) -> Response:
    """After a change: a redirect for a full page, an htmx client-side navigation for htmx."""
    if is_htmx():
        response = make_response("", 204)
        response.headers["HX-Location"] = json.dumps({"path": url, "target": "#main"})
        return response
    return redirect(url, code=303)


def add_vary(response: Response) -> Response:
    vary = response.headers.get("Vary")
    if not vary:
        response.headers["Vary"] = "HX-Request"
    elif "hx-request" not in vary.lower():
        response.headers["Vary"] = f"{vary}, HX-Request"
    return response


def no_store(response: Response) -> Response:
    """For a page that shows an edit or club key: no cache keeps it (browser, proxy, the service
    worker: see templates/sw.js), and no address of it goes on in a Referer."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def key_page(template: str, status: int = 200, prefilled: str = "", **context) -> Response:
    """A page with a form that takes a key (``_macros.html``'s ``key_form``), never kept."""
    return no_store(render(template, status, prefilled=prefilled, **context))
