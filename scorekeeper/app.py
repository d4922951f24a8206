"""The application factory."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask

from scorekeeper.store.models import db

#: The package's folder: a wheel carries the templates and static files inside it.
PACKAGE = Path(__file__).resolve().parent

HTMX_VERSION = "2.0.11"
HTMX_SRI = "sha384-2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg"


def shipped_folder(name: str) -> str:
    """Where ``templates`` or ``static`` is: inside the package when installed from a wheel
    (pyproject.toml maps them there), at the top of the checkout, where they are edited, otherwise."""
    inside = PACKAGE / name
    return str(inside if inside.is_dir() else PACKAGE.parent / name)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        # Another instance folder (config, secret key, database) for a second copy or a test.
        instance_path=os.environ.get("SCOREKEEPER_INSTANCE") or None,
        template_folder=shipped_folder("templates"),
        static_folder=shipped_folder("static"),
    )
    instance = Path(app.instance_path)
    from scorekeeper.store.private import private_folder, secret_key

    private_folder(instance)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{instance / 'scorekeeper.sqlite'}",
        # A game lasts hours: a form token must not expire in the middle of it.
        WTF_CSRF_TIME_LIMIT=None,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # The cookie is sent again only when the session changes (a new edit key, a form
        # token), not signed and sent again with every page and every poll; it lasts a year.
        SESSION_REFRESH_EACH_REQUEST=False,
        PERMANENT_SESSION_LIFETIME=timedelta(days=365),
        HTMX_CDN=f"https://cdn.jsdelivr.net/npm/htmx.org@{HTMX_VERSION}/dist/htmx.min.js",
        HTMX_SRI=HTMX_SRI,
        HTMX_VERSION=HTMX_VERSION,
        USE_CDN=True,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env()
    else:
        app.config.from_mapping(test_config)
    local_hosts = os.environ.get("SCOREKEEPER_LOCAL_HOSTS")
    if local_hosts and not app.config.get("TRUSTED_HOSTS") and not app.config.get("PUBLIC_URL"):
        # `make run`: this machine's names and addresses. A request for any other host (a forged
        # Host header, which would go into edit and watch links) is refused with a 400.
        app.config["TRUSTED_HOSTS"] = local_hosts.split(",")
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(instance)

    from scorekeeper.web import assets, clubkey as club, limits, security
    from scorekeeper.store import database

    database.init_app(app)
    security.init_app(app)
    assets.init_app(app)
    # Before the views (and their CSRF check, which reads the form): how often, who may, how much.
    limits.init_app(app)
    club.init_app(app)
    app.before_request(limits.body_limit)
    if app.config.get("PROXY_COUNT"):
        # Behind that many reverse proxies: the client's address (for the limits) and scheme
        # come from their X-Forwarded-For and X-Forwarded-Proto.
        from werkzeug.middleware.proxy_fix import ProxyFix

        hops = int(app.config["PROXY_COUNT"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)

    from scorekeeper.cli import register_cli
    from scorekeeper.web.views import register_views

    from scorekeeper.web import presenters

    app.jinja_env.globals.update(
        result_words=presenters.result_words,
        places=presenters.places,
        leaders=presenters.leaders,
        stages_word=presenters.stages_word,
        round_summary=presenters.round_summary,
        round_cells=presenters.round_cells,
        deck_words=presenters.deck_words,
        card_values=presenters.card_values,
        hand_points=presenters.hand_points,
        card_label=presenters.card_label,
        key_value=presenters.key_value,
        round_points=presenters.round_points,
        bonus_words=presenters.bonus_words,
        signed=presenters.signed,
        dealer_words=presenters.dealer_words,
        game_data=presenters.game_data,
        player_colours=presenters.player_colours,
    )
    app.jinja_env.filters["fromjson"] = json.loads
    app.jinja_env.filters["hash"] = lambda text: hashlib.sha256(str(text).encode()).hexdigest()[:12]
    register_cli(app)
    from scorekeeper import maintenance

    maintenance.register(app)
    register_views(app)
    limits.register(app)
    if app.config.get("WARM_UP", not app.testing):
        warm_up(app)
    return app


def warm_up(app: Flask) -> None:
    """Do before the first request what would otherwise make it slow, once per worker process:
    compile every template, set up the database models, open the first pooled connection, and
    answer one request of each kind of page to itself (the newest game's board, its watch poll,
    history's first and last pages, a player's page, the ratings, a game file), so that SQLAlchemy has compiled every
    statement those pages send (20 to 30 ms on the first use of each page otherwise). Nothing
    those answers rendered is kept: the first request from a phone is worked out and rendered
    as any other is. (`make run` and `make bench` start each gunicorn worker with this; a test
    app, made by the hundred, skips it; and so does a database not upgraded yet, as for the
    `flask db upgrade` that is about to upgrade it.)"""
    import logging

    import math

    from sqlalchemy import func, select
    from sqlalchemy.orm import configure_mappers

    from scorekeeper.store.database import current_revision, head_revision
    from scorekeeper.club.history import PER_PAGE
    from scorekeeper.store.models import Game, Seat

    configure_mappers()
    for name in app.jinja_env.list_templates(filter_func=lambda name: name.endswith((".html", ".js"))):
        app.jinja_env.get_template(name)
    with app.app_context():
        try:
            if current_revision(db.engine) != head_revision():
                logging.getLogger(__name__).warning("No warm-up reading: the database is not upgraded yet")
                return
            newest = db.session.execute(select(Game.id, Game.version).where(Game.deleted_at.is_(None))
                                        .order_by(Game.id.desc()).limit(1)).first()
            player = None if newest is None else db.session.scalar(
                select(Seat.player_id).where(Seat.game_id == newest.id).limit(1))
            kept = db.session.scalar(select(func.count(Game.id)).where(Game.deleted_at.is_(None))) or 0
        finally:
            db.session.remove()
    paths = ["/", "/history", "/ratings"]
    last_page = math.ceil(kept / PER_PAGE)
    if last_page > 1:  # read from the other end: statements of its own
        paths.append(f"/history?page={last_page}")
    if newest is not None:
        game = f"/games/{newest.id}"
        paths += [game, f"{game}/watch", f"{game}/live?v={newest.version}&watch=1", f"{game}/live?v=0&watch=1",
                  f"{game}/story", f"{game}.json", f"/players/{player}"]
    client = app.test_client()
    poll = {"HX-Request": "true", "HX-Trigger": "board"}
    for path in paths:
        client.get(path, headers=poll if "/live" in path else {})
    # What was kept (pages, compressed bodies, signed form tokens) goes: a phone's first request
    # is answered as if nothing had run.
    for kept_map in app.extensions.get("scorekeeper.kept", {}).values():
        kept_map.clear()
