"""A result card: a game's or a club night's result as the words of a picture to share.

Here the card is only words, each line in the reader's language (the places, ties, totals and
levels as the scoreboard says them, the rule set, the date, the club's name); drawing them is
:mod:`scorekeeper.web.picture`'s. Kept apart so that what a card says is tested as text.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import astuple, dataclass

from flask import current_app, url_for
from flask_babel import format_decimal

from scorekeeper.web import links, presenters
from scorekeeper.web.languages import day_time, gettext, locale_code, ngettext, ordinal, rounds_count, rule_text

#: The name a card carries when the club has set none (``CLUB_NAME``, docs/running.md).
APP_NAME = "Scorekeeper"
#: The most players a night's card lists (a game has at most eight): a picture as tall as a
#: whole club's check-in would be no preview at all; the rest are counted under them.
MOST_LINES = 16


@dataclass(frozen=True)
class Line:
    """One player on the card: their place ("1st"), name, what else the board says of them (a
    tie, their level), their total. ``medal``: 1, 2 or 3 for a place on the podium."""

    place: str
    name: str
    detail: str
    total: str
    medal: int | None


@dataclass(frozen=True)
class Card:
    club: str
    title: str
    headline: str
    #: The heads of the three columns: place, player, total (or place points).
    heads: tuple[str, str, str]
    lines: tuple[Line, ...]
    footer: str
    #: Said under the lines when some players are left off ("and 4 more players").
    more: str = ""

    def text(self) -> str:
        """Every word on the card, a line each, in the order drawn."""
        rows = [" | ".join(part for part in (line.place, line.name, line.detail, line.total) if part)
                for line in self.lines]
        return "\n".join([self.club, self.title, self.headline, " | ".join(self.heads), *rows,
                          *([self.more] if self.more else []), self.footer])

    def digest(self) -> str:
        """A short digest of everything the card shows: two cards alike draw the same picture."""
        return hashlib.sha256(repr(astuple(self)).encode()).hexdigest()[:16]


def club_name() -> str:
    """The club's name as its server is configured (``CLUB_NAME``), else the app's."""
    name = str(current_app.config.get("CLUB_NAME") or "").strip()
    return name or APP_NAME


def address(endpoint: str, external: bool = False, **values) -> str:
    """A card's address in this page's language (``?lang=``): the picture a phone shares, or a
    chat's preview fetches without the reader's cookie, says what the page said. ``external``:
    the whole address, on the host links are made for (a preview needs it whole)."""
    values["lang"] = locale_code()
    return links.external(endpoint, **values) if external else url_for(endpoint, **values)


def _medal(place: int, ranked: bool) -> int | None:
    return place if ranked and place <= 3 else None


def _joined(*parts: str) -> str:
    return " · ".join(part for part in parts if part)


def game_card(state, started_on, finished_on, club: str) -> Card:
    """A game's card from its state as the engine works it out: finished, its podium; still in
    play, its places as they stand, marked so."""
    rules = state.rules
    ranked = bool(state.rounds)
    places = presenters.places(state) if ranked else {}
    shared = Counter(places.values())
    ladder = presenters.is_ladder(state)
    lines = []
    for player in sorted(state.players, key=lambda p: (places.get(p.name, 0), p.seat)):
        place = places.get(player.name)
        level = ""
        if ladder:
            level = (presenters.completed_words(rules, player.completed) if state.finished
                     else presenters.describe(state.next.stages[player.seat], rules))
        tied = place is not None and shared[place] > 1
        lines.append(Line(ordinal(place) if place is not None else "–", player.name,
                          _joined(gettext("(tied)") if tied else "", level), str(player.total),
                          _medal(place or 99, ranked)))
    if state.finished:
        title, headline = gettext("Game over"), presenters.result_words(state)
    else:
        title = gettext("Game in progress")
        headline = (gettext("As it stands after %(rounds)s.", rounds=rounds_count(rules, len(state.rounds)))
                    if ranked else gettext("No round played yet."))
    day = day_time(finished_on or started_on, time=False)
    return Card(club, title, headline, (gettext("Place"), gettext("Player"), gettext("Total")), tuple(lines),
                _joined(rule_text(rules.name, rules), day))


def night_card(held_on, closed: bool, standings: Sequence, rule_name: str, club: str) -> Card:
    """A club night's card from its standings (:func:`scorekeeper.club.nights.standings`): closed,
    its podium; still going on, the standings as they stand, marked so."""
    lines = tuple(
        Line(ordinal(s.rank), s.name,
             _joined(gettext("(tied)") if s.tied else "", ngettext("%(num)d game", "%(num)d games", s.games),
                     gettext("(still playing)") if s.playing else ""),
             format_decimal(float(s.points), "0.00"), _medal(s.rank, True))
        for s in standings)
    winners = [s.name for s in standings if s.rank == 1]
    if not standings:
        headline = gettext("No game yet tonight.")
    elif closed:
        headline = ngettext("%(names)s wins the night.", "%(names)s share the night's win.", len(winners),
                            names=presenters.join_names(winners))
    else:
        headline = gettext("The night goes on: the standings as they stand.")
    title = gettext("Club night of %(date)s", date=day_time(held_on, time=False, weekday=True))
    left = len(lines) - MOST_LINES
    more = ngettext("and %(num)d more player", "and %(num)d more players", left) if left > 0 else ""
    return Card(club, title, headline, (gettext("Place"), gettext("Player"), gettext("Place points")),
                lines[:MOST_LINES], rule_name, more)
