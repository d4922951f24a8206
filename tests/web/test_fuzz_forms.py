"""The rules engine and the HTML forms fuzzed with Hypothesis.

The engine takes any text as a hand and any record as a round, and answers a result or its
own refusal (``CardError``, ``SetupError``, ``RoundError``), never another exception. The
forms take any values, hostile ones too, and answer a page or a refusal, never a 5xx; a
refusal stores nothing, and markup typed into a name or a hand comes back escaped.

The forms are fuzzed with CSRF off (the token is tested in test_views and test_api); the
browser that starts a game keeps its edit key in its session, as a phone at the table does.
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass

import pytest
from conftest import examples, make_keeper
from fuzz_inputs import (
    HOSTILE,
    NOT_HANDS,
    ODD_BUT_VALID_NAMES,
    PLAYERS,
    card_text,
    hostile_text,
    near_game,
    near_round,
    odd_values,
)
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from scorekeeper.files.gamefile import GameFileError, read_round
from scorekeeper.store.models import Game, HandEntry, Player, Round, Seat, db
from scorekeeper.rules import (
    BALMORAL,
    CLASSIC,
    CardError,
    GameSetup,
    RoundError,
    RoundRecord,
    SetupError,
    advance,
    hand_penalty,
    parse_hand,
    replay,
    start,
)
from scorekeeper.rules.cards import MAX_HAND_TEXT
from scorekeeper.rules.replay import MAX_NAME, name_key

ENGINE = settings(max_examples=examples(200), deadline=None, derandomize=True, database=None,
                  suppress_health_check=[HealthCheck.too_slow])
FORMS = settings(max_examples=examples(40), deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))

#: Markup that would run if a page echoed it unescaped.
ACTIVE_MARKUP = ["<script>alert", "<img src=x", "<svg/onload", "<b>pwn"]
MARKUP = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<svg/onload=alert(1)>", '"><b>pwn</b>']

# ---------------------------------------------------------------------------- the engine

any_text = st.one_of(hostile_text, card_text(jokers=True), st.text(max_size=500),
                     st.binary(max_size=60).map(lambda b: b.decode("latin-1")), st.sampled_from(NOT_HANDS))


@ENGINE
@given(any_text)
@example("A" * 5000)
@example("tajqk98765432" * 30)
@example("10 " * 133 + "10")
@example("\x00\u202e\u200b")
@example("'; DROP TABLE hand;--")
def test_parse_hand_reads_a_hand_or_refuses_the_card(text):
    try:
        hand = parse_hand(text)
    except CardError as exc:
        assert str(exc)
        return
    # What is read back is the same hand, fits its column, and scores what its cards are worth.
    assert parse_hand(hand.canonical) == hand
    assert len(hand.canonical) <= MAX_HAND_TEXT
    assert 0 <= hand_penalty(hand) <= 15 * len(hand)


@ENGINE
@given(st.one_of(odd_values, st.lists(st.text()), st.binary()))
def test_parse_hand_refuses_what_is_not_text(value):
    if isinstance(value, str):
        return
    with pytest.raises(CardError):
        parse_hand(value)


@st.composite
def setups(draw) -> tuple:
    rules = draw(st.sampled_from([BALMORAL, CLASSIC]))
    names = st.one_of(st.sampled_from(PLAYERS + ODD_BUT_VALID_NAMES), hostile_text, odd_values)
    players = draw(st.one_of(st.lists(names, max_size=10), st.just(PLAYERS)))
    first = draw(st.one_of(st.none(), st.sampled_from(players) if players else st.none(), names))
    dealer_rule = draw(st.one_of(st.none(), st.sampled_from(["winner", "rotate", "WINNER"]), odd_values))
    decks = draw(st.one_of(st.none(), st.integers(-3, 12), st.sampled_from([10**40, 2.0, "2", True])))
    jokers = draw(st.one_of(st.none(), st.integers(-3, 12), st.sampled_from([10**40, 1.0, "1", False])))
    return rules, players, first, dealer_rule, decks, jokers


@ENGINE
@given(setups())
def test_a_set_up_is_made_or_refused_with_reasons(args):
    try:
        setup = GameSetup.create(*args)
    except SetupError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
        return
    assert len(setup.players) == len({name_key(p) for p in setup.players})
    assert all(len(p) <= MAX_NAME and len(name_key(p)) <= MAX_NAME for p in setup.players)
    assert setup.first_dealer in setup.players


@st.composite
def raw_records(draw, players: list[str]) -> RoundRecord:
    """A record made without the game file's checks: any names, any points, parsed hands."""
    names = st.one_of(st.sampled_from(players), hostile_text)
    hands = draw(st.dictionaries(names, card_text(jokers=True).map(parse_hand), max_size=6))
    points = draw(st.dictionaries(names, st.one_of(st.integers(-5, 500), odd_values), max_size=4))
    return RoundRecord(draw(st.one_of(names, odd_values)), hands, points,
                       frozenset(draw(st.lists(names, max_size=5))))


@settings(ENGINE, max_examples=examples(60))
@given(st.data(), st.sampled_from([BALMORAL, CLASSIC]), st.integers(2, 8), st.integers(0, 3))
def test_replay_scores_a_game_or_refuses_the_round(data, rules, count, extra_decks):
    players = [*PLAYERS, "Eve", "Fay", "Gus", "Hal"][:max(count, rules.min_players)]
    decks, jokers = rules.suggested_decks(len(players))
    setup = GameSetup.create(rules, players, decks=min(decks + extra_decks, 8), jokers=jokers)
    records = []
    for doc in data.draw(st.lists(near_round(players, jokers=rules.uses_jokers), max_size=7), "rounds"):
        try:
            records.append(read_round(doc, "Round", setup))
        except GameFileError:
            records.append(data.draw(raw_records(players), "record"))
    state = start(setup)
    for record in records:
        try:
            state = advance(state, record)
        except RoundError as exc:
            assert exc.problems and all(str(p) for p in exc.problems)
            break
        latest = state.rounds[-1]
        assert all(0 <= p <= setup.max_hand_points for p in latest.penalties)
        assert latest.penalties[setup.seat_of(latest.went_out)] == 0
    try:
        whole = replay(setup, records)
    except RoundError:
        assert len(state.rounds) < len(records)
    else:
        assert whole == state
        assert [p.total for p in whole.players] == [sum(p.penalties) for p in whole.players]


# ---------------------------------------------------------------------------- the forms


@dataclass
class Table:
    app: object
    client: object

    def stored(self) -> tuple:
        with self.app.app_context():
            counts = tuple(db.session.scalar(select(func.count()).select_from(model))
                           for model in (Game, Seat, Round, HandEntry, Player))
            return counts + (db.session.scalar(select(func.sum(Game.version))),)

    def new_game(self, seats=PLAYERS, rounds: int = 2) -> int:
        """Start a game through the form (this browser keeps its key), with some rounds."""
        form = {f"seat-{i}": name for i, name in enumerate(seats)}
        response = self.client.post("/games/new", data={**form, "rules": "balmoral", "dealer": "0", "start": "1"})
        assert response.status_code == 303, response.text
        game_id = int(re.search(r"/games/(\d+)$", response.headers["Location"]).group(1))
        for number in range(1, rounds + 1):
            saved = self.client.post(f"/games/{game_id}/rounds/new", data={
                "number": str(number), "went_out": "0", "hand-1": "K", "hand-2": "2 2", "hand-3": "",
                "points-3": "0", "achieved-2": "on", "save": "1"})
            assert saved.status_code == 303, saved.text
        return game_id

    def post(self, url: str, data: dict, *, htmx: bool = False):
        """Post a form; no 5xx; a refusal stores nothing; markup posted comes back escaped."""
        before = self.stored()
        headers = {"HX-Request": "true"} if htmx else {}
        response = self.client.post(url, data={as_sent(k): as_sent(v) for k, v in data.items()}, headers=headers)
        assert response.status_code < 500, response.text
        if response.status_code >= 400:
            assert self.stored() == before, f"{response.status_code} refused, yet something was stored"
        assert_escaped(response.get_data(as_text=True))
        return response

    def upload(self, content: bytes):
        """The import form, with ``content`` as the file: nothing stored unless it answers 200."""
        before = self.stored()
        response = self.client.post("/import", data={"file": (io.BytesIO(content), "game.json")},
                                    content_type="multipart/form-data")
        assert response.status_code < 500, response.text
        if response.status_code != 200:
            assert self.stored() == before, f"{response.status_code} refused, yet something was stored"
        assert_escaped(response.get_data(as_text=True))
        return response


def as_sent(text: str) -> str:
    """A browser cannot send half a character (a lone surrogate): it sends U+FFFD instead."""
    return re.sub("[\ud800-\udfff]", "\ufffd", text)


def assert_escaped(page: str) -> None:
    for markup in ACTIVE_MARKUP:
        assert markup not in page, f"{markup!r} came back unescaped"


@pytest.fixture
def table(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return Table(app, make_keeper(app.test_client()))


form_text = st.one_of(st.sampled_from(HOSTILE + MARKUP), hostile_text, st.sampled_from(PLAYERS))
#: What people (and scripts) type into a number box.
NUMBER_TEXT = ["", "0", "2", "3", "35", "99999999999999", "-5", "1e9", "²", "٣", " 4 ", "4_0", "0x1F", "NaN",
               "1" * 5000, "'; DROP TABLE round;--", "<script>alert(1)</script>"]
number_text = st.one_of(st.sampled_from(NUMBER_TEXT), st.integers(-10, 10**20).map(str), hostile_text)


@FORMS
@given(name=st.one_of(form_text, st.text(max_size=MAX_NAME + 3)))
@example(name="x" * (MAX_NAME + 1))
@example(name="Ann\u202e")
@example(name="A\x00nn")
@example(name="Zero\u200bWidth")
@example(name="'; DROP TABLE player;--")
@example(name="<script>alert(1)</script>")
def test_player_form(table, name):
    response = table.post("/players/", {"name": name})
    assert response.status_code in (303, 422)
    if response.status_code == 303:
        roster = table.client.get("/players/").get_data(as_text=True)
        assert_escaped(roster)


@FORMS
@given(name=st.one_of(form_text, st.text(max_size=MAX_NAME + 3)), player=st.sampled_from(["1", "2", "99999999999"]))
@example(name="Ben", player="1")  # another player's name: refused
@example(name="x" * (MAX_NAME + 1), player="1")
def test_rename_form(table, name, player):
    with table.app.app_context():
        if not db.session.scalar(select(func.count()).select_from(Player)):
            db.session.add_all([Player(name=n, name_key=name_key(n)) for n in ("Ann", "Ben")])
            db.session.commit()
    before = table.stored()
    response = table.post(f"/players/{player}/edit", {"name": name})
    assert response.status_code in (303, 404, 422)
    assert table.stored()[:-1] == before[:-1]  # a rename adds and removes nothing


@st.composite
def new_game_forms(draw) -> dict:
    """The new-game form as a table fills it in (odd names and all), then up to two hostile values."""
    pool = PLAYERS + ODD_BUT_VALID_NAMES + ["Eve", "Fay", "Gus", "Hal"]
    seats = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=8, unique_by=name_key))
    rules = draw(st.sampled_from(["balmoral", "classic"]))
    form = {f"seat-{i}": name for i, name in enumerate(seats)}
    form.update(rules=rules, dealer=str(draw(st.integers(0, len(seats) - 1))))
    if rules == "balmoral":
        form["dealer_rule"] = draw(st.sampled_from(["winner", "rotate"]))
    if draw(st.booleans()):
        form["decks"] = draw(st.sampled_from(["", "2", "3", "8"]))
        form["jokers"] = "0" if rules == "balmoral" else draw(st.sampled_from(["", "1", "2"]))
    for _ in range(draw(st.integers(0, 2))):
        field = draw(st.sampled_from(["seat-0", "seat-3", "seat-8", "seat-x", "rules", "dealer_rule", "decks",
                                      "jokers", "dealer"]))
        form[field] = draw(st.one_of(st.sampled_from(NUMBER_TEXT + MARKUP), form_text))
    action = draw(st.sampled_from(["start", "start", "start", "pick", "up", "drop", "refresh"]))
    form[action] = draw(form_text) if action == "pick" else draw(st.sampled_from(["1", "0", "7", "99999999", "x"]))
    return form


@FORMS
@given(form=new_game_forms())
@example(form={"seat-0": "<script>alert(1)</script>", "seat-1": "'; DROP TABLE game;--", "rules": "balmoral",
               "start": "1"})
@example(form={"seat-0": "Ann", "seat-1": "Ben", "seat-2": "Cat", "rules": "classic", "decks": "99999999999999",
               "jokers": "-5", "start": "1"})
@example(form={"seat-0": "Ann", "seat-1": "Ben", "decks": "1e9", "jokers": "²", "dealer": "9", "start": "1"})
@example(form={"seat-0": "Ann\u202e", "seat-1": "Ben", "start": "1"})
@example(form={"seat-0": "x" * (MAX_NAME + 1), "seat-1": "Ben", "start": "1"})
def test_new_game_form(table, form):
    response = table.post("/games/new", form)
    assert response.status_code in (200, 303, 422)
    if response.status_code == 303:
        board = table.client.get(response.headers["Location"])
        assert board.status_code == 200
        assert_escaped(board.get_data(as_text=True))


@st.composite
def round_forms(draw, seats: int = 4) -> dict:
    """The record-a-round form: near a real round, with hostile values in any field."""
    doc = draw(near_round(PLAYERS, numbered=True))
    went_out = doc.get("went_out")
    form = {"number": str(doc.get("number", "")),
            "went_out": str(PLAYERS.index(went_out)) if went_out in PLAYERS else str(went_out)}
    hands = doc.get("hands") if isinstance(doc.get("hands"), dict) else {}
    points = doc.get("points") if isinstance(doc.get("points"), dict) else {}
    for i, name in enumerate(PLAYERS):
        if name in hands and hands[name] == "":
            form[f"points-{i}"] = "0"  # an empty hand is entered as 0 points on the form
        elif name in hands:
            form[f"hand-{i}"] = str(hands[name])
        if name in points:
            form[f"points-{i}"] = str(points[name])
        if isinstance(doc.get("achieved"), list) and name in doc["achieved"]:
            form[f"achieved-{i}"] = "on"
    for _ in range(draw(st.integers(0, 2))):
        field = draw(st.sampled_from(["number", "went_out", "version", "key", "unkey", "hand-", "points-",
                                      "achieved-"]))
        if field.endswith("-"):
            field += draw(st.sampled_from(["0", "1", "3", "9", "-1", "x"]))
        form[field] = draw(st.one_of(number_text, form_text, card_text(jokers=True)))
    if "key" not in form and "unkey" not in form:
        form["save"] = "1"
    return form


def _next_round_number(form: dict) -> dict:
    """Mostly the round the game plays next (3), as the form carries it."""
    return form if form["number"] not in map(str, range(1, 6)) else {**form, "number": "3"}


#: Round forms and what recording (as round 3) and correcting (round 1) answer: 422 refused,
#: 409 a stale version, 200 a keypad press re-rendered, 303 stored (a correction ignores "number").
WORKED_ROUNDS = {
    "a hand of 5000 characters": (
        {"went_out": "0", "hand-1": "A" * 5000, "points-2": "0", "points-3": "0"}, 422, 422),
    "points 99999999999999": ({"went_out": "0", "points-1": "99999999999999", "points-2": "0", "points-3": "0"},
                              422, 422),
    "points -5, 1e9 and ²": ({"went_out": "0", "points-1": "-5", "points-2": "1e9", "points-3": "²"}, 422, 422),
    "markup, SQL and a bidi override as hands": (
        {"went_out": "1", "hand-0": "<script>alert(1)</script>", "hand-2": "'; DROP TABLE hand;--",
         "hand-3": "K\u202eA"}, 422, 422),
    "went_out 99999999999999": ({"went_out": "99999999999999", "hand-1": "K"}, 422, 422),
    "went_out ٣ (an Arabic-Indic three)": ({"went_out": "٣", "hand-0": "K", "hand-1": "2", "hand-2": "3"}, 422, 422),
    "round number -5": ({"number": "-5", "went_out": "0", "hand-1": "K", "hand-2": "2", "hand-3": "3"}, 422, 303),
    "round number 99999999999999": ({"number": "99999999999999", "went_out": "0", "hand-1": "K", "hand-2": "2",
                                     "hand-3": "3"}, 422, 303),
    "round number ²": ({"number": "²", "went_out": "0", "hand-1": "K", "hand-2": "2", "hand-3": "3"}, 422, 422),
    "version -1": ({"went_out": "0", "hand-1": "K", "hand-2": "2", "hand-3": "3", "version": "-1"}, 303, 409),
    "a keypad press that is no card": ({"went_out": "0", "hand-1": "K", "key": "1:<script>", "save": None}, 200, 200),
    "a chip far out of range": ({"went_out": "0", "hand-1": "K", "unkey": "99999999:99999999", "save": None},
                                200, 200),
}


@pytest.mark.parametrize("form, recorded, corrected", WORKED_ROUNDS.values(), ids=WORKED_ROUNDS.keys())
def test_worked_rounds(table, form, recorded, corrected):
    form = {k: v for k, v in {"number": "3", "save": "1", **form}.items() if v is not None}
    game_id = table.new_game()
    for url, status in ((f"/games/{game_id}/rounds/new", recorded), (f"/games/{game_id}/rounds/1/edit", corrected)):
        before = table.stored()
        response = table.post(url, form)
        assert response.status_code == status, (url, response.status_code)
        if status == 422:
            assert 'role="alert"' in response.text, url
        if status != 303:
            assert table.stored() == before


@FORMS
@given(form=round_forms().map(_next_round_number))
def test_record_a_round_form(table, form):
    game_id = table.new_game()
    response = table.post(f"/games/{game_id}/rounds/new", form)
    assert response.status_code in (200, 303, 409, 422)
    if response.status_code == 303:
        assert table.client.get(response.headers["Location"]).status_code == 200


@FORMS
@given(form=round_forms(), number=st.sampled_from(["1", "2"]), htmx=st.booleans())
def test_correct_a_round_form(table, form, number, htmx):
    game_id = table.new_game()
    response = table.post(f"/games/{game_id}/rounds/{number}/edit", form, htmx=htmx)
    assert response.status_code in (200, 204, 303, 409, 422)


@settings(FORMS, max_examples=examples(20))
@given(number=st.sampled_from(["1", "2", "3"]), version=st.one_of(number_text, st.sampled_from(["1", "3", "4"])))
def test_delete_a_round_form(table, number, version):
    game_id = table.new_game()
    response = table.post(f"/games/{game_id}/rounds/{number}/delete", {"version": version})
    assert response.status_code in (303, 404, 409)


@FORMS
@given(doc=st.one_of(near_game(), st.lists(near_game(), max_size=3).map(
    lambda games: {"format": "scorekeeper-backup/1", "games": games})))
@example(doc={"format": "scorekeeper-game/1", "rules": "balmoral", "players": MARKUP[:3], "first_dealer": MARKUP[0],
              "rounds": []})
def test_import_form(table, doc):
    """A game file or a backup uploaded: stored whole (names escaped on the page) or refused whole."""
    response = table.upload(json.dumps(doc).encode())
    assert response.status_code in (200, 422)


@pytest.mark.parametrize("content", [b"[" * 100_000 + b"]" * 100_000, b"\xff\xfe{}", b"", b"null", b"NaN",
                                     b'{"format": "scorekeeper-game/1", "players": "' + b"A" * 100_000 + b'"}'])
def test_import_form_refuses_what_is_no_game_file(table, content):
    response = table.upload(content)
    assert response.status_code == 422 and 'role="alert"' in response.text


# ---------------------------------------------------------------------------- worked cases

REFUSED_NAMES = {
    "41 characters": "x" * (MAX_NAME + 1),
    "a right-to-left override": "Ann\u202e",
    "a NUL": "A\x00nn",
    "a zero-width space": "Zero\u200bWidth",
    "a byte-order mark": "\ufeffBen",
    "an escape sequence": "Dev\x1b[31m",
    "folds to 80 characters": "ß" * MAX_NAME,
    "only spaces": "   ",
}


@pytest.mark.parametrize("name", REFUSED_NAMES.values(), ids=REFUSED_NAMES.keys())
def test_refused_names_are_answered_422_with_a_message(table, name):
    response = table.post("/players/", {"name": name})
    assert response.status_code == 422
    assert 'role="alert"' in response.text
    with table.app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Player)) == 0
    if name.strip():  # a blank seat is closed up, not refused
        game = table.post("/games/new", {"seat-0": name, "seat-1": "Ben", "seat-2": "Cat", "start": "1"})
        assert game.status_code == 422 and 'role="alert"' in game.text and table.stored()[0] == 0


@pytest.mark.parametrize("name", ["'; DROP TABLE player;--", "<script>alert(1)</script>", "Robert'); --",
                                  "x" * MAX_NAME, "Zoë", "李雷"])
def test_odd_but_valid_names_are_kept_as_typed_and_shown_escaped(table, name):
    assert table.post("/players/", {"name": name}).status_code == 303
    roster = table.client.get("/players/").get_data(as_text=True)
    assert_escaped(roster)
    with table.app.app_context():
        assert db.session.scalar(select(Player.name)) == name
    game_id = table.new_game(seats=[name, "Ben", "Cat"])
    for url in (f"/games/{game_id}", f"/games/{game_id}/watch", f"/games/{game_id}/rounds/new",
                f"/games/{game_id}/rounds/1/edit", f"/games/{game_id}/share", "/"):
        page = table.client.get(url)
        assert page.status_code == 200, url
        assert_escaped(page.get_data(as_text=True))
    if "<" in name:
        assert "&lt;script&gt;" in table.client.get(f"/games/{game_id}").text


@pytest.mark.parametrize("url", ["/players/", "/games/new", "/games/{id}/rounds/new", "/games/{id}/rounds/1/edit"])
def test_a_body_over_the_limit_is_413_and_stores_nothing(table, url):
    game_id = table.new_game()
    before = table.stored()
    big = "K " * (1024 * 1024 + 1)  # over MAX_CONTENT_LENGTH (512 KiB)
    response = table.client.post(url.format(id=game_id), data={"name": big, "seat-0": big, "hand-1": big,
                                                                "number": "3", "went_out": "0", "start": "1",
                                                                "save": "1"})
    assert response.status_code == 413
    assert "Too large" in response.text
    assert table.stored() == before


@pytest.mark.parametrize("url", ["/games/{big}", "/games/{big}/watch", "/games/{big}/rounds/new",
                                 "/games/{id}/rounds/{big}/edit", "/players/{big}/edit", "/games/new?like={big}",
                                 "/games/{big}/live?v=1"])
def test_ids_no_database_holds_are_404(table, url):
    game_id = table.new_game(rounds=0)
    for big in (2**31, 2**63, 10**30):
        assert table.client.get(url.format(big=big, id=game_id)).status_code == 404, url
