"""A whole club night, by touch, with the club's TV following it: the keeper's phone opens the
night, checks in eleven players (six from the roster, five new), draws three tables (4, 4, 3)
and starts them; each table's phone taps its rounds in until its game is over; a second round of
games is drawn (seating the fewest pairs who met already) and played; the night is closed. The
big screen, a browser of its own at 1920x1080 on the same network name, shows every table's
totals and levels, a banner as each game ends, and the night's standings after every step.

Every table plays a house rule set of two Balmoral levels: the player who goes out twice
completes both and ends the game, so a game is two rounds. Each table's phone is a browser of
its own (its own outbox: tabs of one browser share it, and one tab may send another's round),
given the edit keys the keeper's phone got by starting the tables (its cookies), as the keeper
hands a table its game's edit link."""

from __future__ import annotations

import re
import time
from fractions import Fraction
from itertools import combinations

import pytest
from playwright.sync_api import Page, expect

from scorekeeper import store
from scorekeeper.rules import meetings

from .conftest import CDN_HOST
from .test_table import record, time_passes

ROSTER = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
NEW = ["Gus", "Hal", "Ivy", "Jon", "Kim"]
#: What each seat holds when the first player goes out: seat 2 a king, seat 3 a five, seat 4 a two.
HANDS = ["K", "5", "2"]
PENALTY = {"K": 10, "5": 5, "2": 2}
LEVEL_1, LEVEL_2 = "Level 1: 3 sets of 3", "Level 2: 1 set of 3 and 1 run of 4"


@pytest.fixture
def two_levels(live_app) -> str:
    """The roster the club has already, and its rule set for a quick night: Balmoral's first two levels."""
    with live_app.app_context():
        for name in ROSTER:
            store.add_player(name)
        doc = store.get_ruleset("balmoral").document
        return store.save_ruleset({**doc, "name": "Two levels", "stages": doc["stages"][:2]}).key


def big_screen(another_phone) -> tuple[Page, list[str]]:
    """The club's TV: a browser of its own at 1920x1080, no touch; and the errors its console shows."""
    tv = another_phone(viewport={"width": 1920, "height": 1080}, device_scale_factor=1, is_mobile=False,
                       has_touch=False)
    errors: list[str] = []
    tv.on("console", lambda m: errors.append(m.text) if m.type == "error"
          and CDN_HOST not in (m.location or {}).get("url", "") else None)
    tv.on("weberror", lambda error: errors.append(f"uncaught: {error.error}"))
    screen = tv.new_page()
    # Its clock moves on only when the test says (:func:`a_poll`): the screen polls as it does
    # every two seconds, without the test waiting two seconds for it at every step.
    screen.clock.install()
    return screen, errors


def a_poll(tv: Page) -> None:
    """Two seconds pass on the big screen, once what it is to show is stored: it polls now."""
    time_passes(tv, 2000)


def expected_standings(results: list[dict[str, int]]) -> list[tuple[str, str]]:
    """The standings docs/using.md describes, worked out here from the totals the test entered:
    each game's place as a share of its table beaten, then the total against the table's
    average (no ties of total at a table here). Each line: the name and the points shown."""
    points: dict[str, Fraction] = {}
    relative: dict[str, Fraction] = {}
    for totals in results:
        size, average = len(totals), Fraction(sum(totals.values()), len(totals))
        order = sorted(totals.values())
        for name, total in totals.items():
            place = order.index(total) + 1
            points[name] = points.get(name, Fraction(0)) + Fraction(size - place, size - 1)
            relative[name] = relative.get(name, Fraction(0)) + total - average
    ranked = sorted(points, key=lambda n: (-points[n], relative[n], n.casefold()))
    return [(name, f"{float(points[name]):.2f}") for name in ranked]


def shows_standings(where: Page, results: list[dict[str, int]]) -> None:
    lines = expected_standings(results)
    rows = where.locator("table.standings tbody tr")
    expect(rows).to_have_text([re.compile(rf"\s{name}\d+ games?.*\s{re.escape(pts)}\s", re.S) for name, pts in lines])


def shows_table(tv: Page, table: int, totals: dict[str, int], levels: list[str]) -> None:
    """The table on the big screen: its players in seat order, each total and level."""
    card = tv.locator(f"article.screen-table[data-table='{table}']")
    expect(card.locator(".pname")).to_have_text(list(totals))
    expect(card.locator(".total")).to_have_text([str(t) for t in totals.values()])
    expect(card.locator(".level")).to_have_text(levels)


def seats(live_app, night_id: int, night_round: int) -> dict[int, tuple[int, list[str]]]:
    """The night's tables of one round of games: each table's game and its players in seat order."""
    with live_app.app_context():
        return {t.table: (t.game_id, list(store.load(t.game_id).state.setup.players))
                for t in store.night_games(night_id) if t.round == night_round}


def totals_after(names: list[str], rounds: int) -> dict[str, int]:
    """A table's totals after ``rounds`` of the test's rounds: the first player out each time."""
    return {names[0]: 0, **{name: rounds * PENALTY[held] for name, held in zip(names[1:], HANDS)}}


def play_a_round_of_games(keeper: Page, phones: list[Page], tv: Page, server: str, live_app, night_id: int,
                          night_round: int, results: list[dict[str, int]]) -> None:
    """The keeper starts the three tables drawn; each table's phone taps in two rounds (the first
    player goes out both times, so the game ends). The big screen after every round saved."""
    for table in (1, 2, 3):
        keeper.locator(f"form[action$='/tables/{table}/start'] button[type=submit]").tap()
        expect(keeper.locator(".flash")).to_contain_text(f"Table {table} is playing")
    a_poll(tv)
    tables = seats(live_app, night_id, night_round)
    for phone in phones:
        phone.context.add_cookies(keeper.context.cookies())  # the new games' edit keys
    assert sorted(len(names) for _game, names in tables.values()) == [3, 4, 4]
    for table, (_game, names) in tables.items():
        shows_table(tv, table, dict.fromkeys(names, 0), [LEVEL_1] * len(names))
    expect(tv.locator(".screen-banner")).to_have_count(0)

    playing: dict[int, dict[str, int]] = {}  # the tables' totals as they stand
    for phone, (table, (game_id, names)) in zip(phones, tables.items()):
        phone.goto(f"{server}/games/{game_id}")
        record(phone, names[0], dict(zip(names[1:], HANDS)))
        a_poll(tv)
        playing[table] = totals_after(names, 1)
        shows_table(tv, table, playing[table], [LEVEL_2] + [LEVEL_1] * (len(names) - 1))
        # A game counts as it stands, its players marked as still playing.
        shows_standings(tv, results + list(playing.values()))
        expect(tv.locator(".screen-standings tbody tr", has_text="(still playing)")).to_have_count(
            sum(len(t) for t in playing.values()))

    for done, (phone, (table, (_game, names))) in enumerate(zip(phones, tables.items()), start=1):
        record(phone, names[0], dict(zip(names[1:], HANDS)))
        a_poll(tv)
        del playing[table]
        results.append(totals_after(names, 2))
        # The banner, the table's final totals, how far each player climbed, and the standings.
        expect(tv.locator(f".screen-banner[data-table='{table}']")).to_have_text(
            f"Table {table}: game over. {names[0]} wins with 0.")
        expect(tv.locator(".screen-banner")).to_have_count(done)
        shows_table(tv, table, results[-1], ["completed 2 of 2 levels"] + ["completed 0 of 2 levels"] * (len(names) - 1))
        expect(tv.locator(f"article.screen-table[data-table='{table}'] .tag.win")).to_have_text("winner")
        shows_standings(tv, results + list(playing.values()))
    expect(tv.locator(".screen-standings")).not_to_contain_text("(still playing)")


def test_a_whole_club_night_by_touch_with_the_big_screen_following_it(page: Page, server, club_link, live_app,
                                                                      another_phone, two_levels, artifacts):
    began = time.monotonic()
    keeper = page
    keeper.goto(club_link)
    keeper.goto(f"{server}/nights/")
    keeper.locator(f"input[name=rules][value='{two_levels}']").tap()
    keeper.locator("form[action$='/nights/'] button[type=submit]").tap()
    expect(keeper.locator("h1")).to_contain_text("Club night of")
    night_id = int(keeper.url.rstrip("/").rsplit("/", 1)[1])

    # The club's TV opens the night's big screen by the link on the night's page: no key, no menu.
    tv, tv_errors = big_screen(another_phone)
    tv.goto(server + keeper.get_by_role("link", name="Show on a big screen").get_attribute("href"))
    expect(tv.locator("#screen")).to_contain_text("No table is playing yet.")
    expect(tv.locator("nav, form, button")).to_have_count(0)

    # Eleven players: six ticked from the roster, five new names typed.
    for name in ROSTER:
        keeper.locator("label.choice", has_text=re.compile(rf"^\s*{name}\s*$")).tap()
    keeper.locator("#new-names").fill(", ".join(NEW))
    keeper.locator("#new-names").locator("xpath=ancestor::form").locator("button[type=submit]").tap()
    expect(keeper.locator(".flash")).to_contain_text("Kim")
    with live_app.app_context():
        assert sorted(c.name for c in store.checked_in(night_id)) == sorted(ROSTER + NEW)

    # Seats drawn: three tables wait, and the screen says who sits where.
    keeper.locator("form[action$='/draw'] button[type=submit]").tap()
    expect(keeper.locator("form[action$='/tables/3/start']")).to_be_visible()
    a_poll(tv)
    expect(tv.locator(".screen-table")).to_have_count(3)
    expect(tv.locator(".screen-status")).to_have_text(["Waiting to start"] * 3)
    expect(tv.locator(".screen-standings")).to_contain_text("No game yet tonight.")

    phones = [another_phone().new_page() for _ in range(3)]  # each table's phone
    results: list[dict[str, int]] = []
    play_a_round_of_games(keeper, phones, tv, server, live_app, night_id, 1, results)
    first = seats(live_app, night_id, 1)
    met = {frozenset(pair) for _game, names in first.values() for pair in combinations(names, 2)}

    # The second round of games: drawn on the keeper's phone, whose page shows the standings.
    keeper.reload()
    shows_standings(keeper, results)
    keeper.locator("form[action$='/draw'] button[type=submit]").tap()
    expect(keeper.locator("form[action$='/tables/3/start']")).to_be_visible()
    a_poll(tv)
    expect(tv.locator(".screen-status")).to_have_text(["Waiting to start"] * 3)
    expect(tv.locator(".screen-banner")).to_have_count(0)
    with live_app.app_context():
        drawn = [t.names for t in store.drawn_tables(store.get_night(night_id))[1]]
    # Two tables of four from three tables: each seats one pair who met, and no more do.
    assert meetings(drawn, met) == 2
    play_a_round_of_games(keeper, phones, tv, server, live_app, night_id, 2, results)

    # Closed: the screen says so and keeps the night's standings, everyone with two games.
    keeper.goto(f"{server}/nights/{night_id}")
    keeper.get_by_role("link", name="Close the night").tap()
    keeper.get_by_role("button", name="Yes, close the night").tap()
    expect(keeper.locator(".flash")).to_contain_text("The night is closed.")
    a_poll(tv)
    expect(tv.locator(".screen-head")).to_contain_text("The night is closed.")
    shows_standings(tv, results)
    expect(tv.locator(".screen-standings tbody tr", has_text="2 games")).to_have_count(11)
    # The TV, a tablet on the wall and a phone: nothing runs off the side.
    for width, height in ((1920, 1080), (1024, 768), (390, 844)):
        tv.set_viewport_size({"width": width, "height": height})
        assert tv.evaluate("document.documentElement.scrollWidth") <= width
        tv.screenshot(path=str(artifacts / f"night-screen-{width}.png"))
    assert not tv_errors, tv_errors
    print(f"\nA whole night (six games, twelve rounds), tapped: {time.monotonic() - began:.1f} s")
