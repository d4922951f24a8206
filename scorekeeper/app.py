"""The application factory."""

from __future__ import annotations

import hashlib
import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask

from .models import db

#: The package's folder: a wheel carries the templates and static files inside it.
PACKAGE = Path(__file__).resolve().parent

HTMX_VERSION = "2.0.11"
HTMX_SRI = "sha384-2OatzQy1H+Zd/IIrjr1TcuDGqLXeHhbooAyJY1KdQMKnr4LZ22k31GBLdYKHmVjg"


def _secret_key(instance: Path) -> str:
    """The key kept in the instance folder, made on first start (never in source)."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


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
    instance.mkdir(parents=True, exist_ok=True)
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
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(instance)

    from . import assets, database, replays, security

    database.init_app(app)
    replays.init_app(app)
    security.init_app(app)
    assets.init_app(app)

    from .cli import register_cli
    from .views import register_views

    from . import presenters

    app.jinja_env.globals.update(
        result_words=presenters.result_words,
        round_summary=presenters.round_summary,
        round_cells=presenters.round_cells,
        deck_words=presenters.deck_words,
        card_values=presenters.card_values,
        hand_points=presenters.hand_points,
    )
    app.jinja_env.filters["hash"] = lambda text: hashlib.sha256(str(text).encode()).hexdigest()[:12]
    register_cli(app)
    from . import maintenance

    maintenance.register(app)
    register_views(app)
    return app


def env_flag(name: str) -> bool:
    return os.environ.get(name, "").lower() in {"1", "true", "yes"}
