"""The rules engine: worked examples from RULES.md, every sanity limit, and properties."""

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    BALMORAL,
    CLASSIC,
    CardError,
    DealerRule,
    GameSetup,
    Hand,
    Rank,
    PRESETS,
    Position,
    Progression,
    RoundError,
    RoundRecord,
    SetupError,
    advance,
    hand_penalty,
    parse_hand,
    play,
    replay,
    start,
)

# ------------------------------------------------------------------ cards


def test_penalty_of_the_rules_example():
    assert hand_penalty(parse_hand("A K K 7 7 3")) == 52


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("a k 7 7", "A K 7 7"),
        ("7 A 7 K", "A K 7 7"),
        ("t 10 Joker * jk", "JK JK JK 10 10"),
        ("AK77", "A K 7 7"),
        ("10jq", "Q J 10"),
        ("  ", ""),
        ("2,3;4", "4 3 2"),
    ],
)
def test_hands_read_every_accepted_form(text, canonical):
    assert parse_hand(text).canonical == canonical


@pytest.mark.parametrize("text, token", [("A 1 K", "1"), ("A X", "X"), ("11", "11"), ("K Z7", "Z7")])
def test_a_token_that_is_not_a_card_is_named(text, token):
    with pytest.raises(CardError) as caught:
        parse_hand(text)
    assert caught.value.token == token
    assert f'"{token}"' in str(caught.value)


def test_every_card_value():
    values = {r: hand_penalty(Hand((r,))) for r in Rank}
    assert values[Rank.ACE] == 15 and values[Rank.JOKER] == 15
    assert values[Rank.KING] == values[Rank.QUEEN] == values[Rank.JACK] == 10
    assert [values[Rank(str(n))] for n in range(2, 11)] == list(range(2, 11))


# ------------------------------------------------------------- rule sets


def test_contract_words():
    assert BALMORAL.stage(3).describe(BALMORAL) == "Level 3: 2 sets of 4"
    assert BALMORAL.stage(7).describe(BALMORAL) == "Level 7: 1 set of 3 and 1 run of 7"
    assert CLASSIC.stage(6).describe(CLASSIC) == "Deal 6: one group and two sequences"
    assert [s.cards_dealt for s in CLASSIC.stages] == [10, 10, 10, 10, 12, 12, 12]
    assert {s.cards_dealt for s in BALMORAL.stages} == {13}


@pytest.mark.parametrize(
    "rules, players, decks, jokers",
    [
        (BALMORAL, 2, 2, 0),
        (BALMORAL, 4, 2, 0),
        (BALMORAL, 5, 3, 0),
        (BALMORAL, 8, 4, 0),
        (CLASSIC, 3, 2, 1),
        (CLASSIC, 4, 2, 1),
        (CLASSIC, 5, 3, 2),
        (CLASSIC, 8, 3, 2),
    ],
)
def test_suggested_decks(rules, players, decks, jokers):
    assert rules.suggested_decks(players) == (decks, jokers)
    setup = GameSetup.create(rules, [f"P{i}" for i in range(players)])
    assert (setup.decks, setup.jokers) == (decks, jokers)


@pytest.mark.parametrize("rules, count", [(BALMORAL, 1), (BALMORAL, 9), (CLASSIC, 2), (CLASSIC, 9)])
def test_player_counts_are_enforced(rules, count):
    with pytest.raises(SetupError, match=f"not {count}"):
        GameSetup.create(rules, [f"P{i}" for i in range(count)])


def test_setup_refusals_name_the_field():
    with pytest.raises(SetupError) as caught:
        GameSetup.create(BALMORAL, ["Ann", " ann ", "Ben"])
    assert caught.value.first.player == "ann"
    with pytest.raises(SetupError, match="without jokers"):
        GameSetup.create(BALMORAL, ["Ann", "Ben"], jokers=1)
    with pytest.raises(SetupError, match="first dealer"):
        GameSetup.create(BALMORAL, ["Ann", "Ben"], first_dealer="Zed")
    with pytest.raises(SetupError, match="deals by the rule rotate"):
        GameSetup.create(CLASSIC, ["Ann", "Ben", "Cat"], dealer_rule="winner")
    with pytest.raises(SetupError, match="(?i)decks must be"):
        GameSetup.create(CLASSIC, ["Ann", "Ben", "Cat"], decks=0)
    with pytest.raises(SetupError, match="longer than 40"):
        GameSetup.create(CLASSIC, ["A" * 41, "Ben", "Cat"])


# --------------------------------------------------------------- balmoral


def balmoral(players=("Ann", "Ben", "Cat", "Dev"), **kw):
    return GameSetup.create(BALMORAL, list(players), first_dealer=players[0], **kw)


def out(went_out, achieved=(), **hands):
    return RoundRecord.create(went_out, hands, achieved=achieved)


def test_balmoral_worked_example_from_the_game_file():
    game = replay(balmoral(), [out("Ben", ["Dev"], Ann="A K 7 7", Cat="10 10 Q 2", Dev="")])
    assert [(p.name, p.total, p.completed) for p in game.players] == [
        ("Ann", 39, 0),
        ("Ben", 0, 1),
        ("Cat", 32, 0),
        ("Dev", 0, 1),
    ]
    r1 = game.rounds[0]
    assert (r1.dealer, r1.first_player, r1.cards_dealt) == ("Ann", "Ben", 13)
    # The winner of the round deals next; play starts to the dealer's left.
    assert (game.next.number, game.next.dealer, game.next.first_player) == (2, "Ben", "Cat")
    assert [s.number for s in game.next.stages] == [1, 2, 1, 2]
    assert r1.moved_up == ("Ben", "Dev")
    assert r1.leaders == ("Ben", "Dev")


def test_balmoral_rotating_deal():
    setup = balmoral(dealer_rule="rotate")
    game = replay(setup, [out("Cat", Ann="2", Ben="2", Dev="2")] * 3)
    assert [r.dealer for r in game.rounds] == ["Ann", "Ben", "Cat"]
    assert game.next.dealer == "Dev" and game.next.first_player == "Ann"


def climb(name, times, others=("Ann", "Ben", "Cat", "Dev")):
    hands = {p: "5" for p in others if p != name}
    return [RoundRecord.create(name, hands)] * times


def test_balmoral_ends_after_the_first_level_seven_and_a_finisher_need_not_win():
    # Ann reaches level 7 first but carries a big penalty from round 1.
    rounds = [RoundRecord.create("Ben", {"Ann": "A A A A K K K K", "Cat": "2", "Dev": "2"})]
    rounds += [RoundRecord.create("Ann", {"Ben": "2", "Cat": "2", "Dev": "2"})] * 6
    game = replay(balmoral(), rounds)
    assert not game.finished
    ann = game.player("Ann")
    assert ann.completed == 6
    assert game.next.stages[0].number == 7
    final = advance(game, RoundRecord.create("Ann", {"Ben": "2", "Cat": "2", "Dev": "2"}))
    assert final.finished and final.next is None
    assert final.player("Ann").completed == 7
    assert final.rounds[-1].ends_game
    assert final.player("Ann").total == 100
    # Ben went out once and then held a 2 in each of seven rounds: 14, the lowest.
    assert [p.total for p in final.players] == [100, 14, 16, 16]
    assert final.winners == ("Ben",)
    with pytest.raises(RoundError, match="game ended after round 8"):
        advance(final, RoundRecord.create("Ann", {"Ben": "2", "Cat": "2", "Dev": "2"}))


def test_several_players_finish_level_seven_in_one_round_and_tie():
    rounds = [RoundRecord.create("Ann", {"Ben": "", "Cat": "9", "Dev": "9"}, achieved=["Ben"])] * 6
    game = replay(balmoral(), rounds)
    assert [p.completed for p in game.players] == [6, 6, 0, 0]
    final = advance(game, RoundRecord.create("Ben", {"Ann": "", "Cat": "9", "Dev": "9"}, achieved=["Ann"]))
    assert final.finished
    assert [p.completed for p in final.players] == [7, 7, 0, 0]
    assert final.winners == ("Ann", "Ben")
    assert final.ranks() == {"Ann": 1, "Ben": 1, "Cat": 3, "Dev": 3}


def test_went_out_always_achieved_even_if_not_named():
    game = replay(balmoral(), [RoundRecord.create("Cat", {"Ann": "2", "Ben": "2", "Dev": "2"}, achieved=[])])
    assert game.player("Cat").completed == 1
    assert "Cat" in game.rounds[0].achieved


def test_balmoral_sanity_limits_name_player_and_card():
    state = start(balmoral())
    # 2 decks hold 8 kings: Cat's hand makes it 9.
    with pytest.raises(RoundError) as caught:
        advance(state, out("Ann", Ben="K K K K K", Cat="K K K K", Dev=""))
    problem = caught.value.first
    assert (problem.round, problem.player, problem.card) == (1, "Cat", "K")
    assert "9 × K" in str(caught.value) and "Round 1, Cat" in str(caught.value)
    with pytest.raises(RoundError) as caught:
        advance(state, out("Ann", Ben="2 3 4 5 6 7 8 9 10 J Q K A 2", Cat="", Dev=""))
    assert caught.value.first.player == "Ben" and "at most 13" in str(caught.value)
    with pytest.raises(RoundError) as caught:
        advance(state, out("Ann", Ben="JK", Cat="", Dev=""))
    assert caught.value.first.card == "JK" and "without jokers" in str(caught.value)
    with pytest.raises(RoundError, match="hand must be empty"):
        advance(state, out("Ann", Ann="K", Ben="", Cat="", Dev=""))
    with pytest.raises(RoundError, match="no cards or points entered"):
        advance(state, out("Ann", Ben="", Cat=""))
    with pytest.raises(RoundError, match="not at the table"):
        advance(state, out("Zed", Ben="", Cat="", Dev=""))
    with pytest.raises(RoundError, match="both cards and a points total"):
        advance(state, RoundRecord.create("Ann", {"Ben": "2", "Cat": "", "Dev": ""}, points={"Ben": 2}))


def test_points_totals_are_checked():
    state = start(balmoral())
    ok = advance(state, RoundRecord.create("Ann", {"Ben": "2", "Cat": ""}, points={"Dev": 34}))
    assert ok.player("Dev").total == 34
    for bad, words in [(-5, "impossible"), (1, "lowest card"), (196, "0 to 195")]:
        with pytest.raises(RoundError, match=words):
            advance(state, RoundRecord.create("Ann", {"Ben": "2", "Cat": ""}, points={"Dev": bad}))


def test_every_problem_is_reported_at_once():
    state = start(balmoral())
    with pytest.raises(RoundError) as caught:
        advance(state, out("Ann", Ben="JK", Cat="2 " * 14))
    players = {p.player for p in caught.value.problems}
    assert players == {"Ben", "Cat", "Dev"}


# ---------------------------------------------------------------- classic


def classic(players=("Ann", "Ben", "Cat", "Dev", "Eve")):
    return GameSetup.create(CLASSIC, list(players), first_dealer=players[1])


def test_classic_seven_deals_rotating_and_jokers():
    setup = classic()
    assert (setup.decks, setup.jokers) == (3, 2)
    rounds = [
        RoundRecord.create(setup.players[i % 5], {p: "JK 2" for p in setup.players if p != setup.players[i % 5]})
        for i in range(7)
    ]
    # Four hands with a joker each exceed 2 jokers: refused.
    with pytest.raises(RoundError, match="2 jokers in play"):
        replay(setup, rounds)
    rounds = [RoundRecord.create("Ann", {"Ben": "JK JK", "Cat": "A", "Dev": "", "Eve": "3 3 3"})] * 7
    game = replay(setup, rounds)
    assert game.finished
    assert [r.dealer for r in game.rounds] == ["Ben", "Cat", "Dev", "Eve", "Ann", "Ben", "Cat"]
    assert [r.first_player for r in game.rounds][:2] == ["Cat", "Dev"]
    assert [r.cards_dealt for r in game.rounds] == [10, 10, 10, 10, 12, 12, 12]
    assert [r.stages[0].number for r in game.rounds] == [1, 2, 3, 4, 5, 6, 7]
    assert game.player("Ben").total == 210
    assert game.winners == ("Ann", "Dev")
    assert all(p.completed is None for p in game.players)


def test_classic_hand_may_exceed_the_deal():
    setup = classic(("Ann", "Ben", "Cat"))
    game = replay(setup, [out("Ann", Ben="2 3 4 5 6 7 8 9 10 J Q K A", Cat="")])
    assert game.player("Ben").total == 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 30 + 15


def test_classic_refuses_per_player_contracts():
    with pytest.raises(RoundError, match="no per-player contracts"):
        replay(classic(("Ann", "Ben", "Cat")), [out("Ann", ["Ben"], Ben="", Cat="")])


# ------------------------------------------------------------- properties

NAMES = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay", "Gus", "Hal"]


@st.composite
def games(draw, max_rounds=12, rule_sets=(BALMORAL, CLASSIC)):
    rules = draw(st.sampled_from(rule_sets))
    count = draw(st.integers(rules.min_players, rules.max_players))
    players = NAMES[:count]
    setup = GameSetup.create(
        rules,
        players,
        first_dealer=draw(st.sampled_from(players)),
        dealer_rule=draw(st.sampled_from(rules.dealer_rules)),
    )
    state = start(setup)
    records = []
    for _ in range(draw(st.integers(0, max_rounds))):
        if state.finished:
            break
        went_out = draw(st.sampled_from(players))
        hands, points = {}, {}
        for p in players:
            if p == went_out:
                continue
            if draw(st.booleans()):
                hands[p] = Hand.of(draw(st.lists(st.sampled_from(rules.ranks[:-1] if rules.uses_jokers else rules.ranks), max_size=3)))
            else:
                points[p] = draw(st.sampled_from([0, 2, 10, 37, 100]))
        ladder = rules.progression is Progression.LADDER
        achieved = draw(st.lists(st.sampled_from(players), unique=True, max_size=3)) if ladder else []
        record = RoundRecord(went_out, hands, points, frozenset(achieved))
        try:
            state = advance(state, record)
        except RoundError:
            continue  # points no hand of these rules can score (Shanghai's lowest card is 5): drawn again
        records.append(record)
    return setup, records


@settings(max_examples=examples(100), deadline=None)
@given(games(max_rounds=14, rule_sets=tuple(PRESETS.values())))
def test_a_game_taken_up_from_its_figures_plays_on_as_its_replay_does(game):
    """Every preset (Phase 10's lowest finisher, Liverpool's and Shanghai's deals): where the
    game stands after each round, taken up again from the figures a summary stores, plays the
    next round as the replay does, and the last position's places and winners are the state's."""
    setup, records = game
    at = start(setup).position
    for record in records:
        at = Position.resume(setup, at.played, at.totals, at.completed, at.times_out,
                             at.next.dealer if at.next else None)
        _, at = play(at, record)
    state = replay(setup, records)
    assert at == state.position
    assert (at.winners, at.ranks(), at.finished) == (state.winners, state.ranks(), state.finished)


@settings(max_examples=examples(150), deadline=None)
@given(games())
def test_properties_of_any_game(game):
    setup, records = game
    state = replay(setup, records)
    for p in state.players:
        assert p.total == sum(p.penalties)
        assert len(p.penalties) == len(records)
    # Levels never fall and rise by at most one a round.
    if setup.rules is BALMORAL:
        previous = [0] * len(setup.players)
        for r in state.rounds:
            for before, after in zip(previous, r.completed, strict=True):
                assert 0 <= after - before <= 1
            previous = list(r.completed)
    # At most one round ends the game, and it is the last one.
    enders = [r.number for r in state.rounds if r.ends_game]
    assert enders == ([len(records)] if state.finished else [])
    if state.finished:
        assert state.winners and all(state.player(w).total == min(p.total for p in state.players) for w in state.winners)
    else:
        assert state.winners == ()
    # Replaying a prefix gives the prefix of the state.
    for k in range(len(records) + 1):
        prefix = replay(setup, records[:k])
        assert prefix.rounds == state.rounds[:k]
        # Where the game stands after k rounds, taken up again from its figures alone (as from
        # a stored summary), plays the next round exactly as the replay does.
        at = prefix.position
        resumed = Position.resume(setup, at.played, at.totals, at.completed, at.times_out,
                                  at.next.dealer if at.next else None)
        assert resumed == at
        assert (resumed.winners, resumed.ranks()) == (prefix.winners, prefix.ranks())
        if k < len(records):
            assert play(resumed, records[k]) == (state.rounds[k], replay(setup, records[: k + 1]).position)


@settings(deadline=None, derandomize=True, database=None)
@given(st.lists(st.sampled_from(list(Rank)), max_size=20), st.sampled_from([" ", "  ", ",", " , "]))
def test_parse_canonical_parse_is_stable(ranks, sep):
    written = sep.join(r.value.lower() if i % 2 else r.value for i, r in enumerate(ranks))
    hand = parse_hand(written)
    assert sorted(hand.ranks, key=lambda r: r.value) == sorted(ranks, key=lambda r: r.value)
    assert parse_hand(hand.canonical) == hand
    assert parse_hand(hand.canonical).canonical == hand.canonical
    assert hand_penalty(hand) == sum(hand_penalty(Hand((r,))) for r in ranks)


def test_dealer_rule_enum_values():
    assert DealerRule("winner") is DealerRule.WINNER
