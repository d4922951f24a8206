"""House rules: the presets and the table's own rule sets, read, copied and changed, renamed,
deleted; and a game's own rules saved as a house rule set.

Anyone may read them. Saving, renaming and deleting are the club keeper's, as in the API
(``POST /api/rulesets``): the house rule sets are the club's, as its roster is.
"""

from __future__ import annotations

import json

from flask import Blueprint, abort, flash, request, url_for
from flask_babel import lazy_gettext
from flask_wtf import FlaskForm
from wtforms import StringField

from scorekeeper.web import clubkey as club
from scorekeeper import store
from scorekeeper.web.clubkey import club_only
from scorekeeper.web.forms import ConfirmForm
from scorekeeper.store import MAX_ID, rules_of
from scorekeeper.rules import N_, RuleSet, RuleSetError, is_a_preset, ruleset_document, same_rules
from scorekeeper.web.languages import gettext, rule_text, said
from scorekeeper.web.forms.rules import (RuleSetForm, apply_action, copy_name, document_from, editor_data, error_id, follow_deck,
                                       in_the_editors_words, preset_words, problems_by_place, rank_label, stage_word)
from scorekeeper.web.views.common import go, is_htmx, render

bp = Blueprint("house_rules", __name__, url_prefix="/rules")
bp.add_app_template_global(rank_label, "rank_label")
bp.add_app_template_global(error_id, "error_id")

SAVE = N_("save house rule sets")
CHANGE = N_("change house rule sets")



class RenameForm(FlaskForm):
    name = StringField(lazy_gettext("New name"), render_kw={"autocomplete": "off", "maxlength": 60})


def _entry(key: str) -> store.RuleSetEntry:
    try:
        return store.get_ruleset(key)
    except store.NotFound:
        abort(404)


def _house(key: str) -> store.RuleSetEntry:
    """A house rule set (a preset is never changed: it is copied)."""
    entry = _entry(key)
    if entry.preset:
        abort(404)
    return entry


def _taken_names() -> list[str]:
    return [entry.name for entry in store.list_rulesets()]


@bp.get("")
def index():
    entries = store.list_rulesets()
    return render("rules_list.html", presets=[e for e in entries if e.preset],
                  house=[e for e in entries if not e.preset])


@bp.get("/<key>")
def show(key: str):
    entry = _entry(key)
    return render("rules_show.html", entry=entry, rules=entry.rules)


@bp.route("/<key>/copy", methods=["GET", "POST"])
@club_only(SAVE)
def copy(key: str):
    """An editor holding a copy of any rule set; saving it makes a new house rule set."""
    entry = _entry(key)
    return _editor(entry, None, url_for(".copy", key=key))


@bp.route("/<key>/edit", methods=["GET", "POST"])
@club_only(CHANGE)
def edit(key: str):
    """The editor for a house rule set itself. Games already played by it keep their copy."""
    entry = _house(key)
    return _editor(entry, entry.house_id, url_for(".edit", key=key))


def _editor(entry: store.RuleSetEntry, house_id: int | None, action: str):
    """Show the editor; a shape button (add a stage...) shows it again changed; "Save" checks
    the document with the engine and stores it, or shows each problem by its field."""
    status, problems, pressed = 200, {}, None
    if request.method == "GET":
        data = editor_data(entry.document)
        if entry.preset:
            data = preset_words(data)
        if house_id is None:
            data["name"] = copy_name(data["name"], _taken_names())
    else:
        data = RuleSetForm().data
        data.pop("csrf_token", None)
        pressed = apply_action(data, request.form)
        followed = follow_deck(data)
        if pressed is None and "save" in request.form:
            if followed:
                # The deck or the jokers changed since the values were shown: show them first.
                status, problems = 422, {"values": [gettext("The values now follow the deck you chose: check them, "
                                                            "then save again.")]}
            else:
                try:
                    saved = store.save_ruleset(document_from(data), house_id)
                except RuleSetError as exc:
                    status, problems = 422, problems_by_place(exc.problems, data)
                else:
                    flash(gettext("Saved \u201c%(name)s\u201d. Games already played keep the rules they were "
                                  "played by.", name=saved.name), "ok")
                    return _go_to_top(url_for(".show", key=saved.key))
    form = RuleSetForm(formdata=None, data=data)
    response = render("rules_edit.html", status, form=form, entry=entry, name=rule_text(entry.name, entry.rules),
                      copying=house_id is None,
                      action=action, problems=problems, word=stage_word(data),
                      opened=pressed in ("add_deck_row", "remove_deck_row"))
    if problems and is_htmx():
        # Saving was refused: show the list of problems at the top of the editor, not the Save
        # button the thumb is on (a shape button keeps the place, where its change is).
        response.headers["HX-Reswap"] = "outerHTML show:#rules-editor:top"
    return response


def _go_to_top(url: str):
    """:func:`go`, and with htmx the page it goes to is shown from its top (the editor is long:
    without this the saved rule set would be shown where the Save button was)."""
    response = go(url)
    if is_htmx():
        response.headers["HX-Location"] = json.dumps({"path": url, "target": "#main",
                                                      "swap": "innerHTML show:window:top"})
    return response


@bp.route("/<key>/rename", methods=["GET", "POST"])
@club_only(CHANGE)
def rename(key: str):
    entry = _house(key)
    form = RenameForm(data={"name": entry.name}) if request.method == "GET" else RenameForm()
    problem = None
    if request.method == "POST":
        if not form.validate_on_submit():
            abort(400)
        try:
            renamed = store.rename_ruleset(entry.house_id, (form.name.data or "").strip())
        except RuleSetError as exc:
            problem = " ".join(" ".join(messages) for messages in problems_by_place(exc.problems).values())
        else:
            flash(gettext("Renamed \u201c%(name)s\u201d.", name=renamed.name), "ok")
            return go(url_for(".show", key=renamed.key))
    return render("rules_rename.html", 422 if problem else 200, form=form, entry=entry, problem=problem)


@bp.route("/<key>/delete", methods=["GET", "POST"])
@club_only(CHANGE)
def delete(key: str):
    entry = _house(key)
    if request.method == "POST":
        if not ConfirmForm().validate_on_submit():
            abort(400)
        try:
            store.delete_ruleset(entry.house_id)
        except store.NightRefused as exc:
            flash(said(exc), "error")
            return go(url_for(".show", key=key))
        flash(gettext("Deleted \u201c%(name)s\u201d. Games played with it keep their copy of its rules.",
                      name=entry.name), "ok")
        return go(url_for(".index"))
    return render("rules_delete.html", entry=entry)


# ------------------------------------------------- a game's own rules


@bp.app_template_global()
def rules_of_its_own(rules: RuleSet) -> bool:
    """True when a game's rules are not a preset's, unchanged: the game page then asks (after
    the page is shown: it depends on the house rule sets, which a board's version does not
    follow) whether they could be saved as house rules."""
    return not is_a_preset(rules)


def _game_rules(game_id: int) -> tuple[int, RuleSet]:
    game = store.get_game(game_id) if 0 < game_id <= MAX_ID else None
    if game is None:
        abort(404)
    try:
        return game.id, rules_of(game)
    except RuleSetError:
        abort(404)  # rules this version of the engine no longer reads: nothing to show or save


def _saved_as(rules: RuleSet) -> store.RuleSetEntry | None:
    """The preset or house rule set that has these rules (whatever it is called), if any."""
    return next((e for e in store.list_rulesets() if same_rules(e.rules, rules)), None)


@bp.get("/games/<int:game_id>", endpoint="game_rules")
def game_rules(game_id: int):
    """The rules a game keeps, whole, and (for the keeper, when no rule set has them) the offer
    to save them as a house rule set. The game page fetches the offer from here."""
    game_id, rules = _game_rules(game_id)
    saved_as = _saved_as(rules)
    return render("game_rules.html", game_id=game_id, rules=rules, saved_as=saved_as,
                  offer=saved_as is None and club.is_keeper())


@bp.post("/games/<int:game_id>/save", endpoint="save_game_rules")
@club_only(SAVE)
def save_game_rules(game_id: int):
    if not ConfirmForm().validate_on_submit():
        abort(400)
    game_id, rules = _game_rules(game_id)
    saved_as = _saved_as(rules)
    if saved_as is not None:
        flash(gettext("These rules are already saved as \u201c%(name)s\u201d.", name=rule_text(saved_as.name, saved_as.rules)),
              "ok")
        return go(url_for(".show", key=saved_as.key))
    document = ruleset_document(rules)  # named as the game's rules are, unless a rule set has the name
    taken = _taken_names()
    if rules.name.casefold() in {name.casefold() for name in taken}:
        document["name"] = copy_name(rules.name, taken)
    try:
        saved = store.save_ruleset(document)
    except RuleSetError as exc:
        problem = f"{exc.first.field}: {in_the_editors_words(exc.first)}"
        flash(gettext("These rules could not be saved: %(problem)s.", problem=problem), "error")
        return go(url_for(".game_rules", game_id=game_id))
    flash(gettext("Saved this game\u2019s rules as \u201c%(name)s\u201d.", name=saved.name), "ok")
    return go(url_for(".show", key=saved.key))
