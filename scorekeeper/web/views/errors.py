"""Friendly error pages (and JSON errors under /api/); never a traceback."""

from flask import Flask, Response, jsonify, make_response, request, url_for
from flask.globals import request_ctx
from flask_limiter.errors import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from scorekeeper.rules.words import N_
from scorekeeper import store
from scorekeeper.web import keyring
from scorekeeper.store import DATABASE_AWAY, DISK_FULL, InBin, is_database_away, is_disk_full
from scorekeeper.web.clubkey import NoClubKey, NotKeeper
from scorekeeper.web.languages import gettext
from scorekeeper.web.limits import TooLarge, breached
from scorekeeper.web.views.common import render
from scorekeeper.web.views.hands import NotYourSeat

PAGES = {
    400: (N_("That request could not be read"), N_("Nothing was saved. Go back, reload the page and try again.")),
    403: (
        N_("Only the scorekeeper can change this game"),
        N_("This phone is watching: nothing was changed. To keep score here, open the "
           "\u201ckeep score on another phone\u201d link from the scorekeeper\u2019s Share page."),
    ),
    404: (N_("Not found"), N_("There is no such page, game, round or player.")),
    405: (N_("Not allowed"), N_("That page cannot be used that way.")),
    413: (N_("Too large"), N_("That was far more than any game needs; nothing was saved.")),
    429: (N_("Too many requests"), N_("This address has done that too often in a short time. Wait a minute and "
                                     "try again; nothing was changed.")),
    500: (N_("Something went wrong"), N_("This change may not have been saved; every round saved before it is "
                                         "kept. Reload the page to see what was.")),
    503: (N_("The database cannot be reached just now"), DATABASE_AWAY),
    507: (N_("The server's disk is full"), DISK_FULL),
}


def answer(status: int, title: str | None = None, message: str | None = None):
    default_title, default_message = _seat_holders_words(status) or PAGES.get(status, (N_("Something is wrong"),
                                                                                       N_("Nothing was saved.")))
    if request.path.startswith("/api/"):
        return jsonify({"error": {"message": message or default_title}}), status
    # A page in the reader's language: the words above are in the catalogue; the others (who
    # may do it, how large) are said as they were written.
    return render("error.html", status, title=gettext(title or default_title),
                  message=gettext(message or default_message), back=_back_to_the_game(status)), status


def _seat_holders_words(status: int) -> tuple[str, str] | None:
    """A refusal to a phone that holds a player's seat link for this game says who may do it."""
    game_id = (request.view_args or {}).get("game_id")
    if status != 403 or not isinstance(game_id, int):
        return None
    seat = keyring.held_seat(game_id)
    if seat is None:
        return None
    return (gettext("Only the scorekeeper can do that"),
            gettext("This phone holds %(name)s\u2019s seat link: it sends %(name)s\u2019s own hand, and nothing "
                    "else. Saving, undoing and correcting rounds, and starting a game, are the scorekeeper\u2019s: "
                    "the phone with the game\u2019s edit link. Nothing was changed.", name=seat.name))


def _back_to_the_game(status: int) -> str | None:
    """Where a refusal about one game leads: back to that game (a watcher's phone to the view
    it watches), not to the list of games; None where there is no game to go back to."""
    game_id = (request.view_args or {}).get("game_id")
    if not isinstance(game_id, int) or status == 404:
        return None
    return url_for("games.watch" if status == 403 else "games.scoreboard", game_id=game_id)


def with_headers(response, error: HTTPException) -> Response:
    """The answer with the exception's own headers (a 405's ``Allow``, which RFC 9110 requires;
    a 401's ``WWW-Authenticate``), but not its content type: the answer is a page or JSON."""
    response = make_response(response)
    for name, value in error.get_headers():
        if name.lower() != "content-type":
            response.headers[name] = value
    return response


def register(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error):
        return answer(400, N_("This form has expired"),
                      N_("The page was open too long or came from elsewhere. "
                         "Go back, reload the page and try again: nothing was saved."))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if request_ctx.url_adapter is None:
            # A host not in TRUSTED_HOSTS: no address can be made for it, so no page either.
            return Response(f"{error.code} {error.name}: this server does not answer to that host name.\n",
                            error.code, mimetype="text/plain")
        if isinstance(error, NotKeeper | NoClubKey | TooLarge | NotYourSeat):  # they say what to do: who may, how large
            return with_headers(answer(error.code, getattr(error, "title", None), error.description), error)
        if isinstance(error, RateLimitExceeded):
            # A person reads the limit in their words: "at most 2 imports a minute", not the
            # limiter's "2 per 1 minute" (which the API's own handler answers with).
            return answer(429, message=breached() or PAGES[429][1])
        return with_headers(answer(error.code or 500), error)

    @app.errorhandler(InBin)
    def in_bin(error: InBin):
        return answer(409, N_("This game is in the bin"),
                      N_("A deleted game takes no rounds, hands or words: nothing was changed. Restore it from "
                         "Deleted games, in the History, to keep score again."))

    @app.errorhandler(store.DatabaseRefused)
    def database_refused(error: store.DatabaseRefused):
        if is_disk_full(error):
            return answer(507, message=DISK_FULL)
        if is_database_away(error):
            # A restart of the database (an upgrade, a crash): the phone's outbox keeps the
            # round and sends it again; a person is told to try again in a moment.
            response = make_response(answer(503, message=DATABASE_AWAY))
            response.headers["Retry-After"] = "5"
            return response
        raise error  # any other failure of the database is a bug: the 500 below

    @app.errorhandler(500)
    def server_error(error):
        return answer(500)
