"""A club night run from the keeper's phone by touch, in French, at the table's network name
over plain HTTP: a name too long refused and typed again, the tables drawn and the first
one started."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from scorekeeper import store


def test_the_keeper_runs_a_night_by_touch_in_french_and_mends_a_wrong_name(another_phone, server, club_link, live_app):
    page: Page = another_phone(locale="fr-FR").new_page()
    page.goto(club_link)
    page.goto(f"{server}/nights/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.locator("input[name=rules][value=classic]").tap()
    page.locator("form[action$='/nights/'] button[type=submit]").tap()
    expect(page.locator("h1")).to_contain_text("Soirée du")

    # A name longer than a name may be: refused in words naming it, nobody checked in.
    page.locator("#new-names").fill("Ann, Ben, Cat, Dan, Anne-Marie-Louise-Charlotte-Sophie-Élisabeth")
    page.locator("#new-names").locator("xpath=ancestor::form").locator("button[type=submit]").tap()
    expect(page.get_by_role("alert")).to_contain_text("Anne-Marie")
    expect(page.get_by_role("alert")).to_contain_text("40")
    with live_app.app_context():
        night = store.list_nights()[0]
        assert store.checked_in(night.id) == []

    # Typed again, right this time: six players here, two tables of three.
    page.locator("#new-names").fill("Ann, Ben, Cat, Dan, Eve, Fay")
    page.locator("#new-names").locator("xpath=ancestor::form").locator("button[type=submit]").tap()
    expect(page.locator(".flash")).to_contain_text("Eve")
    page.locator("form[action$='/draw'] button[type=submit]").tap()
    start = page.locator("form[action$='/tables/1/start'] button[type=submit]")
    expect(start).to_be_visible()
    start.tap()
    expect(page.locator(".flash")).to_contain_text("table 1")
    # The page fits the phone: nothing scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    with live_app.app_context():
        assert len(store.night_games(night.id)) == 1
