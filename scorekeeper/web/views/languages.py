"""The language page: each language named in itself; one tap keeps the choice in a cookie and
goes back to the page the person came from."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, redirect, request

from scorekeeper.web import languages
from scorekeeper.web.forms import ConfirmForm
from scorekeeper.web.views.common import render

bp = Blueprint("languages", __name__)


def _came_from() -> str:
    """The page to go back to: ``?next=``, else the page that linked here (the Referer, on this
    host only), else the home page; only ever a path of this site."""
    wanted = languages.local_path(request.args.get("next"))
    if wanted is None and request.referrer:
        parts = urlsplit(request.referrer)
        if parts.netloc == request.host and parts.path != request.path:
            wanted = languages.local_path(parts.path + (f"?{parts.query}" if parts.query else ""))
    return wanted or "/"


@bp.get("/language")
def choose():
    return render("language.html", languages=languages.LANGUAGES, back=_came_from())


@bp.post("/language")
def set_language():
    if not ConfirmForm().validate_on_submit():
        abort(400)
    code = request.form.get("lang", "")
    if code not in languages.LANGUAGES:
        abort(400)
    # A full page (no htmx here): the menu and <html lang> change with the page.
    response = redirect(languages.local_path(request.form.get("next")) or "/", code=303)
    response.set_cookie(languages.COOKIE, code, max_age=languages.COOKIE_AGE, samesite="Lax",
                        httponly=True, secure=request.is_secure)
    return response
