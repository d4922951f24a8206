"""The JSON API fuzzed from its own OpenAPI document with schemathesis: the one suite that holds
the app to its description.

The schema is read from the running app (``/api/openapi.json`` over WSGI, no network).
Every operation gets requests that fit the schema and requests that break it, with a real
game and its edit key or with whatever schemathesis makes up, plus round and game bodies a
card table (or an attacker) would send. Every answer must be no 5xx, a status, content type,
headers and body that the schema lists, and (for data that breaks the schema) a refusal.
A refused request must store nothing, and nothing stored may outgrow its database column.

schemathesis' pytest loader for a schema made in a fixture (``schemathesis.pytest.from_fixture``)
fails on pytest 9.2 (it sets ``Function._nodeid``, which pytest no longer has), so each
operation's strategy (``APIOperation.as_strategy``) drives an ordinary Hypothesis test here,
with the checks the loader would run and a fixed order of examples (``derandomize``).

What only ``schemathesis run`` does is asked of it once, at the end of this file, against the
app served as `make run` serves it: every check, over real HTTP, in the phases the tests above do
not have (the description's examples, its boundary values, and the stateful phase that follows
its links from a created game to its rounds). Its own fuzzing phase would send again, without
keys and with fewer examples, what the tests above send.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
import schemathesis
from conftest import CLUB_KEY, examples
from fuzz_inputs import PLAYERS, near_game, near_round
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import load_all_checks
from server import ROOT, AppServer
from sqlalchemy import func, select

from scorekeeper import store
from scorekeeper.store.models import Game, HandEntry, Player, Round, Seat, db
from scorekeeper.rules.cards import MAX_HAND_TEXT
from scorekeeper.rules.replay import MAX_NAME

pytestmark = pytest.mark.schemathesis

load_all_checks()
from schemathesis.checks import (  # noqa: E402  (registered by load_all_checks)
    content_type_conformance,
    ignored_auth,
    negative_data_rejection,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    ignored_auth,
]

#: Examples per operation and variant (13 fuzz tests, the slowest part of the suite outside the browser).
EXAMPLES = examples(30)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same requests on every run: a CI failure is reproducible
    database=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)

ROUNDS = [
    {"went_out": "Ben", "hands": {"Ann": "A K 7 7", "Cat": "10 10 Q 2", "Dev": ""}, "achieved": ["Dev"]},
    {"went_out": "Ann", "hands": {"Ben": "3"}, "points": {"Cat": 20, "Dev": 0}},
    {"went_out": "Dev", "hands": {"Ann": "J", "Ben": "5 5", "Cat": "9"}, "achieved": ["Cat"]},
]
#: The game every write is made on: three rounds recorded, so corrections have rounds to change.
GAME = {"format": "scorekeeper-game/1", "rules": "balmoral", "players": PLAYERS, "first_dealer": "Ann",
        "rounds": ROUNDS}


@dataclass
class Api:
    app: object
    client: object
    schema: object

    def new_game(self) -> tuple[int, str]:
        """A fresh copy of GAME for one example, so that every example starts alike."""
        response = self.client.post("/api/games", json=GAME)
        assert response.status_code == 201, response.text
        body = response.get_json()
        return body["id"], body["edit_key"]

    def stored(self) -> tuple:
        """What the database holds, to show that a refused request stored nothing."""
        with self.app.app_context():
            counts = tuple(db.session.scalar(select(func.count()).select_from(model))
                           for model in (Game, Seat, Round, HandEntry, Player))
            versions = db.session.scalar(select(func.sum(Game.version)))
            return counts + (versions,)

    def assert_columns_hold_what_was_stored(self) -> None:
        """SQLite stores a string of any length; PostgreSQL refuses one longer than its column."""
        with self.app.app_context():
            longest_key = db.session.scalar(select(func.max(func.length(Player.name_key)))) or 0
            longest_name = db.session.scalar(select(func.max(func.length(Player.name)))) or 0
            longest_hand = db.session.scalar(select(func.max(func.length(HandEntry.cards)))) or 0
        assert longest_name <= MAX_NAME and longest_key <= MAX_NAME, (longest_name, longest_key)
        assert longest_hand <= MAX_HAND_TEXT, longest_hand


@pytest.fixture
def api(app):
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    return Api(app, app.test_client(), schema)


def run(api: Api, case, fill_game: bool, fill_key: bool, fill_some_game: bool = False) -> None:
    """Send one case, on a fresh game where the variant says so, and hold the answer to the schema.

    ``fill_game`` puts the fresh game's id in the path, ``fill_some_game`` only where the
    strategy fixed the id (elsewhere schemathesis made one up), ``fill_key`` its edit key.
    """
    fixed_id = case.path_parameters and case.path_parameters.get("game_id") == 1
    if fill_game or fill_key or fill_some_game:
        game_id, key = api.new_game()
        if fill_game or (fill_some_game and fixed_id):
            case.path_parameters["game_id"] = game_id
        if fill_key:
            case.headers["Authorization"] = f"Bearer {key}"
            if case.headers.get("If-Match") == "current":
                case.headers["If-Match"] = api.client.get(f"/api/games/{game_id}").headers["ETag"]
    before = api.stored()
    # schemathesis' WSGI transport does not undo Content-Encoding, which an HTTP client would.
    response = case.call_and_validate(checks=CHECKS, headers={"Accept-Encoding": "identity"})
    if 400 <= response.status_code < 500:
        assert api.stored() == before, f"{response.status_code} refused, yet something was stored"
        assert response.json()["error"]["message"]
    api.assert_columns_hold_what_was_stored()


MODES = st.sampled_from([GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
PLACEHOLDER = {"Authorization": "Bearer the-real-key"}


def operation(api: Api, method: str, path: str):
    return api.schema[path][method]


def fuzz(api: Api, strategy, fill_game: bool, fill_key: bool, fill_some_game: bool = False) -> None:
    @FUZZ
    @given(case=strategy)
    def test(case):
        run(api, case, fill_game, fill_key, fill_some_game)

    test()


# ------------------------------------------------------------------ createGame


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_create_game_from_the_schema(api, mode):
    op = operation(api, "POST", "/api/games")
    fuzz(api, op.as_strategy(mode), fill_game=False, fill_key=False)


def test_create_game_from_near_game_files(api):
    """Valid game files (odd names and all) with hostile mutations: stored whole or refused whole."""
    op = operation(api, "POST", "/api/games")
    fuzz(api, near_game().flatmap(lambda body: op.as_strategy(body=body)), fill_game=False, fill_key=False)


# --------------------------------------------------------------------- getGame


def test_get_game(api):
    """Any id schemathesis makes up, and (with the same requests otherwise) a real game."""
    op = operation(api, "GET", "/api/games/{game_id}")
    strategy = st.tuples(MODES, st.booleans()).flatmap(
        lambda mr: op.as_strategy(mr[0], path_parameters={"game_id": 1} if mr[1] else None))
    fuzz(api, strategy, fill_game=False, fill_key=False, fill_some_game=True)


# --------------------------------------------------------- recordRound, replaceRound, deleteRound

WRITES = [
    ("POST", "/api/games/{game_id}/rounds"),
    ("PUT", "/api/games/{game_id}/rounds/{number}"),
    ("DELETE", "/api/games/{game_id}/rounds/{number}"),
]
#: Round numbers: mostly rounds the game has (1 to 3), the next one, and any number at all.
NUMBERS = st.one_of(st.integers(1, 4), st.integers(1, 4), st.integers(min_value=1))


def _path(op, number) -> dict:
    return {"game_id": 1, "number": number} if "{number}" in op.path else {"game_id": 1}


@pytest.mark.parametrize("method, path", WRITES)
def test_writes_with_the_edit_key(api, method, path):
    """The real game and its key: the body, the round number and If-Match are made up."""
    op = operation(api, method, path)
    strategy = st.tuples(MODES, NUMBERS).flatmap(
        lambda mn: op.as_strategy(mn[0], path_parameters=_path(op, mn[1]), headers=dict(PLACEHOLDER)))
    fuzz(api, strategy, fill_game=True, fill_key=True)


@pytest.mark.parametrize("method, path", WRITES)
def test_writes_by_strangers(api, method, path):
    """A real game (or any id) without its key, with made-up credentials or none: refused."""
    op = operation(api, method, path)
    strategy = st.tuples(MODES, NUMBERS, st.booleans()).flatmap(
        lambda mnr: op.as_strategy(mnr[0], path_parameters=_path(op, mnr[1]) if mnr[2] else None))
    fuzz(api, strategy, fill_game=False, fill_key=False, fill_some_game=True)


@pytest.mark.parametrize("method, path", WRITES[:2])
def test_rounds_from_the_table(api, method, path):
    """Rounds close to real ones (real names, card strings, a few hostile values) reach the rules."""
    op = operation(api, method, path)
    if_match = st.sampled_from([None, None, "current", '"api-g1-v0"', "*", "garbage", '"api-g1-v99999999999"'])
    strategy = st.tuples(near_round(numbered=method == "POST"), NUMBERS, if_match).flatmap(
        lambda b: op.as_strategy(
            body=b[0],
            path_parameters=_path(op, b[1]),
            headers={**PLACEHOLDER, **({"If-Match": b[2]} if b[2] and "{number}" in op.path else {})},
        )
    )
    fuzz(api, strategy, fill_game=True, fill_key=True)


# ------------------------------------------- seat links, hands sent, "that's not my hand"

SEATS = [
    ("POST", "/api/games/{game_id}/seat-links"),
    ("GET", "/api/games/{game_id}/hands"),
    ("PUT", "/api/games/{game_id}/hands/{seat}"),
    ("POST", "/api/games/{game_id}/rounds/{number}/flags/{seat}"),
]


def _seat_path(op, number, seat) -> dict:
    return {"game_id": 1, **({"number": number} if "{number}" in op.path else {}),
            **({"seat": seat} if "{seat}" in op.path else {})}


@pytest.mark.parametrize("method, path", SEATS)
def test_seat_operations_with_the_edit_key(api, method, path):
    """The real game and its edit key (which may send any seat's hand): the rest made up."""
    op = operation(api, method, path)
    strategy = st.tuples(MODES, NUMBERS, st.integers(0, 5)).flatmap(
        lambda mns: op.as_strategy(mns[0], path_parameters=_seat_path(op, mns[1], mns[2]), headers=dict(PLACEHOLDER)))
    fuzz(api, strategy, fill_game=True, fill_key=True)


@pytest.mark.parametrize("method, path", SEATS)
def test_seat_operations_by_strangers(api, method, path):
    op = operation(api, method, path)
    strategy = st.tuples(MODES, NUMBERS, st.booleans()).flatmap(
        lambda mnr: op.as_strategy(mnr[0], path_parameters=_seat_path(op, mnr[1], 0) if mnr[2] else None))
    fuzz(api, strategy, fill_game=False, fill_key=False, fill_some_game=True)


# ------------------------------------------------------------------ importFiles, backup (the club's)


@pytest.mark.parametrize("club", [True, False], ids=["keeper", "stranger"])
def test_import_files(api, club):
    """Game files and backups made up from the schema, by the keeper (with the club key) and by
    strangers (none, or a made-up one): stored whole or refused whole; a stranger's always refused."""
    op = operation(api, "POST", "/api/import")
    strategy = MODES.flatmap(lambda mode: op.as_strategy(mode, headers={"Authorization": f"Bearer {CLUB_KEY}"}
                                                         if club else None))
    fuzz(api, strategy, fill_game=False, fill_key=False)


@pytest.mark.parametrize("club", [True, False], ids=["keeper", "stranger"])
def test_backup(api, club):
    op = operation(api, "GET", "/api/backup")
    api.new_game()
    strategy = MODES.flatmap(lambda mode: op.as_strategy(mode, headers={"Authorization": f"Bearer {CLUB_KEY}"}
                                                         if club else None))
    fuzz(api, strategy, fill_game=False, fill_key=False)


# ------------------------------------------------------------------ ratings


def test_ratings(api):
    """Any filters schemathesis makes up (valid ones and not): the leaderboard or a 400 that says
    which filter is wrong, never a 500."""
    op = operation(api, "GET", "/api/ratings")
    api.new_game()
    fuzz(api, MODES.flatmap(lambda mode: op.as_strategy(mode)), fill_game=False, fill_key=False)


# ------------------------------------------------------------------ club nights


@pytest.mark.parametrize("path", ["/api/nights", "/api/nights/{night_id}"])
def test_nights(api, path):
    """Any night id schemathesis makes up, with a night of two tables stored: the night or a
    404, never a 500."""
    with api.app.app_context():
        night, _key = store.open_night("balmoral", date(2026, 12, 3))
        store.check_in(night.id, ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"])
        store.draw_night(night.id, random.Random(1))
        store.start_table(night.id, 1, random.Random(1))
    op = operation(api, "GET", path)
    fuzz(api, MODES.flatmap(lambda mode: op.as_strategy(mode)), fill_game=False, fill_key=False)


# ------------------------------------------------------------------ rule sets


def test_rulesets(api):
    op = operation(api, "GET", "/api/rulesets")
    fuzz(api, MODES.flatmap(lambda mode: op.as_strategy(mode)), fill_game=False, fill_key=False)


@pytest.mark.parametrize("club", [True, False], ids=["keeper", "stranger"])
def test_save_ruleset(api, club):
    """Documents made up from the schema, by the keeper and by strangers: saved, or refused
    with the field named; a stranger's always refused."""
    op = operation(api, "POST", "/api/rulesets")
    strategy = MODES.flatmap(lambda mode: op.as_strategy(mode, headers={"Authorization": f"Bearer {CLUB_KEY}"}
                                                         if club else None))
    fuzz(api, strategy, fill_game=False, fill_key=False)


def test_every_operation_is_fuzzed(api):
    """A new operation in the document must be added to the tests above."""
    fuzzed = {("POST", "/api/games"), ("GET", "/api/games/{game_id}"), *WRITES, *SEATS, ("POST", "/api/import"),
              ("GET", "/api/backup"), ("GET", "/api/ratings"), ("GET", "/api/rulesets"), ("POST", "/api/rulesets"),
              ("GET", "/api/nights"), ("GET", "/api/nights/{night_id}")}
    listed = {(r.ok().method.upper(), r.ok().path) for r in api.schema.get_all_operations()}
    assert listed == fuzzed


# ------------------------------------------------------------------ worked cases

NEW = {**GAME, "rounds": []}
CLASSIC = {**NEW, "rules": "classic", "decks": 8, "jokers": 8}


def seated(*names: str) -> dict:
    return {**NEW, "players": [*names, "Ben"], "first_dealer": "Ben"}


def one_round(hands: dict, points: dict | None = None, game: dict = NEW) -> dict:
    return {**game, "rounds": [{"went_out": "Ann", "hands": {"Cat": "", "Dev": "", **hands}, "points": points or {}}]}


#: Game files refused, and the field the refusal names (None: the message names no field).
GAMES_REFUSED = {
    "a time before the year 1 in UTC": ({**NEW, "started_at": "0001-01-01T00:00:00+01:00"}, None),
    "a time after the year 9999 in UTC": ({**NEW, "finished_at": "9999-12-31T23:59:59-01:00"}, None),
    "a result that is no object": ({**NEW, "result": "Ann won"}, "result"),
    "a name that folds longer than 40": (seated("ß" * 40), "players"),
    "a 41-character name": (seated("x" * 41), "players"),
    "a name with a bidi override": (seated("Ann\u202e"), "players"),
    "a name with a NUL": (seated("A\x00nn"), "players"),
    "a name with a zero-width space": (seated("Ann\u200b"), "players"),
    "a name with a lone surrogate": (seated("\ud800x"), "players"),
    "390 cards in 390 characters": (one_round({"Ben": "tajqk98765432" * 30}, game=CLASSIC), "hands"),
    "a hand of 5000 characters": (one_round({"Ben": "K" * 5000}), "hands"),
    "a hand of markup": (one_round({"Ben": "<script>alert(1)</script>"}), "hands"),
    "huge points": (one_round({}, {"Ben": 10**30}), "points"),
    "negative points": (one_round({}, {"Ben": -5}), "points"),
    "points as text": (one_round({}, {"Ben": "1e9"}), "points"),
    "points as a fraction": (one_round({}, {"Ben": 1.5}), "points"),
    "decks as a huge number": ({**NEW, "decks": 99999999999999}, "decks"),
    "jokers negative": ({**CLASSIC, "jokers": -1}, "jokers"),
    "an SQL fragment for the rules": ({**NEW, "rules": "balmoral'; DROP TABLE game;--"}, "rules"),
    "players as a string": ({**NEW, "players": "Ann, Ben"}, "players"),
}


@pytest.mark.parametrize("body, field", GAMES_REFUSED.values(), ids=GAMES_REFUSED.keys())
def test_hostile_game_files_are_refused_with_a_message(api, body, field):
    op = operation(api, "POST", "/api/games")
    before = api.stored()
    response = op.Case(body=body).call_and_validate(checks=CHECKS, headers={"Accept-Encoding": "identity"})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["message"] and error.get("field") == field, error
    assert api.stored() == before


def test_the_worked_cases_differ_from_a_valid_game_only_where_they_say(api):
    """Each refused file above is a valid one with one thing changed: the valid ones are stored."""
    for body in (NEW, seated("Zoë"), one_round({"Ben": "K K"}), one_round({}, {"Ben": 20}),
                 one_round({"Ben": "tajqk98765432" * 2}, game=CLASSIC), {**NEW, "result": {}}):
        assert api.client.post("/api/games", json=body).status_code == 201, body


def test_markup_and_sql_in_names_are_stored_as_typed(api):
    names = ["<script>alert(1)</script>", "'; DROP TABLE player;--", "Zoë", "x" * 40]
    game = {**GAME, "players": names, "first_dealer": names[1], "rounds": []}
    created = api.client.post("/api/games", json=game)
    assert created.status_code == 201
    fetched = api.client.get(f"/api/games/{created.get_json()['id']}")
    assert fetched.get_json()["players"] == names
    assert fetched.mimetype == "application/json" and fetched.headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("data, status", [
    ("[" * 100_000 + "]" * 100_000, 400),  # nested deeper than the parser goes
    (b"{\"format\": \"\xff\xfe\"}", 400),  # not UTF-8
    ("{" + " " * (2 * 1024 * 1024) + "}", 413),  # over MAX_CONTENT_LENGTH
    ("NaN", 422),
])
def test_raw_bodies_are_refused_and_answered_in_json(api, data, status):
    game_id, key = api.new_game()
    op = operation(api, "POST", "/api/games/{game_id}/rounds")
    before = api.stored()
    for url, headers in (("/api/games", {}), (f"/api/games/{game_id}/rounds", {"Authorization": f"Bearer {key}"})):
        response = api.client.post(url, data=data, content_type="application/json", headers=headers)
        assert response.status_code == status, (url, response.text)
        assert response.get_json()["error"]["message"]
        op.Case(path_parameters={"game_id": game_id}).validate_response(response, checks=CHECKS[:5])
    assert api.stored() == before


@pytest.mark.parametrize("method, url", [
    ("GET", "/api/games/{big}"), ("POST", "/api/games/{big}/rounds"), ("PUT", "/api/games/{big}/rounds/1"),
    ("DELETE", "/api/games/{big}/rounds/1"), ("PUT", "/api/games/{id}/rounds/{big}"),
])
def test_ids_no_database_holds_are_404(api, method, url):
    game_id, key = api.new_game()
    for big in (2**31, 2**63, 10**30):
        response = api.client.open(url.format(big=big, id=game_id), method=method, json=ROUNDS[0],
                                   headers={"Authorization": f"Bearer {key}"})
        assert response.status_code == 404 and response.get_json()["error"]["message"]


# ------------------------------------------------------------------ schemathesis run, over HTTP

SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"
#: Says the one thing the description cannot: a schema-valid game or round that breaks the rules
#: is refused with its declared 422.
CONFIG = ROOT / "tests" / "schemathesis.toml"
#: The phases only the command line has (the tests above fuzz every operation in-process).
PHASES = ("Examples", "Coverage", "Stateful")


@pytest.fixture
def served(database, tmp_path):
    server = AppServer(database, tmp_path, threads=1).start()
    yield server
    server.stop()


@pytest.mark.slow
def test_schemathesis_run_finds_nothing(served, tmp_path):
    """``schemathesis run`` with every check: bounded by a few examples per operation, a fixed seed
    (the same requests on every run, so a failure in CI happens here too) and a time limit."""
    done = subprocess.run(
        [SCHEMATHESIS, "--config-file", CONFIG, "--no-color", "run", served.base + "/api/openapi.json",
         "--checks", "all", "--phases", ",".join(p.lower() for p in PHASES), "--max-examples", "10",
         "--seed", "12", "--generation-database", "none", "--request-timeout", "10", "--max-failures", "5"],
        cwd=tmp_path, capture_output=True, text=True, timeout=240,
    )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report
    # Every phase asked for ran, the stateful one among them, and every test case passed.
    for phase in PHASES:
        assert f"✅  {phase}" in report, report
    counted = re.search(r"(\d+) generated, (\d+) passed\n", report)
    assert counted and counted[1] == counted[2], report
