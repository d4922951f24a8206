"""The table load model (bench/table_load.py) sends a round as the round screen's script does:
the app takes it, and a watcher's poll then shows the version the model polls with next.

`make bench` measures with these requests; were they refused, it would measure errors."""

from __future__ import annotations

from scorekeeper import store
from scorekeeper.rules import BALMORAL, GameSetup

from bench import table_load
from conftest import join

POLL = {"HX-Request": "true", "HX-Trigger": "board"}


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
