"""Every table in its own language: which language a request is answered in, and the words
of the rules engine's data in it.

A person's choice (the ``lang`` cookie, set on the language page) wins; without one, the best
match of the browser's Accept-Language among the languages shipped; else English. Catalogues
live in ``translations/`` beside this module (``make translations`` extracts, updates and
compiles them; the compiled ``.mo`` files are committed, so a clean clone needs no step).

The app's words, the templates' among them, are translated by this module's ``gettext``,
``ngettext`` and ``pgettext``, from the request's catalogue as :func:`language` found it once
for the request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

from babel import Locale
from babel.support import NullTranslations, Translations
from flask import Flask, Request, g, has_app_context, has_request_context, request
from flask_babel import Babel, format_date, format_percent, format_time, get_locale, get_translations
from jinja2 import pass_context, pass_eval_context
from markupsafe import Markup, escape

from scorekeeper.rules import (ABOUT, N_, PRESETS, Card, CardError, Deck, Phrase, Problem, Progression, Rank, RuleSet,
                               parse_rank)

#: The languages shipped, each named in itself, in the order the language page lists them.
LANGUAGES: dict[str, str] = {
    "de": "Deutsch",
    "en": "English",
    "es": "Español",
    "fr": "Français",
    "fi": "Suomi",
}
DEFAULT = "en"
#: The cookie that keeps a person's choice, for a year.
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).resolve().parent / "translations"

#: How each language's table calls the court cards and the ace, canonical rank to its letter:
#: what the keypad shows and what typing in that language reads. Languages not listed use
#: the canonical letters (A K Q J).
COURT_LETTERS: dict[str, dict[str, str]] = {
    "de": {"A": "A", "K": "K", "Q": "D", "J": "B"},  # Ass, König, Dame, Bube
    "fr": {"A": "A", "K": "R", "Q": "D", "J": "V"},  # as, roi, dame, valet
}


_SEPARATORS = re.compile(r"([\s,;]+)")


def court_letters() -> dict[str, str]:
    """This request's letters for A K Q J, canonical to local ({} where they are the same)."""
    return COURT_LETTERS.get(locale_code(), {})


def card_letter(card: Card, letters: dict[str, str] | None = None) -> str:
    """A card as this reader's table writes it: "D" for a German or French queen, "Joker"
    in their word for it, "Skip" and "Wild" of Phase 10 too; a number card as it is.
    ``letters``: this request's :func:`court_letters`, where the caller has them already (a
    hand asks for them once, not card by card)."""
    if card is Rank.JOKER:
        return gettext("Joker")
    value, label = card.value, card.label  # (an enum's value is looked up anew each time it is read)
    if label != value:  # Phase 10's words
        return gettext(label)
    return (court_letters() if letters is None else letters).get(value, value)


def typed_aliases() -> dict[str, str]:
    """What typing reads besides the canonical spellings, in this request's language only:
    each local letter (lower case) to its canonical rank ("b" to "J" in German)."""
    return {local.lower(): canonical for canonical, local in court_letters().items() if local != canonical}


def hand_example(deck: Deck) -> str:
    """The deck's example hand for a text field's hint, in this language's letters ("A R 7 7")."""
    if deck is Deck.PHASE10:
        return deck.example
    letters = court_letters()
    return " ".join(letters.get(token, token) for token in deck.example.split())


def canonical_hand(text: str, deck: Deck | None) -> str:
    """A hand typed with this language's letters, with each one written canonically ("K D B A"
    in German is "K Q J A"), runs typed without spaces too ("kdba"); what is no card stays as
    typed, for the engine to name. Other languages' letters are not read (a French "R" is no
    card on a German phone). The canonical letters are read in every language.

    Applied where a posted form is read, so what is stored, exported and sent through the API
    is canonical."""
    local = typed_aliases()
    if not local or deck is Deck.PHASE10:
        return text
    piece = re.compile(rf"10|jk|joker|\*|[2-9tajqk]|[{''.join(local)}]", re.IGNORECASE)
    out = []
    for part in _SEPARATORS.split(text):
        pieces = piece.findall(part)
        if "".join(pieces) == part and any(p.lower() in local for p in pieces):
            part = "".join(local.get(p.lower(), p.upper()) for p in pieces)
        out.append(part)
    return "".join(out)


def chosen(req: Request) -> str | None:
    """The language a person chose on this browser (its cookie), if it is one shipped."""
    value = req.cookies.get(COOKIE, "")
    return value if value in LANGUAGES else None


#: The blueprints whose addresses may carry their language (``?lang=fr``): a result card's
#: picture, which a chat's preview fetches with no cookie of the reader's. A page stays in its
#: reader's language whatever the link that led there said.
CARRIED = frozenset({"cards"})


def asked(req: Request) -> str | None:
    """The language a result card's address carries (``?lang=fr``), if it is one shipped."""
    value = req.args.get(COOKIE, "") if req.blueprint in CARRIED else ""
    return value if value in LANGUAGES else None


def select_locale() -> str:
    """The language of this request: the one a result card's address carries, else the
    person's choice, else the browser's best match. The API answers in English whatever the browser says: its
    answers do not vary by language; so does whatever the app works out outside a request."""
    if not has_request_context() or request.path.startswith("/api/"):
        return DEFAULT
    return (asked(request) or chosen(request) or request.accept_languages.best_match(LANGUAGES, DEFAULT)
            or DEFAULT)


@dataclass(frozen=True)
class Language:
    """A request's language: its code ("de") and its catalogue (Flask-Babel's translations)."""

    code: str
    catalogue: NullTranslations


def language() -> Language:
    """This request's language, found once for the request and kept on it (``g``), as
    Flask-Babel keeps the locale it chose: Flask-Babel's own ``gettext`` and ``get_locale``
    find the request's context anew three times for every word, and a scoreboard says a few
    hundred (its cards among them). Outside an application's context: English."""
    if not has_app_context():
        return Language(DEFAULT, get_translations())
    found = g.get("language")
    if found is None:
        found = g.language = Language(str(get_locale() or DEFAULT), get_translations())
    return found


def gettext(string: str, **variables) -> str:
    """``string`` in the reader's language, its blanks filled, as Flask-Babel's ``gettext``."""
    said = language().catalogue.ugettext(string)
    return elided(said % variables, variables) if variables else said


def ngettext(singular: str, plural: str, num: int, **variables) -> str:
    """The form of a plural message for ``num`` in the reader's language, its blanks filled
    (``num`` among them), as Flask-Babel's ``ngettext``."""
    variables.setdefault("num", num)
    return elided(language().catalogue.ungettext(singular, plural, num) % variables, variables)


def pgettext(context: str, string: str, **variables) -> str:
    """``string`` said in ``context``, in the reader's language, as Flask-Babel's ``pgettext``."""
    said = language().catalogue.upgettext(context, string)
    return elided(said % variables, variables) if variables else said


#: The blanks that hold a name: a player's (or several, "Ann et Ben") or a rule set's. Only
#: names: a number in words keeps its "de" ("de huit", "de onze").
NAME_BLANKS = ("name", "names", "rules")
#: French words that lose their "e" before a vowel or a mute h: "de", "que" and the
#: conjunctions made with "que".
_ELIDING = r"(?<![\w’'])([Dd]|[Qq]u|[Jj]usqu|[Ll]orsqu|[Pp]uisqu)e "
_VOWELS = "aeiouàâäéèêëîïôöùûüœæ"


def _starts_with_a_vowel_sound(name: str) -> bool:
    """Whether a name begins as French elides before: a vowel ("Ann", "Éric"), an h (a first
    name's h is mute: "Hélène", "Henri"), a y before a consonant ("Yves", not "Yann")."""
    first = name[:2].lower()
    if len(first) < 2 or not first[1].isalpha():
        return False  # a card or a single letter ("A K 7") is no name
    if first[0] == "y":
        return first[1] not in _VOWELS
    return first[0] in _VOWELS + "h"


def elided(said: str, values: dict[str, object]) -> str:
    """A sentence with its blanks filled, in French with "de" and "que" elided before a name
    that starts with a vowel sound ("la main d’Ann", not "de Ann"): the catalogue cannot write
    it, as it does not know the name. CLDR and Babel give no rule for it. Other languages as
    they are."""
    if locale_code() != "fr":
        return said
    for key in NAME_BLANKS:
        name = values.get(key)
        if not isinstance(name, str) or not _starts_with_a_vowel_sound(name):
            continue
        shown = str(escape(name)) if isinstance(said, Markup) else name
        found = re.sub(_ELIDING + re.escape(shown), lambda m: f"{m.group(1)}’{shown}", str(said))
        said = Markup(found) if isinstance(said, Markup) else found
    return said


#: How each language writes a place in figures after the ordinal category CLDR's rules give
#: the number (Babel's ``Locale.ordinal_form``: English 1 "one", 2 "two", 3 "few", 11 and 4
#: "other"). CLDR has the categories but not the typed suffixes, so these are ours, without
#: superscript: "1st", "1er" and "2e", "1.", "1.º" (a place standing alone: "1.er" is the form
#: before a noun only).
ORDINAL_SUFFIXES: dict[str, dict[str, str]] = {
    "en": {"one": "st", "two": "nd", "few": "rd", "other": "th"},
    "de": {"other": "."},
    "es": {"other": ".º"},
    "fr": {"one": "er", "other": "e"},
    "fi": {"other": "."},
}


def ordinal(place: int) -> str:
    """A place as the reader's language types it: "2nd", "2.", "2.º", "2e", "2."."""
    code = locale_code()
    suffixes = ORDINAL_SUFFIXES.get(code, ORDINAL_SUFFIXES[DEFAULT])
    form = _locale(code).ordinal_form(place)
    return f"{place}{suffixes.get(form, suffixes['other'])}"


@cache
def _locale(code: str) -> Locale:
    return Locale.parse(code)


def locale_code() -> str:
    """The language of this request as its code ("de"), for ``<html lang>`` and ETags."""
    return language().code


def language_name() -> str:
    """The language of this request in its own words ("Deutsch")."""
    return LANGUAGES.get(locale_code(), LANGUAGES[DEFAULT])


def local_path(target: str | None) -> str | None:
    """``target`` if it is a path on this site ("/games/3?x=1"), else None: the language page
    returns only to a page of ours, never to another host (no open redirect).

    >>> local_path("/games/3/rounds/new"), local_path("//evil.example/"), local_path("https://x.y/")
    ('/games/3/rounds/new', None, None)
    >>> local_path("/\\\\evil.example"), local_path("games"), local_path(None)
    (None, None, None)
    """
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return None
    if any(ord(c) < 32 or ord(c) == 127 for c in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


def is_preset(rules: RuleSet) -> bool:
    """Whether a game's rules are one of the built-in rule sets, whose words are ours to
    translate; a house rule set is shown as its author wrote it."""
    return rules.key in PRESETS


def translated(text: str) -> str:
    """One of the engine's own words (marked with ``N_`` where it is written: a dealer rule)
    in the reader's language."""
    return gettext(text) if text else text


def _preset_lines(rules: RuleSet) -> list[str]:
    return [rules.name, rules.stage_word, rules.meld_note, *(stage.contract for stage in rules.stages),
            *(bonus.label for bonus in rules.bonuses)]


@cache
def _preset_words() -> dict[str, str]:
    """Every word and line of the presets' data (the engine's English, as marked with ``N_``),
    keyed by how it reads in each shipped language: a copy of a preset holds them in the
    language of the phone that copied it. A line two presets' words share in some language
    (never one the engine writes twice) is left out: it cannot say which one it is."""
    english = {line for rules in PRESETS.values() for line in _preset_lines(rules) if line}
    english |= {progression.stage_word for progression in Progression}
    found: dict[str, str | None] = {line: line for line in english}
    for code in LANGUAGES:
        if code == DEFAULT:
            continue
        catalogue = Translations.load(str(TRANSLATIONS), [code])
        for line in english:
            said = catalogue.ugettext(line)
            if said != line:
                found[said] = None if found.get(said, line) != line else line
    return {said: line for said, line in found.items() if line is not None}


def preset_word(text: str) -> str | None:
    """The preset word or line ``text`` is, in the engine's English, whichever shipped language
    it is written in; None for a table's own words."""
    return _preset_words().get(text)


def engine_stage_word(rules: RuleSet) -> str | None:
    """The rule set's word for a stage when it is one of the engine's own ("Level", "Deal",
    "Phase", as the engine writes it), read in any shipped language; None for a table's own."""
    word = rules.stage_word if is_preset(rules) else preset_word(rules.stage_word)
    return word if word in STAGE_WORDS else None


#: The engine's own words for a stage: the defaults of a ladder and of deals, and Phase 10's.
STAGE_WORDS = ("Level", "Deal", "Phase")


#: Sentences that frame a stage's word, whole for each of the engine's own words: a language
#: gives "level", "phase" and "deal" their own gender, number and case, and the words around
#: them agree ("au niveau 3" but "à la phase 3", "Phase jouée"), which a sentence with the word
#: in a blank cannot know. A table's own word goes into the blank of the first sentence, which
#: each catalogue writes so that nothing around the blank has to agree with it.
STAGE_SENTENCES: dict[str, dict[str, str]] = {
    "made the %(stage)s": {"Level": N_("made the level"), "Phase": N_("made the phase")},
    "no %(stage)s": {"Level": N_("no level"), "Phase": N_("no phase")},
    "%(name)s made the %(stage)s": {"Level": N_("%(name)s made the level"), "Phase": N_("%(name)s made the phase")},
    "%(name)s completes %(stage)s %(number)s": {"Level": N_("%(name)s completes level %(number)s"),
                                                "Phase": N_("%(name)s completes phase %(number)s")},
    "%(stage)s %(number)s": {"Level": N_("level %(number)s"), "Phase": N_("phase %(number)s")},
    "%(name)s (to %(stage)s %(number)s)": {"Level": N_("%(name)s (to level %(number)s)"),
                                           "Phase": N_("%(name)s (to phase %(number)s)")},
    "%(name)s (completed %(stage)s %(number)s)": {"Level": N_("%(name)s (completed level %(number)s)"),
                                                  "Phase": N_("%(name)s (completed phase %(number)s)")},
    "Each player climbs alone: a player moves up one %(stage)s for each round in which they made their contract. "
    "The game ends after the first round in which someone completes %(stage)s %(last)s.": {
        "Level": N_("Each player climbs alone: a player moves up one level for each round in which they made their "
                    "contract. The game ends after the first round in which someone completes level %(last)s."),
        "Phase": N_("Each player climbs alone: a player moves up one phase for each round in which they made their "
                    "contract. The game ends after the first round in which someone completes phase %(last)s.")},
    "Among the players who completed %(stage)s %(last)s, every one with the lowest total.": {
        "Level": N_("Among the players who completed level %(last)s, every one with the lowest total."),
        "Phase": N_("Among the players who completed phase %(last)s, every one with the lowest total.")},
    "%(stage)s played in each round (✓ made it)": {"Level": N_("Level played in each round (✓ made it)"),
                                                   "Phase": N_("Phase played in each round (✓ made it)")},
    "Contracts made after each round: a flat stretch is a %(stage)s someone was stuck on.": {
        "Level": N_("Contracts made after each round: a flat stretch is a level someone was stuck on."),
        "Phase": N_("Contracts made after each round: a flat stretch is a phase someone was stuck on.")},
    "Rounds %(name)s needed to make each %(stage)s's contract (the round that made it counted), and how often a "
    "game ended with %(name)s still on it.": {
        "Level": N_("Rounds %(name)s needed to make each level's contract (the round that made it counted), and how "
                    "often a game ended with %(name)s still on it."),
        "Phase": N_("Rounds %(name)s needed to make each phase's contract (the round that made it counted), and how "
                    "often a game ended with %(name)s still on it.")},
    "%(name)s made every %(stage)s's contract at the first try: no %(stage)s was slow.": {
        "Level": N_("%(name)s made every level's contract at the first try: no level was slow."),
        "Phase": N_("%(name)s made every phase's contract at the first try: no phase was slow.")},
    "Everyone plays the same %(stage)s: %(stage)s 1 in the first round, %(stage)s 2 in the second, and so on. "
    "The game ends after %(stage)s %(last)s.": {
        "Deal": N_("Everyone plays the same deal: deal 1 in the first round, deal 2 in the second, and so on. "
                   "The game ends after deal %(last)s.")},
}


def stage_sentence(rules: RuleSet, message: str, **values: object) -> str:
    """``message``, a sentence about the rule set's stages, in the reader's language: whole,
    its word written in, where the stage's word is the engine's own (:data:`STAGE_SENTENCES`);
    else with the table's word in its blank (``values["stage"]``)."""
    whole = STAGE_SENTENCES.get(message, {}).get(engine_stage_word(rules) or "")
    return gettext(whole or message, **values)


#: The engine's own words for a round: a ladder's "Round", and "Deal" where round n is deal n.
#: Each language's sentences about a round are written for them, the words around the
#: round's word agreeing with it ("la manche 3 est enregistrée", "la mano 3 guardada").
ROUND_WORDS = ("Round", "Deal")
#: The context in which each sentence about a round is written a second time, for a house
#: rule set's own word for a round ("tour", "juego"), whose gender, number and case no
#: sentence can know: each catalogue writes it so that nothing around the word agrees with it
#: ("Enregistrer : tour 3"). ``make translations`` extracts both (scorekeeper/web/extraction.py).
OWN_ROUND = "a table's own round word"


def engine_round_word(rules: RuleSet | None) -> str | None:
    """The rule set's word for a round when it is one of the engine's own ("Round", "Deal", as
    the engine writes it); None for a table's own. No rule set (a game whose rules cannot be
    read) says "round"."""
    if rules is None or rules.progression is Progression.LADDER:
        return "Round"
    word = engine_stage_word(rules)
    return word if word in ROUND_WORDS else None


def round_message(rules: RuleSet | None, message: str) -> str:
    """``message``, a sentence framing the round's word (``%(round)s``), in the reader's
    language with its blanks left: as written for the engine's own words, else in the
    :data:`OWN_ROUND` context."""
    if engine_round_word(rules) is not None:
        return language().catalogue.ugettext(message)
    return language().catalogue.upgettext(OWN_ROUND, message)


def round_sentence(rules: RuleSet | None, message: str, **values: object) -> str:
    """``message``, a sentence framing the round's word (``values["round"]``), in the reader's
    language, its blanks filled (:func:`round_message`)."""
    return elided(round_message(rules, message) % values, values)


@pass_eval_context
def _round_markup(eval_ctx, rules: RuleSet | None, message: str, **values: object) -> str:
    """:func:`round_sentence` for a template, as the templates' own ``_`` fills a sentence:
    the sentence's markup kept ("<strong>"), the values' escaped."""
    if not eval_ctx.autoescape:
        return round_sentence(rules, message, **values)
    said = Markup(round_message(rules, message)) % {key: escape(value) for key, value in values.items()}
    return elided(said, values)


def percent(share: float | None) -> str:
    """A share as the reader's language writes a percentage ("67%", "67 %", "67 %"); a dash
    where there is none."""
    return "–" if share is None else format_percent(round(share, 2))


def rule_text(text: str, rules: RuleSet) -> str:
    """A word or line of a rule set's data (its name, a contract, its stage word, a bonus) in
    the reader's language when the rule set is a preset, or where a house rule set copied from
    one still holds the preset's words (in the language of the phone that copied it); a
    table's own words as written."""
    if not text:
        return text
    if is_preset(rules):
        return gettext(text)
    line = preset_word(text)
    return gettext(line) if line is not None else text


def round_title(rules: RuleSet) -> str:
    """What the table calls one hand of play, as a title: "Round" on a ladder, the stage's word
    ("Deal") where round n is stage n."""
    if rules.progression is Progression.LADDER:
        return gettext("Round")
    return rule_text(rules.stage_word, rules)


def stage_title(rules: RuleSet) -> str:
    """The rule set's word for a contract, as a title: "Level", "Phase", "Deal"."""
    return rule_text(rules.stage_word, rules)


def in_sentence(word: str) -> str:
    """A title word inside a sentence: lower case, except in German, where nouns keep their
    capital ("Runde 3 eintragen", "record round 3")."""
    return word if locale_code() == "de" else word.lower()


def rounds_count(rules: RuleSet | None, count: int) -> str:
    """"3 rounds", "1 deal": a number of the game's rounds, in its own word where it is ours."""
    if rules is not None and rules.progression is Progression.DEAL:
        if engine_stage_word(rules) == "Deal":
            return ngettext("%(num)d deal", "%(num)d deals", count)
        if locale_code() == DEFAULT:
            return f"{count} {rules.stage_word.lower()}{'' if count == 1 else 's'}"
    return ngettext("%(num)d round", "%(num)d rounds", count)


def day_time(moment, time: bool = True, weekday: bool = False) -> str:
    """A day (and its time) as this reader's calendar writes it: "03 Dec 2026, 19:05" in
    English, "03.12.2026, 19:05" in German; with the weekday first, "Thu 03 Dec 2026, 19:05"
    and "Do. 03.12.2026, 19:05"."""
    if locale_code() == DEFAULT:
        return moment.strftime(("%a " if weekday else "") + ("%d %b %Y, %H:%M" if time else "%d %b %Y"))
    day = format_date(moment, "medium")
    if weekday:
        day = f"{format_date(moment, 'EEE')} {day}"
    return f"{day}, {format_time(moment, 'short')}" if time else day


def preset_name(key: str, name: str) -> str:
    """A rule set's name by its key, as a filter offers it: a built-in one's in the reader's
    language, a house rule set's as its author wrote it."""
    return gettext(name) if key in PRESETS else name


def problem_message(problem: Problem) -> str:
    """What the rules engine refused, in the reader's language where the engine gave its words
    with their blanks (a preset's name and the cards in this language too); else as it said it."""
    if not problem.template:
        return problem.message
    params = dict(problem.params)
    if "rules" in params:
        params["rules"] = gettext(str(params["rules"]))
    for key in ("card", "rank"):
        if key in params:
            try:
                params[key] = card_letter(parse_rank(str(params[key])))
            except CardError:
                pass
    return gettext(problem.template).format(**{key: phrase_words(value) if isinstance(value, Phrase) else value
                                              for key, value in params.items()})


#: The blank a message about a field starts with (``{what}``, with its colon in some languages),
#: left out where the message is about the whole field its problem names.
_WHAT = re.compile(r"\A\{what\}(?: ?:)? ")


def phrase_words(phrase: Phrase) -> str:
    """A :class:`~scorekeeper.rules.Phrase` in the reader's language, the phrases in its blanks
    too ("a player's name cannot be empty"), and the engine's problems ("Round 2, Ann: ...")."""
    values = phrase.values
    template = gettext(phrase.template)
    if values.get("what") == "":
        template = _WHAT.sub("", template)
    return template.format(**{key: _blank(value) for key, value in values.items()})


def _blank(value: object) -> str:
    if isinstance(value, Phrase):
        return phrase_words(value)
    if isinstance(value, Problem):
        return problem_words(value)
    return str(value)


def said(error: Exception) -> str:
    """An error's message in the reader's language where it carries its words with their blanks
    (``said``, a :class:`~scorekeeper.rules.Phrase` or the engine's
    :class:`~scorekeeper.rules.Problem`); else as it said it."""
    phrase = getattr(error, "said", None)
    if phrase is None:
        return str(error)
    return _blank(phrase)


def problem_words(problem: Problem) -> str:
    """A problem as a sentence, as ``str(problem)`` says it (the round and the player first),
    in the reader's language."""
    where = []
    if problem.round is not None:
        where.append(gettext("round %(number)s", number=problem.round))
    if problem.player is not None:
        where.append(problem.player)
    message = problem_message(problem)
    prefix = ", ".join(where)
    if prefix:
        return gettext(ABOUT).format(where=prefix[0].upper() + prefix[1:], reason=message)
    return message[0].upper() + message[1:]


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale, default_translation_directories=str(TRANSLATIONS))
    # The templates' words from the request's catalogue as found once (language()), in place
    # of the callables Flask-Babel installs, which find it anew for each word.
    app.jinja_env.install_gettext_callables(
        gettext=lambda string: language().catalogue.ugettext(string),
        ngettext=lambda singular, plural, num: language().catalogue.ungettext(singular, plural, num),
        pgettext=lambda context, string: language().catalogue.upgettext(context, string),
        npgettext=lambda context, singular, plural, num: language().catalogue.unpgettext(context, singular, plural,
                                                                                        num),
        newstyle=True,
    )
    # Every template sentence with a name in a blank goes through the same French elision as
    # the Python side's (elided): the names are known only once the blanks are filled.
    env = app.jinja_env
    for name in ("gettext", "ngettext", "pgettext", "npgettext"):
        env.globals[name] = _eliding(env.globals[name])
    env.globals["round_sentence"] = _round_markup
    env.globals["engine_round_word"] = engine_round_word


def _eliding(said):
    @pass_context
    def eliding(context, *args, **variables):
        return elided(said(context, *args, **variables), variables)
    return eliding
