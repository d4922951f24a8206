"""Pictures of a game: SVG line charts drawn on the server.

No script and no ``style`` attribute: colours come from the stylesheet through the
classes ``seat-0`` .. ``seat-7`` (the players' colours everywhere else, light and
dark), line patterns from ``line seat-N``. Every chart is an ``role="img"`` with a
title and a description that says what it shows; the page puts a table of the same
numbers beside it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from flask import has_request_context
from flask_babel import format_decimal
from markupsafe import Markup, escape

from scorekeeper.rules import GameState, Progression
from scorekeeper.web.languages import gettext, in_sentence, ngettext, stage_title
from scorekeeper.web.presenters import join_names, stages_word

WIDTH = 360
HEIGHT = 230
LEFT, RIGHT, TOP, BOTTOM = 42, 14, 12, 40
#: Markers on every point up to this many rounds (beyond, only the last point).
MARKERS_UP_TO = 16
#: A line is drawn with the points a phone can tell apart (:func:`thinned`) in columns this
#: wide (units of the drawing, which a phone shows at about one CSS pixel each).
COLUMN = 1.0


#: The most points a player's rating is drawn with (the database chooses them: see
#: :func:`~scorekeeper.store.figures.rating_summaries.path_of`): a phone shows the chart about
#: 300 pixels wide, so a line over thousands of games is drawn from fewer points.
RATING_POINTS = 200


@dataclass(frozen=True)
class Series:
    seat: int
    name: str
    values: tuple[float, ...]  # one per x, from x = 0 (or at each of ``xs``)
    #: The x of each value, rising, when not every x has one (a player's rating, drawn from a
    #: few of its points).
    xs: tuple[int, ...] | None = None
    #: The player's colour (``seat-N``) where it is not the seat's own: a player keeps theirs
    #: from game to game (:func:`~scorekeeper.web.presenters.player_colours`).
    colour: int | None = None

    def x_of(self, i: int) -> int:
        return self.xs[i] if self.xs is not None else i

    @property
    def x_max(self) -> int:
        return self.x_of(len(self.values) - 1) if self.values else 0


def nice_ticks(top: float, most: int = 5) -> list[int]:
    """Round-number ticks from 0 that cover ``top``.

    >>> nice_ticks(0), nice_ticks(7), nice_ticks(118), nice_ticks(1000)
    ([0, 1], [0, 2, 4, 6, 8], [0, 50, 100, 150], [0, 250, 500, 750, 1000])
    """
    if top <= 0:
        return [0, 1]
    rough = top / (most - 1)
    power = 10 ** math.floor(math.log10(rough))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= rough)
    step = max(1, int(step)) if step >= 1 else 1
    count = math.ceil(top / step)
    return [i * step for i in range(count + 1)]


#: About how wide a digit of an axis label is, in units of the drawing (12px text, app.css).
DIGIT = 7


def x_step(x_max: int, width: float) -> int:
    """How far apart the x axis is labelled: the step of :func:`nice_ticks`, with room for
    each label and a gap (a rating over 3,659 games labelled every 366 ran its labels together).

    >>> x_step(6, 304), x_step(20, 304), x_step(100, 304), x_step(1426, 304), x_step(3658, 304)
    (1, 2, 20, 250, 1000)
    """
    most = max(1, int(width // (len(str(x_max)) * DIGIT + 12)))
    ticks = nice_ticks(x_max, most + 1)
    return ticks[1] - ticks[0]


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def line_chart(
    chart_id: str,
    title: str,
    description: str,
    series: Sequence[Series],
    y_ticks: Sequence[int],
    x_label: str | None = None,
    y_label: str = "",
    step: bool = False,
    spread: float = 0.0,
    highlights: Sequence[tuple[int, float, str]] = (),
) -> Markup:
    """An SVG line chart; x runs 0..len(values)-1, y from the first tick to the last.

    ``highlights`` are points ``(x, y, what)`` ringed on top of the lines (a best and a worst
    moment), each with its words as a title.

    ``step`` draws each change as a step (levels); ``spread`` moves each seat's line
    up or down by that many units so that equal lines stay visible side by side.
    """
    x_label = gettext("Round") if x_label is None else x_label
    x_max = max(max((s.x_max for s in series), default=0), 1)
    y_bottom = y_ticks[0]
    y_top = y_ticks[-1] if y_ticks[-1] != y_bottom else y_bottom + 1
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x_at(i: float) -> float:
        return LEFT + plot_w * i / x_max

    def y_at(v: float) -> float:
        return TOP + plot_h * (1 - (v - y_bottom) / (y_top - y_bottom))

    tid, did = f"{chart_id}-title", f"{chart_id}-desc"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="{escape(chart_id)}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{escape(tid)} {escape(did)}" focusable="false" preserveAspectRatio="xMidYMid meet">',
        f'<title id="{escape(tid)}">{escape(title)}</title>',
        f'<desc id="{escape(did)}">{escape(description)}</desc>',
        '<g class="grid" aria-hidden="true">',
    ]
    for tick in y_ticks:
        y = _num(y_at(tick))
        out.append(f'<line x1="{LEFT}" y1="{y}" x2="{WIDTH - RIGHT}" y2="{y}"/>')
        out.append(f'<text class="tick" x="{LEFT - 6}" y="{y}" dy="0.35em" text-anchor="end">{tick}</text>')
    every = x_step(x_max, plot_w)
    for i in [*range(0, x_max, every), x_max]:
        if i != x_max and x_max - i < every * 0.6:
            continue  # keep the last label clear of its neighbour
        x = _num(x_at(i))
        out.append(f'<line class="xtick" x1="{x}" y1="{TOP + plot_h}" x2="{x}" y2="{TOP + plot_h + 4}"/>')
        out.append(f'<text class="tick" x="{x}" y="{TOP + plot_h + 16}" text-anchor="middle">{i}</text>')
    out.append(
        f'<text class="axis-label" x="{LEFT + plot_w / 2:.0f}" y="{HEIGHT - 4}" text-anchor="middle">'
        f"{escape(x_label)}</text>"
    )
    if y_label:
        out.append(
            f'<text class="axis-label" x="{12}" y="{TOP + plot_h / 2:.0f}" text-anchor="middle" '
            f'transform="rotate(-90 12 {TOP + plot_h / 2:.0f})">{escape(y_label)}</text>'
        )
    out.append("</g>")
    count = len(series)
    for s in series:
        shift = spread * (s.seat - (count - 1) / 2) if spread else 0.0
        coords: list[tuple[float, float]] = []
        for i, v in enumerate(s.values):
            y = y_at(v) - shift
            x = x_at(s.x_of(i))
            if step and coords:
                coords.append((x, coords[-1][1]))
            coords.append((x, y))
        seat = (s.seat if s.colour is None else s.colour) % 8
        path = " ".join(f"{_num(x)},{_num(y)}" for x, y in thinned(coords))
        out.append(f'<g class="series" data-seat="{s.seat}"><title>{escape(s.name)}</title>')
        out.append(f'<polyline class="line seat-{seat}" points="{path}"/>')
        marks = range(len(s.values)) if len(s.values) <= MARKERS_UP_TO + 1 else [len(s.values) - 1]
        for i in marks:
            if i == 0 and len(s.values) > 1:
                continue
            out.append(
                f'<circle class="mark seat-{seat}" cx="{_num(x_at(s.x_of(i)))}" cy="{_num(y_at(s.values[i]) - shift)}" '
                f'r="{3.6 if i == len(s.values) - 1 else 2.6}"/>'
            )
        out.append("</g>")
    for i, v, what in highlights:
        out.append(f'<circle class="peak" cx="{_num(x_at(i))}" cy="{_num(y_at(v))}" r="6"><title>{escape(what)}</title>'
                   "</circle>")
    out.append("</svg>")
    return Markup("".join(out))


def thinned(coords: Sequence[tuple[float, float]], column: float = COLUMN) -> list[tuple[float, float]]:
    """The points of a line that the screen can tell apart: of the points that fall in each
    ``column`` of the width, the first, the highest, the lowest and the last, in their order,
    so that every peak and dip is drawn where it is and the line runs on from column to column.

    A busy player's rating over 3,659 games is 3,660 points across a chart 304 units wide:
    38 KB of the player page's 57 KB, twelve points to each pixel of a phone's screen. A line
    with no more than four points in any column is drawn as it is.

    >>> thinned([(0.0, 5.0), (0.2, 1.0), (0.4, 9.0), (0.6, 4.0), (0.8, 3.0), (1.5, 2.0)])
    [(0.0, 5.0), (0.2, 1.0), (0.4, 9.0), (0.8, 3.0), (1.5, 2.0)]
    """
    kept: list[tuple[float, float]] = []
    start = 0
    while start < len(coords):
        end = start
        edge = math.floor(coords[start][0] / column)
        while end + 1 < len(coords) and math.floor(coords[end + 1][0] / column) == edge:
            end += 1
        if end - start < 4:
            kept.extend(coords[start:end + 1])
        else:
            inside = range(start, end + 1)
            # On the screen y grows downwards: the smallest y is the highest point.
            chosen = {start, end, min(inside, key=lambda i: coords[i][1]), max(inside, key=lambda i: coords[i][1])}
            kept.extend(coords[i] for i in sorted(chosen))
        start = end + 1
    return kept


def _finals(state: GameState) -> str:
    parts = [f"{p.name} {p.total}" for p in state.players]
    return ", ".join(parts)


def _one(x: float) -> str:
    """A rating as the reader writes it, one decimal ("12.5", "12,5" in German)."""
    return format_decimal(x, "0.0") if has_request_context() else f"{x:.1f}"


def totals_chart(state: GameState, chart_id: str = "totals-chart", colours: Sequence[int] | None = None) -> Markup:
    """Each player's running total after every round (0 before round 1). ``colours``: each
    seat's colour where it is not the seat's own (:func:`~scorekeeper.presenters.player_colours`)."""
    colours = colours or range(len(state.players))
    series = [
        Series(p.seat, p.name, (0,) + tuple(r.totals[p.seat] for r in state.rounds), colour=colours[p.seat])
        for p in state.players
    ]
    top = max((max(s.values) for s in series), default=0)
    low = min((min(s.values) for s in series), default=0)
    # Bonuses can take a total below 0 (Shanghai's -50): the axis then spans both sides of 0.
    ticks = nice_ticks(top) if low >= 0 else span_ticks(low, max(top, 0))
    n = len(state.rounds)
    if state.finished:
        desc = ngettext("Running totals over %(num)d round; final totals: %(totals)s.",
                        "Running totals over %(num)d rounds; final totals: %(totals)s.", n, totals=_finals(state))
    else:
        desc = ngettext("Running totals over %(num)d round; totals after round %(num)d: %(totals)s.",
                        "Running totals over %(num)d rounds; totals after round %(num)d: %(totals)s.", n,
                        totals=_finals(state))
    if state.winners:
        desc += " " + gettext("Won by %(names)s.", names=join_names(state.winners))
    return line_chart(chart_id, gettext("Running totals"), desc, series, ticks, y_label=gettext("Total"))


def levels_chart(state: GameState, chart_id: str = "levels-chart",
                 colours: Sequence[int] | None = None) -> Markup | None:
    """A ladder: the contracts each player has made after every round (0 to the last stage);
    None when everyone plays the deal's contract. ``colours``: as :func:`totals_chart`'s."""
    if state.rules.progression is not Progression.LADDER:
        return None
    last = state.rules.last_stage
    colours = colours or range(len(state.players))
    series = [
        Series(p.seat, p.name, (0,) + tuple(r.completed[p.seat] or 0 for r in state.rounds), colour=colours[p.seat])
        for p in state.players
    ]
    made = ", ".join(f"{p.name} {p.completed}" for p in state.players)
    word = in_sentence(stage_title(state.rules))
    title = stages_word(state.rules).capitalize()
    n = len(state.rounds)
    desc = ngettext("Contracts made after each of %(num)d round (a player on %(stage)s N has made N - 1; "
                    "%(last)s ends the game): %(made)s.",
                    "Contracts made after each of %(num)d rounds (a player on %(stage)s N has made N - 1; "
                    "%(last)s ends the game): %(made)s.", n, stage=word, last=last, made=made)
    return line_chart(chart_id, title, desc, series, list(range(last + 1)),
                      y_label=gettext("Contracts made"), step=True, spread=1.6)


def span_ticks(low: float, high: float, most: int = 5) -> list[int]:
    """Round-number ticks that cover ``low`` to ``high`` (either may be below 0).

    >>> span_ticks(-2.8, 3.3), span_ticks(0, 0), span_ticks(10.2, 14.9)
    ([-4, -2, 0, 2, 4], [0, 1], [10, 12, 14, 16])
    """
    if high - low <= 0:
        return [math.floor(low), math.floor(low) + 1]
    rough = (high - low) / (most - 1)
    power = 10 ** math.floor(math.log10(rough))
    step = max(1, int(next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= rough)))
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return list(range(first, last + 1, step))


def rating_chart(name: str, points: Sequence[tuple[int, float]], best: tuple[int, float] | None = None,
                 worst: tuple[int, float] | None = None, chart_id: str = "rating-chart") -> Markup:
    """A player's rating before their first game (x = 0) and after each game since, drawn from
    the ``points`` given, each ``(x, rating)``, rising: the first and the last of the line and
    its best and lowest among them (at most :data:`RATING_POINTS` of them for a long history),
    so that the line starts and ends where the rating did and passes through each ring."""
    games, first, last = points[-1][0], points[0][1], points[-1][1]
    desc = ngettext("%(name)s's rating over %(num)d rated game, from %(first)s to %(last)s.",
                    "%(name)s's rating over %(num)d rated games, from %(first)s to %(last)s.", games,
                    name=name, first=_one(first), last=_one(last))
    highlights = []
    if best is not None:
        highlights.append((best[0], best[1], gettext("Best: %(rating)s after game %(number)s",
                                                     rating=_one(best[1]), number=best[0])))
        desc += " " + gettext("Best %(rating)s after game %(number)s.", rating=_one(best[1]), number=best[0])
    if worst is not None:
        highlights.append((worst[0], worst[1], gettext("Lowest: %(rating)s after game %(number)s",
                                                       rating=_one(worst[1]), number=worst[0])))
        desc += " " + gettext("Lowest %(rating)s after game %(number)s.", rating=_one(worst[1]), number=worst[0])
    values = tuple(v for _, v in points)
    ticks = span_ticks(min(values), max(values))
    line = Series(0, name, values, tuple(x for x, _ in points))
    return line_chart(chart_id, gettext("Rating"), desc, [line], ticks, x_label=gettext("Games rated"),
                      y_label=gettext("Rating"),
                      highlights=highlights)


def sparkline(values: Sequence[float], label: str) -> Markup:
    """A small line of a few values (a rating over the last games), labelled for screen readers."""
    width, height, pad = 56, 18, 2
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    count = max(len(values) - 1, 1)
    points = " ".join(f"{_num(pad + (width - 2 * pad) * i / count)},"
                      f"{_num(height - pad - (height - 2 * pad) * ((v - low) / span if high > low else 0.5))}"
                      for i, v in enumerate(values))
    trend = "up" if values[-1] > values[0] else "down" if values[-1] < values[0] else "flat"
    return Markup(f'<svg xmlns="http://www.w3.org/2000/svg" class="spark {trend}" viewBox="0 0 {width} {height}" '
                  f'width="{width}" height="{height}" role="img" aria-label="{escape(label)}" focusable="false">'
                  f'<polyline points="{points}"/></svg>')


__all__ = ["RATING_POINTS", "Series", "levels_chart", "line_chart", "nice_ticks", "rating_chart", "span_ticks", "sparkline",
           "totals_chart"]
