"""House rules on a phone: the club's keeper makes a house rule set from the
Liverpool preset (aces 20, an eighth deal of 14 cards, a bonus) without the page reloading
between the editor's buttons, saves it, and reads it back."""

import re

from playwright.sync_api import Page, expect

from scorekeeper import store
from scorekeeper.store.models import db
from scorekeeper.rules import LIVERPOOL, ruleset_document


def too_small(page: Page, selector: str) -> list[str]:
    """The visible controls under ``selector`` smaller than a fingertip (44 by 44 CSS pixels)."""
    return page.eval_on_selector_all(selector, """els => els.filter(e => e.offsetParent !== null)
        .map(e => [e, e.getBoundingClientRect()])
        .filter(([e, r]) => r.height < 44 || r.width < 44)
        .map(([e, r]) => `${e.outerHTML.slice(0, 80)}: ${Math.round(r.width)}x${Math.round(r.height)}`)""")


def test_the_keeper_makes_a_house_rule_set_from_liverpool(page: Page, server, club_link, live_app, artifacts):
    page.goto(club_link)
    expect(page.locator(".flash")).to_contain_text("club\u2019s keeper")

    # The menu holds one more link and still fits the phone on one line, each link tap-sized
    # (the language page's link the sixth).
    menu = page.locator("header nav a")
    expect(menu).to_have_count(6)
    boxes = [menu.nth(i).bounding_box() for i in range(6)]
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["height"] >= 44, box
    assert len({box["y"] for box in boxes}) == 1, boxes  # one line
    assert page.locator(".nav-rules .nav-long").bounding_box()["width"] <= 1  # "Rules" on a phone
    page.screenshot(path=str(artifacts / "house-rules-menu.png"), clip={"x": 0, "y": 0, "width": 390, "height": 160})
    for width in (360, 400, 414, 430, 500, 800):  # and on other phones: no link off the screen
        page.set_viewport_size({"width": width, "height": 844})
        for i in range(6):
            box = menu.nth(i).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width and box["height"] >= 44, (width, i, box)
    page.set_viewport_size({"width": 390, "height": 844})

    page.get_by_role("link", name="House rules").tap()
    expect(page.locator("h1")).to_have_text("House rules")
    page.get_by_role("link", name=re.compile("^Liverpool Rummy")).tap()
    expect(page.locator("h1")).to_have_text("Liverpool Rummy")
    page.get_by_role("link", name="Copy and change").tap()
    expect(page.locator("#rules-editor h1")).to_contain_text("Copy and change Liverpool Rummy")
    # (a radio button or a box is tapped by its whole label)
    assert too_small(page, "#rules-editor button, #rules-editor a, #rules-editor label.choice, "
                           "#rules-editor input:not([type=hidden]):not([type=radio]):not([type=checkbox])") == []

    page.evaluate("window.sameDocument = true")  # gone if the page reloads
    page.locator("#name").fill("Family Liverpool")
    page.locator("#values-0-value").fill("20")
    page.get_by_role("button", name="Add a deal").tap()
    expect(page.locator("#stages-7-contract")).to_be_visible()
    page.locator("#stages-7-contract").fill("3 runs of 4 and 1 set of 2")
    page.locator("#stages-7-cards").fill("14")
    page.get_by_role("button", name="Add a bonus").tap()
    expect(page.locator("#bonuses-1-label")).to_be_visible()
    page.locator("#bonuses-1-label").fill("Went out in one go")
    page.locator("#bonuses-1-points").fill("-20")
    page.locator("#bonuses-1-key").fill("in-one-go")
    # What was typed before each button survived it, in the same page.
    expect(page.locator("#values-0-value")).to_have_value("20")
    expect(page.locator("#stages-7-cards")).to_have_value("14")
    assert page.evaluate("window.sameDocument") is True
    page.locator("#stages").screenshot(path=str(artifacts / "house-rules-stages.png"))
    page.locator("#values").screenshot(path=str(artifacts / "house-rules-values.png"))

    page.get_by_role("button", name="Save", exact=True).tap()
    expect(page.locator("h1")).to_have_text("Family Liverpool")
    expect(page.locator(".flash")).to_contain_text("Saved \u201cFamily Liverpool\u201d")
    expect(page.locator(".flash")).to_be_in_viewport()  # shown from the top, not where Save was
    expect(page.locator(".stages-read li").nth(7)).to_contain_text("Deal 8 3 runs of 4 and 1 set of 2 14 cards")
    expect(page.locator(".value-pad div").first).to_have_text(re.compile(r"A\s*20"))
    expect(page.locator("main")).to_contain_text("Went out in one go: \u221220")
    page.screenshot(path=str(artifacts / "house-rules-saved.png"), full_page=False)

    expected = ruleset_document(LIVERPOOL)
    expected["name"] = "Family Liverpool"
    expected["values"]["A"] = 20
    expected["stages"].append({"contract": "3 runs of 4 and 1 set of 2", "cards": 14})
    expected["bonuses"].append({"key": "in-one-go", "label": "Went out in one go", "points": -20})
    with live_app.app_context():
        [house] = [entry for entry in store.list_rulesets() if not entry.preset]
        assert house.document == expected
        db.session.remove()
    assert page.url.endswith(f"/rules/{house.key}")


def test_a_game_with_rules_of_its_own_offers_to_save_them_once(page: Page, server, club_link, live_app):
    """A game started from house rules that were changed since keeps rules no rule set has: its
    page offers to save them; once saved, the same page (the same version of the game) no longer does."""
    from scorekeeper.rules import GameSetup

    with live_app.app_context():
        doc = {**ruleset_document(LIVERPOOL), "name": "Family Liverpool", "hand_limit": "dealt"}
        house = store.save_ruleset(doc)
        game, key = store.create_game(GameSetup.create(house.rules, ["Ann", "Ben", "Cat"]))
        game_id = game.id
        store.save_ruleset({**doc, "values": {**doc["values"], "A": 20}}, house.house_id)
        db.session.remove()
    page.goto(club_link)
    expect(page.locator(".flash")).to_contain_text("club\u2019s keeper")
    page.goto(f"{server}/games/{game_id}")
    offer = page.get_by_role("button", name="Save these rules as a house rule set")
    expect(offer).to_be_visible()
    assert offer.bounding_box()["height"] >= 44
    offer.tap()
    expect(page.locator("h1")).to_have_text("Family Liverpool (house)")
    expect(page.locator(".flash")).to_contain_text("Saved this game\u2019s rules")
    with live_app.app_context():
        saved = store.get_ruleset(page.url.rsplit("/", 1)[1])
        assert saved.document == {**doc, "name": "Family Liverpool (house)"}
        db.session.remove()

    page.goto(f"{server}/games/{game_id}")
    expect(page.locator("#save-rules-offer")).to_contain_text("Played by the rules of Family Liverpool (house)")
    expect(page.get_by_role("button", name="Save these rules as a house rule set")).to_have_count(0)


def test_the_values_follow_the_deck_and_the_jokers_as_they_are_chosen(page: Page, server, club_link):
    page.goto(club_link)
    expect(page.locator(".flash")).to_contain_text("club\u2019s keeper")
    page.goto(f"{server}/rules/liverpool/copy")
    page.evaluate("window.sameDocument = true")
    expect(page.locator("#values label")).to_have_count(14)
    page.get_by_text("Play with jokers").tap()
    expect(page.locator("#values label")).to_have_count(13)
    expect(page.locator("#values")).not_to_contain_text("Joker")
    page.get_by_text("Phase 10 (1 2 3 4 5 6 7 8 9 10 11 12 Skip Wild)").tap()
    expect(page.locator("#values label").last).to_have_text("Wild")
    expect(page.locator("#values-13-value")).to_have_value("25")
    assert page.evaluate("window.sameDocument") is True


def test_the_back_links_at_the_top_of_the_rules_pages_are_a_fingertip_tall(page: Page, server, live_app):
    """The rule set's "House rules" and the game's rules' "Back to game N": 44px to tap, not 16."""
    from scorekeeper.rules import BALMORAL, GameSetup

    with live_app.app_context():
        game, key = store.create_game(GameSetup.create(BALMORAL, ["Ann", "Ben"]))
        game_id = game.id
        db.session.remove()
    for path, name in [("/rules/balmoral", "House rules"), (f"/rules/games/{game_id}", f"Back to game {game_id}")]:
        page.goto(f"{server}{path}")
        back = page.locator("#main").get_by_role("link", name=name, exact=True)
        expect(back).to_be_visible()
        assert back.bounding_box()["height"] >= 44, path
        assert too_small(page, "a.back") == [], path
