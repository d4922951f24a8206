"""Names as people type them: one rule for every name (players, rule sets), so that two names
that look alike count as one and a name that shows nothing is refused."""

from __future__ import annotations

import unicodedata

MAX_NAME = 40


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
    ``ValueError`` saying what is wrong with it. ``most``: its longest length."""
    if not isinstance(name, str):
        raise ValueError(f"a {what} must be text")
    if has_half_character(name):
        raise ValueError(f"the {what} {name!r} is not valid text (it holds half a character)")
    # One way of writing each letter: "María" typed with a combining accent is the same name.
    cleaned = unicodedata.normalize("NFC", " ".join(name.split()))
    if not cleaned:
        raise ValueError(f"a {what} cannot be empty")
    if not visible(cleaned):
        raise ValueError(f"the {what} {cleaned!r} shows nothing: it is empty once the invisible characters "
                         "(such as U+3164 HANGUL FILLER or U+2800 BRAILLE PATTERN BLANK) are left out")
    if len(cleaned) > most:
        raise ValueError(f'the {what} "{cleaned[:most]}..." is longer than {most} characters')
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or ch in "\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff" for ch in cleaned):
        raise ValueError(f"the {what} {cleaned!r} contains invisible control characters")
    if len(name_key(cleaned)) > most:
        # The folded form is stored too (to match names), and must fit the same column.
        raise ValueError(f'the {what} "{cleaned}" is too long: with ß as ss (and the like) '
                         f"it is over {most} characters")
    return cleaned
