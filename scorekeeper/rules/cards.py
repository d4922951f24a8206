"""Cards and hands: what is left in a player's hand when a round ends.

Suits never matter for scoring, so a hand is a multiset of ranks.

>>> hand = parse_hand("A k 7 7 3 k")
>>> hand.canonical
'A K K 7 7 3'
>>> hand_penalty(hand)
52
>>> parse_hand("ak77").canonical
'A K 7 7'
>>> try:
...     parse_hand("A X")
... except CardError as error:
...     print(error)
"X" is not a card (cards are A 2 3 4 5 6 7 8 9 10 J Q K and JK for a joker)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum


class Rank(Enum):
    """A card rank. The value is the canonical way to write it."""

    # Members are singletons: hashing by identity is what Enum's hash (of the member's name)
    # amounts to, in C instead of Python. Ranks are counted in every hand of every round.
    __hash__ = object.__hash__

    JOKER = "JK"
    ACE = "A"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    TEN = "10"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"
    SIX = "6"
    FIVE = "5"
    FOUR = "4"
    THREE = "3"
    TWO = "2"

    @property
    def label(self) -> str:
        """How the rank is shown on a keypad button."""
        return "Joker" if self is Rank.JOKER else self.value


#: The ranks in canonical order: highest penalty first, joker before ace.
RANK_ORDER: tuple[Rank, ...] = tuple(Rank)
_ORDER_INDEX = {rank: i for i, rank in enumerate(RANK_ORDER)}

#: Penalties used by both built-in rule sets (RULES.md).
STANDARD_VALUES: Mapping[Rank, int] = {
    Rank.JOKER: 15,
    Rank.ACE: 15,
    Rank.KING: 10,
    Rank.QUEEN: 10,
    Rank.JACK: 10,
    **{Rank(str(n)): n for n in range(2, 11)},
}

_ALIASES: dict[str, Rank] = {rank.value.lower(): rank for rank in Rank}
_ALIASES.update({"t": Rank.TEN, "joker": Rank.JOKER, "*": Rank.JOKER})
# A run of ranks typed without spaces ("AK77", "10JQ", "jk*").
#: Each rank's own spelling: a hand as stored ("K Q 7 7") is read with one lookup a card.
_BY_VALUE: dict[str, Rank] = {rank.value: rank for rank in Rank}
_RUN = re.compile(r"10|jk|joker|\*|[2-9tajqk]", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;]+")

MAX_HAND_TEXT = 400


class CardError(ValueError):
    """A token that is not a card. ``token`` is the offending text."""

    def __init__(self, token: str, message: str | None = None) -> None:
        self.token = token
        super().__init__(
            message
            or f'"{token}" is not a card (cards are A 2 3 4 5 6 7 8 9 10 J Q K and JK for a joker)'
        )


def parse_rank(token: str) -> Rank:
    """Read one rank, accepting the forms GAME-FORMAT.md allows.

    >>> parse_rank("t"), parse_rank("Joker"), parse_rank("*")
    (<Rank.TEN: '10'>, <Rank.JOKER: 'JK'>, <Rank.JOKER: 'JK'>)
    """
    rank = _ALIASES.get(token.strip().lower())
    if rank is None:
        raise CardError(token)
    return rank


def _split_run(token: str) -> list[Rank]:
    ranks: list[Rank] = []
    pos = 0
    while pos < len(token):
        match = _RUN.match(token, pos)
        if match is None:
            raise CardError(token)
        ranks.append(parse_rank(match.group(0)))
        pos = match.end()
    return ranks


@dataclass(frozen=True)
class Hand:
    """The ranks left in one hand, kept in canonical order."""

    ranks: tuple[Rank, ...] = ()

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.ranks, key=_ORDER_INDEX.__getitem__))
        object.__setattr__(self, "ranks", ordered)

    @classmethod
    def of(cls, ranks: Iterable[Rank]) -> Hand:
        return cls(tuple(ranks))

    @property
    def canonical(self) -> str:
        """Ranks separated by single spaces, highest penalty first."""
        return " ".join(rank.value for rank in self.ranks)

    def counts(self) -> Counter[Rank]:
        return Counter(self.ranks)

    def __len__(self) -> int:
        return len(self.ranks)

    def __str__(self) -> str:
        return self.canonical


def parse_hand(text: str) -> Hand:
    """Read a hand written as ranks separated by spaces (or commas).

    Ranks typed together without spaces are split too ("AK77").
    An empty string is an empty hand.
    """
    if not isinstance(text, str):
        raise CardError(repr(text), f"a hand must be written as text, not {type(text).__name__}")
    if len(text) > MAX_HAND_TEXT:
        raise CardError(text[:20] + "...", f"a hand of {len(text)} characters is far too long")
    if not text:
        return Hand()
    quick = [_BY_VALUE.get(token) for token in text.split(" ")]
    if None not in quick:
        # Ranks spelt as canonically, one space apart: the canonical text is no longer than
        # the text itself, which is within MAX_HAND_TEXT.
        return Hand(tuple(quick))  # type: ignore[arg-type]
    ranks: list[Rank] = []
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        alias = _ALIASES.get(token.lower())
        ranks.extend([alias] if alias is not None else _split_run(token))
    hand = Hand(tuple(ranks))
    if len(hand.canonical) > MAX_HAND_TEXT:
        # "tttt..." is 1 character a card, "10 10 ..." 3: a hand is stored, and read back, as written here.
        raise CardError(text[:20] + "...", f"{len(hand)} cards is far more than a hand holds")
    return hand


def hand_penalty(hand: Hand, values: Mapping[Rank, int] = STANDARD_VALUES) -> int:
    """The sum of the values of the cards in the hand."""
    return sum(values[rank] for rank in hand.ranks)
