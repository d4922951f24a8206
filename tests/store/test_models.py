"""What the tables themselves promise (``store.models``), whatever code writes to them: the
database refuses what the keys and checks forbid (a name twice, a seat taken twice, a round
number twice, a hand of cards and points at once, a game without a deck); a game deleted takes
everything of its own with it, and a player who sat at a table cannot be deleted from under it;
a row says what it was not told (a game's first version, a hand's empty bonuses), and a database
made from the models holds the summary logic's one row; the relationships read the seats and
rounds in their order; a house rule set's id is never given again; and every column is long
enough for the longest value the rules let through (PostgreSQL refuses a longer one, which
SQLite would keep).
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from factories import a_round, family_liverpool, finish, start_game
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError

from scorekeeper import store
from scorekeeper.rules import PRESETS, documents, names
from scorekeeper.rules.cards import MAX_HAND_TEXT
from scorekeeper.store.figures import rating_summaries, summaries
from scorekeeper.store.models import (
    MAX_ID,
    CountedGame,
    Game,
    GameSummary,
    HandEntry,
    HouseRuleSet,
    Night,
    NightGame,
    Player,
    PlayerLevel,
    PlayerSummary,
    RatingSummary,
    Round,
    RoundFlag,
    Seat,
    SeatSummary,
    SentHand,
    SummaryLogic,
    db,
)

THURSDAY = date(2026, 12, 3)


def count(model, *where) -> int:
    return db.session.scalar(select(func.count()).select_from(model).where(*where))


def player_id(name: str) -> int:
    return store.find_player(name).id


# =============================================================== what the database refuses


def a_game_row(**given) -> Game:
    return Game(**{"rules": "balmoral", "decks": 2, "jokers": 2, "dealer_rule": "winner", "first_dealer_seat": 0,
                   **given})


#: Rows the keys and checks forbid, each beside a game of Ann, Ben and Cat with round 1 recorded
#: (Ann went out; Ben and Cat hold cards): what the store's own checks keep out, refused again
#: by the database, which has the last word when two writers race past those checks.
FORBIDDEN = {
    "a second player of the same name": lambda game_id: [Player(name="ann", name_key="ann")],
    "a seat taken twice": lambda game_id: [Player(id=50, name="Dev", name_key="dev"),
                                           Seat(game_id=game_id, position=0, player_id=50)],
    "a player at one table twice": lambda game_id: [Seat(game_id=game_id, position=3, player_id=player_id("Ann"))],
    "a seat for no player on the roster": lambda game_id: [Seat(game_id=game_id, position=3, player_id=10_000)],
    "a round number taken twice": lambda game_id: [Round(game_id=game_id, number=1, went_out_id=player_id("Ben"))],
    "a round numbered 0": lambda game_id: [Round(game_id=game_id, number=0, went_out_id=player_id("Ben"))],
    "a second hand of one player in a round": lambda game_id: [
        HandEntry(round_id=db.session.scalar(select(Round.id).where(Round.game_id == game_id)),
                  player_id=player_id("Ben"), points=5)],
    "a hand of cards and points at once": lambda game_id: [
        Round(id=60, game_id=game_id, number=2, went_out_id=player_id("Ben")),
        HandEntry(round_id=60, player_id=player_id("Ann"), cards="K", points=10)],
    "a game without a deck": lambda game_id: [a_game_row(decks=0)],
    "a game with fewer than no jokers": lambda game_id: [a_game_row(jokers=-1)],
    "a hand sent twice for one seat and round": lambda game_id: [
        SentHand(game_id=game_id, number=2, position=1, cards="K"),
        SentHand(game_id=game_id, number=2, position=1, cards="Q")],
    "a round flagged twice by one seat": lambda game_id: [
        RoundFlag(game_id=game_id, number=1, position=1), RoundFlag(game_id=game_id, number=1, position=1)],
    "a second house rule set of the same name": lambda game_id: [
        HouseRuleSet(name="Family Liverpool", name_key="family liverpool", document="{}")],
}


@pytest.mark.parametrize("forbidden", FORBIDDEN)
def test_the_database_refuses_what_the_keys_and_checks_forbid(app, forbidden):
    with app.app_context():
        game_id = start_game()
        store.record_round(game_id, 1, a_round("Ann", {"Ben": "K 5", "Cat": "5"}))
        store.save_ruleset(family_liverpool())
        db.session.add_all(FORBIDDEN[forbidden](game_id))
        with pytest.raises(IntegrityError):
            db.session.flush()
        db.session.rollback()
        # What was there before is untouched.
        assert store.load(game_id).state.played == 1 and count(Player) == 3


def test_a_game_deleted_takes_everything_of_its_own_with_it_and_no_player(app):
    """A game purged from the bin is deleted alone: the database deletes its seats, rounds,
    hands, hands sent and flags, its summaries and rating rows and its place at a night
    (ON DELETE CASCADE). Another game's rows, the players and the night stay."""
    with app.app_context():
        gone, kept = start_game(), start_game()
        finish(gone)
        finish(kept)
        night, _key = store.open_night("balmoral", THURSDAY)
        db.session.add_all([NightGame(game_id=gone, night_id=night.id, round=1, table=1),
                            SentHand(game_id=gone, number=99, position=0, cards="K"),
                            RoundFlag(game_id=gone, number=1, position=1)])
        db.session.commit()
        rounds_of_gone = select(Round.id).where(Round.game_id == gone)
        of_its_own = {model: (lambda model=model: count(model, model.game_id == gone))
                      for model in (Seat, Round, SentHand, RoundFlag, GameSummary, SeatSummary, RatingSummary,
                                    CountedGame, NightGame)}
        of_its_own[HandEntry] = lambda: count(HandEntry, HandEntry.round_id.in_(rounds_of_gone))
        assert all(counted() for counted in of_its_own.values())
        before = {model: count(model) for model in (Player, Night, Seat, Round, HandEntry)}

        db.session.execute(text("DELETE FROM game WHERE id = :id"), {"id": gone})
        db.session.commit()
        assert {model.__tablename__: counted() for model, counted in of_its_own.items()} == dict.fromkeys(
            (model.__tablename__ for model in of_its_own), 0)
        assert count(Player) == before[Player] and count(Night) == before[Night]
        assert count(Seat) == before[Seat] // 2 and count(Round) == before[Round] // 2
        assert count(HandEntry) == before[HandEntry] // 2 and store.load(kept).state.finished


def test_a_player_who_sat_at_a_table_cannot_be_deleted_from_under_the_game(app):
    with app.app_context():
        start_game()
        with pytest.raises(IntegrityError):
            db.session.execute(text("DELETE FROM player WHERE id = :id"), {"id": player_id("Ann")})
        db.session.rollback()
        assert [p.name for p in store.roster()] == ["Ann", "Ben", "Cat"]


# =============================================================== what a row is given


def test_a_row_says_what_it_was_not_told(app):
    """A game starts at version 1 (the phones' first ETag), when it was stored, to the second;
    a hand is no contract made and no bonus; a hand sent is its first revision, the player's own."""
    before = datetime.now(UTC).replace(microsecond=0)
    with app.app_context():
        ann = Player(name="Ann", name_key="ann")
        game = a_game_row(seats=[Seat(position=0, player=ann)])
        db.session.add(game)
        db.session.flush()
        db.session.add_all([Round(game_id=game.id, number=1, went_out_id=ann.id,
                                  hands=[HandEntry(player_id=ann.id, points=0)]),
                            SentHand(game_id=game.id, number=2, position=0, points=5)])
        db.session.commit()
        db.session.expire_all()  # read back from the database
        game = db.session.get(Game, game.id)
        assert game.version == 1 and game.finished_at is None and game.deleted_at is None
        for moment in (game.started_at, ann.created_at, game.rounds[0].recorded_at):
            moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite keeps no zone: UTC
            assert before <= moment <= datetime.now(UTC) and moment.microsecond == 0
        hand = game.rounds[0].hands[0]
        assert (hand.achieved, hand.bonuses, hand.cards) == (False, "", None)
        sent = db.session.scalar(select(SentHand))
        assert (sent.went_out, sent.achieved, sent.bonuses, sent.revision, sent.by_keeper) == (False, False, "", 1, False)


def test_a_database_made_from_the_models_knows_no_summary_logic_yet(app):
    """As the migration makes it: one row, version 0, so that ``flask games rebuild --if-stale``
    works every summary out on a database no rebuild has written its logic into."""
    with app.app_context():
        assert db.session.execute(select(SummaryLogic.id, SummaryLogic.version)).all() == [(1, 0)]


# =============================================================== what the relationships read


def test_a_games_seats_and_rounds_are_read_in_their_order_whatever_order_they_were_stored(app):
    """The replay reads the seats clockwise and the rounds by number from the relationships:
    rows stored against that order (a seat, a round corrected and stored again) read in it."""
    with app.app_context():
        ann, ben, cat = (Player(name=name, name_key=name.lower()) for name in ("Ann", "Ben", "Cat"))
        game = a_game_row(seats=[Seat(position=2, player=cat), Seat(position=0, player=ann),
                                 Seat(position=1, player=ben)])
        db.session.add(game)
        db.session.flush()
        for number in (2, 1):
            db.session.add(Round(game_id=game.id, number=number, went_out_id=ann.id,
                                 hands=[HandEntry(player_id=ben.id, cards="K"), HandEntry(player_id=cat.id, points=5)]))
        db.session.commit()
        db.session.expire_all()
        game = db.session.get(Game, game.id)
        assert [(seat.position, seat.player.name) for seat in game.seats] == [(0, "Ann"), (1, "Ben"), (2, "Cat")]
        assert [r.number for r in game.rounds] == [1, 2]
        assert [seat.game_id for seat in db.session.get(Player, ann.id).seats] == [game.id]
        # A round taken out of the game's rounds goes, and its hands with it.
        first = game.rounds[0]
        first_id = first.id
        game.rounds.remove(first)
        db.session.commit()
        assert [r.number for r in game.rounds] == [2] and count(Round) == 1
        assert count(HandEntry, HandEntry.round_id == first_id) == 0 and count(HandEntry) == 2


def test_a_house_rule_sets_id_is_never_given_again_not_even_the_last_ones(app):
    """A game keeps the key of the house rule set it was played by (``house-ID``): a new rule
    set must not take the key of one deleted, the newest included (AUTOINCREMENT on SQLite)."""
    with app.app_context():
        store.save_ruleset(family_liverpool())
        newest = store.save_ruleset({**family_liverpool(), "name": "Aunt May's rummy"})
        store.delete_ruleset(newest.house_id)
        again = store.save_ruleset({**family_liverpool(), "name": "Aunt May's rummy"})
        assert again.house_id > newest.house_id


# =============================================================== what the columns hold


def length(column) -> int:
    return column.type.length


def test_every_column_holds_the_longest_value_the_rules_let_through():
    """PostgreSQL refuses a value longer than its column (the change fails mid-game); SQLite keeps
    it, so only these limits show on the SQLite pass that a column has fallen short."""
    # A name and its folded key (refused when folding makes it longer than the limit).
    assert length(Player.name) >= names.MAX_NAME and length(Player.name_key) >= names.MAX_NAME
    assert length(HouseRuleSet.name) >= documents.MAX_NAME and length(HouseRuleSet.name_key) >= documents.MAX_NAME
    # A hand's cards as typed, and every bonus a rule set has, earned at once.
    for model in (HandEntry, SentHand):
        assert length(model.cards) >= MAX_HAND_TEXT
        assert length(model.bonuses) >= documents.MAX_BONUSES * (documents.MAX_BONUS_KEY + 1) - 1
    # A rule set's key (a preset's, or a house rule set's with the largest id) and the scope of
    # its ratings in the latest year.
    longest_key = max([*PRESETS, store.house_key(MAX_ID)], key=len)
    for column in (Game.rules, Night.rules, PlayerSummary.rules, PlayerLevel.rules):
        assert length(column) >= len(longest_key), column
    assert length(RatingSummary.scope) >= len(rating_summaries.scope_of(longest_key, 9999))
    # Why a game cannot be worked out, cut to its column.
    problem = summaries.rows_of(1, [1, 2], None, "no such card " * 100).game["problem"]
    assert len(problem) == length(GameSummary.problem)

