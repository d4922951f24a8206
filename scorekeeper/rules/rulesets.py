"""Rule sets as data.

A rule set is a table: its contracts (stages), the cards dealt in each, the card
values, the deck set-up it suggests, how the deal passes and how players progress.
The engine in :mod:`scorekeeper.rules.replay` reads these tables; adding a variant
is a new :class:`RuleSet` value.

>>> BALMORAL.stage(3).describe(BALMORAL)
'Level 3: 2 sets of 4'
>>> CLASSIC.stage(6).describe(CLASSIC)
'Deal 6: one group and two sequences'
>>> BALMORAL.suggested_decks(6), CLASSIC.suggested_decks(5)
((3, 0), (3, 2))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from .cards import STANDARD_VALUES, Rank


class Progression(Enum):
    """How players move through the stages."""

    #: Each player climbs their own ladder: achieving a contract moves that player up.
    LADDER = "ladder"
    #: Everyone plays the stage of the deal: round n is stage n.
    DEAL = "deal"


class DealerRule(Enum):
    """Who deals the next round."""

    #: The player who went out in the previous round deals.
    WINNER = "winner"
    #: The deal moves one seat clockwise.
    ROTATE = "rotate"

    @property
    def description(self) -> str:
        if self is DealerRule.WINNER:
            return "The round's winner deals next"
        return "The deal moves clockwise"


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
    key: str
    name: str
    summary: str
    stage_word: str
    stages: tuple[Stage, ...]
    progression: Progression
    dealer_rules: tuple[DealerRule, ...]
    min_players: int
    max_players: int
    #: (up to this many players, decks, jokers), in increasing order of players.
    deck_table: tuple[tuple[int, int, int], ...]
    uses_jokers: bool
    #: Most cards one hand may hold when a round ends (None: only the deck limits).
    hand_limit: int | None
    #: A note for players that does not affect scoring.
    meld_note: str
    values: Mapping[Rank, int] = None  # type: ignore[assignment]
    max_decks: int = 8
    max_jokers: int = 8
    #: What the table calls one hand of play, from deal to going out: "Round" or "Deal".
    round_word: str = "Round"

    def __post_init__(self) -> None:
        if self.values is None:
            object.__setattr__(self, "values", STANDARD_VALUES)

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
        """The (decks, jokers) RULES.md suggests for this many players."""
        for up_to, decks, jokers in self.deck_table:
            if players <= up_to:
                return decks, jokers
        _, decks, jokers = self.deck_table[-1]
        return decks, jokers

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The ranks on the keypad for this rule set."""
        return tuple(r for r in Rank if r is not Rank.JOKER) + (
            (Rank.JOKER,) if self.uses_jokers else ()
        )


_RUN_NOTE = "Runs are one suit; an ace is low or high, but a run never wraps (Q K A 2 is not a run)."

BALMORAL = RuleSet(
    key="balmoral",
    name="Balmoral Rummy",
    summary="Each player climbs their own ladder of seven contracts; 13 cards a round.",
    stage_word="Level",
    stages=tuple(
        Stage(n, contract, 13)
        for n, contract in enumerate(
            (
                "3 sets of 3",
                "1 set of 3 and 1 run of 4",
                "2 sets of 4",
                "2 runs of 4",
                "1 set of 4 and 1 run of 4",
                "4 sets of 3",
                "1 set of 3 and 1 run of 7",
            ),
            start=1,
        )
    ),
    progression=Progression.LADDER,
    dealer_rules=(DealerRule.WINNER, DealerRule.ROTATE),
    min_players=2,
    max_players=8,
    deck_table=((4, 2, 0), (6, 3, 0), (8, 4, 0)),
    uses_jokers=False,
    hand_limit=13,
    meld_note=_RUN_NOTE,
)

CLASSIC = RuleSet(
    key="classic",
    name="Contract Rummy (classic)",
    summary="Seven deals, everyone on the same contract; 10 cards, then 12 from deal 5.",
    stage_word="Deal",
    round_word="Deal",
    stages=tuple(
        Stage(n, contract, cards)
        for n, (contract, cards) in enumerate(
            (
                ("two groups", 10),
                ("one group and one sequence", 10),
                ("two sequences", 10),
                ("three groups", 10),
                ("two groups and one sequence", 12),
                ("one group and two sequences", 12),
                ("three sequences, with no unmatched cards", 12),
            ),
            start=1,
        )
    ),
    progression=Progression.DEAL,
    dealer_rules=(DealerRule.ROTATE,),
    min_players=3,
    max_players=8,
    deck_table=((4, 2, 1), (8, 3, 2)),
    uses_jokers=True,
    hand_limit=None,
    meld_note=(
        "A group is three or more of a rank; a sequence is three or more in a row of one suit, "
        "ace low or high, never K A 2."
    ),
)

RULESETS: Mapping[str, RuleSet] = {r.key: r for r in (BALMORAL, CLASSIC)}


def get_rules(key: str) -> RuleSet:
    """The built-in rule set called ``key``; a clear ``ValueError`` otherwise."""
    try:
        return RULESETS[key]
    except (KeyError, TypeError):
        known = ", ".join(RULESETS)
        raise ValueError(f'unknown rule set "{key}" (known: {known})') from None
