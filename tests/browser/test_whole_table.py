"""The whole table keeps score: the scorekeeper's phone and each player's own, by their seat
links, at 390x844 with touch. Every tap is counted per phone, and printed."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper import store
from scorekeeper.files.gamefile import round_document

from .test_signal import background_sync, controlled_by_the_service_worker
from .test_table import record, row, start_game, time_passes, type_cards
from .test_taps import Taps

PLAYERS = ["Ann", "Ben", "Cat"]


def seat_links(page: Page, server: str) -> dict[str, str]:
    """Make the seat links on the share page, as the scorekeeper does; each player's address."""
    page.get_by_role("link", name="Share").tap()
    page.get_by_role("button", name="Make seat links").tap()
    expect(page.get_by_text("Seat links made for")).to_be_visible()
    found = {}
    for name in PLAYERS:
        link = page.locator(f"details.seat-link:has(summary:text-is(\"{name}'s seat link\")) a")
        found[name] = link.get_attribute("href")
    page.get_by_role("link", name="Back to the scoreboard").tap()
    return found


def open_seat(another_phone, url: str, name: str) -> Page:
    player = another_phone().new_page()
    player.goto(url)
    expect(player.get_by_role("heading", name=f"{name}: round 1")).to_be_visible()
    return player


def tap_hand(player: Page, taps: Taps, name: str, cards: str = "", out: bool = False, made: bool = False) -> None:
    if out:
        taps.tap("out", row(player, name).locator(".out-toggle"))
    for rank in cards.split():
        taps.tap("cards", player.get_by_role("button", name=f"Add {rank} to {name}", exact=True))
    if made:
        taps.tap("made", row(player, name).locator(".made-toggle"))
    taps.tap("send", player.get_by_role("button", name="Send to the scorekeeper"))


def arrival(page: Page, name: str):
    return row(page, name).locator("[data-arrival]")


def test_four_phones_a_round_takes_each_player_their_own_hand_and_the_scorekeeper_two_taps(
        page: Page, server, another_phone, live_app, artifacts):
    start_game(page, server, "balmoral", PLAYERS)
    links = seat_links(page, server)
    phones = {name: open_seat(another_phone, links[name], name) for name in PLAYERS}
    taps = {name: Taps() for name in ["scorekeeper", *PLAYERS]}

    taps["scorekeeper"].tap("open the round screen", page.get_by_role("link", name="Record round 1"))
    for name in PLAYERS:
        expect(arrival(page, name)).to_have_text(f"waiting for {name}")

    hands = {"Ann": {"out": True}, "Ben": {"cards": "K 7 7", "made": True}, "Cat": {"cards": "Q 5 5 3"}}
    shown = {"Ann": "went out (0)", "Ben": "K 7 7 (24), made the level", "Cat": "Q 5 5 3 (23)"}
    for name in PLAYERS:
        player = phones[name]
        # The penalty shows as the player taps, before anything is sent.
        tap_hand(player, taps[name], name, **hands[name])
        expect(player.locator("[data-sent-line]")).to_contain_text(f"Sent: {shown[name]}")
        # On the scorekeeper's screen within 2 s of the player's sending.
        expect(arrival(page, name)).to_have_text(f"sent by {name}: {shown[name]}", timeout=2000)
    expect(page.locator("#pen-1")).to_have_text("24")
    expect(page.locator("#pen-2")).to_have_text("23")
    expect(row(page, "Ann").locator("input[name=went_out]")).to_be_checked()

    taps["scorekeeper"].tap("save", page.get_by_role("button", name="Save round 1"))
    expect(page.locator(".flash")).to_contain_text("Round 1 saved")

    with live_app.app_context():
        state = store.load(1).state
        stored = round_document(state.setup, state.rounds[0].record)
    assert stored["went_out"] == "Ann"
    assert stored["hands"] == {"Ben": "K 7 7", "Cat": "Q 5 5 3"}
    assert stored["achieved"] == ["Ann", "Ben"]

    # Every player's phone shows their own line of the saved round, and opens the next one.
    for name in PLAYERS:
        expect(phones[name].locator(".own-line")).to_contain_text(f"Round 1 saved: your hand {shown[name]}")
        expect(phones[name].get_by_role("heading", name=f"{name}: round 2")).to_be_visible()

    counts = {name: t.total for name, t in taps.items()}
    print("\nTaps per phone for the round:", json.dumps(counts))
    (artifacts / "table-taps.json").write_text(json.dumps(
        {"taps": counts, "breakdown": {name: dict(t.counts) for name, t in taps.items()}}, indent=2) + "\n")
    assert counts["scorekeeper"] == 2
    assert counts == {"scorekeeper": 2, "Ann": 2, "Ben": 5, "Cat": 5}


def test_the_scorekeepers_typing_in_a_row_survives_an_arrival(page: Page, server, another_phone):
    start_game(page, server, "balmoral", PLAYERS)
    links = seat_links(page, server)
    ben, cat = (open_seat(another_phone, links[name], name) for name in ("Ben", "Cat"))
    page.get_by_role("link", name="Record round 1").tap()
    row(page, "Cat").locator(".pick").tap()
    page.get_by_role("button", name="Add 5 to Cat", exact=True).tap()
    page.get_by_role("button", name="Add 6 to Cat", exact=True).tap()
    # An arrival for another row fills that row; the row being typed keeps what was typed.
    tap_hand(ben, Taps(), "Ben", "K")
    expect(arrival(page, "Ben")).to_have_text("sent by Ben: K (10)")
    expect(page.locator("#pen-1")).to_have_text("10")
    expect(row(page, "Cat").locator("[data-chips]")).to_have_text("56")
    expect(page.locator("[data-who]")).to_have_text("Cat")
    # What the scorekeeper tapped is on Cat's phone; Cat sends her own over it.
    expect(cat.locator("[data-sent-line]")).to_contain_text("The scorekeeper entered: 6 5 (11)")
    cat.get_by_role("button", name="Clear Cat's hand").tap()
    # Cat's own hand arriving does not overwrite the scorekeeper's: it is named beside it.
    tap_hand(cat, Taps(), "Cat", "Q")
    expect(cat.locator("[data-sent-line]")).to_contain_text("Sent: Q (10)")
    expect(arrival(page, "Cat")).to_have_text("Cat sent: Q (10) (yours is kept)")
    # Her phone says which of the two the save will take.
    expect(cat.locator("[data-sent-line]")).to_contain_text(
        "The scorekeeper entered 6 5 (11): theirs will be saved unless they change it.")
    expect(page.locator("#pen-2")).to_have_text("11")
    row(page, "Ann").locator(".out-toggle").tap()
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".flash")).to_contain_text("Round 1 saved")
    # The scorekeeper's entry won, and Cat's phone shows it.
    expect(cat.locator(".own-line")).to_contain_text("Round 1 saved: your hand 6 5 (11)")


def test_what_the_scorekeeper_enters_in_a_row_shows_on_that_players_phone(page: Page, server, another_phone):
    start_game(page, server, "balmoral", PLAYERS)
    links = seat_links(page, server)
    ann, ben = (open_seat(another_phone, links[name], name) for name in ("Ann", "Ben"))
    page.get_by_role("link", name="Record round 1").tap()
    expect(arrival(page, "Ann")).to_have_text("waiting for Ann")
    entries: list[str] = []
    page.on("request", lambda r: r.method == "POST" and "/rounds/new/entry/" in r.url and entries.append(r.url))
    row(page, "Ann").locator(".pick").tap()
    for rank in ("K", "7", "7"):
        page.get_by_role("button", name=f"Add {rank} to Ann", exact=True).tap()
    # On Ann's phone within 2 s of the scorekeeper's last tap, saying who entered it.
    expect(ann.locator("[data-sent-line]")).to_contain_text("The scorekeeper entered: K 7 7 (24)", timeout=2000)
    expect(row(ann, "Ann").locator("[data-chips]")).to_have_text("K77")
    expect(arrival(page, "Ann")).to_have_text("entered by the scorekeeper: K 7 7 (24)")
    # Nothing went for a row the scorekeeper did not touch.
    assert entries and all(url.endswith("/rounds/new/entry/0") for url in entries)
    expect(ben.locator("[data-sent-line]")).to_contain_text("Not sent yet")
    # Ann sends again: the last one wins, and both phones show it.
    ann.get_by_role("button", name="Clear Ann's hand").tap()
    tap_hand(ann, Taps(), "Ann", "5")
    expect(ann.locator("[data-sent-line]")).to_contain_text("Sent: 5 (5)")
    expect(arrival(page, "Ann")).to_have_text("Ann sent: 5 (5) (yours is kept)")
    # The scorekeeper's form is what is saved, checked whole; Ben going out tells Ann nothing new.
    row(page, "Ben").locator(".out-toggle").tap()
    row(page, "Cat").locator(".pick").tap()
    page.get_by_role("button", name="Add Q to Cat", exact=True).tap()
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".flash")).to_contain_text("Round 1 saved")
    expect(ann.locator(".own-line")).to_contain_text("Round 1 saved: your hand K 7 7 (24)")


def test_a_players_word_that_a_round_is_wrong_stays_on_the_board_until_the_round_is_corrected(
        page: Page, server, another_phone):
    start_game(page, server, "balmoral", PLAYERS)
    links = seat_links(page, server)
    cat = open_seat(another_phone, links["Cat"], "Cat")
    # The scorekeeper enters Cat's hand wrong: a 5 where she held a queen.
    record(page, "Ann", {"Ben": "K", "Cat": "5"})
    expect(cat.locator(".own-line")).to_contain_text("Round 1 saved: your hand 5 (5)")
    cat.get_by_role("button", name="That's not my hand").tap()
    expect(cat.locator(".own-line")).to_contain_text("You told the scorekeeper round 1 is wrong for you.")
    # The scorekeeper's board hears it by its own poll, and keeps saying it through the next round.
    word = page.locator(".flags")
    expect(word).to_contain_text("Cat says round 1 is wrong.")
    record(page, "Ben", {"Ann": "3", "Cat": "4"})
    expect(page.locator("h1")).to_have_text("Round 3")
    expect(word).to_contain_text("Cat says round 1 is wrong.")
    # Correcting the round answers her word: the line goes, and her total counts the queen.
    word.get_by_role("link", name="Correct round 1").tap()
    type_cards(page, "Cat", "Q")
    page.get_by_role("button", name="Save correction").tap()
    expect(page.locator(".flash")).to_contain_text("Round 1 corrected")
    expect(page.locator(".flags")).to_have_count(0)
    expect(page.locator("table.standings tbody tr", has_text="Cat").locator(".total")).to_have_text("14")


@pytest.mark.offline
def test_an_offline_players_hand_arrives_when_the_signal_returns(page: Page, server, another_phone):
    start_game(page, server, "balmoral", PLAYERS)
    links = seat_links(page, server)
    cat = open_seat(another_phone, links["Cat"], "Cat")
    page.get_by_role("link", name="Record round 1").tap()
    cat.context.set_offline(True)
    tap_hand(cat, Taps(), "Cat", "J 4")
    expect(cat.locator("[data-sent-line]")).to_contain_text("Not sent yet: no signal")
    expect(arrival(page, "Cat")).to_have_text("waiting for Cat")
    cat.context.set_offline(False)
    expect(arrival(page, "Cat")).to_have_text("sent by Cat: J 4 (14)")
    expect(cat.locator("[data-sent-line]")).to_contain_text("Sent: J 4 (14)")
    assert cat.evaluate("localStorage.getItem('scorekeeper-seat-outbox')") == "[]"
    expect(row(page, "Cat").locator("[data-chips]")).to_have_text("J4")


@pytest.mark.secure
@pytest.mark.offline
def test_the_service_worker_sends_a_players_hand_with_every_page_closed(page: Page, server, another_phone, live_app):
    start_game(page, server, "balmoral", PLAYERS)
    links = seat_links(page, server)
    phone = another_phone()
    cat = open_seat(lambda: phone, links["Cat"], "Cat")
    controlled_by_the_service_worker(cat)
    phone.set_offline(True)
    tap_hand(cat, Taps(), "Cat", "J 4")
    expect(cat.locator("[data-sent-line]")).to_contain_text("Not sent yet: no signal")
    cat.wait_for_function("() => OutboxDB.read('hands').then((list) => !!(list && list.length === 1))")
    cat.close()  # the phone's browser closes the app, the hand still waiting
    phone.set_offline(False)
    blank = background_sync(phone, server)

    def sent() -> list:
        with live_app.app_context():
            return [(h.cards, h.revision) for p, h in store.sent_hands(1, 1).items() if p == 2]

    for _ in range(150):
        if sent():
            break
        blank.wait_for_timeout(100)
    assert sent() == [("J 4", 1)]
    # The player's page opened again: the hand is sent, nothing waits, nor is sent twice.
    posts: list[str] = []
    blank.on("request", lambda r: r.method == "POST" and posts.append(r.url))
    blank.clock.install()
    blank.goto(f"{server}/games/1/hand")
    expect(blank.locator("[data-sent-line]")).to_contain_text("Sent: J 4 (14)")
    blank.wait_for_function("() => localStorage.getItem('scorekeeper-seat-outbox') === '[]'")
    blank.wait_for_function("() => OutboxDB.read('sent-hands').then((sent) => !!sent && sent.length === 0)")
    time_passes(blank, 6000)  # longer than the page's own retry: nothing more is sent
    assert posts == []
    assert sent() == [("J 4", 1)]


def test_a_player_who_ticked_out_by_mistake_unticks_it(page: Page, server, another_phone):
    start_game(page, server, "balmoral", PLAYERS)
    cat = open_seat(another_phone, seat_links(page, server)["Cat"], "Cat")
    out = re.compile(r"\bis-out\b")
    row(cat, "Cat").locator(".out-toggle").tap()
    expect(row(cat, "Cat")).to_have_class(out)
    row(cat, "Cat").locator(".out-toggle").tap()
    expect(row(cat, "Cat")).not_to_have_class(out)
    expect(row(cat, "Cat").locator("[data-chips]")).to_have_text("no cards yet")


def test_after_a_save_a_players_phone_shows_their_new_total_above_the_keypad(page: Page, server, another_phone):
    start_game(page, server, "balmoral", PLAYERS)
    links = seat_links(page, server)
    cat = open_seat(another_phone, links["Cat"], "Cat")
    record(page, "Ann", {"Ben": "K", "Cat": "Q 5"})
    record(page, "Ben", {"Ann": "3", "Cat": "4"})
    expect(cat.get_by_role("heading", name="Cat: round 3")).to_be_visible()
    total = cat.locator(".own-line [data-own-total]")
    expect(total).to_have_text("Your total: 19.")
    box, dock = total.bounding_box(), cat.locator(".dock").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= dock["y"], "Cat's total is under the keypad"
