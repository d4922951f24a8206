"""A club night's pages: the keeper opens a night, checks players in, draws and starts the
tables (each game's edit and seat links kept on the keeper's phone), reads the standings and
closes it; anyone else reads it; a fragment for htmx, the page otherwise; the history lists it."""

from __future__ import annotations

import re

from factories import HTMX, a_round, text

from scorekeeper import store

ELEVEN = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim"]


def open_a_night(web, names=ELEVEN, rules="balmoral") -> str:
    answer = web.post("/nights/", data={"held_on": "2026-12-03", "rules": rules})
    assert answer.status_code == 303
    url = answer.headers["Location"]
    web.post(f"{url}/players", data={"name": names[:3], "new": ", ".join(names[3:])})
    return url


def test_the_keeper_opens_a_night_checks_players_in_and_reads_it(web):
    url = open_a_night(web)
    page = text(web.get(url))
    assert "Club night of Thu 03 Dec 2026" in page and "Balmoral" in page
    assert all(name in page for name in ELEVEN) and "Draw the tables" in page
    assert "No game yet tonight." in page


def test_the_tables_are_drawn_started_with_one_tap_and_the_standings_follow(web, app):
    url = open_a_night(web)
    assert web.post(f"{url}/draw", data={"how": "random"}).status_code == 303
    page = text(web.get(url))
    assert page.count("Start table") == 3 and "Draw the tables again" in page
    answer = web.post(f"{url}/tables/1/start")
    assert answer.status_code == 303
    page = web.get(url)
    game_id = int(re.search(r'href="/games/(\d+)"', page.get_data(as_text=True)).group(1))
    with app.app_context():
        assert store.night_games(int(url.rsplit("/", 1)[1]))[0].game_id == game_id
    # Started, no round yet: no places to give before a hand is played.
    assert "Round 1, table 1" in text(page) and "No game yet tonight" in text(page)
    assert page.get_data(as_text=True).count("Start table") == 2
    with app.app_context():
        names = list(store.load(game_id).state.setup.players)
        store.record_round(game_id, 1, a_round(names[0], {n: "K" for n in names[1:]}, achieved=[names[0]]))
    assert "(still playing)" in text(web.get(url))
    # The keeper's phone keeps the new game's edit key and its seat links, as a new game's.
    with app.app_context():
        first = store.load(game_id).state.setup.players[0]
    assert f"{first}'s seat link" in text(web.get(f"/games/{game_id}/share"))


def test_one_player_cannot_be_drawn_the_page_says_why(web):
    url = open_a_night(web, ["Ann"])
    answer = web.post(f"{url}/draw", data={"how": "rating"})
    assert answer.status_code == 422
    assert "Tables of 2 to 8 players cannot seat everyone present (1)" in text(answer)


def test_a_bad_name_is_refused_naming_it_and_nothing_is_checked_in(web, app):
    url = open_a_night(web, ["Ann"])
    answer = web.post(f"{url}/players", data={"new": "Ben, " + "x" * 60})
    assert answer.status_code == 422 and "name" in text(answer)
    with app.app_context():
        assert [c.name for c in store.checked_in(int(url.rsplit("/", 1)[1]))] == ["Ann"]


def test_an_early_leaver_goes_home_and_a_closed_night_says_so_twice(web, app):
    url = open_a_night(web)
    with app.app_context():
        kim = store.find_player("Kim").id
    assert web.post(f"{url}/players/{kim}/leave").status_code == 303
    assert "gone home" in text(web.get(url))
    assert web.post(f"{url}/close").status_code == 303
    page = text(web.get(url))
    assert "closed" in page and "Draw the tables" not in page and "Check in" not in page
    again = web.post(f"{url}/close")
    assert again.status_code == 409 and "is closed: it takes no more changes" in text(again)


def test_anyone_reads_a_night_only_the_keeper_runs_it(web, stranger, app):
    url = open_a_night(web)
    page = text(stranger.get(url))
    assert "Ann" in page and "Draw the tables" not in page
    # The stranger's browser sends no CSRF check here: the refusal is the keeper's, not the form's.
    drawn = stranger.post(f"{url}/draw", data={"how": "random"})
    assert drawn.status_code == 403 and "Only the club" in text(drawn)
    stranger_open = stranger.post("/nights/", data={"held_on": "2026-12-03", "rules": "balmoral"})
    assert stranger_open.status_code == 403
    with app.app_context():
        night = store.list_nights()
        assert len(night) == 1 and store.drawn_tables(night[0])[1] == []


def test_closing_a_night_asks_first_and_no_keeps_it_open(web, stranger, app):
    url = open_a_night(web, names=ELEVEN[:3])
    assert f'href="{url}/close"' in web.get(url).get_data(as_text=True)
    asked = text(web.get(f"{url}/close"))
    assert "Close the night of Thu 03 Dec 2026?" in asked and "Yes, close the night" in asked
    assert "No, keep it open" in asked
    assert stranger.get(f"{url}/close").status_code == 403
    with app.app_context():
        assert store.list_nights()[0].closed_at is None  # asking closed nothing
    assert web.post(f"{url}/close").status_code == 303
    assert web.get(f"{url}/close").headers["Location"].endswith(url)


def test_more_names_than_a_check_in_takes_are_refused_and_nobody_checked_in(web, app):
    url = open_a_night(web, names=[])
    answer = web.post(f"{url}/players", data={"new": ", ".join(f"Player {n}" for n in range(61))})
    assert answer.status_code == 422 and "Check in at most 60 players at once" in text(answer)
    with app.app_context():
        assert store.checked_in(store.list_nights()[0].id) == []


def test_a_second_tap_on_start_says_the_table_is_playing(web, app):
    url = open_a_night(web, names=ELEVEN[:6])
    web.post(f"{url}/draw", data={"how": "random"})
    assert web.post(f"{url}/tables/1/start").status_code == 303
    again = web.post(f"{url}/tables/1/start")
    assert again.status_code == 409 and "Table 1 is already playing: game" in text(again)
    with app.app_context():
        assert len(store.night_games(store.list_nights()[0].id)) == 1


def test_a_house_rule_set_an_open_night_plays_is_kept_until_the_night_closes(web, app):
    with app.app_context():
        house = store.save_ruleset({**store.get_ruleset("classic").document, "name": "Thursday rules"})
    url = open_a_night(web, names=ELEVEN[:6], rules=house.key)
    refused = web.post(f"/rules/{house.key}/delete", follow_redirects=True)
    assert "A club night that is still open plays “Thursday rules”: close the night first" in text(refused)
    web.post(f"{url}/close")
    assert web.post(f"/rules/{house.key}/delete").status_code == 303


def test_htmx_gets_the_fragment_and_a_full_request_the_page(web):
    url = open_a_night(web)
    fragment = web.get(url, headers=HTMX).get_data(as_text=True)
    full = web.get(url).get_data(as_text=True)
    assert "<html" not in fragment and "<html" in full and "Players here" in fragment


def test_a_bad_date_or_rules_open_no_night(web, app):
    bad = web.post("/nights/", data={"held_on": "Thursday", "rules": "balmoral"})
    assert bad.status_code == 422 and "2026-12-03" in text(bad)
    assert web.post("/nights/", data={"held_on": "2026-12-03", "rules": "nope"}).status_code == 422
    with app.app_context():
        assert store.list_nights() == []


def test_the_history_lists_the_nights(web):
    url = open_a_night(web)
    page = web.get("/history").get_data(as_text=True)
    assert f'href="{url}"' in page and "Club nights" in page


def test_the_api_reads_a_night_and_the_list_of_nights(web, client):
    url = open_a_night(web)
    web.post(f"{url}/draw", data={"how": "random"})
    web.post(f"{url}/tables/1/start")
    night_id = int(url.rsplit("/", 1)[1])
    listed = client.get("/api/nights").get_json()
    assert listed == {"nights": [{"id": night_id, "date": "2026-12-03", "rules": "balmoral", "closed": False,
                                  "url": url}]}
    night = client.get(f"/api/nights/{night_id}").get_json()
    assert [p["name"] for p in night["players"]] == ELEVEN
    assert [(t["round"], t["table"]) for t in night["drawn"]] == [(1, 2), (1, 3)]
    assert [(g["round"], g["table"], g["finished"]) for g in night["games"]] == [(1, 1, False)]
    assert night["standings"] == []  # its table has played no round yet
    missing = client.get("/api/nights/999")
    assert missing.status_code == 404 and "no night 999" in missing.get_json()["error"]["message"]


def test_a_phone_given_the_nights_link_runs_the_night_and_a_wrong_key_is_refused(web, app):
    url = open_a_night(web)
    page = web.get(url)
    link = re.search(r'value="(http[^"]+#key=([^"]+))"', page.get_data(as_text=True))
    assert link and "/join#key=" in link[1] and "no-store" in page.headers["Cache-Control"]
    app.config["WTF_CSRF_ENABLED"] = False
    second_phone = app.test_client()
    refused = second_phone.post(f"{url}/draw", data={"how": "random"})
    assert refused.status_code == 403 and "a phone the keeper gave the night’s link" in text(refused)
    wrong = second_phone.post(f"{url}/join", data={"key": link[2] + "x"})
    assert wrong.status_code == 403 and "not this night’s key" in text(wrong)
    assert second_phone.post(f"{url}/join", data={"key": link[2]}).status_code == 303
    assert second_phone.post(f"{url}/draw", data={"how": "random"}).status_code == 303
    assert "Start table 1" in text(second_phone.get(url))
    assert second_phone.post("/nights/", data={"held_on": "2026-12-03", "rules": "balmoral"}).status_code == 403


TWENTY = [f"Player {n}" for n in range(1, 21)]


def test_a_night_of_five_tables_started_from_one_phone_shows_every_tables_seat_links(web, app):
    """The phone keeps each table's seat links without a cookie that grows with the tables: they
    are made from the night's key, which it keeps once for the night."""
    url = open_a_night(web, TWENTY)
    web.post(f"{url}/draw", data={"how": "random"})
    for table in range(1, 6):
        assert web.post(f"{url}/tables/{table}/start").status_code == 303
    with app.app_context():
        games = [t.game_id for t in store.night_games(int(url.rsplit("/", 1)[1]))]
        seated = {g: list(store.load(g).state.setup.players) for g in games}
    assert len(games) == 5
    for game_id in games:
        page = web.get(f"/games/{game_id}/share").get_data(as_text=True)
        keys = re.findall(rf"/games/{game_id}/seat#key=([\w-]+)", page)
        assert len(set(keys)) == len(seated[game_id]) == 4, game_id
        with app.app_context():
            assert [store.seat_of(game_id, key).name for key in dict.fromkeys(keys)] == seated[game_id]
    with web.session_transaction() as session:
        assert not session.get("seat_links")  # nothing per table in the cookie
    # New links made for one table revoke its old ones: the phone shows the new ones.
    web.post(f"/games/{games[0]}/seat-links")
    page = web.get(f"/games/{games[0]}/share").get_data(as_text=True)
    with app.app_context():
        assert all(store.seat_of(games[0], key) for key in re.findall(rf"/games/{games[0]}/seat#key=([\w-]+)", page))


def test_a_phone_without_the_nights_key_sees_no_tables_seat_links(web, app):
    url = open_a_night(web, ELEVEN[:4])
    web.post(f"{url}/draw", data={"how": "random"})
    web.post(f"{url}/tables/1/start")
    with app.app_context():
        game_id = store.night_games(store.list_nights()[0].id)[0].game_id
        assert store.table_seat_keys(game_id, None) is None and store.table_seat_keys(game_id, "x" * 43) is None
    with web.session_transaction() as session:
        session.pop("night_keys")
    assert "seat#key=" not in web.get(f"/games/{game_id}/share").get_data(as_text=True)


def test_a_players_page_and_the_ratings_api_count_nights_played_and_won(web, app):
    url = open_a_night(web, ELEVEN[:3])
    web.post(f"{url}/draw", data={"how": "random"})
    web.post(f"{url}/tables/1/start")
    with app.app_context():
        game_id = store.night_games(store.list_nights()[0].id)[0].game_id
        names = list(store.load(game_id).state.setup.players)
        while not store.load(game_id).state.finished:
            number = len(store.load(game_id).state.rounds) + 1
            store.record_round(game_id, number, a_round(names[0], {n: "K" for n in names[1:]}, achieved=names))
        winner, other = store.find_player(names[0]).id, store.find_player(names[1]).id
    page = text(web.get(f"/players/{winner}"))
    assert "Club nights 1" in page and "Nights won 0" in page  # open: nobody has won it yet
    web.post(f"{url}/close")
    assert "Nights won 1" in text(web.get(f"/players/{winner}"))
    assert "Club nights 1" in text(web.get(f"/players/{other}")) and "Nights won 0" in text(web.get(f"/players/{other}"))
    lines = {p["player_id"]: p for p in web.get("/api/ratings").json["provisional"]}
    assert (lines[winner]["nights_played"], lines[winner]["nights_won"]) == (1, 1)
    assert (lines[other]["nights_played"], lines[other]["nights_won"]) == (1, 0)


def test_the_nights_standings_show_each_players_rating_change_on_the_page_and_in_the_api(web, app):
    url = open_a_night(web, ELEVEN[:3])
    night_id = int(url.rsplit("/", 1)[1])
    web.post(f"{url}/draw", data={"how": "random"})
    web.post(f"{url}/tables/1/start")
    assert "Rating 0.0" not in text(web.get(url))  # no game finished yet: nothing rated
    assert all(s["rating"] is None for s in web.get(f"/api/nights/{night_id}").json["standings"])
    with app.app_context():
        game_id = store.night_games(night_id)[0].game_id
        names = list(store.load(game_id).state.setup.players)
        while not store.load(game_id).state.finished:
            number = len(store.load(game_id).state.rounds) + 1
            store.record_round(game_id, number, a_round(names[0], {n: "K" for n in names[1:]}, achieved=names))
    standings = web.get(f"/api/nights/{night_id}").json["standings"]
    winner = standings[0]
    assert winner["name"] == names[0] and winner["rating"]["games"] == 1
    assert winner["rating"]["change"] > 0 > standings[-1]["rating"]["change"]
    assert abs(winner["rating"]["after"] - winner["rating"]["before"] - winner["rating"]["change"]) <= 0.11
    rating = winner["rating"]
    assert f"Rating {rating['before']:.1f} → {rating['after']:.1f} (+{rating['change']:.1f})" in text(web.get(url))


def test_the_draw_form_offers_the_winners_together_from_the_second_round_on(web, app):
    url = open_a_night(web, ELEVEN[:6])
    assert "winners at one table" not in text(web.get(url))  # a first round has no winners yet
    web.post(f"{url}/draw", data={"how": "random"})
    for table in (1, 2):
        web.post(f"{url}/tables/{table}/start")
    with app.app_context():
        night_id = store.list_nights()[0].id
        winners = set()
        for t in store.night_games(night_id):
            names = list(store.load(t.game_id).state.setup.players)
            while not store.load(t.game_id).state.finished:
                number = len(store.load(t.game_id).state.rounds) + 1
                store.record_round(t.game_id, number, a_round(names[0], {n: "K" for n in names[1:]}, achieved=names))
            winners.add(names[0])
    assert "The last round’s winners at one table" in text(web.get(url))
    assert web.post(f"{url}/draw", data={"how": "random", "winners": "together"}).status_code == 303
    with app.app_context():
        round_number, tables = store.drawn_tables(store.list_nights()[0])
    assert round_number == 2 and winners <= set(tables[0].names)
