"""A player's own phone: their hand for the round being played, sent to the scorekeeper.

The phone holds the player's seat link (:mod:`scorekeeper.store.seats.seat_keys`). It shows the same
docked keypad as the round screen for one row, sends the hand (kept on the server until the
round is saved), and after the save the player's own line of that round, with "That's not my
hand", above the board. Without JavaScript every key posts, as on the round screen.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, make_response, request, url_for
from werkzeug.exceptions import Forbidden

from scorekeeper import store
from scorekeeper.web import keyring
from scorekeeper.rules import N_, RoundError
from scorekeeper.web import assets, languages
from scorekeeper.web.forms import ConfirmForm
from scorekeeper.web.languages import gettext
from scorekeeper.web.presenters import saved_words, sent_words
from scorekeeper.web.forms.round import RoundDraft, small_int
from scorekeeper.web.views.common import go, held, is_htmx, render
from scorekeeper.web.views.games import form_token_digest

bp = Blueprint("hands", __name__, url_prefix="/games/<int:game_id>/hand")


class NotYourSeat(Forbidden):
    """A phone without this game's seat link (or one made anew since) opened a player's page."""

    # In the catalogue (N_); the error page says them in the reader's language.
    title = N_("This page is a player's own")
    description = N_("Open your own seat link (\u201cAnn\u2019s seat link\u201d) from the scorekeeper\u2019s Share "
                     "page: the scorekeeper may have made new seat links since this phone opened its one.")


def _seat(game_id: int) -> store.HeldSeat:
    if store.peek(game_id) is None:
        abort(404)
    seat = keyring.held_seat(game_id)
    if seat is None:
        raise NotYourSeat()
    return seat


def _load(game_id: int) -> store.LoadedGame:
    try:
        return store.load(game_id)
    except store.NotFound:
        abort(404)


def live_tag(game_id: int, version: int, position: int, number: int | None, fragment: bool | None = None) -> str:
    """The player's page's validator: the game's version (a round saved, a flag raised or
    answered), the hand this seat has sent for the round being played (from any of its phones),
    the release of the templates, the browser's form token and the page's language."""
    sent = store.sent_hands(game_id, number).get(position) if number else None
    return (f"h{game_id}-v{version}-s{position}-r{sent.revision if sent else 0}"
            f".{assets.release(current_app)}.{form_token_digest()}.{languages.locale_code()}{'-f' if (is_htmx() if fragment is None else fragment) else ''}")


def _page(loaded: store.LoadedGame, seat: store.HeldSeat, draft: RoundDraft | None = None, status: int = 200,
          message: str = ""):
    state = loaded.state
    rules = state.rules
    nxt = state.next
    sent = store.sent_hands(loaded.id, nxt.number).get(seat.position) if nxt else None
    if draft is None and nxt is not None:
        draft = RoundDraft.blank(nxt.number, len(state.players), rules.deck)
        if sent is not None:
            draft.take_sent({seat.position: sent})
    if draft is not None:
        draft.selected = seat.position
    last = state.rounds[-1] if state.rounds else None
    flagged = {f.number for f in store.flags_of(loaded) if f.position == seat.position}
    response = render("hand.html", status, loaded=loaded, game=loaded.game, state=state, before=state, seat=seat,
                      draft=draft, sent=sent, sent_line=sent_words(state, seat.position, sent) if sent else "",
                      keeper_line=sent_words(state, seat.position, sent.keeper_entry) if sent and sent.keeper_entry else "",
                      last=last, last_line=saved_words(state, last, seat.name) if last else "",
                      flagged=flagged, message=message, editable=False, watching=True,
                      tag=live_tag(loaded.id, loaded.game.version, seat.position, nxt.number if nxt else None, True))
    response.headers["Cache-Control"] = "no-cache"
    if status == 200:
        response.set_etag(live_tag(loaded.id, loaded.game.version, seat.position, nxt.number if nxt else None))
    return response


@bp.route("", methods=["GET", "POST"])
def own_hand(game_id: int):
    seat = _seat(game_id)
    loaded = _load(game_id)
    if request.method == "GET":
        return _page(loaded, seat)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    state = loaded.state
    setup = state.setup
    draft = RoundDraft.from_form(request.form, len(setup.players), setup.rules.deck)
    draft.selected = seat.position
    for name, act in (("key", draft.press), ("unkey", draft.unpress), ("edit", draft.edit)):
        if name in request.form:
            act(request.form[name])
            return _page(loaded, seat, draft)
    if state.next is None or draft.number != state.next.number:
        # The round this form was for is saved (or the game is over): what was saved is shown.
        return _already_saved(loaded, seat, draft.number)
    record = draft.own_hand(seat.position, setup)
    if record is None:
        return _page(loaded, seat, draft, 422)
    try:
        store.send_hand(game_id, draft.number, seat.name, record)
    except store.AlreadyRecorded:
        return _already_saved(_load(game_id), seat, draft.number)
    except RoundError as exc:
        draft.place(setup, exc.problems)
        return _page(loaded, seat, draft, 422)
    if not is_htmx():
        return go(url_for("hands.own_hand", game_id=game_id))
    return _page(_load(game_id), seat)


def _already_saved(loaded: store.LoadedGame, seat: store.HeldSeat, number: int):
    state = loaded.state
    word = languages.round_title(state.rules)
    if 1 <= number <= len(state.rounds):
        line = saved_words(state, state.rounds[number - 1], seat.name)
        message = languages.round_sentence(state.rules, "%(round)s %(number)s is already saved, with your hand as %(hand)s: nothing was sent. "
                          "If that is not your hand, tap \u201cThat\u2019s not my hand\u201d.",
                          round=word, number=number, hand=line)
    else:
        message = languages.round_sentence(state.rules, "%(round)s %(number)s is not the one being played: nothing was sent.", round=word,
                          number=number)
    return _page(loaded, seat, status=409, message=message)


@bp.get("/live")
def live(game_id: int):
    """The player's page polled (``If-None-Match``): 304 while the game, this seat's sent hand and
    its flags are as the phone shows them, else the page."""
    seat = _seat(game_id)
    peeked = store.peek(game_id)
    number = store.next_round_number(game_id)
    tag = live_tag(game_id, peeked.version, seat.position, number)
    holds = held(tag)
    if holds is not None:
        response = make_response("", 304)
        response.set_etag(holds)
        response.headers["Cache-Control"] = "no-cache"
        return response
    return _page(_load(game_id), seat)


@bp.post("/flag")
def flag(game_id: int):
    """"That's not my hand": the player's word for the scorekeeper that a saved round is wrong."""
    seat = _seat(game_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    loaded = _load(game_id)
    number = small_int(request.form.get("number"))
    if number is None or not 1 <= number <= len(loaded.state.rounds):
        return _page(loaded, seat, status=409, message=gettext("That round is no longer saved: nothing was flagged."))
    store.flag_round(game_id, number, seat.position)
    if not is_htmx():
        return go(url_for("hands.own_hand", game_id=game_id))
    return _page(_load(game_id), seat)
