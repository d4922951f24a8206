"""Every player enters their own hand on their own phone: seat links, the hands sent and kept
until the round is saved, what a seat key may not do, and "that's not my hand"."""

from __future__ import annotations

import re

import pytest
from conftest import make_keeper
from factories import (ANN_BEN_CAT_DAN, ANN_WINS, HTMX, board, classic_game, counted, new_game, post_round,
                       round_form, rounds_stored, save_round, text)
from sqlalchemy import func, select

from scorekeeper import store
from scorekeeper.store.models import Round, RoundFlag, Seat, SentHand, db


@pytest.fixture
def seated(app, web, balmoral):
    """The Balmoral game's seat links, made on the scorekeeper's phone: each seat's key."""
    assert web.post(f"/games/{balmoral}/seat-links").status_code == 303
    page = web.get(f"/games/{balmoral}/share").get_data(as_text=True)
    return re.findall(r'href="http[^"]*/games/\d+/seat#key=([^"]+)"', page)


def phone(app, game_id: int, key: str):
    """A player's phone that opened their seat link."""
    client = app.test_client()
    response = client.post(f"/games/{game_id}/seat", data={"key": key})
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game_id}/hand"
    return client


def send(client, game_id, number, seat, cards=None, out=False, made=False, points=None, headers=None):
    data = {"number": str(number), "send": "1"}
    if out:
        data["went_out"] = str(seat)
    if cards is not None:
        data[f"hand-{seat}"] = cards
    if points is not None:
        data[f"points-{seat}"] = str(points)
    if made:
        data[f"achieved-{seat}"] = "on"
    return client.post(f"/games/{game_id}/hand", data=data, headers=headers)


def sent_rows(app, game_id):
    with app.app_context():
        return db.session.execute(select(SentHand.number, SentHand.position, SentHand.cards, SentHand.revision)
                                  .where(SentHand.game_id == game_id).order_by(SentHand.position)).all()


def test_the_share_page_shows_a_link_for_each_player_and_keeps_only_hashes(app, web, balmoral, seated):
    page = text(web.get(f"/games/{balmoral}/share"))
    for name in ANN_BEN_CAT_DAN:
        # Named for the player it is for, not an order to the scorekeeper.
        assert f"{name}'s seat link" in page and f"Enter {name}'s hand" not in page
    assert "Make new seat links" in page
    with app.app_context():
        hashes = db.session.scalars(select(Seat.key_hash).where(Seat.game_id == balmoral)).all()
    assert len(hashes) == 4 and all(len(h) == 64 for h in hashes)
    assert not set(seated) & set(hashes)


def test_a_player_sends_their_hand_and_the_round_screen_shows_it(app, web, balmoral, seated):
    ben = phone(app, balmoral, seated[1])
    page = text(ben.get(f"/games/{balmoral}/hand"))
    assert "Ben: round 1" in page and "Send to the scorekeeper" in page
    assert send(ben, balmoral, 1, 1, "K 7 7", made=True).status_code == 303
    assert "Sent: K 7 7 (24), made the level" in text(ben.get(f"/games/{balmoral}/hand"))
    screen = web.get(f"/games/{balmoral}/rounds/new")
    words = text(screen)
    assert "waiting for Ann" in words and "sent by Ben: K 7 7 (24), made the level" in words
    assert 'value="K 7 7"' in screen.get_data(as_text=True)
    # Every other hand sent: the scorekeeper only saves, and the round is the hands sent.
    send(phone(app, balmoral, seated[0]), balmoral, 1, 0, out=True)
    send(phone(app, balmoral, seated[2]), balmoral, 1, 2, "Q")
    send(phone(app, balmoral, seated[3]), balmoral, 1, 3, points=0)
    assert "sent by Dan: no cards (0)" in text(web.get(f"/games/{balmoral}/rounds/new"))
    totals = save_round(web, balmoral, 1, went_out=0, hands={1: "K 7 7", 2: "Q"}, points={3: "0"}, achieved=[1])
    assert "Round 1 saved" in text(totals)
    assert sent_rows(app, balmoral) == []  # saved: the sent hands are kept no longer


def test_the_same_hand_sent_twice_is_stored_once_and_the_last_sent_wins(app, balmoral, seated):
    first, second = phone(app, balmoral, seated[2]), phone(app, balmoral, seated[2])
    send(first, balmoral, 1, 2, "K 7 7", headers=HTMX)
    send(first, balmoral, 1, 2, "K 7 7", headers=HTMX)
    assert sent_rows(app, balmoral) == [(1, 2, "K 7 7", 1)]
    send(second, balmoral, 1, 2, "Q", headers=HTMX)
    assert sent_rows(app, balmoral) == [(1, 2, "Q", 2)]
    # Both phones of the seat see the hand sent last.
    assert "Sent: Q (10)" in text(first.get(f"/games/{balmoral}/hand"))
    assert "Sent: Q (10)" in text(second.get(f"/games/{balmoral}/hand"))


def test_a_hand_for_a_round_already_saved_is_refused_with_what_was_saved(app, web, balmoral, seated):
    cat = phone(app, balmoral, seated[2])
    cat.get(f"/games/{balmoral}/hand")
    save_round(web, balmoral, 1, went_out=0, hands={1: "5", 2: "K Q", 3: "3"})
    refused = send(cat, balmoral, 1, 2, "7", headers=HTMX)
    assert refused.status_code == 409
    assert "Round 1 is already saved, with your hand as K Q (20)" in text(refused)
    assert sent_rows(app, balmoral) == []


def test_mistakes_in_one_hand_are_shown_to_the_player_and_nothing_is_stored(app, balmoral, seated):
    ben = phone(app, balmoral, seated[1])
    refused = send(ben, balmoral, 1, 1, "K K K K K K K K K", headers=HTMX)
    assert refused.status_code == 422
    assert "Ben: that makes 9 × K in this round, but 2 decks hold only 8 of K." in text(refused)
    refused = send(ben, balmoral, 1, 1, "K X", headers=HTMX)
    assert refused.status_code == 422 and 'Ben: "X" is not a card' in text(refused)
    too_many = "5 5 5 5 6 6 6 6 7 7 7 7 8 8 8"  # 15 cards, of 13 dealt
    refused = send(ben, balmoral, 1, 1, too_many, headers=HTMX)
    assert refused.status_code == 422 and "Ben: 15 cards left, but a hand holds at most" in text(refused)
    assert sent_rows(app, balmoral) == []


@pytest.mark.parametrize("change", [
    ("post", "/rounds/new", {"number": "1", "went_out": "0", "hand-1": "5", "hand-2": "5", "hand-3": "5",
                             "save": "1"}),
    ("post", "/rounds/1/edit", {"number": "1", "went_out": "1", "hand-0": "5", "hand-2": "5", "hand-3": "5",
                                "save": "1"}),
    ("post", "/rounds/undo", {}),
    ("post", "/rounds/1/delete", {}),
    ("post", "/again", {}),
    ("post", "/key", {}),
    ("post", "/seat-links", {}),
    ("post", "/delete", {}),
])
def test_a_seat_key_may_not_save_undo_correct_or_start_a_game(app, web, balmoral, seated, change):
    save_round(web, balmoral, 1, went_out=0, hands={1: "5", 2: "6", 3: "7"})
    ann = phone(app, balmoral, seated[0])
    app.config["WTF_CSRF_ENABLED"] = False
    _, path, data = change
    refused = ann.post(f"/games/{balmoral}{path}", data=data)
    assert refused.status_code == 403
    assert "This phone holds Ann’s seat link: it sends Ann’s own hand, and nothing else." in text(refused)
    assert "the phone with the game’s edit link" in text(refused)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Round).where(Round.game_id == balmoral)) == 1


def test_a_seat_key_enters_its_own_seat_only(app, balmoral, seated):
    ann = phone(app, balmoral, seated[0])
    # Ben's field posted from Ann's phone: only Ann's own row is read.
    response = ann.post(f"/games/{balmoral}/hand", data={"number": "1", "hand-1": "K", "hand-0": "7", "send": "1"})
    assert response.status_code == 303
    assert [(r.position, r.cards) for r in sent_rows(app, balmoral)] == [(0, "7")]


def test_new_seat_links_revoke_the_old_ones(app, web, balmoral, seated):
    ann = phone(app, balmoral, seated[0])
    web.post(f"/games/{balmoral}/seat-links")
    refused = ann.get(f"/games/{balmoral}/hand")
    assert refused.status_code == 403 and "Open your own seat link" in text(refused)
    stale = app.test_client().post(f"/games/{balmoral}/seat", data={"key": seated[0]})
    assert stale.status_code == 403 and "This seat link no longer works" in text(stale)


def test_the_round_screens_poll_is_conditional(app, web, balmoral, seated):
    first = web.get(f"/games/{balmoral}/rounds/new/sent")
    assert first.status_code == 200 and first.json == {"number": 1, "hands": []}
    etag = first.headers["ETag"]
    assert web.get(f"/games/{balmoral}/rounds/new/sent", headers={"If-None-Match": etag}).status_code == 304
    send(phone(app, balmoral, seated[3]), balmoral, 1, 3, "A")
    arrived = web.get(f"/games/{balmoral}/rounds/new/sent", headers={"If-None-Match": etag})
    assert arrived.status_code == 200
    assert arrived.json["hands"][0] | {"revision": 0} == {
        "seat": 3, "player": "Dan", "went_out": False, "cards": "A", "points": None, "achieved": False,
        "bonuses": [], "revision": 0, "by_keeper": False, "words": "A (15)"}
    # Reading needs no key, as every board's does.
    assert app.test_client().get(f"/games/{balmoral}/rounds/new/sent").json["hands"][0]["player"] == "Dan"


def test_the_players_page_poll_is_conditional(app, web, balmoral, seated):
    cat = phone(app, balmoral, seated[2])
    first = cat.get(f"/games/{balmoral}/hand/live", headers=HTMX)
    etag = first.headers["ETag"]
    assert cat.get(f"/games/{balmoral}/hand/live", headers={**HTMX, "If-None-Match": etag}).status_code == 304
    save_round(web, balmoral, 1, went_out=0, hands={1: "5", 2: "K Q", 3: "3"})
    saved = cat.get(f"/games/{balmoral}/hand/live", headers={**HTMX, "If-None-Match": etag})
    assert saved.status_code == 200
    words = text(saved)
    assert "Round 1 saved: your hand K Q (20)." in words and "Cat: round 2" in words


def test_thats_not_my_hand_flags_the_round_until_dismissed_or_corrected(app, web, balmoral, seated):
    save_round(web, balmoral, 1, went_out=0, hands={1: "5", 2: "K Q", 3: "3"})
    cat = phone(app, balmoral, seated[2])
    assert "That's not my hand" in text(cat.get(f"/games/{balmoral}/hand"))
    assert cat.post(f"/games/{balmoral}/hand/flag", data={"number": "1"}).status_code == 303
    cat.post(f"/games/{balmoral}/hand/flag", data={"number": "1"})
    assert "You told the scorekeeper round 1 is wrong for you." in text(cat.get(f"/games/{balmoral}/hand"))
    scoreboard = text(board(web, balmoral))
    assert "Cat says round 1 is wrong." in scoreboard and "Correct round 1" in scoreboard
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(RoundFlag)) == 1
    web.post(f"/games/{balmoral}/flags/dismiss", data={"number": "1", "seat": "2"})
    assert "says round 1 is wrong" not in text(board(web, balmoral))
    # Flagged again, then the round corrected: the correction answers it.
    cat.post(f"/games/{balmoral}/hand/flag", data={"number": "1"})
    web.post(f"/games/{balmoral}/rounds/1/edit", data={"number": "1", "went_out": "0", "hand-1": "5",
                                                       "hand-2": "K", "hand-3": "3", "save": "1"}, headers=HTMX)
    assert "says round 1 is wrong" not in text(board(web, balmoral))
    assert "your hand K (10)" in text(cat.get(f"/games/{balmoral}/hand"))


def test_the_board_a_saved_round_answers_with_shows_the_players_words(app, web, balmoral, seated):
    save_round(web, balmoral, 1, went_out=0, hands={1: "5", 2: "K Q", 3: "3"})
    phone(app, balmoral, seated[2]).post(f"/games/{balmoral}/hand/flag", data={"number": "1"})
    saved = post_round(web, balmoral, 2, went_out=1, hands={0: "5", 2: "6", 3: "7"}, headers=HTMX)
    assert saved.status_code == 200 and "Cat says round 1 is wrong." in text(saved)


def test_a_word_that_comes_while_a_round_is_saved_is_on_the_board_it_answers_with(app, web, balmoral, seated,
                                                                                   monkeypatch):
    save_round(web, balmoral, 1, went_out=0, hands={1: "5", 2: "K Q", 3: "3"})
    record_round = store.record_round

    def cat_flags_first(*args, **kwargs):
        # Cat's word lands after the round screen read the game, before its write.
        store.flag_round(balmoral, 1, 2)
        return record_round(*args, **kwargs)

    monkeypatch.setattr(store, "record_round", cat_flags_first)
    saved = post_round(web, balmoral, 2, went_out=1, hands={0: "5", 2: "6", 3: "7"}, headers=HTMX)
    assert saved.status_code == 200 and "Cat says round 1 is wrong." in text(saved)


def test_an_undo_drops_hands_sent_for_a_round_that_no_longer_comes(app, web, balmoral, seated):
    save_round(web, balmoral, 1, went_out=0, hands={1: "5", 2: "6", 3: "7"})
    send(phone(app, balmoral, seated[1]), balmoral, 2, 1, "9")
    assert len(sent_rows(app, balmoral)) == 1
    web.post(f"/games/{balmoral}/rounds/undo", headers=HTMX)
    assert sent_rows(app, balmoral) == []


def test_a_table_without_seat_links_sees_no_waiting(web, balmoral):
    assert "waiting for" not in text(web.get(f"/games/{balmoral}/rounds/new"))
    assert post_round(web, balmoral, 1, went_out=0, hands={1: "5", 2: "6", 3: "7"}).status_code == 303


def test_a_table_without_seat_links_reads_no_words_and_forgets_no_sent_hands(app, web, balmoral):
    """Only a seat link sends a hand or a word: without one, the game's own read says so, and
    neither the board nor a round asks the database for them."""
    web.get(f"/games/{balmoral}/rounds/new")
    with counted() as statements:
        saved = post_round(web, balmoral, 1, went_out=0, hands={1: "5", 2: "6", 3: "7"}, headers=HTMX)
        shown = board(web, balmoral)
    assert saved.status_code == 200 and "Round 1 saved." in text(saved) and "Round 2" in text(shown)
    asked = [s for s in statements if "sent_hand" in s or "round_flag" in s]
    assert asked == []


def enter(client, game_id, seat, number=1, **fields):
    """What the scorekeeper's round screen posts a moment after their last tap in a row."""
    return client.post(f"/games/{game_id}/rounds/new/entry/{seat}", data=round_form(number, **fields))


def test_the_scorekeepers_entry_in_a_row_shows_on_the_players_phone_before_the_save(app, web, balmoral, seated):
    ann = phone(app, balmoral, seated[0])
    send(ann, balmoral, 1, 0, "Q")
    etag = ann.get(f"/games/{balmoral}/hand/live", headers=HTMX).headers["ETag"]
    entered = enter(web, balmoral, 0, hands={0: "K 7 7", 1: "5"})
    assert entered.status_code == 200
    assert entered.json == {"seat": 0, "revision": 2, "by_keeper": True, "words": "K 7 7 (24)"}
    # Posted again (a retry, a tap that changed nothing): stored once. Ben's field went with it,
    # but only Ann's row is read: nothing is stored for Ben.
    assert enter(web, balmoral, 0, hands={0: "K 7 7", 1: "5"}).json["revision"] == 2
    assert sent_rows(app, balmoral) == [(1, 0, "K 7 7", 2)]
    # Ann's phone, asking as it does every second, is told, and says who entered it.
    changed = ann.get(f"/games/{balmoral}/hand/live", headers={**HTMX, "If-None-Match": etag})
    assert changed.status_code == 200
    words = text(changed)
    assert "The scorekeeper entered: K 7 7 (24)" in words and "You can still send yours" in words
    assert "entered by the scorekeeper: K 7 7 (24)" in text(web.get(f"/games/{balmoral}/rounds/new"))
    assert web.get(f"/games/{balmoral}/rounds/new/sent").json["hands"][0]["by_keeper"] is True
    # Ann sends again: the last one wins, on both phones.
    send(ann, balmoral, 1, 0, "5")
    assert "Sent: 5 (5)" in text(ann.get(f"/games/{balmoral}/hand"))
    arrived = web.get(f"/games/{balmoral}/rounds/new/sent").json["hands"][0]
    assert (arrived["by_keeper"], arrived["words"]) == (False, "5 (5)")
    # The save is what the scorekeeper's form holds, checked whole.
    save_round(web, balmoral, 1, went_out=1, hands={0: "K 7 7", 2: "6", 3: "7"})
    assert "Round 1 saved: your hand K 7 7 (24)." in text(ann.get(f"/games/{balmoral}/hand"))
    assert sent_rows(app, balmoral) == []


def test_only_the_scorekeeper_of_the_game_enters_a_players_row(app, web, stranger, balmoral, seated):
    ann = phone(app, balmoral, seated[0])
    assert enter(ann, balmoral, 0, hands={0: "K"}).status_code == 403  # Ann's own seat key
    assert enter(ann, balmoral, 1, hands={1: "K"}).status_code == 403
    assert enter(stranger, balmoral, 0, hands={0: "K"}).status_code == 403  # a watcher
    other = make_keeper(app.test_client())
    new_game(other, ["Eve", "Fin"])  # the scorekeeper of another game
    assert enter(other, balmoral, 0, hands={0: "K"}).status_code == 403
    assert sent_rows(app, balmoral) == []
    # The scorekeeper's own entries that cannot be kept: nothing is stored.
    assert enter(web, balmoral, 0, hands={0: "K X"}).status_code == 422
    assert enter(web, balmoral, 0).status_code == 422  # nothing in the row yet
    assert enter(web, balmoral, 0, number=2, hands={0: "K"}).status_code == 409
    assert enter(web, balmoral, 7, hands={0: "K"}).status_code == 404
    assert sent_rows(app, balmoral) == []
    # A table without seat links has no player's phone to tell.
    alone = new_game(web, ["Gus", "Hal"])
    assert enter(web, alone, 0, hands={0: "K"}).status_code == 404


def test_the_scorekeepers_entry_needs_the_forms_token(app, client, balmoral, seated):
    refused = client.post(f"/games/{balmoral}/rounds/new/entry/0", data=round_form(1, hands={0: "K"}))
    assert refused.status_code in (400, 403)
    assert sent_rows(app, balmoral) == []


# ------------------------------------------------------------------------------ the API


def test_the_api_sends_a_players_hand_with_their_seat_key(app, web, balmoral):
    key = re.search(r"#key=([^\"']+)", web.get(f"/games/{balmoral}/share").get_data(as_text=True))
    api = app.test_client()
    edit_key = _edit_key(web, balmoral)
    made = api.post(f"/api/games/{balmoral}/seat-links", headers={"Authorization": f"Bearer {edit_key}"})
    assert made.status_code == 201
    seats = made.json["seats"]
    assert [s["player"] for s in seats] == ANN_BEN_CAT_DAN and key is not None
    ben = {"Authorization": f"Bearer {seats[1]['seat_key']}"}
    sent = api.put(f"/api/games/{balmoral}/hands/1", json={"number": 1, "cards": "K 7 7", "achieved": True},
                   headers=ben)
    assert sent.status_code == 200 and sent.json["words"] == "K 7 7 (24), made the level"
    again = api.put(f"/api/games/{balmoral}/hands/1", json={"number": 1, "cards": "K 7 7", "achieved": True},
                    headers=ben)
    assert again.json["revision"] == 1
    other = api.put(f"/api/games/{balmoral}/hands/2", json={"number": 1, "cards": "5"}, headers=ben)
    assert other.status_code == 403 and "this is Ben's seat key" in other.json["error"]["message"]
    listed = api.get(f"/api/games/{balmoral}/hands", headers=ben)
    assert [h["player"] for h in listed.json["hands"]] == ["Ben"]
    assert api.get(f"/api/games/{balmoral}/hands", headers={**ben, "If-None-Match": listed.headers["ETag"]}) \
        .status_code == 304
    round_1 = {"number": 1, "went_out": "Ann", "hands": {"Ben": "K 7 7", "Cat": "5", "Dan": "5"}}
    refused = api.post(f"/api/games/{balmoral}/rounds", json=round_1, headers=ben)
    assert refused.status_code == 403 and "needs the game's edit key" in refused.json["error"]["message"]
    assert api.post(f"/api/games/{balmoral}/rounds", json=round_1,
                    headers={"Authorization": f"Bearer {edit_key}"}).status_code == 201
    late = api.put(f"/api/games/{balmoral}/hands/1", json={"number": 1, "cards": "Q"}, headers=ben)
    assert late.status_code == 409 and late.json["saved"] == "K 7 7 (24)"
    flagged = api.post(f"/api/games/{balmoral}/rounds/1/flags/1", headers=ben)
    assert flagged.status_code == 201 and flagged.json["words"] == "Ben says round 1 is wrong"


def test_no_hand_is_taken_for_a_round_after_the_game_ended(app, web):
    """A classic game ends after deal 7: deal 8 never comes, from the form or the API."""
    ended = classic_game(web, ANN_WINS)
    assert web.post(f"/games/{ended}/seat-links").status_code == 303
    share = web.get(f"/games/{ended}/share").get_data(as_text=True)
    keys = re.findall(r'href="http[^"]*/games/\d+/seat#key=([^"]+)"', share)
    refused = app.test_client().put(f"/api/games/{ended}/hands/1", json={"number": 8, "points": 5},
                                    headers={"Authorization": f"Bearer {keys[1]}"})
    assert refused.status_code == 422
    assert refused.json["error"]["message"] == "Round 8: the game ended after round 7: no round is being played"
    assert refused.json["error"]["field"] == "number"
    ben = phone(app, ended, keys[1])
    assert send(ben, ended, 8, 1, points=5).status_code == 409
    assert sent_rows(app, ended) == []


def test_a_game_in_the_bin_takes_no_hand_word_or_round(app, web, balmoral, seated):
    ben = phone(app, balmoral, seated[1])
    save_round(web, balmoral, 1, went_out=0, hands={1: "K", 2: "Q", 3: "5"})
    assert web.post(f"/games/{balmoral}/delete").status_code == 303
    seat_key = {"Authorization": f"Bearer {seated[1]}"}
    edit_key = {"Authorization": f"Bearer {_edit_key(web, balmoral)}"}
    api = app.test_client()
    refusals = [
        send(ben, balmoral, 2, 1, "K"),
        ben.post(f"/games/{balmoral}/hand/flag", data={"number": "1"}),
        post_round(web, balmoral, 2, went_out=0, hands={1: "K", 2: "Q", 3: "5"}),
        api.put(f"/api/games/{balmoral}/hands/1", json={"number": 2, "cards": "K"}, headers=seat_key),
        api.post(f"/api/games/{balmoral}/rounds/1/flags/1", headers=seat_key),
        api.post(f"/api/games/{balmoral}/rounds", json={"number": 2, "went_out": "Ann",
                                                      "hands": {"Ben": "K", "Cat": "Q", "Dan": "5"}},
                 headers=edit_key),
        web.post(f"/games/{balmoral}/rounds/1/edit", data=round_form(1, save="1", went_out=1,
                                                                       hands={0: "K", 2: "Q", 3: "5"})),
        web.post(f"/games/{balmoral}/rounds/1/delete"),
        web.post(f"/games/{balmoral}/rounds/undo"),
    ]
    assert [r.status_code for r in refusals] == [409] * len(refusals)
    assert "This game is in the bin" in text(refusals[0]) and "nothing was changed" in text(refusals[2])
    assert "in the bin" in refusals[3].json["error"]["message"]
    assert sent_rows(app, balmoral) == [] and rounds_stored(app, balmoral) == 1
    with app.app_context():
        assert db.session.scalar(select(func.count(RoundFlag.id))) == 0
    # Restored, it keeps score again.
    assert web.post(f"/games/{balmoral}/restore").status_code == 303
    assert send(ben, balmoral, 2, 1, "K").status_code == 303


def _edit_key(web, game_id) -> str:
    with web.session_transaction() as session:
        return session["edit_keys"][str(game_id)]


def test_an_unknown_game_or_seat_is_a_404(app, web, balmoral):
    api = app.test_client()
    assert api.put(f"/api/games/{balmoral + 9}/hands/0", json={}).status_code == 404
    assert api.put(f"/api/games/{balmoral}/hands/7", json={}).status_code == 404
    assert new_game(web, ["Eve", "Fin"])  # another game: its own seats, no links


def test_correcting_a_round_from_a_players_word_opens_on_that_players_row(app, web, balmoral, seated):
    save_round(web, balmoral, 1, went_out=0, hands={1: "5", 2: "K Q", 3: "3"})
    phone(app, balmoral, seated[3]).post(f"/games/{balmoral}/hand/flag", data={"number": "1"})
    page = board(web, balmoral).get_data(as_text=True)
    link = re.search(r'<a class="button" href="([^"]+)">Correct round 1</a>', page).group(1).replace("&amp;", "&")
    form = web.get(link).get_data(as_text=True)
    # Dan's row is the one the keypad types into, and the keypad says so.
    assert re.search(r'<input type="radio" name="seat" value="3" checked', form)
    assert not re.search(r'<input type="radio" name="seat" value="[012]" checked', form)
    assert 'aria-label="Cards for Dan"' in form
    assert web.get(f"/games/{balmoral}/rounds/1/edit?seat=99").status_code == 200
    assert web.get(f"/games/{balmoral}/rounds/1/edit?seat=x").status_code == 200


def test_the_share_page_opened_on_localhost_names_this_servers_own_address(app, web, balmoral, monkeypatch):
    # As `make run` trusts them: this machine's names and its addresses on the network.
    monkeypatch.setitem(app.config, "TRUSTED_HOSTS", ["localhost", "127.0.0.1", "cards", "cards.local", "192.168.7.33"])
    page = text(web.get(f"/games/{balmoral}/share", base_url="http://localhost:8123"))
    assert "which other phones cannot reach" in page
    assert "192.168.7.33:8123" in page and "192.168.1.20" not in page


def test_a_player_who_sends_over_the_scorekeepers_entry_is_told_whose_will_be_saved(app, web, balmoral, seated):
    ann = phone(app, balmoral, seated[0])
    enter(web, balmoral, 0, hands={0: "K K 10 10"})
    send(ann, balmoral, 1, 0, "K K 9 9")
    words = text(ann.get(f"/games/{balmoral}/hand"))
    # Her own is sent, and the scorekeeper sees it; theirs stays in their form, and is saved.
    assert "Sent: K K 9 9 (38)" in words
    assert "The scorekeeper entered K K 10 10 (40): theirs will be saved unless they change it." in words
    # She sends theirs after all: nothing left to say.
    send(ann, balmoral, 1, 0, "K K 10 10")
    words = text(ann.get(f"/games/{balmoral}/hand"))
    assert "Sent: K K 10 10 (40)" in words and "theirs will be saved" not in words
    # The scorekeeper enters anew: theirs is the one shown, as before.
    enter(web, balmoral, 0, hands={0: "Q"})
    words = text(ann.get(f"/games/{balmoral}/hand"))
    assert "The scorekeeper entered: Q (10)" in words and "theirs will be saved" not in words
