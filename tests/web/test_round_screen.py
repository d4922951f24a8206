"""The round screen without JavaScript, undo and restore, and what a watcher may not do.

The phone's script does the same as these posts (tests/browser/test_round_screen.py taps it).
"""

from __future__ import annotations

import html
import json
import re

import pytest

from scorekeeper.club import history
from scorekeeper import store
from scorekeeper.rules import BALMORAL, CLASSIC, GameSetup, RoundRecord, advance, replay, start
from factories import HTMX, board, new_game, post_round, round_form, save_round, standings, text, text_of, totals

SIX = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay"]


def keypad(web, game_id, number=1, **fields):
    """A key of the docked keypad posted without JavaScript: the form comes back."""
    response = web.post(f"/games/{game_id}/rounds/new", data=round_form(number, **fields))
    assert response.status_code == 200
    return response


def field_value(response, name: str) -> str:
    match = re.search(rf'<input\b[^>]*\bname="{re.escape(name)}"[^>]*\bvalue="([^"]*)"', response.get_data(as_text=True))
    assert match, name
    return match.group(1)


def test_every_error_comes_at_once_next_to_its_player(web, app):
    game_id = new_game(web, SIX)
    response = post_round(
        web, game_id, 1,
        hands={1: "2 3 4 5 6 7 8 9 10 J Q A 2 3", 2: "K " * 13},
        points={3: "999", 4: "1"},
    )
    assert response.status_code == 422
    page = text(response)
    assert "Tap the player who went out." in page
    assert "Ben: 14 cards left, but a hand holds at most 13." in page
    assert "Cat: that makes 13 × K in this round, but 3 decks hold only 12 of K." in page
    assert re.search(r"Dev: 999 points is impossible: a hand scores 0 to \d+\.", page)
    assert "Eve: 1 point is impossible: the lowest card scores 2." in page
    # Nobody is marked as went out yet: an empty hand may be theirs, so it is not called missing.
    assert "Ann:" not in page and "Fay:" not in page
    # Nothing typed is lost, and each error is tied to its player's entry.
    assert field_value(response, "hand-1") == "2 3 4 5 6 7 8 9 10 J Q A 2 3"
    assert 'id="err-2"' in response.get_data(as_text=True)
    assert loaded(app, game_id).state.rounds == ()


def test_the_player_who_went_out_gets_no_error_and_the_others_are_named(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    response = post_round(web, game_id, 1, went_out=0, hands={1: "A X"})
    assert response.status_code == 422
    page = text(response)
    assert 'Ben: "X" is not a card' in page
    assert "Cat: no cards entered yet." in page
    assert 'id="err-0"' not in response.get_data(as_text=True)


def test_the_keypad_types_into_the_selected_player_without_javascript(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    # Ann went out: the keypad starts on Ben, the first player who needs a hand.
    response = keypad(web, game_id, went_out=0, key="K")
    assert field_value(response, "hand-1") == "K"
    # Tapping Cat's row (the seat radio) and a key types into Cat's hand.
    response = keypad(web, game_id, went_out=0, seat=2, hands={1: "K"}, key="7")
    assert (field_value(response, "hand-1"), field_value(response, "hand-2")) == ("K", "7")
    assert 'aria-label="Add Q to Cat"' in response.get_data(as_text=True)
    response = keypad(web, game_id, went_out=0, seat=2, hands={1: "K", 2: "7 7"}, edit="back")
    assert field_value(response, "hand-2") == "7"
    response = keypad(web, game_id, went_out=0, seat=2, hands={1: "K", 2: "7 7"}, edit="clear")
    assert field_value(response, "hand-2") == ""
    # "No cards": 0 points, and the keypad moves on to whoever still needs a hand.
    response = keypad(web, game_id, went_out=0, seat=1, hands={}, edit="none")
    assert field_value(response, "points-1") == "0"
    assert 'aria-label="Add Q to Cat"' in response.get_data(as_text=True)
    # "Type" opens the selected row's typed fields (hidden otherwise).
    shut = keypad(web, game_id, went_out=0, seat=2, edit="back").get_data(as_text=True)
    opened = keypad(web, game_id, went_out=0, seat=2, edit="type").get_data(as_text=True)
    typed = r'<div class="typed"( hidden)?>\s*<label for="hand-2"'
    assert re.search(typed, shut).group(1) == " hidden"
    assert re.search(typed, opened).group(1) is None
    # A key for the player who went out adds nothing.
    response = keypad(web, game_id, went_out=0, seat=0, key="2:K")
    assert field_value(response, "hand-0") == ""


def test_saving_the_last_level_says_it_ends_the_game_before_it_is_saved(web, app):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    for number in range(1, 7):
        save_round(web, game_id, number, went_out=1, hands={0: "2", 2: "2"})
    form = web.get(f"/games/{game_id}/rounds/new")
    body = form.get_data(as_text=True)
    assert 'data-finishes="Ben completes level 7"' in body
    assert "Saving ends the game" not in text(form)
    # Without the script: the page says so as soon as the draft would end the game.
    response = keypad(web, game_id, number=7, went_out=0, achieved=[1], key="1:2")
    assert "Saving ends the game: Ben completes level 7." in text(response)


def test_the_last_deal_of_classic_says_it_ends_the_game():
    state = start(GameSetup.create(CLASSIC, ["Ann", "Ben", "Cat"]))
    for _ in range(6):
        assert not state.next.is_last
        state = advance(state, RoundRecord.create("Ann", {"Ben": "2", "Cat": "2"}))
    assert state.next.is_last and state.next.ends_game()


def test_the_last_deal_says_so_on_its_form_and_a_correction_does_not(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat"], rules="classic")
    for number in range(1, 7):
        save_round(web, game_id, number, went_out=0, hands={1: "2", 2: "3"})
    assert "Saving ends the game: deal 7 is the last." in text(web.get(f"/games/{game_id}/rounds/new"))
    save_round(web, game_id, 7, went_out=0, hands={1: "2", 2: "3"})
    assert "Saving ends the game" not in text(web.get(f"/games/{game_id}/rounds/7/edit"))


def test_the_engine_knows_which_achievements_end_the_game():
    setup = GameSetup.create(BALMORAL, ["Ann", "Ben"])
    records = [RoundRecord.create("Ben", {"Ann": "2"})] * 6
    state = replay(setup, records)
    assert state.next.finishers == ("Ben",)
    assert state.next.ends_game(["Ben"]) and not state.next.ends_game(["Ann"])


def test_classic_says_deal(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat"], rules="classic")
    page = text(board(web, game_id))
    assert "Record deal 1" in page and "Record round" not in page
    response = save_round(web, game_id, 1, went_out=0, hands={1: "JK 2", 2: "A"})
    page = text(response)
    assert "Deal 1 saved." in page
    assert "Deal 1:" in page and "Undo deal 1" in page
    form = web.get(f"/games/{game_id}/rounds/1/edit")
    assert "Correct deal 1" in text(form)
    assert '<span class="chip">Joker</span>' in form.get_data(as_text=True)


def test_no_rank_before_the_first_round_and_a_place_header(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    body = board(web, game_id).get_data(as_text=True)
    assert '<th scope="col">Place</th>' in body
    assert "not yet ranked" in body
    save_round(web, game_id, 1, went_out=0, hands={1: "2", 2: "3"})
    rows = standings(board(web, game_id))
    assert [rows[n].line.split()[0] for n in ("Ann", "Ben", "Cat")] == ["1", "2", "3"]


def test_the_rounds_table_says_who_dealt(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat"], dealer=2)
    save_round(web, game_id, 1, went_out=0, hands={1: "2", 2: "3"})
    save_round(web, game_id, 2, went_out=1, hands={0: "2", 2: "3"})
    body = board(web, game_id).get_data(as_text=True)
    dealt = re.findall(r'<td class="dealt">.*?<span class="abbr">(\w+)</span></td>', body)
    # Cat dealt round 1; the winner of a round deals the next (Ann went out in round 1).
    assert dealt == ["Cat", "Ann"]


# ---------------------------------------------------------------- undo and restore


def loaded(app, game_id):
    with app.app_context():
        return store.load(game_id)


def undo(web, game_id, version):
    return web.post(f"/games/{game_id}/rounds/undo", data={"version": str(version)}, headers=HTMX)


def restore_fields(response) -> dict[str, str]:
    body = response.get_data(as_text=True)
    form = re.search(r"<form class=\"undo-bar undo-float\".*?</form>", body, re.S).group(0)
    number = re.search(r'name="number" value="(\d+)"', form).group(1)
    doc = re.search(r"name=\"round\" value='([^']*)'", form).group(1)
    return {"number": number, "round": json.loads(html.unescape(doc))}


def test_undo_removes_the_last_round_and_restore_puts_it_back_exactly(web, app):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    save_round(web, game_id, 1, went_out=0, hands={1: "a k 7 7"}, points={2: "12"}, achieved=[1])
    before = loaded(app, game_id)
    undone = undo(web, game_id, before.game.version)
    assert undone.status_code == 200
    assert "Round 1 removed." in text(undone)
    assert loaded(app, game_id).state.rounds == ()
    fields = restore_fields(undone)
    restored = web.post(f"/games/{game_id}/rounds/restore",
                        data={"number": fields["number"], "round": json.dumps(fields["round"])}, headers=HTMX)
    assert restored.status_code == 200 and "Round 1 restored." in text(restored)
    after = loaded(app, game_id)
    assert after.state.rounds[0].record == before.state.rounds[0].record
    assert [p.total for p in after.state.players] == [p.total for p in before.state.players]


def test_restore_is_refused_once_the_round_was_recorded_again(web, app):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    save_round(web, game_id, 1, went_out=0, hands={1: "2", 2: "3"})
    undone = undo(web, game_id, loaded(app, game_id).game.version)
    fields = restore_fields(undone)
    save_round(web, game_id, 1, went_out=1, hands={0: "K", 2: "Q"})
    refused = web.post(f"/games/{game_id}/rounds/restore",
                       data={"number": fields["number"], "round": json.dumps(fields["round"])}, headers=HTMX)
    assert refused.status_code == 409
    assert "Round 1 cannot be put back" in text(refused)
    assert loaded(app, game_id).state.rounds[0].record.went_out == "Ben"


@pytest.mark.own_database
def test_a_restore_refused_because_another_phone_removed_a_round_meanwhile_shows_the_board_as_it_now_is(
        web, app, monkeypatch):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    save_round(web, game_id, 1, went_out=0, hands={1: "2", 2: "3"})
    save_round(web, game_id, 2, went_out=1, hands={0: "K", 2: "Q"})
    fields = restore_fields(undo(web, game_id, loaded(app, game_id).game.version))
    record_round = store.record_round

    def another_phone_removes_round_1_meanwhile(*args):
        with app.app_context():  # another request: a session and a transaction of its own
            store.delete_round(game_id, 1)
        return record_round(*args)

    # This phone's view reads the game (round 1 still there), then the other phone's removal
    # lands before the store reads it: round 2 can no longer be put back.
    monkeypatch.setattr(store, "record_round", another_phone_removes_round_1_meanwhile)
    refused = web.post(f"/games/{game_id}/rounds/restore",
                       data={"number": fields["number"], "round": json.dumps(fields["round"])}, headers=HTMX)
    assert refused.status_code == 409
    assert "Round 2 cannot be put back: round 1 comes next" in text(refused)
    assert loaded(app, game_id).state.rounds == ()
    assert totals(refused) == {"Ann": 0, "Ben": 0, "Cat": 0}  # the board as the store found it


def test_undo_of_a_changed_game_is_refused(web, app):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    save_round(web, game_id, 1, went_out=0, hands={1: "2", 2: "3"})
    stale = loaded(app, game_id).game.version
    save_round(web, game_id, 2, went_out=0, hands={1: "2", 2: "3"})
    assert undo(web, game_id, stale).status_code == 409
    assert len(loaded(app, game_id).state.rounds) == 2


def test_the_round_undone_stays_offered_on_the_board_until_the_game_changes(web, app):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    save_round(web, game_id, 1, went_out=0, hands={1: "2", 2: "3"})
    save_round(web, game_id, 2, went_out=1, hands={0: "K", 2: "Q"})
    undo(web, game_id, loaded(app, game_id).game.version)
    # A reload, or another page and back: "Restore" is still there (not a one-time message).
    web.get(f"/games/{game_id}/story")
    again = board(web, game_id)
    assert "Round 2 removed. Restore round 2 Keep it removed" in text(again)
    # The page is not answered "not modified" with a board that no longer shows the offer.
    etag = again.headers["ETag"]
    save_round(web, game_id, 2, went_out=2, hands={0: "2", 1: "3"})
    after = web.get(f"/games/{game_id}", headers={"If-None-Match": etag})
    assert after.status_code == 200 and "removed" not in text(after)
    assert "Restore" not in text(board(web, game_id))


def test_keep_it_removed_stops_the_offer_and_restore_is_offered_once(web, app):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    save_round(web, game_id, 1, went_out=0, hands={1: "2", 2: "3"})
    undone = undo(web, game_id, loaded(app, game_id).game.version)
    shown = board(web, game_id)
    kept = web.post(f"/games/{game_id}/rounds/undo/keep", headers=HTMX)
    assert kept.status_code == 200 and "Round 1 removed" not in text(kept)
    plain = web.get(f"/games/{game_id}", headers={"If-None-Match": shown.headers["ETag"]})
    assert plain.status_code == 200 and "Restore" not in text(plain)
    # The form still on another tab restores once; the board then offers nothing more.
    fields = restore_fields(undone)
    restored = web.post(f"/games/{game_id}/rounds/restore",
                        data={"number": fields["number"], "round": json.dumps(fields["round"])}, headers=HTMX)
    assert "Round 1 restored." in text(restored) and "Restore" not in text(restored)
    assert len(loaded(app, game_id).state.rounds) == 1


def test_the_round_screen_can_say_a_kept_entry_was_put_back_but_a_correction_cannot(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    save_round(web, game_id, 1, went_out=0, hands={1: "2", 2: "3"})
    fresh = web.get(f"/games/{game_id}/rounds/new").get_data(as_text=True)
    note = re.search(r"<p class=\"kept-entry\"[^>]*>.*?</p>", fresh, re.S).group(0)
    assert " hidden " in note  # shown by the script only when it puts a kept entry back
    assert "Your unsaved entry for round 2 was put back." in text_of(note)
    assert 'type="button" data-start-over>Start over</button>' in note
    correcting = web.get(f"/games/{game_id}/rounds/1/edit").get_data(as_text=True)
    assert "data-kept-entry" not in correcting


# ---------------------------------------------------------------- a watcher changes nothing


def game_count(app) -> int:
    with app.app_context():
        return history.history_total()


def test_a_watcher_sees_no_button_that_changes_the_game_and_is_refused(app, web):
    game_id = new_game(web, ["Ann", "Ben"])
    for number in range(1, 8):
        save_round(web, game_id, number, went_out=1, hands={0: "2"})
    assert loaded(app, game_id).state.finished
    watcher = app.test_client()
    for url in (f"/games/{game_id}", f"/games/{game_id}/watch", f"/games/{game_id}/story"):
        response = watcher.get(url)
        body = response.get_data(as_text=True)
        assert response.status_code == 200, url
        assert "Play again" not in body and "/again" not in body and "/undo" not in body, url
        assert 'method="post"' not in body, url
    games_before = game_count(app)
    for path in ("again", "rounds/undo", "rounds/restore"):
        response = watcher.post(f"/games/{game_id}/{path}", data={"number": "7", "round": "{}"})
        assert response.status_code == 403, path
    assert game_count(app) == games_before
    assert len(loaded(app, game_id).state.rounds) == 7


def made_inputs(response, seat: int) -> tuple[str, str]:
    """A row's "Made" box and its hidden twin (which sends the tick while the box is locked)."""
    body = response.get_data(as_text=True)
    box = re.search(rf'<input type="checkbox" name="achieved-{seat}"[^>]*>', body)
    twin = re.search(rf'<input\s+type="hidden" name="achieved-{seat}"[^>]*>', body)
    assert box and twin, seat
    return box.group(0), twin.group(0)


def test_the_made_of_the_player_who_went_out_is_locked_on_and_says_why(web, app):
    game_id = new_game(web, ["Ann", "Ben", "Cat"])  # Balmoral: a ladder
    # Without the script, tapping "Out" then a key posts the form: Ben's Made comes back locked on.
    response = keypad(web, game_id, went_out=1, key="0:K")
    box, twin = made_inputs(response, 1)
    assert " checked" in box and " disabled" in box and " disabled" not in twin
    for other in (0, 2):  # the others' are theirs to tick; their twins send nothing
        box, twin = made_inputs(response, other)
        assert " disabled" not in box and " checked" not in box and " disabled" in twin
    # A locked box is not posted, its twin is: Ben still made it when the form comes back.
    again = keypad(web, game_id, went_out=1, key="0:Q", **{"achieved-1": "on"})
    assert " checked" in made_inputs(again, 1)[0]
    # Changing who went out unlocks Ben's (still ticked, as he left it) and locks Cat's.
    moved = keypad(web, game_id, went_out=2, key="0:J", **{"achieved-1": "on"})
    box, twin = made_inputs(moved, 1)
    assert " checked" in box and " disabled" not in box and " disabled" in twin
    assert " disabled" in made_inputs(moved, 2)[0]
    # Saved: the player who went out moves up.
    shown = save_round(web, game_id, 1, went_out=2, hands={0: "K", 1: "Q"}, achieved=[2])
    assert "Cat (to level 2) moves up." in text(shown)


def test_a_rule_set_without_a_ladder_has_no_made_to_lock(web):
    game_id = new_game(web, ["Ann", "Ben", "Cat"], rules="classic")
    response = keypad(web, game_id, went_out=1, key="0:K")
    assert 'name="achieved-' not in response.get_data(as_text=True)
