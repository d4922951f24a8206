"""What the test files share: reading a page as a person does, making games and rounds
through the forms as the phone does, posting files, and counting what is stored or queried.

Most web tests use ``web`` (conftest: CSRF off), so a form is posted as its fields; rounds are
saved, corrected and deleted the way the phone does it, with htmx (the ``HX-Request`` header).
The helpers accept both answers htmx may get (the scoreboard with ``HX-Push-Url``, or 204 with
``HX-Location``) and show what follows.

Tests whose docstring starts "Regression" found a bug in commit e808b25 (a 500, a wrong status
or the wrong dealer), fixed in 57afdf8. Should one come back, mark its test
``xfail(strict=True)`` with the reason until it is fixed again; do not delete it.
"""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Engine, event, func, select

from scorekeeper import store
from scorekeeper.files import transfer
from scorekeeper.files.gamefile import backup_document, read_document
from scorekeeper.rules import LIVERPOOL, RoundRecord, ruleset_document
from scorekeeper.store.models import Game, Round, db

HTMX = {"HX-Request": "true"}
ANN_BEN_CAT_DAN = ["Ann", "Ben", "Cat", "Dan"]
CONTRACT_1 = "Level 1: 3 sets of 3"
CONTRACT_2 = "Level 2: 1 set of 3 and 1 run of 4"


# --------------------------------------------------------------- reading a page


def text(response) -> str:
    """The page as a person reads it: tags dropped, entities decoded, spaces collapsed."""
    body = response.get_data(as_text=True)
    body = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", body, flags=re.S)
    return text_of(body)


def text_of(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def input_tag(response, name: str, attr: str = "name") -> str:
    """The first ``<input>`` whose ``attr`` (name, or id) is ``name``."""
    pattern = rf'<input\b[^>]*\b{attr}="{re.escape(name)}"[^>]*>'
    match = re.search(pattern, response.get_data(as_text=True))
    assert match, f"no input with {attr} {name!r} on the page"
    return match.group(0)


def input_value(response, name: str, attr: str = "name") -> str:
    match = re.search(r'\bvalue="([^"]*)"', input_tag(response, name, attr))
    return html.unescape(match.group(1)) if match else ""


def is_checked(response, name: str, value: str | None = None) -> bool:
    """Whether the checkbox ``name`` (or the radio ``name`` with ``value``) is checked."""
    body = response.get_data(as_text=True)
    for tag in re.findall(rf'<input\b[^>]*\bname="{re.escape(name)}"[^>]*>', body):
        if value is None or re.search(rf'\bvalue="{re.escape(value)}"', tag):
            return bool(re.search(r"\schecked\b", tag))
    raise AssertionError(f"no input {name!r} {value or ''} on the page")


def csrf_token(response) -> str:
    match = re.search(r'name="csrf_token"[^>]*\bvalue="([^"]+)"', response.get_data(as_text=True))
    assert match, "no CSRF token on the page"
    return match.group(1)


@dataclass
class Standing:
    total: int
    line: str  # the row as read: name, tags such as "deals", contract, total


def standings(response) -> dict[str, Standing]:
    """The scoreboard's standings table: each player's total and the rest of the row."""
    body = response.get_data(as_text=True)
    table = re.search(r'<table[^>]*class="[^"]*standings[^"]*".*?</table>', body, re.S)
    assert table, "no standings table on the page"
    rows = {}
    for row in re.findall(r"<tr\b.*?</tr>", table.group(0), re.S):
        name = re.search(r'class="pname">([^<]*)<', row)
        if name is None:
            continue
        line = text_of(row)
        rows[html.unescape(name.group(1))] = Standing(int(re.findall(r"-?\d+", line)[-1]), line)
    return rows


def totals(response) -> dict[str, int]:
    return {name: s.total for name, s in standings(response).items()}


def went_to(response) -> str | None:
    """Where a response sends the person: a 303, htmx's HX-Location, or the URL htmx pushes."""
    if response.status_code in (302, 303):
        return response.headers["Location"]
    if "HX-Location" in response.headers:
        return json.loads(response.headers["HX-Location"])["path"]
    return response.headers.get("HX-Push-Url")


def board(web, game_id):
    response = web.get(f"/games/{game_id}")
    assert response.status_code == 200
    return response


def follow(web, response):
    """What the person sees next: the page a redirect leads to, else the response itself."""
    if response.status_code in (302, 303):
        return web.get(response.headers["Location"])
    if response.status_code == 204 and "HX-Location" in response.headers:
        return web.get(went_to(response), headers=HTMX)
    return response


# --------------------------------------------------------------- posting forms


def add_player(web, name):
    return web.post("/players/", data={"name": name})


def new_game(web, names, rules="balmoral", dealer=0, dealer_rule="winner", **extra) -> int:
    """Start a game through /games/new and return its id."""
    response = web.post("/games/new", data=game_form(names, rules, dealer, dealer_rule, start="1", **extra))
    assert response.status_code == 303, text(response)
    match = re.fullmatch(r"/games/(\d+)", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


def game_form(names, rules="balmoral", dealer=0, dealer_rule="winner", **extra) -> dict[str, str]:
    data = {f"seat-{i}": name for i, name in enumerate(names)}
    data.update(rules=rules, dealer=str(dealer), dealer_rule=dealer_rule)
    data.update({k: str(v) for k, v in extra.items()})
    return data


def round_form(number, went_out=None, hands=None, points=None, achieved=(), **extra) -> dict[str, str]:
    """The fields of the record-a-round form, keyed by seat index as the page posts them."""
    data = {"number": str(number)}
    if went_out is not None:
        data["went_out"] = str(went_out)
    for seat, cards in (hands or {}).items():
        data[f"hand-{seat}"] = cards
    for seat, pts in (points or {}).items():
        data[f"points-{seat}"] = str(pts)
    for seat in achieved:
        data[f"achieved-{seat}"] = "on"
    data.update({k: str(v) for k, v in extra.items()})
    return data


def post_round(web, game_id, number, headers=None, **fields):
    """Post the record-a-round form with save (no htmx unless ``headers`` says so)."""
    return web.post(f"/games/{game_id}/rounds/new", data=round_form(number, save="1", **fields), headers=headers)


def accepted(web, game_id, response):
    """An htmx change that must be accepted: the scoreboard the person is shown next."""
    assert response.status_code in (200, 204), (response.status_code, text(response))
    assert went_to(response) == f"/games/{game_id}"
    return follow(web, response)


def save_round(web, game_id, number, **fields):
    """Record a round as the phone does (htmx); it must be accepted. The scoreboard shown next."""
    return accepted(web, game_id, post_round(web, game_id, number, headers=HTMX, **fields))


def edit_round(web, game_id, number, **fields):
    """Post a correction of round ``number`` with htmx: the answer (scoreboard or refused form)."""
    return web.post(f"/games/{game_id}/rounds/{number}/edit", data=round_form(number, save="1", **fields),
                    headers=HTMX)


def delete_round(web, game_id, number):
    """Confirm the deletion of round ``number`` with htmx; the answer."""
    return web.post(f"/games/{game_id}/rounds/{number}/delete", headers=HTMX)


# --------------------------------------------------------------- whole games


def classic_game(web, deals) -> int:
    """A classic game of Ann, Ben, Cat (Ann deals first) with ``deals`` as (went_out, points)."""
    game_id = new_game(web, ["Ann", "Ben", "Cat"], rules="classic")
    for number, (went_out, points) in enumerate(deals, start=1):
        save_round(web, game_id, number, went_out=went_out, points=points)
    return game_id


ANN_WINS = [(0, {1: "10", 2: "20"})] * 7
# Ann and Ben take turns going out; Cat goes out last: Ann 35, Ben 35, Cat 125.
ANN_AND_BEN_TIE = [(0, {1: "10", 2: "20"}), (1, {0: "10", 2: "20"})] * 3 + [(2, {0: "5", 1: "5"})]


# --------------------------------------------------------------- straight to the store


def start_game(players=("Ann", "Ben", "Cat"), rules=None) -> int:
    """A new game stored through the store alone (in the app's context), Ann dealing first: its id."""
    from scorekeeper.rules import BALMORAL, GameSetup

    game, _key = store.create_game(GameSetup.create(rules or BALMORAL, list(players), first_dealer=players[0]))
    return game.id


def a_round(went_out: str, hands: dict[str, str] | None = None, points: dict[str, int] | None = None,
            achieved=()) -> RoundRecord:
    """A round as the store takes it: who went out, the others' cards (or points)."""
    return RoundRecord.create(went_out, hands, points, achieved)


def finish(game_id: int) -> None:
    """Play a stored game to its end through the store (in the app's context): the first
    player goes out every round, making every contract, the others holding a king."""
    game = store.load(game_id)
    names = game.state.setup.players
    while not game.state.finished:
        store.record_round(game_id, len(game.state.rounds) + 1,
                           a_round(names[0], {n: "K" for n in names[1:]}, achieved=names))
        game = store.load(game_id)


def version_of(game_id: int) -> int:
    """The game's version as committed (in the app's context)."""
    return store.peek(game_id).version


def import_docs(docs) -> list[int]:
    """Game files imported as one backup through the store (in the app's context): the games' ids."""
    return [o.game_id for o in transfer.import_files(read_document(backup_document(docs)))]


# --------------------------------------------------------------- what is stored


def rounds_stored(app, game_id: int | None = None) -> int:
    """The rounds stored: of one game, or of all of them."""
    with app.app_context():
        counting = select(func.count(Round.id))
        if game_id is not None:
            counting = counting.where(Round.game_id == game_id)
        return db.session.scalar(counting)


def games_stored(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(Game.id)))


def roster_names(app) -> list[str]:
    with app.app_context():
        return [p.name for p in store.roster()]


def player_id(app, name) -> int:
    with app.app_context():
        player = store.find_player(name)
        assert player is not None, f"{name} is not on the roster"
        return player.id


def story_links(response) -> list[int]:
    """The games a history page links to, in order."""
    return [int(m) for m in re.findall(r'href="/games/(\d+)/story"', response.get_data(as_text=True))]


# --------------------------------------------------------------- files


def upload(client, doc, name="game.json", raw: bytes | None = None, **extra):
    body = raw if raw is not None else json.dumps(doc).encode()
    data = {"file": (io.BytesIO(body), name), **extra}
    return client.post("/import", data=data, content_type="multipart/form-data")


# --------------------------------------------------------------- SQL statements


@contextmanager
def counted() -> Iterator[list[str]]:
    """The SQL statements sent meanwhile, on any engine (the unchanged poll has one of its own
    on PostgreSQL)."""
    statements: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)

    event.listen(Engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(Engine, "before_cursor_execute", count)


def family_liverpool() -> dict:
    """Liverpool as one family plays it: aces 20, an eighth deal of 14 cards, and a bonus for
    going out in one go."""
    doc = ruleset_document(LIVERPOOL)
    doc["name"] = "Family Liverpool"
    doc["values"]["A"] = 20
    doc["stages"].append({"contract": "3 runs of 4 and 1 set of 2", "cards": 14})
    doc["bonuses"].append({"key": "in-one-go", "label": "Went out in one go", "points": -20})
    return doc


def upload_bytes(client, body: bytes, **data):
    """Post ``body`` as the import form's file. The multipart body is built here, in memory:
    the test client's own encoder spools a large one to a temporary file it never closes."""
    boundary = "scorekeeper-test-boundary"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
             for name, value in data.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="backup.json"\r\n'
                 "Content-Type: application/json\r\n\r\n".encode() + body + b"\r\n")
    payload = b"".join(parts) + f"--{boundary}--\r\n".encode()
    return client.post("/import", data=payload, content_type=f"multipart/form-data; boundary={boundary}")
