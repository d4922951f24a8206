from flask import Flask
from flask_wtf.csrf import CSRFError

from .common import render


def register(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error):
        return render("error.html", 400, title="This form has expired",
                      message="The page was open too long or came from elsewhere. "
                              "Go back, reload the page and try again: nothing was saved."), 400

    @app.errorhandler(404)
    def not_found(error):
        return render("error.html", 404, title="Not found",
                      message="There is no such page, game, round or player."), 404

    @app.errorhandler(405)
    def not_allowed(error):
        return render("error.html", 405, title="Not allowed",
                      message="That page cannot be used that way."), 405

    @app.errorhandler(413)
    def too_large(error):
        return render("error.html", 413, title="Too large",
                      message="That was far more than any game needs; nothing was saved."), 413

    @app.errorhandler(500)
    def server_error(error):
        return render("error.html", 500, title="Something went wrong",
                      message="Nothing was lost: every recorded round is kept. Reload the page."), 500
