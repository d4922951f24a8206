"""A marker for the engine's own words that a reader sees: the built-in rule sets' names,
contracts, stage words, notes and bonuses, the dealer rules, the cards' names.

The engine speaks English and imports no translation library: ``N_`` returns its text
unchanged, and only marks it, so that the catalogues' extraction (``make translations``,
which knows the keyword ``N_``) finds it. The web layer shows these words through gettext in
the reader's language, a preset's only: a house rule set reads as its author wrote it.

>>> N_("Balmoral Rummy")
'Balmoral Rummy'
"""

from __future__ import annotations


def N_(text: str) -> str:  # noqa: N802 (the name gettext's tools know)
    return text


__all__ = ["N_"]
