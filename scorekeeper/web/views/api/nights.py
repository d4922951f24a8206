"""Club nights in the API (``GET /api/nights``, ``GET /api/nights/ID``): read only, as anyone
reads a night's page; the keeper runs a night on its page."""

from __future__ import annotations

from flask import jsonify, url_for

from scorekeeper import store
from scorekeeper.club.nights import RatingChange, night_rating_changes, night_standings
from scorekeeper.web.views.api.errors import ApiError
from scorekeeper.web.views.api.games import bp


def _summary(night: store.Night) -> dict:
    return {"id": night.id, "date": night.held_on.isoformat(), "rules": night.rules,
            "closed": night.closed_at is not None, "url": url_for("nights.night", night_id=night.id)}


def _rating(change: RatingChange | None) -> dict | None:
    if change is None:
        return None
    return {"before": round(change.before, 1), "after": round(change.after, 1), "change": round(change.change, 1),
            "games": change.games}


@bp.get("/nights")
def nights():
    """Every club night, the latest first.

    ---
    get:
      operationId: nights
      summary: Every club night, the latest first
      responses:
        200: {description: the nights, content: {application/json: {schema: Nights}}}
    """
    return jsonify({"nights": [_summary(night) for night in store.list_nights()]})


@bp.get("/nights/<int:night_id>")
def night(night_id: int):
    """A club night: its players, the tables waiting, its games and its standings.

    ---
    get:
      operationId: getNight
      summary: "A club night: its players, the tables drawn and not yet started, its games and its standings
        (place points fair between tables of any size, then penalty against each table), with each player's
        rating change over the night's finished games"
      parameters: [NightId]
      responses:
        200: {description: the night, content: {application/json: {schema: Night}}}
        404: NoNight
    """
    try:
        night = store.get_night(night_id)
    except store.NotFound:
        raise ApiError(404, f"no night {night_id}") from None
    waiting_round, waiting = store.drawn_tables(night)
    changes = night_rating_changes(night.id)
    return jsonify({
        **_summary(night),
        "players": [{"player_id": c.player_id, "name": c.name, "here": c.here} for c in store.checked_in(night.id)],
        "drawn": [{"round": waiting_round, "table": t.table, "players": t.names} for t in waiting],
        "games": [{"id": g.game_id, "round": g.round, "table": g.table, "finished": g.finished}
                  for g in store.night_games(night.id)],
        "standings": [{"rank": s.rank, "tied": s.tied, "player_id": s.player_id, "name": s.name,
                       "points": round(float(s.points), 4), "relative": round(float(s.relative), 2),
                       "games": s.games, "playing": s.playing, "rating": _rating(changes.get(s.player_id))}
                      for s in night_standings(night.id)],
    })
