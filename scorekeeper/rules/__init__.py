"""The rules of contract rummy as a pure engine.

Nothing here imports Flask or SQLAlchemy: rule sets are data, hands are parsed and
scored here, and :func:`replay` turns a game's recorded rounds into its standings.
"""

from .cards import STANDARD_VALUES, CardError, Hand, Rank, hand_penalty, parse_hand, parse_rank
from .replay import (
    GAME_OVER,
    MISSING,
    GameSetup,
    GameState,
    NextRound,
    PlayerState,
    Problem,
    RoundError,
    RoundRecord,
    RoundResult,
    RulesError,
    SetupError,
    advance,
    check_round,
    clean_name,
    name_key,
    replay,
    start,
)
from .rulesets import BALMORAL, CLASSIC, RULESETS, DealerRule, Progression, RuleSet, Stage, get_rules

__all__ = [
    "GAME_OVER",
    "MISSING",
    "BALMORAL",
    "CLASSIC",
    "RULESETS",
    "STANDARD_VALUES",
    "CardError",
    "DealerRule",
    "GameSetup",
    "GameState",
    "Hand",
    "NextRound",
    "PlayerState",
    "Problem",
    "Progression",
    "Rank",
    "RoundError",
    "RoundRecord",
    "RoundResult",
    "RuleSet",
    "RulesError",
    "SetupError",
    "Stage",
    "advance",
    "check_round",
    "clean_name",
    "get_rules",
    "hand_penalty",
    "name_key",
    "parse_hand",
    "parse_rank",
    "replay",
    "start",
]
