"""A game's and a club night's result as a picture (a PNG) to share: what the phone's share
sheet sends, and the preview a chat shows of a game's or a night's link (Open Graph).

A game still in play, or a night still going on, gets its card as it stands, marked so: a
watch link is pasted into the club's chat when the game starts, and its preview should show
the table, not an error. A card is revalidated like every public page (``no-cache``) against
an ETag of what it shows: the game's version, or the night's standings; and its language, which
the reader's choice or browser gives, or ``?lang=`` on a link that must carry it.
"""

from __future__ import annotations

import hashlib

from flask import Blueprint, Response, abort, current_app

from scorekeeper import store
from scorekeeper.club.nights import night_standings
from scorekeeper.web import assets, cards, languages, picture
from scorekeeper.web.views.common import held
from scorekeeper.web.views.club.nights import rule_name

bp = Blueprint("cards", __name__)


def _etag(what: str) -> str:
    club = hashlib.sha256(cards.club_name().encode()).hexdigest()[:8]
    return f"card-{what}.{assets.release(current_app)}.{club}.{languages.locale_code()}"


def _png(etag: str, make) -> Response:
    """The card's picture, or a 304 when the phone (or a chat's preview) holds it already."""
    holds = held(etag)
    if holds is not None:
        response = Response(status=304)
        response.set_etag(holds)
    else:
        response = Response(picture.draw(make()), mimetype="image/png")
        response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games/<int:game_id>/card.png")
def game_card(game_id: int):
    peeked = store.peek(game_id)
    if peeked is None or peeked.deleted_at is not None:
        abort(404)

    def make() -> cards.Card:
        try:
            loaded = store.load(game_id)
        except store.NotFound:
            abort(404)
        if loaded.state is None:  # a game the engine no longer reads: nothing to show
            abort(404)
        game = loaded.game
        return cards.game_card(loaded.state, game.started_at, game.finished_at, cards.club_name())

    return _png(_etag(f"g{game_id}-v{peeked.version}"), make)


@bp.get("/nights/<int:night_id>/card.png")
def night_card(night_id: int):
    try:
        night = store.get_night(night_id)
    except store.NotFound:
        abort(404)
    # A night's card is made of its games' summaries: its words are cheap, its drawing is not,
    # so the words are worked out and their digest is the ETag.
    card = cards.night_card(night.held_on, night.closed_at is not None, night_standings(night.id),
                            rule_name(night.rules), cards.club_name())
    return _png(_etag(f"n{night_id}-{card.digest()}"), lambda: card)
