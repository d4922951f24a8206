"""Issue 4: the history, a game's story and charts, player statistics, files in and out.

Statistics are checked against figures worked out by hand in the comments; the pages
against the exported results; and every page against a count of the SQL statements it
issues, which must not grow with the size of a game or of the history.
"""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import re
import xml.etree.ElementTree as ET
from contextlib import contextmanager
from datetime import UTC, datetime

import pytest
from sqlalchemy import event, func, insert, inspect, select

from conftest import CLUB_KEY, ON_POSTGRES, make_keeper
from scorekeeper.club import digest
from history_games import random_docs, random_state
from scorekeeper import create_app, history, store, transfer
from scorekeeper.charts import levels_chart, nice_ticks, totals_chart
from scorekeeper.cli import export_all
from scorekeeper.gamefile import backup_document, game_document, read_document
from scorekeeper.models import Game, HandEntry, Player, Round, Seat, db
from scorekeeper.rules import BALMORAL, Progression, name_key

# =============================================================== games worked out by hand

ANN_BEN_CAT = ["Ann", "Ben", "Cat"]


def game(rules, players, rounds, started, first_dealer=None, **extra):
    doc = {
        "format": "scorekeeper-game/1",
        "rules": rules,
        "players": players,
        "first_dealer": first_dealer or players[0],
        "started_at": started,
        "rounds": rounds,
    }
    doc.update(extra)
    return doc


def out(went_out, hands=None, achieved=(), points=None):
    r = {"went_out": went_out, "hands": hands or {}}
    if achieved:
        r["achieved"] = list(achieved)
    if points:
        r["points"] = points
    return r


# Game 1, Balmoral, finished. Ben goes out every round and climbs a level each time.
#   R1: Ann A K = 25, Cat 5 = 5; Cat makes level 1 too.    Levels made: Ann 0, Ben 1, Cat 1
#   R2: Ann 2, Cat 10; Ann makes level 1.                     Ann 1, Ben 2, Cat 1
#   R3..R7: Ann and Cat hold 3, 4, 5, 6, 7; only Ben climbs.  Ben reaches 7: game over.
#   Totals: Ann 25+2+3+4+5+6+7 = 52, Ben 0, Cat 5+10+3+4+5+6+7 = 40. Ben wins.
#   Ann: level 1 took 2 rounds; level 2 for 5 rounds when the game ended.
#   Cat: level 1 took 1 round; level 2 for 6 rounds when the game ended.
G1 = game("balmoral", ANN_BEN_CAT, [
    out("Ben", {"Ann": "A K", "Cat": "5"}, ["Cat"]),
    out("Ben", {"Ann": "2", "Cat": "10"}, ["Ann"]),
    *[out("Ben", {"Ann": str(n), "Cat": str(n)}) for n in range(3, 8)],
], "2026-01-01T19:00:00Z", finished_at="2026-01-01T20:10:00Z")

# Game 2, Balmoral, in progress. R1: Ann out, Ben K = 10. R2: Ben out (makes level 1), Ann 2 2 = 4.
#   Totals Ann 4, Ben 10. Ann made level 1 in 1 round; Ben made level 1 in 2 rounds.
G2 = game("balmoral", ["Ann", "Ben"], [
    out("Ann", {"Ben": "K"}),
    out("Ben", {"Ann": "2 2"}),
], "2026-01-08T19:00:00Z")

# Game 3, classic, Ann wins.
#   D1 Ann out: Ben A 15, Cat 2.  D2 Cat out: Ann K 10, Ben 3.  D3 Ann out: Ben 2, Cat counted 20.
#   D4 Ben out: Ann 5, Cat 5.     D5 Ann out: Ben 10, Cat 4.   D6 Ann out: Ben 6, Cat 6.
#   D7 Cat out: Ann 7, Ben Q 10.
#   Totals: Ann 10+5+7 = 22, Ben 15+3+2+10+6+10 = 46, Cat 2+20+5+4+6 = 37. Ann went out 4 times.
G3 = game("classic", ANN_BEN_CAT, [
    out("Ann", {"Ben": "A", "Cat": "2"}),
    out("Cat", {"Ann": "K", "Ben": "3"}),
    out("Ann", {"Ben": "2"}, points={"Cat": 20}),
    out("Ben", {"Ann": "5", "Cat": "5"}),
    out("Ann", {"Ben": "10", "Cat": "4"}),
    out("Ann", {"Ben": "6", "Cat": "6"}),
    out("Cat", {"Ann": "7", "Ben": "Q"}),
], "2026-02-01T19:00:00Z")

# Game 4, classic, Ann and Cat share the win on 5 each; Ben 20+10+2+2+2+2 = 38.
#   Ann went out in D2, D4, D6 (3 times).
G4 = game("classic", ANN_BEN_CAT, [
    out("Ben", {"Ann": "5", "Cat": "5"}),
    out("Ann", {"Ben": "K K", "Cat": ""}),
    out("Cat", {"Ann": "", "Ben": "K"}),
    out("Ann", {"Ben": "2", "Cat": ""}),
    out("Cat", {"Ann": "", "Ben": "2"}),
    out("Ann", {"Ben": "2", "Cat": ""}),
    out("Cat", {"Ann": "", "Ben": "2"}),
], "2026-03-01T19:00:00Z")


@pytest.fixture
def four(app):
    """Games 1 to 4 imported; their ids."""
    with app.app_context():
        return [o.game_id for o in transfer.import_files(read_document(backup_document([G1, G2, G3, G4])))]


def player_id(app, name):
    with app.app_context():
        return db.session.scalar(select(Player.id).where(Player.name_key == name_key(name)))


def stats_of(app, name):
    with app.app_context():
        return history.player_stats(player_id(app, name))


def text(response) -> str:
    body = response.get_data(as_text=True)
    body = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", body, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def upload(client, doc, name="game.json", raw: bytes | None = None, **extra):
    body = raw if raw is not None else json.dumps(doc).encode()
    data = {"file": (io.BytesIO(body), name), **extra}
    return client.post("/import", data=data, content_type="multipart/form-data")


def games_stored(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(Game.id)))


# =============================================================== statistics, by hand


def test_results_per_rule_set_agree_with_the_hand_worked_figures(app, four):
    ann = stats_of(app, "Ann")
    bal, cla = ann.by_rules["balmoral"], ann.by_rules["classic"]
    assert (bal.played, bal.finished, bal.won, bal.shared) == (2, 1, 0, 0)
    assert bal.finals == [52] and bal.average_final == 52 and bal.best_final == 52
    assert (bal.rounds, bal.penalty, bal.went_out) == (9, 56, 1)
    assert bal.average_penalty == pytest.approx(56 / 9)
    assert bal.win_rate == 0
    assert (cla.played, cla.finished, cla.won, cla.shared) == (2, 2, 2, 1)
    assert sorted(cla.finals) == [5, 22] and cla.average_final == 13.5 and cla.best_final == 5
    assert (cla.rounds, cla.penalty, cla.went_out) == (14, 27, 7)
    assert cla.win_rate == 1
    o = ann.overall
    assert (o.played, o.finished, o.won, o.shared, o.rounds, o.penalty, o.went_out) == (4, 3, 2, 1, 23, 83, 8)
    assert o.win_rate == pytest.approx(2 / 3)
    assert list(ann.by_rules) == ["balmoral", "classic"]


def test_the_ladder_counts_the_rounds_each_level_took(app, four):
    ann = stats_of(app, "Ann")
    level = {lv.level: lv for lv in ann.levels}
    assert len(level) == 7
    # Level 1: 2 rounds in game 1, 1 round in game 2.
    assert (level[1].made, level[1].rounds_to_make, level[1].longest, level[1].average) == (2, 3, 2, 1.5)
    # Level 2: never made; game 1 ended with Ann on it after 5 rounds (game 2 is still going: not counted).
    assert (level[2].made, level[2].ended_on, level[2].rounds_ended_on, level[2].average) == (0, 1, 5, None)
    assert all(level[n].made == 0 and level[n].ended_on == 0 for n in range(3, 8))
    assert ann.slowest_level.level == 1
    ben = {lv.level: lv for lv in stats_of(app, "Ben").levels}
    # Ben: level 1 in 1 round (game 1) and 2 rounds (game 2); levels 2 to 7 one round each.
    assert (ben[1].made, ben[1].rounds_to_make) == (2, 3)
    assert [(ben[n].made, ben[n].rounds_to_make) for n in range(2, 8)] == [(1, 1)] * 6
    cat = {lv.level: lv for lv in stats_of(app, "Cat").levels}
    assert (cat[1].made, cat[1].rounds_to_make, cat[2].ended_on, cat[2].rounds_ended_on) == (1, 1, 1, 6)


def test_a_player_who_never_played_balmoral_has_no_ladder(app):
    with app.app_context():
        transfer.import_files(read_document(G3))
    assert stats_of(app, "Ann").levels == []


def test_head_to_head_counts_who_finished_ahead_and_who_won(app, four):
    ann = stats_of(app, "Ann")
    ben = history.head_to_head(ann, player_id(app, "Ben"))
    # Game 1: 52 v 0 behind; game 3: 22 v 46 ahead; game 4: 5 v 38 ahead; game 2 unfinished.
    assert (ben.games, ben.finished, ben.ahead, ben.behind, ben.level) == (4, 3, 2, 1, 0)
    assert (ben.player_won, ben.opponent_won) == (2, 1)
    cat = history.head_to_head(ann, player_id(app, "Cat"))
    # Game 1: 52 v 40 behind; game 3: 22 v 37 ahead; game 4: 5 v 5 level (both won).
    assert (cat.games, cat.finished, cat.ahead, cat.behind, cat.level) == (3, 3, 1, 1, 1)
    assert (cat.player_won, cat.opponent_won) == (2, 1)
    assert [o.name for o in ann.opponents] == ["Ben", "Cat"]
    assert [o.games for o in ann.opponents] == [4, 3]


def test_recent_games_are_newest_first_with_the_outcome_from_the_players_seat(app, four):
    ann = stats_of(app, "Ann")
    assert [pg.stored.id for pg in ann.recent] == list(reversed(four))
    assert [pg.outcome for pg in ann.recent] == ["shared the win", "won", "in progress", "3rd of 3"]
    assert [pg.total for pg in ann.recent] == [5, 22, 4, 52]


def test_deleted_games_leave_the_statistics(app, four):
    with app.app_context():
        history.delete_game(four[2])  # game 3, classic, Ann won
    ann = stats_of(app, "Ann")
    assert ann.by_rules["classic"].played == 1
    assert ann.overall.won == 1
    with app.app_context():
        history.restore_game(four[2])
    assert stats_of(app, "Ann").overall.won == 2


def test_the_player_page_shows_the_figures(web, app, four):
    page = text(web.get(f"/players/{player_id(app, 'Ann')}"))
    assert "Ann" in page
    assert "Games won 2 of 3" in page
    assert "Win rate 67%" in page
    assert "Balmoral Rummy Played 2 (1 in progress) Won 0 of 1 Win rate 0% Average final 52.0 Best final 52" in page
    assert "Average final 13.5 Best final 5 Penalty a round 1.9 Went out 7 of 14 rounds" in page
    assert "1 3 sets of 3 slowest 2 1.5 2 0" in page


def test_the_head_to_head_on_the_player_page(web, app, four):
    ann, cat = player_id(app, "Ann"), player_id(app, "Cat")
    page = text(web.get(f"/players/{ann}?vs={cat}"))
    assert "3 games together" in page
    assert "Finished ahead (lower total) 1 1" in page
    assert "Won the game 2 1" in page
    assert "Ties (the same total): 1" in page


def test_the_roster_links_each_player_to_their_page(web, app, four):
    body = web.get("/players/").get_data(as_text=True)
    assert f'href="/players/{player_id(app, "Cat")}"' in body


def test_statistics_agree_with_the_exported_results_after_importing_a_backup(web, app):
    docs = random_docs(40, seed=11)
    response = upload(web, backup_document(docs), "backup.json")
    assert response.status_code == 200, text(response)
    assert "40 games imported" in text(response)
    with app.app_context():
        exported = export_all()["games"]
        players = db.session.scalars(select(Player)).all()
        ids = {p.name: p.id for p in players}
    # Every page renders.
    pages = 0
    while True:
        pages += 1
        response = web.get(f"/history?page={pages}")
        assert response.status_code == 200
        if "Older →" not in text(response):
            break
    assert pages == 2
    with app.app_context():
        game_ids = store.all_game_ids()
    for gid in game_ids:
        assert web.get(f"/games/{gid}/story").status_code == 200
    # The figures on every player page are those of the exported results.
    for name, pid in ids.items():
        assert web.get(f"/players/{pid}").status_code == 200
        mine = [g for g in exported if name in g["players"]]
        finished = [g for g in mine if g["result"]["finished"]]
        won = [g for g in finished if name in g["result"]["winners"]]
        finals = [next(p["total"] for p in g["result"]["players"] if p["name"] == name) for g in finished]
        penalties = [pen for g in mine for p in g["result"]["players"] if p["name"] == name for pen in p["penalties"]]
        outs = sum(1 for g in mine for r in g["rounds"] if r["went_out"] == name)
        s = stats_of(app, name).overall
        assert (s.played, s.finished, s.won) == (len(mine), len(finished), len(won))
        assert sorted(s.finals) == sorted(finals)
        assert (s.rounds, s.penalty, s.went_out) == (len(penalties), sum(penalties), outs)
        page = text(web.get(f"/players/{pid}"))
        assert f"Games won {len(won)} of {len(finished)}" in page


# =============================================================== the history


@pytest.fixture
def many(app):
    """45 games over 45 days, a mix of both rule sets."""
    with app.app_context():
        return [o.game_id for o in transfer.import_files(read_document(backup_document(random_docs(45, seed=3))))]


def story_links(response) -> list[int]:
    return [int(m) for m in re.findall(r'href="/games/(\d+)/story"', response.get_data(as_text=True))]


def test_the_history_lists_every_game_newest_first_a_page_at_a_time(web, app, many):
    first = web.get("/history")
    assert first.status_code == 200
    with app.app_context():
        newest = list(db.session.scalars(select(Game.id).order_by(Game.started_at.desc(), Game.id.desc())))
    assert story_links(first) == newest[:20]
    assert "Games 1 to 20 of 45" in text(first)
    third = web.get("/history?page=3")
    assert story_links(third) == newest[40:]
    assert "Page 3 of 3" in text(third)


def test_a_history_item_says_the_rules_players_winner_and_length(web, app, four):
    page = text(web.get("/history"))
    assert "Balmoral Rummy · 7 rounds · 1 h 10 min 🏆 Ben (0) Ann Ben Cat" in page
    assert "In progress, round 3: Ann leads with 4" in page
    assert "🏆 Ann and Cat (5) share the win" in page
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


# =============================================================== deleting a game


def new_web_game(web, names=("Ann", "Ben", "Cat")) -> int:
    data = {f"seat-{i}": n for i, n in enumerate(names)}
    data.update(rules="balmoral", dealer="0", dealer_rule="winner", start="1")
    response = web.post("/games/new", data=data)
    assert response.status_code == 303
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_deleting_a_game_asks_first_and_can_be_undone(web, app):
    gid = new_web_game(web)
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
    gid = new_web_game(web)
    other = app.test_client()
    ask = other.get(f"/games/{gid}/delete")
    assert "Only a phone that keeps score for this game can delete it" in text(ask)
    assert other.post(f"/games/{gid}/delete").status_code == 403
    with app.app_context():
        assert db.session.get(Game, gid).deleted_at is None


def test_a_deleted_game_can_be_deleted_for_good_only_from_the_bin(web, app):
    gid = new_web_game(web)
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


def csrf_of(response) -> str:
    return re.search(r'name="csrf_token"[^>]*\bvalue="([^"]+)"', response.get_data(as_text=True)).group(1)


def new_web_game_with_token(client) -> int:
    token = csrf_of(client.get("/games/new"))
    data = {"seat-0": "Ann", "seat-1": "Ben", "rules": "balmoral", "dealer": "0", "dealer_rule": "winner",
            "start": "1", "csrf_token": token}
    response = client.post("/games/new", data=data)
    assert response.status_code == 303
    return int(response.headers["Location"].rsplit("/", 1)[1])


# =============================================================== a game's story and its charts


def test_the_story_shows_every_hand_who_went_out_made_their_contract_and_dealt(web, four):
    page = text(web.get(f"/games/{four[0]}/story"))
    assert "Ben wins with 0." in page
    assert "Round 1 · Ann dealt 13 cards · Ben went out" in page
    # Ann: level 1, A K, 25 points, total 25; Ben out, made level 1; Cat made level 1 with 5 left.
    assert "Ann Level 1 A K 25 25 Ben Level 1 ✓ made ★ went out 0 0 Cat Level 1 ✓ made 5 5 5" in page
    assert "Round 2 · Ben dealt 13 cards · Ben went out" in page
    assert "Ann Level 1 ✓ made 2 2 27" in page
    assert "Round 7 · Ben dealt" in page


def test_the_story_of_a_classic_game_names_each_deal_and_hands_counted_by_hand(web, four):
    page = text(web.get(f"/games/{four[2]}/story"))
    assert "Round 3 · Cat dealt 10 cards · Deal 3: two sequences · Ann went out" in page
    assert "Cat counted by hand 20 22" in page
    assert "Round 4 · Ann dealt 10 cards" in page  # the deal rotates
    assert "Round 5 · Ben dealt 12 cards" in page  # 12 cards from deal 5


def svg_of(response, chart_id):
    body = response.get_data(as_text=True)
    match = re.search(rf'<svg [^>]*class="chart" id="{chart_id}".*?</svg>', body, re.S)
    assert match, f"no {chart_id}"
    return ET.fromstring(match.group(0).replace("&nbsp;", " "))


SVG = "{http://www.w3.org/2000/svg}"


def polylines(svg):
    return [el for el in svg.iter() if el.tag in ("polyline", f"{SVG}polyline")]


def test_the_charts_draw_one_line_per_player_in_their_seat_colour(web, four):
    response = web.get(f"/games/{four[0]}/story")
    totals = svg_of(response, "totals-chart")
    assert totals.get("role") == "img"
    lines = polylines(totals)
    assert [el.get("class") for el in lines] == ["line seat-0", "line seat-1", "line seat-2"]
    # Eight points each: before round 1, then after each of the 7 rounds.
    assert [len(el.get("points").split()) for el in lines] == [8, 8, 8]
    levels = svg_of(response, "levels-chart")
    assert len(polylines(levels)) == 3
    assert "style=" not in response.get_data(as_text=True)
    page = text(response)
    assert "Running totals after each round" in page  # the table beside the chart


def test_the_running_totals_line_climbs_with_the_totals(app, four):
    with app.app_context():
        state = history.load_game(four[0]).state
    svg = ET.fromstring(str(totals_chart(state)))
    ann = polylines(svg)[0].get("points").split()
    ys = [float(p.split(",")[1]) for p in ann]
    # Ann's totals 0, 25, 27, 30, 34, 39, 45, 52: higher totals are drawn higher up (smaller y).
    assert ys == sorted(ys, reverse=True) and len(set(ys)) == 8
    ben = [float(p.split(",")[1]) for p in polylines(svg)[1].get("points").split()]
    assert len(set(ben)) == 1  # Ben stays on 0
    assert "final totals: Ann 52, Ben 0, Cat 40" in svg.find(f"{SVG}desc").text


def test_a_classic_game_has_no_level_chart(web, app, four):
    response = web.get(f"/games/{four[2]}/story")
    assert 'id="totals-chart"' in response.get_data(as_text=True)
    assert 'id="levels-chart"' not in response.get_data(as_text=True)
    with app.app_context():
        assert levels_chart(history.load_game(four[2]).state) is None


def test_names_in_a_chart_are_text_not_markup(app):
    doc = game("balmoral", ["<b>Al</b>", "Bo & Co"], [out("Bo & Co", {"<b>Al</b>": "K"})], "2026-01-01T10:00:00Z")
    with app.app_context():
        [o] = transfer.import_files(read_document(doc))
        svg = str(totals_chart(history.load_game(o.game_id).state))
    assert "<b>" not in svg and "&lt;b&gt;Al&lt;/b&gt;" in svg
    ET.fromstring(svg)  # well formed


def test_nice_ticks_cover_the_highest_total():
    for top in (0, 1, 7, 49, 50, 51, 118, 999, 1000, 4321):
        ticks = nice_ticks(top)
        assert ticks[0] == 0 and ticks[-1] >= top and len(ticks) <= 6


def test_a_game_just_started_has_a_story_without_charts(web):
    gid = new_web_game(web)
    response = web.get(f"/games/{gid}/story")
    assert response.status_code == 200
    assert "Just started" in text(response)
    assert 'class="chart"' not in response.get_data(as_text=True)


@pytest.mark.parametrize("url", [
    "/games/999/story", "/players/999", "/games/999.json", "/games/999.csv", "/games/999/delete",
    "/games/999/purge", "/games/abc/story",
])
def test_unknown_ids_are_404(web, four, url):
    assert web.get(url).status_code == 404


@pytest.mark.parametrize("vs, status, message", [
    ("abc", 404, '"abc" is not a player number.'),
    ("999", 404, "There is no player number 999."),
])
def test_an_unknown_head_to_head_is_explained(web, app, four, vs, status, message):
    response = web.get(f"/players/{player_id(app, 'Ann')}?vs={vs}")
    assert response.status_code == status
    assert message in text(response)


def test_head_to_head_with_someone_never_met_or_oneself(web, app, four):
    web.post("/players/", data={"name": "Zed"})
    ann = player_id(app, "Ann")
    assert "Zed and Ann have not played a game together." in text(web.get(f"/players/{ann}?vs={player_id(app, 'Zed')}"))
    assert "Choose someone else" in text(web.get(f"/players/{ann}?vs={ann}"))
    assert "has not played a game yet" in text(web.get(f"/players/{player_id(app, 'Zed')}"))


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
        history.delete_game(four[1])
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
                             "level", "went_out", "made_contract"]
    assert rows[0] == {"round": "1", "dealer": "Ann", "player": "Ann", "cards": "", "counted_by_hand": "no",
                       "penalty": "0", "running_total": "0", "level": "1", "went_out": "yes", "made_contract": ""}
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
    gid = new_web_game(web)  # a game started here has no fingerprint of its own
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
        history.delete_game(1)
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
    (b"{not json", "not.json: not a JSON document (Expecting property name"),
    (b"\xff\xfe\x00", "not.json: not a JSON document (it is not UTF-8 text)"),
    (b"[" * 100000, "not.json: not a JSON document"),
    (b'{"format": "scorekeeper-game/1", "decks": 1' + b"0" * 5000 + b"}", "not.json: not a JSON document"),
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
    token = csrf_of(client.get("/import"))
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
        doc = game_document(gf.state, gf.started_at, gf.finished_at, with_result=False)
    expected = hashlib.sha256(json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
                              .encode()).hexdigest()
    assert stored == expected


# =============================================================== a fixed number of queries


@contextmanager
def counted(app):
    with app.app_context():
        engine = db.engine
    statements: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


def queries(app, client, url) -> int:
    client.get(url)  # warm up: the first request may reflect, connect, set pragmas
    with counted(app) as statements:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(statements)


def bulk_seed(app, docs):
    """Store game files with a handful of multi-row INSERTs (fast enough for 1,000 games)."""
    files = read_document(backup_document(docs))
    with app.app_context():
        names = sorted({n for gf in files for n in gf.setup.players}, key=name_key)
        db.session.execute(insert(Player), [{"name": n, "name_key": name_key(n)} for n in names])
        ids = dict(db.session.execute(select(Player.name, Player.id)).all())
        base = (db.session.scalar(select(func.max(Game.id))) or 0) + 1
        round_id = (db.session.scalar(select(func.max(Round.id))) or 0) + 1
        games, seats, rounds, hands = [], [], [], []
        for i, gf in enumerate(files):
            gid = base + i
            setup = gf.setup
            games.append({"id": gid, "rules": setup.rules.key, "decks": setup.decks, "jokers": setup.jokers,
                          "dealer_rule": setup.dealer_rule.value, "first_dealer_seat": setup.seat_of(setup.first_dealer),
                          "started_at": gf.started_at,
                          "finished_at": gf.finished_at if gf.state.finished else None})
            seats += [{"game_id": gid, "position": p, "player_id": ids[n]} for p, n in enumerate(setup.players)]
            ladder = setup.rules.progression is Progression.LADDER
            for number, result in enumerate(gf.state.rounds, start=1):
                rec = result.record
                rounds.append({"id": round_id, "game_id": gid, "number": number, "went_out_id": ids[rec.went_out]})
                for n in setup.players:
                    if n in rec.points:
                        cards, points = None, rec.points[n]
                    else:
                        cards, points = (rec.hands[n].canonical if n in rec.hands else ""), None
                    hands.append({"round_id": round_id, "player_id": ids[n], "cards": cards, "points": points,
                                  "achieved": ladder and n in result.achieved})
                round_id += 1
        for table, rows in ((Game, games), (Seat, seats), (Round, rounds), (HandEntry, hands)):
            for start in range(0, len(rows), 2000):
                db.session.execute(insert(table), rows[start:start + 2000])
        db.session.commit()
        return [g["id"] for g in games]


def long_game_doc(rounds: int, players: int, seed: int = 7) -> dict:
    import random

    from history_games import NAMES

    state = random_state(random.Random(seed), rules=BALMORAL, players=NAMES[:players], rounds=rounds)
    assert len(state.rounds) == rounds
    return game_document(state, datetime(2026, 5, 1, 19, tzinfo=UTC), None, with_result=False)


def test_a_story_costs_the_same_queries_for_1_round_and_30_rounds(app, web):
    small, big = bulk_seed(app, [long_game_doc(1, 2), long_game_doc(30, 8)])
    for page in ("/games/{}/story", "/games/{}.csv", "/games/{}.json", "/games/{}/delete"):
        one, thirty = queries(app, web, page.format(small)), queries(app, web, page.format(big))
        assert one == thirty, (page, one, thirty)
        assert thirty <= 8, page


def test_history_and_player_pages_cost_the_same_queries_for_10_and_1000_games(app, tmp_path):
    docs = random_docs(1000, seed=5)
    sizes = {}
    for label, count in (("ten", 10), ("thousand", 1000)):
        other = create_app({"TESTING": True, "SECRET_KEY": "q", "USE_CDN": False,
                            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / (label + '.sqlite')}"})
        with other.app_context():
            db.create_all()
        bulk_seed(other, docs[:count])
        client = other.test_client()
        with other.app_context():
            ann = db.session.scalar(select(Player.id).where(Player.name == "Ann"))
            ben = db.session.scalar(select(Player.id).where(Player.name == "Ben"))
            games = db.session.scalar(select(func.count(Game.id)))
            history.delete_game(db.session.scalar(select(func.max(Game.id))))
        assert games == count
        sizes[label] = {
            url: queries(other, client, url)
            for url in (
                "/history", "/history?page=2" if count > 20 else "/history?page=1", f"/history?player={ann}",
                "/history?rules=classic", f"/history?player={ann}&rules=balmoral", "/history/deleted",
                f"/players/{ann}", f"/players/{ann}?vs={ben}",
            )
        }
        with other.app_context():
            db.engine.dispose()
    ten, thousand = sizes["ten"], sizes["thousand"]
    assert list(ten.values()) == list(thousand.values()), (ten, thousand)
    assert max(thousand.values()) <= 10, thousand


def explain(stmt) -> str:
    sql = str(stmt.compile(db.engine, compile_kwargs={"literal_binds": True}))
    return " ".join(str(row[-1]) for row in db.session.execute(db.text("EXPLAIN QUERY PLAN " + sql)))


@pytest.mark.skipif(ON_POSTGRES, reason="reads SQLite's EXPLAIN QUERY PLAN; the SQLite pass runs it")
def test_indexes_back_the_history_filters(app):
    with app.app_context():
        found = {ix["name"]: ix["column_names"] for t in ("game", "seat") for ix in inspect(db.engine).get_indexes(t)}
        assert found["ix_game_started_at"] == ["started_at"]
        assert found["ix_game_rules_started_at"] == ["rules", "started_at"]
        assert found["ix_seat_player_id"] == ["player_id"]
        newest = (Game.started_at.desc(), Game.id.desc())
        assert "ix_game_started_at" in explain(select(Game.id).order_by(*newest).limit(20)) or \
            "ix_game_deleted_at_started_at" in explain(select(Game.id).order_by(*newest).limit(20))
        by_rules = explain(select(Game.id).where(history.HistoryFilter(rules="classic").where())
                           .order_by(*newest).limit(20))
        assert "USING INDEX ix_game_" in by_rules
        by_player = explain(select(Game.id).where(history.HistoryFilter(player_id=1).where()).order_by(*newest))
        assert "ix_seat_player_id" in by_player


def test_the_migrations_make_the_models_schema(tmp_path):
    from flask_migrate import upgrade

    scratch = create_app({"TESTING": True, "SECRET_KEY": "m", "USE_CDN": False,
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'migrated.sqlite'}"})
    with scratch.app_context():
        upgrade()
        from alembic.autogenerate import compare_metadata
        from alembic.migration import MigrationContext

        with db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), db.metadata)
        columns = {c["name"] for c in inspect(db.engine).get_columns("game")}
        db.engine.dispose()
    assert diff == []
    assert {"deleted_at", "fingerprint"} <= columns


def test_the_last_page_of_a_large_history_is_quick_to_find(app, web):
    bulk_seed(app, random_docs(120, seed=9))
    response = web.get("/history?page=6")
    assert response.status_code == 200
    assert "Games 101 to 120 of 120" in text(response)
    assert web.get("/history?page=7").status_code == 404


# =============================================================== no 500s


@pytest.mark.parametrize("url", [
    "/games/99999999999999999999/story", "/players/99999999999999999999", "/games/99999999999999999999.json",
    "/games/99999999999999999999.csv", "/games/99999999999999999999/delete",
    "/history?player=99999999999999999999", "/players/1?vs=99999999999999999999", "/history?player=%00",
])
def test_numbers_too_large_for_the_database_are_404(web, four, url):
    assert web.get(url).status_code == 404


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


def test_the_pages_answer_htmx_with_a_fragment(web, app, four):
    for url in ("/history", f"/games/{four[0]}/story", f"/players/{player_id(app, 'Ann')}", "/import"):
        response = web.get(url, headers={"HX-Request": "true"})
        assert response.status_code == 200
        assert "<html" not in response.get_data(as_text=True)
        assert "<html" in web.get(url).get_data(as_text=True)


def test_the_scoreboard_links_to_the_story_and_says_when_the_game_is_deleted(web, app):
    gid = new_web_game(web)
    board = web.get(f"/games/{gid}")
    assert f'href="/games/{gid}/story"' in board.get_data(as_text=True)
    assert "This game is deleted" not in text(board)
    web.post(f"/games/{gid}/delete")
    assert "This game is deleted" in text(web.get(f"/games/{gid}"))
    story = text(web.get(f"/games/{gid}/story"))
    assert "This game is deleted" in story and "Restore it" in story


def test_the_games_page_leaves_out_deleted_games_and_links_to_the_history(web, app):
    kept, gone = new_web_game(web), new_web_game(web, ("Cat", "Dev"))
    web.post(f"/games/{gone}/delete")
    body = web.get("/").get_data(as_text=True)
    assert f'href="/games/{kept}"' in body and f'href="/games/{gone}"' not in body
    assert 'href="/history"' in body and 'href="/import"' in body


def test_restoring_a_big_backup_keeps_this_phones_right_to_its_own_game(web, app):
    mine = new_web_game(web)
    response = upload(web, backup_document(random_docs(70, seed=8)), "backup.json")
    assert "70 games imported" in text(response)
    assert "and 20 more" in text(response)  # the first 50 are listed one by one
    with app.app_context():
        imported = list(db.session.scalars(select(Game.id).where(Game.id != mine).order_by(Game.id)))
    assert web.post(f"/games/{mine}/delete").status_code == 303
    assert web.post(f"/games/{imported[-1]}/delete").status_code == 303  # the newest few: yes
    assert web.post(f"/games/{imported[0]}/delete").status_code == 403
