"""The games the phone's replay is checked against on Node (tests/js/cases/) are the engine's
own figures: written again here from the engine, they must be the files committed."""

from pathlib import Path

import js_cases


def test_the_committed_cases_are_the_engines_figures():
    written = {name: js_cases.text(games) for name, games in js_cases.cases().items()}
    committed = {path.name: path.read_text(encoding="utf-8") for path in Path(js_cases.FOLDER).glob("*.json")}
    stale = sorted(name for name in written.keys() | committed.keys() if written.get(name) != committed.get(name))
    assert not stale, (f"tests/js/cases/ differs from what the engine works out in {', '.join(stale)}: "
                       "run `make js-cases` and commit the files it writes")


def test_every_case_starts_from_the_page_data_of_a_game():
    for games in js_cases.cases().values():
        for game in games:
            assert len(game["rounds"]) == len(game["after"]) >= 1, game["name"]
            assert game["game"]["state"]["next"] is not None, game["name"]
