"""A person at the table, on a phone: whole games, a wrong entry, corrections, a double tap."""

import re

import pytest
from playwright.sync_api import Page, expect
from sqlalchemy import func, select

from scorekeeper.store.models import Round, db


def start_game(page: Page, server: str, rules: str, names: list[str], dealer: int = 0, dealer_rule=None):
    page.goto(f"{server}/")
    page.get_by_role("link", name="Start a new game").tap()
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    # htmx binds the rules radios at load: a tap before that would post nothing.
    page.wait_for_load_state("load")
    if rules == "classic":
        page.get_by_label(re.compile("Contract Rummy")).check()
        expect(page.get_by_role("textbox", name="Decks")).to_be_visible()
        expect(page.get_by_role("textbox", name="Jokers")).to_be_visible()
    for i, name in enumerate(names):
        # A new seat appears as the last one gets a name: no button between the names.
        page.locator(f"#seat-{i}").fill(name)
    if dealer:
        page.locator(f"input[name=dealer][value='{dealer}']").check()
    if dealer_rule:
        page.get_by_label(dealer_rule).check()
    page.get_by_role("button", name="Start game").tap()
    expect(page.locator("h1")).to_have_text(re.compile(r"Round 1|Deal 1"))


def row(page: Page, name: str):
    """A player's row on the round screen."""
    return page.locator(f".player:has(.pname:text-is('{name}'))")


def time_passes(page: Page, ms: int) -> None:
    """The phone's clock moves on by ``ms`` at once (Playwright's clock, which the test installed
    before opening the app): every timer due meanwhile fires now, and a request one of them
    makes has been sent when this returns. Nothing is slept on."""
    page.clock.run_for(ms)
    page.evaluate("() => 0")  # after the timers' requests: their events are in when this answers


def pick(page: Page, name: str) -> None:
    """Tap a player's row: the keypad then types into that hand."""
    row(page, name).locator(".pick").tap()
    expect(page.locator("[data-who]")).to_have_text(name)


def mark_out(page: Page, name: str) -> None:
    row(page, name).locator(".out-toggle").tap()


def mark_made(page: Page, name: str, made: bool = True) -> None:
    box = row(page, name).locator("input[type=checkbox][name^=achieved]")
    if box.is_checked() != made:
        row(page, name).locator(".made-toggle").tap()
    expect(box).to_be_checked(checked=made)


def open_typing(page: Page, name: str) -> None:
    pick(page, name)
    if not row(page, name).locator(".typed").is_visible():
        page.get_by_role("button", name=f"Type {name}'s cards or points").tap()


def type_cards(page: Page, name: str, text: str) -> None:
    open_typing(page, name)
    page.get_by_label(f"Cards left for {name}").fill(text)


def type_points(page: Page, name: str, value) -> None:
    open_typing(page, name)
    page.get_by_label(f"or {name}'s points counted by hand").fill(str(value))


def tap_cards(page: Page, name: str, cards: str) -> None:
    pick(page, name)
    for rank in cards.split():
        label = "Joker" if rank == "JK" else rank
        page.get_by_role("button", name=f"Add {label} to {name}", exact=True).tap()


def record(page: Page, went_out: str, hands: dict[str, str] | None = None, made=(), typed=None, points=None):
    """Record a round the way a person does: tap who went out, tap the cards, tick, save."""
    page.get_by_role("link", name=re.compile(r"Record (round|deal)")).tap()
    expect(page.get_by_role("heading", name=re.compile("Record (round|deal)"))).to_be_visible()
    mark_out(page, went_out)
    for name, cards in (hands or {}).items():
        tap_cards(page, name, cards)
    for name, text in (typed or {}).items():
        type_cards(page, name, text)
    for name, value in (points or {}).items():
        type_points(page, name, value)
    for name in made:
        mark_made(page, name)
    page.get_by_role("button", name=re.compile(r"Save (round|deal)")).tap()
    expect(page.locator("p.flash")).to_contain_text(re.compile("(Round|Deal) [0-9]+ saved"))


def totals_become(page: Page, expected: dict[str, int], timeout: float = 15_000) -> None:
    """Wait until the board's totals are ``expected`` (the server's board may follow a moment
    after a board drawn on the phone)."""
    page.wait_for_function(
        """(expected) => { const rows = [...document.querySelectorAll('table.standings tbody tr')];
            const seen = Object.fromEntries(rows.map(r => [r.querySelector('.pname').textContent.trim(),
                                                           Number(r.querySelector('.total').textContent)]));
            return JSON.stringify(Object.entries(seen).sort()) === JSON.stringify(Object.entries(expected).sort()); }""",
        arg=expected, timeout=timeout)


def totals(page: Page) -> dict[str, int]:
    rows = page.locator("table.standings tbody tr")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        out[row.locator(".pname").inner_text()] = int(row.locator(".total").inner_text())
    return out


def contract_of(page: Page, name: str) -> str:
    return page.locator("table.standings tbody tr", has_text=name).locator(".contract").inner_text()


@pytest.mark.slow  # a whole game of seven rounds, tapped
def test_complete_balmoral_game_to_a_shared_win(page: Page, server, artifacts):
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat", "Dev"])
    expect(page.locator(".deal-info")).to_contain_text("Ann deals")
    expect(page.locator(".deal-info")).to_contain_text("Ben plays first")
    expect(page.locator(".deal-info")).to_contain_text("13 cards each")
    expect(page.locator(".deal-info")).to_contain_text("2 decks")
    expect(page.locator("#main")).not_to_contain_text("joker")
    assert contract_of(page, "Cat") == "Level 1: 3 sets of 3"

    # Round 1: Ben goes out; Ann holds A K 7 7 (39); Cat 10 10 Q 2 (32); Dev made contract.
    record(page, "Ben", {"Ann": "A K 7 7", "Cat": "10 10 Q 2", "Dev": "3"}, made=["Dev"])
    expect(page.locator(".changes")).to_contain_text("Ben went out")
    assert totals(page) == {"Ann": 39, "Ben": 0, "Cat": 32, "Dev": 3}
    assert contract_of(page, "Ben") == "Level 2: 1 set of 3 and 1 run of 4"
    assert contract_of(page, "Ann") == "Level 1: 3 sets of 3"
    # The winner of the round deals next.
    expect(page.locator(".deal-info")).to_contain_text("Ben deals")
    expect(page.locator(".deal-info")).to_contain_text("Cat plays first")
    page.screenshot(path=str(artifacts / "scoreboard-balmoral.png"), full_page=True)

    # Rounds 2..7: Ann goes out each time and Ben makes his contract; Cat and Dev hold cards.
    for n in range(2, 8):
        if n == 2:
            page.get_by_role("link", name=re.compile(r"Record round")).tap()
            mark_out(page, "Ann")
            page.screenshot(path=str(artifacts / "round-screen.png"), full_page=True)
            page.get_by_role("link", name="Cancel").tap()
        record(page, "Ann", {"Cat": "5", "Dev": "K"}, typed={"Ben": ""}, points={"Ben": 0}, made=["Ben"])
        expect(page.locator("h1")).to_have_text(re.compile(rf"Round {n + 1}|Game over"))
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    # Ann (ladder 6 after 6 outs) and Ben (7) — Ben completed level 7 and ended the game.
    expect(page.locator(".banner")).to_contain_text("ended after round 7")
    board = totals(page)
    assert board["Ann"] == 39 and board["Ben"] == 0
    # Make it a tie: correct round 1 so that Ann held nothing... she did not go out, so 0 points.
    page.get_by_role("link", name="Correct round 1").tap()
    pick(page, "Ann")
    page.get_by_role("button", name="Ann has no cards left").tap()
    expect(row(page, "Ann").locator(".penalty")).to_have_text("0")
    page.get_by_role("button", name="Save correction").tap()
    expect(page.locator(".banner")).to_contain_text("Ann and Ben share the win with 0 each.")
    expect(page.locator("table.standings")).to_contain_text("completed 7 of 7 levels")
    expect(page.get_by_role("link", name=re.compile("Record round"))).to_have_count(0)
    page.screenshot(path=str(artifacts / "game-over-balmoral.png"), full_page=True)
    # No further rounds: the round screen sends you back with a message.
    page.goto(page.url.rstrip("/") + "/rounds/new")
    expect(page.locator(".flash")).to_contain_text("The game is over")
    # Play again keeps the seats and moves the first deal on.
    page.get_by_role("button", name="Play again with the same players").tap()
    expect(page.locator(".deal-info")).to_contain_text("Ben deals")
    assert list(totals(page)) == ["Ann", "Ben", "Cat", "Dev"]


def test_complete_classic_game_with_jokers(page: Page, server):
    start_game(page, server, "classic", ["Ann", "Ben", "Cat"])
    expect(page.locator("h1")).to_have_text("Deal 1: two groups")
    expect(page.locator(".deal-info")).to_contain_text("10 cards each")
    expect(page.locator(".deal-info")).to_contain_text("2 decks, 1 joker")
    deals = [
        ("Ann", {"Ben": "JK 2", "Cat": "A"}),
        ("Ben", {"Ann": "K", "Cat": "3 3"}),
        ("Cat", {"Ann": "2", "Ben": "Q"}),
        ("Ann", {"Ben": "4", "Cat": "5"}),
        ("Ben", {"Ann": "JK", "Cat": "10"}),
        ("Cat", {"Ann": "9", "Ben": "8"}),
        ("Ann", {"Ben": "7", "Cat": "6"}),
    ]
    dealers = ["Ann", "Ben", "Cat", "Ann", "Ben", "Cat", "Ann"]
    cards = [10, 10, 10, 10, 12, 12, 12]
    for n, ((out, hands), dealer, count) in enumerate(zip(deals, dealers, cards, strict=True), start=1):
        expect(page.locator(".deal-info")).to_contain_text(f"{dealer} deals")
        expect(page.locator(".deal-info")).to_contain_text(f"{count} cards each")
        record(page, out, hands)
        if n < 7:
            expect(page.locator("h1")).to_contain_text(f"Deal {n + 1}:")
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    # Ann: 10+2+15+9 = 36; Ben: 17+10+4+8+7 = 46; Cat: 15+6+5+10+6 = 42.
    assert totals(page) == {"Ann": 36, "Ben": 46, "Cat": 42}
    expect(page.locator(".banner")).to_contain_text("Ann wins with 36.")


def test_wrong_entry_is_refused_then_fixed(page: Page, server, live_app):
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat"])
    page.get_by_role("link", name=re.compile(r"Record round")).tap()
    mark_out(page, "Ann")
    type_cards(page, "Ben", "A X 7")
    pick(page, "Cat")
    for _ in range(9):
        page.get_by_role("button", name="Add K to Cat", exact=True).tap()
    expect(page.locator("#pen-2")).to_have_text("90")
    page.get_by_role("button", name="Save round 1").tap()
    # Every error at once, each next to its player.
    expect(page.locator("#err-1")).to_contain_text('Ben: "X" is not a card')
    expect(page.locator("#err-2")).to_contain_text("Cat: that makes 9 × K in this round, but 2 decks hold only 8")
    expect(page.locator("#seat-0 .seat-errors")).to_have_count(0)
    # Nothing typed is lost.
    expect(page.get_by_label("Cards left for Ben")).to_have_value("A X 7")
    with live_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Round)) == 0
    type_cards(page, "Ben", "A 7")
    pick(page, "Cat")
    page.get_by_role("button", name="Remove K from Cat's hand").first.tap()
    expect(page.locator("#pen-2")).to_have_text("80")
    page.get_by_role("button", name="Save round 1").tap()
    expect(page.locator(".flash")).to_contain_text("Round 1 saved.")
    assert totals(page) == {"Ann": 0, "Ben": 22, "Cat": 80}


def test_correcting_an_early_round_changes_later_levels(page: Page, server):
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat"])
    record(page, "Ann", {"Ben": "2", "Cat": "2"}, made=["Ben"])
    record(page, "Ann", {"Ben": "2", "Cat": "2"}, made=["Ben"])
    record(page, "Cat", {"Ann": "2", "Ben": "2"}, made=["Ben"])
    assert contract_of(page, "Ben") == "Level 4: 2 runs of 4"
    assert contract_of(page, "Ann") == "Level 3: 2 sets of 4"
    page.get_by_role("link", name="Correct round 1").tap()
    mark_made(page, "Ben", False)
    page.get_by_role("button", name="Save correction").tap()
    expect(page.locator(".flash")).to_contain_text("Round 1 corrected")
    assert contract_of(page, "Ben") == "Level 3: 2 sets of 4"
    # Undo the last round: one tap.
    page.get_by_role("button", name="Undo round 3").tap()
    expect(page.locator("h1")).to_have_text("Round 3")
    expect(page.locator("[data-undo]")).to_contain_text("Round 3 removed.")
    assert contract_of(page, "Ben") == "Level 2: 1 set of 3 and 1 run of 4"
    expect(page.locator(".deal-info")).to_contain_text("Ann deals")


def test_double_tap_on_save_records_one_round(page: Page, server, live_app, context, another_phone):
    start_game(page, server, "balmoral", ["Ann", "Ben"])
    # A second phone of the scorekeeper's (the same keys, a storage of its own: a tab of the same
    # browser would share the first one's outbox and drafts) opens the same round before the
    # first saves it.
    phone = another_phone()
    phone.add_cookies(context.cookies())
    other = phone.new_page()
    other.goto(page.url + "/rounds/new")
    mark_out(other, "Ben")
    other.get_by_role("button", name="Add 9 to Ann", exact=True).tap()
    page.get_by_role("link", name=re.compile(r"Record round")).tap()
    mark_out(page, "Ann")
    page.get_by_role("button", name="Add 7 to Ben", exact=True).tap()
    save = page.get_by_role("button", name="Save round 1")
    save.dblclick()
    expect(page.locator("h1")).to_have_text("Round 2")
    # A second phone (or a replayed request) posting the same round number is refused.
    with live_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Round)) == 1
    assert totals(page) == {"Ann": 0, "Ben": 7}
    other.get_by_role("button", name="Save round 1").tap()
    expect(other.locator(".flash")).to_contain_text("Round 1 is already recorded")
    assert totals(other) == {"Ann": 0, "Ben": 7}
    with live_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Round)) == 1


def test_no_horizontal_scroll_and_big_targets(page: Page, server):
    start_game(page, server, "balmoral", ["Ann", "Ben", "Cat", "Dev", "Eve", "Fay"])
    record(page, "Ann", {"Ben": "2", "Cat": "2", "Dev": "2", "Eve": "2", "Fay": "2"})
    for url in [page.url, page.url + "/rounds/new"]:
        page.set_viewport_size({"width": 360, "height": 800})
        page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        small = page.evaluate(
            """() => [...document.querySelectorAll('button, a.button, .choice, .toggle')]
                 .filter(e => e.offsetParent !== null)
                 .map(e => e.getBoundingClientRect())
                 .filter(r => r.height < 44 || r.width < 44).length"""
        )
        offenders = page.evaluate(
            """() => [...document.querySelectorAll('button, a.button, .choice, .toggle')]
                 .filter(e => e.offsetParent !== null)
                 .filter(e => { const r = e.getBoundingClientRect(); return r.height < 44 || r.width < 44; })
                 .map(e => e.outerHTML.slice(0, 80))"""
        )
        assert small == 0, offenders[:5]
