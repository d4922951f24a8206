"""What makes the app feel installed on a phone: manifest, service worker, offline page."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, make_response, redirect, render_template, url_for
from scorekeeper.web.languages import gettext

from scorekeeper.web.assets import script_modules

bp = Blueprint("pwa", __name__)


def shell_urls() -> list[str]:
    """The app shell the service worker keeps, so a lost signal shows our page, not the browser's."""
    version = current_app.config["HTMX_VERSION"]
    return [
        url_for("pwa.offline"),
        url_for("static", filename="app.css"),
        *script_modules(),
        url_for("static", filename="outbox-db.js"),
        url_for("static", filename=f"vendor/htmx-{version}.min.js"),
        url_for("static", filename="htmx-fallback.js"),
        url_for("static", filename="icons/icon-192.png"),
    ]


@bp.get("/manifest.webmanifest")
def manifest():
    response = jsonify(
        {
            "name": "Scorekeeper",
            "short_name": "Scorekeeper",
            "description": gettext("Keep score for contract rummy at the card table"),
            "start_url": url_for("games.index"),
            "scope": "/",
            "display": "standalone",
            "background_color": "#f7f5ef",
            "theme_color": "#0b5d3b",
            "icons": [
                {"src": url_for("static", filename="icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
                {"src": url_for("static", filename="icons/icon-512.png"), "sizes": "512x512", "type": "image/png",
                 "purpose": "any maskable"},
            ],
        }
    )
    response.mimetype = "application/manifest+json"
    return response


@bp.get("/sw.js")
def service_worker():
    body = render_template("sw.js", shell=shell_urls(), offline=url_for("pwa.offline"),
                           outbox_db=url_for("static", filename="outbox-db.js"))
    response = make_response(body)
    response.mimetype = "text/javascript"
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/offline")
def offline():
    return render_template("offline.html", layout="base.html")


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico on their own (a page that failed to load has no icon link)."""
    return redirect(url_for("static", filename="icons/icon-192.png"), code=301)
