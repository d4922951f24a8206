"""Seat links: the scorekeeper makes one for each player; a player opens theirs; the round
screen is told, by a conditional poll, which hands have arrived; a flag is dismissed."""

from __future__ import annotations

from flask import Blueprint, abort, flash, jsonify, make_response, request, url_for
from scorekeeper.web.languages import gettext, in_sentence, ngettext, round_sentence, round_title
from scorekeeper.web import keyring

from scorekeeper import store
from scorekeeper.web import languages
from scorekeeper.web.forms import ConfirmForm
from scorekeeper.web.presenters import sent_words
from scorekeeper.web.forms.round import small_int
from scorekeeper.web.views.common import go, held, key_page

bp = Blueprint("seats", __name__, url_prefix="/games/<int:game_id>")


def _load(game_id: int) -> store.LoadedGame:
    try:
        return store.load(game_id)
    except store.NotFound:
        abort(404)


def _keeper(game_id: int) -> store.LoadedGame:
    loaded = _load(game_id)
    if not keyring.can_edit(loaded.game):
        abort(403)
    return loaded


@bp.route("/seat", methods=["GET", "POST"])
def join(game_id: int):
    """Open a seat link (``seat#key=...``): the page posts the key, and this phone is then the
    player's own for the game."""
    loaded = _load(game_id)
    if request.method == "GET":
        return key_page("seat_join.html", game=loaded.game, problem=None, prefilled="")
    if not ConfirmForm().validate_on_submit():
        abort(400)
    key = request.form.get("key", "").strip()
    seat = store.seat_of(game_id, key)
    if seat is None:
        return key_page("seat_join.html", 403, game=loaded.game,
                        problem=gettext("This seat link no longer works: the scorekeeper made new seat links, or "
                                        "the link was cut short. Ask the scorekeeper for your link from the Share "
                                        "page."))
    keyring.hold(game_id, key)
    return go(url_for("hands.own_hand", game_id=game_id))


@bp.post("/seat-links")
def new_links(game_id: int):
    """Make a seat link for every player: every earlier seat link stops working."""
    _keeper(game_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    keys = store.make_seat_keys(game_id)
    keyring.remember_made(game_id, keys)
    flash(ngettext("Seat links made for %(num)d player: any earlier seat links no longer work.",
                   "Seat links made for %(num)d players: any earlier seat links no longer work.", len(keys)), "ok")
    return go(url_for("games.share", game_id=game_id) + "#seat-links")


@bp.get("/rounds/new/sent")
def sent(game_id: int):
    """The hands the players have sent for the round being played, for the round screen: 304
    (``If-None-Match``) while none arrived, changed or went since the screen's last look. Reading
    needs no key, as every board's does: the hands are laid on the table when the round ends."""
    peeked = store.peek(game_id)
    if peeked is None:
        abort(404)
    # The hands' words are in the reader's language (cards in its letters): so is the tag.
    tag = f"sent-g{game_id}-v{peeked.version}-{store.sent_tag(game_id)}-{languages.locale_code()}"
    holds = held(tag)
    if holds is not None:
        response = make_response("", 304)
    else:
        loaded = _load(game_id)
        state = loaded.state
        nxt = state.next
        hands = store.sent_hands(game_id, nxt.number) if nxt else {}
        response = jsonify({"number": nxt.number if nxt else None, "hands": [
            {"seat": position, "player": state.setup.players[position], "went_out": hand.went_out,
             "cards": hand.cards, "points": hand.points, "achieved": hand.achieved, "bonuses": list(hand.bonuses),
             "revision": hand.revision, "by_keeper": hand.by_keeper, "words": sent_words(state, position, hand)}
            for position, hand in sorted(hands.items())]})
    response.set_etag(holds or tag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/flags/dismiss")
def dismiss(game_id: int):
    """The scorekeeper looked at a player's "that's not my hand" and leaves the round as it is."""
    loaded = _keeper(game_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    number, position = small_int(request.form.get("number")), small_int(request.form.get("seat"))
    if number is not None and position is not None:
        store.dismiss_flag(game_id, number, position)
        if position < len(loaded.seats):
            rules = loaded.state.rules
            flash(round_sentence(rules, "%(name)s's word on %(round)s %(number)s dismissed: it stays as saved.",
                                 name=loaded.seats[position].name, round=in_sentence(round_title(rules)), number=number),
                  "ok")
    return go(url_for("games.scoreboard", game_id=game_id))
