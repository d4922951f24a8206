"""A club night on a big screen: the club's TV or a tablet on the wall shows every table's live
totals side by side, the night's standings, and a banner when a table's game ends. Read-only
and by its own link, like a game's watch link: anyone may read a night.

It follows the tables as a watcher's board does (docs/architecture.md, "One round"): the page
polls ``/nights/ID/screen/live?v=<tag>`` every two seconds, and while nothing changed the poll
is answered 204 after one query (:func:`scorekeeper.store.night_version`: the night's games'
versions, its draw, whether it is closed, the names of its players and of its house rule
set); a reload revalidates with the same tag as its ETag and gets 304. Only a change loads the tables' games and works out the standings.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from flask import Blueprint, abort, current_app, make_response, request, session

from scorekeeper import store
from scorekeeper.club.nights import night_standings
from scorekeeper.web import assets, languages
from scorekeeper.web.views.common import held, is_htmx, render
from scorekeeper.web.views.games import form_token_digest
from scorekeeper.web.views.club.nights import rule_name

bp = Blueprint("night_screen", __name__, url_prefix="/nights")


class ScreenTable(NamedTuple):
    """A table of the night's latest round of games: its number and its game as loaded (None: drawn, not started)."""

    table: int
    loaded: store.LoadedGame | None
    names: tuple[str, ...] = ()


def screen_tag(night_id: int, version: store.NightVersion) -> str:
    """What the screen shows, in a few characters: the same on every server for the same night."""
    digest = hashlib.sha256(repr(tuple(version)).encode()).hexdigest()[:16]
    return f"n{night_id}-{digest}"


def _etag(night_id: int, version: store.NightVersion) -> str:
    """The tag, and what else the page is made of: page or fragment, the release, this
    browser's form token (the page carries it), the language (as a board's ETag)."""
    return (f"{screen_tag(night_id, version)}{'-f' if is_htmx() else ''}.{assets.release(current_app)}"
            f".{form_token_digest()}.{languages.locale_code()}")


def _tables(night: store.Night) -> tuple[int, list[ScreenTable]]:
    """The night's round of games now on (its latest), and its tables: the games started, each
    loaded and replayed as a board is, and those drawn and waiting to start."""
    games = store.night_games(night.id)
    waiting_round, waiting = store.drawn_tables(night)
    latest = max([t.round for t in games] + [waiting_round], default=0)
    tables = [ScreenTable(t.table, store.load(t.game_id)) for t in games if t.round == latest]
    if waiting_round == latest:
        tables += [ScreenTable(t.table, None, tuple(t.names)) for t in waiting]
    return latest, sorted(tables, key=lambda t: t.table)


def _screen(night_id: int, template: str, version: store.NightVersion | None = None):
    version = version or store.night_version(night_id)
    if version is None:
        abort(404)
    etag = _etag(night_id, version)
    # A page that shows a flashed message (the keeper's phone, after a change) has no ETag: its
    # next reload must not get it back with the message.
    message = bool(session.get("_flashes"))
    holds = None if message else held(etag)
    if holds is not None:
        response = make_response("", 304)
        response.set_etag(holds)
    else:
        night = store.get_night(night_id)
        latest, tables = _tables(night)
        response = render(template, night=night, tables=tables, latest=latest, rule_name=rule_name(night.rules),
                          standings=night_standings(night.id), tag=screen_tag(night_id, version))
        if not message:
            response.set_etag(_etag(night_id, version))  # after the page made this browser's form token
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/<int:night_id>/screen")
def screen(night_id: int):
    """The whole screen (a fragment for htmx)."""
    return _screen(night_id, "night_screen.html")


@bp.get("/<int:night_id>/screen/live")
def live(night_id: int):
    """The screen's poll (``?v=`` the tag it shows): 204 after one query when nothing changed,
    else the screen's part that changes."""
    version = store.night_version(night_id)
    if version is None:
        abort(404)
    if request.args.get("v") == screen_tag(night_id, version):
        response = make_response("", 204)
        response.headers["Cache-Control"] = "no-cache"
        return response
    return _screen(night_id, "_screen_live.html", version)
