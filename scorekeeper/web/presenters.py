"""Words for the screen, worked out from a game's state (no rules of its own), in the
reader's language (:mod:`scorekeeper.web.languages`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from flask_babel import format_decimal

from scorekeeper.files import cells, transfer
from scorekeeper.files.cells import Cell, signed
from scorekeeper.files.transfer import EXISTING, GAMES, NEW, RESTORED, Imported, TooMany
from scorekeeper.web.languages import (card_letter, court_letters, engine_round_word, engine_stage_word, gettext,
                                       in_sentence,
                                       locale_code, ngettext, pgettext, round_title, rule_text, stage_sentence,
                                       stage_title, typed_aliases)
from scorekeeper.rules import (
    Card,
    GameSetup,
    CardError,
    N_,
    Deck,
    GameState,
    Progression,
    RoundResult,
    RuleSet,
    Stage,
    game_table,
    parse_hand,
    parse_rank,
    scoring_table,
)


def join_names(names) -> str:
    names = list(names)
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return gettext("%(names)s and %(last)s", names=", ".join(names[:-1]), last=names[-1])


def deck_words(decks: int, jokers: int) -> str:
    """"2 decks, 1 joker"; a game without jokers does not mention them."""
    d = ngettext("%(num)d deck", "%(num)d decks", decks)
    if jokers == 0:
        return d
    j = ngettext("%(num)d joker", "%(num)d jokers", jokers)
    return f"{d}, {j}"


def card_label(token: str, deck: Deck | None = None, letters: dict[str, str] | None = None) -> str:
    """A card of ``deck`` as its chip shows it, in the reader's letters ("Joker", not "JK";
    "Skip", not "S"; a German queen "D"); what is no card, as typed. ``letters``: as
    :func:`~scorekeeper.web.languages.card_letter` takes them."""
    try:
        return card_letter(parse_rank(token, deck), letters)
    except CardError:
        return token.upper()


def hand_label(text: str, deck: Deck | None = None) -> str:
    """A hand's cards (``text`` split on spaces), each as its chip shows it (:func:`card_label`),
    with the reader's letters looked up once for the hand."""
    letters = court_letters()
    return " ".join(card_label(token, deck, letters) for token in text.split())


def describe(stage: Stage, rules: RuleSet) -> str:
    """A contract with its stage: "Level 3: 2 sets of 4" (a preset's words translated)."""
    return gettext("%(stage)s %(number)s: %(contract)s", stage=stage_title(rules), number=stage.number,
                   contract=rule_text(stage.contract, rules))


def bonus_words(rules: RuleSet, keys=None) -> list[str]:
    """Bonuses in words, in the rule set's order: "Perfect cut −50". ``keys``: those a player
    earned in a round; None, every bonus of the rule set."""
    return [f"{rule_text(b.label, rules)} {signed(b.points)}" for b in rules.bonuses if keys is None or b.key in keys]


def round_cells(state: GameState, result: RoundResult, cards: bool = True) -> list[Cell]:
    """Each player's cell of a round on the board and the story: the cards in the reader's
    letters, the bonuses in their words. ``cards``: False where the cells' cards are not shown
    (the board shows each round's points): they are left as stored, not spelt out."""
    rules = state.rules
    earned = result.record.bonuses
    return [Cell(cell.penalty, cell.went_out, cell.achieved,
                 cell.text if cell.counted or not cards else hand_label(cell.text, rules.deck), cell.counted,
                 tuple(bonus_words(rules, earned.get(name))) if cell.bonuses else ())
            for name, cell in zip(state.setup.players, cells.round_cells(state, result), strict=True)]


def key_value(rank: Card, rules: RuleSet) -> str:
    """The value a keypad key shows under its rank, where the card is not worth its face
    ("20" on an ace worth 20, "5" on a Phase 10 one; J Q K, joker, skip and wild have no face
    number, so always); "" for a card worth what it says (a 7 worth 7)."""
    value = rules.values.get(rank)
    if value is None:
        return ""
    return "" if rank.value.isdigit() and int(rank.value) == value else str(value)


def player_colours(seats) -> list[int]:
    """Each seat's colour (0 to 7, the ``seat-N`` classes), from the seat's player rather than
    the seat, so a person keeps their colour from game to game; where two players of one game
    would share one, the later seat takes the next free colour. ``seats``: player ids, or rows
    with a ``player_id``.

    >>> player_colours([3, 11, 4, 12])
    [3, 4, 5, 6]
    """
    return [colour if colour is not None else 0 for colour in planned_colours(
        [seat if isinstance(seat, int) else seat.player_id for seat in seats])]


def planned_colours(players: Sequence[int | None]) -> list[int | None]:
    """As :func:`player_colours`, for a table being seated: a player the club does not know yet
    (None) has no colour until the game makes them a player.

    >>> planned_colours([3, None, 11])
    [3, None, 4]
    """
    taken: set[int] = set()
    colours: list[int | None] = []
    for player in players:
        if player is None:
            colours.append(None)
            continue
        colour = next(c for c in ((player + step) % 8 for step in range(8)) if c not in taken or len(taken) >= 8)
        taken.add(colour)
        colours.append(colour)
    return colours


def dealer_words(rules) -> str:
    """Who deals next under a rule set's dealer rules (``rules``: the default first), in the
    engine's words: "The round's winner deals next (a game may choose: the deal moves clockwise)"."""
    first, *others = rules
    if not others:
        return gettext(first.description)
    return gettext("%(rule)s (a game may choose: %(others)s)", rule=gettext(first.description),
                   others=gettext(" or ").join(in_sentence(gettext(r.description)) for r in others))


def is_ladder(state: GameState) -> bool:
    return state.rules.progression is Progression.LADDER


def round_summary(state: GameState, result: RoundResult) -> str:
    """A short line of what a round changed: who went out, who moved up, the leader."""
    parts = [gettext("%(name)s went out.", name=result.went_out)]
    if is_ladder(state) and result.moved_up:
        levels = dict(zip(state.setup.players, result.completed, strict=True))
        word = in_sentence(stage_title(state.rules))
        last = state.rules.last_stage
        ups = [stage_sentence(state.rules, "%(name)s (to %(stage)s %(number)s)", name=n, stage=word,
                              number=min(levels[n] + 1, last))
               if levels[n] < last else
               stage_sentence(state.rules, "%(name)s (completed %(stage)s %(number)s)", name=n, stage=word,
                              number=last)
               for n in result.moved_up]
        parts.append(ngettext("%(names)s moves up.", "%(names)s move up.", len(ups), names=join_names(ups)))
    previous = state.rounds[result.number - 2].leaders if result.number > 1 else ()
    leaders = result.leaders
    if len(leaders) > 1:
        parts.append(gettext("%(names)s share the lead.", names=join_names(leaders)))
    elif leaders == previous:
        parts.append(gettext("%(name)s still leads.", name=leaders[0]))
    else:
        parts.append(gettext("%(name)s takes the lead.", name=leaders[0]))
    return " ".join(parts)


def _stages_plural(word: str | None) -> str | None:
    """A built-in stage word in the plural, as a line of text says it (a context of its own:
    "deals" is also what the board's tag says of a dealer)."""
    if word == "Level":
        return pgettext("stages", "levels")
    if word == "Deal":
        return pgettext("stages", "deals")
    if word == "Phase":
        return pgettext("stages", "phases")
    return None


def stages_word(rules) -> str:
    """The rule set's word for its stages, plural and lower case: "levels", "phases", "deals"
    (a house rule set's own word, with an "s" in English)."""
    plural = _stages_plural(engine_stage_word(rules))
    if plural is not None:
        return plural
    word = rules.stage_word.lower()
    return f"{word}s" if locale_code() == "en" else word


def completed_words(rules: RuleSet, done: int) -> str:
    """How far a player has climbed: "completed 3 of 7 levels". A count of the player's own
    (in French "1 niveau réussi", "3 niveaux réussis"), whole for each of the engine's words."""
    word, last = engine_stage_word(rules), rules.last_stage
    if word == "Level":
        return ngettext("completed %(num)d of %(all)s levels", "completed %(num)d of %(all)s levels", done, all=last)
    if word == "Phase":
        return ngettext("completed %(num)d of %(all)s phases", "completed %(num)d of %(all)s phases", done, all=last)
    return ngettext("completed %(num)d of %(all)s %(stages)s", "completed %(num)d of %(all)s %(stages)s", done,
                    all=last, stages=stages_word(rules))


def leaders(state: GameState) -> tuple[str, ...]:
    """Who the board marks as ahead: everyone in first place (the engine's standing: in Phase
    10 the furthest phase first, then the points), the winners once the game is finished."""
    return state.leaders


def places(state: GameState) -> dict[str, int]:
    """Each player's place on the board (1, 1, 3 on a tie), as the engine ranks them."""
    return state.ranks()


def result_words(state: GameState) -> str:
    winners = state.winners
    if not winners:
        return ""
    total = state.player(winners[0]).total
    if len(winners) == 1:
        return gettext("%(name)s wins with %(total)s.", name=winners[0], total=total)
    return gettext("%(names)s share the win with %(total)s each.", names=join_names(winners), total=total)


def card_values(setup: GameSetup, stages: Sequence[Stage] = ()) -> dict:
    """What the keypad script needs to show chips, penalties and totals as you type: the
    engine's table (:func:`~scorekeeper.rules.scoring_table`), its labels in the reader's
    letters and its spellings with this language's own (a German "d" is a queen), and each
    seat's stage in this round (``stages``), whose values the seat's cards count."""
    table = scoring_table(setup)
    return table | {
        "labels": {rank.value: card_letter(rank) for rank in setup.rules.ranks},
        "aliases": table["aliases"] | ({} if setup.rules.deck is Deck.PHASE10 else typed_aliases()),
        "seats": [stage.number for stage in stages],
    }


#: Points typed as the keypad's script reads them: digits 0 to 9 only ("²" is no number).
_WHOLE_NUMBER = re.compile(r"[0-9]+")


def round_points(seat, rules: RuleSet, out: bool, stage: Stage | None = None) -> str:
    """A seat's score for the round on the round screen, as the engine scores it at the seat's
    ``stage`` (:meth:`RuleSet.hand_score`): its cards (or points; nothing for the player who
    went out) plus the bonuses ticked for it; "?" while a card cannot be read or has no value;
    points typed that are no number as typed (the form says so)."""
    stage = stage or rules.stages[0]
    if out:
        score = rules.hand_score(stage, went_out=True, bonuses=seat.bonuses)
    elif seat.points:
        if not _WHOLE_NUMBER.fullmatch(seat.points):
            return seat.points
        score = rules.hand_score(stage, points=int(seat.points), bonuses=seat.bonuses)
    else:
        hand = seat.parsed(rules.deck)
        score = None if hand is None else rules.hand_score(stage, hand, bonuses=seat.bonuses)
    return "?" if score is None else str(score)


def game_data(state: GameState) -> dict:
    """What the phone needs to work out rounds the server has not answered yet
    (static/js/offline-replay.js): the engine's data (:func:`~scorekeeper.rules.game_table`),
    with its words (the round's and the stage's, the contracts, the cards' labels) in the
    reader's language, as the form shows them."""
    rules = state.rules
    data = game_table(state)
    return data | {
        "labels": {rank.value: card_letter(rank) for rank in rules.ranks},
        "stages": [stage | {"contract": rule_text(s.contract, rules)} for stage, s in zip(data["stages"], rules.stages,
                                                                                        strict=True)],
        "round_word": round_title(rules),
        "stage_word": stage_title(rules),
        # Which of the engine's stage words it is ("Level", "Phase", "Deal"; None for a table's
        # own): the script's sentences about a stage are whole for each (scriptwords.py).
        "stage_kind": engine_stage_word(rules),
        # Whether the round's word is the table's own (not "Round" or "Deal"): the script's
        # sentences about a round then take the words written for it (scriptwords.py).
        "round_own": engine_round_word(rules) is None,
    }


def hand_words(rules: RuleSet, went_out: bool, cards: str | None, points: int | None, made: bool,
               bonuses, penalty: int | None) -> str:
    """One player's hand of one round in a line: "K 7 7 (24)", "went out (0)", "35 points",
    "no cards (0)", then the contract made (ladder rule sets) and the bonuses."""
    if went_out:
        said = gettext("went out")
    elif points is not None:
        said = gettext("no cards") if points == 0 else ngettext("%(num)d point", "%(num)d points", points)
    else:
        said = hand_label(cards or "", rules.deck) or gettext("no cards")
    if penalty is not None:
        said += f" ({penalty})"
    if rules.progression is Progression.LADDER and made and not went_out:
        said += ", " + stage_sentence(rules, "made the %(stage)s", stage=in_sentence(stage_title(rules)))
    for words in bonus_words(rules, tuple(bonuses)):
        said += f", {words}"
    return said


def sent_words(state: GameState, position: int, sent) -> str:
    """A hand the player in seat ``position`` sent for the next round, in a line with its
    penalty at that player's stage, as the engine scores it: "K 7 7 (24)"."""
    rules = state.rules
    stage = state.next.stages[position] if state.next is not None else rules.stages[-1]
    try:
        hand = None if sent.went_out or sent.points is not None else parse_hand(sent.cards or "", rules.deck)
    except CardError:
        penalty = None
    else:
        penalty = rules.hand_score(stage, hand, sent.points, sent.went_out,
                                   [key for key in sent.bonuses if rules.bonus(key) is not None])
    return hand_words(rules, sent.went_out, sent.cards, sent.points, sent.achieved, sent.bonuses, penalty)


def saved_words(state: GameState, result: RoundResult, name: str) -> str:
    """A player's line of a saved round, as the scorekeeper saved it: "K 7 7 (24)"."""
    seat = state.setup.seat_of(name)
    rec = result.record
    hand = rec.hands.get(name)
    return hand_words(state.rules, rec.went_out == name, hand.canonical if hand is not None else None,
                      rec.points.get(name), name in result.achieved, rec.bonuses.get(name, ()),
                      result.penalties[seat])


#: Small numbers as a sentence says them ("seven contracts"), as the engine's summary does.
NUMBER_WORDS = (N_("zero"), N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"),
                N_("eight"), N_("nine"), N_("ten"), N_("eleven"), N_("twelve"))


def _number(n: int) -> str:
    return gettext(NUMBER_WORDS[n]) if n < len(NUMBER_WORDS) else str(n)


def rules_summary(rules: RuleSet) -> str:
    """The rule set's few lines (the engine's :attr:`RuleSet.summary`) in the reader's language:
    how the contracts go and the cards dealt, the first and last contract, what cards left in
    hand count and any bonus. A house rule set's contracts stay as its author wrote them."""
    return " ".join(part for part in (_shape(rules), _contracts(rules), _values(rules), _bonuses(rules)) if part)


def _shape(rules: RuleSet) -> str:
    count = len(rules.stages)
    if rules.progression is Progression.LADDER:
        cards = rules.stages[0].cards_dealt
        return " ".join((
            ngettext("Each player climbs their own ladder of %(words)s contract;",
                     "Each player climbs their own ladder of %(words)s contracts;", count, words=_number(count)),
            ngettext("%(num)d card a round.", "%(num)d cards a round.", cards)))
    word = in_sentence(stage_title(rules))
    runs: list[Stage] = [rules.stages[0]]
    for stage in rules.stages[1:]:
        if stage.cards_dealt != runs[-1].cards_dealt:
            runs.append(stage)
    first = runs[0].cards_dealt
    if len(runs) == 1:
        cards = ngettext("%(num)d card every %(stage)s", "%(num)d cards every %(stage)s", first, stage=word)
    else:
        cards = ngettext("%(num)d card", "%(num)d cards", first) + "".join(
            gettext(", then %(cards)s from %(stage)s %(number)s", cards=s.cards_dealt, stage=word, number=s.number)
            for s in runs[1:])
    title = _number(count)
    capital = title[0].upper() + title[1:]
    plural = (_stages_plural(engine_stage_word(rules))
              or (word if count == 1 or locale_code() != "en" else f"{word}s"))
    head = ngettext("%(words)s %(stage)s, everyone on the same contract;",
                    "%(words)s %(stages)s, everyone on the same contract;", count,
                    words=capital, stage=word, stages=plural)
    return f"{head} {cards}."


def _sentence(text: str) -> str:
    return text.rstrip(". ")


def _contracts(rules: RuleSet) -> str:
    first, last = (rule_text(s.contract, rules) for s in (rules.stages[0], rules.stages[-1]))
    if len(rules.stages) == 1:
        return gettext("Contract: %(contract)s.", contract=_sentence(first))
    return gettext("Contracts from %(first)s to %(last)s.", first=first, last=_sentence(last))


def _values(rules: RuleSet) -> str:
    # Said outside the f-string: the catalogues' extraction does not look inside one.
    face = gettext("face value")
    parts = [f"{cards} {face if worth == 'face' else worth}" for cards, worth in rules.value_groups(card_letter)]
    return gettext("Cards left in hand count %(values)s.", values=", ".join(parts))


def _bonuses(rules: RuleSet) -> str:
    if not rules.bonuses:
        return ""
    return ngettext("Bonus: %(bonuses)s.", "Bonuses: %(bonuses)s.", len(rules.bonuses),
                    bonuses=", ".join(bonus_words(rules)))


def import_outcome(outcome: Imported, of: int) -> str:
    """What became of one game of an imported file, as the import page lists it."""
    if outcome.status == NEW:
        return (gettext("Game %(number)s of %(of)s was imported as game %(id)s.", number=outcome.number, of=of,
                        id=outcome.game_id) if of > 1 else
                gettext("The game was imported as game %(id)s.", id=outcome.game_id))
    if outcome.status == EXISTING:
        return (gettext("Game %(number)s of %(of)s is already here as game %(id)s; not imported again.",
                        number=outcome.number, of=of, id=outcome.game_id) if of > 1 else
                gettext("The game is already here as game %(id)s; not imported again.", id=outcome.game_id))
    if outcome.status == RESTORED:
        return (gettext("Game %(number)s of %(of)s is already here as game %(id)s, which had been deleted: it is "
                        "back in the history; not imported again.", number=outcome.number, of=of, id=outcome.game_id)
                if of > 1 else
                gettext("The game is already here as game %(id)s, which had been deleted: it is back in the "
                        "history; not imported again.", id=outcome.game_id))
    return (gettext("Game %(number)s of %(of)s is the same game as an earlier one in the file (game %(id)s); "
                    "imported once.", number=outcome.number, of=of, id=outcome.game_id) if of > 1 else
            gettext("The game is the same game as an earlier one in the file (game %(id)s); imported once.",
                    id=outcome.game_id))


def too_many_words(refusal: TooMany) -> str:
    """A file refused for holding more games, or rounds, than an import over the web takes, the
    numbers grouped as the reader's language groups them ("20.000 Spiele")."""
    if refusal.what == GAMES:
        held = ngettext("%(count)s game", "%(count)s games", refusal.held, count=format_decimal(refusal.held))
        most = ngettext("%(count)s game", "%(count)s games", refusal.most, count=format_decimal(refusal.most))
    else:
        held = ngettext("%(count)s round", "%(count)s rounds", refusal.held, count=format_decimal(refusal.held))
        most = ngettext("%(count)s round", "%(count)s rounds", refusal.most, count=format_decimal(refusal.most))
    return gettext("The file holds %(held)s; the server imports at most %(most)s at once, so that an import ends "
                   "within seconds. Import this file on the server instead: flask --app scorekeeper games import "
                   "FILE (no limit there), or split it into smaller files.", held=held, most=most)


def conflict_words(conflict) -> str:
    """A change refused because another phone changed the game first (``store.Conflict``)."""
    return gettext("This game changed on another phone (version %(version)s, you had version %(expected)s); "
                   "nothing was saved. Here is the game as it is now.",
                   version=conflict.loaded.game.version, expected=conflict.expected)
def csv_words() -> transfer.CsvWords:
    """A CSV's words in the reader's language, for a download a person opens in a spreadsheet:
    the column names, yes and no, a preset's bonuses. (The game file and the API keep theirs.)"""
    return transfer.CsvWords(
        columns=(pgettext("csv", "round"), pgettext("csv", "dealer"), pgettext("csv", "player"),
                 pgettext("csv", "cards"), pgettext("csv", "counted_by_hand"), pgettext("csv", "penalty"),
                 pgettext("csv", "running_total"), pgettext("csv", "level"), pgettext("csv", "went_out"),
                 pgettext("csv", "made_contract"), pgettext("csv", "bonuses"), pgettext("csv", "bonus_points")),
        ratings_columns=(pgettext("csv", "Rank"), pgettext("csv", "Player"), pgettext("csv", "Rating"),
                         pgettext("csv", "Games"), pgettext("csv", "Wins"),
                         pgettext("csv", "Change over the last 5 games"), pgettext("csv", "Provisional"),
                         "mu", "sigma"),
        yes=pgettext("csv", "yes"),
        no=pgettext("csv", "no"),
        label=lambda state, label: rule_text(label, state.rules),
    )
