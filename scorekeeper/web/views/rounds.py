"""Recording, correcting and deleting rounds."""

from __future__ import annotations

import json
from dataclasses import replace

from flask import Blueprint, abort, flash, jsonify, redirect, request, url_for

from scorekeeper import store
from scorekeeper.web import keyring
from scorekeeper.web.forms import ConfirmForm
from scorekeeper.web.languages import (gettext, in_sentence, problem_message, problem_words, round_sentence,
                                       round_title)
from scorekeeper.files.gamefile import GameFileError, read_round, round_document
from scorekeeper.web.presenters import conflict_words, sent_words
from scorekeeper.web.forms.round import RoundDraft, small_int, state_before
from scorekeeper.web.round_screen import round_screen, side_by_side
from scorekeeper.rules import GameState, RoundError
from scorekeeper.web.views.common import go, is_htmx, render, whole_number
from scorekeeper.web.views import undone
from scorekeeper.web.views.games import board_response

bp = Blueprint("rounds", __name__, url_prefix="/games/<int:game_id>/rounds")
bp.add_app_template_global(undone.offered, "undone_round")


def _load(game_id: int) -> store.LoadedGame:
    """The game, if this phone may change it: 404 for no game, 403 without its edit key."""
    try:
        loaded = store.load(game_id)
    except store.NotFound:
        abort(404)
    if not keyring.can_edit(loaded.game):
        abort(403)
    return loaded


def _version() -> int | None:
    """The game's version the form was made on; None when the form has none. One that is no
    number in ASCII digits is no version the game ever had: the change is refused as made on
    another version (-1 matches none), never applied as if the form had sent none."""
    raw = request.form.get("version")
    if raw is None:
        return None
    try:
        return whole_number(raw)
    except ValueError:
        return -1


def _form(loaded: store.LoadedGame, draft: RoundDraft, editing: bool, status: int = 200,
          before: GameState | None = None):
    if before is None:
        before = state_before(loaded.state, draft.number) if editing else loaded.state
    nxt = before.next
    # What players sent from their own phones (only a table with seat links has any).
    sent = None if editing or nxt is None or not loaded.seat_links else store.sent_hands(loaded.id, nxt.number)
    return render("round_form.html", status, **round_screen(loaded, draft, before, editing, sent))


def _scoreboard(loaded: store.LoadedGame, status: int = 200):
    url = url_for("games.scoreboard", game_id=loaded.id)
    if status == 200 and not is_htmx():
        return redirect(url, code=303)
    # A round just recorded carries the game as its write left it: not read and replayed again.
    response = board_response(loaded.id, watching=False, status=status,
                              loaded=loaded if isinstance(loaded, store.RecordedRound) else None)
    if is_htmx():
        response.headers["HX-Push-Url"] = url
    return response


def _handle(loaded: store.LoadedGame, editing: int | None):
    """Shared by recording and correcting: key presses re-render, save stores or explains."""
    setup = loaded.state.setup
    word = round_title(setup.rules)
    draft = RoundDraft.from_form(request.form, len(setup.players), setup.rules.deck)
    if editing is not None:
        draft.number = editing
    for name, act in (("key", draft.press), ("unkey", draft.unpress), ("edit", draft.edit)):
        if name in request.form:
            act(request.form[name])
            return _form(loaded, draft, editing is not None)
    game_id = loaded.id  # (the store may end the request's transaction, expiring the game's row)
    before = state_before(loaded.state, editing) if editing is not None else loaded.state
    record = draft.check(before)
    if record is None:
        return _form(loaded, draft, editing is not None, 422, before)
    try:
        if editing is None:
            saved = store.record_round(game_id, draft.number, record, loaded)
            flash(round_sentence(setup.rules, "%(round)s %(number)s saved.", round=word, number=draft.number), "ok")
        else:
            saved = store.replace_round(game_id, editing, record, _version())
            flash(round_sentence(setup.rules, "%(round)s %(number)s corrected; everything after it is worked out again.", round=word, number=editing), "ok")
    except store.Conflict as exc:
        if editing is not None and store.same_round(exc.loaded, editing, record):
            # This phone's own correction sent again (its answer was lost): already done.
            flash(round_sentence(setup.rules, "%(round)s %(number)s corrected; everything after it is worked out again.", round=word, number=editing), "ok")
            return _scoreboard(exc.loaded)
        flash(conflict_words(exc), "warn")
        return _scoreboard(exc.loaded, 409)
    except store.AlreadyRecorded as exc:
        return _recorded_already(_load(game_id), exc.number, record)
    except RoundError as exc:
        draft.place(setup, exc.problems)
        return _form(loaded, draft, editing is not None, 422)
    return _scoreboard(saved)


def _recorded_already(current: store.LoadedGame, number: int, record):
    """A save of a round number that is taken: most often this phone's own round sent again
    (its answer was lost on the way). The same round is simply saved; a different one (a card
    changed meanwhile, or another phone recorded that round) is shown beside the stored one,
    for the scorekeeper to keep the stored one or make theirs a correction."""
    state = current.state
    setup = state.setup
    word = round_title(setup.rules)
    stored = state.rounds[number - 1].record if number <= len(state.rounds) else None
    if stored is None:
        flash(round_sentence(setup.rules, "%(round)s %(number)s is already recorded; here is the current scoreboard.", round=word, number=number), "warn")
        return _scoreboard(current, 409)
    if store.same_round(current, number, record):
        flash(round_sentence(setup.rules, "%(round)s %(number)s saved.", round=word, number=number), "ok")
        return _scoreboard(current)
    flash(round_sentence(setup.rules, "%(round)s %(number)s is already recorded, and differs from what this phone sent: "
                  "keep the stored one, or make this phone's a correction.", round=word, number=number), "warn")
    fields = [(name, value) for name, value in request.form.items(multi=True)
              if name == "went_out" or name.split("-")[0] in ("hand", "points", "achieved", "bonus")]
    response = render("round_compare.html", 409, loaded=current, game=current.game, state=state,
                      editable=True, watching=False, number=number, fields=fields, flags=store.flags_of(current),
                      versions=side_by_side(setup, round_document(setup, stored), round_document(setup, record)))
    if is_htmx():
        response.headers["HX-Push-Url"] = url_for("games.scoreboard", game_id=current.id)
    return response


@bp.route("/new", methods=["GET", "POST"])
def new_round(game_id: int):
    loaded = _load(game_id)
    if request.method == "POST":
        return _handle(loaded, None)
    if loaded.state.finished:
        flash(gettext("The game is over: no further rounds can be recorded. A past round can still be corrected."), "warn")
        return go(url_for("games.scoreboard", game_id=game_id))
    draft = RoundDraft.blank(loaded.state.next.number, len(loaded.state.players), loaded.state.rules.deck)
    # The hands the players sent from their own phones are in already: with every one in, the
    # scorekeeper only saves.
    draft.take_sent(store.sent_hands(game_id, draft.number))
    return _form(loaded, draft, False)


@bp.post("/new/entry/<int:seat>")
def keeper_entry(game_id: int, seat: int):
    """What the scorekeeper entered in one player's row of the round being entered, at a table
    with seat links: kept as that seat's hand (the scorekeeper's, over the player's), so that the
    player's phone shows it before the round is saved. The save still checks the whole round
    and saves what the form holds; this only tells the player."""
    loaded = _load(game_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    state = loaded.state
    setup = state.setup
    if not 0 <= seat < len(setup.players) or not loaded.seat_links:
        abort(404)
    draft = RoundDraft.from_form(request.form, len(setup.players), setup.rules.deck)
    if state.next is None or draft.number != state.next.number:
        return jsonify({"seat": seat}), 409
    record = draft.own_hand(seat, setup)
    if record is None:
        return jsonify({"seat": seat, "problems": draft.seats[seat].errors}), 422
    try:
        entered = store.send_hand(game_id, draft.number, setup.players[seat], record, by_keeper=True)
    except store.AlreadyRecorded:
        return jsonify({"seat": seat}), 409
    except RoundError as exc:
        return jsonify({"seat": seat, "problems": [problem_message(p) for p in exc.problems]}), 422
    return jsonify({"seat": seat, "revision": entered.revision, "by_keeper": entered.by_keeper,
                    "words": sent_words(state, seat, entered)})


@bp.route("/<int:number>/edit", methods=["GET", "POST"])
def edit_round(game_id: int, number: int):
    loaded = _load(game_id)
    if not 1 <= number <= len(loaded.state.rounds):
        abort(404)
    if request.method == "POST":
        return _handle(loaded, number)
    record = loaded.state.rounds[number - 1].record
    draft = RoundDraft.from_record(number, loaded.state.setup, record)
    # Opened from a player's "that's not my hand": the keypad starts on that player's row.
    seat = request.args.get("seat", type=whole_number)
    if seat is not None and seat < len(draft.seats):
        draft = replace(draft, selected=seat)
    return _form(loaded, draft, True)


@bp.route("/<int:number>/delete", methods=["GET", "POST"])
def delete_round(game_id: int, number: int):
    loaded = _load(game_id)
    if not 1 <= number <= len(loaded.state.rounds):
        if request.method == "POST":
            flash(round_sentence(loaded.state.rules, "%(round)s %(number)s is already gone.",
                                 round=round_title(loaded.state.rules), number=number), "warn")
            return _scoreboard(loaded, 409)
        abort(404)
    form = ConfirmForm()
    if request.method == "POST" and form.validate_on_submit():
        try:
            saved = store.delete_round(game_id, number, _version())
        except store.Conflict as exc:
            flash(conflict_words(exc), "warn")
            return _scoreboard(exc.loaded, 409)
        except RoundError as exc:
            flash("; ".join(problem_words(p) for p in exc.problems), "error")
            return _scoreboard(loaded, 409)
        flash(round_sentence(loaded.state.rules, "%(round)s %(number)s deleted; the ones after it are renumbered and worked out "
                             "again.", round=round_title(loaded.state.rules), number=number), "ok")
        return _scoreboard(saved)
    result = loaded.state.rounds[number - 1]
    return render("round_delete.html", loaded=loaded, state=loaded.state, game=loaded.game,
                  result=result, form=form)


@bp.post("/undo")
def undo_round(game_id: int):
    """Take the last round off in one tap; the message that says so can put it back."""
    loaded = _load(game_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    state = loaded.state
    word = round_title(state.rules)
    if not state.rounds:
        flash(round_sentence(state.rules, "There is no %(round)s to undo.", round=in_sentence(word)), "warn")
        return _scoreboard(loaded, 409)
    last = state.rounds[-1]
    try:
        saved = store.delete_round(game_id, last.number, _version())
    except store.Conflict as exc:
        flash(conflict_words(exc), "warn")
        return _scoreboard(exc.loaded, 409)
    # The removed round is kept, exactly as recorded, for "Restore" on the board (undone.py).
    undone.remember(game_id, saved.game.version, last.number, word, round_document(state.setup, last.record))
    return _scoreboard(saved)


@bp.post("/undo/keep")
def keep_undone(game_id: int):
    """"Keep it removed": the board stops offering to put the undone round back."""
    loaded = _load(game_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    undone.forget(game_id)
    return _scoreboard(loaded)


@bp.post("/restore")
def restore_round(game_id: int):
    """Put back the round just undone, as it was; refused once the game has moved on."""
    loaded = _load(game_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    word = round_title(loaded.state.rules)
    number = small_int(request.form.get("number"))
    try:
        record = read_round(json.loads(request.form.get("round", "")), "the round to restore", loaded.state.setup)
    except (ValueError, GameFileError, RecursionError):  # RecursionError: "[[[[...]]]]" nested too deep
        record = None
    if number is None or record is None:
        flash(round_sentence(loaded.state.rules, "That %(round)s could not be read back; record it again.", round=in_sentence(word)), "error")
        return _scoreboard(loaded, 400)
    undone.forget(game_id)  # put back, or refused for good below: either way no longer offered
    try:
        saved = store.record_round(game_id, number, record, loaded)
    except store.AlreadyRecorded:
        flash(round_sentence(loaded.state.rules, "%(round)s %(number)s cannot be put back: %(same)s %(number)s has been recorded again since.", round=word, same=in_sentence(word), number=number), "warn")
        return _scoreboard(_load(game_id), 409)
    except RoundError as exc:
        flash(round_sentence(loaded.state.rules, "%(round)s %(number)s cannot be put back: %(reason)s.", round=word, number=number, reason=problem_message(exc.first)), "warn")
        return _scoreboard(_load(game_id), 409)  # as the store found it, not as first read
    flash(round_sentence(loaded.state.rules, "%(round)s %(number)s restored.", round=word, number=number), "ok")
    return _scoreboard(saved)
