"""The record-a-round form: what was typed, per seat, and how it becomes a round.

The draft keeps exactly what the person entered, so nothing is lost when a check
fails; the rules engine does every check of the rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from scorekeeper.rules import (
    MISSING,
    NOT_IN_DECK,
    TOO_MANY,
    CardError,
    Deck,
    GameSetup,
    GameState,
    Hand,
    Problem,
    RoundRecord,
    RuleSet,
    check_round,
    parse_hand,
    parse_rank,
    replay,
)

from scorekeeper.rules.cards import MAX_HAND_TEXT
from scorekeeper.web.languages import (
    canonical_hand,
    card_letter,
    gettext,
    locale_code,
    problem_message,
    said,
)
from scorekeeper.store import Sent
from scorekeeper.rules.documents import MAX_BONUSES  # the most bonus keys read from one seat of a posted form

MAX_POINTS_TEXT = 6
_SMALL_INT = re.compile(r"[0-9]{1,6}")


def small_int(text: object) -> int | None:
    """A posted index or count written with ASCII digits only ("²" is no number here)."""
    if isinstance(text, str) and _SMALL_INT.fullmatch(text):
        return int(text)
    return None




#: The problems the phone finds again itself as a row's cards change (keypad.js), so that one
#: the server said is taken away once it no longer holds: what is no card, what the game does
#: not play, more of a card than the decks hold.
RECHECKED = frozenset({CardError.code, NOT_IN_DECK, TOO_MANY})


class SeatError(str):
    """A reason beside a player's row, in the reader's words, with the engine's ``code`` for
    what kind of problem it is: a page decides by the code, never by the words, which are
    another language's on another phone."""

    code: str | None

    def __new__(cls, text: str, code: str | None = None) -> SeatError:
        error = super().__new__(cls, text)
        error.code = code
        return error

    @property
    def recheck(self) -> bool:
        return self.code in RECHECKED


@dataclass
class SeatDraft:
    hand: str = ""
    points: str = ""
    achieved: bool = False
    errors: list[str] = field(default_factory=list)
    #: The keys of the rule set's bonuses ticked for this player, as posted.
    bonuses: list[str] = field(default_factory=list)

    def parsed(self, deck: Deck | None = None) -> Hand | None:
        """The hand read with the game's deck, or None while it holds what is no card."""
        try:
            return parse_hand(self.hand, deck)
        except CardError:
            return None


@dataclass
class RoundDraft:
    number: int
    went_out: int | None
    seats: list[SeatDraft]
    errors: list[str] = field(default_factory=list)
    version: str = ""
    #: The seat the card keypad types into (None: the first one that still needs a hand).
    selected: int | None = None
    #: The seat whose typed fields (cards as text, points counted by hand) are open.
    typing: int | None = None

    #: The deck the game plays with: how typed cards and keypad keys are read.
    deck: Deck | None = None

    @classmethod
    def blank(cls, number: int, players: int, deck: Deck | None = None) -> RoundDraft:
        return cls(number, None, [SeatDraft() for _ in range(players)], deck=deck)

    @classmethod
    def from_record(cls, number: int, setup: GameSetup, record: RoundRecord) -> RoundDraft:
        seats = []
        order = [b.key for b in setup.rules.bonuses]
        for name in setup.players:
            earned = record.bonuses.get(name, ())
            bonuses = [key for key in order if key in earned]
            if name in record.points:
                seats.append(SeatDraft(points=str(record.points[name]), achieved=name in record.achieved,
                                       bonuses=bonuses))
            else:
                hand = record.hands.get(name)
                empty = name != record.went_out and (hand is None or not len(hand))
                seats.append(
                    SeatDraft(
                        hand=hand.canonical if hand else "",
                        points="0" if empty else "",
                        achieved=name in record.achieved,
                        bonuses=bonuses,
                    )
                )
        return cls(number, setup.seat_of(record.went_out), seats, deck=setup.rules.deck)

    @classmethod
    def from_form(cls, form: Mapping[str, str], players: int, deck: Deck | None = None) -> RoundDraft:
        """Read the posted form; never fails (bad values become errors on the draft).

        Each seat's bonuses are the ``bonus-N`` checkboxes ticked (one value a bonus key)."""
        errors: list[str] = []
        try:
            number = int(form.get("number", ""))
        except ValueError:
            number = 0
            errors.append(gettext("The form lost its round number; reload the page."))
        went_out: int | None = None
        raw_out = form.get("went_out", "")
        out_index = small_int(raw_out)
        if out_index is not None and out_index < players:
            went_out = out_index
        seats = [
            SeatDraft(
                # Typed with this page's language's letters too ("D" for a queen): kept canonical.
                hand=canonical_hand(form.get(f"hand-{i}", "")[:MAX_HAND_TEXT], deck),
                points=form.get(f"points-{i}", "").strip()[:MAX_POINTS_TEXT + 4],
                achieved=form.get(f"achieved-{i}") in {"on", "1", "true", "y"},
                bonuses=_posted_bonuses(form, f"bonus-{i}"),
            )
            for i in range(players)
        ]
        selected = small_int(form.get("seat", ""))
        if selected is not None and selected >= players:
            selected = None
        return cls(number, went_out, seats, errors, form.get("version", ""), selected, deck=deck)

    def needs_hand(self, seat: int) -> bool:
        """True while a seat that did not go out has neither cards nor a points total."""
        draft = self.seats[seat]
        return seat != self.went_out and not draft.hand.strip() and not draft.points.strip()

    @property
    def current(self) -> int:
        """The seat the keypad types into: the one tapped, else the first still needing a hand."""
        if self.selected is not None and self.selected != self.went_out:
            return self.selected
        return self.next_needing(-1)

    def next_needing(self, after: int) -> int:
        """The next seat clockwise after ``after`` that still needs a hand (else the one after)."""
        count = len(self.seats)
        for step in range(1, count + 1):
            seat = (after + step) % count
            if self.needs_hand(seat):
                return seat
        seat = (after + 1) % count
        return (seat + 1) % count if seat == self.went_out and count > 1 else seat

    def press(self, key: str) -> None:
        """A keypad button posted without JavaScript: a rank adds a card to the current seat
        ("seat:rank" names the seat itself)."""
        raw_seat, colon, rank = key.partition(":")
        seat = small_int(raw_seat) if colon else self.current
        if not colon:
            rank = raw_seat
        if seat is not None and seat < len(self.seats) and seat != self.went_out:
            try:
                parsed = parse_rank(rank, self.deck)
            except CardError:
                return
            draft = self.seats[seat]
            draft.hand = f"{draft.hand} {parsed.value}".strip()
            draft.points = ""
            self.selected = seat

    def unpress(self, key: str) -> None:
        """A chip posted without JavaScript: "seat:index" removes that card."""
        raw_seat, _, raw_index = key.partition(":")
        seat, index = small_int(raw_seat), small_int(raw_index)
        if seat is not None and index is not None and seat < len(self.seats):
            draft = self.seats[seat]
            tokens = draft.hand.split()
            if index < len(tokens):
                del tokens[index]
                draft.hand = " ".join(tokens)
            self.selected = seat

    def edit(self, action: str) -> None:
        """The keypad's other keys, posted without JavaScript (the script does the same):
        "back" takes the last card off, "clear" empties the hand, "none" says the player
        holds no cards (0 points) and moves on, "type" opens the typed fields."""
        seat = self.current
        draft = self.seats[seat]
        if action == "back":
            draft.hand = " ".join(draft.hand.split()[:-1])
        elif action == "clear":
            draft.hand = draft.points = ""
        elif action == "none":
            draft.hand, draft.points = "", "0"
            self.selected = self.next_needing(seat)
            return
        elif action == "type":
            self.typing = None if self.typing == seat else seat
        self.selected = seat

    def check(self, before: GameState) -> RoundRecord | None:
        """The round this draft describes, or None with every error placed next to its player.

        ``before`` is the game as it stood before this round. All the reasons come at once:
        what cannot be read (a card that is no card, points that are no number) and every
        rule the engine checks for the hands that can be read.
        """
        setup = before.setup
        ok = not self.errors
        went_out = setup.players[self.went_out] if self.went_out is not None else None
        if went_out is None:
            self.errors.append(gettext("Tap the player who went out."))
            ok = False
        hands: dict[str, Hand] = {}
        points: dict[str, int] = {}
        achieved = []
        bonuses: dict[str, tuple[str, ...]] = {}
        unread: set[str] = set()
        for i, (name, seat) in enumerate(zip(setup.players, self.seats, strict=True)):
            if seat.achieved:
                achieved.append(name)
            if seat.bonuses:
                # As posted (a tuple): the engine names a bonus that is not the game's.
                bonuses[name] = tuple(seat.bonuses)
            if i == self.went_out:
                continue
            message = self._read_seat(name, seat, hands, points, setup.rules)
            if message:
                seat.errors.append(message)
                unread.add(name)
                ok = False
        record = RoundRecord(went_out or "", hands, points, frozenset(achieved), bonuses)  # type: ignore[arg-type]
        problems = [
            p for p in check_round(before, record)
            # Said once above: nobody went out, or the seat's own entry cannot be read. With
            # nobody out, an empty hand may be the one who went out: no error for it yet.
            if not (went_out is None and (p.field == "went_out" or p.code == MISSING))
            and p.player not in unread
        ]
        self.place(setup, tuple(problems))
        if not ok or problems:
            return None
        return record

    @staticmethod
    def _read_seat(name: str, seat: SeatDraft, hands: dict[str, Hand], points: dict[str, int],
                   rules: RuleSet) -> str:
        """Read one seat's entry into ``hands`` or ``points``; the reason it cannot be read, or ""."""
        if seat.points:
            if seat.hand.strip():
                return gettext("%(name)s: enter cards or a points total, not both.", name=name)
            if small_int(seat.points) is None:
                return gettext('%(name)s: points "%(points)s" must be a whole number like 35.', name=name, points=seat.points)
            points[name] = int(seat.points)
            return ""
        if not seat.hand.strip():
            return ""  # the engine says "no cards or points entered", unless nobody went out yet
        try:
            hands[name] = parse_hand(seat.hand, rules.deck)
        except CardError as exc:
            standard = rules.deck is Deck.STANDARD
            if standard and not rules.uses_jokers:
                # The deck's words list a joker: a game without jokers names only its own cards.
                cards = " ".join(card_letter(rank) for rank in rules.ranks)
                return SeatError(gettext('%(name)s: "%(token)s" is not a card (cards are %(cards)s).', name=name,
                                         token=exc.token, cards=cards), exc.code)
            if standard and locale_code() != "en":
                cards = " ".join(card_letter(rank) for rank in rules.ranks[:-1])
                return SeatError(gettext('%(name)s: "%(token)s" is not a card (cards are %(cards)s and %(joker)s '
                                         'for a joker).', name=name, token=exc.token, cards=cards, joker="JK"), exc.code)
            return SeatError(f"{name}: {said(exc)}.", exc.code)
        return ""

    def take_sent(self, sent: Mapping[int, Sent]) -> None:
        """The hands players sent from their own phones, each into its row while the row is
        empty (what the scorekeeper entered stays: theirs wins)."""
        for position, hand in sorted(sent.items()):
            if position >= len(self.seats):
                continue
            seat = self.seats[position]
            if seat.hand.strip() or seat.points.strip() or self.went_out == position:
                continue
            if hand.went_out:
                if self.went_out is None:
                    self.went_out = position
                    seat.achieved = True
                seat.bonuses = list(hand.bonuses)
                continue
            seat.hand = hand.cards or ""
            seat.points = "" if hand.points is None else str(hand.points)
            seat.achieved = hand.achieved
            seat.bonuses = list(hand.bonuses)

    def own_hand(self, position: int, setup: GameSetup) -> RoundRecord | None:
        """One player's part of the round alone, as their own phone sends it (went out, or their
        cards or points; their contract and bonuses); None, with the reason beside them, when it
        cannot be read or holds nothing yet."""
        name = setup.players[position]
        seat = self.seats[position]
        out = self.went_out == position
        hands: dict[str, Hand] = {}
        points: dict[str, int] = {}
        if not out:
            message = self._read_seat(name, seat, hands, points, setup.rules)
            if not message and not hands and not points:
                message = gettext("%(name)s: tap the cards left in your hand, No cards, or Out if you went out.", name=name)
            if message:
                seat.errors.append(message)
                return None
        made = frozenset([name]) if out or seat.achieved else frozenset()
        bonuses = {name: tuple(seat.bonuses)} if seat.bonuses else {}
        return RoundRecord(name if out else "", hands, points, made, bonuses)  # type: ignore[arg-type]

    def place(self, setup: GameSetup, problems: tuple[Problem, ...]) -> None:
        """Put the rules engine's refusals next to the players they concern."""
        for problem in problems:
            if problem.player is not None and problem.player in setup.players:
                message = problem_message(problem)
                if problem.code == MISSING:  # said in the words of this screen's keys
                    message = gettext("no cards entered yet")
                self.seats[setup.seat_of(problem.player)].errors.append(
                    SeatError(f"{problem.player}: {message}.", problem.code))
                if problem.code == TOO_MANY:
                    # Every player holding that card is part of the count, not only the one it
                    # tipped over: each of their rows says so, as the phone says it itself.
                    for name, seat in zip(setup.players, self.seats, strict=True):
                        hand = seat.parsed(setup.rules.deck) if name != problem.player else None
                        if hand is not None and any(rank.value == problem.card for rank in hand.ranks):
                            seat.errors.append(SeatError(held_too_many(name, problem, setup.rules.deck), TOO_MANY))
            else:
                message = problem_message(problem)
                self.errors.append(f"{message[0].upper()}{message[1:]}.")


def _posted_bonuses(form: Mapping[str, str], name: str) -> list[str]:
    """The values posted under ``name`` (a form sends one per ticked box), each kept short."""
    values = form.getlist(name) if hasattr(form, "getlist") else ([form[name]] if name in form else [])
    return [str(v)[:60] for v in values[:MAX_BONUSES]]


def held_too_many(name: str, problem: Problem, deck: Deck | None) -> str:
    """What the row of a player who holds some of a card counted too many times in the round
    says (``problem``, TOO_MANY, names the player it tipped over): as the phone says it itself."""
    values = dict(problem.params)
    try:
        card = card_letter(parse_rank(str(values["rank"]), deck))
    except CardError:
        card = str(values["rank"])
    if values["rank"] == "JK":
        jokers = int(values["jokers"])  # type: ignore[call-overload]
        if jokers == 1:
            return gettext("%(name)s: %(total)s \u00d7 %(card)s in this round, but 1 joker in play.", name=name,
                           total=values["total"], card=card)
        return gettext("%(name)s: %(total)s \u00d7 %(card)s in this round, but %(limit)s jokers in play.", name=name,
                       total=values["total"], card=card, limit=jokers)
    if values["decks"] == 1:
        return gettext("%(name)s: %(total)s \u00d7 %(card)s in this round, but 1 deck holds only %(limit)s of "
                       "%(rank)s.", name=name, total=values["total"], card=card, limit=values["limit"], rank=card)
    return gettext("%(name)s: %(total)s \u00d7 %(card)s in this round, but %(decks)s decks hold only "
                   "%(limit)s of %(rank)s.", name=name, total=values["total"], card=card, decks=values["decks"],
                   limit=values["limit"], rank=card)


def state_before(state: GameState, number: int) -> GameState:
    """The game as it stood before round ``number`` (for checking a correction of it)."""
    if number > len(state.rounds):
        return state
    return replay(state.setup, [r.record for r in state.rounds[: number - 1]])
