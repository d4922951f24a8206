"""The game file's version 2 (RULESETS.md, "In the game file"): rules as a preset's key or a
whole document, bonuses in rounds; exports always version 2; version 1 reads as before."""

import copy
import json

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper import store
from scorekeeper.files import transfer
from scorekeeper.files.transfer import export_game
from scorekeeper.files.gamefile import (
    GAME_FORMAT,
    GAME_FORMAT_1,
    IMPORTED_KEY,
    GameFileError,
    backup_document,
    game_document,
    read_document,
    read_game,
)
from scorekeeper.store.models import Game, db
from scorekeeper.rules import (
    BALMORAL,
    CLASSIC,
    LIVERPOOL,
    PHASE10,
    PRESET_DOCUMENTS,
    SHANGHAI,
    GameSetup,
    Progression,
    RoundError,
    RoundRecord,
    advance,
    document_text,
    ruleset_document,
    start,
)

# A Liverpool evening: in deal 1 Ann cuts the exact cards for the deal (perfect cut, -50) and
# goes out; Ben holds an ace, a king and a 7 (15 + 10 + 7), Cat a joker and a 2 (15 + 2).
# In deal 2 Ben goes out; Ann holds two fives.
LIVERPOOL_FILE = {
    "format": "scorekeeper-game/2",
    "rules": "liverpool",
    "players": ["Ann", "Ben", "Cat"],
    "first_dealer": "Ann",
    "started_at": "2026-11-29T19:05:00Z",
    "rounds": [
        {"went_out": "Ann", "hands": {"Ben": "A K 7", "Cat": "JK 2"}, "bonuses": {"Ann": ["perfect-cut"]}},
        {"went_out": "Ben", "hands": {"Ann": "5 5", "Cat": ""}},
    ],
}


def test_a_liverpool_game_with_a_perfect_cut_is_written_whole_and_read_back():
    doc = game_document(read_game(LIVERPOOL_FILE).state)
    assert doc["format"] == "scorekeeper-game/2"
    # The whole document, so the file carries its rules wherever it goes.
    assert doc["rules"] == dict(PRESET_DOCUMENTS["liverpool"])
    # Defaults from the rule set: its deck table (3 players: 2 decks, 4 jokers), its first dealer rule.
    assert (doc["decks"], doc["jokers"], doc["dealer_rule"]) == (2, 4, "rotate")
    assert doc["rounds"][0] == {"went_out": "Ann", "hands": {"Ben": "A K 7", "Cat": "JK 2"}, "points": {},
                                "bonuses": {"Ann": ["perfect-cut"]}}
    assert doc["rounds"][1]["bonuses"] == {}
    result = doc["result"]
    # The penalties hold the bonus: Ann's deal 1 is -50, and her total goes below zero.
    assert [(p["name"], p["penalties"], p["total"]) for p in result["players"]] == [
        ("Ann", [-50, 10], -40), ("Ben", [32, 0], 32), ("Cat", [17, 0], 17)]
    assert "completed" not in result["players"][0]  # deals, not a ladder
    assert result["rounds"] == [{"number": 1, "dealer": "Ann", "cards_dealt": 10},
                                {"number": 2, "dealer": "Ben", "cards_dealt": 10}]
    assert result["next"] == {"number": 3, "dealer": "Cat", "cards_dealt": 10}
    again = game_document(read_game(json.loads(json.dumps(doc))).state)
    assert again == doc


def test_an_imported_liverpool_game_keeps_its_rules_and_exports_the_same(app):
    with app.app_context():
        [outcome] = transfer.import_files(read_document(LIVERPOOL_FILE))
        game = db.session.get(Game, outcome.game_id)
        # A document equal to a preset's (or the preset's key) is that preset.
        assert game.rules == "liverpool"
        assert game.rules_document == document_text(LIVERPOOL)
        exported = export_game(outcome.game_id)
        gf = read_game(LIVERPOOL_FILE)
        assert exported == game_document(gf.state, gf.started_at)
        assert exported["result"]["players"][0]["total"] == -40
        # The export, uploaded again, is the same game: not stored twice.
        [again] = transfer.import_files(read_document(exported))
        assert (again.status, again.game_id) == (transfer.EXISTING, outcome.game_id)


def phase10_file():
    """Ben completes phase 10 in round 10; Cat, on 0, is lower but never got past phase 1."""
    rounds = [{"went_out": "Cat", "hands": {"Ann": "5", "Ben": "5"}, "achieved": ["Ben"]}]
    rounds += [{"went_out": "Ben", "hands": {"Ann": "5", "Cat": ""}} for _ in range(9)]
    return {"format": "scorekeeper-game/2", "rules": "phase10", "players": ["Ann", "Ben", "Cat"],
            "first_dealer": "Ann", "rounds": rounds}


def test_a_phase10_games_file():
    doc = game_document(read_game(phase10_file()).state)
    assert doc["rules"]["deck"] == "phase10" and doc["rules"]["winner"] == "lowest-finisher"
    assert (doc["decks"], doc["jokers"], doc["dealer_rule"]) == (1, 0, "rotate")
    assert doc["rounds"][0]["achieved"] == ["Ben", "Cat"]  # who went out achieved it too
    assert "bonuses" not in doc["rounds"][0]  # Phase 10 has none
    result = doc["result"]
    assert result["finished"] is True and result["next"] is None
    assert [(p["name"], p["total"], p["completed"]) for p in result["players"]] == [
        ("Ann", 50, 0), ("Ben", 5, 10), ("Cat", 0, 1)]
    # The lowest total does not win without phase 10.
    assert result["winners"] == ["Ben"]
    # Phase 10 ranks, written from the highest penalty down.
    hands = copy.deepcopy(phase10_file())
    hands["rounds"][0]["hands"]["Ann"] = "s 1 w 12"
    assert game_document(read_game(hands).state)["rounds"][0]["hands"]["Ann"] == "W S 12 1"


def test_a_version_1_file_imports_unchanged(app):
    v1 = {"format": "scorekeeper-game/1", "rules": "balmoral", "players": ["Ann", "Ben", "Cat", "Dev"],
          "first_dealer": "Ann", "started_at": "2026-11-29T19:05:00Z",
          "rounds": [{"went_out": "Ben", "hands": {"Ann": "A K 7 7", "Cat": "10 10 Q 2", "Dev": ""},
                      "achieved": ["Ben", "Dev"]}]}
    gf = read_game(v1)
    assert gf.setup.rules is BALMORAL
    doc = game_document(gf.state, gf.started_at)
    # Written as version 2 now; the same game, read either way.
    assert doc["format"] == GAME_FORMAT and doc["rules"] == ruleset_document(BALMORAL)
    assert read_game(doc).state == gf.state
    assert game_document(gf.state, gf.started_at, version=GAME_FORMAT_1)["rules"] == "balmoral"
    with app.app_context():
        [first] = transfer.import_files([gf])
        assert db.session.get(Game, first.game_id).rules == "balmoral"
        # Its version 2 export and the version 1 file are one game.
        [again] = transfer.import_files(read_document(doc))
        assert again.status == transfer.EXISTING


def test_a_document_equal_to_no_preset_is_kept_as_imported(app):
    family = {**ruleset_document(LIVERPOOL), "name": "Family Liverpool",
              "values": {**PRESET_DOCUMENTS["liverpool"]["values"], "A": 20}}
    doc = {**LIVERPOOL_FILE, "rules": family}
    gf = read_game(doc)
    assert gf.setup.rules.key == IMPORTED_KEY and gf.setup.rules.name == "Family Liverpool"
    # Ben's ace costs 20 at this table.
    assert gf.state.players[1].penalties == (37, 0)
    with app.app_context():
        [outcome] = transfer.import_files([gf])
        game = db.session.get(Game, outcome.game_id)
        assert game.rules == IMPORTED_KEY
        assert json.loads(game.rules_document) == family | {"stage_name": "Deal"}
        assert export_game(outcome.game_id)["rules"]["values"]["A"] == 20


def test_an_exported_hand_lists_the_costliest_card_first_by_the_games_own_values():
    """A table whose ace is worth 1 reads its aces last in the file: the file's hands go from
    the highest penalty to the lowest by the game's own values, not the standard rank order."""
    low_aces = {**ruleset_document(LIVERPOOL), "name": "Low aces",
                "values": {**PRESET_DOCUMENTS["liverpool"]["values"], "A": 1}}
    doc = game_document(read_game({**LIVERPOOL_FILE, "rules": low_aces}).state)
    assert doc["rounds"][0]["hands"] == {"Ben": "K 7 A", "Cat": "JK 2"}
    # The file reads back to the same game.
    assert game_document(read_game(doc).state)["rounds"] == doc["rounds"]


def test_a_backup_holds_games_of_either_version(app):
    v1 = {"format": "scorekeeper-game/1", "rules": "classic", "players": ["Ann", "Ben", "Cat"],
          "first_dealer": "Ann", "rounds": [{"went_out": "Ann", "hands": {"Ben": "K", "Cat": "JK"}}]}
    backup = backup_document([v1, LIVERPOOL_FILE, phase10_file()])
    with app.app_context():
        outcomes = transfer.import_files(read_document(backup))
        assert [o.status for o in outcomes] == [transfer.NEW] * 3
        keys = list(db.session.scalars(select(Game.rules).order_by(Game.id)))
        assert keys == ["classic", "liverpool", "phase10"]
        out = transfer.backup()
    assert [g["format"] for g in out["games"]] == [GAME_FORMAT] * 3
    assert [g["rules"]["name"] for g in out["games"]] == ["Contract Rummy (classic)", "Liverpool Rummy", "Phase 10"]


def mutate(doc, *path, value):
    doc = copy.deepcopy(doc)
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


NO_TWO = {k: v for k, v in PRESET_DOCUMENTS["liverpool"]["values"].items() if k != "2"}


@pytest.mark.parametrize("doc, message, field", [
    (mutate(LIVERPOOL_FILE, "rules", value={**PRESET_DOCUMENTS["liverpool"], "values": NO_TWO}),
     "rules: values: no value for 2", "rules"),
    (mutate(LIVERPOOL_FILE, "rules", value={**PRESET_DOCUMENTS["liverpool"], "bonus": []}),
     "rules: bonus: is not a field of a rule set", "rules"),
    (mutate(LIVERPOOL_FILE, "rules", value={**PRESET_DOCUMENTS["phase10"],
                                            "stages": [{"contract": "2 sets of 3", "cards": 10},
                                                       {"contract": "1 run of 7", "cards": 11}]}),
     "rules: stages: stage 2 deals 11 cards but a ladder deals the same number every stage", "rules"),
    (mutate(LIVERPOOL_FILE, "rules", value="gin"), 'unknown rule set "gin"', "rules"),
    (mutate(LIVERPOOL_FILE, "rules", value="house-1"), 'unknown rule set "house-1"', "rules"),
    (mutate(LIVERPOOL_FILE, "rules", value=["liverpool"]), "a preset's key or a whole rule-set document", "rules"),
    (mutate(LIVERPOOL_FILE, "rounds", 0, "bonuses", value={"Ann": ["sweep"]}),
     'Round 1, Ann: "sweep" is not a bonus of Liverpool Rummy (its bonuses are perfect-cut)', "bonuses"),
    (mutate(LIVERPOOL_FILE, "rounds", 0, "bonuses", value={"Ann": ["perfect-cut", "perfect-cut"]}),
     'Round 1, Ann: "perfect-cut" is given twice, but a bonus counts at most once a round', "bonuses"),
    (mutate(LIVERPOOL_FILE, "rounds", 0, "bonuses", value={"Zed": ["perfect-cut"]}),
     'Round 1: "Zed" is not at the table, so cannot have earned a bonus', "bonuses"),
    (mutate(LIVERPOOL_FILE, "rounds", 0, "bonuses", value={"Ann": "perfect-cut"}),
     "Round 1: Ann: bonuses must be a list of bonus keys", "bonuses"),
    (mutate(LIVERPOOL_FILE, "rounds", 0, "bonuses", value=["Ann"]),
     'Round 1: "bonuses" must be an object of player: a list of bonus keys', "bonuses"),
    (mutate(phase10_file(), "rounds", 0, "hands", "Ann", value="5 JK"), 'Round 1: Ann: "JK" is not a card', "hands"),
    (mutate(phase10_file(), "rounds", 0, "hands", "Ann", value="13"), 'Round 1: Ann: "13" is not a card', "hands"),
    (mutate(phase10_file(), "rounds", 0, "hands", "Ann", value="5 " * 9),
     "Round 1, Ann: that makes 9 × 5 in this round, but 1 deck", "hands"),
    (mutate(LIVERPOOL_FILE, "format", value="scorekeeper-game/1"), 'unknown rule set "liverpool"', "rules"),
    (mutate({**LIVERPOOL_FILE, "format": "scorekeeper-game/1", "rules": "classic"}, "rounds", 0, "bonuses",
            value={"Ann": ["perfect-cut"]}), 'Round 1: unknown field "bonuses"', "bonuses"),
])
def test_refusals_name_the_field_round_and_player(doc, message, field):
    with pytest.raises(GameFileError) as refused:
        read_document(doc)
    assert message in str(refused.value), str(refused.value)
    assert refused.value.field == field


def test_a_backup_refuses_a_bad_version_2_game_by_its_number():
    bad = mutate(LIVERPOOL_FILE, "rounds", 1, "bonuses", value={"Cat": ["blind"]})
    with pytest.raises(GameFileError, match=r'Game 2 of the backup: Round 2, Cat: "blind" is not a bonus'):
        read_document(backup_document([LIVERPOOL_FILE, bad]))


# ------------------------------------------------------------------ property

NAMES = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay"]


@st.composite
def games(draw):
    """A game of any preset, its rounds drawn as a table could record them (bonuses too)."""
    rules = draw(st.sampled_from([BALMORAL, CLASSIC, LIVERPOOL, SHANGHAI, PHASE10]))
    players = NAMES[: draw(st.integers(rules.min_players, min(rules.max_players, 6)))]
    setup = GameSetup.create(rules, players, first_dealer=draw(st.sampled_from(players)),
                             dealer_rule=draw(st.sampled_from(rules.dealer_rules)))
    state = start(setup)
    ranks = [r for r in rules.ranks if r.value != "JK"]
    for _ in range(draw(st.integers(0, 11))):
        if state.finished:
            break
        went_out = draw(st.sampled_from(players))
        hands, points = {}, {}
        for p in players:
            if p != went_out:
                if draw(st.booleans()):
                    hands[p] = " ".join(r.value for r in draw(st.lists(st.sampled_from(ranks), max_size=3)))
                else:
                    points[p] = draw(st.integers(0, 40))
        ladder = rules.progression is Progression.LADDER
        achieved = draw(st.lists(st.sampled_from(players), unique=True, max_size=3)) if ladder else []
        keys = [b.key for b in rules.bonuses]
        bonuses = {p: draw(st.sets(st.sampled_from(keys), max_size=2)) for p in players
                   if keys and draw(st.booleans())}
        record = RoundRecord.create(went_out, hands, points, achieved, bonuses, deck=rules.deck)
        try:
            state = advance(state, record)
        except RoundError:
            continue  # a round the rules refuse is dealt again
    return game_document(state)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=games())
def test_an_exported_game_imports_to_the_same_result(app, doc):
    assert game_document(read_game(json.loads(json.dumps(doc))).state) == doc
    with app.app_context():
        (game_id,) = store.import_games(read_document(doc))
        exported = export_game(game_id)
    assert exported["result"] == doc["result"]
    assert exported["rounds"] == doc["rounds"]
    assert exported["rules"] == doc["rules"]
