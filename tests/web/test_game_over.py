"""The end of a game: the winner or the shared win, what may still change, play again."""

from __future__ import annotations

import re

from sqlalchemy import update

from scorekeeper.store.models import Game, db
from factories import (
    ANN_AND_BEN_TIE,
    ANN_WINS,
    accepted,
    board,
    classic_game,
    delete_round,
    edit_round,
    games_stored,
    new_game,
    post_round,
    rounds_stored,
    save_round,
    standings,
    text,
    text_of,
    totals,
)

# =============================================================== game over


def test_balmoral_ends_when_level_7_is_made_and_the_lowest_total_wins(web):
    # Ben goes out every round; Ann makes her contract every round but keeps an ace.
    game_id = new_game(web, ["Ann", "Ben", "Cat"])
    for number in range(1, 7):
        save_round(web, game_id, number, went_out=1, hands={0: "A", 2: "2"}, achieved=[0])
    assert "Game over" not in text(board(web, game_id))
    shown = save_round(web, game_id, 7, went_out=1, hands={0: "A", 2: "2"}, achieved=[0])
    seen = text(shown)
    assert "Ann (completed level 7) and Ben (completed level 7) move up." in seen
    page = board(web, game_id)
    seen = text(page)
    assert "Game over" in seen
    assert "Ben wins with 0." in seen  # the lowest total wins, not the first to finish
    rows = standings(page)
    assert {n: r.total for n, r in rows.items()} == {"Ann": 105, "Ben": 0, "Cat": 14}
    assert "completed 7 of 7 levels" in rows["Ann"].line and "completed 0 of 7 levels" in rows["Cat"].line
    assert "Record round" not in seen


def test_a_classic_game_ends_after_seven_deals_with_its_winner(web):
    game_id = classic_game(web, ANN_WINS)
    page = board(web, game_id)
    seen = text(page)
    assert "Game over" in seen
    assert "Ann wins with 0." in seen
    assert "ended after deal 7" in seen
    assert "Record deal" not in seen and "Record round" not in seen
    assert totals(page) == {"Ann": 0, "Ben": 70, "Cat": 140}
    assert "winner" in standings(page)["Ann"].line
    assert "winner" not in standings(page)["Ben"].line
    assert "Play again with the same players" in seen


def test_the_game_is_not_over_after_six_deals(web):
    game_id = classic_game(web, ANN_WINS[:6])
    seen = text(board(web, game_id))
    assert "Game over" not in seen
    assert "Deal 7: three sequences, with no unmatched cards" in seen


def test_equal_lowest_totals_share_the_win(web):
    game_id = classic_game(web, ANN_AND_BEN_TIE)
    page = board(web, game_id)
    seen = text(page)
    assert "Game over" in seen
    assert "Ann and Ben share the win with 35 each." in seen
    assert "winner" in standings(page)["Ann"].line and "winner" in standings(page)["Ben"].line
    assert "winner" not in standings(page)["Cat"].line


def test_the_games_list_shows_finished_and_playing_games(web, played):
    finished = classic_game(web, ANN_AND_BEN_TIE)
    response = web.get("/")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    playing_part, finished_part = body.split('id="finished-h"')
    assert f"/games/{played}" in playing_part and f"/games/{finished}" not in playing_part
    assert f"/games/{finished}" in finished_part
    assert "Ann and Ben" in text_of(finished_part)


def test_no_round_can_be_recorded_after_the_game_is_over(web, app):
    game_id = classic_game(web, ANN_WINS)
    response = web.get(f"/games/{game_id}/rounds/new")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}"
    assert "The game is over" in text(web.get(response.headers["Location"]))
    refused = post_round(web, game_id, 8, went_out=0, points={1: "10", 2: "20"})
    assert refused.status_code == 422
    assert "the game ended after round 7" in text(refused).lower()
    assert rounds_stored(app, game_id) == 7


def test_a_past_round_of_a_finished_game_can_still_be_corrected(web):
    game_id = classic_game(web, ANN_WINS)
    response = edit_round(web, game_id, 7, went_out=1, points={0: "50", 2: "20"})
    accepted(web, game_id, response)
    seen = text(board(web, game_id))
    assert "Game over" in seen
    assert "Ann wins with 50." in seen


def test_correcting_the_final_round_can_reopen_a_balmoral_game(web):
    game_id = new_game(web, ["Ann", "Ben"])
    for number in range(1, 8):
        save_round(web, game_id, number, went_out=0, hands={1: "K"})
    assert "Ann wins with 0." in text(board(web, game_id))
    # Ben went out in round 7 after all: Ann is still on level 7.
    accepted(web, game_id, edit_round(web, game_id, 7, went_out=1, hands={0: "5"}))
    seen = text(board(web, game_id))
    assert "Game over" not in seen
    assert "Record round 8" in seen
    assert "Level 7: 1 set of 3 and 1 run of 7" in standings(board(web, game_id))["Ann"].line
    assert web.get(f"/games/{game_id}/rounds/new").status_code == 200


def test_undoing_the_last_deal_reopens_a_classic_game(web):
    game_id = classic_game(web, ANN_WINS)
    shown = accepted(web, game_id, delete_round(web, game_id, 7))
    assert "Game over" not in text(shown)
    assert "Deal 7: three sequences, with no unmatched cards" in text(shown)
    assert totals(shown) == {"Ann": 0, "Ben": 60, "Cat": 120}


def test_play_again_starts_a_new_game_with_the_deal_moved_on(web, app):
    game_id = classic_game(web, ANN_WINS)
    response = web.post(f"/games/{game_id}/again")
    assert response.status_code == 303
    match = re.fullmatch(r"/games/(\d+)", response.headers["Location"])
    assert match and int(match.group(1)) != game_id
    page = web.get(response.headers["Location"])
    seen = text(page)
    assert "New game with the same players: Ben deals first." in seen
    assert "Deal 1: two groups" in seen
    assert "Ben deals" in seen and "Cat plays first" in seen
    assert totals(page) == {"Ann": 0, "Ben": 0, "Cat": 0}
    assert games_stored(app) == 2


def test_play_again_goes_through_the_checks_of_any_new_game(web, app):
    # A game stored with a set-up a new game may not have (here: more decks than the rules
    # allow, as an old version or a hand edit could leave it): playing again is refused, saying why.
    game_id = classic_game(web, ANN_WINS)
    with app.app_context():
        db.session.execute(update(Game).where(Game.id == game_id).values(decks=99, version=Game.version + 1))
        db.session.commit()
    response = web.post(f"/games/{game_id}/again")
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game_id}"
    assert "This table cannot start a new game: Decks must be a whole number" in text(web.get(f"/games/{game_id}"))
    assert games_stored(app) == 1


def test_play_again_wraps_the_deal_round_the_table(web):
    game_id = new_game(web, ["Ann", "Ben"], dealer=1)
    response = web.post(f"/games/{game_id}/again")
    page = web.get(response.headers["Location"])
    assert list(totals(page)) == ["Ann", "Ben"]
    assert "Ann deals" in text(page)


def test_the_games_list_says_deal_for_a_deal_game_and_round_for_a_ladder(web):
    """The rule set's own word for a round, kept on one line with its separator (no "·" alone)."""
    dealing = classic_game(web, ANN_WINS[:1])
    finished = classic_game(web, ANN_WINS)
    climbing = new_game(web, ["Ann", "Ben"])
    body = web.get("/").get_data(as_text=True)
    playing_part, finished_part = body.split('id="finished-h"')
    cards = {int(n): text_of(card) for n, card in re.findall(r'href="/games/(\d+)">(.*?)</a>', body, re.S)}
    assert "&nbsp;·&nbsp;deal&nbsp;2" in playing_part and "round" not in cards[dealing]
    assert "· round 1" in cards[climbing]
    assert "· 7 deals" in cards[finished] and "&nbsp;·&nbsp;7&nbsp;deals" in finished_part
