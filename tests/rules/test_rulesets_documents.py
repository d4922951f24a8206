"""Rule-set documents (RULESETS.md): every limit refused with a message naming the field, and
properties of generated rule sets and of games played by them."""

import copy
import math

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import (
    LIVERPOOL,
    PHASE10,
    PRESET_DOCUMENTS,
    Deck,
    GameSetup,
    HandLimit,
    Progression,
    Rank,
    RoundError,
    RoundRecord,
    RuleSetError,
    WinnerRule,
    advance,
    hand_penalty,
    parse_ruleset,
    replay,
    ruleset_document,
    start,
)

PROPERTIES = settings(max_examples=examples(80), deadline=None, derandomize=True, database=None,
                      suppress_health_check=[HealthCheck.too_slow])

SPEC_EXAMPLE = {
    "name": "Family Liverpool",
    "stage_name": "Deal",
    "progression": "deal",
    "stages": [
        {"contract": "2 sets of 3", "cards": 10},
        {"contract": "1 set of 3 and 1 run of 4", "cards": 10},
    ],
    "deck": "standard",
    "jokers": True,
    "values": {"A": 20, "K": 10, "Q": 10, "J": 10, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6,
               "5": 5, "4": 4, "3": 3, "2": 2, "JK": 50},
    "hand_limit": "none",
    "dealer_rules": ["rotate"],
    "min_players": 3,
    "max_players": 8,
    "decks": [{"up_to": 4, "decks": 2, "jokers": 4}, {"up_to": 8, "decks": 3, "jokers": 6}],
    "bonuses": [{"key": "perfect-cut", "label": "Perfect cut", "points": -50}],
    "winner": "lowest",
    "note": "Runs are one suit; an ace is low or high, never K A 2.",
}


def changed(base, **fields):
    doc = copy.deepcopy(dict(base))
    for name, value in fields.items():
        if value is None:
            doc.pop(name, None)
        else:
            doc[name] = value
    return doc


def refusal(doc) -> str:
    with pytest.raises(RuleSetError) as caught:
        parse_ruleset(doc)
    return str(caught.value)


# ------------------------------------------------------------------ reading a document


def test_the_spec_example_reads_and_writes_back_exactly():
    rules = parse_ruleset(SPEC_EXAMPLE, key="family")
    assert rules.key == "family" and rules.values[Rank.ACE] == 20 and rules.values[Rank.JOKER] == 50
    assert rules.bonus("perfect-cut").points == -50
    assert (rules.progression, rules.hand_rule, rules.winner) == (Progression.DEAL, HandLimit.NONE, WinnerRule.LOWEST)
    assert ruleset_document(rules) == SPEC_EXAMPLE


def test_optional_fields_come_back_with_their_defaults():
    doc = changed(SPEC_EXAMPLE, stage_name=None, bonuses=None, note=None,
                  decks=[{"up_to": 8, "decks": 3}], jokers=False,
                  values={k: v for k, v in SPEC_EXAMPLE["values"].items() if k != "JK"})
    written = ruleset_document(parse_ruleset(doc))
    assert (written["stage_name"], written["bonuses"], written["note"]) == ("Deal", [], "")
    assert written["decks"] == [{"up_to": 8, "decks": 3, "jokers": 0}]
    ladder = changed(doc, progression="ladder", stages=[{"contract": "anything", "cards": 10}])
    assert parse_ruleset(ladder).stage_word == "Level"


def test_the_rule_set_is_frozen():
    rules = parse_ruleset(SPEC_EXAMPLE)
    with pytest.raises(TypeError):
        rules.values[Rank.ACE] = 1  # type: ignore[index]


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"name": ""}, "name: must be 1 to 60 characters, not 0"),
        ({"name": "x" * 61}, "name: must be 1 to 60 characters, not 61"),
        ({"name": 7}, "name: must be text without control characters"),
        ({"progression": "spiral"}, "progression: must be \"ladder\" or \"deal\", not 'spiral'"),
        ({"stages": []}, "stages: must hold 1 to 30 entries, not 0"),
        ({"stages": [{"contract": "2 sets of 3", "cards": 10}] * 31}, "stages: must hold 1 to 30 entries, not 31"),
        ({"stages": [{"contract": "", "cards": 10}]}, "stages: stage 1's contract must be 1 to 100 characters, not 0"),
        ({"stages": [{"contract": "x" * 101, "cards": 10}]},
         "stages: stage 1's contract must be 1 to 100 characters, not 101"),
        ({"stages": [{"contract": "a", "cards": 10}, {"contract": "b", "cards": 31}]},
         "stages: stage 2's cards must be a whole number from 1 to 30, not 31"),
        ({"stages": [{"contract": "a", "cards": True}]},
         "stages: stage 1's cards must be a whole number from 1 to 30, not True"),
        ({"stages": [{"contract": "a"}]}, "stages: stage 1 has no cards"),
        ({"stages": [{"contract": "a", "cards": 3, "melds": 2}]}, 'stages: stage 1 has an unknown field "melds"'),
        ({"deck": "tarot"}, "deck: must be \"standard\" or \"phase10\", not 'tarot'"),
        ({"jokers": "yes"}, "jokers: must be true or false, not 'yes'"),
        ({"values": {**SPEC_EXAMPLE["values"], "A": 501}},
         "values: the value of A must be a whole number from 0 to 500, not 501"),
        ({"values": {**SPEC_EXAMPLE["values"], "7": -1}},
         "values: the value of 7 must be a whole number from 0 to 500, not -1"),
        ({"values": {**SPEC_EXAMPLE["values"], "C": 3}}, "values: 'C' is not a rank of the standard deck"),
        ({"jokers": False}, "values: JK has a value but the rule set plays without jokers"),
        ({"hand_limit": 13}, "hand_limit: must be \"dealt\" or \"none\", not 13"),
        ({"dealer_rules": []}, "dealer_rules: must hold 1 to 2 entries, not 0"),
        ({"dealer_rules": ["rotate", "rotate"]}, 'dealer_rules: "rotate" is given twice'),
        ({"dealer_rules": ["left"]}, "dealer_rules: must be \"winner\" or \"rotate\", not 'left'"),
        ({"min_players": 1}, "min_players: must be a whole number from 2 to 8, not 1"),
        ({"max_players": 9}, "max_players: must be a whole number from 2 to 8, not 9"),
        ({"min_players": 5, "max_players": 4}, "max_players: 4 is below min_players (5)"),
        ({"decks": [{"up_to": 4, "decks": 2, "jokers": 4}]},
         "decks: the last row is for up to 4 players, but max_players is 8"),
        ({"decks": [{"up_to": 8, "decks": 9}]}, "decks: row 1's decks must be a whole number from 1 to 8, not 9"),
        ({"decks": [{"up_to": 8, "decks": 3, "jokers": 17}]},
         "decks: row 1's jokers must be a whole number from 0 to 16, not 17"),
        ({"decks": [{"up_to": 6, "decks": 2}, {"up_to": 5, "decks": 3}]},
         "decks: row 2's up_to must be above the row before's (6)"),
        ({"decks": [{"up_to": 8, "decks": 1}]}, "decks: row 1: 1 deck cannot deal 10 cards to 8 players"),
        ({"bonuses": [{"key": "a", "label": "A", "points": 5}] * 11}, "bonuses: must hold 0 to 10 entries, not 11"),
        ({"bonuses": [{"key": "Perfect Cut", "label": "Perfect cut", "points": -50}]},
         "bonuses: bonus 1's key 'Perfect Cut' must be 1 to 30 lowercase letters, digits and -"),
        ({"bonuses": [{"key": "cut", "label": "Cut", "points": -5}, {"key": "cut", "label": "Cut 2", "points": -5}]},
         'bonuses: the key "cut" is used twice'),
        ({"bonuses": [{"key": "cut", "label": "", "points": -5}]},
         "bonuses: \"cut\"'s label must be 1 to 60 characters, not 0"),
        ({"bonuses": [{"key": "cut", "label": "Cut", "points": 0}]},
         'bonuses: "cut" scores 0 points, so it changes nothing: give it points or leave it out'),
        ({"bonuses": [{"key": "cut", "label": "Cut", "points": -1001}]},
         "bonuses: \"cut\"'s points must be a whole number from -1000 to 1000, not -1001"),
        ({"bonuses": [{"key": "cut", "label": "Cut"}]}, "bonuses: bonus 1 has no points"),
        ({"winner": "highest"}, "winner: must be \"lowest\" or \"lowest-finisher\", not 'highest'"),
        ({"winner": "lowest-finisher"}, 'winner: "lowest-finisher" needs the ladder progression'),
        ({"note": "x" * 301}, "note: must be 0 to 300 characters, not 301"),
        ({"stage_name": ""}, "stage_name: must be 1 to 20 characters, not 0"),
        ({"name": None}, "name: is missing"),
        ({"bonus": []}, "bonus: is not a field of a rule set"),
    ],
)
def test_every_limit_is_refused_naming_the_field(fields, message):
    doc = changed(SPEC_EXAMPLE, **fields)
    assert message in refusal(doc).split("; ")


def test_uneven_cards_on_a_ladder_are_refused_naming_the_stage():
    doc = changed(PRESET_DOCUMENTS["phase10"])
    doc["stages"][2] = {"contract": "1 set of 4 and 1 run of 4", "cards": 12}
    with pytest.raises(RuleSetError) as caught:
        parse_ruleset(doc)
    assert str(caught.value) == (
        "stages: stage 3 deals 12 cards but a ladder deals the same number every stage (stage 1 deals 10)"
    )
    assert (caught.value.first.field, caught.value.first.stage) == ("stages", 3)


def test_a_missing_value_is_refused_naming_the_rank():
    doc = changed(PRESET_DOCUMENTS["liverpool"])
    del doc["values"]["Q"]
    with pytest.raises(RuleSetError) as caught:
        parse_ruleset(doc)
    assert str(caught.value) == "values: no value for Q"
    assert (caught.value.first.field, caught.value.first.rank) == ("values", "Q")


def test_a_phase10_document_values_its_own_ranks_and_has_no_jokers():
    doc = changed(PRESET_DOCUMENTS["phase10"])
    del doc["values"]["W"]
    doc["values"]["K"] = 10
    assert refusal(doc) == "values: no value for W; values: 'K' is not a rank of the Phase 10 deck"
    assert refusal(changed(PRESET_DOCUMENTS["phase10"], jokers=True)) == (
        "jokers: the Phase 10 deck has no jokers (it has wilds)"
    )


def test_every_problem_is_listed_at_once():
    doc = changed(SPEC_EXAMPLE, name="", min_players=0, winner="most")
    assert [p.field for p in pytest.raises(RuleSetError, parse_ruleset, doc).value.problems] == [
        "name", "min_players", "winner"]


@pytest.mark.parametrize("document", [None, [], "liverpool", 3])
def test_a_document_must_be_an_object(document):
    assert refusal(document) == "rules: a rule set must be an object (a JSON document)"


# ------------------------------------------------------------------ generated rule sets

words = st.from_regex(r"[A-Za-z0-9]{1,8}( [A-Za-z0-9]{1,8}){0,3}", fullmatch=True)
STANDARD = ["A", "K", "Q", "J", *(str(n) for n in range(10, 1, -1))]
PHASE10_RANKS = [*(str(n) for n in range(1, 13)), "S", "W"]


@st.composite
def documents(draw) -> dict:
    """A document within every limit, written as ruleset_document writes one."""
    progression = draw(st.sampled_from(["deal", "ladder"]))
    deck = draw(st.sampled_from(["standard", "phase10"]))
    jokers = deck == "standard" and draw(st.booleans())
    count = draw(st.integers(1, 8))
    if progression == "ladder":
        cards = [draw(st.integers(1, 30))] * count
    else:
        cards = draw(st.lists(st.integers(1, 30), min_size=count, max_size=count))
    ranks = (STANDARD + (["JK"] if jokers else [])) if deck == "standard" else PHASE10_RANKS
    values = {rank: draw(st.integers(0, 500)) for rank in ranks}
    min_players = draw(st.integers(2, 8))
    max_players = draw(st.integers(min_players, 8))
    ups = sorted(draw(st.sets(st.integers(2, 8), max_size=3)) | {draw(st.integers(max_players, 8))})
    size = 52 if deck == "standard" else 108
    rows = [{"up_to": up,
             "decks": draw(st.integers(max(1, math.ceil(up * max(cards) / size)), 8)),
             "jokers": draw(st.integers(0, 16)) if jokers else 0} for up in ups]
    keys = draw(st.lists(st.from_regex(r"[a-z0-9-]{1,12}", fullmatch=True), unique=True, max_size=3))
    bonuses = [{"key": key, "label": draw(words),
                "points": draw(st.integers(-1000, 1000).filter(bool))} for key in keys]
    return {
        "name": draw(words),
        "stage_name": draw(st.sampled_from(["Level", "Deal", "Phase", "Hand"])),
        "progression": progression,
        "stages": [{"contract": draw(words), "cards": n} for n in cards],
        "deck": deck,
        "jokers": jokers,
        "values": values,
        "hand_limit": draw(st.sampled_from(["dealt", "none"])),
        "dealer_rules": draw(st.sampled_from([["winner"], ["rotate"], ["winner", "rotate"], ["rotate", "winner"]])),
        "min_players": min_players,
        "max_players": max_players,
        "decks": rows,
        "bonuses": bonuses,
        "winner": draw(st.sampled_from(["lowest", "lowest-finisher"] if progression == "ladder" else ["lowest"])),
        "note": draw(st.one_of(st.just(""), words)),
    }


@PROPERTIES
@given(documents())
def test_document_to_rule_set_to_document_round_trips(doc):
    rules = parse_ruleset(doc, key="house")
    assert ruleset_document(rules) == doc
    assert parse_ruleset(ruleset_document(rules), key="house") == rules


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=5),
                 st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=3))


@PROPERTIES
@given(documents(), st.data())
def test_a_broken_document_is_refused_with_a_rule_set_error_and_nothing_else(doc, data):
    field = data.draw(st.sampled_from(sorted(doc)))
    doc[field] = data.draw(JUNK)
    try:
        parse_ruleset(doc)
    except RuleSetError as error:
        assert error.problems and all(str(p).split(": ")[0] for p in error.problems)


# ------------------------------------------------------------------ games by generated rule sets


@st.composite
def games(draw):
    """A rule set, a table for it and up to a dozen rounds (some of them refused)."""
    rules = parse_ruleset(draw(documents()))
    count = draw(st.integers(rules.min_players, rules.max_players))
    players = [f"P{i}" for i in range(count)]
    setup = GameSetup.create(rules, players, first_dealer=draw(st.sampled_from(players)))
    rounds = []
    for _ in range(draw(st.integers(0, 12))):
        went_out = draw(st.sampled_from(players))
        hands, points = {}, {}
        for name in players:
            if name == went_out:
                continue
            if draw(st.integers(0, 4)):
                hands[name] = " ".join(r.value for r in draw(st.lists(st.sampled_from(rules.ranks), max_size=4)))
            else:
                points[name] = draw(st.integers(0, 60))
        achieved = draw(st.sets(st.sampled_from(players))) if rules.progression is Progression.LADDER else ()
        keys = [b.key for b in rules.bonuses]
        bonuses = {name: draw(st.sets(st.sampled_from(keys))) for name in players if keys and draw(st.booleans())}
        rounds.append(RoundRecord.create(went_out, hands, points, achieved, bonuses, deck=rules.deck))
    return setup, rounds


def play(setup, rounds):
    """The rounds the rules accept, in order (a refused round is dealt again, as at a table)."""
    state, accepted = start(setup), []
    for record in rounds:
        if state.finished:
            break
        try:
            state = advance(state, record)
        except RoundError as error:
            assert error.problems
            continue
        accepted.append(record)
    return state, accepted


def round_score(rules, record, name):
    if name == record.went_out:
        cards = 0
    elif name in record.hands:
        cards = hand_penalty(record.hands[name], rules.values)
    else:
        cards = record.points[name]
    return cards + sum(rules.bonus(key).points for key in record.bonuses.get(name, ()))


@PROPERTIES
@given(games())
def test_totals_are_the_sums_of_the_round_scores(game):
    setup, rounds = game
    state, accepted = play(setup, rounds)
    for seat, player in enumerate(state.players):
        scores = [round_score(setup.rules, record, player.name) for record in accepted]
        assert list(player.penalties) == scores == [result.penalties[seat] for result in state.rounds]
        assert player.total == sum(scores)


@PROPERTIES
@given(games())
def test_a_ladder_player_never_passes_the_last_stage(game):
    setup, rounds = game
    rules = setup.rules
    state, _ = play(setup, rounds)
    if rules.progression is Progression.LADDER:
        for result in state.rounds:
            assert all(0 <= c <= rules.last_stage for c in result.completed)
            assert all(1 <= s.number <= rules.last_stage for s in result.stages)
            assert result.ends_game == any(c == rules.last_stage for c in result.completed)
    else:
        assert len(state.rounds) <= rules.last_stage
        assert state.finished == (len(state.rounds) == rules.last_stage)
    if state.finished:
        assert state.winners
        if rules.winner is WinnerRule.LOWEST_FINISHER:
            assert all(state.player(name).completed == rules.last_stage for name in state.winners)
        else:
            assert state.winners == state.lowest


@PROPERTIES
@given(games())
def test_replaying_is_deterministic(game):
    setup, rounds = game
    state, accepted = play(setup, rounds)
    assert replay(setup, accepted) == state == replay(setup, accepted)


def test_a_generated_game_may_go_below_zero():
    # Bonuses alone can take a total under zero: nothing in the engine clamps it.
    doc = changed(PRESET_DOCUMENTS["liverpool"])
    doc["bonuses"] = [{"key": "shanghai", "label": "Shanghai!", "points": -1000}]
    rules = parse_ruleset(doc)
    state = replay(GameSetup.create(rules, ["Ann", "Ben", "Cat"]),
                   [RoundRecord.create("Ann", {"Ben": "K", "Cat": "2"}, bonuses={"Ann": "shanghai"})])
    assert [p.total for p in state.players] == [-1000, 10, 2]


def test_the_presets_set_up_every_table_size_they_allow():
    for rules in (LIVERPOOL, PHASE10):
        for count in range(rules.min_players, rules.max_players + 1):
            setup = GameSetup.create(rules, [f"P{i}" for i in range(count)])
            assert (setup.decks, setup.jokers) == rules.suggested_decks(count)
    assert PHASE10.deck is Deck.PHASE10


def test_a_dealt_hand_limit_follows_each_deal():
    # Liverpool with hand_limit "dealt": 10 cards in deals 1 to 4, 12 from deal 5.
    rules = parse_ruleset(changed(PRESET_DOCUMENTS["liverpool"], hand_limit="dealt"))
    setup = GameSetup.create(rules, ["Ann", "Ben", "Cat"])
    eleven = "A A K K Q Q J J 10 10 9"
    with pytest.raises(RoundError, match="Round 1, Ben: 11 cards left, but a hand holds at most 10"):
        advance(start(setup), RoundRecord.create("Ann", {"Ben": eleven, "Cat": "2"}))
    four_deals = [RoundRecord.create("Ann", {"Ben": "2", "Cat": "2"})] * 4
    fifth = advance(replay(setup, four_deals), RoundRecord.create("Ann", {"Ben": eleven + " 9", "Cat": "2"}))
    assert fifth.rounds[-1].cards_dealt == 12 and fifth.player("Ben").penalties[-1] == 15 * 2 + 10 * 8 + 9 * 2


def test_every_preset_survives_pickling_unchanged():
    """Games and their rules travel between processes (the benchmark seeds in several)."""
    import pickle

    from scorekeeper.rules import PRESETS

    for rules in PRESETS.values():
        copy = pickle.loads(pickle.dumps(rules))
        assert copy == rules and dict(copy.values) == dict(rules.values)
        with pytest.raises(TypeError):
            copy.values["A"] = 1  # still read-only
