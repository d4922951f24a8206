"""A club night's big screen: read by anyone by its own link, every table's totals and levels,
the standings, a banner when a game ends; its poll answered 204 (a reload 304) while nothing
changed, the screen again once a round is saved."""

from __future__ import annotations

import re

from factories import HTMX, a_round, counted, text

from scorekeeper import store
from scorekeeper.web import languages

ELEVEN = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim"]


def open_a_night(web, names=ELEVEN, rules="balmoral") -> str:
    answer = web.post("/nights/", data={"held_on": "2026-12-03", "rules": rules})
    url = answer.headers["Location"]
    web.post(f"{url}/players", data={"name": names[:3], "new": ", ".join(names[3:])})
    return url


def night_with_tables(web, app, names=ELEVEN) -> tuple[str, list[int]]:
    """A night of ``names`` (Balmoral), its tables drawn and all started: its address and its games."""
    url = open_a_night(web, names)
    web.post(f"{url}/draw", data={"how": "random"})
    night_id = int(url.rsplit("/", 1)[1])
    with app.app_context():
        tables = store.drawn_tables(store.get_night(night_id))[1]
    for t in tables:
        assert web.post(f"{url}/tables/{t.table}/start").status_code == 303
    with app.app_context():
        return url, [t.game_id for t in store.night_games(night_id)]


def players_of(app, game_id: int) -> list[str]:
    with app.app_context():
        return list(store.load(game_id).state.setup.players)


def play(app, game_id: int, number: int, went_out: str, hands: dict[str, str]) -> None:
    with app.app_context():
        store.record_round(game_id, number, a_round(went_out, hands, achieved=[went_out]))


def test_anyone_reads_the_screen_every_table_with_totals_and_levels_and_the_standings(web, stranger, app):
    url, games = night_with_tables(web, app)
    first = players_of(app, games[0])
    play(app, games[0], 1, first[0], {name: "K" for name in first[1:]})
    answer = stranger.get(f"{url}/screen")
    assert answer.status_code == 200 and "no-cache" in answer.headers["Cache-Control"]
    page = text(answer)
    assert "Club night of Thu 03 Dec 2026" in page and "Balmoral" in page
    # Three tables side by side, of 4, 4 and 3, each player with their level.
    html = answer.get_data(as_text=True)
    assert [int(n) for n in re.findall(r'<article class="screen-table[^"]*" data-table="(\d+)"', html)] == [1, 2, 3]
    assert html.count('class="num total"') == 11
    assert "Level 2: 1 set of 3 and 1 run of 4" in page and "Level 1: 3 sets of 3" in page
    # The standings, the first table's players marked as still playing.
    assert "Standings" in page and "(still playing)" in page and "1.00" in page
    # Read-only: no menu, no form, no button.
    assert "<nav" not in html and "<form" not in html and "<button" not in html
    # The night's page links to it, for everyone.
    assert f'href="{url}/screen"' in stranger.get(url).get_data(as_text=True)


def test_the_poll_is_204_and_a_reload_304_while_nothing_changed_and_the_screen_after_a_round(web, stranger, app):
    url, games = night_with_tables(web, app, ELEVEN[:7])
    page = stranger.get(f"{url}/screen")
    tag = re.search(r'/screen/live\?v=([^"&]+)"', page.get_data(as_text=True)).group(1)
    poll = stranger.get(f"{url}/screen/live?v={tag}", headers=HTMX)
    assert poll.status_code == 204 and poll.get_data() == b""
    fragment = stranger.get(f"{url}/screen/live", headers=HTMX)
    assert fragment.status_code == 200 and "<html" not in fragment.get_data(as_text=True)
    assert 'id="screen"' in fragment.get_data(as_text=True)
    assert stranger.get(f"{url}/screen/live", headers={**HTMX, "If-None-Match": fragment.headers["ETag"]}).status_code == 304
    assert stranger.get(f"{url}/screen", headers={"If-None-Match": page.headers["ETag"]}).status_code == 304
    # The page's and the fragment's ETags differ: a reload never gets the bare fragment.
    assert page.headers["ETag"] != fragment.headers["ETag"]

    names = players_of(app, games[1])
    play(app, games[1], 1, names[0], {name: "Q 5" for name in names[1:]})
    assert stranger.get(f"{url}/screen/live?v={tag}", headers=HTMX).status_code == 200
    again = stranger.get(f"{url}/screen/live", headers={**HTMX, "If-None-Match": fragment.headers["ETag"]})
    assert again.status_code == 200 and ">15<" in again.get_data(as_text=True)
    assert stranger.get(f"{url}/screen", headers={"If-None-Match": page.headers["ETag"]}).status_code == 200


def test_a_banner_when_a_tables_game_ends(web, app):
    with app.app_context():
        doc = store.get_ruleset("balmoral").document
        house = store.save_ruleset({**doc, "name": "Two levels", "stages": doc["stages"][:2]})
    answer = web.post("/nights/", data={"held_on": "2026-12-03", "rules": house.key})
    url = answer.headers["Location"]
    web.post(f"{url}/players", data={"new": "Ann, Ben, Cat"})
    web.post(f"{url}/draw", data={"how": "random"})
    web.post(f"{url}/tables/1/start")
    with app.app_context():
        game_id = store.night_games(int(url.rsplit("/", 1)[1]))[0].game_id
    names = players_of(app, game_id)
    assert "game over" not in text(web.get(f"{url}/screen"))
    play(app, game_id, 1, names[0], {names[1]: "K", names[2]: "5"})
    play(app, game_id, 2, names[0], {names[1]: "K", names[2]: "5"})
    page = text(web.get(f"{url}/screen"))
    assert f"Table 1: game over. {names[0]} wins with 0." in page and "completed 2 of 2 levels" in page
    assert "winner" in page and "(still playing)" not in page


def test_a_night_with_no_table_yet_and_a_closed_night(web, app):
    url = open_a_night(web)
    page = text(web.get(f"{url}/screen"))
    assert "No table is playing yet." in page and "No game yet tonight." in page
    # Drawn and not started: the screen says who sits where.
    web.post(f"{url}/draw", data={"how": "random"})
    page = text(web.get(f"{url}/screen"))
    assert page.count("Waiting to start") == 3 and all(name in page for name in ELEVEN)
    assert "data-wake" in web.get(f"{url}/screen").get_data(as_text=True)  # the TV stays on while it goes on
    web.post(f"{url}/close")
    closed = web.get(f"{url}/screen")
    assert "The night is closed." in text(closed) and "Waiting to start" not in text(closed)
    assert "data-wake" not in closed.get_data(as_text=True)


def test_no_such_night_has_no_screen(stranger):
    assert stranger.get("/nights/999/screen").status_code == 404
    assert stranger.get("/nights/999/screen/live?v=x", headers=HTMX).status_code == 404


def test_an_unchanged_poll_or_reload_costs_one_query(web, stranger, app):
    url, _games = night_with_tables(web, app)
    page = stranger.get(f"{url}/screen")
    tag = re.search(r'/screen/live\?v=([^"&]+)"', page.get_data(as_text=True)).group(1)
    with counted() as statements:
        poll = stranger.get(f"{url}/screen/live?v={tag}", headers=HTMX)
        reload = stranger.get(f"{url}/screen", headers={"If-None-Match": page.headers["ETag"]})
    assert (poll.status_code, reload.status_code) == (204, 304)
    # The night's versions alone, once for each: no game loaded, no standings worked out (the
    # test's own savepoints around each request left out).
    sent = [s for s in statements if "SAVEPOINT" not in s]
    assert len(sent) == 2 and all(s.startswith("SELECT night.closed_at") for s in sent), sent


def tag_of(answer) -> str:
    return re.search(r'/screen/live\?v=([^"&]+)"', answer.get_data(as_text=True)).group(1)


def test_renaming_a_player_drawn_and_not_yet_seated_shows_on_the_screen(web, stranger, app):
    url = open_a_night(web)
    web.post(f"{url}/draw", data={"how": "random"})
    page = stranger.get(f"{url}/screen")
    with app.app_context():
        store.rename_player(store.find_player("Ann").id, "Annabel")
    poll = stranger.get(f"{url}/screen/live?v={tag_of(page)}", headers=HTMX)
    assert poll.status_code == 200 and "Annabel" in text(poll)
    reload = stranger.get(f"{url}/screen", headers={"If-None-Match": page.headers["ETag"]})
    assert reload.status_code == 200 and "Annabel" in text(reload)


def test_renaming_the_nights_house_rule_set_shows_on_the_screen(web, stranger, app):
    with app.app_context():
        house = store.save_ruleset({**store.get_ruleset("balmoral").document, "name": "Two levels"})
    answer = web.post("/nights/", data={"held_on": "2026-12-03", "rules": house.key})
    url = answer.headers["Location"]
    page = stranger.get(f"{url}/screen")
    assert "Two levels" in text(page)
    with app.app_context():
        store.rename_ruleset(int(house.key.split("-")[1]), "Thursday rules")
    poll = stranger.get(f"{url}/screen/live?v={tag_of(page)}", headers=HTMX)
    assert poll.status_code == 200 and "Thursday rules" in text(poll)
    reload = stranger.get(f"{url}/screen", headers={"If-None-Match": page.headers["ETag"]})
    assert reload.status_code == 200 and "Thursday rules" in text(reload)


def test_a_tables_round_is_titled_as_the_readers_language_orders_its_words(web, app, monkeypatch):
    # Every shipped language puts the word first ("Runde 2", "Kierros 2"); the title is the
    # catalogue's whole sentence all the same, so a language that writes it otherwise can.
    said = languages.round_message
    monkeypatch.setattr(languages, "round_message", lambda rules, message: "%(number)s/%(round)s"
                        if message == "%(round)s %(number)s" else said(rules, message))
    url, _games = night_with_tables(web, app, ELEVEN[:4])
    assert "1/Round" in text(web.get(f"{url}/screen"))


def test_the_names_at_a_table_waiting_to_start_are_listed_in_the_readers_language(web):
    url = open_a_night(web, ELEVEN[:4])
    web.post(f"{url}/draw", data={"how": "random"})
    html = web.get(f"{url}/screen").get_data(as_text=True)
    names = re.search(r'<p class="screen-names">([^<]*)</p>', html).group(1)
    assert re.fullmatch(r"\w+, \w+, \w+ and \w+", names), names
    french = web.get(f"{url}/screen", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert re.search(r'<p class="screen-names">\w+, \w+, \w+ et \w+</p>', french)
