"""The ratings on a phone: the leaderboard, its filters, and a player's rating chart."""

import re

import pytest
from playwright.sync_api import Page, expect

from history_games import random_docs
from scorekeeper.files import transfer
from scorekeeper.files.gamefile import backup_document, read_document
from scorekeeper.store.models import db


@pytest.fixture
def games(live_app):
    """Twenty-four finished games of five regulars and two of a newcomer (provisional)."""
    docs = random_docs(24, seed=15, players=["Ann", "Ben", "Cat", "Dev", "Eve"])
    docs += random_docs(2, seed=16, players=["Ann", "Ben", "Maximiliana-Josephine"])
    docs = [d for d in docs if d.get("finished_at")]
    with live_app.app_context():
        outcomes = transfer.import_files(read_document(backup_document(docs)))
        db.session.remove()
    return [o.game_id for o in outcomes]


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url


def test_the_leaderboard_then_a_players_rating_chart(page: Page, server, games, artifacts):
    page.goto(f"{server}/history")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Ratings").tap()
    expect(page.get_by_role("heading", name="Ratings", exact=True)).to_be_visible()
    no_sideways_scroll(page)
    ranked = page.locator("section[aria-labelledby=ranked-h] tbody tr")
    expect(ranked.first).to_be_visible()
    assert ranked.count() >= 4
    ratings = [float(t) for t in ranked.locator("td.rating").all_inner_texts()]
    assert ratings == sorted(ratings, reverse=True)
    # Each regular's last five games as a sparkline, named for a screen reader.
    expect(ranked.first.get_by_role("img", name=re.compile(r"(Up|Down|No change).* over the last 5 games"))
           ).to_be_visible()
    provisional = page.locator("section[aria-labelledby=provisional-h]")
    expect(provisional).to_contain_text("Maximiliana-Josephine")
    page.screenshot(path=str(artifacts / "ratings.png"), full_page=True)

    # One rule set: the same page, filtered.
    # Applied as it changes, once the script that does so has run: no Show to tap.
    expect(page.get_by_role("button", name="Show")).to_be_hidden()
    page.get_by_label("Rules").select_option("classic")
    expect(page).to_have_url(re.compile(r"rules=classic"))
    expect(page.get_by_text(re.compile(r"finished games?, Contract Rummy"))).to_be_visible()
    no_sideways_scroll(page)

    # The leader's page: the rating chart fills the phone's width, drawn by the stylesheet.
    page.goto(f"{server}/ratings")
    leader = ranked.first.get_by_role("link")
    name = leader.inner_text()
    leader.tap()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    chart = page.locator("svg#rating-chart")
    chart.scroll_into_view_if_needed()
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["width"] > 300 and box["height"] > 150
    line = chart.locator("polyline.line")
    drawn = line.evaluate("el => { const b = el.getBBox(); const s = getComputedStyle(el);"
                          " return [b.width, s.stroke, s.fill] }")
    assert drawn[0] > 0 and drawn[1] not in ("none", "", "rgba(0, 0, 0, 0)")
    assert drawn[2] in ("none", "rgba(0, 0, 0, 0)")
    expect(chart.locator("circle.peak")).to_have_count(2)
    expect(page.get_by_role("img", name=re.compile(r"rating over \d+ rated games.*Best .* Lowest"))).to_be_visible()
    no_sideways_scroll(page)
    chart.screenshot(path=str(artifacts / "rating-chart.png"))


def test_rises_are_drawn_in_the_positive_colour_and_falls_in_the_warning_one(page: Page, server, games, artifacts):
    page.goto(f"{server}/ratings")
    colours = page.evaluate("""() => {
      const probe = document.createElement('span');
      document.body.append(probe);
      const of = v => { probe.style.color = `var(${v})`; return getComputedStyle(probe).color; };
      const stroke = sel => { const el = document.querySelector(sel); return el && getComputedStyle(el).stroke; };
      const colour = sel => { const el = document.querySelector(sel); return el && getComputedStyle(el).color; };
      return {accent: of('--accent'), danger: of('--danger'),
              up: stroke('svg.spark.up polyline'), down: stroke('svg.spark.down polyline'),
              rise: colour('.trend .rise'), fall: colour('.trend .fall')};
    }""")
    assert colours["up"] and colours["down"], colours  # the seeded club has both
    assert colours["up"] == colours["rise"] == colours["accent"], colours
    assert colours["down"] == colours["fall"] == colours["danger"], colours
    # A provisional player shows where they would stand, marked as such.
    place = page.locator("section[aria-labelledby=provisional-h] td.rank").first
    expect(place).to_have_text(re.compile(r"^\(\d\)\s*would be \d(?:st|nd|rd|th), provisional$"))
    page.screenshot(path=str(artifacts / "ratings.png"), full_page=True)
