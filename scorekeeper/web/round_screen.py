"""The round screen in the reader's words: one pass from the game, the round being entered and
the hands the players sent to everything ``templates/round_form.html`` shows beside its fields.

The view loads and reads (``views/rounds.py``), the draft holds and checks what was typed
(``forms/round.py``), and this module says it: why saving ends the game, what each player sent,
and a round that differs from the stored one, side by side. Figures come from the engine
(:mod:`scorekeeper.rules`), words from the catalogues (:mod:`scorekeeper.web.languages`).
"""

from __future__ import annotations

from collections.abc import Mapping

from scorekeeper.rules import GameSetup, GameState, Progression
from scorekeeper.web.forms.round import RoundDraft
from scorekeeper.web.languages import (gettext, in_sentence, ngettext, round_sentence, round_title, stage_sentence,
                                       stage_title)
from scorekeeper.web.presenters import bonus_words, card_values, game_data, hand_label, player_colours, sent_words


def round_screen(loaded, draft: RoundDraft, before: GameState, editing: bool, sent: Mapping | None = None) -> dict:
    """What the round screen shows, for ``draft`` entered on the game as it stood ``before`` the
    round (a correction: before the round corrected): the template's every value. ``sent``: the
    hands the players sent from their own phones for this round, by seat (None where the table
    plays without seat links, and for a correction)."""
    nxt = before.next
    arrivals = None
    if sent is not None and nxt is not None:
        arrivals = {position: (sent_words(before, position, hand), hand.revision, hand.by_keeper)
                    for position, hand in sent.items()}
    state, rules = loaded.state, before.rules
    word = round_title(rules)
    if editing:
        # The round corrected, as it was played.
        played = state.rounds[draft.number - 1]
        stages, dealer, cards_dealt = played.stages, played.dealer, played.cards_dealt
        title = round_sentence(rules, "Correct %(round)s %(number)s", round=in_sentence(word), number=draft.number)
    else:
        stages = nxt.stages if nxt else ()
        dealer, cards_dealt = (nxt.dealer, nxt.cards_dealt) if nxt else (None, None)
        title = round_sentence(rules, "Record %(round)s %(number)s", round=in_sentence(word), number=draft.number)
    return {
        "loaded": loaded, "state": state, "game": loaded.game, "draft": draft, "editing": editing,
        "before": before,
        "ladder": rules.progression is Progression.LADDER,
        "word": word,
        "stage": in_sentence(stage_title(rules)),
        "colours": player_colours(loaded.seats),
        "stages": stages, "dealer": dealer, "cards_dealt": cards_dealt,
        "title": title,
        # The engine's data for the phone's script: the keypad adds up with it, and (a new
        # round) the phone's replay works out rounds that wait to be sent.
        "cards": card_values(before.setup, stages),
        "replay": game_data(before) if not editing and nxt else None,
        # A correction changes a round already played, so it is never "the round that ends it".
        "last": "" if editing else last_words(before),
        "finishers": {} if editing or nxt is None else {name: finishes(before, name) for name in nxt.finishers},
        "ending": [] if editing else ending(before, draft),
        "arrivals": arrivals,
    }


def last_words(before: GameState) -> str:
    """Why the next round ends the game whatever happens in it ("deal 7 is the last"), else ""."""
    nxt = before.next
    if nxt is None or not nxt.is_last:
        return ""
    return round_sentence(before.rules, "%(round)s %(number)s is the last", round=in_sentence(round_title(before.rules)), number=nxt.number)


def finishes(before: GameState, name: str) -> str:
    """What making the last contract means, in words: "Ben completes level 7"."""
    rules = before.rules
    return stage_sentence(rules, "%(name)s completes %(stage)s %(number)s", name=name,
                          stage=in_sentence(stage_title(rules)), number=rules.last_stage)


def ending(before: GameState, draft: RoundDraft) -> list[str]:
    """Why saving ``draft`` ends the game (for "Saving ends the game: ..."), else []: the last
    deal, or each player who makes the last contract (the one who went out makes theirs)."""
    nxt = before.next
    if nxt is None:
        return []
    if nxt.is_last:
        return [last_words(before)]
    players = before.setup.players
    made = {name for name, seat in zip(players, draft.seats, strict=True) if seat.achieved}
    if draft.went_out is not None:
        made.add(players[draft.went_out])
    return [finishes(before, name) for name in nxt.finishers if name in made]


def side_by_side(setup: GameSetup, stored: dict, mine: dict) -> list[tuple[str, str, str]]:
    """Each player's part of two versions of a round (as the game file writes a round), in words:
    the stored one and this phone's."""
    ladder = "achieved" in stored
    rules = setup.rules
    stage = in_sentence(stage_title(rules))

    def words(doc: dict, name: str) -> str:
        if doc["went_out"] == name:
            said = gettext("went out")
        elif name in doc["points"]:
            points = doc["points"][name]
            said = gettext("no cards") if points == 0 else ngettext("%(num)d point", "%(num)d points", points)
        else:
            said = hand_label(doc["hands"].get(name, ""), rules.deck) or gettext("no cards")
        if ladder and doc["went_out"] != name:
            said += ", " + (stage_sentence(rules, "made the %(stage)s", stage=stage) if name in doc["achieved"]
                            else stage_sentence(rules, "no %(stage)s", stage=stage))
        for bonus in bonus_words(rules, doc.get("bonuses", {}).get(name, ())):
            said += f", {bonus}"
        return said

    return [(name, words(stored, name), words(mine, name)) for name in setup.players]
