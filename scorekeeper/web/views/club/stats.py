"""A player's statistics page: results per rule set, the ladder, head to head, recent games."""

from __future__ import annotations

from flask import Blueprint, abort, request
from scorekeeper.web.languages import gettext

from scorekeeper.web import charts
from scorekeeper.club import history
from scorekeeper import store
from scorekeeper.web.views.common import no_huge_ids, positive_int, render

bp = Blueprint("stats", __name__)
bp.url_value_preprocessor(no_huge_ids)


@bp.get("/players/<int:player_id>")
def player(player_id: int):
    stats = history.player_stats(player_id)
    if stats is None:
        abort(404)
    h2h = None
    vs_problem = None
    status = 200
    raw = request.args.get("vs")
    if raw:
        try:
            vs = positive_int(raw)
        except ValueError:
            vs, vs_problem, status = None, gettext('"%(text)s" is not a player number.', text=raw[:20]), 404
        if vs == player_id:
            vs_problem = gettext("Choose someone else to compare with.")
        elif vs is not None:
            h2h = history.head_to_head(stats, vs)
            if h2h is None:
                other = store.get_player(vs)
                if other is None:
                    vs_problem, status = gettext("There is no player number %(number)s.", number=vs), 404
                else:
                    vs_problem = gettext("%(other)s and %(name)s have not played a game together.", other=other.name,
                                         name=stats.player.name)
    rating = history.rating_path(player_id, charts.RATING_POINTS)
    chart = None
    if rating.games:
        best, worst = rating.best, rating.worst
        # One game has no best and lowest to tell apart: the line from the start says it all.
        marks = ((best.number, best.after), (worst.number, worst.after)) if rating.games > 1 else ()
        chart = charts.rating_chart(stats.player.name, rating.points, *marks)
    return render("player.html", status, stats=stats, h2h=h2h, vs_problem=vs_problem, rating=rating,
                  rating_chart=chart)
