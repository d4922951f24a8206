"""The game file: import, export, refusals; the command line; and the store."""

import copy
import json
import re

import pytest
from conftest import examples, join
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from scorekeeper import create_app, store
from scorekeeper.files.transfer import export_game
from scorekeeper.files.gamefile import GameFileError, game_document, read_document, read_game
from scorekeeper.store.models import Game, HandEntry, Player, Round, db
from scorekeeper.rules import BALMORAL, CLASSIC, GameSetup, Hand, RoundError, RoundRecord, advance, start

EXAMPLE = {
    "format": "scorekeeper-game/1",
    "rules": "balmoral",
    "players": ["Ann", "Ben", "Cat", "Dev"],
    "first_dealer": "Ann",
    "dealer_rule": "winner",
    "decks": 2,
    "jokers": 0,
    "started_at": "2026-11-29T19:05:00Z",
    "rounds": [
        {
            "went_out": "Ben",
            "hands": {"Ann": "A K 7 7", "Cat": "10 10 Q 2", "Dev": ""},
            "achieved": ["Ben", "Dev"],
            "points": {},
        }
    ],
}


def test_the_format_example_reads_to_the_documented_result():
    doc = game_document(read_game(EXAMPLE).state)
    result = doc["result"]
    assert result["finished"] is False and result["winners"] == []
    assert result["players"][0] == {"name": "Ann", "total": 39, "completed": 0, "penalties": [39]}
    assert result["players"][1] == {"name": "Ben", "total": 0, "completed": 1, "penalties": [0]}
    assert result["rounds"] == [{"number": 1, "dealer": "Ann", "cards_dealt": 13}]
    assert result["next"] == {"number": 2, "dealer": "Ben", "cards_dealt": 13}


def test_defaults_and_lenient_ranks():
    doc = {
        "format": "scorekeeper-game/1",
        "rules": "classic",
        "players": ["Ann", "Ben", "Cat"],
        "first_dealer": "ben",
        "rounds": [{"went_out": "ann", "hands": {"ben": "t joker *", "Cat": "a"}}],
    }
    with pytest.raises(GameFileError, match="Round 1, Ben: that makes 2 × Joker in this round, but 1 joker"):
        read_game(doc)
    gf = read_game({**doc, "rounds": []})
    assert (gf.setup.decks, gf.setup.jokers, gf.setup.dealer_rule.value) == (2, 1, "rotate")
    assert gf.setup.first_dealer == "Ben"
    ok = read_game({**doc, "jokers": 2})
    out = game_document(ok.state)
    assert out["rounds"][0]["hands"] == {"Ben": "JK JK 10", "Cat": "A"}
    assert out["result"]["players"][1]["total"] == 40
    assert "completed" not in out["result"]["players"][0]


def mutate(path, value):
    doc = copy.deepcopy(EXAMPLE)
    target = doc
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    "doc, words",
    [
        ([], "must be a JSON object"),
        (mutate(["format"], "scorekeeper-game/3"), "format"),  # version 2 is read too (RULESETS.md)
        (mutate(["rules"], "gin"), 'unknown rule set "gin"'),
        (mutate(["players"], ["Ann", "ann"]), "at the table twice"),
        (mutate(["first_dealer"], "Zed"), "first dealer"),
        (mutate(["rounds"], KeyError), '"rounds" must be a list'),
        (mutate(["rounds", 0, "went_out"], "Zed"), 'Round 1: "Zed" is not at the table'),
        (mutate(["rounds", 0, "hands", "Ann"], "A K X"), 'Round 1: Ann: "X" is not a card'),
        (mutate(["rounds", 0, "hands", "Ben"], "K"), "Round 1, Ben: went out"),
        (mutate(["rounds", 0, "hands", "Cat"], "K " * 14), "Round 1, Cat: 14 cards"),
        (mutate(["rounds", 0, "hands", "Zed"], "K"), '"Zed" is not at the table'),
        (mutate(["rounds", 0, "points"], {"Cat": 5}), "Round 1, Cat: has both cards and a points total"),
        (mutate(["rounds", 0, "points"], {"Cat": "5"}), "Cat: points must be a whole number"),
        (mutate(["rounds", 0, "surprise"], 1), 'unknown field "surprise"'),
        (mutate(["started_at"], "yesterday"), "ISO 8601"),
        (mutate(["jokers"], 2), "without jokers"),
    ],
)
def test_invalid_files_are_refused_with_a_message(doc, words):
    with pytest.raises(GameFileError, match=words.replace("(", r"\(")):
        read_document(doc)


def finished_balmoral():
    doc = copy.deepcopy(EXAMPLE)
    doc["rounds"] = [
        {"went_out": "Ann", "hands": {"Ben": "2", "Cat": "3", "Dev": "K"}, "achieved": ["Cat"]} for _ in range(7)
    ]
    return doc


def test_a_round_after_the_end_is_refused():
    doc = finished_balmoral()
    assert read_game(doc).state.finished
    doc["rounds"].append(doc["rounds"][0])
    with pytest.raises(GameFileError, match="Round 8: the game ended after round 7"):
        read_game(doc)


# ------------------------------------------------------------------ store + CLI


def write(tmp_path, doc, name="game.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def counts():
    return tuple(db.session.scalar(select(func.count()).select_from(m)) for m in (Player, Game, Round, HandEntry))


def ids_printed(output: str) -> list[str]:
    return [line for line in output.split() if line.isdigit()]


def test_an_edit_link_from_the_command_line_lets_a_phone_take_over_an_imported_game(app, runner, client, tmp_path):
    game_id = int(runner.invoke(args=["games", "import", write(tmp_path, finished_balmoral())]).output.strip())
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/players/").text).group(1)
    # Nobody holds the key of a game imported here: the web refuses to delete it ...
    assert client.post(f"/games/{game_id}/delete", data={"csrf_token": token}).status_code == 403
    first = runner.invoke(args=["games", "edit-link", str(game_id), "--base-url", "http://192.168.1.5:8000"])
    assert first.exit_code == 0, first.output
    link = first.output.strip()
    # The key travels after "#": no server (nor its access log) ever sees it.
    assert link.startswith(f"http://192.168.1.5:8000/games/{game_id}/join#key=")
    second = runner.invoke(args=["games", "edit-link", str(game_id)]).output.strip()
    assert second.startswith(f"http://localhost:8000/games/{game_id}/join#key=")
    # ... a second link revokes the first ...
    assert join(client, game_id, link.partition("#key=")[2]).status_code == 403
    # ... and the phone that opens the newest may delete it.
    assert join(client, game_id, second.partition("#key=")[2]).status_code == 303
    assert client.post(f"/games/{game_id}/delete", data={"csrf_token": token}).status_code == 303
    with app.app_context():
        assert db.session.get(Game, game_id).deleted_at is not None
    for game in ("999", "99999999999999999999"):
        missing = runner.invoke(args=["games", "edit-link", game])
        assert missing.exit_code == 1 and f"no game {game}" in missing.output
    # An address a phone cannot open is refused before the key changes: the last link still works.
    for base in ("192.168.1.5:8000", "http://h:99999", "https://[::1", "ftp://h"):
        refused = runner.invoke(args=["games", "edit-link", str(game_id), "--base-url", base])
        assert refused.exit_code == 2 and "--base-url" in refused.output, (base, refused.output)
    other = app.test_client()
    assert join(other, game_id, second.partition("#key=")[2]).status_code == 303


def test_cli_import_export_round_trip(app, runner, tmp_path):
    result = runner.invoke(args=["games", "import", write(tmp_path, finished_balmoral())])
    assert result.exit_code == 0, result.output
    game_id = int(result.output.strip())
    exported = runner.invoke(args=["games", "export", str(game_id)])
    doc = json.loads(exported.output)
    assert doc["result"]["finished"] is True
    assert doc["result"]["winners"] == ["Ann"]
    assert doc["result"]["players"][2]["completed"] == 7
    assert "finished_at" in doc
    # The export imports into a fresh database to the same result.
    fresh = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'fresh.sqlite'}"})
    with fresh.app_context():
        db.create_all()
    again = fresh.test_cli_runner().invoke(args=["games", "import", write(tmp_path, doc, "again.json")])
    assert again.exit_code == 0, again.output
    with fresh.app_context():
        second = int(again.output.strip())
        assert export_game(second)["result"] == doc["result"]
        assert export_game(second)["rounds"] == doc["rounds"]
        assert db.session.scalar(select(func.count()).select_from(Player)) == 4
        db.engine.dispose()


def test_cli_backup_round_trip(app, runner, tmp_path):
    runner.invoke(args=["games", "import", write(tmp_path, EXAMPLE)])
    runner.invoke(args=["games", "import", write(tmp_path, finished_balmoral(), "b.json")])
    backup = json.loads(runner.invoke(args=["games", "export", "--all"]).output)
    assert backup["format"] == "scorekeeper-backup/1" and len(backup["games"]) == 2
    fresh = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'fresh.sqlite'}"})
    with fresh.app_context():
        db.create_all()
    result = fresh.test_cli_runner().invoke(args=["games", "import", write(tmp_path, backup, "backup.json")])
    assert ids_printed(result.output) == ["1", "2"]
    with fresh.app_context():
        assert [export_game(i)["result"] for i in (1, 2)] == [g["result"] for g in backup["games"]]
        db.engine.dispose()


def test_cli_refusal_leaves_the_database_as_it_was(app, runner, tmp_path):
    runner.invoke(args=["games", "import", write(tmp_path, EXAMPLE)])
    with app.app_context():
        before = counts()
    bad = finished_balmoral()
    bad["rounds"][5]["hands"]["Dev"] = "K K K K K K K K K"
    backup = {"format": "scorekeeper-backup/1", "games": [EXAMPLE, bad]}
    result = runner.invoke(args=["games", "import", write(tmp_path, backup)])
    assert result.exit_code != 0
    assert "Game 2 of the backup: Round 6, Dev: that makes 9 × K" in result.output
    with app.app_context():
        assert counts() == before
    (tmp_path / "broken.json").write_text("{not json")
    result = runner.invoke(args=["games", "import", str(tmp_path / "broken.json")])
    assert result.exit_code != 0 and "not a JSON document" in result.output
    result = runner.invoke(args=["games", "export", "99"])
    assert result.exit_code != 0 and "no game 99" in result.output


NAMES = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay"]


@st.composite
def game_files(draw):
    rules = draw(st.sampled_from([BALMORAL, CLASSIC]))
    players = NAMES[: draw(st.integers(max(3, rules.min_players), 6))]
    setup = GameSetup.create(rules, players, first_dealer=draw(st.sampled_from(players)))
    state = start(setup)
    for _ in range(draw(st.integers(0, 9))):
        if state.finished:
            break
        went_out = draw(st.sampled_from(players))
        hands, points = {}, {}
        for p in players:
            if p != went_out:
                if draw(st.booleans()):
                    hands[p] = Hand.of(draw(st.lists(st.sampled_from(rules.ranks[:12]), max_size=4)))
                else:
                    points[p] = draw(st.integers(2, 60))
        ach = draw(st.lists(st.sampled_from(players), unique=True, max_size=4)) if rules is BALMORAL else []
        try:
            state = advance(state, RoundRecord(went_out, hands, points, frozenset(ach)))
        except RoundError:  # more of a rank than the pack holds, say: that round is not played
            continue
    return game_document(state, with_result=True)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=game_files())
def test_any_valid_game_imports_and_exports_to_the_same_result(app, doc):
    with app.app_context():
        (game_id,) = store.import_games(read_document(doc))
        exported = export_game(game_id)
        assert exported["result"] == doc["result"]
        assert exported["rounds"] == doc["rounds"]
