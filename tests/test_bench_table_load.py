"""The table load model (bench/table_load.py) sends a round as the round screen's script does:
the app takes it, and a watcher's poll then shows the version the model polls with next.

`make bench` measures with these requests; were they refused, it would measure errors."""

from __future__ import annotations

import asyncio
import threading

import pytest

from scorekeeper import store
from scorekeeper.rules import BALMORAL, GameSetup

from bench import table_load
from conftest import join

POLL = {"HX-Request": "true", "HX-Trigger": "board"}


def run_model(coroutine):
    """``asyncio.run`` in a thread of its own: a browser test that ran before in this process (one
    pytest worker) leaves Playwright's loop running in the main thread, where a second may not start."""
    outcome = {}

    def run() -> None:
        try:
            outcome["result"] = asyncio.run(coroutine)
        except BaseException as error:  # handed to the test's thread, which fails with it
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]


def test_the_models_round_is_saved_and_its_watchers_see_it(app):
    with app.app_context():
        game, key = store.create_game(GameSetup.create(BALMORAL, list(table_load.NAMES),
                                                       first_dealer=table_load.NAMES[0]))
        game_id, before = game.id, game.version
    phone = app.test_client()
    assert join(phone, game_id, key).status_code in (302, 303)
    token, number, version = table_load.read_form(phone.get(f"/games/{game_id}/rounds/new").get_data(as_text=True))
    assert (number, version) == (1, str(before))

    saved = phone.post(f"/games/{game_id}/rounds/new", data=table_load.round_form(token, version, number),
                       headers={"HX-Request": "true", "X-CSRFToken": token,
                                "Content-Type": "application/x-www-form-urlencoded"})

    assert saved.status_code == 200
    with app.app_context():
        state = store.load(game_id).state
        after = store.load(game_id).game.version
    assert [r.record.went_out for r in state.rounds] == [table_load.hand_round(1)[0]]
    watcher = app.test_client()
    assert watcher.get(f"/games/{game_id}/live?v={after}&watch=1", headers=POLL).status_code == 204
    changed = watcher.get(f"/games/{game_id}/live?v={before}&watch=1", headers=POLL)
    seen = [before]
    table_load.shown(seen, 0, changed.get_data(), dict(changed.headers))
    assert changed.status_code == 200 and seen == [after]


def test_a_rounds_p95_is_read_at_the_most_tables_held_only():
    """The rounds counted are those of the measured windows at the most tables held, the window
    run again with the extra rounds beside them too, even when it did not hold; not those at
    fewer tables, which flatter the figure, nor those at a number not held."""

    def step(tables: int, rounds: list[float], held: bool = True) -> table_load.Step:
        made = table_load.Step(tables)
        made.latencies["round"] = rounds
        made.latencies["unchanged poll"] = [1.0] if held else [500.0]
        return made

    found = table_load.Search("app", held=362, steps=[
        step(256, [5.0]), step(512, [400.0], held=False), step(362, [40.0, 45.0]),
        step(431, [300.0], held=False), step(362, [60.0], held=False)])
    assert sorted(found.round_times) == [40.0, 45.0, 60.0]


def test_a_rounds_time_in_the_app_is_read_from_the_access_log_of_those_windows(tmp_path):
    """The app's own time on each round saved, from the lines the server logged in the measured
    windows at the most tables held: not a round refused, not another request, not a line
    logged outside those windows."""
    lines = ['127.0.0.1 [x] "POST /games/7/rounds/new" 200 9000 400.0ms',  # a settling's
             '127.0.0.1 [x] "POST /games/7/rounds/new" 200 9000 12.5ms',
             '127.0.0.1 [x] "POST /games/7/rounds/new" 409 9000 30.0ms',
             '127.0.0.1 [x] "GET /games/7/live" 204 - 0.4ms',
             '127.0.0.1 [x] "GET /games/7/rounds/new" 200 16000 5.0ms',
             '127.0.0.1 [x] "POST /games/8/rounds/new" 200 9000 21.0ms',
             '127.0.0.1 [x] "POST /games/9/rounds/new" 200 9000 99.0ms']  # at fewer tables
    log = tmp_path / "server.log"
    log.write_text("".join(line + "\n" for line in lines))
    ends = [sum(len(line) + 1 for line in lines[:i]) for i in range(len(lines) + 1)]

    def step(tables: int, span: tuple[int, int]) -> table_load.Step:
        made = table_load.Step(tables)
        made.latencies["unchanged poll"] = [1.0]
        made.log_span = span
        return made

    found = table_load.Search("app", held=362, log=log,
                              steps=[step(256, (ends[6], ends[7])), step(362, (ends[1], ends[5])),
                                     step(362, (ends[5], ends[6]))])
    assert found.in_app(table_load.ROUND_SAVED) == [12.5, 21.0]
    assert found.in_app(table_load.POLL_UNCHANGED) == [0.4]


def test_after_a_number_not_held_the_next_waits_until_the_server_answers_promptly():
    """The server's queue still holds the requests of the phones that gave up: the model asks
    until an answer comes promptly, and only then starts the next number's tables."""
    slow = [0.2, 0.2]

    async def answer(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        await asyncio.sleep(slow.pop(0) if slow else 0.0)
        writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
        await writer.drain()
        writer.close()

    async def model() -> None:
        server = await asyncio.start_server(answer, "127.0.0.1", 0)
        try:
            phones = table_load.Phones(server.sockets[0].getsockname()[1], [table_load.Table(7, "", [1])], {7: 3})
            await phones.quiet(budget=10)
        finally:
            server.close()

    run_model(model())
    assert slow == []  # asked again after each slow answer


def test_a_table_started_again_shows_the_boards_its_phones_showed():
    """Stopped while the server caught up, a table comes back as it was, or its six phones would
    each fetch a board for every round since it began."""
    async def model() -> tuple[list[int], list[str]]:
        table = table_load.Table(7, "session=keeper", [1])
        phones = table_load.Phones(9, [table], {7: 3})  # nothing listens: the phones' asks fail
        phones.start(table)
        phones.seen[7][2], phones.cookies[7][1] = 5, "session=watcher"
        phones.stop(table)
        phones.start(table)
        try:
            return phones.seen[7], phones.cookies[7]
        finally:
            await phones.close()

    seen, cookies = run_model(model())
    assert seen == [3, 3, 5, 3, 3, 3] and cookies[:2] == ["session=keeper", "session=watcher"]


# ------------------------------------------------------------------ a club night and its big screen


@pytest.fixture
def quick_phones(monkeypatch):
    """The model's timers made short (a poll every 0.1 s) and its keepers' rounds and pages far
    off, so that a test records the one round it asks for."""
    monkeypatch.setattr(table_load, "POLL_EVERY", 0.1)
    monkeypatch.setattr(table_load, "ROUND_EVERY", 1e6)
    monkeypatch.setattr(table_load, "PAGE_EVERY", 1e6)


def served(app):
    """``app`` served by waitress as `make run` serves it, in a thread of this process."""
    from scorekeeper.serving import make_server

    server = make_server(app, "127.0.0.1", 0, 4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    return server, thread


async def screen_until(phones: table_load.Phones, done, most: int = 100) -> list[int]:
    """Short windows of the night's three tables until ``done`` holds of the statuses the big
    screen's polls were answered with (bounded: a screen that never gets there fails)."""
    statuses: list[int] = []
    for _ in range(most):
        step = await phones.hold(3, 0.0, 0.3)
        statuses += [status for status, _ in step.screen]
        if done(statuses):
            return statuses
    raise AssertionError(f"the big screen's polls were answered {statuses}")


def test_the_first_three_tables_are_a_club_nights_and_its_big_screen_follows_them(tmp_path, quick_phones):
    """The night's tables are started as its keeper starts them; the screen polls the night with
    the tag it was given, 204 while nothing changed, and after a round at one of the night's
    tables gets the fragment once, whose new tag it polls with from then on."""
    from conftest import close, make_app

    app = make_app(tmp_path, CONNECTIONS_PER_ADDRESS=0)
    with app.app_context():
        tables = table_load.seat_tables(app, 5)
        night = tables[0].night
        assert [t.night for t in tables] == [night] * 3 + [None] * 2
        assert sorted(t.game_id for t in store.night_games(night)) == sorted(t.game_id for t in tables[:3])
        seated = {p for t in tables[:3] for p in t.players}
        assert len(seated) == len(table_load.CLUB) == 12
        assert all(len(store.load(t.game_id).state.rounds) == table_load.STARTING_ROUNDS for t in tables)
    server, thread = served(app)
    try:
        port = server.effective_port
        with app.app_context():
            versions = {t.game_id: store.load(t.game_id).game.version for t in tables}

        async def night() -> tuple[list[int], list[int], table_load.Phones]:
            phones = table_load.Phones(port, tables, versions)
            try:
                before = await screen_until(phones, lambda s: 204 in s)
                await phones.probe(tables[1:2], 0.5)  # one round at the night's second table
                after = await screen_until(phones, lambda s: 200 in s and 204 in s[s.index(200):])
                return before, after, phones
            finally:
                await phones.close()

        before, after, _ = run_model(night())
    finally:
        server.close()
        thread.join(timeout=10)
    assert set(before) == {204}
    assert after.count(200) == 1 and set(after[after.index(200) + 1:]) == {204}
    with app.app_context():
        assert len(store.load(tables[1].game_id).state.rounds) == table_load.STARTING_ROUNDS + 1
    close(app)


def test_the_floor_answers_the_big_screens_paths_with_its_tag(tmp_path, monkeypatch, quick_phones):
    """The floor serves the screen's page and its poll (one query by primary key, 204 while the
    tag the poll names is the night's), so the model's screen runs against it as against the app."""
    from conftest import close, make_app

    from bench import floor
    from bench.databases import PostgreSQL

    app = make_app(tmp_path)
    with app.app_context():
        tables = table_load.seat_tables(app, 3)
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    monkeypatch.setenv("FLOOR_DATABASE", url.removeprefix("sqlite:///") if url.startswith("sqlite")
                       else PostgreSQL(url).floor_target(url))
    close(app)
    server, thread = served(floor.app)
    try:
        async def night() -> list[int]:
            phones = table_load.Phones(server.effective_port, tables, {t.game_id: 1 for t in tables})
            try:
                return await screen_until(phones, lambda s: s.count(204) >= 2)
            finally:
                await phones.close()

        statuses = run_model(night())
    finally:
        server.close()
        thread.join(timeout=10)
    assert set(statuses) == {204}


def test_the_big_screens_line_reads_its_polls_of_the_windows_held():
    """The report's line for the screen: its unchanged polls and its fragments after a change,
    over every window held, not over one that was not."""

    def step(tables: int, screen: list[tuple[int, float]], held: bool = True) -> table_load.Step:
        made = table_load.Step(tables)
        made.latencies["big screen"] = [ms for _, ms in screen] or [1.0]
        made.latencies["unchanged poll"] = [1.0] if held else [500.0]
        made.screen = screen
        return made

    found = table_load.Search("app", held=16, steps=[step(16, [(204, 2.0), (200, 30.0)]),
                                                     step(32, [(204, 300.0), (200, 400.0)], held=False),
                                                     step(8, [(204, 3.0)])])
    assert found.screen_polls(204) == [2.0, 3.0]
    assert found.screen_polls(200) == [30.0]
