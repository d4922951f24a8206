"""Club ratings (openskill's Plackett-Luce over the finished games, in finish order) from the
stored games: corrections, deletes and restores, the leaderboard, a player's rating. The ratings
worked out from the standings alone are tested in tests/store/figures/test_ratings.py.
"""

from __future__ import annotations

from dataclasses import replace
import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from history_games import game, out, random_docs

from sqlalchemy import case, select, update

from scorekeeper.club import history
from scorekeeper.web import charts
from scorekeeper.store.figures import rating_summaries, ratings
from scorekeeper import store
from scorekeeper.files import transfer
from scorekeeper.files.gamefile import backup_document, read_document
from scorekeeper.store.models import Player, RatingSummary, db
from scorekeeper.store.figures.ratings import rate
from scorekeeper.rules import RoundRecord


# =============================================================== from the stored games

CLASSIC_T = ["Ann", "Ben", "Cat"]


def classic_game(players, went_out_first: str, started: str, finished: str) -> dict:
    """A classic game: in deal 1 ``went_out_first`` goes out and the two others hold K K K and 2;
    every later deal the first player goes out and the others hold a 2."""
    first, *others = players
    rest = [p for p in players if p != went_out_first]
    deal1 = out(went_out_first, {rest[0]: "K K K", rest[1]: "2"})
    later = [out(first, {p: "2" for p in others}) for _ in range(6)]
    return game("classic", players, [deal1, *later], started, finished_at=finished)


def import_docs(docs) -> list[int]:
    return [o.game_id for o in transfer.import_files(read_document(backup_document(docs)))]


@pytest.fixture
def club(app):
    """Four finished games; the first two end at the same time (the id decides)."""
    with app.app_context():
        ids = import_docs([
            classic_game(["Ann", "Ben", "Cat"], "Ben", "2026-01-01T19:00:00Z", "2026-01-01T20:00:00Z"),
            classic_game(["Ben", "Cat", "Dev"], "Dev", "2026-01-01T18:00:00Z", "2026-01-01T20:00:00Z"),
            classic_game(["Ann", "Dev", "Cat"], "Ann", "2026-01-02T19:00:00Z", "2026-01-02T20:00:00Z"),
            classic_game(["Cat", "Ann", "Ben"], "Cat", "2026-01-03T19:00:00Z", "2026-01-03T20:00:00Z"),
        ])
    return ids


def stored(app=None) -> dict[int, tuple]:
    """Every player's stored rating history over all games."""
    ids = db.session.scalars(select(Player.id)).all()
    return {pid: history.player_rating(pid).steps for pid in ids}


def test_the_stored_games_are_rated_in_finish_order_then_by_id(app, club):
    with app.app_context():
        standings = rating_summaries.standings()
        assert [s.game_id for s in standings] == club
        # Game 1: Ann goes out in deals 2 to 7; Ben went out in deal 1 and held a 2 in each
        # later deal (12), Cat 2 + 12 = 14, Ann K K K = 30: Ben first, Cat second, Ann third.
        ann, ben, cat = (store.find_player(n).id for n in ("Ann", "Ben", "Cat"))
        ranks = {e.player_id: e.rank for e in standings[0].entries}
        assert ranks == {ben: 1, cat: 2, ann: 3}
        # What the changes stored is what rating every game from nothing gives.
        expected = rate(standings)
        for pid, steps in stored().items():
            # (A stored step counts the player's games; the pure one, every match.)
            assert [replace(s, index=0) for s in steps] == [replace(s, index=0) for s in expected.of(pid).steps]
        assert rating_summaries.rebuild(fix=False) == []


def test_a_correction_of_an_old_game_changes_the_later_ratings(app, club, monkeypatch):
    with app.app_context():
        dev = store.find_player("Dev").id
        before = history.player_rating(dev)
        rated: list[int] = []
        real = ratings.rate
        monkeypatch.setattr(ratings, "rate", lambda matches, *a, **k: rated.append(len(matches)) or real(matches, *a, **k))
        # Game 3 corrected: Dev went out in deal 1, not Ann.
        store.replace_round(club[2], 1, RoundRecord.create("Dev", {"Ann": "K K K", "Cat": "2"}))
        # Worked out again from that game on: games 3 and 4 (all games; classic), game 3 (2026
        # all; classic 2026 hold the same games), never the games before it.
        assert max(rated) == 2
        after = history.player_rating(dev)
        assert after.steps[:1] == before.steps[:1] and after.rating != before.rating
        assert rating_summaries.rebuild(fix=False) == []
        # Game 1 corrected: everything after it moves.
        store.replace_round(club[0], 1, RoundRecord.create("Ann", {"Ben": "K K K", "Cat": "2"}))
        assert history.player_rating(dev).steps[1].before != after.steps[1].before
        assert rating_summaries.rebuild(fix=False) == []


def test_a_deleted_game_leaves_the_ratings_and_a_restore_brings_them_back(app, club):
    with app.app_context():
        before = stored()
        dev = store.find_player("Dev").id
        store.delete_game(club[1])
        assert history.game_ratings(club[1]) == {}
        assert history.player_rating(dev).games == 1
        ann = store.find_player("Ann").id
        assert history.player_rating(ann).rating != before[ann][-1].after
        assert rating_summaries.rebuild(fix=False) == []
        store.restore_game(club[1])
        assert stored() == before
        assert rating_summaries.rebuild(fix=False) == []


def test_a_rename_changes_no_rating(app, club):
    with app.app_context():
        before = stored()
        store.rename_player(store.find_player("Ann").id, "Annie")
        assert stored() == before


def test_a_game_in_progress_is_not_rated_until_it_finishes(app, club):
    with app.app_context():
        ids = import_docs([game("classic", ["Ann", "Eve", "Fay"], [out("Ann", {"Eve": "K", "Fay": "2"})],
                                "2026-01-05T19:00:00Z")])
        assert history.game_ratings(ids[0]) == {} and history.player_rating(store.find_player("Eve").id).games == 0
        for number in range(2, 8):
            store.record_round(ids[0], number, RoundRecord.create("Ann", {"Eve": "2", "Fay": "3"}))
        steps = history.game_ratings(ids[0])
        assert len(steps) == 3 and steps[store.find_player("Ann").id].rank == 1
        assert rating_summaries.rebuild(fix=False) == []
        # Deleting its last round: unfinished again, out of the ratings.
        store.delete_round(ids[0], 7)
        assert history.game_ratings(ids[0]) == {}
        assert rating_summaries.rebuild(fix=False) == []


def test_the_filters_rate_one_rule_set_and_this_year_only(app):
    now = datetime.now(UTC)
    with app.app_context():
        import_docs(random_docs(6, seed=2, start_at=now - timedelta(days=400)))
        recent = import_docs(random_docs(3, seed=3, start_at=datetime(now.year, 1, 1, 1, tzinfo=UTC)))
        every = rating_summaries.standings()
        year = rating_summaries.standings(year=now.year)
        assert {s.game_id for s in year} <= set(recent) and len(year) < len(every)
        classic = rating_summaries.standings("classic")
        assert classic and all(s.rules == "classic" for s in classic)
        board = history.leaderboard(history.RatingFilter(period="year"))
        assert board.games == len(year)
        # Ratings of this year's games only start from nothing.
        for line in [*board.ranked, *board.provisional]:
            assert history.player_rating(line.player_id).games >= line.games
        assert history.leaderboard(history.RatingFilter("classic")).games == len(classic)
        assert rating_summaries.rebuild(fix=False) == []


def test_the_rebuild_command_finds_and_mends_tampered_ratings(app, club, runner):
    with app.app_context():
        db.session.execute(update(RatingSummary).where(RatingSummary.scope == "all").values(mu_after=1.0))
        db.session.commit()
    result = runner.invoke(args=["games", "rebuild", "--check"])
    assert result.exit_code == 1 and "ratings all:" in result.output
    result = runner.invoke(args=["games", "rebuild"])
    assert result.exit_code == 1 and "ratings all:" in result.output
    result = runner.invoke(args=["games", "rebuild"])
    assert result.exit_code == 0, result.output


# =============================================================== the leaderboard, its CSV, the API


@pytest.fixture
def season(app):
    """Twelve finished games of four players (everyone rated, not provisional), and one game of
    a newcomer (provisional)."""
    with app.app_context():
        ids = import_docs(random_docs(12, seed=11, players=["Ann", "Ben", "Cat", "Dev"]))
        ids += import_docs([classic_game(["Ann", "Eve", "Ben"], "Eve", "2026-06-01T19:00:00Z",
                                         "2026-06-01T20:00:00Z")])
    return ids


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


def test_a_players_rating_path_holds_the_figures_of_their_whole_rating_history(app, season):
    with app.app_context():
        ids = list(db.session.scalars(select(Player.id))) + [999]
        # Each row names the player's best and lowest game so far, as their history up to it has them.
        for scope in ("all", "classic", "all/2026"):
            for pid in ids:
                steps = rating_summaries.history_of(pid, scope).steps
                for n, row in enumerate(db.session.scalars(select(RatingSummary).where(
                        RatingSummary.scope == scope, RatingSummary.player_id == pid)
                        .order_by(RatingSummary.games)), start=1):
                    so_far = ratings.PlayerRating(pid, steps[:n])
                    assert (row.best_at, row.lowest_at) == (so_far.number(so_far.best), so_far.number(so_far.worst))
        # Ties at the best and the lowest: Dev's rating goes 21, 22, 20, 21, 22, 20, ..., so the
        # first 22 is the best and the first 20 the lowest (the rows say so, as the writing would).
        dev = store.find_player("Dev").id
        db.session.execute(update(RatingSummary).where(RatingSummary.player_id == dev)
                           .values(mu_after=20 + RatingSummary.games % 3, sigma_after=0.0,
                                   best_at=case((RatingSummary.games >= 2, 2), else_=1),
                                   lowest_at=case((RatingSummary.games >= 3, 3), else_=1)))
        db.session.commit()
        for scope in ("all", "classic", "all/2026"):
            for pid in ids:
                whole = rating_summaries.history_of(pid, scope)
                line = [whole.steps[0].before] + [s.after for s in whole.steps] if whole.steps else []
                for most in (4, 5, 8, 13, charts.RATING_POINTS):
                    path = rating_summaries.path_of(pid, scope, points=most)
                    assert path.games == whole.games and path.provisional == whole.provisional
                    if not whole.steps:
                        assert path.points == () and path.best is None and path.worst is None
                        continue
                    # The same doubles as Python's, so the same ties: equal, not nearly.
                    assert (path.start, path.rating) == (line[0], whole.rating)
                    # Points of the whole line, rising, from its first to its last, no more
                    # than asked for: every one if they fit, else spread along it.
                    xs = [x for x, _ in path.points]
                    assert path.points == tuple((x, line[x]) for x in xs)
                    assert xs == sorted(set(xs)) and (xs[0], xs[-1]) == (0, whole.games)
                    assert len(xs) <= most
                    if len(line) <= most:
                        assert len(xs) == len(line)
                    else:
                        assert max(b - a for a, b in zip(xs, xs[1:])) <= whole.games / (most - 4 + 1) + 1
                    for mine, theirs in ((path.best, whole.best), (path.worst, whole.worst)):
                        assert (mine.number, mine.game_id, mine.after) == (whole.number(theirs), theirs.game_id,
                                                                            theirs.after)
                        assert (mine.number, mine.after) in path.points
        with pytest.raises(ValueError):
            rating_summaries.path_of(dev, points=3)


def test_the_leaderboard_reads_each_players_last_games_as_their_whole_history_has_them(app, season):
    with app.app_context():
        ids = list(db.session.scalars(select(Player.id)))
        for scope in ("all", "classic", "balmoral", "all/2026", "all/1999"):
            latest = rating_summaries.latest_steps(scope)
            wholes = {pid: rating_summaries.history_of(pid, scope) for pid in ids}
            assert set(latest) == {pid for pid, whole in wholes.items() if whole.steps}
            for pid, (games, wins, last) in latest.items():
                whole = wholes[pid]
                assert (games, wins) == (whole.games, whole.wins)
                assert last == whole.steps[-ratings.RECENT:]


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


def test_a_house_ladder_ranks_its_finishers_first_by_its_own_winner_rule(app):
    """A table's own copy of Phase 10 ("lowest-finisher"): Ann and Ben both complete phase 10 in
    the last round; Cat never does and holds the lowest total but Ann's. Ann wins, and Ben, a
    finisher, ranks above Cat: the game's own rules decide, not only a preset's."""
    from scorekeeper.store.figures import rating_summaries
    from scorekeeper import store
    from scorekeeper.rules import PHASE10, GameSetup, RoundRecord, ruleset_document

    document = ruleset_document(PHASE10)
    document["name"] = "Phase 10 at the Pub"
    with app.app_context():
        house = store.save_ruleset(document)
        setup = GameSetup.create(house.rules, ["Ann", "Ben", "Cat"])
        game, _ = store.create_game(setup)
        for number in range(1, 11):
            store.record_round(game.id, number, RoundRecord.create(
                "Ann", {"Ben": "12", "Cat": "1"}, None, ["Ben"], None, deck=house.rules.deck))
        state = store.load(game.id).state
        assert state.finished and state.winners == ("Ann",)
        assert [p.total for p in state.players] == [0, 100, 50]
        (standing,) = rating_summaries.standings()
    names = dict(zip(setup.players, (entry.rank for entry in standing.entries), strict=True))
    assert names == {"Ann": 1, "Ben": 2, "Cat": 3}


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
        import_docs([classic_game(["Ann", "Ben", "Cat"], "Ben", "2026-01-01T19:00:00Z", "2026-01-01T20:00:00Z")])
        board = history.leaderboard()
    assert not board.ranked and len(board.provisional) == 3
    provisional = web.get("/ratings").text.split('id="provisional-h"')[1]
    places = re.findall(r'<span aria-hidden="true">\((\d+)\)</span>', provisional)
    expected = [str(1 + sum(1 for other in board.provisional if other.rating > line.rating)) for line in board.provisional]
    assert places == expected and len(set(places)) > 1, places
