"""Rule sets as data.

A rule set is a table: its contracts (stages), the cards dealt in each, the deck and its
card values, the deck set-up it suggests, how the deal passes, how players progress, the
bonuses a player can earn and who wins. The engine in :mod:`scorekeeper.rules.replay` reads
these tables; a rule set is made from a document (:mod:`scorekeeper.rules.documents`), and
the built-in ones are documents too (:mod:`scorekeeper.rules.presets`).

>>> from scorekeeper.rules import BALMORAL, CLASSIC
>>> BALMORAL.stage(3).describe(BALMORAL)
'Level 3: 2 sets of 4'
>>> CLASSIC.stage(6).describe(CLASSIC)
'Deal 6: one group and two sequences'
>>> BALMORAL.suggested_decks(6), CLASSIC.suggested_decks(5)
((3, 0), (3, 2))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from types import MappingProxyType

from scorekeeper.rules.cards import Card, Deck, Hand, Rank
from scorekeeper.rules.words import N_


class Progression(Enum):
    """How players move through the stages."""

    #: Each player climbs their own ladder: achieving a contract moves that player up.
    LADDER = "ladder"
    #: Everyone plays the stage of the deal: round n is stage n.
    DEAL = "deal"

    @property
    def stage_word(self) -> str:
        """The word for a stage when a rule set names none (RULESETS.md)."""
        return N_("Level") if self is Progression.LADDER else N_("Deal")


class DealerRule(Enum):
    """Who deals the next round."""

    #: The player who went out in the previous round deals.
    WINNER = "winner"
    #: The deal moves one seat clockwise.
    ROTATE = "rotate"

    @property
    def description(self) -> str:
        if self is DealerRule.WINNER:
            return N_("The round's winner deals next")
        return N_("The deal moves clockwise")


class HandLimit(Enum):
    """How many cards a hand may hold when a round ends."""

    #: At most the cards dealt that round (each turn draws one and discards one).
    DEALT = "dealt"
    #: Only the deck limits it (tables where players buy cards or draw penalty cards).
    NONE = "none"


class WinnerRule(Enum):
    """Who wins a finished game."""

    #: Every player with the lowest total.
    LOWEST = "lowest"
    #: Among the players who completed the last stage, every one with the lowest total
    #: (a ladder only: in Phase 10 a low total does not win without phase 10).
    LOWEST_FINISHER = "lowest-finisher"


@dataclass(frozen=True)
class Bonus:
    """A one-off score a player can earn in a round besides their cards (usually negative)."""

    key: str
    label: str
    points: int


@dataclass(frozen=True)
class Stage:
    """One contract: a level of the ladder or a deal of the game."""

    number: int
    contract: str
    cards_dealt: int

    def describe(self, rules: RuleSet) -> str:
        return f"{rules.stage_word} {self.number}: {self.contract}"


@dataclass(frozen=True)
class RuleSet:
    """A rule set as the engine reads it. Made by :func:`~scorekeeper.rules.parse_ruleset` from
    a checked document; constructing one directly skips those checks."""

    #: What the caller calls it (a preset's key); not part of the document.
    key: str
    name: str
    stage_word: str
    stages: tuple[Stage, ...]
    progression: Progression
    dealer_rules: tuple[DealerRule, ...]
    min_players: int
    max_players: int
    #: (up to this many players, decks, jokers), in increasing order of players.
    deck_table: tuple[tuple[int, int, int], ...]
    uses_jokers: bool
    hand_rule: HandLimit
    #: A note for players that does not affect scoring.
    meld_note: str
    #: The value of every rank of the deck (and of the joker when jokers are used).
    values: Mapping[Card, int]
    deck: Deck = Deck.STANDARD
    bonuses: tuple[Bonus, ...] = ()
    winner: WinnerRule = WinnerRule.LOWEST
    max_decks: int = 8

    def __post_init__(self) -> None:
        # Frozen all the way down: a game's copy of its rules must not change under it.
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))

    def __getstate__(self) -> dict:
        # A mapping proxy cannot be pickled; a rule set can (games are made in worker processes).
        return {**self.__dict__, "values": dict(self.values)}

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        self.__post_init__()

    @property
    def summary(self) -> str:
        """A few lines on the rule set, worked out from its data: how the contracts go and the
        cards dealt, the first and last contract, what cards left in hand count and any bonus.
        Two rule sets that play differently read differently (a table picks by this line).

        >>> from scorekeeper.rules import BALMORAL, CLASSIC
        >>> BALMORAL.summary
        'Each player climbs their own ladder of seven contracts; 13 cards a round. Contracts from 3 sets of 3 to 1 set of 3 and 1 run of 7. Cards left in hand count A 15, K Q J 10, 2–10 face value.'
        >>> CLASSIC.summary
        'Seven deals, everyone on the same contract; 10 cards, then 12 from deal 5. Contracts from two groups to three sequences, with no unmatched cards. Cards left in hand count A 15, K Q J 10, 2–10 face value, Joker 15.'
        """
        return " ".join((self._shape, self._contracts, self._values, self._bonuses)).strip()

    @property
    def _shape(self) -> str:
        count = len(self.stages)
        if self.progression is Progression.LADDER:
            cards = self.stages[0].cards_dealt
            return (f"Each player climbs their own ladder of {_number(count)} contract{_s(count)}; "
                    f"{cards} card{_s(cards)} a round.")
        word = self.stage_word.lower()
        runs: list[Stage] = [self.stages[0]]
        for stage in self.stages[1:]:
            if stage.cards_dealt != runs[-1].cards_dealt:
                runs.append(stage)
        first = runs[0].cards_dealt
        if len(runs) == 1:
            cards = f"{first} card{_s(first)} every {word}"
        else:
            cards = f"{first} card{_s(first)}" + "".join(
                f", then {s.cards_dealt} from {word} {s.number}" for s in runs[1:]
            )
        title = _number(count)
        return f"{title[0].upper()}{title[1:]} {word}{_s(count)}, everyone on the same contract; {cards}."

    @property
    def _contracts(self) -> str:
        first, last = self.stages[0].contract, self.stages[-1].contract
        if len(self.stages) == 1:
            return f"Contract: {_sentence(first)}."
        return f"Contracts from {first} to {_sentence(last)}."

    def value_groups(self, letter: Callable[[Card], str] = lambda card: card.label) -> list[tuple[str, str]]:
        """What cards left in hand count, as a table says it: ranks in keypad order, neighbours
        of one value together, each group as its cards (``letter`` writes each card; a long
        stretch reads "2–9") and its worth, "face" where number cards are all worth their own
        number."""
        numbers = [r for r in self.ranks if r.value.isdigit()]
        face = all(int(r.value) == self.values[r] for r in numbers)
        groups: list[tuple[str, list[Card]]] = []
        for rank in self.ranks:
            worth = "face" if face and rank in numbers else str(self.values[rank])
            if groups and groups[-1][0] == worth:
                groups[-1][1].append(rank)
            else:
                groups.append((worth, [rank]))
        out = []
        for worth, ranks in groups:
            labels = [letter(r) for r in ranks]
            if len(ranks) > 3 or (len(ranks) > 2 and all(r.value.isdigit() for r in ranks)):
                ends = (labels[0], labels[-1])
                if all(r.value.isdigit() for r in ranks):
                    ends = tuple(sorted(ends, key=int))
                labels = [f"{ends[0]}–{ends[1]}"]
            out.append((" ".join(labels), worth))
        return out

    @property
    def _values(self) -> str:
        parts = [f"{cards} {'face value' if worth == 'face' else worth}" for cards, worth in self.value_groups()]
        return f"Cards left in hand count {', '.join(parts)}."

    @property
    def _bonuses(self) -> str:
        if not self.bonuses:
            return ""
        parts = ", ".join(f"{b.label} {_signed(b.points)}" for b in self.bonuses)
        return f"Bonus{'es' if len(self.bonuses) > 1 else ''}: {parts}."

    @property
    def round_word(self) -> str:
        """What the table calls one hand of play, from deal to going out: in a deal game round
        n is stage n, so it is the stage's word ("Deal"); on a ladder, "Round"."""
        return self.stage_word if self.progression is Progression.DEAL else N_("Round")

    @property
    def hand_limit(self) -> int | None:
        """Most cards one hand may hold when a round ends, in any round (None: only the deck
        limits). A round's own limit is the cards it dealt: see :meth:`round_hand_limit`."""
        if self.hand_rule is HandLimit.NONE:
            return None
        return max(s.cards_dealt for s in self.stages)

    def round_hand_limit(self, cards_dealt: int) -> int | None:
        return cards_dealt if self.hand_rule is HandLimit.DEALT else None

    @property
    def max_jokers(self) -> int:
        """The most jokers a game may play with: 8, or more if the deck table suggests more."""
        return max(8, *(jokers for _, _, jokers in self.deck_table))

    @property
    def default_dealer_rule(self) -> DealerRule:
        return self.dealer_rules[0]

    @property
    def last_stage(self) -> int:
        return len(self.stages)

    def stage(self, number: int) -> Stage:
        if not 1 <= number <= len(self.stages):
            raise ValueError(f"{self.name} has no {self.stage_word.lower()} {number}")
        return self.stages[number - 1]

    def suggested_decks(self, players: int) -> tuple[int, int]:
        """The (decks, jokers) the rule set suggests for this many players."""
        for up_to, decks, jokers in self.deck_table:
            if players <= up_to:
                return decks, jokers
        _, decks, jokers = self.deck_table[-1]
        return decks, jokers

    @cached_property
    def ranks(self) -> tuple[Card, ...]:
        """The ranks on the keypad for this rule set: the deck's, and the joker if used.
        (Worked out once: every round checked asks which cards the deck has.)"""
        return self.deck.ranks + ((Rank.JOKER,) if self.uses_jokers else ())

    @cached_property
    def copies(self) -> Mapping[Card, int]:
        """How many of each of the rule set's ranks one deck holds (jokers aside). Worked out
        once, as :attr:`ranks`: replaying a long history checks every card against it (a plain
        dict, read only by convention: a read-only view costs a little on every card)."""
        return {rank: self.deck.copies(rank) for rank in self.ranks if rank is not Rank.JOKER}

    @cached_property
    def lowest_value(self) -> int | None:
        """The smallest total above 0 one card scores (a typed 1 is no hand when it is 2)."""
        return min((v for v in self.values.values() if v > 0), default=None)

    def written(self, hand: Hand) -> str:
        """A hand as a game file writes it: highest penalty first by this rule set's own values,
        equal values in the canonical order (so an ace worth 1 comes last).

        >>> from scorekeeper.rules.cards import parse_hand
        >>> from scorekeeper.rules.presets import BALMORAL
        >>> BALMORAL.written(parse_hand("7 A K"))
        'A K 7'
        >>> from dataclasses import replace
        >>> low_aces = replace(BALMORAL, values={**BALMORAL.values, Rank.ACE: 1})
        >>> low_aces.written(parse_hand("7 A K"))
        'K 7 A'
        """
        # sorted() keeps the canonical order among equal values: the hand is in it already.
        return " ".join(rank.value for rank in sorted(hand.ranks, key=lambda rank: -self.values.get(rank, 0)))

    def bonus(self, key: str) -> Bonus | None:
        for bonus in self.bonuses:
            if bonus.key == key:
                return bonus
        return None

    def values_at(self, stage: Stage) -> Mapping[Card, int]:
        """What each card left in hand counts at ``stage``. The one place a stage's card values
        come from: the replay scores by it and the phone is handed it
        (:func:`~scorekeeper.rules.tables.scoring_table`), so a rule that values a card
        differently at one stage is written here alone. Today every stage counts the rule set's
        own values."""
        return self.values

    def hand_score(self, stage: Stage, hand: Hand | None = None, points: int | None = None, went_out: bool = False,
                   bonuses: Iterable[str] = ()) -> int | None:
        """One player's score for a round at ``stage``: the cards left in ``hand`` (or the
        ``points`` counted by hand; :data:`WENT_OUT_SCORES` for the player who went out) plus
        the points of each bonus earned. None where a card has no value here or a bonus is
        not the rule set's (a round the rules refuse: it has no score).

        >>> from scorekeeper.rules import SHANGHAI
        >>> from scorekeeper.rules.cards import parse_hand
        >>> SHANGHAI.hand_score(SHANGHAI.stage(1), parse_hand("A 7"), bonuses=["blind"])
        -5
        >>> SHANGHAI.hand_score(SHANGHAI.stage(1), went_out=True), SHANGHAI.hand_score(SHANGHAI.stage(1), points=35)
        (0, 35)
        """
        if went_out:
            score = WENT_OUT_SCORES
        elif hand is not None:
            values = self.values_at(stage)
            try:
                # (A list, not a generator: every hand of every round replayed is summed here.)
                score = sum([values[rank] for rank in hand.ranks])
            except KeyError:
                return None
        else:
            score = points or 0
        if bonuses:
            for key in set(bonuses):
                bonus = self.bonus(key)
                if bonus is None:
                    return None
                score += bonus.points
        return score


#: What the player who went out scores for their cards: they hold none.
WENT_OUT_SCORES = 0


_NUMBERS = ("zero one two three four five six seven eight nine ten eleven twelve").split()


def _number(n: int) -> str:
    return _NUMBERS[n] if n < len(_NUMBERS) else str(n)


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _signed(points: int) -> str:
    return f"−{-points}" if points < 0 else f"+{points}"


def _sentence(text: str) -> str:
    """A contract as the end of a sentence: without a full stop of its own."""
    return text.rstrip(". ")
