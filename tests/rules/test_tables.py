"""The rules as data for the phone (scorekeeper/rules/tables.py), and the one scoring of a hand
they come from (RuleSet.values_at, RuleSet.hand_score)."""

from unittest.mock import patch

from scorekeeper.rules import (
    BALMORAL,
    CLASSIC,
    PHASE10,
    SHANGHAI,
    GameSetup,
    RoundRecord,
    RuleSet,
    game_table,
    parse_hand,
    replay,
    scoring_table,
    start,
)


def test_the_table_holds_each_stage_s_values_and_what_is_in_play():
    table = scoring_table(GameSetup.create(CLASSIC, ["Ann", "Ben", "Cat", "Dev", "Eve"]))
    assert table["ranks"][-1] == "JK" and table["labels"]["JK"] == "Joker"
    assert [s["cards_dealt"] for s in table["stages"]] == [10, 10, 10, 10, 12, 12, 12]
    assert all(s["values"] == {r.value: v for r, v in CLASSIC.values.items()} for s in table["stages"])
    assert [s["last"] for s in table["stages"]] == [False] * 6 + [True]
    assert table["in_play"] == {"cards": {**{r.value: 12 for r in CLASSIC.ranks if r.value != "JK"}, "JK": 2},
                                "decks": 3, "jokers": ["JK"]}
    assert table["went_out"] == 0 and table["runs"] and table["aliases"]["joker"] == "JK"


def test_a_deck_without_jokers_or_runs_hands_none():
    table = scoring_table(GameSetup.create(PHASE10, ["Ann", "Ben"]))
    assert not table["runs"] and table["in_play"]["jokers"] == [] and "JK" not in table["in_play"]["cards"]
    assert table["in_play"]["cards"]["S"] == 4 and table["stages"][0]["most_cards"] == 10
    assert "JK" not in scoring_table(GameSetup.create(BALMORAL, ["Ann", "Ben"]))["stages"][0]["values"]


def test_the_game_table_says_how_the_deal_passes_and_places_are_decided():
    phase10 = game_table(start(GameSetup.create(PHASE10, ["Ann", "Ben"], dealer_rule="rotate")))
    assert phase10["ladder"] and phase10["dealer"] == "next_seat" and phase10["places_by"] == ["completed", "total"]
    balmoral = game_table(start(GameSetup.create(BALMORAL, ["Ann", "Ben"], dealer_rule="winner")))
    assert balmoral["dealer"] == "went_out" and balmoral["places_by"] == ["total"]
    assert balmoral["state"]["completed"] == [0, 0]


def test_a_hand_has_no_score_where_a_card_or_bonus_has_no_value():
    stage = BALMORAL.stage(1)
    assert BALMORAL.hand_score(stage, parse_hand("JK 7")) is None
    assert SHANGHAI.hand_score(SHANGHAI.stage(1), points=10, bonuses=["perfect-cut"]) is None
    assert SHANGHAI.hand_score(SHANGHAI.stage(1), went_out=True, bonuses=["blind", "blind"]) == -25


def test_a_stage_s_values_are_written_once_for_the_replay_and_the_phone():
    # "Jokers count double in the last deal", written in values_at alone, reaches both.
    def doubled(rules: RuleSet, stage):
        return {**rules.values, **({r: v * 2 for r, v in rules.values.items() if r.value == "JK"}
                                   if stage.number == rules.last_stage else {})}

    setup = GameSetup.create(CLASSIC, ["Ann", "Ben", "Cat"])
    rounds = [RoundRecord.create("Ann", {"Ben": "JK", "Cat": "2"}) for _ in range(7)]
    with patch.object(RuleSet, "values_at", doubled):
        state = replay(setup, rounds)
        table = scoring_table(setup)
    assert [r.penalties for r in state.rounds][-2:] == [(0, 15, 2), (0, 30, 2)]
    assert [s["values"]["JK"] for s in table["stages"]] == [15] * 6 + [30]
