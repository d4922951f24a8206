"""The words the phone's script (``static/js/``) builds its sentences from, in the reader's
language: every page carries them as JSON (``base.html``, ``<script type="application/json"
id="words">``), and ``banner.js``'s ``word`` fills their blanks ({name}, {round}). Each module
keeps its English for a page that gives none.

The messages are the catalogue's own, the same the templates use where a page says the same
thing ("sent by %(name)s: %(hand)s"), with each ``%(name)s`` written ``{name}`` for the script.
A sentence that names a stage is given whole for each of the engine's own stage words, as the
server's ``stage_sentence`` says it (``languages.STAGE_SENTENCES``): an object by the game's
``stage_kind`` ("Level", "Phase"), "" for the sentence with a table's own word in its blank;
``banner.js``'s ``stageWord`` picks one. A sentence that frames the round's word is given
likewise, as the server's ``round_sentence`` says it: under "" as written for the engine's own
words for a round ("Round", "Deal"), under "own" in the context ``languages.OWN_ROUND``, for a
table's own word; ``banner.js``'s ``roundWord`` picks one by the game's ``round_own``.
"""

from __future__ import annotations

import re

from scorekeeper.rules import N_
from scorekeeper.web.languages import OWN_ROUND, STAGE_SENTENCES, language, locale_code

_BLANK = re.compile(r"%\((\w+)\)[sd]")


def _script(text: str) -> str:
    return _BLANK.sub(r"{\1}", text)


def _(message: str) -> str:
    """A message in the reader's language, its blanks left for the script."""
    return _script(language().catalogue.ugettext(message))


def _stage(message: str) -> dict[str, str]:
    """A sentence naming a stage, whole for each of the engine's stage words ("Level",
    "Phase"), and under "" with the stage's word in a blank, for a table's own word."""
    return {"": _(message), **{kind: _(whole) for kind, whole in STAGE_SENTENCES[message].items()}}


def round_words(message: str) -> dict[str, str]:
    """A sentence framing the round's word, as written for the engine's own words for a round
    (under "") and for a table's own (under "own"); ``make translations`` extracts both."""
    return {"": _(message), "own": _script(language().catalogue.upgettext(OWN_ROUND, message))}


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a plural message for ``n``, its blanks ({num}) left for the script."""
    return _script(language().catalogue.ungettext(singular, plural, n))


def words() -> dict[str, object]:
    """Every word of the phone's script, by the name the script asks for it."""
    return {
        # Whether a title word keeps its capital inside a sentence (German nouns do), as
        # languages.in_sentence says it for the server's words.
        "capitals": locale_code() == "de",
        # Whether "de" and "que" are elided before a name that starts with a vowel sound ("la
        # main d’Ann"), as languages.elided does it for the server's sentences.
        "elides": locale_code() == "fr",
        # banner.js: the lost signal.
        "offline": _("Offline: reconnecting"),
        "offline_saving": _("Offline, retrying\u2026 nothing you entered is lost."),
        "live": _("Live again"),
        "kept_board": _("Offline: the scoreboard as of %(time)s"),
        "kept_page": _("Offline: this page as of %(time)s"),
        "keep_open": _("Keep this page open until the signal returns: a reload now shows the browser's own "
                       "\u201cno internet\u201d page. Nothing saved here is lost."),
        # outbox.js: rounds waiting to be sent.
        "waiting": round_words("%(round)s %(number)s: waiting to send"),
        "waiting_game": round_words("%(round)s %(number)s of game %(game)s: waiting to send"),
        "correction_waiting": round_words("Correction of %(round)s %(number)s: waiting to send"),
        "correction_waiting_game": round_words("Correction of %(round)s %(number)s of game %(game)s: waiting to send"),
        "not_sent": round_words("Offline, retrying\u2026 %(round)s %(number)s is kept on this phone and sent by itself "
                      "when the signal returns."),
        "sent": round_words("%(round)s %(number)s sent."),
        "sent_game": round_words("%(round)s %(number)s of game %(game)s sent."),
        "save_waiting": _("Waiting to send\u2026"),
        "back_to_game": _("Back to game %(game)s"),
        "nothing_waiting": _("Nothing from this phone is waiting to be sent."),
        "waiting_list": _("Waiting to be sent from this phone:"),
        # drafts.js: what a round waiting holds, in a line.
        "holds_out": _("%(name)s went out"),
        "holds_no_cards": _("%(name)s: no cards"),
        "holds_points": _("%(name)s: %(points)s points"),
        "holds_cards": _("%(name)s: %(cards)s (%(penalty)s)"),
        "holds_empty": _("%(name)s: no cards yet"),
        # keypad.js: a row's chips, the game's end, what the phone counts itself.
        "went_out": _("went out"),
        "no_cards": _("no cards"),
        "counted": _("counted by hand"),
        "no_cards_yet": _("no cards yet"),
        "ending": _("Saving ends the game: %(reasons)s."),
        "and": _("%(names)s and %(last)s"),
        "not_a_card": _('%(name)s: "%(card)s" is not a card.'),
        "not_in_game": _("%(name)s: %(card)s is not a card of this game."),
        "too_many_joker": _("%(name)s: %(total)s \u00d7 %(card)s in this round, but 1 joker in play."),
        "too_many_jokers": _("%(name)s: %(total)s \u00d7 %(card)s in this round, but %(limit)s jokers in play."),
        "too_many_deck": _("%(name)s: %(total)s \u00d7 %(card)s in this round, but 1 deck holds only %(limit)s of "
                           "%(rank)s."),
        "too_many_decks": _("%(name)s: %(total)s \u00d7 %(card)s in this round, but %(decks)s decks hold only "
                            "%(limit)s of %(rank)s."),
        # offline-form.js: the next round's form, made on the phone.
        "contract": _("%(stage)s %(number)s: %(contract)s"),
        "dealt": _("<strong>%(name)s</strong> dealt"),
        "cards_each": ngettext("<strong>%(num)d</strong> card each", "<strong>%(num)d</strong> cards each", 10),
        "made": _stage(N_("%(name)s made the %(stage)s")),
        "completes": _stage(N_("%(name)s completes %(stage)s %(number)s")),
        "record": round_words("Record %(round)s %(number)s"),
        "save": round_words("Save %(round)s %(number)s"),
        "last": round_words("%(round)s %(number)s is the last"),
        # offline.js: the rounds waiting, worked out on the phone, and a page kept without signal.
        "phone_figures": _("Worked out on this phone"),
        "phone_unknown": _("Not yet sent: the scores are worked out when the rounds reach the server."),
        "phone_after": round_words("Not yet sent: after %(round)s %(number)s, worked out on this phone"),
        "level": _stage(N_("%(stage)s %(number)s")),
        "next": round_words("Next: %(round)s %(number)s, %(name)s deals."),
        "ends_with": round_words("The game ends with %(round)s %(number)s."),
        "record_here": round_words("Record %(round)s %(number)s on this phone"),
        "undo_waiting": round_words("Undo %(round)s %(number)s (not yet sent)"),
        "taken_back": round_words("%(round)s %(number)s taken back: it was not sent."),
        "needs_signal_recording": _("Rounds are recorded on this phone and sent later; corrections, undo and "
                                    "sharing need the signal: they work again by themselves when this phone is "
                                    "back online."),
        "needs_signal": _("Recording, corrections, undo and sharing need the signal: they work again by "
                          "themselves when this phone is back online."),
        # arrivals.js: players' own hands arriving on the round screen.
        "sent_by": _("sent by %(name)s: %(hand)s"),
        "sent_kept": _("%(name)s sent: %(hand)s (yours is kept)"),
        "entered": _("entered by the scorekeeper: %(hand)s"),
        # seats.js: a seat added on the new-game page.
        "seat": _("Seat %(number)s"),
        "seat_name": _("Seat %(number)s: name"),
        # seat.js: a player's own hand on its way.
        "sending": _("Sending\u2026"),
        "hand_not_sent": _("Not sent yet: no signal. Your hand is kept on this phone and goes to the scorekeeper "
                           "by itself when the signal returns."),
        "hand_sending": _("Not sent yet: sending\u2026"),
    }


def page_words() -> dict[str, object]:
    """What a page gives its script: nothing where no catalogue speaks for the page (English:
    each module has its own words), the words otherwise."""
    return words() if getattr(language().catalogue, "files", None) else {}
