"""The application factory."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import jinja2
from flask import Flask
from jinja2 import FileSystemBytecodeCache

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
    from scorekeeper.web.limits import MAX_FORM_MEMORY_SIZE, MAX_FORM_PARTS

    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=f"sqlite:///{instance / 'scorekeeper.sqlite'}",
        # A game lasts hours: a form token must not expire in the middle of it.
        WTF_CSRF_TIME_LIMIT=None,
        # The largest body of any request but an import (a game's file sent to the API is tens
        # of kilobytes): waitress keeps one this size in memory, never on the disk.
        MAX_CONTENT_LENGTH=512 * 1024,
        # A form's fields and bytes (Flask's defaults are 1,000 and 500 KB, for multipart forms
        # alone): refused before they are read (scorekeeper.web.limits.FormParser).
        MAX_FORM_PARTS=MAX_FORM_PARTS,
        MAX_FORM_MEMORY_SIZE=MAX_FORM_MEMORY_SIZE,
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

    from scorekeeper.web import assets, clubkey as club, languages, limits, security
    from scorekeeper.store import database

    database.init_app(app)
    security.init_app(app)
    languages.init_app(app)
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

    from scorekeeper.web import cards, presenters, scriptwords

    app.jinja_env.globals.update(
        result_words=presenters.result_words,
        places=presenters.places,
        leaders=presenters.leaders,
        stages_word=presenters.stages_word,
        completed_words=presenters.completed_words,
        round_summary=presenters.round_summary,
        round_cells=presenters.round_cells,
        deck_words=presenters.deck_words,
        card_values=presenters.card_values,
        card_label=presenters.card_label,
        key_value=presenters.key_value,
        round_points=presenters.round_points,
        bonus_words=presenters.bonus_words,
        signed=presenters.signed,
        dealer_words=presenters.dealer_words,
        game_data=presenters.game_data,
        player_colours=presenters.player_colours,
        planned_colours=presenters.planned_colours,
        locale_code=languages.locale_code,
        language_name=languages.language_name,
        round_title=languages.round_title,
        stage_title=languages.stage_title,
        in_sentence=languages.in_sentence,
        rule_text=languages.rule_text,
        percent=languages.percent,
        stage_sentence=languages.stage_sentence,
        card_letter=languages.card_letter,
        hand_example=languages.hand_example,
        translated=languages.translated,
        rounds_count=languages.rounds_count,
        day_time=languages.day_time,
        preset_name=languages.preset_name,
        join_names=presenters.join_names,
        import_outcome=presenters.import_outcome,
        script_words=scriptwords.page_words,
        describe=presenters.describe,
        rules_summary=presenters.rules_summary,
        club_name=cards.club_name,
        card_address=cards.address,
    )
    app.jinja_env.filters["fromjson"] = json.loads
    app.jinja_env.filters["ordinal"] = languages.ordinal
    app.jinja_env.filters["hash"] = lambda text: hashlib.sha256(str(text).encode()).hexdigest()[:12]
    compiled_templates(app, instance)
    register_cli(app)
    from scorekeeper import maintenance

    maintenance.register(app)
    from scorekeeper import serving

    serving.register(app)
    register_views(app)
    limits.register(app)
    from scorekeeper.web import polls

    polls.init_app(app)
    return app


def compiled_templates(app: Flask, instance: Path) -> None:
    """A fresh server loads the templates its predecessor compiled (a player's page's first
    answer on PostgreSQL, docs/architecture.md). Jinja checks each template's source; what else
    shapes the compiled code (Jinja's version, the extensions) names the folder."""
    made_by = repr((jinja2.__version__, sorted(app.jinja_env.extensions))).encode()
    folder = instance / "compiled-templates" / hashlib.sha256(made_by).hexdigest()[:12]
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:  # a full disk, a read-only folder: every template is compiled in memory
        return
    app.jinja_env.bytecode_cache = KeptWhereItCan(str(folder))


class KeptWhereItCan(FileSystemBytecodeCache):
    """A compiled template that cannot be kept (the disk is full, the folder read-only) is served
    from memory all the same: a page that failed to be kept was a bare 500 where the change it
    answered would have said in words that the disk is full (a 507)."""

    def dump_bytecode(self, bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass
