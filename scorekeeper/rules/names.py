"""Names as people type them: one rule for every name (players, rule sets), so that two names
that look alike count as one and a name that shows nothing is refused."""

from __future__ import annotations

import unicodedata

from scorekeeper.rules.words import N_, Phrase

MAX_NAME = 40
#: What a name is called in a refusal ("a player's name cannot be empty"), marked for the
#: catalogue, so that the web can say the refusal in the reader's words.
CALLED = {"name": N_("name"), "player's name": N_("player's name"), "rule set's name": N_("rule set's name")}


class NameRefused(ValueError):
    """A name :func:`clean_name` refuses, saying why in English; ``said``: the same words with
    their blanks (:class:`~scorekeeper.rules.Phrase`), for a reader in another language."""

    def __init__(self, template: str, what: str, **params: object) -> None:
        self.said = Phrase(template, {"what": Phrase(CALLED.get(what, what)), **params})
        super().__init__(str(self.said))


def has_half_character(text: str) -> bool:
    """True when the text holds a lone surrogate ("\\ud800" in JSON): half of a character, which
    no file, database or page can hold.

    >>> has_half_character("Ann"), has_half_character("A\\ud800")
    (False, True)
    """
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


#: Characters that show nothing, or a blank, though they are not spaces: fillers of the Hangul
#: script, the blank Braille pattern, joiners and marks of direction (and every character of
#: Unicode's "format" category, see :func:`_invisible`).
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180e\u2061\u2062\u2063\u2064")


def _invisible(ch: str) -> bool:
    return ch in BLANKS or unicodedata.category(ch) in ("Cf", "Cc", "Zs", "Zl", "Zp") or ch.isspace() \
        or "\ufe00" <= ch <= "\ufe0f"


def visible(name: str) -> str:
    """What shows of a name: without the characters that show nothing (see :data:`BLANKS`)."""
    return "".join(ch for ch in name if not _invisible(ch))


def name_key(name: str) -> str:
    """The form in which two names count as the same: case, spacing, Unicode's two ways of
    writing an accent (NFC) and characters that show nothing ignored.

    >>> name_key("  Ana   María ") == name_key("ana mari\u0301a") == name_key("Ana\u200d María")
    True
    """
    words = ("".join(ch for ch in word if not _invisible(ch)) for word in name.split())
    return unicodedata.normalize("NFC", " ".join(w for w in words if w).casefold())


def clean_name(name: object, what: str = "name", most: int = MAX_NAME) -> str:
    """A name (a player's, a rule set's) with surrounding and repeated spaces removed, or a
    :class:`NameRefused` (a ``ValueError``) saying what is wrong with it. ``most``: its longest
    length; ``what``: what the name is called (:data:`CALLED`)."""
    if not isinstance(name, str):
        raise NameRefused(N_("a {what} must be text"), what)
    if has_half_character(name):
        raise NameRefused(N_("the {what} {name} is not valid text (it holds half a character)"), what, name=repr(name))
    # One way of writing each letter: "María" typed with a combining accent is the same name.
    cleaned = unicodedata.normalize("NFC", " ".join(name.split()))
    if not cleaned:
        raise NameRefused(N_("a {what} cannot be empty"), what)
    if not visible(cleaned):
        raise NameRefused(N_("the {what} {name} shows nothing: it is empty once the invisible characters "
                             "(such as U+3164 HANGUL FILLER or U+2800 BRAILLE PATTERN BLANK) are left out"),
                          what, name=repr(cleaned))
    if len(cleaned) > most:
        raise NameRefused(N_('the {what} "{name}..." is longer than {most} characters'), what,
                          name=cleaned[:most], most=most)
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or ch in "\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff" for ch in cleaned):
        raise NameRefused(N_("the {what} {name} contains invisible control characters"), what, name=repr(cleaned))
    if len(name_key(cleaned)) > most:
        # The folded form is stored too (to match names), and must fit the same column.
        raise NameRefused(N_('the {what} "{name}" is too long: with ß as ss (and the like) it is over {most} characters'),
                          what, name=cleaned, most=most)
    return cleaned
