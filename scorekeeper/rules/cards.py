"""Cards and hands: what is left in a player's hand when a round ends.

Suits never matter for scoring, so a hand is a multiset of ranks. Two decks are known: the
standard deck (A to K, and jokers) and the Phase 10 deck (1 to 12, skips and wilds); a hand
is read with its game's deck.

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
>>> parse_hand("12 skip 1 wild w", Deck.PHASE10).canonical
'W W S 12 1'
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property

from scorekeeper.rules.words import N_, Phrase

from scorekeeper.rules.words import N_


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
        return N_("Joker") if self is Rank.JOKER else self.value


class Phase10Rank(Enum):
    """A card of the Phase 10 deck. A separate enum, not more members of :class:`Rank`: code
    that iterates over the standard ranks (keypads, value tables) must not meet a skip."""

    __hash__ = object.__hash__

    WILD = "W"
    SKIP = "S"
    TWELVE = "12"
    ELEVEN = "11"
    TEN = "10"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"
    SIX = "6"
    FIVE = "5"
    FOUR = "4"
    THREE = "3"
    TWO = "2"
    ONE = "1"

    @property
    def label(self) -> str:
        return _P10_LABELS.get(self.value, self.value)


_P10_LABELS = {"W": N_("Wild"), "S": N_("Skip")}

#: A card of either deck.
Card = Rank | Phase10Rank

#: The ranks in canonical order: highest penalty first, joker before ace.
RANK_ORDER: tuple[Rank, ...] = tuple(Rank)
# Both decks in one order, so a Hand sorts without knowing its deck (a wild before a skip, as a
# joker comes before an ace: the costliest first).
_ORDER_INDEX: dict[Card, int] = {rank: i for i, rank in enumerate((*Rank, *Phase10Rank))}

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


#: What a token that is no card of the standard deck is told, its letters the canonical ones
#: (those a game file and the API write).
NOT_A_CARD = N_('"{token}" is not a card (cards are A 2 3 4 5 6 7 8 9 10 J Q K and JK for a joker)')


class CardError(ValueError):
    """A token that is not a card. ``token`` is the offending text; ``player`` whose hand it
    was in, when the hand was read for a player (:meth:`RoundRecord.create`); ``said``: the
    message's words with their blanks (:class:`~scorekeeper.rules.Phrase`), for a reader in
    another language (by default, that ``token`` is no card of the standard deck); ``code``:
    what kind of problem it is, for callers to match on instead of the words."""

    code = "not a card"

    def __init__(self, token: str, said: Phrase | None = None, player: str | None = None) -> None:
        self.token = token
        self.player = player
        self.said = said if said is not None else Phrase(NOT_A_CARD, {"token": token})
        super().__init__(str(self.said))


def parse_rank(token: str, deck: Deck | None = None) -> Card:
    """Read one rank of ``deck`` (the standard deck by default), accepting the forms
    GAME-FORMAT.md allows.

    >>> parse_rank("t"), parse_rank("Joker"), parse_rank("*")
    (<Rank.TEN: '10'>, <Rank.JOKER: 'JK'>, <Rank.JOKER: 'JK'>)
    >>> parse_rank("Skip", Deck.PHASE10), parse_rank("11", Deck.PHASE10)
    (<Phase10Rank.SKIP: 'S'>, <Phase10Rank.ELEVEN: '11'>)
    """
    if deck is Deck.PHASE10:
        card = _P10_ALIASES.get(token.strip().lower())
        if card is None:
            raise CardError(token, Phrase(_P10_NOT_A_CARD, {"token": token}))
        return card
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

    ranks: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        ordered = tuple(sorted(self.ranks, key=_ORDER_INDEX.__getitem__))
        object.__setattr__(self, "ranks", ordered)

    @classmethod
    def of(cls, ranks: Iterable[Card]) -> Hand:
        return cls(tuple(ranks))

    @property
    def canonical(self) -> str:
        """Ranks separated by single spaces, highest penalty first."""
        return " ".join(rank.value for rank in self.ranks)

    def counts(self) -> Counter[Card]:
        return Counter(self.ranks)

    @cached_property
    def tally(self) -> tuple[tuple[Card, int], ...]:
        """Each rank held, with how many of it, in canonical order: worked out once per hand
        (a stored hand is read once and shared, and every round replayed checks its cards)."""
        return tuple(Counter(self.ranks).items())

    def __len__(self) -> int:
        return len(self.ranks)

    def __str__(self) -> str:
        return self.canonical


def parse_hand(text: str, deck: Deck | None = None) -> Hand:
    """Read a hand of ``deck`` (the standard deck by default) written as ranks separated by
    spaces (or commas).

    Standard ranks typed together without spaces are split too ("AK77"); Phase 10 ranks are
    not ("112" could be 1 12 or 11 2), so they need a space between them.
    An empty string is an empty hand.
    """
    if not isinstance(text, str):
        raise CardError(repr(text), Phrase(N_("a hand must be written as text, not {kind}"), {"kind": type(text).__name__}))
    if len(text) > MAX_HAND_TEXT:
        raise CardError(text[:20] + "...", Phrase(N_("a hand of {length} characters is far too long"), {"length": len(text)}))
    if not text:
        return Hand()
    if deck is Deck.PHASE10:
        # Every token is at least as long as its canonical spelling ("skip" is "S") and tokens
        # are apart, so the canonical text fits in MAX_HAND_TEXT as the text did.
        return Hand(tuple(parse_rank(token, deck) for token in _SEPARATORS.split(text.strip()) if token))
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
        raise CardError(text[:20] + "...", Phrase(N_("{count} cards is far more than a hand holds"), {"count": len(hand)}))
    return hand


def hand_penalty(hand: Hand, values: Mapping[Card, int] = STANDARD_VALUES) -> int:
    """The sum of the values of the cards in the hand."""
    return sum(values[rank] for rank in hand.ranks)


_P10_ALIASES: dict[str, Phase10Rank] = {card.value.lower(): card for card in Phase10Rank}
_P10_ALIASES.update({"skip": Phase10Rank.SKIP, "wild": Phase10Rank.WILD})
_P10_NOT_A_CARD = N_('"{token}" is not a card of the Phase 10 deck (cards are 1 to 12, S for a skip and W for a wild)')


class Deck(Enum):
    """The kind of deck a rule set plays with: which ranks exist and how many of each."""

    STANDARD = "standard"
    PHASE10 = "phase10"

    @property
    def title(self) -> str:
        return "Phase 10" if self is Deck.PHASE10 else "standard"

    @property
    def ranks(self) -> tuple[Card, ...]:
        """The deck's ranks as a keypad lays them out (jokers aside: a rule set adds them)."""
        if self is Deck.PHASE10:
            return _P10_KEYPAD
        return _STANDARD_KEYPAD

    def copies(self, rank: Card) -> int:
        """How many cards of ``rank`` one deck holds (jokers aside: the game sets their number).

        >>> Deck.STANDARD.copies(Rank.ACE), Deck.PHASE10.copies(Phase10Rank.FIVE), Deck.PHASE10.copies(Phase10Rank.SKIP)
        (4, 8, 4)
        """
        if self is Deck.PHASE10:
            return 4 if rank is Phase10Rank.SKIP else 8
        return 4

    @property
    def example(self) -> str:
        """A hand of the deck as it may be typed, for a hint next to a text field."""
        return "12 S W 1" if self is Deck.PHASE10 else "A K 7 7"

    @property
    def aliases(self) -> Mapping[str, Card]:
        """Every lowercase spelling of a single card of the deck (what :func:`parse_rank` reads),
        for a screen that reads typed cards itself (the round screen's script)."""
        return _P10_ALIASES if self is Deck.PHASE10 else _ALIASES

    @property
    def reads_runs(self) -> bool:
        """Whether ranks typed together without spaces are read apart ("AK77"): the standard
        deck's are; Phase 10's are not ("112" could be 1 12 or 11 2)."""
        return self is Deck.STANDARD

    @property
    def size(self) -> int:
        """Cards in one deck, jokers aside: 52, or 108 for Phase 10 (12 x 8 + 8 wilds + 4 skips)."""
        return sum(self.copies(rank) for rank in self.ranks)


_STANDARD_KEYPAD: tuple[Card, ...] = tuple(r for r in Rank if r is not Rank.JOKER)
_P10_KEYPAD: tuple[Card, ...] = (
    *(Phase10Rank(str(n)) for n in range(1, 13)), Phase10Rank.SKIP, Phase10Rank.WILD,
)
