"""The roster: add (anyone), rename and remove a player who has never played (the club's keeper)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, request, url_for

from scorekeeper import store
from scorekeeper.rules import N_
from scorekeeper.web.languages import gettext, said
from scorekeeper.web.clubkey import club_only
from scorekeeper.web.forms import ConfirmForm, PlayerForm
from scorekeeper.web.views.common import go, render

bp = Blueprint("players", __name__, url_prefix="/players")


def _roster_page(form: PlayerForm | None = None, status: int = 200, editing: int | None = None,
                 edit_form: PlayerForm | None = None):
    players = store.roster()
    counts = store.games_played_by_everyone()
    played = {p.id: counts.get(p.id, store.GamesPlayed(0, 0)) for p in players}
    return render("players.html", status, players=players, played=played, form=form or PlayerForm(),
                  editing=editing, edit_form=edit_form, confirm=ConfirmForm())


@bp.route("/", methods=["GET", "POST"])
def roster():
    form = PlayerForm()
    if request.method == "POST":
        if form.validate_on_submit():
            try:
                player = store.add_player(form.name.data)
            except store.PlayerNameError as exc:
                form.name.errors = [said(exc)]
            else:
                flash(gettext("%(name)s is on the roster.", name=player.name), "ok")
                return go(url_for("players.roster"))
        return _roster_page(form, 422)
    return _roster_page(form)


@bp.route("/<int:player_id>/edit", methods=["GET", "POST"])
@club_only(N_("rename players"))
def rename(player_id: int):
    if store.get_player(player_id) is None:
        abort(404)
    form = PlayerForm()
    if request.method == "POST":
        if form.validate_on_submit():
            try:
                player = store.rename_player(player_id, form.name.data)
            except store.NotFound:
                abort(404)
            except store.PlayerNameError as exc:
                form.name.errors = [said(exc)]
            else:
                flash(gettext("Renamed to %(name)s, everywhere the name shows.", name=player.name), "ok")
                return go(url_for("players.roster"))
        return _roster_page(None, 422, player_id, form)
    player = store.get_player(player_id)
    if player is None:
        abort(404)
    form.name.data = player.name
    return _roster_page(None, 200, player_id, form)


@bp.post("/<int:player_id>/remove")
@club_only(N_("remove players from the roster"))
def remove(player_id: int):
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        store.remove_player(player_id)
    except store.NotFound:
        abort(404)
    except store.PlayerNameError as exc:
        flash(said(exc), "error")
        return go(url_for("players.roster"))
    flash(gettext("Removed from the roster."), "ok")
    return go(url_for("players.roster"))
