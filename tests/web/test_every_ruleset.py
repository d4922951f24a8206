"""The new-game page offers every rule set (the presets and the
house rule sets), and the board, the story, the history, the statistics follow the game's rules."""

from __future__ import annotations

import re

import pytest
from factories import HTMX, board, game_form, games_stored, input_tag, is_checked, new_game, standings, text, went_to

from scorekeeper import store
from scorekeeper.store.models import Game, db
from scorekeeper.rules import LIVERPOOL, PHASE10, SHANGHAI, GameSetup, RoundRecord, ruleset_document

FIVE = ["Ann", "Ben", "Cat", "Dan", "Eve"]
SEVEN = FIVE + ["Fay", "Gus"]


def family_shanghai() -> dict:
    doc = ruleset_document(SHANGHAI)
    doc["name"] = "Family Shanghai"
    doc["stages"] = doc["stages"][:3]
    return doc


def save_house(app, doc) -> str:
    with app.app_context():
        return store.save_ruleset(doc).key


def stored_game(app, game_id: int) -> Game:
    with app.app_context():
        game = db.session.get(Game, game_id)
        db.session.expunge(game)
        return game


# =============================================================== the new-game page


def test_the_new_game_page_offers_every_preset_then_the_house_rule_sets(web, app):
    save_house(app, family_shanghai())
    page = web.get("/games/new")
    seen = text(page)
    names = ["Balmoral Rummy", "Contract Rummy (classic)", "Liverpool Rummy", "Shanghai Rummy", "Phase 10",
             "Family Shanghai"]
    assert [seen.index(n) for n in names] == sorted(seen.index(n) for n in names)
    # (the menu's "House rules" link comes before the page's own words; the seats come first)
    after_menu = seen.index("Players, clockwise from the first seat")
    assert after_menu < seen.index("Built in") < seen.index("Balmoral Rummy") \
        < seen.index("House rules", after_menu) < seen.index("Family Shanghai")
    assert PHASE10.summary in seen and "Three deals, everyone on the same contract" in seen
    assert is_checked(page, "rules", "balmoral")


@pytest.mark.parametrize("key, names, line", [
    ("liverpool", ["Ann", "Ben", "Cat"], "Deal 1: 2 sets of 3"),
    ("shanghai", ["Ann", "Ben", "Cat", "Dan"], "Deal 1: 2 sets of 3"),
    ("phase10", ["Ann", "Ben"], "Phase 1: 2 sets of 3"),
])
def test_starting_each_preset_from_the_page(web, app, key, names, line):
    game_id = new_game(web, names, rules=key)
    seen = text(board(web, game_id))
    assert line in seen
    assert stored_game(app, game_id).rules == key


def test_starting_phase10_with_htmx_leads_to_its_board(web, app):
    response = web.post("/games/new", data=game_form(["Ann", "Ben", "Cat"], rules="phase10", start="1"), headers=HTMX)
    where = went_to(response)
    assert where and re.fullmatch(r"/games/\d+", where)
    seen = text(web.get(where))
    assert "Phase 1: 2 sets of 3" in seen and "10 cards each" in seen and "1 deck" in seen


def test_a_house_rule_set_game_keeps_its_own_copy_of_the_rules(web, app):
    key = save_house(app, family_shanghai())
    for headers in ({}, HTMX):
        response = web.post("/games/new", data=game_form(["Ann", "Ben", "Cat"], rules=key, start="1"), headers=headers)
        game_id = int(went_to(response).rsplit("/", 1)[1])
        game = stored_game(app, game_id)
        assert game.rules == key and '"Family Shanghai"' in game.rules_document
        assert "Deal 1: 2 sets of 3" in text(board(web, game_id))
    assert games_stored(app) == 2


def test_choosing_rules_without_javascript_shows_what_follows_from_them(web):
    # "Use these rules" posts the form: the page comes back for the rules chosen, seats kept.
    page = web.post("/games/new", data=game_form(FIVE, rules="phase10", use_rules="1"))
    assert page.status_code == 200
    seen = text(page)
    assert is_checked(page, "rules", "phase10")
    assert "Phase 10 is for 2 to 6 players" in seen
    assert 'name="jokers"' not in page.get_data(as_text=True)  # Phase 10 plays without jokers
    assert 'name="dealer_rule"' not in page.get_data(as_text=True)  # the deal always rotates
    assert 'placeholder="1"' in input_tag(page, "decks")
    assert 'value="Ann"' in input_tag(page, "seat-0")
    assert "Use these rules" in seen


def test_choosing_rules_with_htmx_brings_the_parts_that_follow_them(web):
    page = web.post("/games/new", data=game_form(FIVE, rules="shanghai", shown_rules="balmoral", decks="3"),
                    headers=HTMX)
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert "<html" not in body
    assert 'id="rule-range"' in body and 'id="rule-cards"' in body
    assert "Shanghai Rummy is for 3 to 8 players" in text(page)
    # Jokers appear with the rules' suggestion for five; the decks typed for Balmoral are cleared.
    assert 'placeholder="6"' in input_tag(page, "jokers") and 'placeholder="3"' in input_tag(page, "decks")
    assert 'value=""' in input_tag(page, "decks")
    # Balmoral lets the table choose who deals next.
    back = web.post("/games/new", data=game_form(FIVE, rules="balmoral", shown_rules="shanghai"), headers=HTMX)
    assert 'name="dealer_rule"' in back.get_data(as_text=True) and 'name="jokers"' not in back.get_data(as_text=True)


def test_too_many_players_for_the_rules_are_refused_naming_the_players(web, app):
    page = web.post("/games/new", data=game_form(SEVEN, rules="phase10", use_rules="1"))
    assert "Phase 10 takes 2 to 6 players; you have 7." in text(page)
    refused = web.post("/games/new", data=game_form(SEVEN, rules="phase10", start="1"))
    assert refused.status_code == 422
    assert "Phase 10 is for 2 to 6 players, not 7" in text(refused)
    assert 'id="players-err"' in refused.get_data(as_text=True)
    assert games_stored(app) == 0


def test_an_unknown_rule_set_is_refused_naming_the_field(web, app):
    refused = web.post("/games/new", data=game_form(["Ann", "Ben"], rules="house-99", start="1"))
    assert refused.status_code == 422
    assert "Choose the rules to play by" in text(refused)
    assert games_stored(app) == 0


def test_like_this_game_keeps_the_rules_it_was_played_by_after_the_house_set_changed(web, app):
    key = save_house(app, family_shanghai())
    game_id = new_game(web, ["Ann", "Ben", "Cat"], rules=key)
    # Unchanged: the house rule set itself is chosen.
    assert is_checked(web.get(f"/games/new?like={game_id}"), "rules", key)
    with app.app_context():
        changed = {**family_shanghai(), "stages": family_shanghai()["stages"][:2]}
        store.save_ruleset(changed, int(key.split("-")[1]))
    page = web.get(f"/games/new?like={game_id}")
    assert is_checked(page, "rules", f"game-{game_id}")
    assert f"As game {game_id}" in text(page) and "Three deals" in text(page)
    again = new_game(web, ["Ann", "Ben", "Cat"], rules=f"game-{game_id}", like=str(game_id))
    new = stored_game(app, again)
    assert new.rules == key and new.rules_document == stored_game(app, game_id).rules_document
    # Deleted: the old game's rules are still offered.
    with app.app_context():
        store.delete_ruleset(int(key.split("-")[1]))
    page = web.get(f"/games/new?like={game_id}")
    assert is_checked(page, "rules", f"game-{game_id}") and "Family Shanghai" in text(page)


def test_play_again_keeps_the_frozen_rules_of_a_deleted_house_set(web, app):
    key = save_house(app, {**family_shanghai(), "stages": family_shanghai()["stages"][:1]})
    game_id = new_game(web, ["Ann", "Ben", "Cat"], rules=key)
    with app.app_context():
        store.record_round(game_id, 1, record(SHANGHAI, "Ann", {"Ben": "5", "Cat": "K"}))
        store.delete_ruleset(int(key.split("-")[1]))
    token = re.search(r'name="csrf_token" value="([^"]+)"', board(web, game_id).get_data(as_text=True)).group(1)
    again = web.post(f"/games/{game_id}/again", data={"csrf_token": token})
    assert again.status_code == 303
    new_id = int(again.headers["Location"].rsplit("/", 1)[1])
    assert stored_game(app, new_id).rules_document == stored_game(app, game_id).rules_document
    assert "Family Shanghai" in text(board(web, new_id))


# =============================================================== the board


def record(rules, went_out, hands=None, points=None, achieved=(), bonuses=None) -> RoundRecord:
    return RoundRecord.create(went_out, hands, points, achieved, bonuses, deck=rules.deck)


def test_the_board_says_the_phase_and_contract_of_each_player(web, app):
    game_id = new_game(web, ["Ann", "Ben", "Cat"], rules="phase10")
    with app.app_context():
        for number in (1, 2, 3):
            store.record_round(game_id, number, record(PHASE10, "Ann", {"Ben": "12", "Cat": "skip"}))
    page = board(web, game_id)
    rows = standings(page)
    assert "Phase 4: 1 run of 7" in rows["Ann"].line and "Phase 1: 2 sets of 3" in rows["Ben"].line
    seen = text(page)
    assert "10 cards each" in seen and "Rules: Phase 10" in seen
    assert "Ann (to phase 4) moves up" in seen


def test_the_board_says_the_deal_contract_and_cards_of_liverpool(web, app):
    game_id = new_game(web, ["Ann", "Ben", "Cat"], rules="liverpool")
    with app.app_context():
        for number in range(1, 5):
            store.record_round(game_id, number, record(LIVERPOOL, "Ann", {"Ben": "5", "Cat": "JK"}))
    seen = text(board(web, game_id))
    assert "Deal 5: 2 sets of 3 and 1 run of 4" in seen and "12 cards each" in seen
    assert "Rules: Liverpool Rummy" in seen and "never wraps" in seen and "Perfect cut \u221250" in seen


def test_negative_totals_on_a_shanghai_board_and_story(web, app):
    with app.app_context():
        game, _ = store.create_game(GameSetup.create(SHANGHAI, ["Ann", "Ben", "Cat"]))
        game_id = game.id
        store.record_round(game_id, 1, record(SHANGHAI, "Ann", {"Ben": "5", "Cat": "K"},
                                              bonuses={"Ann": ["blind-no-joker"]}))
        store.record_round(game_id, 2, record(SHANGHAI, "Ben", {"Ann": "", "Cat": "5"},
                                              bonuses={"Ben": ["blind"]}))
    page = board(web, game_id)
    assert {n: s.total for n, s in standings(page).items()} == {"Ann": -50, "Ben": -20, "Cat": 15}
    assert standings(page)["Ann"].line.startswith("1")
    story = web.get(f"/games/{game_id}/story")
    assert story.status_code == 200
    body = story.get_data(as_text=True)
    # The bonuses in words, as the round screen and the board write them.
    assert '<span class="tag">Went out blind, no joker \u221250</span>' in body
    assert '<span class="tag">Went out blind \u221225</span>' in body
    chart = re.search(r'<svg[^>]*id="totals-chart".*?</svg>', body, re.S).group(0)
    ticks = [int(t) for t in re.findall(r'<text class="tick"[^>]*>(-?\d+)</text>', chart)]
    assert min(ticks) <= -50 and max(ticks) >= 15 and 0 in ticks
    # Every point lies inside the chart (none drawn below its bottom edge).
    ys = [float(y) for y in re.findall(r'\bcy="([\d.-]+)"', chart)] + [
        float(p.split(",")[1]) for p in re.findall(r"[\d.]+,[\d.-]+", chart)]
    assert ys and all(0 <= y <= 230 for y in ys)


def finished_phase10(app) -> int:
    """Ann makes all ten phases and wins on 40; Cat, stuck on phase 6, ends lower on 5."""
    with app.app_context():
        game, _ = store.create_game(GameSetup.create(PHASE10, ["Ann", "Ben", "Cat"]))
        for number in range(1, 11):
            if number <= 5:
                rec = record(PHASE10, "Cat", {"Ann": "1 skip" if number == 1 else "1", "Ben": "wild 12"},
                             achieved=["Ann"])
            else:
                rec = record(PHASE10, "Ann", {"Ben": "W 12"}, points={"Cat": 5 if number == 10 else 0})
            store.record_round(game.id, number, rec)
        return game.id


def test_the_phase10_winner_is_the_lowest_who_made_phase_10_not_the_lowest_total(web, app):
    game_id = finished_phase10(app)
    page = board(web, game_id)
    seen = text(page)
    assert "Ann wins with 40." in seen
    rows = standings(page)
    assert rows["Ann"].line.startswith("1") and "winner" in rows["Ann"].line
    assert "winner" not in rows["Cat"].line and rows["Cat"].line.startswith("2")
    assert "completed 10 of 10 phases" in rows["Ann"].line
    body = page.get_data(as_text=True)
    leader = re.findall(r'<tr class="leader">.*?</tr>', body, re.S)
    assert len(leader) == 1 and "Ann" in leader[0]
    story = web.get(f"/games/{game_id}/story")
    seen = text(story)
    assert "Ann wins with 40." in seen and "Phases" in seen and "Phase played in each round" in seen
    assert "Won by Ann" in story.get_data(as_text=True)


def test_while_phase10_is_played_the_furthest_phase_leads_whatever_the_points(web, app):
    """In Phase 10 a player on phase 10 is ahead of one on phase 9, whatever the points: the
    board's places, the round's line and the history's card agree (a tester found the board
    putting the lower total first and the round's line saying "Bob still leads" as Ann won)."""
    with app.app_context():
        game, _ = store.create_game(GameSetup.create(PHASE10, ["Ann", "Bob"]))
        game_id = game.id
        for number in range(1, 10):  # Ann goes out, then makes every phase with a heavy hand left
            # while Bob goes out: Ann stays a phase ahead, far behind on points
            store.record_round(game_id, number, record(PHASE10, "Bob", {"Ann": "W W 12 12"}, achieved=["Ann"])
                               if number > 1 else record(PHASE10, "Ann", {"Bob": "1"}))
    page = board(web, game_id)
    rows = standings(page)
    assert rows["Ann"].total > rows["Bob"].total
    assert rows["Ann"].line.startswith("1") and rows["Bob"].line.startswith("2")
    body = page.get_data(as_text=True)
    leader = re.findall(r'<tr class="leader">.*?</tr>', body, re.S)
    assert len(leader) == 1 and "Ann" in leader[0]
    assert "Ann still leads" in text(page)
    assert f"Ann leads with {rows['Ann'].total}" in text(web.get("/history"))


# =============================================================== history, ratings, statistics


def test_the_history_filter_offers_the_rule_sets_played_by_name(web, app):
    key = save_house(app, family_shanghai())
    house_game = new_game(web, ["Ann", "Ben", "Cat"], rules=key)
    phase10_game = new_game(web, ["Ann", "Ben"], rules="phase10")
    page = web.get("/history")
    body = page.get_data(as_text=True)
    options = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', body.split('name="rules"')[1].split("</select>")[0])
    assert options == [("", "All rule sets"), ("phase10", "Phase 10"), (key, "Family Shanghai")]
    filtered = web.get(f"/history?rules={key}")
    assert filtered.status_code == 200
    seen = text(filtered)
    assert "1 game, Family Shanghai, newest first" in seen
    assert f"/games/{house_game}/story" in filtered.get_data(as_text=True)
    assert f"/games/{phase10_game}/story" not in filtered.get_data(as_text=True)
    # A house rule set renamed since: the filter shows its newest game's name; deleted, still offered.
    with app.app_context():
        store.delete_ruleset(int(key.split("-")[1]))
    assert "Family Shanghai" in text(web.get(f"/history?rules={key}"))
    # A preset no game was played by is no error; an unknown key is, with the choices.
    assert web.get("/history?rules=liverpool").status_code == 200
    unknown = web.get("/history?rules=house-999")
    assert unknown.status_code == 404
    assert '"house-999" is not a rule set any game was played by' in text(unknown)
    assert f'"{key}" (Family Shanghai)' in text(unknown)


def test_the_ratings_filter_takes_any_rule_set_played(web, app):
    game_id = finished_phase10(app)
    page = web.get("/ratings?rules=phase10")
    assert page.status_code == 200
    assert "1 finished game, Phase 10" in text(page)
    api = web.get("/api/ratings?rules=phase10")
    assert api.status_code == 200 and api.get_json()["rules"] == "phase10"
    assert [p["name"] for p in api.get_json()["provisional"]][0] == "Ann"
    refused = web.get("/api/ratings?rules=nope")
    assert refused.status_code == 404 and refused.get_json()["error"]["field"] == "rules"
    assert "phase10" in refused.get_json()["error"]["message"]
    assert game_id


def test_the_openapi_filters_take_any_rule_set_key(web):
    doc = web.get("/api/openapi.json").get_json()
    params = doc["paths"]["/api/ratings"]["get"]["parameters"]
    rules = next(p for p in params if p["name"] == "rules")
    assert "enum" not in rules["schema"] and "house-ID" in rules["description"]
    assert "enum" not in doc["components"]["schemas"]["Ratings"]["properties"]["rules"]


def test_a_phase10_players_page_shows_where_they_get_stuck(web, app):
    finished_phase10(app)
    with app.app_context():
        cat = store.find_player("Cat").id
        store.create_game(GameSetup.create(store.get_ruleset("balmoral").rules, ["Cat", "Dan"]))
    page = web.get(f"/players/{cat}")
    assert page.status_code == 200
    seen = text(page)
    assert "The Phase 10 ladder" in seen and "The Balmoral Rummy ladder" in seen
    assert "Phase Made Rounds on average" in seen
    # Cat made phases 1 to 5 a round each, then sat on phase 6 for the last five rounds.
    assert "1 run of 9" in seen
    assert seen.index("The Balmoral Rummy ladder") < seen.index("The Phase 10 ladder")  # presets in order
    section = seen[seen.index("The Phase 10 ladder"):seen.index("Head to head")]
    assert "every phase's contract at the first try" in section
    assert re.search(r"6 1 run of 9 0 – – 1", section)


def test_csv_of_phase10_and_of_negative_shanghai_totals(web, app):
    game_id = finished_phase10(app)
    csv_text = web.get(f"/games/{game_id}.csv").get_data(as_text=True)
    assert csv_text.count("\r\n") == 1 + 10 * 3
    assert '"Ann","S 1","no",' in csv_text
    with app.app_context():
        game, _ = store.create_game(GameSetup.create(SHANGHAI, ["Ann", "Ben", "Cat"]))
        shanghai_id = game.id
        store.record_round(shanghai_id, 1, record(SHANGHAI, "Ann", {"Ben": "5", "Cat": "K"},
                                                  bonuses={"Ann": ["blind-no-joker"]}))
    rows = web.get(f"/games/{shanghai_id}.csv").get_data(as_text=True).splitlines()
    assert rows[1].startswith('1,"Ann","Ann","","no",-50,-50,1,"yes"')
