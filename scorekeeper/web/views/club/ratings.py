"""The club's ratings: the leaderboard, its CSV, and ``GET /api/ratings``."""

from __future__ import annotations

from flask import Blueprint, request
from flask_babel import format_decimal
from scorekeeper.web.languages import gettext, ngettext

from scorekeeper.web import charts, presenters
from scorekeeper.club import history
from scorekeeper.files import transfer
from scorekeeper.web.views.club.history import offered_rulesets, rules_problem
from scorekeeper.web.views.common import download, render

bp = Blueprint("ratings", __name__)


def rating_filter(played: dict[str, str]) -> tuple[history.RatingFilter, list[tuple[str, str]]]:
    """The filters asked for (``rules``, ``period``) and what was wrong with them, each
    ``(field, message)``; a wrong one is left out of the filter. ``played``: the rule sets
    games were played by (:func:`history.rulesets_played`)."""
    problems: list[tuple[str, str]] = []
    rules = request.args.get("rules") or None
    problem = rules_problem(rules, played) if rules is not None else None
    if problem is not None:
        problems.append(("rules", gettext("%(problem)s Or none, for every game.", problem=problem)))
        rules = None
    period = request.args.get("period") or "all"
    if period not in history.PERIODS:
        choices = gettext(" or ").join(gettext('"%(key)s" (%(words)s)', key=key, words=gettext(words).lower())
                                       for key, words in history.PERIODS.items())
        problems.append(("period", gettext('"%(period)s" is not a period: choose %(choices)s.', period=period[:20],
                                           choices=choices)))
        period = "all"
    return history.RatingFilter(rules, period), problems


def spark(line: history.RatedPlayer):
    recent = line.recent
    games = len(recent) - 1
    change = line.recent_change
    step = format_decimal(abs(change), "0.0")
    if not round(change, 1):
        words = ngettext("No change over the last %(num)d game", "No change over the last %(num)d games", games)
    elif change > 0:
        words = ngettext("Up %(step)s over the last %(num)d game", "Up %(step)s over the last %(num)d games", games,
                         step=step)
    else:
        words = ngettext("Down %(step)s over the last %(num)d game", "Down %(step)s over the last %(num)d games",
                         games, step=step)
    return charts.sparkline(recent, words) if len(recent) > 1 else None


@bp.get("/ratings")
def leaderboard():
    played = history.rulesets_played()
    filters, problems = rating_filter(played)
    rulesets = offered_rulesets(played, filters.rules)
    if problems:
        return render("ratings.html", 404, board=None, filters=filters, problems=[m for _, m in problems],
                      rulesets=rulesets, periods=history.PERIODS, spark=spark)
    board = history.leaderboard(filters)
    return render("ratings.html", board=board, filters=filters, problems=[], rulesets=rulesets,
                  periods=history.PERIODS, spark=spark)


@bp.get("/ratings.csv")
def leaderboard_csv():
    played = history.rulesets_played()
    filters, problems = rating_filter(played)
    if problems:
        return render("ratings.html", 404, board=None, filters=filters, problems=[m for _, m in problems],
                      rulesets=offered_rulesets(played, None), periods=history.PERIODS, spark=spark)
    suffix = "".join(f"-{part}" for part in (filters.rules, filters.period if filters.period != "all" else None)
                     if part)
    return download(transfer.ratings_csv(history.leaderboard(filters), presenters.csv_words()),
                    f"scorekeeper-ratings{suffix}.csv", "text/csv")
