"""Words for the screen, worked out from a game's state (no rules of its own)."""

from __future__ import annotations

from scorekeeper.files.cells import Cell, bonus_words, round_cells, signed
from scorekeeper.rules import (
    Card,
    CardError,
    Deck,
    GameState,
    NextRound,
    Progression,
    RoundResult,
    RuleSet,
    hand_penalty,
    parse_hand,
    parse_rank,
)


def join_names(names) -> str:
    names = list(names)
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def deck_words(decks: int, jokers: int) -> str:
    """"2 decks, 1 joker"; a game without jokers does not mention them."""
    d = f"{decks} deck{'s' if decks != 1 else ''}"
    if jokers == 0:
        return d
    return f"{d}, {jokers} joker{'s' if jokers != 1 else ''}"


def card_label(token: str, deck: Deck | None = None) -> str:
    """A card of ``deck`` as its chip shows it ("Joker", not "JK"; "Skip", not "S"); what is
    no card, as typed."""
    try:
        return parse_rank(token, deck).label
    except CardError:
        return token.upper()


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
    taken: set[int] = set()
    colours = []
    for seat in seats:
        player = seat if isinstance(seat, int) else seat.player_id
        colour = next(c for c in ((player + step) % 8 for step in range(8)) if c not in taken or len(taken) >= 8)
        taken.add(colour)
        colours.append(colour)
    return colours


def bonus_points(rules: RuleSet) -> dict[str, int]:
    """Each bonus's points by its key, for the scripts that work out scores on the phone."""
    return {bonus.key: bonus.points for bonus in rules.bonuses}


def dealer_words(rules) -> str:
    """Who deals next under a rule set's dealer rules (``rules``: the default first), in the
    engine's words: "The round's winner deals next (a game may choose: the deal moves clockwise)"."""
    first, *others = rules
    if not others:
        return first.description
    return f"{first.description} (a game may choose: {' or '.join(r.description.lower() for r in others)})"


def is_ladder(state: GameState) -> bool:
    return state.rules.progression is Progression.LADDER


def round_summary(state: GameState, result: RoundResult) -> str:
    """A short line of what a round changed: who went out, who moved up, the leader."""
    parts = [f"{result.went_out} went out."]
    if is_ladder(state) and result.moved_up:
        levels = dict(zip(state.setup.players, result.completed, strict=True))
        word = state.rules.stage_word.lower()
        ups = [f"{n} (to {word} {min(levels[n] + 1, state.rules.last_stage)})" if levels[n] < state.rules.last_stage
               else f"{n} (completed {word} {state.rules.last_stage})" for n in result.moved_up]
        verb = "moves" if len(ups) == 1 else "move"
        parts.append(f"{join_names(ups)} {verb} up.")
    previous = state.rounds[result.number - 2].leaders if result.number > 1 else ()
    leaders = result.leaders
    if len(leaders) > 1:
        parts.append(f"{join_names(leaders)} share the lead.")
    elif leaders == previous:
        parts.append(f"{leaders[0]} still leads.")
    else:
        parts.append(f"{leaders[0]} takes the lead.")
    return " ".join(parts)


def stages_word(rules) -> str:
    """The rule set's word for its stages, plural and lower case: "levels", "phases", "deals"."""
    return f"{rules.stage_word.lower()}s"


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
        return f"{winners[0]} wins with {total}."
    return f"{join_names(winners)} share the win with {total} each."


def card_values(rules) -> dict:
    """What the keypad script needs to show chips, penalties and totals as you type: the
    deck's cards (values, labels, every spelling it reads) and each bonus's points."""
    return {
        "values": {rank.value: value for rank, value in rules.values.items() if rank in rules.ranks},
        "labels": {rank.value: rank.label for rank in rules.ranks},
        "aliases": {alias: rank.value for alias, rank in rules.deck.aliases.items()},
        "bonuses": bonus_points(rules),
    }


def hand_points(seat, rules) -> str:
    if seat.points:
        return seat.points
    hand = seat.parsed(rules.deck)
    # A card the rule set gives no value (a joker typed in a game without jokers): the round
    # is refused with a message, so there is no penalty to show.
    if hand is None or any(rank not in rules.values for rank in hand.ranks):
        return "?"
    return str(hand_penalty(hand, rules.values))


def round_points(seat, rules: RuleSet, out: bool) -> str:
    """A seat's score for the round on the round screen: its cards (or points; nothing for
    the player who went out) plus the bonuses ticked for it; "?" while a card cannot be read."""
    cards = "0" if out else hand_points(seat, rules)
    if cards == "?" or not seat.bonuses:
        return cards
    try:
        base = int(cards)
    except ValueError:
        return cards  # points typed that are no number: the form says so
    extra = [rules.bonus(key) for key in set(seat.bonuses)]
    if None in extra:
        return "?"
    return str(base + sum(b.points for b in extra))  # type: ignore[union-attr]


def game_data(state: GameState) -> dict:
    """What the phone needs to work out rounds the server has not answered yet
    (static/js/offline-replay.js): the set-up, the rule set's data and the state now."""
    setup, rules = state.setup, state.rules
    nxt = state.next
    return {
        "players": list(setup.players),
        "first_dealer": setup.first_dealer,
        "dealer_rule": setup.dealer_rule.value,
        "progression": rules.progression.value,
        "last_stage": rules.last_stage,
        "values": {rank.value: value for rank, value in rules.values.items()},
        "bonuses": bonus_points(rules),
        "stages": [{"number": s.number, "contract": s.contract, "cards_dealt": s.cards_dealt}
                   for s in rules.stages],
        "round_word": rules.round_word,
        "stage_word": rules.stage_word,
        "state": {
            "totals": [p.total for p in state.players],
            "completed": [p.completed for p in state.players],
            "next": None if nxt is None else next_round_data(nxt),
        },
    }


def next_round_data(nxt: NextRound) -> dict:
    """The next round as game_data and the phone's replay give it (stages by number)."""
    return {
        "number": nxt.number, "dealer": nxt.dealer, "first_player": nxt.first_player,
        "stages": [s.number for s in nxt.stages], "cards_dealt": nxt.cards_dealt,
        "is_last": nxt.is_last, "finishers": list(nxt.finishers),
    }


def hand_words(rules: RuleSet, went_out: bool, cards: str | None, points: int | None, made: bool,
               bonuses, penalty: int | None) -> str:
    """One player's hand of one round in a line: "K 7 7 (24)", "went out (0)", "35 points",
    "no cards (0)", then the contract made (ladder rule sets) and the bonuses."""
    if went_out:
        said = "went out"
    elif points is not None:
        said = "no cards" if points == 0 else f"{points} points"
    else:
        said = " ".join(card_label(token, rules.deck) for token in (cards or "").split()) or "no cards"
    if penalty is not None:
        said += f" ({penalty})"
    if rules.progression is Progression.LADDER and made and not went_out:
        said += f", made the {rules.stage_word.lower()}"
    for words in bonus_words(rules, tuple(bonuses)):
        said += f", {words}"
    return said


def sent_words(rules: RuleSet, sent) -> str:
    """A hand a player sent, in a line with its penalty: "K 7 7 (24)"."""
    penalty = 0 if sent.went_out else sent.points
    if penalty is None:
        try:
            penalty = hand_penalty(parse_hand(sent.cards or "", rules.deck), rules.values)
        except (CardError, KeyError):
            penalty = None
    if penalty is not None:
        penalty += sum(b.points for b in rules.bonuses if b.key in sent.bonuses)
    return hand_words(rules, sent.went_out, sent.cards, sent.points, sent.achieved, sent.bonuses, penalty)


def saved_words(state: GameState, result: RoundResult, name: str) -> str:
    """A player's line of a saved round, as the scorekeeper saved it: "K 7 7 (24)"."""
    seat = state.setup.seat_of(name)
    rec = result.record
    hand = rec.hands.get(name)
    return hand_words(state.rules, rec.went_out == name, hand.canonical if hand is not None else None,
                      rec.points.get(name), name in result.achieved, rec.bonuses.get(name, ()),
                      result.penalties[seat])
