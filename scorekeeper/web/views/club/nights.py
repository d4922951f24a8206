"""A club night: opened, players checked in and gone home, tables drawn and started, the
standings. The club's keeper opens a night and runs it, and so does a phone the keeper gives the
night's link (its key, :mod:`scorekeeper.web.keyring`); anyone may read it."""

from __future__ import annotations

import random
from datetime import date

from flask import Blueprint, abort, flash, request, url_for
from werkzeug.exceptions import Forbidden

from scorekeeper import store
from scorekeeper.club.nights import night_rating_changes, night_standings, ratings_now
from scorekeeper.rules import N_, SeatingRefused, SetupError
from scorekeeper.web import keyring, links
from scorekeeper.web.clubkey import NotKeeper, club_only, is_keeper
from scorekeeper.web.forms import ConfirmForm
from scorekeeper.web.languages import gettext, preset_name, problem_words, said
from scorekeeper.web.views.common import go, key_page, no_store, render

bp = Blueprint("nights", __name__, url_prefix="/nights")

#: The most names a check-in takes at once (a club's evening, with room to spare).
MOST_NAMES = 60


def _confirmed() -> None:
    if not ConfirmForm().validate_on_submit():
        abort(400)


class NotRunner(NotKeeper):
    """A 403 that says who may run a night (a page like the keeper's own refusals)."""

    def __init__(self) -> None:
        self.title = gettext("Only the club\u2019s keeper runs this night")
        Forbidden.__init__(self, gettext("Only the club\u2019s keeper, or a phone the keeper gave the night\u2019s link, "
                                 "runs this night. Nothing was changed."))


def _runs(night: store.Night) -> bool:
    return is_keeper() or keyring.runs_night(night)


def _running(night_id: int) -> store.Night:
    """The night, for a change by whoever runs it (before its form is read)."""
    night = _night(night_id)
    if not _runs(night):
        raise NotRunner()
    _confirmed()
    return night


def _night(night_id: int) -> store.Night:
    try:
        return store.get_night(night_id)
    except store.NotFound:
        abort(404)


def _night_page(night: store.Night, status: int = 200, problem: str | None = None):
    here = store.checked_in(night.id)
    checked = {c.player_id for c in here}
    waiting_round, waiting = store.drawn_tables(night)
    runs = _runs(night)
    key = keyring.night_key(night.id) if runs and night.closed_at is None else None
    page = render("night.html", status, night=night, here=here, problem=problem, runs=runs,
                  roster=[p for p in store.roster() if p.id not in checked], waiting=waiting,
                  waiting_round=waiting_round, games=store.night_games(night.id),
                  standings=night_standings(night.id), changes=night_rating_changes(night.id),
                  rule_name=rule_name(night.rules),
                  night_link=links.night_link(night.id, key) if key else None)
    return no_store(page) if key else page  # a page that shows a key is kept by no cache


def rule_name(key: str) -> str:
    """The night's rule set by name, a preset's in the reader's language."""
    try:
        return preset_name(key, store.get_ruleset(key).name)
    except store.NotFound:
        return key


@bp.get("/")
def index():
    return render("nights.html", nights=store.list_nights(), rulesets=store.list_rulesets(),
                  today=date.today().isoformat(), problem=None)


@bp.post("/")
@club_only(N_("open a club night"))
def open_night():
    _confirmed()
    try:
        held_on = date.fromisoformat(request.form.get("held_on", ""))
        night, key = store.open_night(request.form.get("rules", ""), held_on)
    except ValueError:
        return render("nights.html", 422, nights=store.list_nights(), rulesets=store.list_rulesets(),
                      today=date.today().isoformat(), problem=gettext("The night's date: a day such as 2026-12-03."))
    except store.NotFound:
        return render("nights.html", 422, nights=store.list_nights(), rulesets=store.list_rulesets(),
                      today=date.today().isoformat(), problem=gettext("Choose the rules to play by: one of those listed."))
    keyring.remember_night(night.id, key)
    return go(url_for("nights.night", night_id=night.id))


@bp.route("/<int:night_id>/join", methods=["GET", "POST"])
def join(night_id: int):
    """``/nights/ID/join#key=...``: this phone runs the night with the keeper (the page posts
    the key after ``#``; without JavaScript it is pasted into the same form)."""
    night = _night(night_id)
    if request.method == "POST":
        _confirmed()
        key = request.form.get("key", "").strip()
        if not store.night_key_matches(night, key):
            return key_page("night_join.html", 403, night=night,
                            problem=gettext("That is not this night\u2019s key: ask the club\u2019s keeper for "
                                            "the night\u2019s link."))
        keyring.remember_night(night.id, key)
        return go(url_for("nights.night", night_id=night.id))
    return key_page("night_join.html", night=night, problem=None)


@bp.get("/<int:night_id>")
def night(night_id: int):
    return _night_page(_night(night_id))


@bp.post("/<int:night_id>/players")
def check_in(night_id: int):
    night = _running(night_id)
    names = request.form.getlist("name") + request.form.get("new", "").split(",")
    names = [name for name in names if name.strip()]
    if len(names) > MOST_NAMES:
        return _night_page(night, 422, gettext("Check in at most %(most)s players at once: nobody was checked in.",
                                               most=MOST_NAMES))
    try:
        players = store.check_in(night.id, names)
    except store.PlayerNameError as exc:
        return _night_page(night, 422, said(exc))
    except store.NightRefused as exc:
        return _night_page(night, 409, said(exc))
    if players:
        flash(gettext("Checked in: %(names)s.", names=", ".join(p.name for p in players)), "ok")
    return go(url_for("nights.night", night_id=night.id))


@bp.post("/<int:night_id>/players/<int:player_id>/leave")
def leave(night_id: int, player_id: int):
    night = _running(night_id)
    try:
        store.leave_night(night.id, player_id)
    except store.NotFound:
        abort(404)
    except store.NightRefused as exc:
        return _night_page(night, 409, said(exc))
    return go(url_for("nights.night", night_id=night.id))


@bp.post("/<int:night_id>/draw")
def draw(night_id: int):
    night = _running(night_id)
    balanced = request.form.get("how") == "rating"
    try:
        store.draw_night(night.id, random.SystemRandom(), ratings=ratings_now() if balanced else None,
                         winners_together=request.form.get("winners") == "together")
    except (SeatingRefused, store.NightRefused) as exc:
        return _night_page(night, 422, said(exc))
    return go(url_for("nights.night", night_id=night.id) + "#tables")


@bp.post("/<int:night_id>/tables/<int:table>/start")
def start(night_id: int, table: int):
    night = _running(night_id)
    try:
        started = store.start_table(night.id, table, random.SystemRandom(), keyring.held_night_key(night))
    except store.NotFound:
        abort(404)
    except store.NightRefused as exc:
        return _night_page(night, 409, said(exc))
    except SetupError as exc:
        return _night_page(night, 422, problem_words(exc.first))
    keyring.remember(started.game.id, started.key)
    if keyring.made_here(started.game.id) is None:  # seat keys not made from the night's key (the keeper without it)
        keyring.remember_made(started.game.id, started.seat_keys)
    flash(gettext("Table %(table)s is playing: game %(number)s.", table=table, number=started.game.id), "ok")
    return go(url_for("nights.night", night_id=night.id) + "#tables")


@bp.route("/<int:night_id>/close", methods=["GET", "POST"])
def close(night_id: int):
    """A night closed cannot be opened again: a GET asks first, the POST closes."""
    if request.method == "GET":
        night = _night(night_id)
        if not _runs(night):
            raise NotRunner()
        if night.closed_at is not None:
            return go(url_for("nights.night", night_id=night.id))
        return render("night_close.html", night=night)
    night = _running(night_id)
    try:
        store.close_night(night.id)
    except store.NightRefused as exc:
        return _night_page(night, 409, said(exc))
    flash(gettext("The night is closed."), "ok")
    return go(url_for("nights.night", night_id=night.id))
