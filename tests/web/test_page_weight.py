"""The benchmark's page-weight budget (bench/targets.py, docs/performance.md), checked as `make bench`
measures it (bench/page_weight.py): the scoreboard of the phone keeping score fetches under
15 KB of our own CSS and JavaScript, compressed as a phone takes it. Sizes do not depend on the
machine, so the budget is a test."""

from __future__ import annotations

import brotli

from bench import page_weight
from bench.targets import OWN_ASSETS_KB
from conftest import close, join, make_app
from scorekeeper import store
from scorekeeper.rules import BALMORAL, CLASSIC, GameSetup, RoundRecord


def test_the_scoreboard_keeps_to_the_budget_for_our_own_css_and_javascript(tmp_path):
    # As served in production: htmx from the CDN, with our small fallback beside it.
    app = make_app(tmp_path, USE_CDN=True)
    try:
        with app.app_context():
            game, key = store.create_game(GameSetup.create(BALMORAL, ["Ann", "Ben", "Cat", "Dan"], first_dealer="Ann"))
            game_id = game.id
        phone = app.test_client()
        assert join(phone, game_id, key).status_code in (302, 303)

        def fetch(url: str) -> tuple[bytes, str]:
            answer = phone.get(url, headers={"Accept-Encoding": "br"})
            assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "br", url
            return answer.data, brotli.decompress(answer.data).decode()

        weights = {}
        for page, path in (("scoreboard", f"/games/{game_id}"), ("round screen", f"/games/{game_id}/rounds/new")):
            sizes = page_weight.own_assets(phone.get(path).text, fetch)
            assert "/static/app.css" in sizes and "/static/js/main.js" in sizes and "/static/js/outbox.js" in sizes
            weights[page] = page_weight.ours(sizes)
            if page == "round screen":  # the keypad's adding-up of a hand is counted with it
                assert "/static/js/keypad.js" in sizes and "/static/js/hand-score.js" in sizes
        assert weights["scoreboard"] < OWN_ASSETS_KB * 1024, weights
        # The round screen loads the keypad and the drafts besides (and so weighs more).
        assert weights["round screen"] > weights["scoreboard"]
    finally:
        close(app)


def test_a_finished_game_s_scoreboard_with_its_share_sheet_keeps_to_the_budget(tmp_path):
    # A finished game's board offers its result card to the share sheet: share.js comes with it.
    app = make_app(tmp_path, USE_CDN=True)
    try:
        with app.app_context():
            game, key = store.create_game(GameSetup.create(CLASSIC, ["Ann", "Ben", "Cat"], first_dealer="Ann"))
            game_id = game.id
            for number in range(1, 8):
                store.record_round(game_id, number, RoundRecord.create("Ann", points={"Ben": 10, "Cat": 20}))
        phone = app.test_client()
        assert join(phone, game_id, key).status_code in (302, 303)

        def fetch(url: str) -> tuple[bytes, str]:
            answer = phone.get(url, headers={"Accept-Encoding": "br"})
            assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "br", url
            return answer.data, brotli.decompress(answer.data).decode()

        sizes = page_weight.own_assets(phone.get(f"/games/{game_id}").text, fetch)
        assert "/static/js/share.js" in sizes
        assert page_weight.ours(sizes) < OWN_ASSETS_KB * 1024, sizes
    finally:
        close(app)
