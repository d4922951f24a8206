"""The web views: thin functions that parse a form, call the store, render."""

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from scorekeeper.web.views.common import add_vary, no_huge_ids

csrf = CSRFProtect()


def register_views(app: Flask) -> None:
    from scorekeeper.web.views import cards, errors, files, games, hands, languages, pwa, rounds, seats
    # api.seats, api.ratings and api.nights add their routes to the API's blueprint (api.games.bp).
    from scorekeeper.web.views.api import games as api, nights as api_nights, ratings as api_ratings  # noqa: F401
    from scorekeeper.web.views.api import seats as api_seats  # noqa: F401
    from scorekeeper.web.views.club import history, house_rules, keeper, night_screen, nights, players, ratings, stats

    csrf.init_app(app)
    csrf.exempt(api.bp)  # the API takes no cookies: changes carry the edit key as a bearer token
    app.register_blueprint(api.bp)
    app.register_blueprint(pwa.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(rounds.bp)
    app.register_blueprint(seats.bp)
    app.register_blueprint(hands.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(ratings.bp)
    app.register_blueprint(files.bp)
    app.register_blueprint(keeper.bp)
    app.register_blueprint(house_rules.bp)
    app.register_blueprint(nights.bp)
    app.register_blueprint(night_screen.bp)
    app.register_blueprint(languages.bp)
    app.register_blueprint(cards.bp)
    errors.register(app)
    app.after_request(add_vary)
    # Every id in every address: a number too big for the database is a 404, not a 500.
    app.url_value_preprocessor(no_huge_ids)
