"""Replaying a game's recorded rounds into its standings.

The only facts are the set-up (who sits where, the rule set, the deck) and the
rounds as recorded (who went out, the cards or points left in every other hand,
who achieved their contract). Everything else — penalties, totals, levels,
dealers, the end of the game and its winners — is worked out here, so a
correction to an early round fixes everything after it.

>>> from scorekeeper.rules import BALMORAL, GameSetup, RoundRecord, replay
>>> setup = GameSetup.create(BALMORAL, ["Ann", "Ben", "Cat"], first_dealer="Ann")
>>> game = replay(setup, [RoundRecord.create("Ben", {"Ann": "A K 7 7", "Cat": "10 10 Q 2"})])
>>> [(p.name, p.total, p.completed) for p in game.players]
[('Ann', 39, 0), ('Ben', 0, 1), ('Cat', 32, 0)]
>>> game.next.number, game.next.dealer, game.next.first_player
(2, 'Ben', 'Cat')

A bonus counts on top of the cards left; a total may go below zero:

>>> from scorekeeper.rules import SHANGHAI
>>> setup = GameSetup.create(SHANGHAI, ["Ann", "Ben", "Cat"])
>>> game = replay(setup, [RoundRecord.create("Ann", {"Ben": "A 7", "Cat": "JK"}, bonuses={"Ann": "blind"})])
>>> [(p.name, p.total) for p in game.players]
[('Ann', -25), ('Ben', 20), ('Cat', 15)]

Where a game stands after its rounds (:class:`Position`: the totals, contracts completed and
times out, and the next round) is all that its next round is checked and scored against, so a
stored game can be taken up again from the figures written after its last round, and played
on (:func:`play`) exactly as a replay of every round would:

>>> from scorekeeper.rules import Position, play
>>> at = Position.resume(setup, 1, (-25, 20, 15), (None, None, None), (1, 0, 0), dealer="Ben")
>>> at == game.position
True
>>> result, after = play(at, RoundRecord.create("Ben", {"Ann": "5", "Cat": "K"}))
>>> result.penalties, after.totals, after.next.dealer
((5, 0, 10), (-20, 20, 25), 'Cat')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
import dataclasses
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from scorekeeper.rules.cards import Card, CardError, Deck, Hand, Rank, parse_hand
from scorekeeper.rules.names import MAX_NAME, NameRefused, clean_name, name_key
from scorekeeper.rules.rulesets import DealerRule, Progression, RuleSet, Stage, WinnerRule
from scorekeeper.rules.words import ABOUT, N_, Phrase, alternatives


# Enum members as plain module constants: a member read through its class costs a descriptor
# call, and replaying a long history reads these for every hand of every round.
_JOKER = Rank.JOKER
_LADDER = Progression.LADDER
_WINNER = DealerRule.WINNER


#: :attr:`Problem.code` values.
MISSING = "missing"
GAME_OVER = "game over"
TOO_MANY = "too many"
NOT_IN_DECK = "not in deck"


@dataclass(frozen=True)
class Problem:
    """One reason a game or a round is refused, with what it concerns."""

    message: str
    round: int | None = None
    player: str | None = None
    card: str | None = None
    field: str | None = None
    #: A word for callers to match on instead of the message: MISSING (no entry at all for a
    #: player), GAME_OVER (a round after the one that ended the game), TOO_MANY (more of a card
    #: in the round than the game's decks or jokers hold; ``player`` is the one it tipped over),
    #: NOT_IN_DECK (a card the game does not play: a joker where it plays without, another deck's).
    code: str | None = None
    #: The message's words with their blanks (``"{count} cards left, ..."``, marked with
    #: :func:`N_`) and what fills them, for a caller that says it in another language; "" for
    #: a message said only in English.
    template: str = dataclasses.field(default="", compare=False)
    params: tuple[tuple[str, object], ...] = dataclasses.field(default=(), compare=False)

    @classmethod
    def said(cls, template: str, params: Mapping[str, object], **where) -> Problem:
        """A problem whose message is ``template`` filled with ``params``."""
        return cls(template.format(**params), template=template, params=tuple(params.items()), **where)

    def __str__(self) -> str:
        where = []
        if self.round is not None:
            where.append(f"round {self.round}")
        if self.player is not None:
            where.append(self.player)
        prefix = ", ".join(where)
        if prefix:
            return f"{prefix[0].upper()}{prefix[1:]}: {self.message}"
        return self.message[0].upper() + self.message[1:]


class RulesError(ValueError):
    """A game or round that breaks the rules. ``problems`` lists every reason."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    @property
    def first(self) -> Problem:
        return self.problems[0]


class SetupError(RulesError):
    """A game set-up (players, dealer, deck) that the rules do not allow."""


class RoundError(RulesError):
    """A recorded round that the rules refuse."""


@dataclass(frozen=True)
class GameSetup:
    """Who plays, in seat order (clockwise), and how."""

    rules: RuleSet
    players: tuple[str, ...]
    first_dealer: str
    dealer_rule: DealerRule
    decks: int
    jokers: int

    @classmethod
    def create(
        cls,
        rules: RuleSet,
        players: Iterable[str],
        first_dealer: str | None = None,
        dealer_rule: DealerRule | str | None = None,
        decks: int | None = None,
        jokers: int | None = None,
    ) -> GameSetup:
        """Check a set-up and fill in what the rules suggest; ``SetupError`` names each problem."""
        problems: list[Problem] = []
        names: list[str] = []
        seen: dict[str, str] = {}
        for raw in players:
            try:
                name = clean_name(raw, "player's name")
            except NameRefused as exc:
                problems.append(Problem.said(exc.said.template, exc.said.values, field="players"))
                continue
            key = name_key(name)
            if key in seen:
                problems.append(
                    Problem.said(N_('"{name}" is at the table twice'), {"name": name}, player=name, field="players")
                )
                continue
            seen[key] = name
            names.append(name)
        count = len(names)
        if not problems and not rules.min_players <= count <= rules.max_players:
            problems.append(
                Problem.said(N_("{rules} is for {least} to {most} players, not {count}"),
                             {"rules": rules.name, "least": rules.min_players, "most": rules.max_players,
                              "count": count}, field="players")
            )
        dealer = names[0] if names else ""
        if first_dealer is not None:
            match = seen.get(name_key(first_dealer)) if isinstance(first_dealer, str) else None
            if match is None:
                problems.append(Problem.said(N_('the first dealer "{name}" is not at the table'),
                                             {"name": first_dealer}, field="first_dealer"))
            else:
                dealer = match
        if dealer_rule is None:
            rule = rules.default_dealer_rule
        else:
            try:
                rule = DealerRule(dealer_rule)
            except ValueError:
                rule = rules.default_dealer_rule
                problems.append(Problem.said(N_('"{rule}" is not a dealer rule'), {"rule": dealer_rule},
                                             field="dealer_rule"))
            else:
                if rule not in rules.dealer_rules:
                    problems.append(Problem.said(
                        N_("{rules} deals by the rule {allowed}"),
                        {"rules": rules.name, "allowed": alternatives([r.value for r in rules.dealer_rules])},
                        field="dealer_rule"))
        suggested_decks, suggested_jokers = rules.suggested_decks(max(count, 1))
        decks = suggested_decks if decks is None else decks
        jokers = suggested_jokers if jokers is None else jokers
        if not _is_int(decks) or not 1 <= decks <= rules.max_decks:
            problems.append(Problem.said(N_("decks must be a whole number from 1 to {most}"), {"most": rules.max_decks},
                                         field="decks"))
        if not _is_int(jokers) or not 0 <= jokers <= rules.max_jokers:
            problems.append(Problem.said(N_("jokers must be a whole number from 0 to {most}"), {"most": rules.max_jokers},
                                         field="jokers"))
        elif jokers and not rules.uses_jokers:
            problems.append(Problem.said(N_("{rules} plays without jokers"), {"rules": rules.name}, field="jokers"))
        # The biggest deal of the game must fit (not the last: a table may deal fewer later).
        most = max(s.cards_dealt for s in rules.stages)
        if _is_int(decks) and decks >= 1 and count and decks * rules.deck.size < count * most:
            problems.append(
                Problem.said(N_("1 deck cannot deal {most} cards to {count} players") if decks == 1
                             else N_("{decks} decks cannot deal {most} cards to {count} players"),
                             {"decks": decks, "most": most, "count": count}, field="decks")
            )
        if problems:
            raise SetupError(problems)
        return cls(rules, tuple(names), dealer, rule, decks, jokers)

    def seat_of(self, name: str) -> int:
        return self.players.index(name)

    def find(self, name: object) -> str | None:
        """The player's name as seated, matching case and spacing loosely."""
        if not isinstance(name, str):
            return None
        seated = self._seated
        return seated.get(name) or seated.get(name_key(name))

    @property
    def _seated(self) -> dict[str, str]:
        return _seating(self.players)

    @property
    def max_hand_points(self) -> int:
        """The highest penalty one hand can carry under this set-up, in any round."""
        return self.max_points(self.rules.hand_limit)

    def max_points(self, hand_limit: int | None) -> int:
        """The highest penalty of a hand of at most ``hand_limit`` cards (None: every card of
        the decks, as when players buy cards)."""
        values = self.rules.values
        if hand_limit is not None:
            return hand_limit * max(values.values())
        deck = self.rules.deck
        per_deck = sum(v * deck.copies(r) for r, v in values.items() if r is not Rank.JOKER)
        return per_deck * self.decks + values.get(Rank.JOKER, 0) * self.jokers


@lru_cache(maxsize=1024)
def _seating(players: tuple[str, ...]) -> dict[str, str]:
    """Each seated name, and its folded form, to the name as seated: worked out once for each
    table (a replay looks names up for every hand of every round, and every round recorded
    makes its game's set-up anew). Callers only read it."""
    seated: dict[str, str] = {}
    for player in players:
        seated.setdefault(name_key(player), player)
    for player in players:
        seated.setdefault(player, seated[name_key(player)])
    return seated


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class RoundRecord:
    """One round as the scorekeeper recorded it.

    ``hands`` holds the cards left for players who entered cards, ``points`` the
    totals for players whose hand was counted by hand; each player other than
    ``went_out`` is in exactly one of them. ``achieved`` names the players who
    achieved their contract (ladder rule sets); ``went_out`` always counts as one.
    ``bonuses`` holds, per player, the keys of the rule set's bonuses they earned this
    round (a set: each bonus at most once per player per round).
    """

    went_out: str
    hands: Mapping[str, Hand] = field(default_factory=dict)
    points: Mapping[str, int] = field(default_factory=dict)
    achieved: frozenset[str] = frozenset()
    bonuses: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def create(
        cls,
        went_out: str,
        hands: Mapping[str, str | Hand] | None = None,
        points: Mapping[str, int] | None = None,
        achieved: Iterable[str] = (),
        bonuses: Mapping[str, str | Iterable[str]] | None = None,
        deck: Deck | None = None,
    ) -> RoundRecord:
        """Build a record, reading hands written as text with ``deck`` (standard by default).

        Raises ``CardError`` naming the player whose hand holds what is not a card. A bonus
        may be given as one key or as several.
        """
        parsed: dict[str, Hand] = {}
        for name, hand in (hands or {}).items():
            try:
                parsed[name] = hand if isinstance(hand, Hand) else parse_hand(hand, deck)
            except CardError as exc:
                raise CardError(exc.token, Phrase(ABOUT, {"where": name, "reason": exc.said}),
                                player=name) from None
        earned = {
            name: frozenset((keys,) if isinstance(keys, str) else keys) for name, keys in (bonuses or {}).items()
        }
        return cls(went_out, parsed, dict(points or {}), frozenset(achieved), earned)


@dataclass(frozen=True)
class PlayerState:
    name: str
    seat: int
    penalties: tuple[int, ...]
    #: Contracts achieved so far (ladder rule sets), else None.
    completed: int | None
    times_out: int
    #: The sum of the penalties (worked out when the state is made).
    total: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", sum(self.penalties))


@dataclass(frozen=True)
class RoundResult:
    """A recorded round with everything the rules derive from it."""

    number: int
    dealer: str
    first_player: str
    cards_dealt: int
    record: RoundRecord
    #: Per seat: the penalty scored this round.
    penalties: tuple[int, ...]
    #: Per seat: the contract each player played this round.
    stages: tuple[Stage, ...]
    #: Players who achieved their contract (ladder) — always includes went_out.
    achieved: frozenset[str]
    #: Players who moved up a level because of this round (ladder).
    moved_up: tuple[str, ...]
    #: Players in first place after this round (:func:`standing`).
    leaders: tuple[str, ...]
    #: Per seat: running totals after this round.
    totals: tuple[int, ...]
    #: Per seat: contracts completed after this round (ladder), else None.
    completed: tuple[int | None, ...]
    ends_game: bool

    @property
    def went_out(self) -> str:
        return self.record.went_out


@dataclass(frozen=True)
class NextRound:
    number: int
    dealer: str
    first_player: str
    cards_dealt: int
    #: Per seat: the contract each player plays.
    stages: tuple[Stage, ...]
    #: True when this round ends the game whatever happens in it (the last deal).
    is_last: bool = False
    #: Players whose contract this round is the last one: making it ends the game (ladder).
    finishers: tuple[str, ...] = ()

    def ends_game(self, achieved: Iterable[str] = ()) -> bool:
        """Whether recording this round, with ``achieved`` making their contracts, ends the game.

        >>> from scorekeeper.rules import BALMORAL, GameSetup, start
        >>> nxt = start(GameSetup.create(BALMORAL, ["Ann", "Ben"])).next
        >>> nxt.ends_game(["Ann"]), nxt.finishers
        (False, ())
        """
        return self.is_last or any(name in self.finishers for name in achieved)


@dataclass(frozen=True)
class GameState:
    setup: GameSetup
    players: tuple[PlayerState, ...]
    rounds: tuple[RoundResult, ...]
    next: NextRound | None

    @property
    def rules(self) -> RuleSet:
        return self.setup.rules

    @property
    def finished(self) -> bool:
        return self.next is None

    @property
    def played(self) -> int:
        """How many rounds have been played."""
        return len(self.rounds)

    @cached_property
    def position(self) -> Position:
        """Where the game stands: what its next round is checked and scored against."""
        players = self.players
        return Position(self.setup, len(self.rounds), tuple(p.total for p in players),
                        tuple(p.completed for p in players), tuple(p.times_out for p in players), self.next)

    @cached_property
    def lowest(self) -> tuple[str, ...]:
        return self.position.lowest

    @property
    def winners(self) -> tuple[str, ...]:
        """Who won once the game is finished (else nobody): :attr:`Position.winners`."""
        return self.position.winners

    def ranks(self) -> dict[str, int]:
        """Each player's place: :meth:`Position.ranks`."""
        return self.position.ranks()

    @property
    def leaders(self) -> tuple[str, ...]:
        """Everyone in first place (the winners, once the game is finished)."""
        best = min(standing(self.rules, p) for p in self.players)
        return tuple(p.name for p in self.players if standing(self.rules, p) == best)

    def standings(self) -> list[PlayerState]:
        return sorted(self.players, key=lambda p: (standing(self.rules, p), p.seat))

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)


@dataclass(frozen=True)
class Position:
    """Where a game stands after its rounds, without the rounds themselves: per seat the total,
    the contracts completed (ladder rule sets, else None) and the times out, and the next round
    (None once the game is over). It is all that the next round is checked and scored against
    (:func:`play`). A game's state has one (:attr:`GameState.position`), and one can be taken
    up again from what was written down after the last round (:meth:`resume`), so that
    recording a round need not replay the game.
    """

    setup: GameSetup
    played: int
    totals: tuple[int, ...]
    completed: tuple[int | None, ...]
    times_out: tuple[int, ...]
    next: NextRound | None

    @classmethod
    def resume(cls, setup: GameSetup, played: int, totals: Sequence[int], completed: Sequence[int | None],
               times_out: Sequence[int], dealer: str | None) -> Position:
        """Where a game stands from its figures after ``played`` rounds, ``dealer`` dealing the
        next one (None: the game is over); the next round is worked out as a replay would.
        ``ValueError`` if the figures do not fit the table.

        >>> from scorekeeper.rules import BALMORAL, GameSetup
        >>> setup = GameSetup.create(BALMORAL, ["Ann", "Ben", "Cat"])
        >>> at = Position.resume(setup, 4, (10, 0, 35), (2, 1, 0), (1, 3, 0), "Ben")
        >>> at.next.number, at.next.first_player, [s.number for s in at.next.stages]
        (5, 'Cat', [3, 2, 1])
        >>> Position.resume(setup, 4, (10, 0), (2, 1, 0), (1, 3, 0), "Ben")
        Traceback (most recent call last):
        ...
        ValueError: a position needs a total, contracts completed and times out for each of the 3 players
        """
        count = len(setup.players)
        if not len(totals) == len(completed) == len(times_out) == count:
            raise ValueError(f"a position needs a total, contracts completed and times out for each of the {count} players")
        ladder = setup.rules.progression is _LADDER
        if any((c is None) is ladder for c in completed):
            raise ValueError("contracts completed are counted in ladder games only" if not ladder
                             else "a ladder game counts every player's contracts completed")
        if played < 0 or min(times_out) < 0 or sum(times_out) != played:
            raise ValueError(f"{played} rounds played, but the players went out {sum(times_out)} times")
        if ladder and any(not 0 <= c <= min(played, setup.rules.last_stage) for c in completed):  # type: ignore[operator]
            raise ValueError(f"contracts completed must be 0 to {setup.rules.last_stage}, and no more than the rounds played")
        if dealer is not None and dealer not in setup.players:
            raise ValueError(f"{dealer!r} is not at the table, so cannot deal")
        nxt = None if dealer is None else _next_round(setup, completed, played + 1, dealer)
        return cls(setup, played, tuple(totals), tuple(completed), tuple(times_out), nxt)

    @property
    def rules(self) -> RuleSet:
        return self.setup.rules

    @property
    def finished(self) -> bool:
        return self.next is None

    @property
    def lowest(self) -> tuple[str, ...]:
        best = min(self.totals)
        return tuple(name for name, total in zip(self.setup.players, self.totals, strict=True) if total == best)

    @property
    def winners(self) -> tuple[str, ...]:
        """Who won once the game is finished (else nobody), by the rule set's winner rule:
        everyone with the lowest total, or (``lowest-finisher``) everyone with the lowest
        total among the players who completed the last stage."""
        if not self.finished:
            return ()
        if self.rules.winner is WinnerRule.LOWEST_FINISHER:
            last = self.rules.last_stage
            finishers = [(name, total) for name, total, c in zip(self.setup.players, self.totals, self.completed,
                                                                 strict=True) if c is not None and c >= last]
            if finishers:  # else not a ladder game: no one can finish, so no one is singled out
                best = min(total for _, total in finishers)
                return tuple(name for name, total in finishers if total == best)
        return self.lowest

    def ranks(self) -> dict[str, int]:
        """Each player's place, standard competition ranking (1, 1, 3), by :func:`standing`:
        by total; where only those who complete the last stage may win, by the stage reached
        first (in Phase 10 a player on phase 9 is behind one on phase 10, whatever the points).
        Once the game is finished, the winners are the ones in first place."""
        keys = [_place(self.rules, t, c) for t, c in zip(self.totals, self.completed, strict=True)]
        ordered = sorted(keys)
        return {name: ordered.index(key) + 1 for name, key in zip(self.setup.players, keys, strict=True)}


def standing(rules: RuleSet, player: PlayerState) -> tuple[int, ...]:
    """What places a player, smallest first: the total; or, when the rule set's winner is the
    lowest total among those who complete the last stage, the stages completed (most first),
    then the total.

    >>> from scorekeeper.rules import BALMORAL, PHASE10
    >>> ann, bob = PlayerState("Ann", 0, (400,), 10, 1), PlayerState("Bob", 1, (5,), 9, 0)
    >>> standing(PHASE10, ann) < standing(PHASE10, bob), standing(BALMORAL, ann) < standing(BALMORAL, bob)
    (True, False)
    """
    return _place(rules, player.total, player.completed)


def _place(rules: RuleSet, total: int, completed: int | None) -> tuple[int, ...]:
    if rules.winner is WinnerRule.LOWEST_FINISHER:
        return (-(completed or 0), total)
    return (total,)


def _dealer_after(setup: GameSetup, result: RoundResult) -> str:
    """Who deals the round after ``result``: its winner, or the next seat round the table."""
    if setup.dealer_rule is _WINNER:
        return result.went_out
    first = setup.seat_of(setup.first_dealer)
    return setup.players[(first + result.number) % len(setup.players)]


def _next_round(setup: GameSetup, completed: Sequence[int | None], number: int, dealer: str) -> NextRound:
    players = setup.players
    first_player = players[(players.index(dealer) + 1) % len(players)]
    rules = setup.rules
    last = rules.last_stage
    if rules.progression is _LADDER:
        # Each plays the contract after the ones completed; the last one until the game ends.
        stages = tuple(rules.stages[min(c, last - 1)] for c in completed)  # type: ignore[operator]
        is_last = False
        finishers = tuple(p for p, c in zip(players, completed, strict=True) if c is not None and c + 1 >= last)
    else:
        stages = (rules.stage(number),) * len(players)
        is_last, finishers = number >= last, ()
    return NextRound(number, dealer, first_player, max(s.cards_dealt for s in stages), stages, is_last, finishers)


def check_round(state: GameState | Position, record: RoundRecord) -> tuple[Problem, ...]:
    """Every reason the rules refuse ``record`` as the next round of ``state`` (empty if none)."""
    setup = state.setup
    rules = setup.rules
    nxt = state.next
    number = state.played + 1
    if nxt is None:
        return (Problem.said(N_("the game ended after round {played}; no further round can be recorded"),
                             {"played": state.played}, round=number, code=GAME_OVER),)
    problems: list[Problem] = []

    def refuse(message: str, player: str | None = None, card: str | None = None, fld: str | None = None,
               code: str | None = None, params: Mapping[str, object] | None = None) -> None:
        if params is None:
            problems.append(Problem(message, round=number, player=player, card=card, field=fld, code=code))
        else:
            problems.append(Problem.said(message, params, round=number, player=player, card=card, field=fld,
                                         code=code))

    went_out = setup.find(record.went_out)
    if went_out is None:
        refuse(N_('"{name}" is not at the table, so cannot have gone out'), fld="went_out",
               params={"name": record.went_out})
    resolved_hands: dict[str, Hand] = {}
    resolved_points: dict[str, int] = {}
    for source, target in ((record.hands, resolved_hands), (record.points, resolved_points)):
        for raw_name, value in source.items():
            name = setup.find(raw_name)
            if name is None:
                refuse(N_('"{name}" is not at the table'), fld="hands", params={"name": raw_name})
                continue
            if name in resolved_hands or name in resolved_points:
                refuse(N_("has both cards and a points total; give one of them"), player=name, fld="points", params={})
                continue
            target[name] = value  # type: ignore[assignment]

    lowest = rules.lowest_value
    total_cards: dict[Card, int] = {}
    copies = rules.copies
    uses_jokers = rules.uses_jokers
    deck = rules.deck
    hand_limit = rules.round_hand_limit(nxt.cards_dealt)
    for name in setup.players:
        hand = resolved_hands.get(name)
        if name == went_out:
            if hand is not None and len(hand):
                refuse(N_("went out, so their hand must be empty"), player=name, card=hand.ranks[0].value, fld="hands",
                       params={})
            pts = resolved_points.get(name)
            if pts is not None and pts != 0:
                refuse(N_("went out, so their points must be 0"), player=name, fld="points", params={})
            continue
        if hand is None and name not in resolved_points:
            refuse(N_("no cards or points entered"), player=name, fld="hands", code=MISSING, params={})
            continue
        if hand is not None:
            if hand_limit is not None and len(hand) > hand_limit:
                refuse(
                    N_("{count} cards left, but a hand holds at most {most}"),
                    player=name,
                    card=hand.ranks[-1].value,
                    fld="hands",
                    params={"count": len(hand), "most": hand_limit},
                )
            for rank, n in hand.tally:
                per_deck = copies.get(rank)
                if per_deck is None and not (rank is _JOKER and uses_jokers):
                    if rank is _JOKER and deck is Deck.STANDARD:
                        refuse(N_("{rules} plays without jokers"), player=name, card=_JOKER.value, fld="hands",
                               code=NOT_IN_DECK, params={"rules": rules.name})
                    else:
                        # A hand read with another deck's parser (a K, a joker in a Phase 10 game).
                        refuse(N_("{card} is not a card of the Phase 10 deck") if deck is Deck.PHASE10
                               else N_("{card} is not a card of the standard deck"), player=name,
                               card=rank.value, fld="hands", code=NOT_IN_DECK, params={"card": rank.value})
                    continue
                before = total_cards.get(rank, 0)
                total_cards[rank] = before + n
                limit = setup.jokers if per_deck is None else per_deck * setup.decks
                if before <= limit < total_cards[rank]:
                    if rank is _JOKER:
                        template = (N_("that makes {total} × {card} in this round, but 1 joker in play")
                                    if setup.jokers == 1 else
                                    N_("that makes {total} × {card} in this round, but {jokers} jokers in play"))
                    elif setup.decks == 1:
                        template = N_("that makes {total} × {card} in this round, but 1 deck holds only {limit} of {rank}")
                    else:
                        template = N_("that makes {total} × {card} in this round, but {decks} decks hold only {limit} of {rank}")
                    refuse(template, player=name, card=rank.value, fld="hands", code=TOO_MANY,
                           params={"total": total_cards[rank], "card": rank.label, "jokers": setup.jokers,
                                   "decks": setup.decks, "limit": limit, "rank": rank.value})
        else:
            pts = resolved_points[name]
            top = setup.max_points(hand_limit)
            if not _is_int(pts):
                refuse(N_("points must be a whole number"), player=name, fld="points", params={})
            elif pts < 0 or pts > top:
                refuse(N_("{points} points is impossible: a hand scores 0 to {most}"), player=name, fld="points",
                       params={"points": pts, "most": top})
            elif lowest is not None and 0 < pts < lowest:
                refuse(N_("1 point is impossible: the lowest card scores {lowest}") if pts == 1
                       else N_("{points} points is impossible: the lowest card scores {lowest}"),
                       player=name, fld="points", params={"points": pts, "lowest": lowest})

    achieved: set[str] = set()
    for raw in record.achieved:
        name = setup.find(raw)
        if name is None:
            refuse(N_('"{name}" is not at the table, so cannot have achieved a contract'), fld="achieved",
                   params={"name": raw})
        else:
            achieved.add(name)
    if rules.progression is not _LADDER and went_out is not None and achieved - {went_out}:
        extra = sorted(achieved - {went_out})[0]
        refuse(N_("{rules} has no per-player contracts to mark as achieved"), player=extra, fld="achieved",
               params={"rules": rules.name})
    if record.bonuses:
        _check_bonuses(setup, record, refuse)
    return tuple(problems)


def check_own_hand(state: GameState | Position, name: str, record: RoundRecord) -> tuple[Problem, ...]:
    """What the rules refuse in one player's own hand for the next round, seen alone: a card the
    game does not play, more cards than were dealt, more of a rank than the decks hold, points no
    hand scores, a bonus the rules do not have. ``record`` holds that player's entry only (went
    out, or their cards or points, their contract and bonuses); what needs every hand (who went
    out, the cards of the whole round counted together) is checked when the round is saved.

    >>> from scorekeeper.rules.presets import BALMORAL
    >>> state = start(GameSetup.create(BALMORAL, ["Ann", "Ben"]))
    >>> [p.message for p in check_own_hand(state, "Ben", RoundRecord.create("", {"Ben": "K K K K K K K K K"}))]
    ['that makes 9 × K in this round, but 2 decks hold only 8 of K']
    """
    return tuple(p for p in check_round(state, record)
                 if p.player is not None and p.code != MISSING and state.setup.find(p.player) == name)


def _check_bonuses(setup: GameSetup, record: RoundRecord, refuse: Callable[..., None]) -> None:
    rules = setup.rules
    earned: set[str] = set()
    for raw, keys in record.bonuses.items():
        name = setup.find(raw)
        if name is None:
            refuse(N_('"{name}" is not at the table, so cannot have earned a bonus'), fld="bonuses",
                   params={"name": raw})
            continue
        if name in earned:
            # "ann" and "Ann": two entries for one player would give a bonus twice.
            refuse(N_("has bonuses given twice; give them once"), player=name, fld="bonuses", params={})
            continue
        earned.add(name)
        if isinstance(keys, str) or not isinstance(keys, (set, frozenset, list, tuple)):
            refuse(N_("bonuses must be a list of bonus keys"), player=name, fld="bonuses", params={})
            continue
        if any(not isinstance(key, str) for key in keys):
            refuse(N_("a bonus is given by its key, as text"), player=name, fld="bonuses", params={})
            continue
        given: set[str] = set()
        # Sorted: a set's order changes from run to run, the messages should not.
        for key in sorted(keys):
            if key in given:
                refuse(N_('"{key}" is given twice, but a bonus counts at most once a round'), player=name,
                       fld="bonuses", params={"key": key})
                continue
            given.add(key)
            if rules.bonus(key) is None:
                known = ", ".join(b.key for b in rules.bonuses)
                refuse(N_('"{key}" is not a bonus of {rules} (its bonuses are {known})') if known
                       else N_('"{key}" is not a bonus of {rules} (it has no bonuses)'), player=name, fld="bonuses",
                       params={"key": key, "rules": rules.name, "known": known})


def _normalise(setup: GameSetup, record: RoundRecord) -> RoundRecord:
    """The record with every name spelt as seated and went_out among the achievers."""
    went_out = setup.find(record.went_out) or record.went_out
    hands = {setup.find(n) or n: h for n, h in record.hands.items()}
    hands.pop(went_out, None)
    points = {setup.find(n) or n: p for n, p in record.points.items()}
    points.pop(went_out, None)
    achieved = frozenset(setup.find(n) or n for n in record.achieved)
    if setup.rules.progression is _LADDER:
        achieved |= {went_out}
    else:
        achieved = frozenset()
    bonuses = {setup.find(n) or n: frozenset(keys) for n, keys in record.bonuses.items() if keys}
    return RoundRecord(went_out, hands, points, achieved, bonuses)


def start(setup: GameSetup) -> GameState:
    """The state of a game with no rounds recorded."""
    ladder = setup.rules.progression is _LADDER
    players = tuple(
        PlayerState(name, seat, (), 0 if ladder else None, 0) for seat, name in enumerate(setup.players)
    )
    return GameState(setup, players, (), _next_round(setup, [p.completed for p in players], 1, setup.first_dealer))


def advance(state: GameState, record: RoundRecord) -> GameState:
    """The state after one more round; ``RoundError`` if the rules refuse it."""
    problems = check_round(state, record)
    if problems:
        raise RoundError(problems)
    return _scored(state, record)


def play(position: Position, record: RoundRecord) -> tuple[RoundResult, Position]:
    """The next round from where a game stands, checked as :func:`advance` checks it
    (``RoundError``) and scored as a replay scores it: the round, and where the game then stands."""
    problems = check_round(position, record)
    if problems:
        raise RoundError(problems)
    nxt = position.next
    assert nxt is not None
    result, times_out, following = _score(position.setup, nxt, position.totals, position.completed,
                                          position.times_out, record)
    return result, Position(position.setup, position.played + 1, result.totals, result.completed, times_out,
                            following)


def _scored(state: GameState, record: RoundRecord) -> GameState:
    """The state after ``record``, a round the rules accept (:func:`check_round`)."""
    nxt = state.next
    assert nxt is not None
    players = state.players
    result, times_out, following = _score(state.setup, nxt, tuple(p.total for p in players),
                                          tuple(p.completed for p in players), tuple(p.times_out for p in players),
                                          record)
    after = tuple(PlayerState(p.name, p.seat, p.penalties + (penalty,), completed, out)
                  for p, penalty, completed, out in zip(players, result.penalties, result.completed, times_out,
                                                        strict=True))
    return GameState(state.setup, after, state.rounds + (result,), following)


def _score(setup: GameSetup, nxt: NextRound, totals: Sequence[int], completed: Sequence[int | None],
           times_out: Sequence[int], record: RoundRecord) -> tuple[RoundResult, tuple[int, ...], NextRound | None]:
    """Round ``nxt`` scored from each seat's figures before it (a round the rules accept): the
    round, each seat's times out after it, and the round after it (None: the game is over).
    The one scoring of a round, for a replay and for :func:`play` alike."""
    rules = setup.rules
    names = setup.players
    record = _normalise(setup, record)
    # A round's score, seat by seat at the seat's own stage: the rule set's one scoring
    # (the phone is handed the same figures: tables.scoring_table).
    hands, points, bonuses, went_out = record.hands, record.points, record.bonuses, record.went_out
    penalties = tuple(
        _checked(rules.hand_score(stage, hands.get(name), points.get(name), name == went_out, bonuses.get(name, ())))
        for name, stage in zip(names, nxt.stages, strict=True)
    )
    achieved = record.achieved
    if rules.progression is _LADDER:
        moved_up = tuple(name for name in names if name in achieved)
        after = tuple(c + 1 if name in achieved else c  # type: ignore[operator]  # a ladder counts every seat's
                      for name, c in zip(names, completed, strict=True))
        reached_end = any(c >= rules.last_stage for name, c in zip(names, after, strict=True)  # type: ignore[operator]
                          if name in achieved)
    else:
        moved_up, after, reached_end = (), tuple(completed), nxt.number >= rules.last_stage
    new_totals = tuple(total + penalty for total, penalty in zip(totals, penalties, strict=True))
    new_times_out = tuple(n + (name == went_out) for name, n in zip(names, times_out, strict=True))
    places = [_place(rules, total, c) for total, c in zip(new_totals, after, strict=True)]
    best = min(places)
    result = RoundResult(
        number=nxt.number,
        dealer=nxt.dealer,
        first_player=nxt.first_player,
        cards_dealt=nxt.cards_dealt,
        record=record,
        penalties=penalties,
        stages=nxt.stages,
        achieved=achieved,
        moved_up=moved_up,
        leaders=tuple(name for name, place in zip(names, places, strict=True) if place == best),
        totals=new_totals,
        completed=after,
        ends_game=reached_end,
    )
    following = None if reached_end else _next_round(setup, after, nxt.number + 1, _dealer_after(setup, result))
    return result, new_times_out, following


def _checked(score: int | None) -> int:
    # check_round refused every card without a value and every bonus the rules lack.
    assert score is not None
    return score


def replay(setup: GameSetup, rounds: Iterable[RoundRecord]) -> GameState:
    """Replay recorded rounds from the start; ``RoundError`` names the first round refused."""
    state = start(setup)
    for record in rounds:
        state = advance(state, record)
    return state


__all__ = [
    "GAME_OVER",
    "MISSING",
    "CardError",
    "GameSetup",
    "GameState",
    "NextRound",
    "PlayerState",
    "Problem",
    "RoundError",
    "RoundRecord",
    "RoundResult",
    "RulesError",
    "SetupError",
    "advance",
    "check_round",
    "clean_name",
    "name_key",
    "replay",
    "start",
]
