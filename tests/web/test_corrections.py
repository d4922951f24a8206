"""Correcting and deleting recorded rounds: everything after them is worked out again."""

from __future__ import annotations

import re

from factories import (
    CONTRACT_1,
    CONTRACT_2,
    accepted,
    board,
    delete_round,
    edit_round,
    input_value,
    is_checked,
    new_game,
    rounds_stored,
    save_round,
    standings,
    text,
    totals,
)
from conftest import join
from sqlalchemy import func, select

from scorekeeper.files.transfer import export_game
from scorekeeper.store.models import Round, db

# =============================================================== corrections


def test_the_correction_form_shows_the_round_as_recorded(web, played):
    response = web.get(f"/games/{played}/rounds/1/edit")
    assert response.status_code == 200
    assert "Correct round 1" in text(response)
    assert input_value(response, "hand-0") == "A K 7 7"
    assert input_value(response, "hand-2") == "Q 10 10 2"  # stored highest first
    assert input_value(response, "points-3") == "5"
    assert is_checked(response, "went_out", "1")
    assert is_checked(response, "achieved-2")
    assert not is_checked(response, "achieved-0")


def test_correcting_round_1_works_out_the_later_rounds_again(web, app, played):
    # Cat did not make her contract in round 1 after all, and Ann held only an ace.
    response = edit_round(web, played, 1, went_out=1, hands={0: "A", 2: "10 10 Q 2"}, points={3: "5"})
    assert "Round 1 corrected" in text(accepted(web, played, response))
    rows = standings(board(web, played))
    assert {n: r.total for n, r in rows.items()} == {"Ann": 20, "Ben": 10, "Cat": 62, "Dan": 5}
    assert CONTRACT_1 in rows["Cat"].line
    assert CONTRACT_2 in rows["Ann"].line
    assert rounds_stored(app, played) == 2
    # Round 2 was played with only Ben on level 2, as its correction form now shows.
    round_2 = text(web.get(f"/games/{played}/rounds/2/edit"))
    assert round_2.count(CONTRACT_1) == 3 and round_2.count(CONTRACT_2) == 1


def test_correcting_who_went_out_changes_the_next_dealer(web, balmoral):
    save_round(web, balmoral, 1, went_out=1, hands={0: "K", 2: "Q", 3: "J"})
    response = edit_round(web, balmoral, 1, went_out=2, hands={0: "K", 1: "Q", 3: "J"})
    accepted(web, balmoral, response)
    page = board(web, balmoral)
    assert "Cat deals" in text(page)
    assert totals(page) == {"Ann": 10, "Ben": 10, "Cat": 0, "Dan": 10}


def test_a_refused_correction_changes_nothing(web, played):
    response = edit_round(web, played, 1, went_out=1, hands={0: "A X", 2: "10 10 Q 2"}, points={3: "5"})
    assert response.status_code == 422
    assert 'Ann: "X" is not a card' in text(response)
    assert input_value(response, "hand-0") == "A X"
    assert totals(board(web, played)) == {"Ann": 44, "Ben": 10, "Cat": 62, "Dan": 5}


def test_deleting_a_round_asks_first(web, played):
    response = web.get(f"/games/{played}/rounds/1/delete")
    assert response.status_code == 200
    seen = text(response)
    assert "Delete round 1?" in seen
    assert "Ben went out" in seen
    assert "Ann 39, Ben 0, Cat 32, Dan 5" in seen


def test_deleting_a_round_renumbers_the_later_rounds(web, app, played):
    assert "Round 1 deleted" in text(accepted(web, played, delete_round(web, played, 1)))
    page = board(web, played)
    assert rounds_stored(app, played) == 1
    # Old round 2 is now round 1: dealt by Ann (the first dealer), Dan went out.
    rows = standings(page)
    assert {n: r.total for n, r in rows.items()} == {"Ann": 5, "Ben": 10, "Cat": 30, "Dan": 0}
    assert CONTRACT_2 in rows["Ann"].line and CONTRACT_2 in rows["Dan"].line
    assert CONTRACT_1 in rows["Ben"].line and CONTRACT_1 in rows["Cat"].line
    assert "Round 2" in text(page) and "Dan deals" in text(page)
    moved = web.get(f"/games/{played}/rounds/1/edit")
    assert input_value(moved, "hand-0") == "3 2"  # stored highest first
    assert is_checked(moved, "went_out", "3")
    assert web.get(f"/games/{played}/rounds/2/edit").status_code == 404


def test_deleting_the_last_round_undoes_it(web, app, played):
    assert "Undo round 2" in text(board(web, played))
    shown = accepted(web, played, delete_round(web, played, 2))
    assert "<html" not in shown.get_data(as_text=True)
    assert totals(shown) == {"Ann": 39, "Ben": 0, "Cat": 32, "Dan": 5}
    assert "Ben deals" in text(shown)
    assert rounds_stored(app, played) == 1


def test_deleting_a_round_already_gone_says_so(web, app, played):
    accepted(web, played, delete_round(web, played, 2))
    response = web.post(f"/games/{played}/rounds/2/delete")
    assert response.status_code == 409
    assert "Round 2 is already gone." in text(response)
    assert rounds_stored(app, played) == 1


def ladder_game_with_ann_on_level_7(web) -> int:
    """Ann and Ben: Ann makes rounds 1 to 6, then Ben goes out twice with Ann missing level 7."""
    game_id = new_game(web, ["Ann", "Ben"])
    for number in range(1, 7):
        save_round(web, game_id, number, went_out=0, hands={1: "K"})
    save_round(web, game_id, 7, went_out=1, hands={0: "5"})
    save_round(web, game_id, 8, went_out=1, hands={0: "5"})
    return game_id


def test_a_correction_that_would_end_the_game_earlier_is_refused(web, app):
    game_id = ladder_game_with_ann_on_level_7(web)
    assert "Level 7: 1 set of 3 and 1 run of 7" in standings(board(web, game_id))["Ann"].line
    # Ann did make level 7 in round 7: that round would have ended the game.
    response = edit_round(web, game_id, 7, went_out=1, hands={0: "5"}, achieved=[0])
    assert response.status_code == 422
    seen = text(response)
    assert "would end the game after round 7" in seen
    assert re.search(r"delete rounds? 8\b.* first", seen)
    assert rounds_stored(app, game_id) == 8
    page = board(web, game_id)
    assert "Game over" not in text(page)
    assert totals(page) == {"Ann": 10, "Ben": 60}


def test_the_correction_is_accepted_once_the_later_rounds_are_deleted(web, app):
    game_id = ladder_game_with_ann_on_level_7(web)
    accepted(web, game_id, delete_round(web, game_id, 8))
    response = edit_round(web, game_id, 7, went_out=1, hands={0: "5"}, achieved=[0])
    accepted(web, game_id, response)
    seen = text(board(web, game_id))
    assert "Game over" in seen
    assert "Ann wins with 5." in seen
    assert "completed 7 of 7 levels" in seen


def test_a_correction_sent_again_after_its_answer_was_lost_is_corrected_not_a_conflict(web, app, played):
    version = int(input_value(web.get(f"/games/{played}/rounds/1/edit"), "version"))
    fields = dict(went_out=1, hands={0: "A", 2: "10 10 Q 2"}, points={3: "5"}, achieved=[2], version=version)
    first = edit_round(web, played, 1, **fields)
    assert first.status_code == 200 and "Round 1 corrected" in text(first)
    # The same correction again, from the same version: the phone's own, already done.
    again = edit_round(web, played, 1, **fields)
    assert again.status_code == 200
    assert "Round 1 corrected" in text(again) and "changed on another phone" not in text(again)
    assert totals(again) == totals(first)
    # A different correction from that old version is still a conflict.
    other = edit_round(web, played, 1, **{**fields, "hands": {0: "K", 2: "10 10 Q 2"}})
    assert other.status_code == 409
    assert "changed on another phone" in text(other)
    assert rounds_stored(app, played) == 2


# =============================================================== two phones, one game

#: A game with one round, as the API creates it.
ONE_ROUND = {
    "format": "scorekeeper-game/1", "rules": "balmoral", "players": ["Ann", "Ben", "Cat"], "first_dealer": "Ben",
    "started_at": "2026-11-01T18:00:00Z",
    "rounds": [{"went_out": "Ann", "hands": {"Ben": "A K", "Cat": "2 3"}, "achieved": ["Cat"]}],
}


def token(client, url):
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get(url).text).group(1)


def test_a_change_made_on_an_old_version_is_refused_and_the_other_round_kept(app):
    phone_a = app.test_client()
    created = phone_a.post("/api/games", json=ONE_ROUND).get_json()
    key = created["edit_key"]
    join(phone_a, 1, key)
    phone_b = app.test_client()
    join(phone_b, 1, key)
    form_url = "/games/1/rounds/1/edit"
    old_form = phone_a.get(form_url).text
    version = re.search(r'name="version" value="(\d+)"', old_form).group(1)
    # Phone B records round 2 meanwhile.
    b_token = token(phone_b, "/games/1/rounds/new")
    saved = phone_b.post("/games/1/rounds/new", data={"csrf_token": b_token, "number": "2", "went_out": "1",
                                                      "hand-0": "K", "hand-2": "2", "save": "1"})
    assert saved.status_code == 303
    # Phone A saves its correction made on the old version: refused, and B's round is kept.
    a_token = re.search(r'name="csrf_token" value="([^"]+)"', old_form).group(1)
    late = phone_a.post(form_url, data={"csrf_token": a_token, "version": version, "number": "1", "went_out": "2",
                                         "hand-0": "Q", "hand-1": "Q", "save": "1"})
    assert late.status_code == 409
    assert "changed on another phone" in late.text and "nothing was saved" in late.text
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Round)) == 2
        assert export_game(1)["rounds"][0]["went_out"] == "Ann"
    delete = phone_a.post("/games/1/rounds/1/delete", data={"csrf_token": a_token, "version": version})
    assert delete.status_code == 409
