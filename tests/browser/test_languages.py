"""A table in German on a phone: the keypad's court cards in the German table's letters, its
keys named in German, and the round saved with the canonical ones."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scorekeeper import store

from .test_round_screen import seeded
from .test_table import mark_out, pick, row


def test_a_german_phone_taps_koenig_dame_bube_ass_and_the_round_stores_k_q_j_a(another_phone, server, live_app):
    game_id, key = seeded(live_app, "balmoral", ["Ann", "Ben", "Cat"], [])
    page = another_phone(locale="de-DE").new_page()
    page.goto(f"{server}/games/{game_id}/join#key={key}")
    expect(page.locator("p.flash")).to_contain_text("kannst du jetzt dieses Spiel schreiben")
    expect(page.locator("html")).to_have_attribute("lang", "de")

    page.get_by_role("link", name="Runde 1 eintragen").tap()
    expect(page.get_by_role("heading", name="Runde 1 eintragen")).to_be_visible()
    mark_out(page, "Ann")
    pick(page, "Ben")
    keypad = page.locator("[data-keypad]")
    for letter in ("K", "D", "B", "A"):
        keypad.locator(f"button[data-label='{letter}']").tap()
    # The chips in the table's letters, the hand as the server reads it: canonical.
    expect(row(page, "Ben").locator("[data-chips] .chip")).to_have_text(["K", "D", "B", "A"])
    expect(row(page, "Ben").locator("input[name=hand-1]")).to_have_value("K Q J A")
    expect(row(page, "Ben").locator(".penalty")).to_have_text("45")
    pick(page, "Cat")
    # The keys are named for a screen reader in German as the keypad moves to Cat's row.
    expect(keypad.locator("button[data-label='D']")).to_have_attribute("aria-label", "D zu Cat hinzufügen")
    expect(page.locator("[data-hand]")).to_have_text("tippe die Karten auf der Hand")
    keypad.locator("button[data-label='7']").tap()
    page.get_by_role("button", name="Runde 1 speichern").tap()
    expect(page.locator("p.flash")).to_contain_text("Runde 1 gespeichert.")

    with live_app.app_context():
        hands = store.load(game_id).state.rounds[0].record.hands
        assert {name: hand.canonical for name, hand in hands.items()} == {"Ben": "A K Q J", "Cat": "7"}


@pytest.mark.parametrize("locale", ["en-GB", "de-DE", "es-ES", "fr-FR", "fi-FI"])
def test_the_menu_fits_one_line_of_a_phone_in_every_language(another_phone, server, locale):
    page = another_phone(locale=locale).new_page()
    page.goto(f"{server}/")
    expect(page.locator("html")).to_have_attribute("lang", locale[:2])
    header = page.locator("header.top").bounding_box()
    parts = [page.locator("header.top .brand"), *page.locator("header.top nav a").all()]
    assert len(parts) == 7
    boxes = [part.bounding_box() for part in parts]
    # One line: every link beside the spade, none below another, none past the screen's edge.
    tops = [round(box["y"]) for box in boxes]
    assert max(tops) - min(tops) <= 1, (locale, tops)
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= 390 for box in boxes), (locale, boxes)
    assert header["height"] < 2 * min(box["height"] for box in boxes), (locale, header)
    # Each link stays a fingertip's size, and the page does not scroll sideways.
    assert all(box["height"] >= 44 and box["width"] >= 24 for box in boxes), (locale, boxes)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
