"""Deleting a game: asked first, undone, the bin, deleted for good; who may."""

from __future__ import annotations

from factories import (
    csrf_token,
    games_stored,
    new_game,
    story_links,
    text,
)
from history_games import ANN_BEN_CAT

from scorekeeper.store.models import Game, db

# =============================================================== deleting a game


def test_deleting_a_game_asks_first_and_can_be_undone(web, app):
    gid = new_game(web, ANN_BEN_CAT)
    ask = web.get(f"/games/{gid}/delete")
    assert ask.status_code == 200
    assert f"Delete game {gid}?" in text(ask)
    assert games_stored(app) == 1
    done = web.post(f"/games/{gid}/delete")
    assert done.status_code == 303
    page = web.get(done.headers["Location"])
    assert f"Game {gid} was deleted." in text(page) and "Undo" in text(page)
    assert gid not in story_links(page)
    assert gid in story_links(web.get("/history/deleted"))
    assert f'/games/{gid}"' not in web.get("/").get_data(as_text=True)
    # Still in the database and in a backup.
    assert games_stored(app) == 1
    assert len(web.get("/backup.json").get_json()["games"]) == 1
    undo = web.post(f"/games/{gid}/restore")
    assert undo.status_code == 303
    assert gid in story_links(web.get("/history"))
    assert "Deleted games" not in text(web.get("/history"))


def test_only_a_phone_that_keeps_score_may_delete_a_game(web, app):
    gid = new_game(web, ANN_BEN_CAT)
    other = app.test_client()
    ask = other.get(f"/games/{gid}/delete")
    assert "Only a phone that keeps score for this game can delete it" in text(ask)
    assert other.post(f"/games/{gid}/delete").status_code == 403
    with app.app_context():
        assert db.session.get(Game, gid).deleted_at is None


def test_a_deleted_game_can_be_deleted_for_good_only_from_the_bin(web, app):
    gid = new_game(web, ANN_BEN_CAT)
    early = web.post(f"/games/{gid}/purge")
    assert early.status_code == 303  # not in the bin: refused, back to its story
    assert games_stored(app) == 1
    web.post(f"/games/{gid}/delete")
    ask = web.get(f"/games/{gid}/purge")
    assert "This cannot be undone" in text(ask)
    assert web.post(f"/games/{gid}/purge").status_code == 303
    assert games_stored(app) == 0
    assert web.get(f"/games/{gid}/story").status_code == 404


def test_deleting_needs_the_form_token(app, client):
    client.application.config["WTF_CSRF_ENABLED"] = True
    gid = new_web_game_with_token(client)
    assert client.post(f"/games/{gid}/delete").status_code == 400
    assert client.post(f"/games/{gid}/restore").status_code == 400
    with app.app_context():
        assert db.session.get(Game, gid).deleted_at is None


def new_web_game_with_token(client) -> int:
    token = csrf_token(client.get("/games/new"))
    data = {"seat-0": "Ann", "seat-1": "Ben", "rules": "balmoral", "dealer": "0", "dealer_rule": "winner",
            "start": "1", "csrf_token": token}
    response = client.post("/games/new", data=data)
    assert response.status_code == 303
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_the_scoreboard_links_to_the_story_and_says_when_the_game_is_deleted(web, app):
    gid = new_game(web, ANN_BEN_CAT)
    board = web.get(f"/games/{gid}")
    assert f'href="/games/{gid}/story"' in board.get_data(as_text=True)
    assert "This game is deleted" not in text(board)
    web.post(f"/games/{gid}/delete")
    assert "This game is deleted" in text(web.get(f"/games/{gid}"))
    story = text(web.get(f"/games/{gid}/story"))
    assert "This game is deleted" in story and "Restore it" in story


def test_the_games_page_leaves_out_deleted_games_and_links_to_the_history(web, app):
    kept, gone = new_game(web, ANN_BEN_CAT), new_game(web, ["Cat", "Dev"])
    web.post(f"/games/{gone}/delete")
    body = web.get("/").get_data(as_text=True)
    assert f'href="/games/{kept}"' in body and f'href="/games/{gone}"' not in body
    assert 'href="/history"' in body and 'href="/import"' in body


def test_the_bin_shows_each_phone_only_its_own_deleted_games(web, app, stranger):
    """The bin is the club keeper's, and each game's scorekeeper's: a stranger sees none of it,
    a phone that keeps score of a game sees that game, the keeper sees every one."""
    from conftest import make_keeper

    app.config["WTF_CSRF_ENABLED"] = False
    keeper_game = new_game(web, ANN_BEN_CAT)
    phone = app.test_client()
    phones_game = new_game(phone, ANN_BEN_CAT)
    assert web.post(f"/games/{keeper_game}/delete").status_code == 303
    assert phone.post(f"/games/{phones_game}/delete").status_code == 303
    assert story_links(stranger.get("/history/deleted")) == []
    assert "Deleted games" not in text(stranger.get("/history"))
    assert story_links(phone.get("/history/deleted")) == [phones_game]
    assert "Deleted games (1)" in text(phone.get("/history"))
    assert sorted(story_links(web.get("/history/deleted"))) == [keeper_game, phones_game]
    assert "Deleted games (2)" in text(make_keeper(app.test_client()).get("/history"))


def test_a_game_restored_from_the_bin_is_news_to_a_phone_that_saw_it_deleted(web, app):
    gid = new_game(web, ANN_BEN_CAT)
    web.post(f"/games/{gid}/delete")
    with app.app_context():
        seen = db.session.get(Game, gid).version
    assert "This game is deleted" in text(web.get(f"/games/{gid}"))
    assert web.get(f"/games/{gid}/live?v={seen}").status_code == 204
    web.post(f"/games/{gid}/restore")
    news = web.get(f"/games/{gid}/live?v={seen}")
    assert news.status_code == 200 and "This game is deleted" not in text(news)
