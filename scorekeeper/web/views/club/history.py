"""The history: every game, newest first; a game's story; deleting, restoring, purging."""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, abort, flash, request, url_for

from scorekeeper.web import keyring
from scorekeeper.web import charts, clubkey as club
from scorekeeper.club import history
from scorekeeper import store
from scorekeeper.web.clubkey import NotKeeper, club_only
from scorekeeper.web.forms import ConfirmForm
from scorekeeper.store import Game, Player
from scorekeeper.rules import N_, PRESETS
from scorekeeper.web.views.common import go, positive_int, render
from scorekeeper.web.presenters import player_colours
from scorekeeper.web.languages import gettext, preset_name

#: The latest club nights the history lists above its games (the rest: the nights' own page).
NIGHTS_SHOWN = 5

bp = Blueprint("history", __name__)


@bp.app_template_filter("duration_words")
def duration_words(length: timedelta) -> str:
    """A game's length as people say it, in the reader's words: "45 min", "2 h 05 min" ("2 Std. 05 Min.")."""
    minutes = int(length.total_seconds() // 60)
    if minutes < 60:
        return gettext("%(minutes)s min", minutes=max(minutes, 1))
    hours, minutes = divmod(minutes, 60)
    return gettext("%(hours)s h %(minutes)s min", hours=hours, minutes=str(minutes).zfill(2))



def rules_problem(rules: str, played: dict[str, str]) -> str | None:
    """What is wrong with a ``rules`` filter, or None: it must be the key of a rule set some
    game was played by (those are the ones offered), or of a preset (no game yet is no error)."""
    if rules in played or rules in PRESETS:
        return None
    choices = ", ".join(f'"{key}" ({preset_name(key, name)})' for key, name in played.items()) \
        or gettext("none yet: no game is stored")
    return gettext('"%(rules)s" is not a rule set any game was played by. The rule sets played: %(choices)s.',
                   rules=rules[:20], choices=choices)


def _filters(played: dict[str, str], deleted: bool = False
             ) -> tuple[history.HistoryFilter, list[str], Player | None]:
    """The filters asked for, what was wrong with them, and the player filtered on."""
    problems = []
    player = None
    player_id = None
    raw_player = request.args.get("player")
    if raw_player:
        try:
            player_id = positive_int(raw_player)
        except ValueError:
            problems.append(gettext('"%(text)s" is not a player number.', text=raw_player[:20]))
        else:
            player = store.get_player(player_id)
            if player is None:
                problems.append(gettext("There is no player number %(number)s.", number=player_id))
    rules = request.args.get("rules") or None
    problem = rules_problem(rules, played) if rules is not None else None
    if problem is not None:
        problems.append(problem)
        rules = None
    # The bin is the club keeper's, and each game's scorekeeper's: anyone else sees only the
    # deleted games their own phone keeps score of.
    only = tuple(keyring.games_kept_here()) if deleted and not club.is_keeper() else None
    return history.HistoryFilter(player_id, rules, deleted, only), problems, player


def offered_rulesets(played: dict[str, str], rules: str | None) -> dict[str, str]:
    """The rule sets the filter offers (key to name): those played, and the one chosen."""
    if rules is None or rules in played:
        return played
    return {**played, rules: PRESETS[rules].name}


def _page_number() -> int:
    try:
        return positive_int(request.args.get("page"), 1)
    except ValueError:
        abort(404)


def _history(deleted: bool):
    played = history.rulesets_played()
    filters, problems, player = _filters(played, deleted)
    roster = store.roster()
    rulesets = offered_rulesets(played, filters.rules)
    if problems:
        return render("history.html", 404, page=None, filters=filters, problems=problems, player=player,
                      roster=roster, rulesets=rulesets, in_bin=deleted, bin_count=None, undo=None)
    page = history.history_page(filters, _page_number())
    if page is None:
        abort(404)
    undo = None
    if not deleted:
        try:
            undo_id = positive_int(request.args.get("deleted"), 0) or None
        except ValueError:
            undo_id = None
        if undo_id is not None:
            game = store.get_game(undo_id)
            undo = game if game is not None and game.deleted_at is not None and may_restore(game) else None
    return render("history.html", page=page, filters=filters, problems=[], player=player, roster=roster,
                  rulesets=rulesets, in_bin=deleted, bin_count=history.deleted_count(_bin_of_this_phone()), undo=undo,
                  nights=[] if deleted else store.list_nights(NIGHTS_SHOWN))


def _bin_of_this_phone() -> list[int] | None:
    """The games of the bin this phone may see: None (all) for the club's keeper."""
    return None if club.is_keeper() else keyring.games_kept_here()


@bp.get("/history")
def index():
    return _history(deleted=False)


@bp.get("/history/deleted")
def deleted():
    return _history(deleted=True)


def _stored(game_id: int) -> store.LoadedGame:
    stored = store.load_game(game_id)
    if stored is None:
        abort(404)
    return stored


@bp.get("/games/<int:game_id>/story")
def story(game_id: int):
    stored = _stored(game_id)
    state = stored.state
    totals = levels = None
    if state is not None and state.rounds:
        colours = player_colours(stored.seats)
        totals = charts.totals_chart(state, colours=colours)
        levels = charts.levels_chart(state, colours=colours)
    rated = history.game_ratings(game_id) if state is not None and state.finished else {}
    return render("story.html", stored=stored, game=stored.game, state=state, totals_chart=totals,
                  levels_chart=levels, may_restore=stored.deleted and may_restore(stored.game), rated=rated)


@bp.route("/games/<int:game_id>/delete", methods=["GET", "POST"])
def delete(game_id: int):
    stored = _stored(game_id)
    if stored.deleted:
        flash(gettext("This game is already deleted: restore it, or delete it for good, from here."), "warn")
        return go(url_for("history.deleted"))
    return _confirm_removal(stored, purge=False)


@bp.post("/games/<int:game_id>/restore")
def restore(game_id: int):
    """Undo a delete: the club's keeper, or whoever holds the game's edit key (who could
    delete it, so may take that back)."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    game = store.get_game(game_id)
    if game is None:
        abort(404)
    if not may_restore(game):
        raise NotKeeper(N_("restore a deleted game (or the phone that keeps its score)"))
    try:
        store.restore_game(game_id)
    except store.NotFound:
        abort(404)
    flash(gettext("Game %(number)s is back in the history.", number=game_id), "ok")
    return go(url_for("history.story", game_id=game_id))


def may_restore(game: Game) -> bool:
    return club.is_keeper() or keyring.can_edit(game)


@bp.route("/games/<int:game_id>/purge", methods=["GET", "POST"])
@club_only(N_("delete a game for good"))
def purge(game_id: int):
    stored = _stored(game_id)
    if not stored.deleted:
        flash(gettext("Only a deleted game can be deleted for good: delete it first."), "warn")
        return go(url_for("history.story", game_id=game_id))
    return _confirm_removal(stored, purge=True)


def _confirm_removal(stored: store.LoadedGame, purge: bool):
    """Ask before a delete (to the bin) or a purge (for good); do it on a confirmed POST by
    whoever holds the game's edit key."""
    form = ConfirmForm()
    may_change = club.is_keeper() if purge else keyring.can_edit(stored.game)
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        if not may_change:
            abort(403)  # only a delete gets here: a purge is the keeper's (club_only above)
        if not purge:
            store.delete_game(stored.id)
            # The history then says so, with an Undo button (see history.html).
            return go(url_for("history.index", deleted=stored.id))
        store.purge_game(stored.id)
        flash(gettext("Game %(number)s is gone for good.", number=stored.id), "ok")
        return go(url_for("history.deleted"))
    return render("game_delete.html", stored=stored, game=stored.game, state=stored.state, form=form,
                  may_change=may_change, purge=purge)
