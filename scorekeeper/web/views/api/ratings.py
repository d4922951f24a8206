"""The club's ratings in the API (``GET /api/ratings``), on the API's blueprint so that a refused
filter is answered as JSON; the filters are the ratings page's own."""

from __future__ import annotations

from flask import jsonify, url_for

from scorekeeper.club import history
from scorekeeper import store
from scorekeeper.web.views.api.errors import ApiError
from scorekeeper.web.views.api.games import bp
from scorekeeper.web.views.club.ratings import rating_filter


def player_json(line: history.RatedPlayer, rank: int | None,
                nights: dict[int, history.NightsTally] | None = None) -> dict:
    r = line
    tally = (nights or {}).get(line.player_id, history.NightsTally())
    return {
        "rank": rank,
        "player_id": line.player_id,
        "name": line.name,
        "rating": round(r.rating, 1),
        "mu": r.mu,
        "sigma": r.sigma,
        "games": r.games,
        "wins": r.wins,
        "recent": [round(v, 1) for v in r.recent],
        "recent_change": round(r.recent_change, 1),
        "provisional": r.provisional,
        "nights_played": tally.played,
        "nights_won": tally.won,
        "url": url_for("stats.player", player_id=line.player_id),
    }


@bp.get("/ratings")
def ratings():
    """The club's ratings, with the leaderboard's filters (``rules``, ``period``), as the ratings
    page shows them; a filter it refuses is a JSON error.

    ---
    get:
      operationId: ratings
      summary: "The club's ratings (openskill Plackett-Luce over every finished, kept game in the order they
        finished): the leaderboard, and the players with fewer than five games apart"
      parameters:
        - name: rules
          in: query
          required: false
          schema: {type: string, maxLength: 20}
          description: "rate only the games of this rule-set key: a preset's (GET /api/rulesets lists them), a
            house rule set's (house-ID) or imported; one no game was played by is answered 404 (absent or empty:
            every game)"
        - name: period
          in: query
          required: false
          schema: {type: string, enum: ["", all, year], default: all}
          description: "rate only the games finished this year, or all (empty: all)"
      responses:
        200: {description: the leaderboard, content: {application/json: {schema: Ratings}}}
        400:
          description: "a period that is not one: the message says which"
          content: {application/json: {schema: Error}}
        404:
          description: "a rule-set key no game was played by: the message lists those played"
          content: {application/json: {schema: Error}}
    """
    filters, problems = rating_filter(history.rulesets_played())
    if problems:
        field, message = problems[0]
        # A rule-set key is open-ended (house-N): one no game was played by is not found, as
        # on the page; a period is one of a few words, so another is a bad request.
        raise ApiError(404 if field == "rules" else 400, message, field=field)
    board = history.leaderboard(filters)
    nights = history.nights_tally()  # the whole of every night, whatever the filters: a night is not split
    return jsonify({
        "rules": filters.rules,
        "period": filters.period,
        "games": board.games,
        "provisional_below": store.PROVISIONAL_BELOW,
        "ranked": [player_json(line, i, nights) for i, line in enumerate(board.ranked, start=1)],
        "provisional": [player_json(line, None, nights) for line in board.provisional],
    })
