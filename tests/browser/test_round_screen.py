"""The round screen on a phone: one screen for the whole round, one docked keypad, every
error at once, undo with restore, the first dealer chosen as the seats are typed, and a
watcher who can change nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

from playwright.sync_api import Page, expect

from scorekeeper import store
from scorekeeper.rules import GameSetup, RoundRecord, get_rules

from .test_table import (
    mark_made,
    mark_out,
    pick,
    record,
    row,
    start_game,
    tap_cards,
    totals,
    type_cards,
    type_points,
)

SIX = ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay"]
EIGHT = SIX + ["Gus", "Hal"]


def dock_box(page: Page) -> dict:
    return page.locator(".dock").bounding_box()


def document_height(page: Page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def seeded(live_app, rules: str, names: list[str], rounds: list[RoundRecord]) -> tuple[int, str]:
    """A game with rounds already recorded (through the store, as an import would), and its
    edit key."""
    with live_app.app_context():
        game, key = store.create_game(GameSetup.create(get_rules(rules), names))
        game_id = game.id
        for number, record in enumerate(rounds, start=1):
            store.record_round(game_id, number, record)
    return game_id, key


def keep_score(page: Page, server: str, game_id: int, key: str) -> None:
    """This phone becomes the game's scorekeeper (by its edit link)."""
    page.goto(f"{server}/games/{game_id}/join#key={key}")
    expect(page.locator("p.flash")).to_contain_text("can now keep score")


def test_a_six_player_round_on_one_screen_with_every_error_at_once(page: Page, server, artifacts):
    start_game(page, server, "balmoral", SIX)
    page.get_by_role("link", name="Record round 1").tap()
    expect(page.get_by_role("heading", name="Record round 1")).to_be_visible()
    assert document_height(page) <= 844
    dock = dock_box(page)
    assert dock["y"] + dock["height"] <= 844 + 1
    # Everything is entered wrongly at once, nobody marked as went out.
    type_cards(page, "Ben", "2 3 4 5 6 7 8 9 10 J Q A 2 3")
    pick(page, "Cat")
    for _ in range(13):
        page.get_by_role("button", name="Add K to Cat", exact=True).tap()
    type_points(page, "Dev", 999)
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".round-form > .errors")).to_contain_text("Tap the player who went out.")
    expect(page.locator("#err-1")).to_contain_text("Ben: 14 cards left, but a hand holds at most 13")
    expect(page.locator("#err-2")).to_contain_text("Cat: that makes 13 × K in this round, but 3 decks hold only 12")
    expect(page.locator("#err-3")).to_contain_text("Dev: 999 points is impossible")
    # The keypad has not moved nor changed shape, and the page still does not scroll.
    page.screenshot(path=str(artifacts / "round-screen-6-errors.png"))
    assert dock_box(page) == dock
    assert document_height(page) <= 844
    # Fix everything; nothing typed was lost on the way.
    expect(page.locator("#hand-1")).to_have_value("2 3 4 5 6 7 8 9 10 J Q A 2 3")
    mark_out(page, "Ann")
    type_cards(page, "Ben", "2 3")
    pick(page, "Cat")
    page.get_by_role("button", name="Take the last card off Cat's hand").tap()
    type_points(page, "Dev", 12)
    for name in ("Eve", "Fay"):
        pick(page, name)
        page.get_by_role("button", name=f"{name} has no cards left").tap()
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".flash")).to_contain_text("Round 1 saved.")
    assert totals(page) == {"Ann": 0, "Ben": 5, "Cat": 120, "Dev": 12, "Eve": 0, "Fay": 0}


def test_going_out_moves_the_keypad_to_the_next_player_who_needs_a_hand(page: Page, server):
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat", "Dev"])
    page.get_by_role("link", name="Record round 1").tap()
    expect(page.locator("[data-who]")).to_have_text("Ann")
    mark_out(page, "Cat")
    expect(page.locator("[data-who]")).to_have_text("Dev")
    expect(row(page, "Dev")).to_have_class(re.compile("is-selected"))
    page.get_by_role("button", name="Add 7 to Dev", exact=True).tap()
    page.get_by_role("button", name="Dev has no cards left").tap()
    # "No cards" replaces the cards: a row holds cards or a total, never both.
    expect(row(page, "Dev").locator(".cards")).to_have_text("no cards")
    expect(page.locator("#hand-3")).to_have_value("")
    # ... and moves on round the table, past the player who went out.
    expect(page.locator("[data-who]")).to_have_text("Ann")
    page.get_by_role("button", name="Add K to Ann", exact=True).tap()
    page.get_by_role("button", name="Add K to Ann", exact=True).tap()
    page.get_by_role("button", name="Clear Ann's hand").tap()
    expect(page.locator("#pen-0")).to_have_text("0")
    page.get_by_role("button", name="Add 9 to Ann", exact=True).tap()
    pick(page, "Ben")
    page.get_by_role("button", name="Add 2 to Ben", exact=True).tap()
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("p.flash")).to_contain_text("Round 1 saved.")
    assert totals(page) == {"Ann": 9, "Ben": 2, "Cat": 0, "Dev": 0}


def test_keys_typed_one_by_one_into_two_hands_all_arrive(page: Page, server):
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat"])
    page.get_by_role("link", name="Record round 1").tap()
    mark_out(page, "Ann")
    for name, keys in (("Ben", "a k 7"), ("Cat", "10 q")):
        pick(page, name)
        page.get_by_role("button", name=f"Type {name}'s cards or points").tap()
        field = page.get_by_label(f"Cards left for {name}")
        expect(field).to_be_focused()
        field.press_sequentially(keys, delay=30)
        expect(field).to_have_value(keys)
    expect(page.locator("#pen-1")).to_have_text("32")
    expect(page.locator("#pen-2")).to_have_text("20")
    # What a hand holds shows on its row as chips, a joker as "Joker".
    expect(row(page, "Ben").locator(".cards .chip")).to_have_text(["A", "K", "7"])
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator("p.flash")).to_contain_text("Round 1 saved.")
    assert totals(page) == {"Ann": 0, "Ben": 32, "Cat": 20}


def test_saving_the_last_contract_says_it_ends_the_game(page: Page, server, live_app):
    climb = [RoundRecord.create("Ben", {"Ann": "2", "Cat": "3"})] * 6
    game_id, key = seeded(live_app, "balmoral", ["Ann", "Ben", "Cat"], climb)
    keep_score(page, server, game_id, key)
    page.get_by_role("link", name="Record round 7").tap()
    ending = page.locator(".ending")
    expect(ending).to_be_hidden()
    mark_out(page, "Ann")
    expect(ending).to_be_hidden()
    mark_made(page, "Ben")
    expect(ending).to_have_text("Saving ends the game: Ben completes level 7.")
    mark_made(page, "Ben", False)
    expect(ending).to_be_hidden()


def test_undo_is_one_tap_and_restore_puts_the_round_back(page: Page, server):
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat"])
    record(page, "Ann", {"Ben": "A K", "Cat": "7 7"}, made=["Cat"])
    record(page, "Ben", {"Ann": "Q", "Cat": "3"})
    before = totals(page)
    page.get_by_role("button", name="Undo round 2").tap()
    expect(page.get_by_role("status").filter(has_text="Round 2 removed.")).to_be_visible()
    expect(page.locator("h1")).to_have_text("Round 2")
    assert totals(page) == {"Ann": 0, "Ben": 25, "Cat": 14}
    page.get_by_role("button", name="Restore").tap()
    expect(page.locator("#main p.flash")).to_contain_text("Round 2 restored.")
    assert totals(page) == before
    # Exactly as it was: the hands as entered.
    page.get_by_role("link", name="Correct round 2").tap()
    expect(page.locator("#hand-0")).to_have_value("Q")
    expect(page.locator("#hand-2")).to_have_value("3")
    # On the correction screen, deleting is away from Save: at the top, not in the keypad.
    delete = page.get_by_role("link", name=re.compile("Delete round 2"))
    assert page.locator(".dock").get_by_role("link", name=re.compile("Delete")).count() == 0
    assert delete.bounding_box()["y"] < page.locator(".players").bounding_box()["y"]
    # Deleting an older round still asks first.
    delete.tap()
    expect(page.get_by_role("button", name="Yes, delete round 2")).to_be_visible()


def test_the_first_dealer_is_chosen_on_the_seats_as_typed(page: Page, server):
    page.goto(f"{server}/games/new")
    page.wait_for_load_state("load")
    names = ["Ann", "Ben", "Cat", "Dev", "Eve"]
    for i, name in enumerate(names):
        page.locator(f"#seat-{i}").fill(name)
    # A fifth and sixth seat appeared as the names were typed, each with "deals first".
    expect(page.locator("#seat-5")).to_be_visible()
    page.locator("input[name=dealer][value='4']").check()
    page.get_by_role("button", name="Start game").tap()
    expect(page.locator(".deal-info")).to_contain_text("Eve deals")


def test_the_first_dealer_stays_right_when_seats_move(page: Page, server):
    page.goto(f"{server}/games/new")
    page.wait_for_load_state("load")
    for i, name in enumerate(["Ann", "Ben", "Cat"]):
        page.locator(f"#seat-{i}").fill(name)
    page.locator("input[name=dealer][value='2']").check()
    page.get_by_role("button", name="Move Cat up a seat").tap()
    expect(page.locator("#seat-1")).to_have_value("Cat")
    expect(page.locator("input[name=dealer][value='1']")).to_be_checked()
    page.get_by_role("button", name="Take Ann off the table").tap()
    expect(page.locator("#seat-0")).to_have_value("Cat")
    expect(page.locator("input[name=dealer][value='0']")).to_be_checked()
    page.get_by_role("button", name="Start game").tap()
    expect(page.locator(".deal-info")).to_contain_text("Cat deals")


def test_a_watcher_has_no_button_that_changes_the_game(page: Page, server, another_phone):
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    for _ in range(7):
        record(page, "Ann", {"Ben": "2"}, made=["Ann"])
        if page.get_by_role("heading", name="Game over").count():
            break
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    game_url = page.url
    other = another_phone().new_page()
    other.goto(game_url)
    expect(other.get_by_role("heading", name="Game over")).to_be_visible()
    buttons = other.locator("#main button, #main input[type=submit]")
    assert buttons.count() == 0, buttons.all_inner_texts()
    expect(other.get_by_text("Play again")).to_have_count(0)
    # A forged request with the watcher's own form token is refused.
    token = other.evaluate("JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRFToken']")
    for path in ("again", "rounds/undo"):
        # Sent from the watcher's own page, with its cookies, as a forged form would be.
        status = other.evaluate("""([address, token]) => fetch(address, {method: 'POST', body: new URLSearchParams({csrf_token: token})})
                                     .then((answer) => answer.status)""", [f"{game_url}/{path}", token])
        assert status == 403, path


def test_screenshots_of_the_round_screen(page: Page, server, live_app, artifacts):
    for names in (["Ann", "Ben", "Cat", "Dev"], EIGHT):
        game_id, key = seeded(live_app, "balmoral", names, [])
        keep_score(page, server, game_id, key)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.evaluate("localStorage.clear()")  # the light screenshot's draft would come back
            page.goto(f"{server}/games/{game_id}/rounds/new")
            mark_out(page, names[1])
            page.get_by_role("button", name=f"Add K to {names[2]}", exact=True).tap()
            page.get_by_role("button", name=f"Add 7 to {names[2]}", exact=True).tap()
            dock = dock_box(page)
            assert dock["y"] + dock["height"] <= 844 + 1
            if len(names) <= 6:
                assert document_height(page) <= 844
            page.screenshot(path=str(artifacts / f"round-screen-{len(names)}-players-{scheme}.png"))


def test_every_tap_target_is_big_enough_on_the_top_bar(page: Page, server):
    page.goto(server + "/")
    for link in page.locator("header.top a").all():
        box = link.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, link.inner_text()


@contextmanager
def keeper_without_javascript(browser, server: str, game_id: int, key: str) -> Iterator[Page]:
    """A phone with JavaScript off (a 390x844 touch screen), keeping score of the game."""
    plain = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                java_script_enabled=False)
    try:
        page = plain.new_page()
        page.goto(f"{server}/games/{game_id}/join?key={key}")
        page.get_by_role("button", name="Keep score on this phone").tap()
        expect(page.locator("p.flash")).to_contain_text("can now keep score")
        yield page
    finally:
        plain.close()


def test_the_round_screen_works_without_javascript(browser, server, live_app):
    game_id, key = seeded(live_app, "balmoral", ["Ann", "Ben", "Cat"], [])
    with keeper_without_javascript(browser, server, game_id, key) as page:
        page.goto(f"{server}/games/{game_id}/rounds/new")
        mark_out(page, "Ann")
        # Each key posts the form: the server adds the card to the first player needing a hand
        # (the keys' names follow on the page that comes back).
        page.locator("button[data-rank='K']").tap()
        expect(page.locator("#pen-1")).to_have_text("10")
        expect(page.locator("[data-who]")).to_have_text("Ben")
        row(page, "Cat").locator(".pick").tap()
        page.locator("button[data-rank='7']").tap()
        expect(page.locator("#pen-2")).to_have_text("7")
        expect(page.locator("[data-who]")).to_have_text("Cat")
        page.get_by_role("button", name="Take the last card off Cat's hand").tap()
        expect(page.locator("#pen-2")).to_have_text("0")
        page.get_by_role("button", name="Add 9 to Cat", exact=True).tap()
        page.get_by_role("button", name="Save round 1").tap()
        expect(page.locator("p.flash")).to_contain_text("Round 1 saved.")
        assert totals(page) == {"Ann": 0, "Ben": 10, "Cat": 9}


def test_the_made_of_the_player_who_went_out_is_locked_on_until_someone_else_goes_out(page: Page, server, artifacts):
    """Going out makes the contract: the row that is out says "went out: made" and its Made
    cannot be un-ticked (the player moves up whatever it shows); moving "Out" unlocks it."""
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat"])
    page.get_by_role("link", name="Record round 1").tap()
    expect(page.get_by_role("heading", name="Record round 1")).to_be_visible()
    made = {name: row(page, name).locator("input[type=checkbox][name^=achieved]") for name in ["Ann", "Ben", "Cat"]}
    mark_out(page, "Ben")
    expect(made["Ben"]).to_be_checked()
    expect(made["Ben"]).to_be_disabled()
    expect(row(page, "Ben").locator(".made-lock")).to_be_visible()
    expect(row(page, "Ben").locator(".made-lock")).to_have_text("went out: made")
    expect(row(page, "Ben").locator(".made-word")).to_be_hidden()
    assert row(page, "Ben").locator(".made-toggle").bounding_box()["height"] >= 44
    page.screenshot(path=str(artifacts / "round-screen-went-out-made-locked.png"))
    row(page, "Ben").locator(".made-toggle").tap(force=True)  # the tap the tester made: nothing changes
    expect(made["Ben"]).to_be_checked()
    expect(made["Ann"]).to_be_enabled()
    # Ann goes out instead: Ben's Made is his again (still ticked), Ann's is locked on.
    mark_out(page, "Ann")
    expect(made["Ann"]).to_be_disabled()
    expect(made["Ann"]).to_be_checked()
    expect(made["Ben"]).to_be_enabled()
    expect(row(page, "Ben").locator(".made-word")).to_be_visible()
    expect(row(page, "Ben").locator(".made-lock")).to_be_hidden()
    mark_made(page, "Ben", made=False)
    tap_cards(page, "Ben", "K")
    tap_cards(page, "Cat", "Q")
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".flash")).to_contain_text("saved")
    # Ann (locked, not posted by her box) moved up; Ben, un-ticked once unlocked, did not.
    expect(page.locator(".changes")).to_contain_text("Ann went out. Ann (to level 2) moves up.")
    assert totals(page) == {"Ann": 0, "Ben": 10, "Cat": 10}
