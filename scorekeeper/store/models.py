"""The stored facts: players, games, seats, rounds and the hands entered; and each game's summary.

The facts are the only truth. Totals, levels, dealers and winners are what the rules engine
derives from them; the one place they are stored is a game's summary (``game_summary``,
``seat_summary``), written with the facts in the same transaction and rebuilt from them by
``flask games rebuild`` (see :mod:`scorekeeper.store.figures.summaries`).
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import (
    DDL,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    event,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


db = SQLAlchemy(model_class=Base)

#: The largest id an INTEGER column holds (PostgreSQL's is 32 bits); a larger number in an
#: address or on the command line is no game, round or player.
MAX_ID = 2**31 - 1


def utcnow() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


class Player(db.Model):
    """A person on the roster, reused across games."""

    __tablename__ = "player"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    #: The name folded for comparison: unique, so "ann" and " Ann " are one player.
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    seats: Mapped[list[Seat]] = relationship(back_populates="player")

    def __repr__(self) -> str:
        return f"<Player {self.id} {self.name!r}>"


class Game(db.Model):
    __tablename__ = "game"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: The key of the rule set the game was started from (a preset's, or a house rule set's
    #: ``house-ID``): what the history filters by. The rules themselves are ``rules_document``.
    rules: Mapped[str] = mapped_column(String(20))
    #: The game's frozen copy of its rule set: the whole document (RULESETS.md) as JSON text,
    #: written when the game starts and never changed, so that editing or deleting a house
    #: rule set changes no game already played. Every replay reads the rules from here.
    rules_document: Mapped[str] = mapped_column(Text, server_default="")
    decks: Mapped[int] = mapped_column(Integer)
    jokers: Mapped[int] = mapped_column(Integer)
    dealer_rule: Mapped[str] = mapped_column(String(10))
    #: Seat position (0-based) of the player who dealt round 1.
    first_dealer_seat: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: When the round that ended the game was recorded (None while in progress).
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: A change counter: every stored change to the game (its rounds, a rename of a player seated
    #: at it, a delete or restore) adds one. Phones send the version they saw, watchers poll it,
    #: and its pages' ETags are made from it. (Not a score: nothing derives from it.)
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    #: SHA-256 of the game's secret edit key; whoever holds the key may change the game.
    edit_key_hash: Mapped[str | None] = mapped_column(String(64))
    #: When the game was deleted from the history (a soft delete: it can be restored, and a
    #: backup still holds it); None while it is kept.
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: SHA-256 of the canonical game file (without ``result``) the game was imported from, so
    #: that importing the same file again finds it (see :mod:`scorekeeper.files.transfer`); None for
    #: a game started here. A fact about the import, not a score.
    fingerprint: Mapped[str | None] = mapped_column(String(64))

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )

    __table_args__ = (
        CheckConstraint("decks >= 1", name="decks_positive"),
        CheckConstraint("jokers >= 0", name="jokers_not_negative"),
        Index("ix_game_started_at", "started_at"),
        # The history's filters and its bin (scorekeeper.club.history).
        Index("ix_game_rules_started_at", "rules", "started_at"),
        Index("ix_game_deleted_at_started_at", "deleted_at", "started_at"),
        Index("ix_game_fingerprint", "fingerprint"),
        # The games not yet finished, which a player's page adds to their stored sums
        # (scorekeeper.store.figures.player_summaries): a few, however many have finished.
        Index("ix_game_unfinished", "id", sqlite_where=text("finished_at IS NULL"),
              postgresql_where=text("finished_at IS NULL")),
    )


class Seat(db.Model):
    """A player's place at a game's table, clockwise from position 0."""

    __tablename__ = "seat"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    #: SHA-256 of the seat's key: whoever holds it may send this player's own hand for the round
    #: being played, and nothing else. None until the scorekeeper makes seat links.
    key_hash: Mapped[str | None] = mapped_column(String(64))

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats", lazy="joined")

    __table_args__ = (
        UniqueConstraint("game_id", "position", name="uq_seat_game_position"),
        UniqueConstraint("game_id", "player_id", name="uq_seat_game_player"),
        Index("ix_seat_player_id", "player_id"),
    )


class Round(db.Model):
    __tablename__ = "round"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    went_out_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    game: Mapped[Game] = relationship(back_populates="rounds")
    hands: Mapped[list[HandEntry]] = relationship(
        back_populates="round", cascade="all, delete-orphan", lazy="selectin"
    )

    __table_args__ = (
        UniqueConstraint("game_id", "number", name="uq_round_game_number"),
        CheckConstraint("number >= 1", name="number_positive"),
    )


class HandEntry(db.Model):
    """What was entered for one player in one round: cards, or a points total."""

    __tablename__ = "hand"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    #: Canonical ranks ("A K 7 7"); None when a points total was entered instead.
    cards: Mapped[str | None] = mapped_column(String(400))
    points: Mapped[int | None] = mapped_column(Integer)
    achieved: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The keys of the rule set's bonuses the player earned this round, space-separated
    #: ("perfect-cut"); "" for none. Any player may earn one, the one who went out too.
    bonuses: Mapped[str] = mapped_column(String(400), default="", server_default="")

    round: Mapped[Round] = relationship(back_populates="hands")

    __table_args__ = (
        UniqueConstraint("round_id", "player_id", name="uq_hand_round_player"),
        CheckConstraint("cards IS NULL OR points IS NULL", name="cards_or_points"),
    )


class SentHand(db.Model):
    """A hand a player sent from their own phone for the round being played (or the scorekeeper
    entered in their row), waiting for the scorekeeper to save the round: not a fact of the game
    (the saved round is), kept only until that round is saved or the game moves to another
    round. One per game, round and seat: the last one entered wins."""

    __tablename__ = "sent_hand"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    went_out: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Canonical ranks ("K 7 7"); None when a points total was sent instead.
    cards: Mapped[str | None] = mapped_column(String(400))
    points: Mapped[int | None] = mapped_column(Integer)
    achieved: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The keys of the bonuses the player ticked, space-separated; "" for none.
    bonuses: Mapped[str] = mapped_column(String(400), default="", server_default="")
    #: One more each time what was sent changes (the same hand sent again changes nothing):
    #: the scorekeeper's poll and the player's phones tell a new hand by it.
    revision: Mapped[int] = mapped_column(Integer, default=1)
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: The scorekeeper entered this hand on the round screen (it wins over the player's, and the
    #: player's phone says who entered it); False when the player sent it.
    by_keeper: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: The scorekeeper's entry that the player sent this hand over, which the round screen keeps
    #: (and saves) unless the scorekeeper changes it: JSON of its went_out, cards, points,
    #: achieved and bonuses. None when there is none, or the hands agree.
    keeper_entry: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (
        UniqueConstraint("game_id", "number", "position", name="uq_sent_hand_game_number_position"),
    )


class RoundFlag(db.Model):
    """"That's not my hand": a player says a saved round is wrong for them. It changes no figure;
    the scorekeeper corrects the round (which clears it) or dismisses it."""

    __tablename__ = "round_flag"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(Integer)
    flagged_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("game_id", "number", "position", name="uq_round_flag_game_number_position"),
    )


class HouseRuleSet(db.Model):
    """A table's own rule set, saved on the server: a document (RULESETS.md) as JSON text.

    Games do not refer to it: each game keeps its own copy of the document it was started
    with (``Game.rules_document``) and the key it came from (``house-ID``), so a house rule
    set can be edited, renamed or deleted while games played by it stay as they were. Ids
    are never reused (AUTOINCREMENT), so a key names one house rule set for good.
    """

    __tablename__ = "house_ruleset"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: The document's name, as it shows in lists.
    name: Mapped[str] = mapped_column(String(60))
    #: The name folded for comparison: unique, so two house rule sets cannot look alike.
    name_key: Mapped[str] = mapped_column(String(200), unique=True)
    #: The whole document as JSON text, checked and with its defaults written out.
    document: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = {"sqlite_autoincrement": True}

    def __repr__(self) -> str:
        return f"<HouseRuleSet {self.id} {self.name!r}>"


# ================================================================ summaries (derived, not facts)


class GameSummary(db.Model):
    """What the rules engine makes of one game's facts, boiled down for lists and statistics.

    Derived, never a fact: written by :mod:`scorekeeper.store.figures.summaries` in the same transaction as
    every change to the game's rounds (from the engine's replay of that one game), and
    ``flask games rebuild`` works every one out again from the facts. Names are not here (a
    seat names its player by id, and the roster has the name), nor is the bin (``Game.deleted_at``).
    """

    __tablename__ = "game_summary"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    #: False when the engine refuses the game's rounds (a game stored under other rules).
    worked_out: Mapped[bool] = mapped_column(Boolean)
    problem: Mapped[str | None] = mapped_column(String(400))
    finished: Mapped[bool] = mapped_column(Boolean)
    rounds: Mapped[int] = mapped_column(Integer)
    #: The number of the round to play next and its dealer's seat (None once finished).
    next_round: Mapped[int | None] = mapped_column(Integer)
    next_dealer: Mapped[int | None] = mapped_column(Integer)


class SeatSummary(db.Model):
    """One seat of a :class:`GameSummary`: the player's figures in that game."""

    __tablename__ = "seat_summary"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    total: Mapped[int] = mapped_column(Integer)
    #: By total, 1 the lowest (1, 1, 3 on a tie).
    place: Mapped[int] = mapped_column(Integer)
    #: Finished games only: on the lowest total (a shared win when several are).
    won: Mapped[bool] = mapped_column(Boolean)
    times_out: Mapped[int] = mapped_column(Integer)
    #: The contract (level or deal) the player plays next, or played last in a finished game.
    stage: Mapped[int] = mapped_column(Integer)
    #: Ladder games: "level:rounds" for each level made, in order ("1:2 2:1"); else "".
    climbs: Mapped[str] = mapped_column(String(200))
    #: Ladder games that finished with the player still climbing: that level and the rounds on it.
    stuck_level: Mapped[int | None] = mapped_column(Integer)
    stuck_rounds: Mapped[int | None] = mapped_column(Integer)

    __table_args__ = (
        # A player's games (their statistics page, head to head).
        Index("ix_seat_summary_player_id_game_id", "player_id", "game_id"),
    )


class RatingSummary(db.Model):
    """One player's rating before and after one rated game, in one scope.

    Derived, never a fact: :mod:`scorekeeper.store.figures.rating_summaries` writes a scope's rows from a
    changed game's place in the order on, in the same transaction as the change, and
    ``flask games rebuild`` works every scope out again from the games' summaries. A scope is the
    set of games rated together: ``all``, a rule set's key, and either with ``/YEAR`` (the games
    that finished that year).
    """

    __tablename__ = "rating_summary"

    scope: Mapped[str] = mapped_column(String(40), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    #: The game's place in the order: when it finished (when it started, if that is unknown), then its id.
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: The player's standing in the game (1 the best; equal standings share a rank), of ``players``.
    rank: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    #: The player's rated games and wins in this scope up to this game, this one included.
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    #: The game's number in the scope's order (1 for the first game rated): the last game's is
    #: how many games the scope rates, read at one step of the index on the order.
    number: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: Which of the player's games in the scope, up to this one, left their rating highest and
    #: which lowest (counted as ``games`` counts them; the earliest of equals): their page marks
    #: both, read from their last row instead of from every one.
    best_at: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    lowest_at: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    __table_args__ = (
        # Rating again from a game on (the rows from there are replaced).
        Index("ix_rating_summary_scope_finished_at_game_id", "scope", "finished_at", "game_id"),
        # A player's history; everyone's latest rating (the leaderboard). It carries each
        # game and the rating after it, so that a player's page reads their rating over
        # thousands of games from the index alone, not from a page of the table for each game.
        Index("ix_rating_summary_scope_player_id_games_path", "scope", "player_id", "games", "game_id", "mu_after",
              "sigma_after"),
        # The rows of a game (its story; where a changed game stood).
        Index("ix_rating_summary_game_id", "game_id"),
    )


class CountedGame(db.Model):
    """A finished game not in the bin that has a summary: one the players' summaries count (what
    a change to it takes out of them before it puts its new figures in, a game put in the bin or
    no longer finished included)."""

    __tablename__ = "counted_game"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)


class PlayerSummary(db.Model):
    """One player's figures over their finished games not in the bin, of one rule set (by the key
    each game keeps), added up: what their page shows (with their unfinished games added as they
    stand), read in one row a rule set whatever the number of games.

    Derived, never a fact: :mod:`scorekeeper.store.figures.player_summaries` takes out a changed
    game's old figures and puts in its new ones, in the transaction of the change, and ``flask
    games rebuild`` adds them all up again. The figures count finished games that can be
    worked out; a round of a game being played writes none of them.
    """

    __tablename__ = "player_summary"

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    rules: Mapped[str] = mapped_column(String(20), primary_key=True)
    played: Mapped[int] = mapped_column(Integer)
    finished: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    shared: Mapped[int] = mapped_column(Integer)
    finals_total: Mapped[int] = mapped_column(Integer)
    best_final: Mapped[int | None] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    penalty: Mapped[int] = mapped_column(Integer)
    went_out: Mapped[int] = mapped_column(Integer)
    first_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: The newest game: its copy of the rule set is the one the page names the rule set by.
    newest_id: Mapped[int] = mapped_column(Integer)
    #: Ladder games: each "level:rounds" part of the climbs and how often it was climbed
    #: ("1:2*5 2:1*3"); a busy player's thousands of climbs hold a few dozen parts.
    climbs: Mapped[str] = mapped_column(Text)


class PlayerLevel(db.Model):
    """The finished ladder games of one player and rule set that ended on one level, and the
    rounds spent there (a :class:`PlayerSummary`'s companion)."""

    __tablename__ = "player_level"

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    rules: Mapped[str] = mapped_column(String(20), primary_key=True)
    level: Mapped[int] = mapped_column(Integer, primary_key=True)
    games: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)


class PlayerPair(db.Model):
    """How many finished games not in the bin two players sat at together (a player's opponents,
    one row each; their unfinished games are added as they stand)."""

    __tablename__ = "player_pair"

    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    other_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    games: Mapped[int] = mapped_column(Integer)


class SummaryLogic(db.Model):
    """One row: the version of the logic that worked out the stored summaries (game, seat and
    rating summaries), or 0 when none is known.

    Summaries are written with their facts by the running app; when the app's logic changes
    (a new rule of placing, a summary's new column filled), those stored by the older logic are
    out of date. ``flask games rebuild`` writes the version it worked them out by here, and
    ``flask games rebuild --if-stale`` (the upgrade's step after the migrations) works them all
    out again when this is not the app's (:data:`scorekeeper.store.rebuild.SUMMARY_LOGIC`).
    """

    __tablename__ = "summary_logic"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)


# The one row, in a database made from the models (the tests) as by the migration: no logic known.
event.listen(SummaryLogic.__table__, "after_create", DDL("INSERT INTO summary_logic (id, version) VALUES (1, 0)"))


# ================================================================ club nights (facts)


class Night(db.Model):
    """A club night: several tables at once, under one rule set, its players checked in.

    Its games are ordinary games, each tied to the night by a :class:`NightGame`; its standings
    are worked out from their summaries (:mod:`scorekeeper.club.nights`), never stored.
    """

    __tablename__ = "night"

    id: Mapped[int] = mapped_column(primary_key=True)
    #: The key of the rule set the night's tables play (a preset's, or ``house-ID``).
    rules: Mapped[str] = mapped_column(String(20))
    held_on: Mapped[date] = mapped_column(Date)
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    #: None while the night goes on.
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: SHA-256 of the night's key: whoever holds it (the keeper, a phone the keeper trusts with
    #: the night's link) runs the night.
    key_hash: Mapped[str | None] = mapped_column(String(64))
    #: The tables drawn and not yet started, as JSON (a list of lists of player ids, each in
    #: seat order); None when none wait. Redrawn freely until a table starts.
    drawn: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (Index("ix_night_held_on", "held_on"),)


class NightPlayer(db.Model):
    """A player checked in at a night: when they arrived and, if they went home early, left."""

    __tablename__ = "night_player"

    night_id: Mapped[int] = mapped_column(ForeignKey("night.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    arrived_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    left_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class NightGame(db.Model):
    """A game played at a night: a game belongs to one night at most (its id is the key)."""

    __tablename__ = "night_game"

    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    night_id: Mapped[int] = mapped_column(ForeignKey("night.id", ondelete="CASCADE"))
    #: The night's round of games it was drawn in (1 the first) and its table there (1 the first).
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)

    __table_args__ = (Index("ix_night_game_night_id", "night_id"),)
