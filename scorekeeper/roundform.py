"""The record-a-round form: what was typed, per seat, and how it becomes a round.

The draft keeps exactly what the person entered, so nothing is lost when a check
fails; the rules engine does every check of the rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from .rules import CardError, GameSetup, Hand, Problem, RoundRecord, parse_hand, parse_rank
from .rules.cards import MAX_HAND_TEXT

MAX_POINTS_TEXT = 6
_SMALL_INT = re.compile(r"[0-9]{1,6}")


def small_int(text: object) -> int | None:
    """A posted index or count written with ASCII digits only ("²" is no number here)."""
    if isinstance(text, str) and _SMALL_INT.fullmatch(text):
        return int(text)
    return None


@dataclass
class SeatDraft:
    hand: str = ""
    points: str = ""
    achieved: bool = False
    errors: list[str] = field(default_factory=list)

    @property
    def parsed(self) -> Hand | None:
        try:
            return parse_hand(self.hand)
        except CardError:
            return None


@dataclass
class RoundDraft:
    number: int
    went_out: int | None
    seats: list[SeatDraft]
    errors: list[str] = field(default_factory=list)
    version: str = ""

    @classmethod
    def blank(cls, number: int, players: int) -> RoundDraft:
        return cls(number, None, [SeatDraft() for _ in range(players)])

    @classmethod
    def from_record(cls, number: int, setup: GameSetup, record: RoundRecord) -> RoundDraft:
        seats = []
        for name in setup.players:
            if name in record.points:
                seats.append(SeatDraft(points=str(record.points[name]), achieved=name in record.achieved))
            else:
                hand = record.hands.get(name)
                empty = name != record.went_out and (hand is None or not len(hand))
                seats.append(
                    SeatDraft(
                        hand=hand.canonical if hand else "",
                        points="0" if empty else "",
                        achieved=name in record.achieved,
                    )
                )
        return cls(number, setup.seat_of(record.went_out), seats)

    @classmethod
    def from_form(cls, form: Mapping[str, str], players: int) -> RoundDraft:
        """Read the posted form; never fails (bad values become errors on the draft)."""
        errors: list[str] = []
        try:
            number = int(form.get("number", ""))
        except ValueError:
            number = 0
            errors.append("The form lost its round number; reload the page.")
        went_out: int | None = None
        raw_out = form.get("went_out", "")
        out_index = small_int(raw_out)
        if out_index is not None and out_index < players:
            went_out = out_index
        seats = [
            SeatDraft(
                hand=form.get(f"hand-{i}", "")[:MAX_HAND_TEXT],
                points=form.get(f"points-{i}", "").strip()[:MAX_POINTS_TEXT + 4],
                achieved=form.get(f"achieved-{i}") in {"on", "1", "true", "y"},
            )
            for i in range(players)
        ]
        return cls(number, went_out, seats, errors, form.get("version", ""))

    def press(self, key: str) -> None:
        """A keypad button posted without JavaScript: "seat:rank" adds a card."""
        raw_seat, _, rank = key.partition(":")
        seat = small_int(raw_seat)
        if seat is not None and seat < len(self.seats):
            try:
                parsed = parse_rank(rank)
            except CardError:
                return
            draft = self.seats[seat]
            draft.hand = f"{draft.hand} {parsed.value}".strip()

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

    def to_record(self, setup: GameSetup) -> RoundRecord | None:
        """The round this draft describes, or None with errors placed next to each player."""
        ok = not self.errors
        if self.went_out is None:
            self.errors.append("Tap the player who went out.")
            ok = False
        hands: dict[str, Hand] = {}
        points: dict[str, int] = {}
        achieved = []
        for i, (name, seat) in enumerate(zip(setup.players, self.seats, strict=True)):
            if seat.achieved:
                achieved.append(name)
            if i == self.went_out:
                continue
            if seat.points:
                if seat.hand.strip():
                    seat.errors.append(f"{name}: enter cards or a points total, not both.")
                    ok = False
                    continue
                if small_int(seat.points) is None:
                    seat.errors.append(f'{name}: points "{seat.points}" must be a whole number like 35.')
                    ok = False
                    continue
                points[name] = int(seat.points)
                continue
            if not seat.hand.strip():
                seat.errors.append(f"{name}: no cards entered. Tap the cards left in the hand, or enter 0 points.")
                ok = False
                continue
            try:
                hands[name] = parse_hand(seat.hand)
            except CardError as exc:
                seat.errors.append(f"{name}: {exc}.")
                ok = False
        if not ok or self.went_out is None:
            return None
        return RoundRecord(setup.players[self.went_out], hands, points, frozenset(achieved))

    def place(self, setup: GameSetup, problems: tuple[Problem, ...]) -> None:
        """Put the rules engine's refusals next to the players they concern."""
        for problem in problems:
            if problem.player is not None and problem.player in setup.players:
                self.seats[setup.seat_of(problem.player)].errors.append(f"{problem.player}: {problem.message}.")
            else:
                self.errors.append(f"{problem.message[0].upper()}{problem.message[1:]}.")

    @property
    def has_errors(self) -> bool:
        return bool(self.errors) or any(s.errors for s in self.seats)
