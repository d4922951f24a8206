"""A marker for the engine's own words that a reader sees: the built-in rule sets' names,
contracts, stage words, notes and bonuses, the dealer rules, the cards' names; :class:`Phrase`,
a message with its blanks, for a reader in another language; and :func:`alternatives`, the
values a field may take, said as a choice in one of those blanks.

The engine speaks English and imports no translation library: ``N_`` returns its text
unchanged, and only marks it, so that the catalogues' extraction (``make translations``,
which knows the keyword ``N_``) finds it. The web layer shows these words through gettext in
the reader's language, a preset's only: a house rule set reads as its author wrote it.

>>> N_("Balmoral Rummy")
'Balmoral Rummy'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


def N_(text: str) -> str:  # noqa: N802 (the name gettext's tools know)
    return text


@dataclass(frozen=True)
class Phrase:
    """Words with blanks (``template``, marked with :func:`N_`) and what fills them, so that a
    caller can say them in another language: the engine's English is ``str(phrase)``. A blank
    may be filled by another phrase (what a message is about: "stage 3's cards"). A template
    that starts with ``{what} `` says what it is about only when it is told: filled with "", the
    message is about the whole field its problem names, and leaves it out.

    >>> str(Phrase(N_("{what} must be text"), {"what": Phrase(N_("stage {number}'s contract"), {"number": 3})}))
    "stage 3's contract must be text"
    >>> str(Phrase(N_("{what} must be text"), {"what": ""}))
    'must be text'
    """

    template: str
    params: tuple[tuple[str, object], ...] = ()

    def __init__(self, template: str, params: Mapping[str, object] | None = None) -> None:
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "params", tuple((params or {}).items()))

    @property
    def values(self) -> dict[str, object]:
        return dict(self.params)

    def __str__(self) -> str:
        values = {key: str(value) for key, value in self.params}
        template = self.template
        if values.get("what") == "" and template.startswith("{what} "):
            template = template[len("{what} "):]
        return template.format(**values)


#: A message with what it is about before it: a round, a player, a field ("Ann: ...").
ABOUT = N_("{where}: {reason}")


def alternatives(choices: Sequence[object]) -> object:
    """The values a field may take, as a reader is offered a choice ("{some} or {last}", in the
    reader's language): the one value itself when there is only one.

    >>> str(alternatives(['"ladder"', '"deal"'])), str(alternatives(["a", "b", "c"])), alternatives(["rotate"])
    ('"ladder" or "deal"', 'a or b or c', 'rotate')
    """
    if len(choices) < 2:
        return choices[0] if choices else ""
    return Phrase(N_("{some} or {last}"), {"some": alternatives(choices[:-1]), "last": choices[-1]})


__all__ = ["ABOUT", "N_", "Phrase", "alternatives"]
