"""A finished game's result card shared from a phone at the table's name over plain HTTP: no
share sheet there, so one tap on "Share the result" downloads the picture."""

from __future__ import annotations

from io import BytesIO

from PIL import Image
from playwright.sync_api import Page, expect

from factories import a_round, start_game
from scorekeeper import store
from scorekeeper.rules import CLASSIC


def test_one_tap_on_share_the_result_downloads_the_card_where_there_is_no_share_sheet(page: Page, server, live_app):
    with live_app.app_context():
        game_id = start_game(("Ann", "Ben", "Cat"), rules=CLASSIC)
        for number in range(1, 8):
            store.record_round(game_id, number, a_round("Ann", points={"Ben": 10, "Cat": 20}))
    page.goto(f"{server}/games/{game_id}/watch")
    share = page.get_by_role("link", name="Share the result")
    expect(share).to_be_visible()
    with page.expect_download() as download:
        share.tap()
    assert download.value.suggested_filename == f"game-{game_id}.png"
    with Image.open(BytesIO(download.value.path().read_bytes())) as card:
        assert card.format == "PNG" and card.size == (1200, 630)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
