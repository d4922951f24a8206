"""A round seat by seat, as the rounds table and the CSV both tell it: each player's cards or
points, penalty, whether they went out or made their contract, and their bonuses in words."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.rules import GameState, RoundResult, RuleSet


def signed(points: int) -> str:
    """Points with their sign, as a card player writes them: "−50", "+10"."""
    return f"\u2212{-points}" if points < 0 else f"+{points}"


def bonus_words(rules: RuleSet, keys=None) -> list[str]:
    """Bonuses in words, in the rule set's order: "Perfect cut −50". ``keys``: those a player
    earned in a round; None, every bonus of the rule set."""
    return [f"{b.label} {signed(b.points)}" for b in rules.bonuses if keys is None or b.key in keys]


@dataclass(frozen=True)
class Cell:
    penalty: int
    went_out: bool
    achieved: bool
    text: str  # cards or points as entered
    counted: bool  # True when a points total was entered instead of cards
    #: The bonuses the player earned that round, in words ("Perfect cut −50").
    bonuses: tuple[str, ...] = ()


def round_cells(state: GameState, result: RoundResult) -> list[Cell]:
    cells = []
    rec = result.record
    for name, penalty in zip(state.setup.players, result.penalties, strict=True):
        if name in rec.points:
            text, counted = f"{rec.points[name]} pts", True
        else:
            hand = rec.hands.get(name)
            text, counted = (hand.canonical if hand is not None else ""), False
        earned = rec.bonuses.get(name) if rec.bonuses else None
        words = tuple(bonus_words(state.rules, earned)) if earned else ()
        cells.append(Cell(penalty, name == rec.went_out, name in result.achieved, text, counted, words))
    return cells
