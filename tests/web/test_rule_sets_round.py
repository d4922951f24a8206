"""The round screen and the round paths follow the game's rule set: the
keypad shows the deck's ranks and what each costs, hands are read with the game's deck (a
Phase 10 game's 1 to 12, skips and wilds), and each bonus of the rule set is a per-player
toggle carried into the round, its total, the stored round, a correction and the API."""

import html
import json
import re

from conftest import join
from factories import HTMX, accepted, follow, input_tag, is_checked, post_round, text, went_to

from scorekeeper import store
from scorekeeper.store.models import HandEntry, Round, db


def api_game(client, rules, players=("Ann", "Ben", "Cat")) -> tuple[int, str]:
    doc = {"format": "scorekeeper-game/2", "rules": rules, "players": list(players), "first_dealer": players[0],
           "rounds": []}
    answer = client.post("/api/games", json=doc)
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    return body["id"], body["edit_key"]


def game_for(web, rules, players=("Ann", "Ben", "Cat")) -> int:
    """A game of ``rules`` (a preset's key) this browser may change (its edit link opened)."""
    game_id, key = api_game(web, rules, players)
    assert join(web, game_id, key).status_code in (200, 302, 303)
    return game_id


def stored_hands(app, game_id) -> list[tuple[str | None, int | None, str]]:
    with app.app_context():
        rows = db.session.execute(
            db.select(HandEntry.cards, HandEntry.points, HandEntry.bonuses).join(Round)
            .where(Round.game_id == game_id).order_by(Round.number, HandEntry.id)).all()
        return [tuple(r) for r in rows]


def totals_of(app, game_id) -> list[int]:
    with app.app_context():
        return [p.total for p in store.load(game_id).state.players]


def penalty(response, seat: int) -> str:
    """A row's score for the round as the round screen shows it."""
    return re.search(rf'<output class="penalty" id="pen-{seat}"[^>]*>([^<]*)</output>', response.text).group(1)


def keys(response) -> list[str]:
    """The keypad's card keys as shown: "A 15", "7", "Skip 15"."""
    return [" ".join(re.sub(r"<[^>]+>", " ", m).split())
            for m in re.findall(r'<button type="submit" name="key"[^>]*>(.*?)</button>', response.text)]


# --------------------------------------------------------------- the keypad


def test_a_phase10_keypad_has_1_to_12_skip_and_wild_with_their_values(web):
    game_id = game_for(web, "phase10")
    page = web.get(f"/games/{game_id}/rounds/new")
    assert page.status_code == 200
    assert keys(page) == (["1 5", "2 5", "3 5", "4 5", "5", "6 5", "7 5", "8 5", "9 5"]  # 5 is worth its face
                          + ["10", "11 10", "12 10", "Skip 15", "Wild 25"])
    assert "Joker" not in page.text
    assert "bonus-0" not in page.text  # Phase 10 has no bonuses


def test_a_liverpool_keypad_has_the_joker_and_shows_values_not_worth_the_face(web):
    game_id = game_for(web, "liverpool")
    page = web.get(f"/games/{game_id}/rounds/new")
    assert keys(page) == ["A 15", "K 10", "Q 10", "J 10", "10", "9", "8", "7", "6", "5", "4", "3", "2", "Joker 15"]
    values = json.loads(re.search(r"data-values='([^']*)'", page.text).group(1))
    assert values["bonuses"] == {"perfect-cut": -50}


def test_a_game_without_jokers_has_no_joker_key(web):
    game_id = game_for(web, "balmoral", ("Ann", "Ben", "Cat"))
    assert "Joker" not in " ".join(keys(web.get(f"/games/{game_id}/rounds/new")))


def test_the_phone_is_given_the_phase10_spellings(web):
    game_id = game_for(web, "phase10")
    page = web.get(f"/games/{game_id}/rounds/new")
    values = json.loads(re.search(r"data-values='([^']*)'", page.text).group(1))
    assert values["aliases"]["skip"] == "S" and values["aliases"]["12"] == "12"
    assert values["labels"]["W"] == "Wild" and values["stages"][0]["values"]["1"] == 5
    assert "k" not in values["aliases"]


# --------------------------------------------------------------- Phase 10 rounds


def test_a_phase10_round_through_the_form(web, app):
    game_id = game_for(web, "phase10")
    board = accepted(web, game_id, post_round(web, game_id, 1, headers=HTMX, went_out=0,
                                              hands={1: "12 skip W", 2: "1 2 s"}, achieved=(0, 2)))
    assert board.status_code == 200
    assert totals_of(app, game_id) == [0, 50, 25]
    assert [h[0] for h in stored_hands(app, game_id)] == ["", "W S 12", "S 2 1"]


def test_a_phase10_round_through_the_no_js_keypad(web, app):
    game_id = game_for(web, "phase10")
    url = f"/games/{game_id}/rounds/new"
    form = {"number": "1", "went_out": "0", "seat": "1"}
    for key in ("S", "W", "12"):
        page = web.post(url, data={**form, "key": key, "hand-1": form.get("hand-1", "")})
        assert page.status_code == 200
        form["hand-1"] = re.search(r'name="hand-1" value="([^"]*)"', page.text).group(1)
    assert form["hand-1"] == "S W 12"
    assert [c for c in re.findall(r'<span class="chip">([^<]*)</span>', page.text)] == ["Skip", "Wild", "12"]
    assert penalty(page, 1) == "50"
    # A key of the standard deck is no card here: nothing is added.
    page = web.post(url, data={**form, "key": "K"})
    assert re.search(r'name="hand-1" value="([^"]*)"', page.text).group(1) == "S W 12"
    saved = web.post(url, data={**form, "hand-2": "5", "save": "1"})
    assert saved.status_code == 303, text(saved)
    assert totals_of(app, game_id) == [0, 50, 5]


def refused(response, *words):
    assert response.status_code == 422, text(response)
    said = text(response)
    for word in words:
        assert word in said, (word, said)


def test_phase10_hands_holding_what_the_deck_lacks_are_refused(web, app):
    game_id = game_for(web, "phase10")
    refused(post_round(web, game_id, 1, went_out=0, hands={1: "JK 5", 2: "1"}),
            'Ben: "JK" is not a card of the Phase 10 deck')
    refused(post_round(web, game_id, 1, went_out=0, hands={1: "13", 2: "1"}),
            'Ben: "13" is not a card of the Phase 10 deck')
    refused(post_round(web, game_id, 1, went_out=0, hands={1: "5 5 5 5 5", 2: "5 5 5 5"}),
            "only 8 of 5")
    assert stored_hands(app, game_id) == []


# --------------------------------------------------------------- bonuses


def test_each_bonus_is_a_toggle_for_each_player(web):
    game_id = game_for(web, "liverpool")
    page = web.get(f"/games/{game_id}/rounds/new")
    for seat, name in enumerate(("Ann", "Ben", "Cat")):
        tag = input_tag(page, f"bonus-{seat}")
        assert 'value="perfect-cut"' in tag and f'aria-label="Perfect cut \u221250 for {name}"' in tag
    assert "Perfect cut \u221250" in text(page)


def test_a_liverpool_round_with_a_perfect_cut_through_htmx(web, app):
    game_id = game_for(web, "liverpool")
    board = accepted(web, game_id, post_round(web, game_id, 1, headers=HTMX, went_out=0,
                                              hands={1: "A 7", 2: "K"}, **{"bonus-1": "perfect-cut"}))
    assert board.status_code == 200
    assert totals_of(app, game_id) == [0, 22 - 50, 10]
    assert [h[2] for h in stored_hands(app, game_id)] == ["", "perfect-cut", ""]


def test_a_liverpool_round_with_a_perfect_cut_without_htmx(web, app):
    game_id = game_for(web, "liverpool")
    saved = post_round(web, game_id, 1, went_out=0, hands={1: "A 7", 2: "K"}, **{"bonus-0": "perfect-cut"})
    assert saved.status_code == 303 and went_to(saved) == f"/games/{game_id}"
    assert totals_of(app, game_id) == [-50, 22, 10]


def test_the_score_preview_includes_the_bonus(web):
    game_id = game_for(web, "liverpool")
    page = web.post(f"/games/{game_id}/rounds/new",
                    data={"number": "1", "went_out": "0", "hand-1": "A 7", "bonus-1": "perfect-cut", "seat": "1",
                          "key": "2"})
    assert page.status_code == 200
    assert penalty(page, 1) == "-26"  # A 7 2 = 24, less 50
    assert is_checked(page, "bonus-1", "perfect-cut")


def test_an_unknown_bonus_is_refused_naming_the_player_and_the_bonus(web, app):
    game_id = game_for(web, "liverpool")
    refused(post_round(web, game_id, 1, went_out=0, hands={1: "A", 2: "K"}, **{"bonus-2": "lucky-dip"}),
            'Cat: "lucky-dip" is not a bonus of Liverpool Rummy')
    assert stored_hands(app, game_id) == []


def test_correcting_a_round_keeps_its_bonus(web, app):
    game_id = game_for(web, "liverpool")
    accepted(web, game_id, post_round(web, game_id, 1, headers=HTMX, went_out=0, hands={1: "A", 2: "K"},
                                      **{"bonus-2": "perfect-cut"}))
    page = web.get(f"/games/{game_id}/rounds/1/edit")
    assert is_checked(page, "bonus-2", "perfect-cut") and not is_checked(page, "bonus-1", "perfect-cut")
    assert penalty(page, 2) == "-40"
    # Saving the form as it stands (a card changed) keeps the bonus.
    saved = web.post(f"/games/{game_id}/rounds/1/edit", headers=HTMX,
                     data={"number": "1", "went_out": "0", "hand-1": "A 2", "hand-2": "K", "bonus-2": "perfect-cut",
                           "save": "1"})
    accepted(web, game_id, saved)
    assert totals_of(app, game_id) == [0, 17, -40]


def test_the_delete_page_lists_the_bonus(web):
    game_id = game_for(web, "liverpool")
    accepted(web, game_id, post_round(web, game_id, 1, headers=HTMX, went_out=0, hands={1: "A", 2: "K"},
                                      **{"bonus-0": "perfect-cut"}))
    page = web.get(f"/games/{game_id}/rounds/1/delete")
    assert "Ann: Perfect cut \u221250" in text(page)


def test_a_round_sent_twice_differently_compares_the_bonuses(web):
    game_id = game_for(web, "liverpool")
    accepted(web, game_id, post_round(web, game_id, 1, headers=HTMX, went_out=0, hands={1: "A", 2: "K"}))
    again = post_round(web, game_id, 1, went_out=0, hands={1: "A", 2: "K"}, **{"bonus-1": "perfect-cut"})
    assert again.status_code == 409
    said = text(again)
    assert "Ben A A, Perfect cut \u221250" in said
    assert input_tag(again, "bonus-1").count('value="perfect-cut"') == 1


# --------------------------------------------------------------- the API and undo


def test_the_api_records_phase10_hands_and_bonuses(client, app):
    game_id, key = api_game(client, "phase10")
    auth = {"Authorization": f"Bearer {key}"}
    answer = client.post(f"/api/games/{game_id}/rounds", headers=auth,
                         json={"number": 1, "went_out": "Ann", "hands": {"Ben": "12 S", "Cat": "W 1"},
                               "achieved": ["Ann"]})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["penalties"] == {"Ann": 0, "Ben": 25, "Cat": 30}

    game_id, key = api_game(client, "liverpool")
    auth = {"Authorization": f"Bearer {key}"}
    answer = client.post(f"/api/games/{game_id}/rounds", headers=auth,
                         json={"number": 1, "went_out": "Ann", "hands": {"Ben": "A", "Cat": "K"},
                               "bonuses": {"Ann": ["perfect-cut"]}})
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["penalties"] == {"Ann": -50, "Ben": 15, "Cat": 10}
    assert answer.get_json()["round"]["bonuses"] == {"Ann": ["perfect-cut"]}


def test_the_api_refuses_an_unknown_bonus_and_a_card_the_deck_lacks(client, app):
    game_id, key = api_game(client, "liverpool")
    auth = {"Authorization": f"Bearer {key}"}
    answer = client.post(f"/api/games/{game_id}/rounds", headers=auth,
                         json={"number": 1, "went_out": "Ann", "hands": {"Ben": "A", "Cat": "K"},
                               "bonuses": {"Ben": ["lucky-dip"]}})
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert error["player"] == "Ben" and "lucky-dip" in error["message"] and error["field"] == "bonuses"
    game_id, key = api_game(client, "phase10")
    answer = client.post(f"/api/games/{game_id}/rounds", headers={"Authorization": f"Bearer {key}"},
                         json={"number": 1, "went_out": "Ann", "hands": {"Ben": "JK", "Cat": "1"}})
    assert answer.status_code == 422
    error = answer.get_json()["error"]
    assert 'Ben: "JK" is not a card of the Phase 10 deck' in error["message"]
    assert stored_hands(app, game_id) == []


def test_undo_then_restore_puts_back_a_phase10_round_with_its_cards(web, app):
    game_id = game_for(web, "phase10")
    accepted(web, game_id, post_round(web, game_id, 1, headers=HTMX, went_out=0, hands={1: "S W", 2: "12"}))
    undone = follow(web, web.post(f"/games/{game_id}/rounds/undo", data={"version": "2"}))
    assert undone.status_code == 200
    payload = re.search(r'name="round" value=\'([^\']*)\'', undone.text)
    assert payload, text(undone)

    restored = web.post(f"/games/{game_id}/rounds/restore",
                        data={"number": "1", "round": html.unescape(payload.group(1))})
    assert restored.status_code in (200, 303), text(restored)
    assert totals_of(app, game_id) == [0, 40, 10]


def test_the_typed_cards_hint_is_in_the_games_deck(web):
    game_id = game_for(web, "phase10")
    assert "Cards left for Ben (type: 12 S W 1)" in text(web.get(f"/games/{game_id}/rounds/new"))


def test_undo_then_restore_keeps_the_bonus(web, app):
    game_id = game_for(web, "liverpool")
    accepted(web, game_id, post_round(web, game_id, 1, headers=HTMX, went_out=0, hands={1: "A", 2: "K"},
                                      **{"bonus-1": "perfect-cut"}))
    undone = follow(web, web.post(f"/games/{game_id}/rounds/undo", data={"version": "2"}))
    payload = re.search(r'name="round" value=\'([^\']*)\'', undone.text)

    web.post(f"/games/{game_id}/rounds/restore", data={"number": "1", "round": html.unescape(payload.group(1))})
    assert totals_of(app, game_id) == [0, 15 - 50, 10]
    assert [h[2] for h in stored_hands(app, game_id)] == ["", "perfect-cut", ""]


def test_the_api_corrects_a_phase10_round(client):
    game_id, key = api_game(client, "phase10")
    auth = {"Authorization": f"Bearer {key}"}
    first = {"number": 1, "went_out": "Ann", "hands": {"Ben": "12", "Cat": "W"}}
    assert client.post(f"/api/games/{game_id}/rounds", headers=auth, json=first).status_code == 201
    answer = client.put(f"/api/games/{game_id}/rounds/1", headers=auth,
                        json={"went_out": "Ann", "hands": {"Ben": "S 12", "Cat": "W"}})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["penalties"] == {"Ann": 0, "Ben": 25, "Cat": 25}


def test_phase10_says_made_the_phase_where_a_ladder_marks_a_made_contract(web, app):
    game_id = game_for(web, "phase10")
    board = accepted(web, game_id, post_round(web, game_id, 1, headers=HTMX, went_out=0,
                                              hands={1: "12 skip W", 2: "1 2 s"}, achieved=(0, 2)))
    said = text(board)
    assert "✓ made the phase" in said and "made contract" not in said
    story = text(web.get(f"/games/{game_id}/story"))
    assert "✓ made the phase" in story and "made the contract" not in story


def test_the_rounds_legend_explains_the_bonus_marker_and_each_cell_names_the_bonus(web, app):
    game_id = game_for(web, "liverpool")
    board = accepted(web, game_id, post_round(web, game_id, 1, headers=HTMX, went_out=0,
                                              hands={1: "K", 2: "2"}, **{"bonus-0": "perfect-cut"}))
    said = text(board)
    assert "★ went out · ◆ earned a bonus (Perfect cut −50, counted in the points)" in said
    row = re.search(r'<table class="round-table">.*?<tbody>(.*?)</tbody>', board.get_data(as_text=True), re.S).group(1)
    assert "◆" in row and "Perfect cut −50" in row
