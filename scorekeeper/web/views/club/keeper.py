"""The club link: the phone that opens it becomes the club's keeper (see :mod:`scorekeeper.web.clubkey`)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, request, url_for
from scorekeeper.web.languages import gettext

from scorekeeper.web import clubkey as club
from scorekeeper.web.forms import ConfirmForm
from scorekeeper.web.views.common import go, key_page

bp = Blueprint("club", __name__, url_prefix="/club")


@bp.route("", methods=["GET", "POST"])
def join():
    """``/club#key=...``: the page reads the key after ``#`` (never sent to the server) and
    posts it; without JavaScript the key is typed or pasted into the same form."""
    if request.method == "POST":
        if not ConfirmForm().validate_on_submit():
            abort(400)
        key = request.form.get("key", "").strip()
        if not club.matches(key):
            return key_page(
                "club.html", 403, problem=gettext("That is not the club key (or a newer one has replaced it). "
                                                  "On the server, `flask --app scorekeeper club-key` makes a new "
                                                  "club link."))
        club.remember(key)
        flash(gettext("This phone is now the club\u2019s keeper: it may rename players, restore deleted games, "
                      "import and download backups."), "ok")
        return go(url_for("games.index"))
    return key_page("club.html", problem=None)


@bp.post("/leave")
def leave():
    """This phone stops being the keeper (the club key still works elsewhere)."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    club.forget()
    flash(gettext("This phone is no longer the club\u2019s keeper."), "ok")
    return go(url_for("games.index"))

