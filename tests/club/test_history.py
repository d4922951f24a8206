"""The history: every game newest first, a page at a time, filtered by player and rule set."""

from __future__ import annotations

import pytest
from factories import (
    player_id,
    story_links,
    text,
)
from history_games import random_docs
from sqlalchemy import select

from scorekeeper.files import transfer
from scorekeeper.files.gamefile import backup_document, read_document
from scorekeeper.store.models import Game, db

# =============================================================== the history


@pytest.fixture
def many(app):
    """45 games over 45 days, a mix of both rule sets."""
    with app.app_context():
        return [o.game_id for o in transfer.import_files(read_document(backup_document(random_docs(45, seed=3))))]


def test_the_history_lists_every_game_newest_first_a_page_at_a_time(web, app, many):
    first = web.get("/history")
    assert first.status_code == 200
    with app.app_context():
        newest = list(db.session.scalars(select(Game.id).order_by(Game.started_at.desc(), Game.id.desc())))
    assert story_links(first) == newest[:20]
    assert "Games 1 to 20 of 45" in text(first)
    # Pages past the middle are read from the other end: the same games, in the same order.
    assert story_links(web.get("/history?page=2")) == newest[20:40]
    third = web.get("/history?page=3")
    assert story_links(third) == newest[40:]
    assert "Page 3 of 3" in text(third)


@pytest.mark.parametrize("per_page", [1, 2, 3, 4, 7])
def test_every_page_read_from_either_end_holds_the_next_games_in_order(app, per_page):
    """Games started at the same moment (as imported files may be) are ordered by id both ways."""
    from datetime import datetime

    from scorekeeper.club.history import NEWEST_FIRST, HistoryFilter, history_page

    with app.app_context():
        ids = [o.game_id for o in transfer.import_files(read_document(backup_document(random_docs(11, seed=5))))]
        same = datetime(2026, 1, 1)
        for game_id in ids[3:8]:
            db.session.get(Game, game_id).started_at = same
        db.session.commit()
        newest = list(db.session.scalars(select(Game.id).order_by(*NEWEST_FIRST)))
        pages, page = [], 1
        while (found := history_page(HistoryFilter(), page, per_page)) is not None:
            pages.append([g.id for g in found.games])
            page += 1
    assert [game_id for shown in pages for game_id in shown] == newest
    assert all(len(shown) == per_page for shown in pages[:-1])


def test_a_history_item_says_the_rules_players_winner_and_length(web, app, four):
    page = text(web.get("/history"))
    assert "Balmoral Rummy · 7 rounds · 1 h 10 min Winner: Ben (0) Game 1 · Thu 01 Jan 2026, 19:00 Ann Ben Cat" in page
    assert "In progress, round 3: Ann leads with 4" in page
    assert "Winners: Ann and Cat (5), sharing the win" in page
    assert "Sun 01 Mar 2026, 19:00" in page


@pytest.mark.parametrize("page", ["0", "-1", "abc", "4", "999999999999", "²", "1.5"])
def test_a_page_that_does_not_exist_is_a_404(web, many, page):
    response = web.get(f"/history?page={page}")
    assert response.status_code == 404
    assert "Not found" in text(response)


def test_an_empty_history_is_a_page_not_an_error(web):
    response = web.get("/history")
    assert response.status_code == 200
    assert "No games yet" in text(response)
    assert web.get("/history?page=2").status_code == 404


def test_the_history_filters_by_player_and_by_rule_set(web, app, four):
    cat = player_id(app, "Cat")
    assert sorted(story_links(web.get(f"/history?player={cat}"))) == [four[0], four[2], four[3]]
    assert sorted(story_links(web.get("/history?rules=classic"))) == [four[2], four[3]]
    assert story_links(web.get(f"/history?rules=balmoral&player={cat}")) == [four[0]]
    assert "3 games with Cat" in text(web.get(f"/history?player={cat}"))


@pytest.mark.parametrize("query, message", [
    ("player=999", "There is no player number 999."),
    ("player=abc", '"abc" is not a player number.'),
    ("rules=poker", '"poker" is not a rule set'),
])
def test_an_unknown_filter_is_explained(web, four, query, message):
    response = web.get(f"/history?{query}")
    assert response.status_code == 404
    assert message in text(response)
    assert "Show every game" in text(response)


def test_a_game_that_deals_says_deals_in_the_history_the_story_and_the_home_page(web):
    from factories import ANN_WINS, classic_game

    over = classic_game(web, ANN_WINS)
    going = classic_game(web, ANN_WINS[:2])
    history = text(web.get("/history"))
    assert "Contract Rummy (classic) · 7 deals" in history
    assert "In progress, deal 3: Ann leads" in history
    assert " rounds" not in history and "round 3" not in history
    assert "· 7 deals" in text(web.get(f"/games/{over}/story"))
    assert "2 deals" in text(web.get(f"/games/{going}/story"))
    assert "7 deals" in text(web.get("/"))


def test_the_home_page_leads_to_the_history_and_to_statistics_by_their_names(web, app, four):
    from factories import player_id

    home = web.get("/").get_data(as_text=True)
    assert "history and statistics" not in home
    assert '<a class="button" href="/history">Every game</a>' in home
    assert '<a class="button" href="/players/">Statistics: each player</a>' in home
    ann = player_id(app, "Ann")
    filtered = web.get(f"/history?player={ann}").get_data(as_text=True)
    assert f'<a class="button" href="/players/{ann}">Ann’s statistics</a>' in filtered
    # The filter applies on change with htmx; its Show button stays for a phone without scripts.
    assert 'hx-trigger="change"' in filtered and "data-show>Show</button>" in filtered
