"""The new presets played through, each game worked out by hand (RULESETS.md, "The presets").

Every total below was added up on paper from the values of RULESETS.md before the test was
run; the comments show the sums.
"""

import pytest

from scorekeeper.rules import (
    BALMORAL,
    CLASSIC,
    LIVERPOOL,
    PHASE10,
    PRESET_DOCUMENTS,
    PRESETS,
    RULESETS,
    SHANGHAI,
    CardError,
    Deck,
    GameSetup,
    Hand,
    Phase10Rank,
    Rank,
    RoundError,
    RoundRecord,
    advance,
    get_preset,
    get_rules,
    parse_hand,
    replay,
    ruleset_document,
    start,
)

# ------------------------------------------------------------------ the presets as data


def test_every_preset_is_its_document_and_back():
    for key, document in PRESET_DOCUMENTS.items():
        assert PRESETS[key].key == key
        assert ruleset_document(PRESETS[key]) == document


def test_the_app_still_sees_only_balmoral_and_classic():
    assert list(RULESETS) == ["balmoral", "classic"]
    assert (RULESETS["balmoral"], RULESETS["classic"]) == (BALMORAL, CLASSIC)
    assert list(PRESETS) == ["balmoral", "classic", "liverpool", "shanghai", "phase10"]
    assert get_preset("phase10") is PHASE10
    with pytest.raises(ValueError, match='unknown rule set "phase10"'):
        get_rules("phase10")


def test_the_presets_read_as_the_spec_lists_them():
    assert [s.cards_dealt for s in LIVERPOOL.stages] == [10, 10, 10, 10, 12, 12, 12]
    assert LIVERPOOL.stage(7).describe(LIVERPOOL) == "Deal 7: 3 runs of 4, all cards, no discard"
    assert LIVERPOOL.values[Rank.ACE] == 15 and LIVERPOOL.values[Rank.JOKER] == 15
    assert LIVERPOOL.suggested_decks(4) == (2, 4) and LIVERPOOL.suggested_decks(5) == (3, 6)
    assert [s.cards_dealt for s in SHANGHAI.stages] == [11] * 10
    assert SHANGHAI.stage(8).contract == "1 set of 3 and 1 run of 10"
    assert {SHANGHAI.values[Rank(str(n))] for n in range(2, 11)} == {5}
    assert [SHANGHAI.suggested_decks(n) for n in (4, 6, 8)] == [(2, 4), (3, 6), (4, 8)]
    assert PHASE10.stage(8).describe(PHASE10) == "Phase 8: 7 cards of one colour"
    assert PHASE10.ranks == (*(Phase10Rank(str(n)) for n in range(1, 13)), Phase10Rank.SKIP, Phase10Rank.WILD)
    assert (PHASE10.min_players, PHASE10.max_players, PHASE10.hand_limit) == (2, 6, 10)
    assert PHASE10.round_word == "Round" and SHANGHAI.round_word == "Deal"


def test_each_presets_one_line_summary_tells_it_apart_from_the_others():
    summaries = {key: rules.summary for key, rules in PRESETS.items()}
    assert len(set(summaries.values())) == len(summaries)
    # Liverpool and classic deal alike: their contracts and Liverpool's bonus tell them apart.
    assert "2 sets of 3" in LIVERPOOL.summary and "two groups" in CLASSIC.summary
    assert "Perfect cut −50" in LIVERPOOL.summary and "Perfect cut" not in CLASSIC.summary
    assert "Joker 15" in CLASSIC.summary and "Joker" not in BALMORAL.summary
    assert "2–10 5" in SHANGHAI.summary and "2–10 face value" in BALMORAL.summary
    assert "Skip 15, Wild 25" in PHASE10.summary


# ------------------------------------------------------------------ Liverpool


def test_a_liverpool_game_with_a_perfect_cut():
    setup = GameSetup.create(LIVERPOOL, ["Ann", "Ben", "Cat"], first_dealer="Ann")
    assert (setup.decks, setup.jokers) == (2, 4)  # up to 4 players: 2 decks and 4 jokers
    rounds = [
        # Ann cut exactly the cards of the deal: -50 on top of A K 7 (15 + 10 + 7 = 32).
        RoundRecord.create("Ben", {"Ann": "A K 7", "Cat": "JK 2"}, bonuses={"Ann": "perfect-cut"}),
        RoundRecord.create("Cat", {"Ann": "5 5", "Ben": "Q J"}),
        RoundRecord.create("Ann", {"Ben": "A A", "Cat": "3"}),
        RoundRecord.create("Ann", {"Ben": "4", "Cat": "9 9"}),
        RoundRecord.create("Ben", {"Ann": "10", "Cat": "K K K"}),
        RoundRecord.create("Cat", {"Ann": "2", "Ben": "6 7"}),
        RoundRecord.create("Ann", {"Ben": "8", "Cat": "JK JK"}),
    ]
    game = replay(setup, rounds)
    assert game.player("Ann").penalties == (32 - 50, 10, 0, 0, 10, 2, 0)
    assert game.player("Ben").penalties == (0, 20, 30, 4, 0, 13, 8)
    assert game.player("Cat").penalties == (15 + 2, 0, 3, 18, 30, 0, 30)
    assert [p.total for p in game.players] == [4, 75, 98]
    assert game.finished and game.winners == ("Ann",)
    assert [r.cards_dealt for r in game.rounds] == [10, 10, 10, 10, 12, 12, 12]
    assert [r.dealer for r in game.rounds] == ["Ann", "Ben", "Cat", "Ann", "Ben", "Cat", "Ann"]
    assert game.rounds[0].record.bonuses == {"Ann": frozenset({"perfect-cut"})}


def test_a_liverpool_hand_may_outgrow_the_deal_when_players_buy():
    game = start(GameSetup.create(LIVERPOOL, ["Ann", "Ben", "Cat"]))
    bought = "A A K K Q Q J J 10 10 9 9 8 8 7"  # 15 cards after 10 were dealt
    after = advance(game, RoundRecord.create("Ann", {"Ben": bought, "Cat": "2"}))
    assert after.player("Ben").total == 15 * 2 + 10 * 6 + 10 * 2 + 9 * 2 + 8 * 2 + 7


# ------------------------------------------------------------------ Shanghai


def test_a_ten_deal_shanghai_game_with_blind_bonuses_and_a_total_below_zero():
    setup = GameSetup.create(SHANGHAI, ["Ann", "Ben", "Cat"], first_dealer="Cat")
    blind, no_joker = "blind", "blind-no-joker"
    rounds = [
        RoundRecord.create("Ann", {"Ben": "2 3 4", "Cat": "K"}, bonuses={"Ann": [blind]}),
        RoundRecord.create("Ann", {"Ben": "A", "Cat": "JK 9"}, bonuses={"Ann": [no_joker]}),
        RoundRecord.create("Ben", {"Ann": "7", "Cat": "Q Q"}),
        RoundRecord.create("Ann", {"Ben": "10 10", "Cat": "3"}),
        RoundRecord.create("Cat", {"Ann": "8 8", "Ben": "J"}, bonuses={"Cat": [blind]}),
        RoundRecord.create("Ann", {"Ben": "5", "Cat": "A A"}),
        RoundRecord.create("Ben", {"Ann": "6", "Cat": "4 4 4"}, bonuses={"Ben": [blind]}),
        RoundRecord.create("Ann", {"Ben": "K Q", "Cat": "2"}, bonuses={"Ann": [blind]}),
        RoundRecord.create("Cat", {"Ann": "9", "Ben": "JK"}),
        RoundRecord.create("Ann", {"Ben": "3 3", "Cat": "7 7"}),
    ]
    game = replay(setup, rounds)
    # Every card from 2 to 10 scores 5; J Q K 10; A and the joker 15.
    assert game.player("Ann").penalties == (-25, -50, 5, 0, 10, 0, 5, -25, 5, 0)
    assert game.player("Ben").penalties == (15, 15, 0, 10, 10, 5, -25, 20, 15, 10)
    assert game.player("Cat").penalties == (10, 20, 20, 5, -25, 30, 15, 5, 0, 10)
    assert [p.total for p in game.players] == [-75, 75, 90]
    assert [r.totals[0] for r in game.rounds] == [-25, -75, -70, -70, -60, -60, -55, -80, -75, -75]
    assert game.finished and len(game.rounds) == 10 and game.winners == ("Ann",)
    assert game.ranks() == {"Ann": 1, "Ben": 2, "Cat": 3}


def test_any_player_may_earn_a_bonus_but_each_once_a_round():
    game = start(GameSetup.create(SHANGHAI, ["Ann", "Ben", "Cat"]))
    both = advance(game, RoundRecord.create("Ann", {"Ben": "2", "Cat": "3"},
                                            bonuses={"Ben": ["blind", "blind-no-joker"]}))
    assert both.player("Ben").total == 5 - 25 - 50
    twice = RoundRecord("Ann", parse_hands({"Ben": "2", "Cat": "3"}), bonuses={"Ben": ["blind", "blind"]})
    with pytest.raises(RoundError, match='Round 1, Ben: "blind" is given twice, but a bonus counts at most once'):
        advance(game, twice)


def parse_hands(hands):
    return {name: parse_hand(text) for name, text in hands.items()}


# ------------------------------------------------------------------ Phase 10


def phase10(players=("Ann", "Ben", "Cat")):
    return GameSetup.create(PHASE10, list(players), first_dealer=players[0])


def p10(went_out, hands, achieved=()):
    return RoundRecord.create(went_out, hands, achieved=achieved, deck=Deck.PHASE10)


def test_a_phase10_game_where_the_lowest_total_never_completes_phase_10_and_does_not_win():
    # Ann makes her phase every round but is caught with cards; Ben goes out five times, then
    # sticks on phase 6 with one low card a round; Cat goes out in the last five rounds.
    rounds = [
        p10("Ben", {"Ann": "12 12 W", "Cat": "1 2"}, achieved=["Ann"]),  # 10 + 10 + 25 = 45; 5 + 5
        p10("Ben", {"Ann": "S S", "Cat": "3"}, achieved=["Ann"]),  # 15 + 15 = 30
        p10("Ben", {"Ann": "wild", "Cat": "4 4"}, achieved=["Ann"]),  # 25
        p10("Ben", {"Ann": "11 11", "Cat": "5"}, achieved=["Ann"]),  # 20
        p10("Ben", {"Ann": "10", "Cat": "6 6 6"}, achieved=["Ann"]),  # 10; 15
        p10("Cat", {"Ann": "W W", "Ben": "1"}, achieved=["Ann"]),  # 50
        p10("Cat", {"Ann": "skip", "Ben": "2"}, achieved=["Ann"]),  # 15
        p10("Cat", {"Ann": "12", "Ben": "3"}, achieved=["Ann"]),
        p10("Cat", {"Ann": "9", "Ben": "7"}, achieved=["Ann"]),
        p10("Cat", {"Ann": "8 8", "Ben": "1 1"}, achieved=["Ann"]),  # Ann completes phase 10
    ]
    game = replay(phase10(), rounds)
    assert game.rounds[-1].stages[0].describe(PHASE10) == "Phase 10: 1 set of 5 and 1 set of 3"
    assert game.player("Ann").penalties == (45, 30, 25, 20, 10, 50, 15, 10, 5, 10)
    assert [p.total for p in game.players] == [220, 30, 45]
    assert [p.completed for p in game.players] == [10, 5, 5]
    assert game.finished and len(game.rounds) == 10
    assert game.lowest == ("Ben",)
    assert game.winners == ("Ann",)


def ann_and_ben_take_turns(ann_holds):
    """Ann goes out in odd rounds while Ben makes his phase holding a skip (15); Ben goes out in
    even rounds while Ann makes hers holding ``ann_holds``. Cat never makes a phase, holding a 1."""
    return [
        p10("Ann", {"Ben": "S", "Cat": "1"}, achieved=["Ben"]) if n % 2
        else p10("Ben", {"Ann": ann_holds, "Cat": "1"}, achieved=["Ann"])
        for n in range(1, 11)
    ]


def test_two_players_complete_phase_10_in_the_same_round():
    game = replay(phase10(), ann_and_ben_take_turns("W"))
    assert [p.completed for p in game.players] == [10, 10, 0]
    assert [p.total for p in game.players] == [5 * 25, 5 * 15, 10 * 5]
    assert game.rounds[-1].ends_game and game.rounds[-1].moved_up == ("Ann", "Ben")
    assert game.lowest == ("Cat",)
    assert game.winners == ("Ben",)  # the lower total of the two who finished


def test_two_finishers_with_the_same_total_share_the_win():
    game = replay(phase10(), ann_and_ben_take_turns("S"))
    assert [p.total for p in game.players] == [75, 75, 50]
    assert game.winners == ("Ann", "Ben")


def test_a_phase10_hand_is_read_with_its_deck():
    assert parse_hand("12 skip 1 wild w S", Deck.PHASE10).canonical == "W W S S 12 1"
    assert PHASE10.deck.size == 108  # 12 numbers x 8, 8 wilds, 4 skips


def test_a_phase10_typed_total_must_be_one_a_hand_could_make():
    game = start(phase10(("Ann", "Ben")))
    with pytest.raises(RoundError, match="Round 1, Ben: 3 points is impossible: the lowest card scores 5"):
        advance(game, RoundRecord("Ann", points={"Ben": 3}))
    with pytest.raises(RoundError, match="Round 1, Ben: 251 points is impossible: a hand scores 0 to 250"):
        advance(game, RoundRecord("Ann", points={"Ben": 251}))  # 10 cards, a wild (25) the most
    assert advance(game, RoundRecord("Ann", points={"Ben": 250})).player("Ben").total == 250


# ------------------------------------------------------------------ refusals


@pytest.mark.parametrize("card", ["JK", "joker", "13", "K"])
def test_a_phase10_hand_with_a_joker_or_a_13_is_refused_naming_the_player_and_card(card):
    with pytest.raises(CardError) as caught:
        p10("Ann", {"Ben": f"5 {card}", "Cat": "1"})
    assert caught.value.player == "Ben" and caught.value.token == card
    assert str(caught.value) == (
        f'Ben: "{card}" is not a card of the Phase 10 deck (cards are 1 to 12, S for a skip and W for a wild)'
    )


@pytest.mark.parametrize("rank", [Rank.JOKER, Rank.KING])
def test_a_standard_card_in_a_phase10_round_is_refused(rank):
    # A hand read with the standard deck (as a form might) still cannot reach a Phase 10 score.
    game = start(phase10())
    record = RoundRecord("Ann", {"Ben": Hand((rank,)), "Cat": Hand((Phase10Rank.ONE,))})
    with pytest.raises(RoundError) as caught:
        advance(game, record)
    assert str(caught.value) == f"Round 1, Ben: {rank.value} is not a card of the Phase 10 deck"
    assert (caught.value.first.player, caught.value.first.card) == ("Ben", rank.value)


def test_nine_fives_from_one_phase10_deck_are_refused():
    game = start(phase10())
    with pytest.raises(RoundError) as caught:
        advance(game, p10("Ann", {"Ben": "5 5 5 5 5", "Cat": "5 5 5 5"}))
    assert str(caught.value) == "Round 1, Cat: that makes 9 × 5 in this round, but 1 deck holds only 8 of 5"
    # Eight are there (two sets of 4 in one deck), and five skips are not (four in a deck).
    assert advance(game, p10("Ann", {"Ben": "5 5 5 5", "Cat": "5 5 5 5"})).player("Cat").total == 20
    with pytest.raises(RoundError, match="Round 1, Cat: that makes 5 × Skip in this round, but 1 deck holds only 4 of S"):
        advance(game, p10("Ann", {"Ben": "S S S", "Cat": "S S"}))


def test_a_phase10_hand_holds_at_most_the_ten_cards_dealt():
    game = start(phase10())
    with pytest.raises(RoundError, match="Round 1, Ben: 11 cards left, but a hand holds at most 10"):
        advance(game, p10("Ann", {"Ben": "1 2 3 4 5 6 7 8 9 10 11", "Cat": "1"}))


def test_an_unknown_bonus_is_refused_naming_the_player_and_the_key():
    game = start(GameSetup.create(LIVERPOOL, ["Ann", "Ben", "Cat"]))
    with pytest.raises(RoundError) as caught:
        advance(game, RoundRecord.create("Ann", {"Ben": "2", "Cat": "3"}, bonuses={"Cat": ["blind"]}))
    assert str(caught.value) == 'Round 1, Cat: "blind" is not a bonus of Liverpool Rummy (its bonuses are perfect-cut)'
    assert caught.value.first.field == "bonuses"
    with pytest.raises(RoundError, match='"perfect-cut" is not a bonus of Balmoral Rummy \\(it has no bonuses\\)'):
        advance(start(GameSetup.create(BALMORAL, ["Ann", "Ben"])),
                RoundRecord.create("Ann", {"Ben": "2"}, bonuses={"Ben": "perfect-cut"}))
    with pytest.raises(RoundError, match='"Zed" is not at the table, so cannot have earned a bonus'):
        advance(game, RoundRecord.create("Ann", {"Ben": "2", "Cat": "3"}, bonuses={"Zed": ["perfect-cut"]}))


def test_the_round_screen_shows_no_penalty_for_a_joker_in_a_game_without_jokers():
    # Balmoral's document values no joker (it plays without); the round is refused with a
    # message, and the penalty beside the hand shows "?" rather than failing on the value.
    from scorekeeper.web.presenters import round_points
    from scorekeeper.web.forms.round import SeatDraft

    assert Rank.JOKER not in BALMORAL.values
    assert round_points(SeatDraft(hand="JK 7"), BALMORAL, False) == "?"
    assert round_points(SeatDraft(hand="JK 7"), CLASSIC, False) == "22"
    assert round_points(SeatDraft(hand="A 7"), BALMORAL, False) == "22"
