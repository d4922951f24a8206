"""Club nights in the club's JSON backup (``files/nightfile.py``): written beside the games,
restored with them through the store on SQLite and PostgreSQL alike, never twice; a backup
without nights restores as before; a night the backup gets wrong is refused whole, saying why."""

from __future__ import annotations

import json
import random
from datetime import date

import pytest
from conftest import CLUB_KEY, make_keeper
from factories import finish, text, upload, version_of
from history_games import random_docs

from scorekeeper import store
from scorekeeper.club.nights import night_standings
from scorekeeper.files import transfer
from scorekeeper.files.gamefile import GameFileError
from scorekeeper.rules import BALMORAL, ruleset_document
from scorekeeper.store.models import db

THURSDAY = date(2026, 12, 3)
AUTH = {"Authorization": f"Bearer {CLUB_KEY}"}
SEVEN = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]


def a_whole_night(rules="balmoral") -> int:
    """Seven players (Gus went home), table 1 played to its end, table 2 waiting to start."""
    night, _key = store.open_night(rules, THURSDAY)
    store.check_in(night.id, SEVEN)
    store.leave_night(night.id, store.find_player("Gus").id)
    store.draw_night(night.id, random.Random(1))
    finish(store.start_table(night.id, 1, random.Random(1)).game.id)
    return night.id


def what_the_club_has():
    return [(n.held_on, n.rules.name, n.closed_at, n.players, n.games, n.drawn_round, n.drawn)
            for n in store.every_night()]


def restore(doc) -> list[transfer.Imported]:
    files = transfer.read_files(doc)
    return transfer.import_files(files, nights=transfer.read_nights(doc, files))


def emptied(app) -> None:
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()


def test_a_backup_keeps_the_clubs_nights_and_restores_them_into_an_empty_club(fresh_app):
    with fresh_app.app_context():
        a_whole_night()
        closed, _key = store.open_night("classic", date(2026, 11, 26))
        store.check_in(closed.id, ["Ann", "Ben"])
        store.close_night(closed.id)
        before = what_the_club_has()
        doc = json.loads(transfer.as_json(transfer.backup()))
    assert [n["held_on"] for n in doc["nights"]] == ["2026-11-26", "2026-12-03"]
    assert doc["nights"][1]["games"] == [{"game": 1, "round": 1, "table": 1}]
    emptied(fresh_app)
    with fresh_app.app_context():
        restore(doc)
        assert what_the_club_has() == before
        night = store.list_nights()[0]  # the latest: ids are the restoring club's
        open_one = night.id
        assert night.rules == "balmoral" and night.closed_at is None and night.key_hash is None
        assert [t.table for t in store.drawn_tables(night)[1]] == [2]
        assert store.night_games(open_one)[0].finished
        # The night goes on: its waiting table starts as before.
        store.start_table(open_one, 2, random.Random(1))


def test_a_backup_restored_again_adds_no_night_and_a_game_newly_at_a_night_moves_on_a_version(fresh_app):
    with fresh_app.app_context():
        a_whole_night()
        doc = json.loads(transfer.as_json(transfer.backup()))
    emptied(fresh_app)
    with fresh_app.app_context():
        old = {k: v for k, v in doc.items() if k != "nights"}  # a backup from before nights were kept
        assert [o.status for o in restore(old)] == [transfer.NEW]
        assert store.list_nights() == [] and version_of(1) == 1
        assert [o.status for o in restore(doc)] == [transfer.EXISTING]
        assert len(store.list_nights()) == 1 and version_of(1) == 2  # its page now names the night
        restore(doc)
        assert len(store.list_nights()) == 1 and version_of(1) == 2


def test_a_night_of_house_rules_comes_back_with_its_rules_into_a_club_without_them(fresh_app):
    with fresh_app.app_context():
        document = ruleset_document(BALMORAL) | {"name": "Thursday rules"}
        entry = store.save_ruleset(document)
        a_whole_night(entry.key)
        doc = json.loads(transfer.as_json(transfer.backup()))
    emptied(fresh_app)
    with fresh_app.app_context():
        restore(doc)
        night = store.list_nights()[0]
        assert store.get_ruleset(night.rules).name == "Thursday rules"


def standings_by_name(night_id):
    return [(s.rank, s.name, s.points, s.relative, s.games, s.playing) for s in night_standings(night_id)]


def test_a_game_put_in_the_bin_stays_out_of_the_nights_backup_and_the_night_restores_as_it_stands(fresh_app):
    with fresh_app.app_context():
        night, _key = store.open_night("balmoral", THURSDAY)
        store.check_in(night.id, SEVEN)
        store.draw_night(night.id, random.Random(1))
        binned = store.start_table(night.id, 1, random.Random(1)).game.id
        store.delete_game(binned)
        store.draw_night(night.id, random.Random(2))  # round 1 again: its players are free
        finish(store.start_table(night.id, 1, random.Random(2)).game.id)
        before, standing = what_the_club_has(), standings_by_name(night.id)
        doc = json.loads(transfer.as_json(transfer.backup()))
    assert len(doc["nights"][0]["games"]) == 1
    emptied(fresh_app)
    with fresh_app.app_context():
        restore(doc)
        assert what_the_club_has() == before
        assert standings_by_name(store.list_nights()[0].id) == standing


# ------------------------------------------------------------------ refused whole


def a_backup(*games_players, nights):
    games = [{"format": "scorekeeper-game/2", "rules": "balmoral", "players": list(players),
              "first_dealer": players[0], "rounds": []} for players in games_players]
    return {"format": "scorekeeper-backup/1", "games": games, "nights": nights}


def night(**fields):
    return {"held_on": "2026-12-03", "rules": "balmoral", "opened_at": "2026-12-03T18:00:00Z",
            "players": [{"name": n} for n in SEVEN], **fields}


@pytest.mark.parametrize(("doc", "said"), [
    (a_backup(["Ann", "Ben"], ["Cat", "Ann"], nights=[night(games=[{"game": 1, "round": 1, "table": 1},
                                                                   {"game": 2, "round": 1, "table": 2}])]),
     "Night 1 of the backup: Ann sits at two tables at once: games 1 and 2"),
    (a_backup(["Ann", "Ben"], nights=[night(drawn={"round": 1, "tables": [{"table": 1, "players": ["Ann"]}]})]),
     "Night 1 of the backup: table 1 is drawn with fewer than two players"),
    (a_backup(["Ann", "Ben"], nights=[night(games=[{"game": 2, "round": 1, "table": 1}])]),
     "Night 1 of the backup: \"game\" must be the number of one of the backup's games (1 to 1)"),
    (a_backup(["Ann", "Ben"], nights=[night(games=[{"game": 1, "round": 1, "table": 1}]),
                                      night(games=[{"game": 1, "round": 1, "table": 1}])]),
     "Night 2 of the backup: game 1 of the backup is at night 1 too"),
    (a_backup(["Ann", "Ben"], nights=[night(drawn={"round": 1, "tables": [{"table": 1, "players": ["Ann", "Ben"]},
                                                                          {"table": 1, "players": ["Cat", "Dan"]}]})]),
     "Night 1 of the backup: table 1 is drawn twice"),
    (a_backup(["Ann", "Ben"], nights=[night(closed_at="2026-12-03T23:00:00Z",
                                            drawn={"round": 1, "tables": [{"table": 1, "players": ["Ann", "Ben"]}]})]),
     "Night 1 of the backup: a closed night has no tables waiting to start"),
    (a_backup(["Ann", "Ben"], nights=[night(held_on="Thursday")]),
     'Night 1 of the backup: "held_on" is not as a backup writes it'),
    (a_backup(["Ann", "Ben"], nights=[night(players=[{"name": "Ann"}, {"name": "ann"}])]),
     "Night 1 of the backup: ann is checked in twice"),
    (a_backup(["Ann", "Ben"], nights={}), 'a backup\'s "nights" must be a list'),
])
def test_a_night_the_backup_gets_wrong_is_refused_saying_why(doc, said):
    files = transfer.read_files(doc)
    with pytest.raises(GameFileError) as refused:
        transfer.read_nights(doc, files)
    assert str(refused.value) == said


def test_the_upload_page_refuses_a_night_at_two_tables_and_stores_nothing(web, app):
    doc = a_backup(["Ann", "Ben"], ["Cat", "Ann"], nights=[night(games=[{"game": 1, "round": 1, "table": 1},
                                                                        {"game": 2, "round": 1, "table": 2}])])
    answer = upload(web, doc)
    assert answer.status_code == 422
    assert "Ann sits at two tables at once" in answer.get_data(as_text=True)
    with app.app_context():
        assert store.all_game_ids() == [] and store.list_nights() == []


def test_the_command_lines_backup_and_import_carry_the_nights(fresh_app, tmp_path):
    runner = fresh_app.test_cli_runner()
    with fresh_app.app_context():
        a_whole_night()
        before = what_the_club_has()
    printed = runner.invoke(args=["games", "export", "--all"])
    assert printed.exit_code == 0 and json.loads(printed.output)["nights"]
    (tmp_path / "backup.json").write_text(printed.output, encoding="utf-8")
    emptied(fresh_app)
    done = runner.invoke(args=["games", "import", str(tmp_path / "backup.json")])
    assert done.exit_code == 0, done.output
    with fresh_app.app_context():
        assert what_the_club_has() == before


def a_night_this_club_cannot_seat():
    """Read well, but Ann sits at round 2's table while her round-1 game is still in progress."""
    [finished] = random_docs(1, seed=16, players=["Ann", "Cat", "Dan"])
    doc = a_backup(["Ann", "Ben"], nights=[night(games=[{"game": 1, "round": 1, "table": 1},
                                                        {"game": 2, "round": 2, "table": 1}])])
    doc["games"].append(finished)
    return doc


REFUSED_AT_THE_TABLE = "Night 1 of the backup: Ann is already playing at table 1"


def test_the_upload_page_refuses_a_night_the_club_cannot_seat_and_stores_nothing(web, app):
    answer = upload(web, a_night_this_club_cannot_seat(), name="backup.json")
    assert answer.status_code == 422
    assert f"backup.json: refused: {REFUSED_AT_THE_TABLE}" in text(answer)
    with app.app_context():
        assert store.all_game_ids() == [] and store.list_nights() == []


def test_the_api_refuses_a_night_the_club_cannot_seat_and_stores_nothing(app):
    keeper = make_keeper(app.test_client())
    answer = keeper.post("/api/import", json=a_night_this_club_cannot_seat(), headers=AUTH)
    assert answer.status_code == 422
    assert answer.get_json() == {"error": {"message": REFUSED_AT_THE_TABLE, "field": "nights"}}
    with app.app_context():
        assert store.all_game_ids() == [] and store.list_nights() == []


def test_the_command_line_refuses_a_night_the_club_cannot_seat_and_stores_nothing(fresh_app, tmp_path):
    (tmp_path / "backup.json").write_text(json.dumps(a_night_this_club_cannot_seat()), encoding="utf-8")
    done = fresh_app.test_cli_runner().invoke(args=["games", "import", str(tmp_path / "backup.json")])
    assert done.exit_code == 1 and f"backup.json: refused: {REFUSED_AT_THE_TABLE}" in done.output
    with fresh_app.app_context():
        assert store.all_game_ids() == [] and store.list_nights() == []
