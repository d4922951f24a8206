"""House rule sets saved on the server, and every game's frozen copy of its rules.

A game keeps the whole document it was started with: the house rule set it came from can be
edited or deleted and the game replays to the same standings. Rounds keep their bonuses, and
hands are read back with the game's own deck (Phase 10's 1 to 12, skips and wilds).
"""

from __future__ import annotations

import dataclasses

import pytest
from factories import family_liverpool
from sqlalchemy import select

from scorekeeper import store
from scorekeeper.store.models import Game, HandEntry, Round, db
from scorekeeper.rules import (
    LIVERPOOL,
    PHASE10,
    PRESETS,
    Deck,
    GameSetup,
    Rank,
    RoundError,
    RoundRecord,
    RuleSetError,
    document_text,
    replay,
    ruleset_document,
)
from scorekeeper.store.rebuild import rebuild


def record(rules, went_out, hands=None, points=None, achieved=(), bonuses=None) -> RoundRecord:
    return RoundRecord.create(went_out, hands, points, achieved, bonuses, deck=rules.deck)


def totals(game_id: int) -> dict[str, int]:
    return {p.name: p.total for p in store.load(game_id).state.players}


def stored_bonuses(game_id: int) -> list[tuple[int, str]]:
    """(round number, bonuses) of every hand row that holds any, in order."""
    return [tuple(row) for row in db.session.execute(
        select(Round.number, HandEntry.bonuses).join(HandEntry, HandEntry.round_id == Round.id)
        .where(Round.game_id == game_id, HandEntry.bonuses != "").order_by(Round.number, HandEntry.id))]


# ---------------------------------------------------------------- house rule sets


def test_house_rule_sets_are_saved_listed_renamed_and_deleted(app):
    with app.app_context():
        saved = store.save_ruleset(family_liverpool())
        assert saved.key == store.house_key(saved.house_id) and not saved.preset
        assert saved.rules.values[Rank.ACE] == 20 and saved.rules.last_stage == 8
        # Presets first, in their order, then the table's own, by name.
        other = store.save_ruleset({**family_liverpool(), "name": "Aunt May's rummy"})
        assert [e.key for e in store.list_rulesets()] == [*PRESETS, other.key, saved.key]
        assert store.get_ruleset(saved.key).document == saved.document
        assert store.get_ruleset("phase10").rules == PHASE10

        renamed = store.rename_ruleset(saved.house_id, "  Liverpool   at Gran's ")
        assert renamed.name == "Liverpool at Gran's" and renamed.document["values"]["A"] == 20
        assert store.get_house_ruleset(saved.house_id).name == "Liverpool at Gran's"

        store.delete_ruleset(saved.house_id)
        with pytest.raises(store.NotFound):
            store.get_ruleset(saved.key)
        assert [e.key for e in store.list_rulesets()] == [*PRESETS, other.key]
        # A new rule set never takes the key of a deleted one (a game may still carry it).
        assert store.save_ruleset(family_liverpool()).key not in (saved.key, other.key)


def test_a_house_rule_set_is_refused_with_the_field_at_fault(app):
    with app.app_context():
        no_ace = family_liverpool()
        del no_ace["values"]["A"]
        with pytest.raises(RuleSetError) as refused:
            store.save_ruleset(no_ace)
        assert (refused.value.first.field, refused.value.first.rank, str(refused.value)) == (
            "values", "A", "values: no value for A")

        with pytest.raises(RuleSetError, match='name: another rule set is called \u201cliverpool RUMMY\u201d \\(as \u201cLiverpool Rummy\u201d\\)') as taken:
            store.save_ruleset({**family_liverpool(), "name": "liverpool  RUMMY"})
        assert taken.value.first.field == "name"
        saved = store.save_ruleset(family_liverpool())
        with pytest.raises(RuleSetError) as twice:
            store.save_ruleset({**family_liverpool(), "name": "FAMILY Liverpool"})
        assert twice.value.first.field == "name"
        with pytest.raises(RuleSetError) as empty:
            store.rename_ruleset(saved.house_id, "   ")
        assert empty.value.first.field == "name"
        # Saving it again under its own name is no clash; nothing else was stored.
        assert store.save_ruleset(family_liverpool(), saved.house_id).key == saved.key
        assert [e.key for e in store.list_rulesets()] == [*PRESETS, saved.key]
        with pytest.raises(store.NotFound):
            store.save_ruleset(family_liverpool(), saved.house_id + 1)


# ---------------------------------------------------------------- a game keeps its rules


def test_a_game_keeps_its_house_rules_when_they_are_edited_and_then_deleted(app, runner):
    with app.app_context():
        house = store.save_ruleset(family_liverpool())
        game, _ = store.create_game(GameSetup.create(house.rules, ["Ann", "Ben", "Cat"]))
        game_id = game.id
        rules = store.load(game_id).state.rules
        store.record_round(game_id, 1, record(rules, "Ann", {"Ben": "A K", "Cat": "JK 2"},
                                              bonuses={"Ann": ["perfect-cut", "in-one-go"]}))
        # Ann -50 - 20; Ben an ace at 20 and a king; Cat a joker and a two.
        assert totals(game_id) == {"Ann": -70, "Ben": 30, "Cat": 17}

        edited = family_liverpool()
        edited["values"]["A"] = 1
        edited["bonuses"] = []
        edited["stages"] = edited["stages"][:2]
        store.save_ruleset(edited, house.house_id)
        loaded = store.load(game_id)
        assert totals(game_id) == {"Ann": -70, "Ben": 30, "Cat": 17}
        assert loaded.state.rules == rules and loaded.state.rules.last_stage == 8
        # A change to the game is checked against the rules it is played by: its own copy
        # still has the bonus the house rule set no longer has, and all eight deals.
        store.record_round(game_id, 2, record(rules, "Ben", {"Ann": "A", "Cat": ""}, bonuses={"Ben": "in-one-go"}))
        store.replace_round(game_id, 1, record(rules, "Ann", {"Ben": "A", "Cat": "JK 2"},
                                               bonuses={"Ann": "perfect-cut"}))
        assert totals(game_id) == {"Ann": -30, "Ben": 0, "Cat": 17}

        store.delete_ruleset(house.house_id)
        loaded = store.load(game_id)
        assert totals(game_id) == {"Ann": -30, "Ben": 0, "Cat": 17}
        assert loaded.state.next.number == 3 and loaded.state.rules.stage(8).cards_dealt == 14
        row = db.session.get(Game, game_id)
        assert row.rules == house.key and row.rules_document == document_text(rules)
        summary = loaded.summary
        assert (summary.rules_name, summary.ruleset) == ("Family Liverpool", rules)
        assert rebuild(fix=False) == []
    result = runner.invoke(args=["games", "rebuild", "--check"])
    assert result.exit_code == 0, result.output
    assert "0 summaries differ" in result.output


def test_a_liverpool_game_stores_its_perfect_cut_and_reads_it_back(app):
    with app.app_context():
        setup = GameSetup.create(LIVERPOOL, ["Ann", "Ben", "Cat", "Dan"])
        game, _ = store.create_game(setup)
        # The cut gave Ben exactly the cards needed: -50, though Ann went out.
        first = record(LIVERPOOL, "Ann", {"Ben": "7", "Cat": "Q Q", "Dan": "JK"}, bonuses={"Ben": "perfect-cut"})
        store.record_round(game.id, 1, first)
        assert stored_bonuses(game.id) == [(1, "perfect-cut")]
        state = store.load(game.id).state
        assert state.rounds[0].record.bonuses == {"Ben": frozenset({"perfect-cut"})}
        assert state.rounds[0].penalties == (0, -43, 20, 15)
        assert state == replay(setup, [first])

        # A correction moves the bonus; one refused by the rules stores nothing.
        moved = record(LIVERPOOL, "Ann", {"Ben": "7", "Cat": "Q Q", "Dan": "JK"}, bonuses={"Dan": ["perfect-cut"]})
        store.replace_round(game.id, 1, moved)
        assert stored_bonuses(game.id) == [(1, "perfect-cut")]
        assert [p.total for p in store.load(game.id).state.players] == [0, 7, 20, -35]
        with pytest.raises(RoundError, match='"blind" is not a bonus of Liverpool Rummy'):
            store.record_round(game.id, 2, record(LIVERPOOL, "Ben", {"Ann": "", "Cat": "", "Dan": ""},
                                                  bonuses={"Ben": "blind"}))
        store.record_round(game.id, 2, record(LIVERPOOL, "Ben", {"Ann": "", "Cat": "", "Dan": ""}))
        store.delete_round(game.id, 1)
        assert stored_bonuses(game.id) == []
        assert rebuild(fix=False) == []


def test_a_phase10_game_is_stored_with_its_deck_and_replayed(app, runner):
    """Phase 10 hands hold 1 to 12, skips and wilds. Ann makes every phase and wins, though
    Cat's total ends lower: Cat never completes phase 10."""
    with app.app_context():
        setup = GameSetup.create(PHASE10, ["Ann", "Ben", "Cat"])
        game, _ = store.create_game(setup)
        records = []
        for number in range(1, 11):
            if number <= 5:  # Cat goes out (and so makes a phase); Ann makes hers too
                rec = record(PHASE10, "Cat", {"Ann": "1 skip" if number == 1 else "1", "Ben": "wild 12"},
                             achieved=["Ann"])
            else:  # Ann goes out; Cat, stuck on phase 6, is caught with nothing (or a 5, counted)
                rec = record(PHASE10, "Ann", {"Ben": "W 12"}, points={"Cat": 5 if number == 10 else 0})
            store.record_round(game.id, number, rec)
            records.append(rec)
        hands = db.session.scalars(select(HandEntry.cards).join(Round).where(Round.game_id == game.id, Round.number == 1)
                                   .order_by(HandEntry.id)).all()
        assert hands == ["S 1", "W 12", ""]
        state = store.load(game.id).state
        assert state == replay(setup, records)
        assert state.rounds[0].record.hands["Ben"].ranks[0] in Deck.PHASE10.ranks
        assert state.finished and state.winners == ("Ann",)
        assert [(p.name, p.total, p.completed) for p in state.players] == [
            ("Ann", 40, 10), ("Ben", 350, 0), ("Cat", 5, 5)]
        summary = store.load(game.id).summary
        assert [s.won for s in summary.seats] == [True, False, False]
        assert rebuild(fix=False) == []
    result = runner.invoke(args=["games", "rebuild", "--check"])
    assert result.exit_code == 0, result.output


def test_a_game_is_refused_rules_that_break_a_limit(app):
    """A rule set made in code without the document's checks is no game's rules."""
    with app.app_context():
        broken = dataclasses.replace(LIVERPOOL, key="odd", name="")
        setup = GameSetup.create(broken, ["Ann", "Ben", "Cat"])
        with pytest.raises(RuleSetError, match="name"):
            store.create_game(setup)
        db.session.rollback()
        assert db.session.scalar(select(Game.id)) is None
