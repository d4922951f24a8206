"""The rules as plain data, for a phone that adds up without the server.

The round screen adds up each hand as it is tapped, and the phone's own replay works out rounds
that wait to be sent; neither holds a rule of its own. What they need is handed to them here,
worked out by the engine, as JSON-ready data: the cards by rank with what each counts at every
stage, how a card may be typed, the bonuses' points, what the player who went out scores, how
many of each card the game's decks hold, and where the game stands.

>>> from scorekeeper.rules import CLASSIC, GameSetup, start
>>> setup = GameSetup.create(CLASSIC, ["Ann", "Ben", "Cat"], first_dealer="Ben")
>>> table = scoring_table(setup)
>>> table["stages"][0]["values"]["JK"], table["went_out"], table["in_play"]["cards"]["JK"]
(15, 0, 1)
>>> game_table(start(setup))["state"]["next"]["dealer"]
'Ben'
"""

from __future__ import annotations

from scorekeeper.rules.cards import Rank
from scorekeeper.rules.replay import GameSetup, GameState, NextRound
from scorekeeper.rules.rulesets import WENT_OUT_SCORES, DealerRule, Progression, RuleSet, Stage, WinnerRule


def stage_table(rules: RuleSet, stage: Stage) -> dict:
    """One stage as the phone adds it up: its number, the cards dealt, what each card left in
    hand counts there (:meth:`RuleSet.values_at`), the most cards a hand may hold when it ends
    (None: only the decks limit it), and whether it is the last."""
    return {
        "number": stage.number,
        "cards_dealt": stage.cards_dealt,
        "values": {rank.value: value for rank, value in rules.values_at(stage).items() if rank in rules.ranks},
        "most_cards": rules.round_hand_limit(stage.cards_dealt),
        "last": stage.number == rules.last_stage,
    }


def scoring_table(setup: GameSetup) -> dict:
    """Everything a phone needs to add up a hand of this game, at any of its stages: the ranks
    in the keypad's order with their labels (the engine's English: a page says them in its
    reader's letters), every spelling of a card and whether ranks typed together are read
    apart, each stage's table (:func:`stage_table`), each bonus's points, what the player who
    went out scores for their cards, and how many of each card are in play (``jokers``: the
    ranks the game's jokers count, not its decks)."""
    rules = setup.rules
    cards = {rank.value: copies * setup.decks for rank, copies in rules.copies.items()}
    jokers = [Rank.JOKER.value] if rules.uses_jokers else []
    cards.update({rank: setup.jokers for rank in jokers})
    return {
        "ranks": [rank.value for rank in rules.ranks],
        "labels": {rank.value: rank.label for rank in rules.ranks},
        "aliases": {alias: rank.value for alias, rank in rules.deck.aliases.items()},
        "runs": rules.deck.reads_runs,
        "stages": [stage_table(rules, stage) for stage in rules.stages],
        "bonuses": {bonus.key: bonus.points for bonus in rules.bonuses},
        "went_out": WENT_OUT_SCORES,
        "in_play": {"cards": cards, "decks": setup.decks, "jokers": jokers},
    }


def round_table(nxt: NextRound) -> dict:
    """A round to be played, as the phone's replay gives it: who deals and plays first, each
    seat's stage by number, the cards dealt, whether it is the last whatever happens, and who
    ends the game by making their contract."""
    return {
        "number": nxt.number, "dealer": nxt.dealer, "first_player": nxt.first_player,
        "stages": [s.number for s in nxt.stages], "cards_dealt": nxt.cards_dealt,
        "is_last": nxt.is_last, "finishers": list(nxt.finishers),
    }


def game_table(state: GameState) -> dict:
    """What the phone's replay needs to work out rounds the server has not answered yet: the
    table (:func:`scoring_table`), who sits where and deals first, how the deal passes
    (``dealer``: ``went_out``, the player who went out deals next, or ``next_seat``), whether
    each player climbs their own ladder, how places are decided (``places_by``: the figures
    compared in order, ``completed`` counting most first), and the state now."""
    setup, rules, nxt = state.setup, state.rules, state.next
    ladder = rules.progression is Progression.LADDER
    return {
        **scoring_table(setup),
        "players": list(setup.players),
        "first_dealer": setup.first_dealer,
        "dealer": "went_out" if setup.dealer_rule is DealerRule.WINNER else "next_seat",
        "ladder": ladder,
        "places_by": ["completed", "total"] if rules.winner is WinnerRule.LOWEST_FINISHER else ["total"],
        "state": {
            "totals": [p.total for p in state.players],
            "completed": [p.completed for p in state.players],
            "next": None if nxt is None else round_table(nxt),
        },
    }
