"""Club ratings as the club reads them: the leaderboard (its page, its fragment, its CSV, the
API), the provisional players placed apart, and a player's rating on their page and on a game's
story. The ratings themselves are worked out in ``store.figures.ratings`` and stored by
``store.figures.rating_summaries`` (their tests are in tests/store/figures/).
"""

from __future__ import annotations

import html
import re

import pytest
from factories import import_docs
from history_games import classic_doc

from scorekeeper import store
from scorekeeper.club import history


# =============================================================== the leaderboard, its CSV, the API


def test_the_leaderboard_ranks_the_players_with_five_games_and_lists_the_others_apart(web, app, season):
    page = web.get("/ratings")
    assert page.status_code == 200
    text = page.text
    with app.app_context():
        board = history.leaderboard()
    assert sorted(line.name for line in board.ranked) == ["Ann", "Ben", "Cat", "Dev"]
    assert [line.rating for line in board.ranked] == sorted((line.rating for line in board.ranked), reverse=True)
    assert [line.name for line in board.provisional] == ["Eve"]
    ranked, provisional = text.split('id="provisional-h"')
    for line in board.ranked:
        assert f"{line.rating:.1f}" in ranked
    assert "Eve" in provisional and "Eve" not in ranked
    assert ranked.index(board.ranked[0].name) < ranked.index(board.ranked[-1].name)
    assert 'class="spark' in ranked and "over the last 5 games" in ranked
    # The menu and the history link to it.
    assert 'href="/ratings"' in web.get("/history").text


def test_the_leaderboard_page_and_its_fragment_come_from_one_template(web, season):
    whole = web.get("/ratings?rules=classic")
    fragment = web.get("/ratings?rules=classic", headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and "<html" not in fragment.text and "<html" in whole.text
    assert 'option value="classic" selected' in fragment.text


@pytest.mark.parametrize("query, words", [
    ("rules=bridge", '"bridge" is not a rule set'),
    ("period=decade", '"decade" is not a period'),
    ("rules=%00%ff", "is not a rule set"),
])
def test_bad_filters_are_answered_with_a_message(web, season, query, words):
    page = web.get(f"/ratings?{query}")
    assert page.status_code == 404 and words in html.unescape(page.text)
    api = web.get(f"/api/ratings?{query}")
    # A rule-set key no game was played by is not found; a period that is none is a bad request.
    assert api.status_code == (404 if query.startswith("rules") else 400)
    assert words in api.get_json()["error"]["message"]
    assert web.get(f"/ratings.csv?{query}").status_code == 404


def test_the_api_answers_the_leaderboard_with_the_same_filters(web, app, season):
    body = web.get("/api/ratings").get_json()
    with app.app_context():
        board = history.leaderboard()
    assert [p["name"] for p in body["ranked"]] == [line.name for line in board.ranked]
    assert [p["rank"] for p in body["ranked"]] == [1, 2, 3, 4]
    assert body["provisional"][0]["name"] == "Eve" and body["provisional"][0]["rank"] is None
    assert body["games"] == 13 and body["period"] == "all" and body["rules"] is None
    classic = web.get("/api/ratings?rules=classic&period=all").get_json()
    assert classic["rules"] == "classic" and classic["games"] < 13


def test_the_leaderboard_csv_quotes_names_as_the_game_csv_does(web, app, season):
    with app.app_context():
        store.rename_player(store.find_player("Eve").id, "=Eve")
    answer = web.get("/ratings.csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    assert "attachment" in answer.headers["Content-Disposition"]
    lines = answer.text.splitlines()
    assert lines[0].startswith('"Rank","Player","Rating"')
    assert len(lines) == 1 + 5
    assert lines[-1].startswith('"","\'=Eve",')


# =============================================================== the player's page, the story


def test_the_player_page_shows_the_rating_and_its_history_with_the_best_and_worst(web, app, season):
    with app.app_context():
        ann = store.find_player("Ann").id
        rating = history.player_rating(ann)
    page = web.get(f"/players/{ann}")
    assert page.status_code == 200
    text = html.unescape(page.text)
    assert 'id="rating-chart"' in text and f"{rating.rating:.1f}" in text
    assert f"Best {rating.best.after:.1f} after game {rating.number(rating.best)}" in text
    assert f"Lowest {rating.worst.after:.1f} after game {rating.number(rating.worst)}" in text
    assert text.count('class="peak"') == 2
    # The line: the start (0) and one point after each rated game.
    points = text.split('class="line seat-0" points="')[1].split('"')[0].split()
    assert len(points) == rating.games + 1


def test_a_player_without_a_finished_game_has_no_rating_chart(web, app, season):
    with app.app_context():
        idle = store.add_player("Zoë").id
    page = web.get(f"/players/{idle}")
    assert page.status_code == 200 and "rating-chart" not in page.text


def test_the_story_of_a_finished_game_shows_each_rating_before_and_after(web, app, season):
    game_id = season[-1]
    with app.app_context():
        steps = history.game_ratings(game_id)
    text = html.unescape(web.get(f"/games/{game_id}/story").text)
    for step in steps.values():
        assert f"{step.before:.1f} → <strong>{step.after:.1f}</strong>" in text
    # The newcomer's first game: from 0.
    assert "0.0 → <strong>" in text


def test_the_leaderboard_follows_a_deletion_at_once(web, app, season):
    before = web.get("/api/ratings").get_json()
    web.get("/ratings")  # kept
    with app.app_context():
        store.delete_game(season[-1])
    after = web.get("/api/ratings").get_json()
    assert after["games"] == before["games"] - 1 and after["provisional"] == []
    assert "Eve" not in web.get("/ratings").text


def test_an_empty_club_has_an_empty_leaderboard(web):
    page = web.get("/ratings")
    assert page.status_code == 200 and "No finished game yet" in page.text
    assert web.get("/api/ratings").get_json() == {"rules": None, "period": "all", "games": 0, "provisional_below": 5,
                                                  "ranked": [], "provisional": []}
    assert web.get("/ratings.csv").text.count("\r\n") == 1


def test_the_leaderboard_explains_the_number_in_words_and_places_the_provisional(web, app, season):
    page = web.get("/ratings")
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.text)).split())
    assert "sigma" not in said and "mu " not in said and "openskill" not in said
    assert "goes up when they finish above others" in said
    with app.app_context():
        board = history.leaderboard()
    [eve] = board.provisional
    would = 1 + sum(line.rating > eve.rating for line in board.ranked)
    provisional = page.text.split('id="provisional-h"')[1]
    assert (f'<span aria-hidden="true">({would})</span><span class="visually-hidden">would be {ordinal(would)}, '
            f'provisional</span>') in provisional
    # A change is said with its direction, in the colour of its direction.
    ranked = page.text.split('id="provisional-h"')[0]
    assert re.search(r'class="(rise|fall)" aria-hidden="true">[▲▼]\d', ranked)


def test_a_player_with_one_rated_game_is_not_given_a_best_and_a_lowest(web, app, season):
    with app.app_context():
        eve = store.find_player("Eve").id
        rating = history.player_rating(eve)
    text = html.unescape(re.sub(r"<[^>]+>", " ", web.get(f"/players/{eve}").text))
    text = " ".join(text.split())
    assert rating.games == 1
    assert not re.search(r"Best:? [-−]?\d", text) and "Lowest" not in text and "ringed" not in text
    assert f"First game 0.0 to {rating.rating:.1f} in game" in text


def ordinal(place: int) -> str:
    """A small place as the English page types it ("1st", "4th")."""
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")


def test_a_provisional_players_place_in_brackets_is_where_their_rating_would_stand(web, app, season):
    with app.app_context():
        board = history.leaderboard()
    eve = board.provisional[0]
    place = 1 + sum(1 for line in board.ranked if line.rating > eve.rating)
    assert place > 1  # a newcomer after one game stands below someone
    provisional = web.get("/ratings").text.split('id="provisional-h"')[1]
    assert f'<span aria-hidden="true">({place})</span>' in provisional
    assert f"would be {ordinal(place)}, provisional" in provisional


def test_before_anyone_has_five_games_the_provisional_places_are_among_themselves(web, app):
    with app.app_context():
        import_docs([classic_doc(["Ann", "Ben", "Cat"], "Ben", "2026-01-01T19:00:00Z", "2026-01-01T20:00:00Z")])
        board = history.leaderboard()
    assert not board.ranked and len(board.provisional) == 3
    provisional = web.get("/ratings").text.split('id="provisional-h"')[1]
    places = re.findall(r'<span aria-hidden="true">\((\d+)\)</span>', provisional)
    expected = [str(1 + sum(1 for other in board.provisional if other.rating > line.rating)) for line in board.provisional]
    assert places == expected and len(set(places)) > 1, places
