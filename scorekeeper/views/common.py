"""What every view shares: page-or-fragment rendering from one template."""

from __future__ import annotations

import json

from flask import Response, make_response, redirect, render_template, request


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
