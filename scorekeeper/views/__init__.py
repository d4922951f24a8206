"""The web views: thin functions that parse a form, call the store, render."""

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from .common import add_vary

csrf = CSRFProtect()


def register_views(app: Flask) -> None:
    from . import api, errors, games, players, pwa, rounds

    csrf.init_app(app)
    csrf.exempt(api.bp)  # the API takes no cookies: changes carry the edit key as a bearer token
    app.register_blueprint(api.bp)
    app.register_blueprint(pwa.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(rounds.bp)
    app.register_blueprint(players.bp)
    from . import files, history, stats  # issue 4: history, game stories, player statistics, files

    app.register_blueprint(history.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(files.bp)
    errors.register(app)
    app.after_request(add_vary)
