"""Files out (game file, backup, CSV: the same as the command line's) and in (uploads, the
command line's import): nothing stored twice, a refusal stores nothing and says why."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re

import pytest
from conftest import CLUB_KEY, make_keeper
from factories import (
    csrf_token,
    games_stored,
    new_game,
    story_links,
    text,
    upload,
)
from history_games import ANN_BEN_CAT, G1, G2, G3, game, out, random_docs
from sqlalchemy import select

from scorekeeper import create_app, store

from scorekeeper.files import transfer
from scorekeeper.web.clubkey import digest
from scorekeeper.files.gamefile import GAME_FORMAT_1, backup_document, game_document, read_document
from scorekeeper.store.models import Game, db

# =============================================================== files out


def test_the_game_file_download_is_exactly_the_command_line_export(web, app, runner, four):
    response = web.get(f"/games/{four[0]}.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    printed = runner.invoke(args=["games", "export", str(four[0])])
    assert printed.exit_code == 0
    assert response.get_data(as_text=True) == printed.output


def test_the_backup_download_is_the_command_line_backup(web, app, runner, four):
    with app.app_context():
        store.delete_game(four[1])
    response = web.get("/backup.json")
    printed = runner.invoke(args=["games", "export", "--all"])
    assert response.get_data(as_text=True) == printed.output
    assert len(response.get_json()["games"]) == 4  # the deleted game too


def test_a_downloaded_game_file_imports_into_a_fresh_database_to_the_same_result(web, app, tmp_path, four):
    fresh = create_app({"TESTING": True, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "USE_CDN": False,
                        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'fresh.sqlite'}",
                        "CLUB_KEY_HASH": digest(CLUB_KEY), "RATELIMIT_ENABLED": False})
    with fresh.app_context():
        db.create_all()
    other = make_keeper(fresh.test_client())
    try:
        for gid in four:
            original = web.get(f"/games/{gid}.json").get_json()
            response = upload(other, original, f"game-{gid}.json")
            assert response.status_code == 200
            new_id = int(re.search(r"imported as game (\d+)", text(response)).group(1))
            again = other.get(f"/games/{new_id}.json").get_json()
            assert again["result"] == original["result"]
            assert again["rounds"] == original["rounds"]
            assert {k: v for k, v in again.items() if k != "result"} == {
                k: v for k, v in original.items() if k != "result"}
    finally:
        with fresh.app_context():
            db.engine.dispose()


def test_the_csv_has_one_row_per_round_and_player(web, four):
    response = web.get(f"/games/{four[2]}.csv")
    assert response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    assert len(rows) == 7 * 3
    assert list(rows[0]) == ["round", "dealer", "player", "cards", "counted_by_hand", "penalty", "running_total",
                             "level", "went_out", "made_contract", "bonuses", "bonus_points"]
    assert rows[0] == {"round": "1", "dealer": "Ann", "player": "Ann", "cards": "", "counted_by_hand": "no",
                       "penalty": "0", "running_total": "0", "level": "1", "went_out": "yes", "made_contract": "",
                       "bonuses": "", "bonus_points": "0"}
    assert rows[1]["cards"] == "A" and rows[1]["penalty"] == "15"
    cat_3 = rows[3 * 3 - 1]
    assert (cat_3["round"], cat_3["player"], cat_3["counted_by_hand"], cat_3["penalty"], cat_3["running_total"]) == (
        "3", "Cat", "yes", "20", "22")
    last = {r["player"]: int(r["running_total"]) for r in rows if r["round"] == "7"}
    assert last == {"Ann": 22, "Ben": 46, "Cat": 37}


def test_the_balmoral_csv_says_the_level_and_who_made_it(web, four):
    rows = list(csv.DictReader(io.StringIO(web.get(f"/games/{four[0]}.csv").get_data(as_text=True).lstrip("\ufeff"))))
    ann = [r for r in rows if r["player"] == "Ann"]
    assert [r["level"] for r in ann] == ["1", "1", "2", "2", "2", "2", "2"]
    assert [r["made_contract"] for r in ann] == ["no", "yes", "no", "no", "no", "no", "no"]
    assert [r["level"] for r in rows if r["player"] == "Ben"] == ["1", "2", "3", "4", "5", "6", "7"]


def test_a_name_cannot_become_a_spreadsheet_formula(web, app):
    doc = game("balmoral", ["=SUM(A1)", "Bo"], [out("Bo", {"=SUM(A1)": "K"})], "2026-01-01T10:00:00Z")
    with app.app_context():
        [o] = transfer.import_files(read_document(doc))
    body = web.get(f"/games/{o.game_id}.csv").get_data(as_text=True)
    assert "'=SUM(A1)" in body and ",=SUM" not in body


# =============================================================== files in


def test_uploading_a_game_file_stores_it_and_a_second_time_does_not(web, app):
    first = upload(web, G1)
    assert first.status_code == 200
    assert "1 game imported" in text(first)
    assert games_stored(app) == 1
    second = upload(web, G1)
    assert second.status_code == 200
    assert "nothing new; 1 already here, not imported again" in text(second)
    assert "is already here as game 1; not imported again" in text(second)
    assert games_stored(app) == 1


def test_the_same_game_written_differently_is_recognised(web, app):
    upload(web, G3)
    # Other key order and spacing, lower-case ranks, T for 10, a stale result, defaults spelt out.
    doc = json.loads(json.dumps(G3))
    doc["rounds"][4]["hands"] = {"Cat": " 4 ", "Ben": "t"}
    doc["rounds"][0]["hands"]["Ben"] = "a"
    doc["dealer_rule"] = "rotate"
    doc["decks"], doc["jokers"] = 2, 1
    doc["result"] = {"finished": False}
    raw = json.dumps(dict(reversed(list(doc.items()))), indent=4).encode()
    assert "already here" in text(upload(web, None, raw=raw))
    assert games_stored(app) == 1


def test_a_changed_game_is_a_different_game(web, app):
    upload(web, G3)
    doc = json.loads(json.dumps(G3))
    doc["rounds"][0]["hands"]["Ben"] = "K"
    assert "1 game imported" in text(upload(web, doc))
    assert games_stored(app) == 2


def test_a_backup_of_this_database_uploaded_again_adds_nothing(web, app, four):
    gid = new_game(web, ANN_BEN_CAT)  # a game started here has no fingerprint of its own
    backup = web.get("/backup.json").get_data()
    response = upload(web, None, "backup.json", raw=backup)
    assert response.status_code == 200
    assert "nothing new; 5 already here" in text(response)
    assert games_stored(app) == 5
    assert f"is already here as game {gid}" in text(response)


def test_a_game_twice_in_one_file_is_stored_once(web, app):
    response = upload(web, backup_document([G1, G2, G1]), "backup.json")
    assert "2 games imported" in text(response)
    assert "Game 3 of 3 is the same game as an earlier one in the file (game 1); imported once." in text(response)
    assert games_stored(app) == 2


def test_importing_a_deleted_game_brings_it_back(web, app):
    upload(web, G1)
    with app.app_context():
        store.delete_game(1)
    response = upload(web, G1)
    assert "which had been deleted: it is back in the history" in text(response)
    assert games_stored(app) == 1
    assert story_links(web.get("/history")) == [1]


def test_a_refused_backup_stores_nothing_and_says_why(web, app):
    bad = json.loads(json.dumps(G3))
    bad["rounds"][1]["hands"]["Ann"] = "K X"
    response = upload(web, backup_document([G1, bad]), "backup.json")
    assert response.status_code == 422
    assert "backup.json: refused: Game 2 of the backup: Round 2: Ann: \"X\" is not a card" in text(response)
    assert "Nothing was stored." in text(response)
    assert games_stored(app) == 0


def test_the_web_refuses_with_the_command_lines_message(web, app, runner, tmp_path):
    bad = json.loads(json.dumps(G1))
    bad["rounds"].append(out("Ann", {"Ben": "K", "Cat": "2"}))  # after the game ended
    path = tmp_path / "late.json"
    path.write_text(json.dumps(bad))
    printed = runner.invoke(args=["games", "import", str(path)])
    assert printed.exit_code == 1
    cli_message = printed.output.strip().split(": ", 1)[1]
    response = upload(web, bad, "late.json")
    assert f"late.json: {cli_message}" in text(response)
    assert games_stored(app) == 0


@pytest.mark.parametrize("raw, message", [
    (b"{not json", "not.json: not a JSON document (something is wrong at line 1, column 2)"),
    (b'{\n  "format": "scorekeeper-game/1",\n  "rules" "balmoral"}', "(something is wrong at line 3, column 11)"),
    (b"\xff\xfe\x00", "not.json: not a JSON document (it is not UTF-8 text)"),
    (b"[" * 100000, "not.json: not a JSON document (nested too deeply to read)"),
    (b'{"format": "scorekeeper-game/1", "decks": 1' + b"0" * 5000 + b"}",
     "not.json: not a JSON document (a number too long to read)"),
    (b'{"format": "something-else"}', "not.json: refused: \"format\" must be"),
])
def test_a_file_that_is_not_a_game_file_is_refused(web, app, raw, message):
    response = upload(web, None, "not.json", raw=raw)
    assert response.status_code == 422
    assert message in text(response)
    assert games_stored(app) == 0


def test_an_upload_without_a_file_asks_for_one(web):
    response = web.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Choose a file first." in text(response)


def test_the_upload_needs_the_form_token(app, keeper):
    client = keeper
    app.config["WTF_CSRF_ENABLED"] = True
    response = upload(client, G1)
    assert response.status_code == 400
    assert games_stored(app) == 0
    token = csrf_token(client.get("/import"))
    assert upload(client, G1, csrf_token=token).status_code == 200
    assert games_stored(app) == 1


def test_a_backup_larger_than_a_page_may_be_uploaded(web, app):
    app.config["MAX_CONTENT_LENGTH"] = 1000
    response = upload(web, backup_document(random_docs(3, seed=1)), "backup.json")
    assert response.status_code == 200 and "3 games imported" in text(response)
    app.config["IMPORT_MAX_BYTES"] = 1000
    assert upload(web, backup_document(random_docs(3, seed=2)), "backup.json").status_code == 413


def test_web_imported_games_may_be_deleted_by_the_phone_that_imported_them(web, app):
    upload(web, G1)
    assert web.post("/games/1/delete").status_code == 303
    with app.app_context():
        assert db.session.get(Game, 1).deleted_at is not None


def test_the_command_line_import_does_not_duplicate_either(app, runner, tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps(backup_document([G1, G2])))
    first = runner.invoke(args=["games", "import", str(path)])
    assert first.exit_code == 0
    assert first.stdout.split() == ["1", "2"]
    second = runner.invoke(args=["games", "import", str(path)])
    assert second.exit_code == 0
    assert second.stdout.split() == ["1", "2"]
    assert "Game 1 of 2 is already here as game 1; not imported again." in second.stderr
    assert games_stored(app) == 2


def test_the_fingerprint_is_kept_on_the_imported_game(app):
    with app.app_context():
        [gf] = read_document(G1)
        [o] = transfer.import_files([gf])
        stored = db.session.get(Game, o.game_id).fingerprint
        # A balmoral game's fingerprint is still that of its version 1 file, as it was before
        # version 2 (so games imported then are recognised when their files come again).
        doc = game_document(gf.state, gf.started_at, gf.finished_at, with_result=False, version=GAME_FORMAT_1)
    expected = hashlib.sha256(json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
                              .encode()).hexdigest()
    assert stored == expected


def test_a_time_that_cannot_be_told_in_utc_is_refused_not_a_crash(web, app, runner, tmp_path):
    doc = dict(G2, started_at="0001-01-01T00:00:00+01:00")
    response = upload(web, doc, "old.json")
    assert response.status_code == 422
    assert re.search(r"old.json: refused: started_at \S+ is out of range", text(response))
    path = tmp_path / "old.json"
    path.write_text(json.dumps(doc))
    printed = runner.invoke(args=["games", "import", str(path)])
    assert printed.exit_code == 1
    assert re.search(r"refused: started_at \S+ is out of range", printed.stderr)
    assert games_stored(app) == 0


def test_restoring_a_big_backup_keeps_this_phones_right_to_its_own_game(web, app):
    mine = new_game(web, ANN_BEN_CAT)
    response = upload(web, backup_document(random_docs(70, seed=8)), "backup.json")
    assert "70 games imported" in text(response)
    assert "and 20 more" in text(response)  # the first 50 are listed one by one
    with app.app_context():
        imported = list(db.session.scalars(select(Game.id).where(Game.id != mine).order_by(Game.id)))
    assert web.post(f"/games/{mine}/delete").status_code == 303
    assert web.post(f"/games/{imported[-1]}/delete").status_code == 303  # the newest few: yes
    assert web.post(f"/games/{imported[0]}/delete").status_code == 403


def test_the_csv_names_each_bonus_and_its_share_of_the_penalty(web):
    from factories import HTMX, accepted, new_game, post_round

    game_id = new_game(web, ["Ann", "Ben", "Cat"], rules="liverpool")
    accepted(web, game_id, post_round(web, game_id, 1, headers=HTMX, went_out=0, hands={1: "K", 2: "2"},
                                      **{"bonus-0": "perfect-cut"}))
    rows = list(csv.DictReader(io.StringIO(web.get(f"/games/{game_id}.csv").get_data(as_text=True).lstrip("\ufeff"))))
    ann = rows[0]
    assert (ann["player"], ann["penalty"], ann["bonuses"], ann["bonus_points"]) == ("Ann", "-50", "Perfect cut −50", "-50")
    assert (rows[1]["penalty"], rows[1]["bonuses"], rows[1]["bonus_points"]) == ("10", "", "0")


def test_the_session_cookie_stays_small_after_many_imported_games(web, app):
    """Browsers may drop a cookie over 4 KB, and the keys and the Restore offer with it: after
    three imports of twenty games the session keeps the newest edit keys within the limit, and
    the newest imported game can still be changed from this phone."""
    for seed in (1, 2, 3):
        response = upload(web, backup_document(random_docs(20, seed=seed)), "backup.json")
        assert response.status_code == 200, text(response)[:300]
    cookie = web.get_cookie("session")
    assert cookie is not None and len(cookie.value) < 2500, len(cookie.value)
    newest = games_stored(app)
    assert web.get(f"/games/{newest}/delete").status_code == 200
    assert "Only a phone that keeps score" not in text(web.get(f"/games/{newest}/delete"))


def test_a_game_brought_back_by_an_import_is_news_to_a_phone_that_saw_it_deleted(web, app):
    upload(web, G1)
    with app.app_context():
        store.delete_game(1)
        seen = db.session.get(Game, 1).version
    # The phone showing "This game is deleted" asks whether anything changed: nothing yet.
    assert web.get(f"/games/1/live?v={seen}").status_code == 204
    upload(web, G1)
    with app.app_context():
        assert db.session.get(Game, 1).version > seen
    news = web.get(f"/games/1/live?v={seen}")
    assert news.status_code == 200 and "This game is deleted" not in text(news)
